"""No peer reaches another person's terminal (issue 8 §4): every screen — the client's
table, lobby, chat, notices and game over, ``--plain`` lines, the host screen, the
ending and ``jupai verify`` — rendered with hostile names, chat, errors and formulas
holding rich markup and ESC/OSC/C1/bidi sequences shows them literally (markup) or
replaced (controls): nothing is interpreted, no control character is written. Then
``jupai join`` against a hostile host, as a person runs it."""

from __future__ import annotations

import copy
import io
import os
import random
import re
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console

from jupai_net.client.cli import report
from jupai_net.client.render import render_lobby, render_table, render_view
from jupai_net.client.ui import LineReader, TerminalPlayer, print_game_end
from jupai_net.engine import GameState
from jupai_net.fairness.cli import render as render_verdict
from jupai_net.fairness.verify import TAMPERED, Verdict
from jupai_net.host.cli import HostScreen
from jupai_net.play import PlainPlayer
from jupai_net.rules import RuleSet

from .engine_helpers import play_random
from .test_net_support import HostileHost

JUPAI = [sys.executable, "-m", "jupai_net"]

MARKUP = ["[/x]", "[link=file:///etc/passwd]x[/link]", "[bold red]host[/]"]
ESCAPES = ["\x1b]0;pwned\x07", "\x1b]52;c;cm0gLXJmIH4=\x07", "\x1b[2J\x1b[H", "\u202eevil", "\x9b31m", "a\nERROR forged"]
HOSTILE = MARKUP + ESCAPES
LINK = "[link=file:///x]x[/link]"  # 24 characters: a name the protocol accepts
NAMES = {0: "[/x]", 1: LINK, 2: "\x1b]0;pwned\x07Bob", 3: "\u202eCarol\x9b1m"}

SGR = re.compile(r"\x1b\[[0-9;]*m")  # rich's own colours: the only escapes allowed
BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def assert_clean(raw: str) -> None:
    """No escape but rich's colours, no control character but line breaks, no bidi
    control, no hyperlink (OSC 8: interpreted ``[link]`` markup)."""
    rest = SGR.sub("", raw)
    bad = [c for c in rest if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) <= 0x9F or c in BIDI]
    assert not bad, f"control characters reached the terminal: {sorted(set(map(repr, bad)))}"
    assert "\x1b]8;" not in raw


def assert_literal(raw: str, *texts: str) -> None:
    plain = " ".join(SGR.sub("", raw).split())
    for text in texts:
        assert text in plain, (text, plain[-2000:])


def terminal(width: int = 140) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, height=60, force_terminal=True, color_system="truecolor",
                   legacy_windows=False), out


def poison(tree: Any, rng: random.Random) -> Any:
    """``tree`` with every formula and reason string replaced by a hostile one."""
    if isinstance(tree, dict):
        return {k: (rng.choice(HOSTILE) if k in ("formula", "reason") and isinstance(v, str) else poison(v, rng))
                for k, v in tree.items()}
    if isinstance(tree, list):
        return [poison(v, rng) for v in tree]
    return tree


@pytest.fixture(scope="module")
def games() -> dict[str, Any]:
    """A 4-seat game midway (with a prompt) and finished, formulas poisoned."""
    rng = random.Random(8)
    rules = RuleSet(players=4, rounds=8)
    from jupai_net.cards import CANONICAL_DECK

    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    from jupai_net.setup import draw_setup

    st = GameState.new(rules, deck, draw_setup(rules, rng))
    play_random(st, rng, max_steps=25)
    while st.to_move != 0 and not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    mid = poison(st.observation(0), random.Random(1))
    legal = list(st.legal_actions(0)) if not st.is_over else []
    play_random(st, rng)
    end = poison(st.observation(0), random.Random(2))
    return {"mid": mid, "legal": legal, "end": end, "spectator": poison(st.observation(None), random.Random(3))}


CHAT = [{"seat": s, "name": NAMES[s], "text": text} for s, text in zip((1, 2, 3, 1), HOSTILE)] + \
       [{"seat": None, "name": "", "text": "[bold]fake host line[/bold]"}]
NOTICES = [{"code": "other", "text": text} for text in HOSTILE] + [{"code": "turn-timeout", "text": "[/x] timed out"}]


@pytest.mark.parametrize("width", [140, 80])
@pytest.mark.parametrize("stage", ["mid", "end"])
def test_the_client_table_shows_hostile_text_literally(games, stage, width):
    console, out = terminal(width)
    player = TerminalPlayer(console=console, clear=False, live_timer=False, reader=LineReader(0))
    view = SimpleNamespace(observation=games[stage], legal=games["legal"] if stage == "mid" else [],
                           chat=CHAT, notices=NOTICES, names=NAMES, seat=0, change="sync", phase="playing",
                           events=None, deadline=None, timeout=None)
    player.view = view
    player._legal = view.legal
    player.redraw()
    raw = out.getvalue()
    assert_clean(raw)
    assert_literal(raw, "[/x]", "[bold]fake host line[/bold]")
    if width == 140:
        assert_literal(raw, "[link=file:///etc/passwd]x[/link]")


