"""Host notices and host errors are said from codes (specs/protocol.md §7a): every
notice the host sends carries args that say it in English and Chinese, a Chinese
screen shows no English notice or refusal, and a client of protocol version 3 still
gets the English text alone."""

from __future__ import annotations

import re

import pytest
import trio

from jupai_net.client.render import render_table, to_text
from jupai_net.client.session import NoticeLine
from jupai_net.client.status_words import host_error_text, notice_text
from jupai_net.host.table import TableConfig
from jupai_net.messages import catalog
from jupai_net.messages.notices import NET_NOTICE_CODES, error_sentence, notice_sentence
from jupai_net.protocol import (
    ActionMessage,
    Chat,
    ClientConnection,
    Hello,
    HostConnection,
    LocalProtocolError,
    Notice,
    Ready,
    RemoteProtocolError,
    Welcome,
)
from jupai_net.protocol.errors import HOST_ERROR_CODES, NOTICE_CODES, REJECT_CODES
from jupai_net.rules import RuleSet

from .test_net_support import RawClient, TableHarness, host_config, start_host
from .test_protocol_support import RULES, TOKEN, deliver

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
#: An English word on a Chinese line: three or more Latin letters in a row (names aside).
ENGLISH = re.compile(r"[A-Za-z]{3,}")


def english_words(line: str) -> list[str]:
    for name in NAMES:
        line = line.replace(name, "")
    for word in ("greedy bot", "jupai watch", "jupai-net", "--name", "--dealer trusted"):  # names, commands, flags
        line = line.replace(word, "")
    return ENGLISH.findall(line)


def every_notice() -> list[Notice]:
    """Drive one table through every situation that makes the host send a notice: people
    join, a bot client joins, spectators come and go, chat too fast, a spectator chats,
    a turn times out, a player drops and comes back, is kicked in a game and in the lobby,
    a seat is not ready in time, a bot takes a seat for the next game, and a client of
    protocol version 3 sits down at a dealer-auto table (its own notices have no args)."""
    h = TableHarness(TableConfig(rules=RuleSet(players=3, rounds=2), turn_timeout=5.0, away_delay=1.0,
                                 chat_burst=1, ready_timeout=None), games=3)
    a, b, c = h.connect("Ann"), h.connect("Bob"), h.connect("Cy")
    w = h.connect("Eve", watch=True)
    w2 = h.connect("Dee", watch=True)
    h.send(w, Chat("hello"))
    h.send(a, Chat("one"))
    h.send(a, Chat("two"))
    h.drop(w2)
    h.ready_all(a, b, c)
    assert h.table.phase == "playing"
    h.advance(5.1)  # a turn times out
    token = h.last(a, Welcome).token
    h.drop(a)  # disconnected during the game: a bot plays until Ann comes back
    a = h.connect("Ann", token=token, resume=a)
    h.table.kick(h.seat[b], h.now)  # kicked during the game: a bot plays to the end
    h.drop(c)
    h.advance(2000.0)  # the bots finish the game; stand-in bots take the seats of who left
    assert h.table.phase == "lobby"
    h.table.config = TableConfig(rules=RuleSet(players=3, rounds=2), ready_timeout=3.0, dealer="auto")
    d = h.connect("Dee")  # the stand-in's seat
    h.table.kick(h.seat[d], h.now)  # kicked in the lobby
    old = h.connect("Eve", version=3)  # an old client: the table will deal trusted
    h.send(a, Ready(False))
    h.advance(4.0)  # Ann's ready timer runs out: seat freed
    notices = [m for cid in h.inbox if cid != old for m in h.inbox[cid] if isinstance(m, Notice)]
    return notices


#: Codes only a dealer-blind game in play sends (the in-memory harness deals trusted):
#: ``blind-wait`` comes from a real blind table in
#: ``test_evening_trial.py::test_a_blind_game_says_it_waits_for_the_key_of_a_seat_that_left``;
#: here its args as the host makes them, for the sentence checks below.
BLIND_ONLY = ("blind-wait",)


def blind_notices() -> list[Notice]:
    out = []
    for what, seconds in (("key", 27), ("turn", 70)):
        args = {"name": "Bob", "seat": 1, "what": what, "seconds": seconds}
        out.append(Notice("blind-wait", notice_sentence("blind-wait", args, "en"), args))
    return out


@pytest.fixture(scope="module")
def notices() -> list[Notice]:
    return every_notice() + blind_notices()


