"""Leaving a table in the middle of a series (issue 12, the new-user trial of 2 Dec):
the game count and the final scoreboard of a seat that rejoined mid-series and then
left, the history of a game the seat left (why, and its series tag), the lobby line
that says who starts the game, and what the players table's "Left" counts.

Through the commands a person types where a session is needed (`jupai host`, `jupai
join` on a pseudo-terminal, `jupai history`), en and zh; specs/client.md § Staying at
the table, § History, § What the player sees (lobby, players)."""

from __future__ import annotations

import io
import json
import random
import re
import signal
import subprocess
from types import SimpleNamespace

import pytest
from rich.cells import cell_len
from rich.console import Console

from .engine_helpers import deal, setup_of
from .test_client_cli import Terminal
from .test_net_hardening import HostProcess
from .test_net_play import JUPAI, env_for

TURN = r"(s left|秒) >"  # a prompt of the player's own turn (the host's turn timer runs)


def _nospace(text: str) -> str:
    """``text`` without any white space: a Chinese sentence wraps between characters."""
    return re.sub(r"\s+", "", text)


def _after(term: Terminal, mark: int, pattern: str, timeout: float = 60.0, also: tuple[Terminal, ...] = ()) -> None:
    """Read ``term`` until ``pattern`` appears in what it wrote after ``mark`` characters
    (reading the terminals ``also`` meanwhile: a program whose output nobody reads stops)."""
    _play_after(term, mark, pattern, timeout, also, answer=False)


def _play_after(term: Terminal, mark: int, end_pattern: str, timeout: float = 90.0,
                also: tuple[Terminal, ...] = (), answer: bool = True) -> None:
    """Answer every prompt written after ``mark`` with ``1`` (with ``answer``) until
    ``end_pattern`` appears after it, reading the terminals ``also`` meanwhile."""
    import time

    end = time.monotonic() + timeout
    answered = 0
    while time.monotonic() < end:
        text = term.text[mark:]
        if re.search(end_pattern, text):
            return
        if answer and len(re.findall(TURN, text)) > answered:
            term.type("1")
            answered += 1
        for other in also:
            other.read(0)
        if not term.read(0.05) and term.proc.poll() is not None:
            break
    raise AssertionError(f"{end_pattern!r} never appeared; last output:\n{term.text[-3000:]}")


def _terminal(tmp_path, name: str, argv: list[str], rows: int, cols: int) -> Terminal:
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / name), JUPAI_NO_MULTICAST="1",
               COLUMNS=str(cols), LINES=str(rows), TERM="xterm-256color")
    return Terminal(JUPAI + argv, env, rows=rows, cols=cols)


# ------------------------------------------------------------------ 1 + 3. a rejoin mid-series, then q


def test_a_seat_that_rejoined_mid_series_counts_the_tables_games_when_it_leaves(tmp_path):
    """Bob's trial at 60 columns in Chinese, Alice (80 columns, English) at the table all
    evening: the lobby says who starts the game; after game 1 Bob's `jupai join` dies
    (SIGKILL) at the question, the same command takes the seat back before game 2, and
    `q` after game 2 prints the series' final scoreboard (as every leaving player gets
    it) and `你在第 2 局后离开了牌桌` — the table's game number, not the one game this
    session played. (Their turns run out in 1 s: the clients play for them.)"""
    host = HostProcess(tmp_path, "--seats", "2", "--games", "3", "--rounds", "1", "--turn-timeout", "1",
                       "--no-announce")
    command = ["join", host.addr, "--code", host.code, "--name", "Bob", "--lang", "zh", "--seat", "0"]
    terms: list[Terminal] = []
    try:
        bob = _terminal(tmp_path, "bob", command, 24, 60)
        terms.append(bob)
        host.wait_for(r"Bob took seat 0")
        _after(bob, 0, r"让机器人补满空位")  # (wrapped between characters at 60 columns)
        lobby = _nospace(bob.text)
        assert "等待开局：2个座位坐满后开局，或由主机输入start让机器人补满空位" in lobby, bob.text[-1500:]
        assert "等待游戏开始" not in lobby
        alice = _terminal(tmp_path, "alice", ["join", host.addr, "--code", host.code, "--name", "Alice"], 24, 80)
        terms.append(alice)
        _after(bob, 0, r"准备好下一局了吗", also=(alice,))
        _after(alice, 0, r"Ready for the next game\?", also=(bob,))
        assert "积分榜 · 第 1/3 局后" in bob.text
        bob.proc.send_signal(signal.SIGKILL)
        bob.wait(10)

        again = _terminal(tmp_path, "bob", command, 24, 60)  # the very same command
        terms.append(again)
        _after(again, 0, r"已准备", also=(alice,))  # back in the lobby, ready
        mark = len(alice.text)
        alice.type("")  # Alice is ready too: game 2
        _after(again, 0, r"准备好下一局了吗", also=(alice,))
        _after(alice, mark, r"Ready for the next game\?", also=(again,))
        assert "积分榜 · 第 2/3 局后" in again.text, again.text[-2000:]
        mark = len(again.text)
        again.type("q")
        assert again.wait(30) == 0, again.text[-3000:]
        tail = _nospace(again.text[mark:])
        assert "━━最终积分榜·共2局━━" in tail, again.text[mark:]
        assert "Bob（你）" in tail and "参加2局" in tail, again.text[mark:]
        assert "你在第2局后离开了牌桌。" in tail, again.text[mark:]
        assert "第1局后离开" not in tail
        assert "Traceback" not in again.text
    finally:
        for term in terms:
            term.close()
        host.kill()


