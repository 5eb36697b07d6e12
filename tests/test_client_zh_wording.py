"""Chinese wording on every screen (issue 12 § The screen; specs/client.md § Languages):
no ASCII space next to full-width punctuation — in the catalog's texts, nor where a
value ending (or starting) with it meets the text around it (``Alice（0号位）在…``,
not ``Alice（0号位） 在…``) — and Chinese lines break where a reader expects: a total
stays with its ``=``, a number with the word it counts (``67 对``), no line of one
character."""

from __future__ import annotations

import re

import pytest

from jupai_net.client import render as R
from jupai_net.client.layout import wrap_text
from jupai_net.messages import catalog, t
from jupai_net.messages.notices import abandon_sentence
from rich.text import Text

from .test_client_polish_screen import BOTS, screens

PUNCT = "（）：，。"
#: Texts whose spaces next to full-width punctuation are the format's own: the
#: banner of a changed join code (``！ @@@``).
FORMATS = {"cli.changed"}
CJK = {s: f"诸葛{s}" for s in range(6)}


def _stray(text: str) -> list[str]:
    """Every ASCII space next to ``（）：，。`` with a word on its other side."""
    return [m.group() for m in re.finditer(rf"[{PUNCT}] (?=\w)|(?<=\w) [{PUNCT}]", text)]


def test_the_catalog_has_no_space_next_to_full_width_punctuation():
    bad = {key: zh for key, (_en, zh) in catalog().items()
           if key not in FORMATS and re.search(rf" [{PUNCT}]|[{PUNCT}] ", zh)}
    assert not bad, bad


def test_a_value_ending_in_a_full_width_parenthesis_takes_no_space_after_it():
    """The trial's line: a seat that timed out in a dealer-blind game."""
    said = abandon_sentence("blind-turn-late", {"who": [["Alice", 0]], "seconds": 30}, "zh")
    assert said.startswith("有座位离开了：Alice（0号位）在回合时间和额外 30 秒内"), said
    # a separator keeps its spaces, and a value keeps its own
    assert t("ev.contest", "zh", a="0号位（你）", ca="7♠", fa="7", d="1号位", cd="8♠", fd="8（武器用完）",
             result="1号位收牌") == "0号位（你）7♠：7 对 1号位 8♠：8（武器用完） → 1号位收牌"
    assert abandon_sentence("blind-turn-late", {"who": [["A （B）", 0]], "seconds": 30}, "zh").count("A （B）") == 1


@pytest.mark.parametrize("names", [BOTS, CJK, None], ids=["bots", "cjk", "none"])
def test_no_event_line_has_a_stray_space(names):
    lines = 0
    for players, seed in ((4, 1), (6, 3)):
        for st, seat, history in screens(players, seed, every=40):
            pass
        for e in R.merged_events(history):
            for short in (True, False):
                text = R.describe_event(e, names, seat, "zh", short) or ""
                assert not _stray(text), (_stray(text), text)
                lines += bool(text)
    assert lines > 100


@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_contest_breaks_neither_its_total_nor_a_number_from_its_word(width):
    """``… = 67 对 4号位（…）``: a line never ends with ``=`` (the total goes with it) nor
    starts with ``对`` (the number before it keeps it); the break comes after ``对`` when
    the seat label does not fit, and no last line is a single character."""
    contests = 0
    for players, seed in ((4, 1), (6, 3), (6, 4)):
        for st, seat, history in screens(players, seed, every=60):
            pass
        for e in R.merged_events(history):
            if e.get("kind") != "contest":
                continue
            for lang in ("zh", "en"):
                text = R.describe_event(e, BOTS, seat, lang, True)
                rows = wrap_text(Text(text), width).plain.split("\n")
                assert "".join(rows).replace(" ", "") == text.replace(" ", "")
                for row in rows[:-1]:
                    assert not row.rstrip().endswith("="), rows
                for before, row in zip(rows, rows[1:]):
                    assert not (row.startswith("对") and before.rstrip()[-1:].isdigit()), rows
                assert len(rows[-1].strip()) > 1, rows
                contests += 1
    assert contests > 50
