"""One line-breaking rule for every screen (specs/client.md § Languages: breaking
lines; jupai_net/linebreak.py): real screens — every kind of move one per line, the
/log pages, the help, the ending, a seat's whole screen, the --plain lines and
--help — at 40 and 60 columns, in English and Chinese, with long ASCII and CJK names:
no line wider than the terminal, no formula, name or command split over two lines,
no line starting with closing punctuation, no one-character last line."""

from __future__ import annotations

import io
import re
from types import SimpleNamespace

import pytest
from rich.cells import cell_len
from rich.console import Console

from jupai_net.client import render as R
from jupai_net.client.card_words import display_name
from jupai_net.client.render import render_actions, to_text
from jupai_net.client.screen_log import game_log_lines, game_log_rows
from jupai_net.linebreak import break_lines
from jupai_net.play import PlainPlayer, wrap_words

from .test_client_move_table import PROMPTS, REQUIRED
from .test_client_polish_screen import screens

ASCII = {s: f"Bartholomew-Alexandria {'ABCDEF'[s]}" for s in range(6)}
CJK = {s: f"诸葛亮孔明丞相大人{'甲乙丙丁戊己'[s]}" for s in range(6)}
NAMES = {"ascii": ASCII, "cjk": CJK}
WIDTHS = (40, 60)
#: Closing punctuation a line must not start with (after its indent, a border, ``»``).
CLOSING = "，。、：；！？）」』》】”’"
#: A formula as the screens write it: numbers, ×, +, parentheses … ending ``= total``.
FORMULA = re.compile(r"(?<![\w♠♥♦♣])[\d(][\d×()+ ]*[\d)] = \d+")
BOX = "│╭╮╰╯─┃━"


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _body(line: str) -> str:
    return line.strip(" " + BOX)


def check(lines: list[str], width: int, whole: list[str], where: str) -> None:
    """``lines`` (a screen's rows) fit ``width``; each of ``whole`` (formulas, names)
    that the screen shows is on one row; no row starts with closing punctuation."""
    shown = _flat("".join(_body(line) for line in lines))
    rows = [_flat(_body(line)) for line in lines]
    text = "\n".join(lines)
    for line in lines:
        assert cell_len(line.rstrip()) <= width, f"{where}: too wide\n{text}"
        body = _body(line).lstrip("»· ")
        assert not body or body[0] not in CLOSING, f"{where}: {line!r} starts with punctuation\n{text}"
    for unit in whole:
        u = _flat(unit)
        if u and u in shown:
            assert any(u in row for row in rows), f"{where}: {unit!r} split\n{text}"


def formulas(*texts: str) -> list[str]:
    return sorted({m.group().strip() for t in texts for m in FORMULA.finditer(t)}, key=len, reverse=True)


def names_shown(names, lang: str) -> list[str]:
    return [display_name(n, lang) for n in names.values()]


def no_lone_last_line(rows: list[str], where: str) -> None:
    """A paragraph broken over rows ends with more than one character (the last row
    of a wrapped line is never ``牌`` or ``牌。`` alone)."""
    if len(rows) > 1:
        last = rows[-1].strip().rstrip(CLOSING)
        assert len(last) > 1, f"{where}: lone last line\n" + "\n".join(rows)


# --------------------------------------------------------------------------- the rule
def test_the_rule_on_sentences():
    en = "seat 2 attack 10♦: 1 + 10 = 11 vs seat 1 (Bartholomew-Alexandria B) defense J♦ + weapon: 2 + 11 = 13"
    for width in (30, 40, 60):
        lines = break_lines(en, width, "en")
        assert all(cell_len(x) <= width for x in lines), lines
        assert " ".join(lines).split() == en.split()  # words whole: no "inva/lid"
        assert any("1 + 10 = 11" in x for x in lines) and any("2 + 11 = 13" in x for x in lines), lines
        assert any("(Bartholomew-Alexandria B)" in x for x in lines), lines
    zh = "1号位（诸葛亮孔明丞相大人乙）进攻 8♦：(5 + 8) + (2 + 8) = 23 对 4号位（贪心机器人 4）防守 Q♥：2 + 12 = 14，进攻无效。"
    for width in (30, 40):
        lines = break_lines(zh, width, "zh", keep=["诸葛亮孔明丞相大人乙"])
        assert "".join(lines).replace(" ", "") == zh.replace(" ", "")
        assert all(cell_len(x) <= width for x in lines), lines
        assert any("(5 + 8) + (2 + 8) = 23" in x for x in lines), lines
        assert any("诸葛亮孔明丞相大人乙" in x for x in lines) and any("4号位（贪心机器人 4）" in x for x in lines), lines
        assert not any(x[0] in CLOSING for x in lines), lines
        no_lone_last_line(lines, f"zh {width}")
    # the brief's own: a formula written tight, after its word; a command; a lone punctuation mark
    lines = break_lines("这一击的总数是攻击 7 = 3×2+1，所以进攻方收牌。", 20, "zh")
    assert any("击 7 = 3×2+1" in x for x in lines) and not any(x.startswith("，") for x in lines), lines
    lines = break_lines("the game is running: join after it, or watch it (jupai watch --code ABC)", 30, "en")
    assert any("jupai watch --code ABC" in x for x in lines), lines
    assert break_lines("收到的牌一共有十二张回收的牌", 14, "zh")[-1] != "牌"
    for text in ("用 A♠ 丢弃 0号位（诸葛亮孔明丞相大人甲）的装备（i 1 对 m ?）",
                 "discard seat 0 (Bartholomew-Alexandria A)'s equipment with A♠ (i 1 vs m ?)"):
        lines = break_lines(text, 40, None)
        assert any("i 1 对 m ?" in x or "i 1 vs m ?" in x for x in lines), lines
    # a line less than half full takes a seat's number, its name going on the next line
    assert break_lines(" 1. attack seat 0 (Bartholomew-Alexandria A) with 2♦ (= 5×2 + 1 = 11)", 40, "en",
                       hang="    ") == [" 1. attack seat 0", "    (Bartholomew-Alexandria A) with 2♦", "    (= 5×2 + 1 = 11)"]
    # a word alone wider than the line is cut (never a line wider than the terminal)
    assert all(cell_len(x) <= 8 for x in break_lines("Bartholomew-Alexandria-Constantinople wins", 8, "en"))