@pytest.mark.parametrize("lang, final, left", [
    ("en", "━━ final scoreboard · 2 games played, 1 abandoned ━━", "You left the table after game 3."),
    ("zh", "━━ 最终积分榜 · 完成 2 局，中止 1 局 ━━", "你在第 3 局后离开了牌桌。"),
])
def test_the_leaving_line_and_final_scoreboard_follow_the_series_not_the_session(lang, final, left):
    """`report` between games for a session that played only game 3 of the series (it
    rejoined after leaving game 2): the host's `series` says game 3, one abandoned —
    the final scoreboard and `after game 3`, as the seat that stayed all evening sees."""
    from jupai_net.client.cli import report
    from jupai_net.fairness import Verdict
    from jupai_net.protocol import Series, SeriesStanding

    standings = (SeriesStanding("greedy bot 2", 6, 2, 2, 3), SeriesStanding("Bob", 2, 0, 2, 0),
                 SeriesStanding("Alice", 1, 0, 2, 1))
    series = Series(b"\x85" * 16, 3, None, False, standings, 1)
    game = SimpleNamespace(game_id=b"\x03" * 16)
    result = SimpleNamespace(status="finished", error=None, verdict=Verdict("verified", "fair"), series=series,
                             games=(game,), names={1: "Bob"}, seat=1, game_id=b"\x03" * 16, host_bye=None)
    console = Console(file=io.StringIO(), width=60, color_system=None)
    assert report(result, console, lang, ending_shown=True) == 0
    out = console.file.getvalue()
    assert final in out and left in out, out
    assert out.index(final) < out.index(left)


# ------------------------------------------------------------------ 2. a game the seat left, in its history


def test_history_of_a_game_the_seat_left_says_why_and_keeps_its_series(tmp_path):
    """Ann plays game 1 of a dealer-blind series with a bot, presses Enter for game 2 and
    leaves it mid-way with /quit: after its ending she gets the series so far (`final
    scoreboard · 1 game`). Her own `jupai history` shows game 2 `unverified
    (dealer-blind)`, why `you left before the end` (zh `你在结束前离开了牌桌`), and its
    series tag `#2` beside game 1's `#1` (no scoreboard came with game 2: her client
    numbered it after game 1's)."""
    host = HostProcess(tmp_path, "--seats", "2", "--bots", "1", "--games", "3", "--rounds", "12", "--bot-delay", "0",
                       "--turn-timeout", "12", "--dealer", "blind", "--no-announce")
    term = _terminal(tmp_path, "ann", ["join", host.addr, "--code", host.code, "--name", "Ann"], 24, 80)
    try:
        _play_after(term, 0, r"Ready for the next game\?")
        mark = len(term.text)
        term.type("")
        _after(term, mark, TURN)  # game 2: Ann's first turn
        mark = len(term.text)
        term.type("/quit")
        assert term.wait(30) != 0  # the game is unverified: she left it
        assert "Traceback" not in term.text
        tail = " ".join(term.text[mark:].split())
        # the series so far, final for her, after the ending of the game she left
        assert "game not finished" in tail and "━━ final scoreboard · 1 game ━━" in tail, tail[-2000:]
        assert tail.index("game not finished") < tail.index("final scoreboard"), tail[-2000:]
        assert re.search(r"Ann \(you\) +\d+ pts? +1 game", tail), tail[-2000:]
    finally:
        term.close()
        host.kill()
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "ann"), COLUMNS="80")
    entries = json.loads(subprocess.run(JUPAI + ["history", "--json"], capture_output=True, text=True, env=env,
                                        timeout=60, check=True).stdout)
    assert len(entries) == 2, entries
    left, played = entries  # newest first
    assert left["status"] == "unverified" and left["code"] == "blind_left", left
    assert left["series"] == played["series"] != "" and (played["game_no"], left["game_no"]) == (1, 2)
    tag = f"{left['series'][:6]} #2"
    for lang, cols, said in [("en", "80", ("unverified (dealer-blind)", "you left before the end")),
                             ("zh", "60", ("未验证（庄家盲发）", "你在结束前离开了牌桌"))]:
        out = subprocess.run(JUPAI + ["history", "--lang", lang], capture_output=True, text=True, timeout=60,
                             env=dict(env, COLUMNS=cols)).stdout
        flat = _nospace(out)
        for words in said:
            assert _nospace(words) in flat, out
        assert _nospace(tag) in flat, out