def test_every_notice_the_host_sends_has_args_whose_english_sentence_is_its_text(notices):
    seen = {n.code for n in notices[:-len(blind_notices())]} | set(BLIND_ONLY)
    assert seen == set(NET_NOTICE_CODES), set(NET_NOTICE_CODES) ^ seen
    whys = {n.args.get("why") for n in notices if n.code == "player-left"}
    thens = {n.args.get("then") for n in notices if n.code == "player-left"}
    assert whys == {"disconnected", "kicked", "ready-timeout", "left"} or whys >= {"disconnected", "kicked",
                                                                                  "ready-timeout"}, whys
    assert {"reconnect", "bot"} <= thens, thens
    for n in notices:
        assert n.text == notice_sentence(n.code, n.args, "en"), n
        assert n.args or n.code in ("chat-throttled", "spectator-readonly"), n


def test_every_notice_reads_in_chinese_without_english(notices):
    for n in notices:
        zh = notice_text(NoticeLine(n.code, n.text, 0.0, False, n.args), "zh")
        assert zh and zh != n.text and not english_words(zh), (n, zh)
        assert notice_text(NoticeLine(n.code, n.text, 0.0, False, n.args), "en") == n.text


def test_every_notice_and_host_error_code_is_in_both_languages():
    entries = catalog()
    assert set(NET_NOTICE_CODES) == set(NOTICE_CODES)  # every code the protocol lists has words
    for code in HOST_ERROR_CODES:
        en, zh = error_sentence(code, "en"), error_sentence(code, "zh")
        assert en and zh and en != zh and not english_words(zh), code
    for key, (en, zh) in entries.items():
        if key.startswith(("notice.net.", "host_error.")):
            assert en.strip() and zh.strip() and en != zh, key
    for code in (*HOST_ERROR_CODES, *REJECT_CODES):  # a refusal on a Chinese screen: no English detail
        line = NoticeLine(code, "some English detail from the host", 0.0, code in REJECT_CODES)
        zh = notice_text(line, "zh")
        assert "English detail" not in zh and not english_words(zh), (code, zh)
        if code in HOST_ERROR_CODES:
            assert "English detail" not in host_error_text(code, "some English detail", "zh")
    assert host_error_text("table-full", "all 4 seats are taken", "en") == "all 4 seats are taken"
    assert host_error_text("table-full", "", "en") == "table-full"  # no sentence: the code is all there is


def test_a_chinese_screen_shows_no_english_notice(notices):
    from jupai_net.engine import GameState

    from .test_client_render import setup_of

    state = GameState.new(RuleSet(players=3, rounds=2), list(range(53)), setup_of("LFF"))
    lines = [NoticeLine(n.code, n.text, 0.0, False, n.args) for n in notices]
    for k in range(0, len(lines), 3):
        screen = to_text(render_table(state.observation(0), names=list(NAMES[:3]), notices=lines[k:k + 3],
                                      lang="zh"), width=80)
        for n in notices[k:k + 3]:
            assert n.text not in screen
        words = [w for w in english_words(screen) if w not in ("Jupai",)]
        assert not words, (words, screen)


def test_a_version_3_client_gets_the_english_text_without_args():
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=3, min_version=1))
    deliver(h, c, Welcome(seat=0, token=TOKEN, rules=RULES, version=3))
    with pytest.raises(LocalProtocolError, match="notice.args needs protocol version 4"):
        h.send(Notice("player-joined", "Bob took seat 1", {"name": "Bob", "seat": 1}))
    assert deliver(h, c, Notice("player-joined", "Bob took seat 1")).args == {}
    assert "args" not in Notice("chat-throttled", "x").to_wire(seq=0)
    # a version-3 client refuses args it cannot know
    c3, h4 = ClientConnection(), HostConnection()
    deliver(c3, h4, Hello("Ann", version=3, min_version=1))
    deliver(h4, c3, Welcome(seat=0, token=TOKEN, rules=RULES, version=3))
    from jupai_net.protocol.framing import encode_frame

    wire = Notice("player-joined", "Bob took seat 1", {"name": "Bob", "seat": 1}).to_wire(seq=1)
    c3.receive_data(encode_frame(wire))
    with pytest.raises(RemoteProtocolError, match="notice.args"):
        c3.next_event()


async def test_the_host_sends_args_to_version_4_clients_and_text_alone_to_version_3():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(3))
        old, new = await RawClient.connect(server.port), await RawClient.connect(server.port)
        await old.send(Hello("Ann", version=3, min_version=1))
        await new.send(Hello("Bob"))
        third = await RawClient.connect(server.port)
        await third.send(Hello("Cy"))
        got: dict[str, Notice] = {}
        for who, client in (("old", old), ("new", new)):
            while who not in got:
                msg = await client.recv()
                if isinstance(msg, Notice) and msg.args.get("name", "Cy") == "Cy" and "Cy" in msg.text:
                    got[who] = msg
        assert got["old"].args == {} and got["old"].text == "Cy took seat 2"
        assert got["new"].args == {"name": "Cy", "seat": 2, "bot": False} and got["new"].text == "Cy took seat 2"
        nursery.cancel_scope.cancel()