def test_names_in_english_text_never_break_between_their_characters():
    text = "attack seat 3 (诸葛亮孔明丞相大人丁) with 2♦ + weapon (= 5×2 + 1 + 10×2 = 31)"
    lines = break_lines(text, 30, "en")
    assert any("(诸葛亮孔明丞相大人丁)" in x for x in lines) and any("= 5×2 + 1 + 10×2 = 31" in x for x in lines), lines


# --------------------------------------------------------------------- the moves
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang, names", [("en", "ascii"), ("zh", "cjk"), ("en", "cjk"), ("zh", "ascii")])
def test_every_kind_of_move_one_per_line(width, lang, names):
    """Every kind of move (the move table's prompts), one per line: a move wider than
    the screen goes on under its words, its formula and the target's name whole."""
    who = NAMES[names]
    broken = 0
    for kind in sorted(REQUIRED):
        obs, legal = PROMPTS[kind]
        legal = legal[:4]
        lines = to_text(render_actions(legal, obs, who, lang, "lines", compact=True), width).rstrip("\n").split("\n")
        texts = [R.describe_action(a, obs, who, lang) for a in legal]
        check(lines, width, formulas(*texts) + names_shown(who, lang), f"{kind} {lang} {names} {width}")
        broken += len(lines) - 1 > len(legal)
        for line in lines[:-1]:  # a move's next rows are under its words: "    …", never at the number's place
            assert re.match(r" ?\d+\. |    \S", line), f"{kind}: {line!r}\n" + "\n".join(lines)
    assert broken  # some moves are wider than the screen: the rows were broken


# ---------------------------------------------------------------------- /log
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("names", ["ascii", "cjk"])
def test_the_game_log(width, lang, names):
    who = NAMES[names]
    *_, (st, seat, history) = list(screens(4, 3, every=1000))
    lines = game_log_lines(history, seat, who, lang)
    rows = [r.plain for r in game_log_rows(lines, width, lang, who)]
    check(rows, width, formulas(*(x for x, _ in lines)) + names_shown(who, lang), f"/log {lang} {names} {width}")
    assert len(rows) > len(lines)  # lines were broken


# ---------------------------------------------------------------------- help, ending, whole screen
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help(width, lang):
    lines = to_text(R.render_help(lang), width).rstrip("\n").split("\n")
    check(lines, width, ["Enter", "Ctrl-C", "/log", "/quit"], f"help {lang} {width}")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang, names", [("en", "ascii"), ("zh", "cjk")])
def test_the_ending(width, lang, names):
    from jupai_net.client.ui import print_game_end
    from jupai_net.fairness import Verdict

    who = NAMES[names]
    *_, (st, _seat, _history) = list(screens(4, 1, every=1000))
    end = SimpleNamespace(status="finished", error=None, ranking=[2, 0, 3, 1], seat=0, names=who,
                          verdict=Verdict("tampered", "commitment 17 does not match the revealed card at position 17"),
                          result={"names": [who[s] for s in range(4)], "cards_left": [0, 2, 3, 4]},
                          view=SimpleNamespace(observation=st.observation(0)), transcript_path=None)
    out = io.StringIO()
    print_game_end(Console(file=out, width=width, color_system=None, legacy_windows=False), end, lang)
    lines = out.getvalue().rstrip("\n").split("\n")
    check(lines, width, names_shown(who, lang), f"ending {lang} {width}")


