"""Outcome lines are whole on every fitted screen (specs/client.md § Fitting the
screen; issue 12 § The screen): each outcome with its formula, wrapped at word
boundaries (CJK counting two columns), never cut with ``…``; a screen short of rows
shows fewer, older outcomes rather than cut ones — a player's and a spectator's, at
40, 60 and 80 columns, in English and Chinese, in 4- and 6-seat games."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from jupai_net.client import render as R
from jupai_net.client.i18n import t
from jupai_net.client.layout import wrap_text
from jupai_net.client.render import render_view, to_text
from rich.text import Text

from .test_client_polish_screen import BOTS, screens

HEIGHT = 23  # a 24-row terminal, the last row kept for the prompt


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text).replace(R.MINE_MARK.strip(), "")


def expected_outcomes(obs, seat, history, lang, names=BOTS) -> list[str]:
    """Every outcome the screen may show, oldest first, in the screen's words (compact:
    ``short``; the viewer's own marked ``»``): the play waiting for its answer is the
    pending contest, the end the ranking."""
    source = list(history)
    pending = obs.get("pending")
    if pending and source and source[-1].get("kind") == "play" and source[-1].get("actor") == pending.get("actor"):
        source.pop()
    return [(R.MINE_MARK if R.involves(e, seat) else "") + d for e in R.merged_events(source) if e.get("kind") != "end"
            for d in [R.describe_event(e, names, seat, lang, True)] if d]


def whole_outcomes(lines: list[str], outcomes: list[str], lang: str) -> int:
    """How many of the newest ``outcomes`` the screen ``lines`` shows under the
    outcomes' title, each whole (its words and formula, wrapped over rows, no ``…``),
    in order and right under the title; 0 when the rows there are anything else."""
    titles = (t("log.since", lang), t("log.title", lang))
    start = next(k for k, line in enumerate(lines) if line.startswith(titles))
    rest = _flat("".join(lines[start + 1:]))
    shown = 0
    for k in range(1, len(outcomes) + 1):
        if rest.startswith(_flat("".join(outcomes[-k:]))):
            shown = k
    return shown


def rows_of(outcome: str, width: int) -> int:
    return len(wrap_text(Text(outcome), width).plain.split("\n"))


def check_outcomes(text: str, obs, seat, history, lang: str, width: int, names=BOTS) -> int:
    """Assert the fitted screen ``text`` shows the newest outcomes whole: at least
    three (all when fewer), or as many as the screen's rows allow — the next older one
    would not fit; the screen fits its 23 rows, or (at 40 columns, where a long move
    list alone can be taller) shows only the newest outcome. Returns how many it shows."""
    lines = text.rstrip("\n").split("\n")
    assert all(cell_len(line.rstrip()) <= width for line in lines), text
    # the outcomes with the seats' names, or (the tightest screen) by seat number only
    shown, outcomes = max((whole_outcomes(lines, o, lang), o)
                          for o in (expected_outcomes(obs, seat, history, lang, who) for who in (names, None)))
    assert shown >= 1 or not outcomes, text
    if len(lines) > HEIGHT:  # the outcomes never make a screen too tall: the newest alone
        assert width < 60 and shown == 1, text
    if shown < min(3, len(outcomes)):  # fewer, older ones go only for want of rows
        assert len(lines) + rows_of(outcomes[-shown - 1], width) > HEIGHT, text
    return shown


@pytest.mark.parametrize("width", [40, 60, 80])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("players, seed", [(4, 1), (6, 3)])
def test_outcome_lines_wrap_whole_on_the_players_and_the_spectators_screen(players, seed, lang, width):
    """At every seventh prompt of a random 4- or 6-seat game (and its end), a seat's
    screen and the spectator's (``observation(None)``, the public events) fit 23 rows
    and show each outcome whole with its formula — the formula text is on screen as
    the engine wrote it, and no outcome row ends in ``…``. At 40 columns a 6-seat
    attack round's 50 moves alone are taller than the terminal: the screen then shows
    the newest outcome, whole. The spectator (no moves) sees at least three once the
    game is under way (two at 40 columns)."""
    shown: dict[str, list[int]] = {"seat": [], "spectator": []}
    for st, seat, history in screens(players, seed, every=7):
        public = [e.to_wire(None) for e in st.events]
        legal = [] if st.is_over else st.legal_actions(seat)
        for who, viewer, events, moves in (("seat", seat, history, legal), ("spectator", None, public, [])):
            obs = st.observation(viewer)
            text = to_text(render_view(obs, legal=moves, names=BOTS, events=events, lang=lang, width=width,
                                       height=HEIGHT, dealer="blind"), width=width)
            n = check_outcomes(text, obs, viewer, events, lang, width)
            if not st.is_over:  # (the ranking takes the game-over screen's rows)
                shown[who].append(n)
            last = [e for e in R.merged_events(events) if e.get("kind") == "contest"]
            if last and n and R.merged_events(events)[-1] is last[-1]:  # the newest is a contest: its formulas
                flat = _flat(text)
                for side in last[-1]["sides"]:
                    assert _flat(side["formula"]) in flat, (side["formula"], text)
    assert min(shown["spectator"][2:]) >= (2 if width == 40 else 3), shown
