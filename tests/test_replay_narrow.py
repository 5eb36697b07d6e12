"""``jupai replay FILE`` on narrow and short terminals (specs/client.md § Replay, issue 12),
typed as a person does, on a pty: every screen — the frames, a ``/log`` page, the help,
the end with the deck in pages — within the terminal's width and height with its header
on top and the keys prompt on one row; ``/log`` pages the game up to the frame shown; a
line that is no key gets a one-line hint naming the keys; no name on the end frame is
broken across two lines, nor a seat's label in an action's lines. At 40×23 and 80×24,
in English and Chinese.

The trial found the prompt wrapping mid-key at 40 columns, its second row not counted
(the frame's header scrolled off), ``/log`` and unknown keys doing nothing, and the
Chinese end frame at 40×23 too tall with the ranking broken inside a name."""

from __future__ import annotations

import os
import re

import pytest
from rich.cells import cell_len

from tests.pty_helpers import PtyJupai

NAMES = ["Alexandria Longname", "张伟伟", "greedy bot 2", "Bob", "司马相如相如", "Bartholomew Fitzgerald-Smythe"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\r")
HEADER = {"en": "Replay · ", "zh": "回放 · "}
ACTION = {"en": r"action {} of \d+", "zh": r"第 {}/\d+ 步"}
LOG_TITLE = {"en": r"Game log · page (\d+)/(\d+)", "zh": r"本局记录 · 第 (\d+)/(\d+) 页"}
BACK_TO_REPLAY = {"en": "back to the replay", "zh": "返回回放"}
HELP = {"en": "Help", "zh": "帮助"}
END = {"en": "the end", "zh": "终局"}
DECK_PAGE = {"en": r"deck page (\d+)/(\d+)", "zh": r"整副牌第 (\d+)/(\d+) 页"}
HINT = {"en": "Keys: Enter", "zh": "按键：回车"}
PROMPT_END = " > "
#: Actions whose frames were found too tall at 40×23 (long contests, a pending attack
#: naming long names, the game-over view).
TALL = (46, 20)


@pytest.fixture(scope="module")
def transcript(tmp_path_factory):
    """A finished 6-seat game as seat 1 saved it, with long, Chinese and bot names."""
    from jupai_net.fairness import signing_key_from_bytes
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    game = play_game(RuleSet(players=6, rounds=6), rng_seed=9, key=signing_key_from_bytes(bytes([8]) * 32),
                     game_id=bytes(range(16)), host_seed=bytes([1]) * 32,
                     seat_seeds=[bytes([s + 2]) * 32 for s in range(6)])
    path = tmp_path_factory.mktemp("replay40") / "six.jupai"
    path.write_bytes(game.witnesses[1].transcript({"names": NAMES, "saved": "2026-12-01T10:00:00"}))
    return str(path), game.steps


def _screens(term: PtyJupai) -> list[list[str]]:
    """Each full redraw (from one clear to the next) as its lines, escape codes off; its
    last line is the prompt and what was typed at it."""
    raw = bytes(term._raw).decode("utf-8", "replace")
    return [ANSI.sub("", chunk).rstrip("\n").split("\n") for chunk in raw.split("\x1b[2J")[1:]]


def _rows(lines: list[str], cols: int) -> int:
    return sum(max(1, -(-cell_len(line) // cols)) for line in lines)


def _broken_labels(lines: list[str], labels: list[str]) -> list[str]:
    """The labels of ``labels`` broken across two of ``lines`` (a line ends with the
    start of one and the next starts with its rest)."""
    out = []
    for a, b in zip(lines, lines[1:]):
        a, b = a.rstrip(), b.lstrip()
        for label in labels:
            for j in range(1, len(label)):
                head, tail = label[:j].rstrip(), label[j:].lstrip()
                if head and tail and a.endswith(head) and b.startswith(tail) and len(head) > 1:
                    out.append(f"{a!r} / {b!r}")
    return out


def _own_lines(screen: list[str]) -> list[str]:
    """The lines of a frame that the replay writes itself (not the seat's view under
    them): the header, the action's ``» …`` lines, or the whole end frame."""
    out = []
    for line in screen:
        if re.match(r"(Round \d+/\d+|第 \d+/\d+ 回合|\d+/\d+( |回合))", line):  # the view's round header
            break
        out.append(line)
    return out


def _labels(lang: str) -> list[str]:
    from jupai_net.client.card_words import seat_label

    return [seat_label(s, NAMES, 1, lang) for s in range(6)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("cols, rows", [(40, 23), (80, 24)])
def test_replay_screens_fit_and_keys_work(transcript, tmp_path, cols, rows, lang):
    path, steps = transcript
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(JUPAI_CONFIG_DIR=str(tmp_path / "cfg"), LANG="en_US.UTF-8")
    term = PtyJupai(["replay", path, "--lang", lang], env, rows=rows, columns=cols)
    seen: dict[str, int] = {}  # a screen's name: its index + 1 in _screens

    def press(key: str | None, expect: str, name: str, then: str = re.escape(PROMPT_END) + "$") -> re.Match:
        """Type ``key`` and Enter; wait for ``expect`` and then ``then`` (the prompt)."""
        mark = term.mark()
        if key is not None:
            term.type(key + "\r")
        found = term.wait_for(expect, after=mark)
        term.wait_for(then, after=mark)
        seen[name] = len(_screens(term))
        return found

    try:
        press(None, r"[Tt]he deal|发牌", "deal")
        press("", ACTION[lang].format(1), "action 1")
        for k in TALL:
            press(str(k), ACTION[lang].format(k), f"action {k}")
        # /log at action 20: the deal and actions 1-20, in pages; Enter turns them, q goes back
        page = press("/log", LOG_TITLE[lang], "log 1", then=re.escape(BACK_TO_REPLAY[lang]))
        pages = int(page[2])
        for n in range(2, pages + 1):
            turned = press("", LOG_TITLE[lang], f"log {n}", then=re.escape(BACK_TO_REPLAY[lang]))
            assert turned[1] == str(n), turned[0]
        press("q", ACTION[lang].format(20), "back from the log")
        press("zz", HINT[lang], "hint")
        press("?", HELP[lang], "help", then=re.escape(BACK_TO_REPLAY[lang]))
        press("", ACTION[lang].format(20), "back from the help")
        press(str(steps), ACTION[lang].format(steps), "last action")
        press(str(steps + 1), END[lang], "end")
        deck = re.search(DECK_PAGE[lang], "\n".join(_screens(term)[-1]))
        if deck:
            press("", DECK_PAGE[lang].replace(r"(\d+)/", "2/", 1), "deck page 2")
            press("p", DECK_PAGE[lang].replace(r"(\d+)/", "1/", 1), "deck page 1")
            press("p", ACTION[lang].format(steps), "back from the end")
        term.type("q\r")
        assert term.finish() == 0
    finally:
        term.kill()
    screens = _screens(term)
    assert "Traceback" not in term.text
    for name, index in seen.items():
        screen = screens[index - 1]
        where = f"{name} at {cols}×{rows} {lang}:\n" + "\n".join(screen)
        # within the terminal: its height (the prompt's row counted) and its width
        assert _rows(screen, cols) <= rows, where
        assert all(cell_len(line) <= cols for line in screen), where
        # its header on top
        if name.startswith("log"):
            assert re.match(LOG_TITLE[lang], screen[0]), where
        elif name == "help":
            assert HELP[lang] in screen[0], where
        else:
            assert screen[0].startswith(HEADER[lang]), where
            assert PROMPT_END in screen[-1], where  # the keys prompt, on one row
        if not name.startswith("log") and name != "help":  # the replay's own lines: the action's, the end's
            assert not _broken_labels(_own_lines(screen), _labels(lang)), where
    # the deck in pages at 40×23 in English (six places of long names above it)
    assert (deck is not None) == (cols == 40 and lang == "en")
    if deck:
        shown = " ".join(" ".join(screens[seen[n] - 1]) for n in ("end", "deck page 2"))
        assert all(f"{k}:" in shown for k in range(53)), shown
    # the end: each place whole (a name longer than the line allows is cut, never broken)
    end = screens[seen["end"] - 1]
    for line in end:
        assert line.count("(") == line.count(")") and line.count("（") == line.count("）"), "\n".join(end)
    ranking = "\n".join(end)
    assert ("Ranking: " if lang == "en" else "排名：") in ranking
    assert ("Bartholomew Fitzgerald-Smythe" in ranking) == (cols == 80), ranking  # cut at 40 columns
    # the unknown key's hint: one line over the prompt, naming the keys
    hint = screens[seen["hint"] - 1]
    assert hint[-2].startswith(HINT[lang]) and all(key in hint[-2] for key in ("/log", "?", "q", "p")), hint
    # /log at action 20: the game from the deal to action 20's outcome, nothing after it
    log = re.sub(r"\s+", "", "".join("".join(_log_rows(screens[seen[f"log {n}"] - 1], lang))
                                      for n in range(1, pages + 1)))
    upto, later = _log_lines(path, lang, 20), _log_lines(path, lang, 23)
    assert upto[0] in log and upto[-1] in log, (upto, log)
    assert all(line in log for line in upto), log
    assert not any(line in log for line in later[len(upto):]), log


def _log_rows(screen: list[str], lang: str) -> list[str]:
    """A ``/log`` page's rows: under its title, over its keys line."""
    keys = max(i for i, line in enumerate(screen) if BACK_TO_REPLAY[lang] in line)
    return screen[1:keys]


def _log_lines(path: str, lang: str, k: int) -> list[str]:
    """The game log's lines at action ``k`` (white space off)."""
    from jupai_net.client.replay_screen import ReplayScreen
    from jupai_net.client.screen_log import game_log_lines
    from jupai_net.fairness.story import read_game

    with open(path, "rb") as f:
        screen = ReplayScreen(read_game(f.read()), lang)
    return [re.sub(r"\s+", "", line) for line, _mine in game_log_lines(screen.log_view(k).events, 1, NAMES, lang)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_prompt_and_the_hint_fit_each_width(lang):
    """The keys prompt leaves room to type on its one row, the hint is one row, at 40,
    60 and 80 columns; the narrower forms still name q, ? and (the hint) /log."""
    from jupai_net.client.replay_screen import TYPING_ROOM, ReplayScreen

    screen = ReplayScreen.__new__(ReplayScreen)
    screen.lang = lang
    for cols in (40, 60, 80):
        prompt, hint = screen.prompt(cols), screen.hint(cols)
        assert cell_len(prompt) + TYPING_ROOM <= cols and cell_len(hint) <= cols, (cols, prompt, hint)
        assert " q " in prompt and "?" in prompt and "/log" in hint and "?" in hint, (prompt, hint)
    assert screen.prompt(40) != screen.prompt(80) and screen.hint(40) != screen.hint(80)


def test_plain_is_all_and_fits_40_columns(transcript):
    """``--plain`` (as ``jupai play``/``watch`` name it) prints what ``--all`` prints;
    at 40 columns every line fits and no place of the ranking is broken."""
    from tests.cli_helpers import jupai

    path, steps = transcript
    plain, every = jupai("replay", path, "--plain", columns=40), jupai("replay", path, "--all", columns=40)
    assert plain.returncode == every.returncode == 0, plain.stderr
    assert plain.stdout == every.stdout
    lines = plain.stdout.splitlines()
    assert all(cell_len(line) <= 40 for line in lines), [line for line in lines if cell_len(line) > 40]
    assert re.search(rf"^\s*{steps}\. ", plain.stdout, re.M)
    end = plain.stdout[plain.stdout.index("Ranking: "):]
    assert not _broken_labels(end.splitlines(), _labels("en")), end
    assert all(line.count("(") == line.count(")") for line in end.splitlines()), end