def test_the_lobby_shows_hostile_names_and_chat_literally():
    console, out = terminal()
    players = [{"seat": s, "name": n, "ready": s % 2 == 0, "bot": False, "connected": True} for s, n in NAMES.items()]
    console.print(render_lobby(players, seat=0, host="127.0.0.1", port=1, join_code="ABCDE-FGHIJ", total=4,
                               chat=CHAT, notices=NOTICES[-3:]))
    raw = out.getvalue()
    assert_clean(raw)
    assert_literal(raw, "[/x]", LINK, "[/x] timed out")


def test_plain_lines_carry_no_control_characters(games):
    out = io.StringIO()
    player = PlainPlayer(out=out)
    for ev in games["end"]["log"]:
        player.on_update(SimpleNamespace(seat=0, change="statement", events=[ev], names=NAMES, chat=[], notices=[]))
    for line in CHAT:
        player.on_update(SimpleNamespace(seat=0, change="chat", events=[], names=NAMES, chat=[line], notices=[]))
    for notice in NOTICES:
        player.on_update(SimpleNamespace(seat=0, change="notice", events=[], names=NAMES, chat=[], notices=[notice]))
    raw = out.getvalue()
    assert_clean(raw)
    assert_literal(raw, "[/x]", "[link=file:///etc/passwd]x[/link]")


def test_the_ending_shows_hostile_errors_and_reasons_literally(games):
    for status, error in (("error", ("kicked", "[/x] bye \x1b]52;c;cm0=\x07")), ("host-gone", ("bye", "[/x]\x1b[2J"))):
        console, out = terminal()
        verdict = Verdict(TAMPERED, "the host said [/x] \x1b]0;t\x07")
        result = SimpleNamespace(status=status, error=error, verdict=verdict, ranking=[], seat=0,
                                 result={"names": list(NAMES.values())}, names=NAMES, view=None,
                                 transcript_path="/tmp/t.jupai")
        print_game_end(console, result)
        code = report(result, console, "en")
        raw = out.getvalue()
        assert_clean(raw)
        assert_literal(raw, "[/x]")
        assert code in (1, 6)
    console, out = terminal()
    end = SimpleNamespace(status="finished", error=None, verdict=None, ranking=[3, 2, 1, 0], seat=0,
                          result={"names": list(NAMES.values()), "cards_left": [1, 2, 3, 4]}, names=NAMES,
                          view=SimpleNamespace(observation=games["end"]), transcript_path=None)
    print_game_end(console, end)
    raw = out.getvalue()
    assert_clean(raw)
    assert_literal(raw, LINK)


def test_the_host_screen_shows_hostile_players_literally(games, tmp_path):
    console, out = terminal()
    screen = HostScreen(console, games=1)
    players = [SimpleNamespace(seat=s, name=n, ready=True, bot=False, connected=True) for s, n in NAMES.items()]
    screen(0, "lobby", {"players": players, "seats": 4})
    screen(0, "start", {"game_id": b"\x01" * 16, "rules": RuleSet(), "names": list(NAMES.values()), "host_key": "ab"})
    screen(0, "deal", {"observation": games["spectator"]})
    for ev in games["spectator"]["log"]:
        screen(0, "step", {"actor": 0, "action": None, "events": [ev], "observation": games["spectator"]})
    for line in CHAT:
        screen(0, "chat", {"seat": line["seat"], "name": line["name"] or "host", "text": line["text"]})
    for notice in NOTICES:
        screen(0, "notice", notice)
    screen(0, "end", {"result": {"reason": "[/x]\x1b[2J", "winner": 1, "ranking": [1, 0, 2, 3], "cards_left": [1, 0, 2, 3],
                                 "names": list(NAMES.values())}})
    screen.closing(tmp_path)
    raw = out.getvalue()
    assert_clean(raw)
    assert_literal(raw, "[/x]", "[link=file:///etc/passwd]x[/link]", "[bold]fake host line[/bold]",
                   "[/x] timed out", "game over", f"{LINK} (seat 1) wins (played out every card)")
    assert "host screen failed" not in raw
    spectator, out2 = terminal(80)
    spectator.print(render_table(games["spectator"], names=NAMES, chat=CHAT, notices=NOTICES))
    assert_clean(out2.getvalue())


