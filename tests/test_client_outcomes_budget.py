"""The screen's height budget at 40×23 with a turn timer (specs/client.md § Fitting
the screen; issue 12 § The screen): a long move list comes in pages that fit the
terminal — a move a line on the most squeezed screen when no grid page fits —
never the whole list unpaged past the last row."""

from __future__ import annotations

import re

from rich.cells import cell_len

from jupai_net.client.i18n import t
from jupai_net.client.render import render_view, to_text
from jupai_net.client.session import NoticeLine

from .test_client_outcomes_whole import expected_outcomes, whole_outcomes
from .test_client_polish_screen import BOTS, screens

NOTICES = [NoticeLine("player-left", "", 0.0, args={"name": "Ann", "seat": 1, "then": "bot"})]


def _long_prompt():
    """Seat 0's first prompt of the seeded 6-seat game with an attack round's long
    move list (25 moves), as the trial saw it at 40×23."""
    for st, seat, history in screens(6, 1):
        if not st.is_over and seat == 0 and len(st.legal_actions(0)) >= 20:
            return st.observation(0), st.legal_actions(0), history
    raise AssertionError("no long move list in the seeded game")


def test_a_timed_prompt_with_a_long_move_list_fits_40_by_23_on_every_page():
    """With the timer on the status line (too wide to share the hint's line) the
    grid's pages did not fit and every move was printed unpaged: 26 lines on a 23-line
    screen. Now the first and the middle page fit, each number on a page is on screen
    as typed, the page says there are other moves (named, or on the most squeezed
    screen ``Enter: more`` on the hint's line), the middle page shows other moves than
    the first, and the newest outcome is whole."""
    obs, legal, history = _long_prompt()
    pages: list[set[int]] = []
    for page in (0, 1):
        text = to_text(render_view(obs, legal=legal, names=BOTS, events=history, lang="en", width=40, height=22,
                                   dealer="blind", notices=NOTICES, seconds_left=30.0, moves_page=page), width=40)
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= 22 and all(cell_len(line.rstrip()) <= 40 for line in lines), text
        shown = max(whole_outcomes(lines, expected_outcomes(obs, 0, history, "en", who), "en") for who in (BOTS, None))
        assert shown >= 1, text  # the newest outcome, whole (seats named, or by number on the tightest screen)
        flat = " ".join(text.split())
        more = re.search(t("legal.more", "en", ranges=r"([\d–, ]+)"), flat)
        folded = t("legal.prompt_paged", "en", n=len(legal)) in flat
        assert more is not None or folded, text  # a page, not the whole list
        on_page = {int(k) for k in re.findall(r"(?m)^\s*(\d+)\.", text)} | {
            int(k) for row in lines if re.search(r"(\s\d+){2,}\s*$", row)  # a grid's row, not its totals
            and not row.strip().startswith(t("matrix.total", "en")) for k in re.findall(r"(?<=\s)\d+", row)}
        on_page &= set(range(1, len(legal) + 1))
        assert on_page and len(on_page) < len(legal), text
        if more is not None:  # the others named
            others = {k for a, _, b in re.findall(r"(\d+)(–(\d+))?", more[1]) for k in range(int(a), int(b or a) + 1)}
            assert others == set(range(1, len(legal) + 1)) - on_page, text
        pages.append(on_page)
    assert pages[1] and not pages[0] & pages[1]  # the middle page shows other moves than the first
