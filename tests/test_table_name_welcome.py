"""The table's name reaches the players (issue 12, fresh-user trial: a table joined by
address was never named — the lobby header and ``jupai history`` showed the address,
not "Ann's table"). The host's ``welcome`` carries it (``table``, an informative
optional key, specs/protocol.md §4 and §6); an older host sends none and the client
falls back to the address."""

from __future__ import annotations

import pytest
from rich.console import Console

from jupai_net.client.screen import render_view
from jupai_net.client.screen_lobby import render_lobby
from jupai_net.host.server import for_version
from jupai_net.protocol import RemoteProtocolError, Welcome
from jupai_net.protocol.errors import BAD_FIELD
from jupai_net.protocol.framing import encode_frame
from jupai_net.rules import RuleSet

from .cli_helpers import jupai
from .pty_helpers import PtyJupai
from .test_net_play import Running, env_for, start_host
from .test_protocol_support import PLAYERS, RULES, TOKEN, pair


def _received(wire: dict) -> Welcome:
    c, h = pair("hello")
    c.receive_data(encode_frame({**wire, "seq": h.our_seq}))
    return c.next_event()


def test_welcome_carries_the_table_name_and_leaves_it_out_when_unknown():
    named = Welcome(0, TOKEN, RULES, PLAYERS, table="Ann's table")
    assert named.to_wire(seq=0)["table"] == "Ann's table"
    assert _received(named.to_wire(seq=0)) == named
    plain = Welcome(0, TOKEN, RULES, PLAYERS)
    assert "table" not in plain.to_wire(seq=0)  # as an older host sends it
    assert _received(plain.to_wire(seq=0)).table is None


@pytest.mark.parametrize("bad", ["\x1b[2Jgotcha", "Ann\ntable", "x" * 41, " Ann", "", 7])
def test_a_table_name_that_could_not_be_shown_is_refused(bad):
    wire = Welcome(0, TOKEN, RULES, PLAYERS).to_wire(seq=0)
    with pytest.raises(RemoteProtocolError) as err:
        _received({**wire, "table": bad})
    assert err.value.code == BAD_FIELD and "table" in str(err.value)


def test_the_host_sends_the_name_on_version_5_connections_only():
    named = Welcome(0, TOKEN, RULES, PLAYERS, table="Friday")
    assert for_version(named, 5).table == "Friday"
    for old in (1, 2, 3, 4):
        assert "table" not in for_version(named, old).to_wire(seq=0)


def _plain(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_lobby_names_the_table_above_the_address_and_falls_back_to_the_address():
    named = _plain(render_lobby(PLAYERS, seat=0, host="127.0.0.1", port=4747, join_code="ABCD", table="Ann's table"))
    lines = [line.strip("│ ") for line in named.splitlines()]
    at = lines.index("Ann's table")
    assert lines[at + 1].startswith("host 127.0.0.1:4747")
    unnamed = _plain(render_lobby(PLAYERS, seat=0, host="127.0.0.1", port=4747, join_code="ABCD"))
    assert "table" not in unnamed and "host 127.0.0.1:4747" in unnamed


def test_the_game_header_names_the_table_as_plain_text():
    from .engine_helpers import deal, setup_of

    obs = deal(RuleSet(players=2), setup_of("LF")).observation(0)
    text = _plain(render_view(obs, lang="en", table="[bold red]Ann[/] table"))
    assert "剧牌 Jupai · [bold red]Ann[/] table" in text  # a peer's text: never taken as markup


def test_jupai_join_by_address_names_the_table_and_history_keeps_it(tmp_path):
    """Through the commands: a person joins by address on a terminal and reads the
    table's name in the lobby and the game's header; ``jupai history`` lists the game
    under that name, not the address (the turn timer plays the person's moves)."""
    name = "Ann's [b]table"
    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--no-announce", "--bot-delay", "0",
                                  "--rounds", "2", "--games", "1", "--turn-timeout", "0.5", "--table-name", name)
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "ann"))
    person = PtyJupai(["join", addr, "--code", code, "--name", "Ann"], env, rows=40, columns=100)
    try:
        person.wait_for(r"Ann's \[b\]table\s*│?\s*\n.*host 127\.0\.0\.1:\d+ · join code")
        person.type("\r")  # past the trust-on-first-use warning
        person.wait_for(r"剧牌 Jupai · Ann's \[b\]table")
        assert person.finish(60) == 0, person.text[-2000:]
    finally:
        person.kill()
        host.kill()
    history = jupai("history", env={"JUPAI_CONFIG_DIR": str(tmp_path / "ann"), "COLUMNS": "160"})
    assert history.returncode == 0, history.stderr
    rows = [line for line in history.stdout.splitlines() if "Ann" in line]
    assert len(rows) == 1 and name in rows[0] and addr not in rows[0], history.stdout