def test_verify_shows_a_hostile_reason_without_escapes():
    console, out = terminal()
    render_verdict(Verdict(TAMPERED, "abandoned: [/x]\x1b]52;c;cm0=\x07\u202e", expected="[bold]x[/bold]\x1b[2J",
                           found="\x9b"), "/tmp/[/x].jupai", console)
    raw = out.getvalue()
    assert_clean(raw)
    assert_literal(raw, "[/x]", "[bold]x[/bold]")


def test_render_view_of_raw_hostile_observation_without_names(games):
    """Names arrive in the observation too (``players``), not only in ``names``."""
    obs = copy.deepcopy(games["mid"])
    for p in obs.get("players", []):
        p["name"] = NAMES[p["seat"]]
        p["hand_count"] = "[/x]"  # a host sending text where a number belongs
    console, out = terminal(100)
    console.print(render_view(obs, legal=games["legal"], chat=CHAT, notices=NOTICES, width=100, height=40))
    assert_clean(out.getvalue())


# ---------------------------------------------------------------- through `jupai join`
def _join(host: HostileHost, tmp_path) -> subprocess.CompletedProcess:
    """``jupai join`` with a stdin that stays open (a person who types nothing)."""
    env = {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path), "COLUMNS": "120", "LANG": "C.UTF-8",
           "PYTHONIOENCODING": "utf-8"}
    r, w = os.pipe()
    try:
        return subprocess.run(JUPAI + ["join", f"127.0.0.1:{host.port}", "--name", "Ann", "--code",
                                       host.identity.join_code],
                              capture_output=True, text=True, timeout=30, env=env, stdin=r)
    finally:
        os.close(r)
        os.close(w)


def test_join_prints_a_hosts_error_with_markup_literally(tmp_path):
    from jupai_net.protocol import ErrorMessage

    host = HostileHost([ErrorMessage("table-full", "[/x] bye [link=file:///etc/passwd]x[/link]")])
    out = _join(host, tmp_path)
    assert out.returncode == 6, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "[/x] bye [link=file:///etc/passwd]x[/link]" in " ".join(out.stderr.split())  # the refusal: stderr
    assert_clean(out.stdout)
    assert_clean(out.stderr)


def test_join_shows_hostile_names_chat_and_notices_literally(tmp_path):
    from jupai_net.protocol import ChatRelay, ErrorMessage, Lobby, Notice, PlayerInfo, Welcome

    players = (PlayerInfo(0, "Ann"), PlayerInfo(1, "[/x]"), PlayerInfo(2, LINK))
    host = HostileHost([
        Welcome(0, "t" * 32, RuleSet(players=4), players),
        Lobby(players),
        ChatRelay(1, "[/x]", "[bold red]host[/] says [link=file:///etc/passwd]click[/link]"),
        Notice("player-joined", "[/x] took a seat"),
        ErrorMessage("kicked", "[/x] bye"),
    ])
    out = _join(host, tmp_path)
    said = " ".join(out.stdout.split())
    assert out.returncode == 6, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    for text in ("[/x]", LINK, "[bold red]host[/] says [link=file:///etc/passwd]click[/link]"):
        assert text in said, text
    assert "[/x] bye" in out.stderr  # why the session ended: the error line, on stderr
    assert_clean(out.stdout)
    assert_clean(out.stderr)


def test_the_replay_ending_shows_a_hostile_abandon_reason_without_escapes():
    from jupai_net.client.replay_screen import ReplayScreen

    story = SimpleNamespace(steps=[], seat=0, dealer=None, names=(), ranking=None, winner=None, abandoned="[/x] \x1b]52;c;cm0=\x07 bye",
                            verdict=Verdict(TAMPERED, "reason \x1b[2J"), opening=None, deck=None)
    console, out = terminal()
    console.print(ReplayScreen(story).frame(1))
    raw = out.getvalue()
    assert_clean(raw)
    assert_literal(raw, "[/x]")


@pytest.mark.parametrize("seconds", [1e308, -5, 10**30])
def test_a_blind_wait_no_deadline_can_be_is_not_counted_down(seconds):
    """A host's ``blind-wait`` notice with a number no deadline can be: the status line
    says who the game waits for, without a 309-digit countdown."""
    from jupai_net.client.session import NoticeLine
    from jupai_net.client.status_words import status_text, wait_left

    obs = {"to_move": 1, "players": [{"seat": 0}, {"seat": 1}], "is_over": False}
    notices = [NoticeLine("blind-wait", "", 100.0, args={"seat": 1, "what": "turn", "seconds": seconds})]
    assert wait_left(notices, obs, now=100.0) is None
    fine = [NoticeLine("blind-wait", "", 100.0, args={"seat": 1, "what": "turn", "seconds": 30})]
    left = wait_left(fine, obs, now=110.0)
    assert left == 20.0
    assert "20" in status_text(obs, {1: "Bob"}, "en", (), left)
