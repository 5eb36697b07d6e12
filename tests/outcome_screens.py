"""The prompt screens of seeded bot games, and what each shows of the outcomes
(specs/client.md § Fitting the screen; issue 12: "Outcomes since your last turn are
always visible (at least the last 3 lines, at any move-list length, in 4- and
6-player games)"). Shared by ``bench/outcomes.py`` (the sweep over every prompt) and
``tests/test_outcomes_visible.py`` (a sample of them).

An outcome "line" is one outcome of the log (a move's result, a contest with its
formulas), whole however many terminal rows it wraps over — the screen never cuts
one. A prompt passes when its screen fits the terminal (the last row kept for the
prompt), shows the ``min(3, n)`` newest outcomes whole (``n``: the outcomes the game
has had so far, since the render keeps at least three even when fewer came since the
seat's last turn), and every legal move's number is reachable: on screen, at a move's
line start or in a grid cell, on the first page or on one that Enter turns to."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len

from jupai_net.client import render as R
from jupai_net.client.i18n import t
from jupai_net.client.render import render_view, to_text
from jupai_net.client.status_words import answer_tiny, status_text
from jupai_net.engine import GameState, Setup
from jupai_net.rules import RuleSet

IDS = {4: "LCFN", 6: "LCCFFN"}
BOTS = {s: f"greedy bot {s}" for s in range(6)}


def prompts(players: int, seed: int, seat: int | None = 0) -> Iterator[tuple[dict, list, list]]:
    """``(observation, legal moves, the seat's event history)`` at every prompt of
    ``seat`` (None: of every seat, each seen by the seat to move) in a game of
    ``players`` seats whose every move is a seeded random choice (the deal and setup as
    ``tests/test_client_polish_screen.screens`` makes them)."""
    rng = random.Random(seed)
    deck = list(range(53))
    rng.shuffle(deck)
    ids = list(IDS[players])
    rng.shuffle(ids)
    st = GameState.new(RuleSet(players=players), deck, Setup(tuple(ids), 6, 5, 4, 9))
    history = {s: [e.to_wire(s) for e in st.events] for s in range(players)}
    while not st.is_over:
        mover = st.to_move
        if seat is None or mover == seat:
            yield st.observation(mover), st.legal_actions(mover), list(history[mover])
        events = st.apply(rng.choice(st.legal_actions()))
        for s in range(players):
            history[s].extend(e.to_wire(s) for e in events)


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text).replace(R.MINE_MARK.strip(), "")


def outcomes_of(obs: Mapping[str, Any], history: Sequence[Mapping[str, Any]], lang: str,
                names: Mapping[int, str] | None) -> list[str]:
    """Every outcome the screen may show, oldest first, in the compact screen's words
    (the viewer's own marked ``»``; the play waiting for its answer is the pending
    contest, not an outcome)."""
    source = list(history)
    pending = obs.get("pending")
    if pending and source and source[-1].get("kind") == "play" and source[-1].get("actor") == pending.get("actor"):
        source.pop()
    seat = obs.get("seat")
    return [(R.MINE_MARK if R.involves(e, seat) else "") + d for e in R.merged_events(source) if e.get("kind") != "end"
            for d in [R.describe_event(e, names, seat, lang, True)] if d]


def whole_shown(lines: Sequence[str], outcomes: Sequence[str], lang: str) -> tuple[int, int]:
    """How many of the newest ``outcomes`` the screen ``lines`` shows right under the
    outcomes' title, each whole and in order (0 when there is no title), and the index
    of the first row after them (0 without a title)."""
    titles = (t("log.since", lang), t("log.title", lang))
    start = next((k for k, line in enumerate(lines) if line.startswith(titles)), None)
    if start is None:
        return 0, 0
    rest = _flat("".join(lines[start + 1:]))
    shown = 0
    for k in range(1, len(outcomes) + 1):
        if rest.startswith(_flat("".join(outcomes[-k:]))):
            shown = k
    want, end, acc = _flat("".join(outcomes[len(outcomes) - shown:])), start + 1, ""
    while end < len(lines) and len(acc) < len(want):
        acc += _flat(lines[end])
        end += 1
    return shown, end


def on_screen(text: str, n: int, lang: str) -> set[int]:
    """The move numbers 1..``n`` the moves' part ``text`` of a screen shows: at a
    line's start (``12.`` a move a line, ``12)`` grouped, several on a line), or as a
    grid's cells (the numbers that end a row that is not a row of totals)."""
    found: set[int] = set()
    totals = (t("matrix.total", lang), t("matrix.total_here", lang))
    for line in text.split("\n"):
        found.update(int(k) for k in re.findall(r"(?:^|\s)(\d+)[.)](?=\s)", line))
        cells = line.split()
        if line.strip().startswith(totals):
            continue
        if len(cells) >= 2 and all(re.fullmatch(r"\d+", c) for c in cells[-2:]):  # a grid row: its numbers
            k = len(cells)
            while k > 0 and re.fullmatch(r"\d+", cells[k - 1]):
                k -= 1
            found.update(int(c) for c in cells[k:])
    return {k for k in found if 1 <= k <= n}


def paged(text: str, lang: str) -> bool:
    """Whether the screen ``text`` shows a page of the moves (Enter shows the next)."""
    flat = " ".join(text.split())
    return t("legal.more_key", lang) in flat or t("legal.prompt_paged", lang, n=0).split("·")[-1].strip() in flat


@dataclass
class Check:
    """One rendered prompt: its rows (of its tallest page), how many outcomes it shows
    whole (on the page that shows the fewest), how many it should (``need``), the legal
    numbers on none of its pages, and how many pages of moves it has."""

    lines: list[str]
    shown: int
    need: int
    missing: set[int]
    height: int
    width: int
    pages: int = 1
    status: bool = True

    @property
    def fits(self) -> bool:
        return len(self.lines) <= self.height and all(cell_len(x.rstrip()) <= self.width for x in self.lines)

    @property
    def ok(self) -> bool:
        return self.fits and self.shown >= self.need and not self.missing and self.status


def check_prompt(obs: dict, legal: list, history: list, lang: str, width: int, height: int = 23,
                 names: Mapping[int, str] = BOTS, **kw: Any) -> Check:
    """Render a seat's prompt at ``width`` × ``height`` (the terminal's rows but the
    prompt's) as the client does, and measure it (:class:`Check`); when the moves come
    in pages, turn them (``moves_page`` 1, 2, … as Enter does) until the first comes
    back, each page measured too: ``shown`` is the fewest outcomes of any page, every
    legal number must be on one of them."""
    pages: list[list[str]] = []
    seen: set[int] = set()
    shown = need = 99
    status = True
    first: set[int] | None = None
    for page in range(max(1, len(legal))):
        text = to_text(render_view(obs, legal=legal, names=names, events=history, lang=lang, width=width,
                                   height=height, dealer="blind", moves_page=page, **kw), width=width)
        lines = text.rstrip("\n").split("\n")
        (got, end), outcomes = max((whole_shown(lines, o, lang), len(o))
                                   for o in (outcomes_of(obs, history, lang, who) for who in (names, None)))
        numbers = on_screen("\n".join(lines[end:]), len(legal), lang)  # under the outcomes
        if page and numbers == first:
            break
        first = numbers if first is None else first
        pages.append(lines)
        seen |= numbers
        said = [_flat(x) for x in (status_text(obs, names, lang), answer_tiny(obs, lang)) if x]
        status = status and any(x in _flat(text) for x in said)
        shown, need = min(shown, got), min(3, outcomes)
        if not paged(text, lang):
            break
    worst = max(pages, key=len)
    return Check(worst, shown, need, set(range(1, len(legal) + 1)) - seen, height, width, len(pages), status)


def as_text(check: Check) -> str:
    """The screen's rows, for a failing assertion's message."""
    return "\n".join(check.lines)

