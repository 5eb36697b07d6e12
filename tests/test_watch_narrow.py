"""``jupai watch`` in narrow and short terminals (specs/client.md § Watch, issue 12): the
spectator's screen fits the terminal — every line within the width (a transcript's path
and the ``jupai verify`` command alone printed whole, to copy), the screen within the
height with the round's header (or the lobby's box) on top and the keys line at the
bottom — mid-game, at a game's end (verdict, transcript, series scoreboard) and in the
lobby between games, at 40×23, 60×24 and 80×24, in English and Chinese.

The trial found the 40-column ending 38 rows tall (the header scrolled off the top)."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.cells import cell_len
from rich.console import Console

from jupai_net.client.session import NoticeLine
from jupai_net.client.watch import WatchScreen
from jupai_net.fairness import Verdict
from jupai_net.protocol import Series, SeriesStanding

SIZES = [(40, 23), (60, 24), (80, 24)]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
KEYS_END = {"en": "/log: the game so far", "zh": "/log：本局记录"}
PATH = "~/.config/jupai/transcripts/0d2f2ee0cba9-spectator.jupai"
#: A dealer-blind verdict's reason, as long as the trial's (five rows at 40 columns).
REASON = ("dealer-blind: fair game: the host never saw a card it did not hold, the audit shows every shuffle "
          "and re-lock is the one its participant's seed gives, and the replay on the audited deck gives every "
          "outcome announced")
NAMES = ["Alexandria Longname", "张伟伟", "greedy bot 2", "Bob", "司马相如相如", "greedy bot 5"]


@functools.lru_cache(maxsize=None)
def _game(players: int, steps: int | None) -> tuple[dict, ...]:
    """A real spectator observation (``observation(None)``) of a seeded game after
    ``steps`` actions (None: at its end), and its log."""
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    game = play_game(RuleSet(players=players, rounds=6), rng_seed=5, max_steps=steps, game_id=b"\x07" * 16,
                     host_seed=b"\x01" * 32, seat_seeds=[bytes([2 + s]) * 32 for s in range(players)])
    obs = game.dealer.state.observation(None)
    assert (obs.get("result") is None) == (steps is not None)
    return (obs,)


def _board(players: int) -> Series:
    return Series(b"\x03" * 16, 4, None, False,
                  tuple(SeriesStanding(NAMES[s], 10 - s, 1, 4, s) for s in range(players)))


def _notices() -> tuple[NoticeLine, ...]:
    return (NoticeLine("spectator-joined", "x", 1.0, args={"name": "Wu", "count": 2}),
            NoticeLine("player-left", "x", 2.0, args={"name": NAMES[0], "seat": 0, "reason": "left"}))


def _view(players: int, state: str) -> SimpleNamespace:
    """The spectator's view: ``mid`` a running game with notices and chat, ``over`` a game
    just ended (the scoreboard, no verdict yet), ``checked`` with its verdict and
    transcript, ``lobby`` between games (the deal of the next one under way)."""
    obs = None if state == "lobby" else _game(players, 14 if state == "mid" else None)[0]
    view = SimpleNamespace(observation=obs, chat=(), notices=(), names=dict(enumerate(NAMES[:players])),
                           events=tuple((obs or {}).get("log") or ()), phase="playing", host="127.0.0.1", port=47474,
                           join_code="KXYP-53QJ-JRGY-0QWB", rules=SimpleNamespace(players=players), dealer="blind",
                           next_dealer="blind", table="Friday", waiting=(), verdict=None, series=None,
                           result=(obs or {}).get("result"), game_id=b"\x07" * 16, transcript_path=None,
                           players=[SimpleNamespace(seat=s, name=NAMES[s], ready=True, bot=s > 0, connected=True)
                                    for s in range(players)])
    if state in ("mid", "lobby"):
        view.notices = _notices()
        view.chat = ()
    if state in ("over", "checked", "lobby"):
        view.series = _board(players)
    if state == "checked":
        view.verdict = Verdict("verified", REASON)
        view.transcript_path = Path.home() / PATH[2:]
    if state == "lobby":
        view.phase = "seeding"
    return view


def _drawn(view: SimpleNamespace, lang: str, cols: int, rows: int) -> list[str]:
    """The screen as the terminal shows it after a redraw: its lines (ANSI codes off)."""
    out = io.StringIO()
    console = Console(file=out, width=cols, height=rows, force_terminal=True, color_system=None)
    screen = WatchScreen(lang=lang, console=console)
    screen.view = view
    screen.redraw()
    return [line.rstrip() for line in ANSI.sub("", out.getvalue()).rstrip("\n").split("\n")]


def _whole(line: str) -> bool:
    """A line printed whole, to copy: a transcript's path or the verify command."""
    return line.endswith(".jupai") or line.endswith(" verify \\")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("cols, rows", SIZES)
@pytest.mark.parametrize("players, state", [(6, "mid"), (4, "over"), (4, "checked"), (6, "checked"), (6, "lobby")])
def test_the_spectators_screen_fits_the_terminal_with_its_header_on_top(lang, cols, rows, players, state):
    lines = _drawn(_view(players, state), lang, cols, rows)
    text = "\n".join(lines)
    # every line within the width but a path or a command, which is whole
    assert all(cell_len(line) <= cols for line in lines if not _whole(line)), text
    # the terminal's rows (a whole line folds), one left for the cursor
    assert sum(max(1, -(-cell_len(line) // cols)) for line in lines) <= rows - 1, text
    if state == "lobby":
        assert ("大厅" if lang == "zh" else "Lobby") in lines[0], text
    else:
        assert lines[0].startswith("第 " if lang == "zh" else "Round "), text
    assert lines[-1].endswith(KEYS_END[lang]), text
    if state in ("over", "checked"):
        assert ("游戏结束" if lang == "zh" else "Game over") in text
        assert re.search(r"第1名 \d号位" if lang == "zh" else r"1\. seat \d", text), text  # the ranking
    if state == "checked":
        assert ("✔ 公平性：已验证" if lang == "zh" else "✔ fairness: verified") in text, text
        assert f"  {PATH}" in lines, text  # the path whole, on its own line
    if state == "over" or (state == "checked" and cols >= 60):
        assert ("积分榜" if lang == "zh" else "scoreboard") in text, text  # the series so far


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_roomy_terminal_keeps_the_whole_ending(lang):
    """What goes for want of rows stays when there is room: at 80×40 the verdict's
    reason, the ``jupai verify`` command, the players table and the scoreboard."""
    lines = _drawn(_view(4, "checked"), lang, 80, 40)
    flat = " ".join(" ".join(lines).split())
    assert "the audit shows every shuffle" in flat  # (the reason's words are the verifier's, English)
    assert any(line.rstrip(" \\").endswith("verify") or " verify " in line for line in lines), lines
    assert re.search(r"^\s+0 Alexa", "\n".join(lines), re.M), lines
    assert ("积分榜" if lang == "zh" else "scoreboard") in flat
