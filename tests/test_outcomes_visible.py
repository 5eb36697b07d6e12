"""The outcomes since the last turn are always visible (issue 12: "at least the last 3
lines, at any move-list length, in 4- and 6-player games"; specs/client.md § Fitting
the screen): sampled prompt screens of seeded bot games, 4 and 6 seats, English and
Chinese, at 40×23, 60×24 and 80×24 (the last row kept for the prompt), each with the
three newest outcomes whole (all of them when the game has had fewer), every legal
move's number on a page the player reaches with Enter, and whose turn it is said —
or, only at 40 columns with six seats, the written exception: the three newest
outcomes take 11 rows or more of 40 columns (9 when the seat answers a contest,
its status taking rows), and the screen keeps fewer, newest first.

The 40-column samples are prompts that showed fewer than three before the squeeze
levels 9–11 (``screen.SQUEEZE``); ``bench/outcomes.py`` sweeps every prompt."""

from __future__ import annotations

from functools import lru_cache

import pytest
from rich.text import Text

from jupai_net.client.layout import wrap_text

from .outcome_screens import as_text, check_prompt, outcomes_of, prompts

ROWS = {40: 23, 60: 24, 80: 24}  # the terminal's rows at each width


@lru_cache(maxsize=None)
def _views(players: int) -> tuple:
    """Every prompt (each seat's own) of the seeded games 1 and 3 (the sweep's order)."""
    return tuple(v for seed in (1, 3) for v in prompts(players, seed, None))


def newest_rows(obs, history, lang: str, width: int = 40) -> int:
    """The rows the three newest outcomes take at ``width`` columns, seats by number
    (as the most squeezed screen writes them)."""
    return sum(len(wrap_text(Text(o), width).plain.split("\n")) for o in outcomes_of(obs, history, lang, None)[-3:])


def exception(players: int, width: int, obs, history, lang: str) -> bool:
    """The written exception (specs/client.md § Fitting the screen): 40 columns, six
    seats, the three newest outcomes 11 rows or more (9 when answering a contest)."""
    rows = newest_rows(obs, history, lang)
    return players == 6 and width == 40 and (rows >= 11 or (rows >= 9 and bool(obs.get("pending"))))


SAMPLES = [  # (seats, language, width, prompt): prompts that needed levels 9–11 at 40 columns,
    (4, "en", 40, 11), (4, "en", 40, 34), (4, "zh", 40, 58),  # long move lists at 60 and 80
    (6, "en", 40, 17), (6, "en", 40, 66), (6, "zh", 40, 21), (6, "zh", 40, 99),  # (99: 10 rows, answering)
    (6, "en", 40, 21), (6, "en", 40, 87),  # the exception, two fit: 10 rows answering a contest; 11 rows
    (4, "en", 60, 63), (6, "zh", 60, 26), (6, "en", 60, 20),
    (4, "zh", 80, 63), (6, "en", 80, 26), (6, "zh", 80, 70),
]


@pytest.mark.parametrize("players, lang, width, k", SAMPLES)
def test_three_newest_outcomes_and_every_move_number_on_screen(players, lang, width, k):
    obs, legal, history = _views(players)[k]
    check = check_prompt(obs, legal, history, lang, width, ROWS[width] - 1)
    screen = as_text(check)
    assert check.fits, screen  # no row past the terminal's last but the prompt's, none too wide
    assert not check.missing, (sorted(check.missing), screen)  # every number on a page Enter reaches
    assert check.status, screen  # whose turn it is, on every page
    if exception(players, width, obs, history, lang):  # fewer may fit there: at least the newest, whole
        assert check.shown >= 1, screen
    else:
        assert check.shown >= check.need == 3, screen


def test_the_samples_cover_what_the_issue_names():
    """Both seat counts, both languages, every size, long move lists, the exception."""
    assert {(p, lang, w) for p, lang, w, _k in SAMPLES} >= {(p, lang, 40) for p in (4, 6) for lang in ("en", "zh")}
    assert {w for _p, _l, w, _k in SAMPLES} == set(ROWS)
    longest = {w: max(len(_views(p)[k][1]) for p, _l, ww, k in SAMPLES if ww == w) for w in ROWS}
    assert all(n >= 25 for w, n in longest.items() if w > 40), longest
    assert sum(exception(p, w, *_views(p)[k][::2], lang) for p, lang, w, k in SAMPLES) >= 2