# ------------------------------------------------------------------ 3. the lobby, every case


@pytest.mark.parametrize("lang, empty, unready", [
    ("en", "Waiting: the game starts when all 4 seats are taken, or when the host types start (bots fill the "
           "empty seats)", "Waiting: the game starts when everyone is ready (not yet: Alice)"),
    ("zh", "等待开局：4 个座位坐满后开局，或由主机输入 start 让机器人补满空位", "等待开局：所有人准备好后开局（还没准备好：Alice）"),
])
def test_the_lobby_says_who_starts_the_game(lang, empty, unready):
    """Seats empty: a full table or the host's `start`; every seat taken: everyone ready,
    naming the persons not ready (bots are); all ready: the plain line."""
    from jupai_net.client.i18n import t
    from jupai_net.client.screen_lobby import render_lobby

    def shown(players):
        console = Console(file=io.StringIO(), width=120, color_system=None)
        console.print(render_lobby(players, seat=1, total=4, lang=lang))
        return " ".join(console.file.getvalue().split())

    two = [{"seat": 0, "name": "Alice", "ready": True}, {"seat": 1, "name": "Bob", "ready": True}]
    assert empty in shown(two)
    full = [{"seat": 0, "name": "Alice", "ready": False}, {"seat": 1, "name": "Bob", "ready": True},
            {"seat": 2, "name": "greedy bot 2", "bot": True, "ready": False},
            {"seat": 3, "name": "greedy bot 3", "bot": True, "ready": True}]
    assert unready in shown(full)
    ready = [dict(p, ready=True) for p in full]
    assert t("phase.lobby", lang) in shown(ready) and unready not in shown(ready)


# ------------------------------------------------------------------ 4. "Left" while a card is in play


@pytest.mark.parametrize("lang, head, help_words", [
    ("en", "Left", "Left: hand + equipment + a card in play not yet answered (⚔)"),
    ("zh", "剩余", "剩余：手牌 + 装备 + 已出但还没结算的牌（⚔）"),
])
def test_left_counts_the_card_in_play_and_says_so(lang, head, help_words):
    """A random game until a seat's card waits for its answer: that seat's Left cell is
    its hand + equipment + the cards in play with a `⚔` (the ranking's count, specs/rules.md
    § 8), every other seat's Left is hand + equipment, the numbers stay in one column;
    the help's `win` row says what Left counts."""
    from jupai_net.client.render import render_help, render_view
    from jupai_net.client.screen_parts import in_play
    from jupai_net.rules import RuleSet

    rng = random.Random(5)
    state = deal(RuleSet(), setup_of("LFCN"))
    while state.pending is None or state.pending.actor == 0:
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(0)
    actor = state.pending.actor
    for p in obs["players"]:
        kit = 2 if p["equipment"] else 0
        assert in_play(p) == (len(state.pending.cards) if p["seat"] == actor else 0)
        assert p["cards_left"] == p["hand_count"] + kit + in_play(p)
    console = Console(file=io.StringIO(), width=80, height=40, color_system=None)
    console.print(render_view(obs, names={s: f"P{s}" for s in range(4)}, lang=lang, width=80, height=39))
    screen = console.file.getvalue().split("\n")
    title = next(line for line in screen if head in line and ("Hand" in line or "手牌" in line))
    column = cell_len(title[:title.index(head)] + head)  # the Left column ends under its title (cells)

    def upto(line: str, cells: int) -> str:  # the first ``cells`` terminal cells of ``line``
        out = ""
        for ch in line:
            if cell_len(out + ch) > cells:
                break
            out += ch
        return out
    rows = [line for line in screen if re.match(r"^[ ▶] \d ", line)]
    assert len(rows) == 4, screen
    for line in rows:
        seat = int(line[2])
        cell = upto(line, column).rstrip()
        want = str(obs["players"][seat]["cards_left"]) + ("⚔" if seat == actor else "")
        assert cell.endswith(" " + want), (line, want)
        if seat != actor:  # in line with the others: a space where the mark is
            assert upto(line, column).endswith(" "), line
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(render_help(lang))
    assert _nospace(help_words) in _nospace(console.file.getvalue().replace("│", ""))