@pytest.mark.parametrize("width, lang, names", [(40, "zh", "cjk"), (40, "en", "ascii"), (60, "zh", "ascii"),
                                                (60, "en", "cjk")])
def test_a_seats_whole_screen(width, lang, names):
    """A 6-seat defense round at its third prompt: outcomes with long formulas, the
    move and the pending contest wider than 40 columns."""
    who = NAMES[names]
    for k, (st, seat, history) in enumerate(screens(6, 3, every=5)):
        if k == 3:
            break
    obs = st.observation(seat)
    legal = list(st.legal_actions())
    view = R.render_view(obs, legal=legal, names=who, lang=lang, events=history, width=width, height=24)
    lines = to_text(view, width).rstrip("\n").split("\n")
    texts = [R.describe_event(e, who, seat, lang, True) or "" for e in R.merged_events(history)]
    texts += [R.describe_action(a, obs, who, lang) for a in legal] + [R.pending_text(obs, who, lang)]
    check(lines, width, formulas(*texts), f"screen {lang} {names} {width}")


# ---------------------------------------------------------------------- --plain, --help
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang, names", [("en", "ascii"), ("zh", "cjk"), ("zh", "ascii")])
def test_the_plain_lines(width, lang, names):
    """What ``jupai play --plain`` prints at a terminal of ``width`` columns: the events,
    a turn and its moves, broken at spaces (English) or between characters (Chinese)."""
    who = NAMES[names]
    for k, (st, seat, history) in enumerate(screens(4, 1, every=7)):
        if k == 4:
            break
    out = io.StringIO()
    player = PlainPlayer(out, lang, width=width)
    view = SimpleNamespace(seat=seat, change="statement", events=list(history), names=who, chat=[], notices=[],
                           observation=st.observation(seat), legal=list(st.legal_actions()), waiting=())
    player.on_update(view)
    player._show_turn(view)
    for n, a in enumerate(view.legal, 1):
        player._print(f"  {n:>2}. {R.describe_action(a, view.observation, who, lang)}", hang=" " * 6)
    lines = out.getvalue().rstrip("\n").split("\n")
    texts = [R.describe_event(e, who, seat, lang) or "" for e in history]
    texts += [R.describe_action(a, view.observation, who, lang) for a in view.legal]
    check(lines, width, formulas(*texts) + names_shown(who, lang), f"--plain {lang} {names} {width}")
    if lang == "en":  # words whole: every word of the lines printed is a word of the texts
        words = {w for x in texts for w in x.split()} | {w for line in lines for w in line.split()
                                                          if not any(c.isalpha() for c in w)}
        said = [w for line in lines for w in line.split() if w in words]
        assert len(said) > 0.9 * sum(len(line.split()) for line in lines)


def test_wrap_words_is_the_rule():
    text = "» seat 2 (Bartholomew-Alexandria C) attack 10♦: 1 + 10 = 11 vs seat 1 (you) defense J♦: 2 + 11 = 13"
    assert wrap_words(text, 40, "en", ASCII.values()).split("\n") == break_lines(text, 40, "en", ASCII.values(),
                                                                                hang="  ")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_help_of_a_command_at_40_columns(lang):
    """``jupai play --help`` at 40 columns (through the command): every line fits (but
    the usage's options and the examples, kept as written), none starts with closing
    punctuation."""
    import os
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "jupai_net", "play", "--help", "--lang", lang], capture_output=True,
                          text=True, env={**os.environ, "COLUMNS": "40"}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split("\n")
    for line in lines:
        body = line.strip()
        assert not body or body[0] not in CLOSING, f"{line!r}\n{proc.stdout}"
    wide = [line for line in lines if cell_len(line) > 40 and not re.match(r"\s+(\[|jupai )", line)]
    assert not wide, proc.stdout


def test_an_error_on_a_terminal_breaks_by_the_rule():
    """``jupai join: …`` on a 40-column terminal (client.cli.say_error): a Chinese
    sentence breaks between characters where the line is full (rich broke it only at
    its spaces), the number with its word, the command whole; into a pipe, one line."""
    from jupai_net.client.cli import say_error

    text = "主机在 30 秒内没有回应，已经断开连接；请用 jupai join 192.168.1.20 再试一次。"
    console = Console(file=io.StringIO(), width=40, force_terminal=True, color_system=None, legacy_windows=False)
    say_error(console, text, "jupai join")
    lines = console.file.getvalue().rstrip("\n").split("\n")
    check(lines, 40, ["jupai join", "30 秒"], "say_error zh 40")
    assert all(cell_len(line) >= 20 for line in lines[:-1]), lines
    assert _flat("".join(lines)) == _flat("jupai join: " + text)
    piped = Console(file=io.StringIO(), width=40, force_terminal=False, color_system=None, legacy_windows=False)
    say_error(piped, text, "jupai join")
    assert piped.file.getvalue().count("\n") == 1
