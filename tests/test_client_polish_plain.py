"""``jupai play --plain``: readable lines (card names, formulas, one line per event,
numbered moves with totals) in the chosen language, and the same ending as the rich
screen (jupai_net/play.py PlainPlayer; specs/client.md § --plain)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from types import SimpleNamespace

import trio

from jupai_net import actions as A
from jupai_net import play
from jupai_net.actions import Action
from jupai_net.rules import RuleSet

from .engine_helpers import card, deal, setup_of

JUPAI = [sys.executable, "-m", "jupai_net"]


def view_of(st, seat, change, events=(), legal=(), names=None):
    return SimpleNamespace(seat=seat, change=change, events=tuple(events), observation=st.observation(seat),
                           legal=tuple(legal), names=names or {}, chat=(), notices=())


def test_plain_player_prints_events_and_numbered_moves(monkeypatch):
    rules = RuleSet(players=2, round_value="rank")
    st = deal(rules, setup_of("LF"), hands={0: [card(10)], 1: [card(3), card(7)]},
              equipment={0: (card(2), card(4)), 1: (card(1), card(8))}, rounds=[card(6, 1)])
    out = io.StringIO()
    class Typed:  # the person's lines (a LineReader's readline): `typed`, set below
        async def readline(self):
            return next(typed)

    player = play.PlainPlayer(out, reader=Typed())
    names = {0: "greedy bot 0"}
    history = [e.to_wire(1) for e in st.events]
    player.on_update(view_of(st, 1, "statement", history, names=names))
    history += [e.to_wire(1) for e in st.apply(Action(A.ATTACK, 1, (card(10),), False))]
    player.on_update(view_of(st, 1, "statement", history, names=names))
    legal = st.legal_actions()
    wanted = Action(A.ANSWER, None, (card(3),), True)
    k, n = legal.index(wanted) + 1, len(legal)
    typed = iter(["x", "99", str(k)])
    action = trio.run(player.choose, view_of(st, 1, "prompt", history, legal, names))
    assert action == wanted
    history += [e.to_wire(1) for e in st.apply(action)]
    player.on_update(view_of(st, 1, "statement", history, names=names))
    lines = out.getvalue().split("\n")
    assert "  Round 1: round card 6♥ → attack, R = 6, seat 0 (greedy bot 0) leads" in lines
    assert "  seat 0 (greedy bot 0) attacks seat 1 (you) with 10♠" in lines
    assert any(line.startswith("Hand: ") and "3♠" in line and "7♠" in line for line in lines)
    assert "Equipment: mass A♠ + weapon 8♠ · simple weapon · 1 use left · face-down" in lines
    assert "⚔ seat 0 (greedy bot 0) attacks seat 1 (you) with 10♠: 6×10 = 60; seat 1 (you) answers" in lines
    assert f"  {k:>2}. answer with 3♠ + weapon (= 6×3 + 1×8 = 26)" in lines
    assert f"Type a number 1–{n} and Enter · /chat TEXT to chat · ? for help" in lines
    assert f"'x' is not a move: type a number 1–{n}, /chat TEXT, or ? for help" in lines
    assert f"There is no move 99: type a number 1–{n}" in lines
    assert any(line.startswith("» seat 0 (greedy bot 0) 10♠: 6×10 = 60 vs seat 1 (you) 3♠ + weapon: 6×3 + 1×8 = 26")
               for line in lines)
    assert sum(line.startswith("  Round 1:") for line in lines) == 1  # each event once
    assert "kind=" not in out.getvalue() and "card=" not in out.getvalue()


def test_plain_game_in_chinese_reads_as_text(tmp_path):
    env = dict(os.environ, JUPAI_CONFIG_DIR=str(tmp_path / "config"), COLUMNS="80", LANG="C.UTF-8",
               PYTHONIOENCODING="utf-8")
    out = subprocess.run(JUPAI + ["play", "--plain", "--lang", "zh", "--rounds", "3", "--bot-delay", "0", "--seats", "3"],
                         input="1\n" * 400, capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    text = out.stdout
    assert re.search(r"^  第 1 回合：回合牌 \S+ → \S+，R = 1，", text, re.M)
    assert "贪心机器人" in text and "greedy bot" not in text
    assert re.search(r"^\s+1\. .*（= .+ = \d+）$", text, re.M) or "补给" in text
    assert "━━ 游戏结束 · 最终排名 ━━" in text and "✔ 公平性：已验证 — " in text
    # the command, whole or cut after verify with a shell continuation when it is wider than 80
    assert "对局记录已保存到：" in text and re.search(r"^  \S.* verify( \\\n   )? \S+\.jupai$", text, re.M)
    assert "kind=" not in text and "final ranking" not in text
    # the start says the game's scheme; the lobby's next-game line made way (issue 12)
    assert text.count("[!] 庄家盲发：主机看不到你的牌") == 1 and "下一局庄家盲发" not in text, text[:600]


# ------------------------------------------------------------------ word wrapping (--plain)
def test_wrap_words_keeps_words_whole():
    from rich.cells import cell_len

    from jupai_net.play import wrap_words

    text = ("seat 2 attack 10♦: 1 + 10 = 11 vs seat 1 (you) defense J♦ + weapon: 2 + 11 = 13 "
            "(weapon used up) → defense wins, attack invalid: seat 2 collects")
    for width in (24, 40, 60):
        lines = wrap_words(text, width).split("\n")
        assert all(cell_len(line) <= width for line in lines)
        assert " ".join(line.strip() for line in lines).split() == text.split()  # no word cut in two
    zh = wrap_words("第 3 回合：回合牌 7♣ → 防御回合，R = 3，1号位先手", 16).split("\n")
    assert all(cell_len(line) <= 16 for line in zh)


def test_plain_game_at_40_columns_wraps_at_word_boundaries(tmp_path):
    import re
    import sys

    from rich.cells import cell_len

    from tests.test_client_cli import Terminal, _env

    env = _env(tmp_path, "plain")
    env.update(COLUMNS="40", LINES="24")
    term = Terminal([sys.executable, "-m", "jupai_net", "play", "--plain", "--bot", "random", "--seats", "2",
                     "--rounds", "3"], env, rows=24, cols=40)
    try:
        assert term.wait(timeout=120) in (0, 1)
    finally:
        term.close()
    lines = term.text.replace("\r", "").split("\n")
    assert any("fairness" in line for line in lines)
    # the transcript path and the verify command are printed whole on purpose (to copy them)
    long = [line for line in lines if cell_len(line) > 40 and ".jupai" not in line
            and not line.endswith(" verify \\")]  # the command's head, cut after verify (a shell continuation)
    assert not long, long[:3]
    # a word never ends one line and goes on at the start of the next
    for word in ("invalid", "collects", "defense", "attack", "verified"):
        for k in range(2, len(word) - 1):
            assert not re.search(rf"{word[:k]}\n\s*{word[k:]}\b", "\n".join(lines)), word


def test_plain_lines_about_the_next_game_follow_the_sessions_rule():
    """``--plain`` holds exactly the notices the screen treats as news of the next game
    (``session.for_next_game``): their lines wait for the next line printed for another
    reason. When the game starts first, what the start says again (the lobby's line on
    the scheme, ``session.said_at_start``) is left out, and the rest (a stand-in
    seated for the game) is printed before the start's own line, not lost."""
    from jupai_net.client.session import NoticeLine, dealer_notice, for_next_game

    def notice(code, **args):
        return NoticeLine(code, code, 0.0, args=args or None)

    def feed(player, n, change="notice"):
        player.on_update(SimpleNamespace(seat=0, change=change, events=(), names={}, chat=(), notices=(n,)))

    seen = set()
    for n in (notice("bot-seated", name="Ann", seat=1, stand_in="greedy bot 1"),
              notice("player-left", name="Ann", seat=1, then="stand-in", stand_in="greedy bot 1"),
              notice("player-left", name="Ann", seat=1, then="bot"), notice("next-dealer-blind"),
              notice("next-dealer-trusted"), notice("turn-timeout", name="Ann", seat=1, action=None),
              notice("player-joined", name="Ann", seat=1)):
        out = io.StringIO()
        player = play.PlainPlayer(out, width=0)
        feed(player, n)
        assert (out.getvalue() == "") == for_next_game(n), (n.code, n.args, out.getvalue())
        seen.add(for_next_game(n))
    assert seen == {True, False}

    out = io.StringIO()
    player = play.PlainPlayer(out, width=0)
    feed(player, notice("bot-seated", name="Ann", seat=1, stand_in="greedy bot 1"))
    feed(player, notice("next-dealer-blind"))
    code, _text = dealer_notice("blind")
    feed(player, notice(code))  # the start's own notice, then the start
    player.on_update(SimpleNamespace(seat=0, change="start", events=(), names={}, chat=(), notices=()))
    lines = out.getvalue().splitlines()
    assert lines == ["[!] greedy bot 1 takes seat 1 of Ann for the next game",
                     "[!] dealer-blind: the host cannot see your cards"], lines
