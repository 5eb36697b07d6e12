"""The whole game so far (``/log``), paged for the terminal (specs/client.md § The
game log): every event of the game in words with its formulas, oldest first, the
viewer's own marked ``»``, cut into pages of the terminal's height. Words come from
:mod:`.event_words`; this module lays them out and pages them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from .card_words import Names
from .event_words import MINE_MARK, describe_event, involves, merged_events
from .i18n import t


def game_log_lines(events: Iterable[Mapping[str, Any]], me: int | None, names: Names = None,
                   lang: str = "en") -> list[tuple[str, bool]]:
    """Every event of ``events`` (the seat's history of this game) in words, oldest
    first, a play followed by its contest once: ``(text, mine)`` pairs, ``mine`` when
    the viewer took part (:func:`~.event_words.involves`)."""
    out = []
    for e in merged_events(events):
        line = describe_event(e, names, me, lang)
        if line:
            out.append((line, involves(e, me)))
    return out


def game_log_rows(lines: Sequence[tuple[str, bool]], width: int) -> list[Text]:
    """``lines`` wrapped at word boundaries to ``width`` cells: one :class:`Text` per
    terminal row (continuation rows indented two cells; own lines marked ``»``), with
    single spaces between words and none at a row's end (the break takes the space)."""
    console = Console(width=max(8, width), color_system=None, force_terminal=False, legacy_windows=False)
    rows: list[Text] = []
    for line, mine in lines:
        text = Text(MINE_MARK + line if mine else "  " + line, style="bold cyan" if mine else "")
        wrapped = _rows(text.wrap(console, max(8, width), overflow="fold"))
        rows.append(wrapped[0])
        if len(wrapped) > 1:  # the rest again, two cells in, so the line's own start stands out
            rest = Text(" ").join(wrapped[1:])
            rows.extend(Text("    ") + w for w in _rows(rest.wrap(console, max(4, width - 4), overflow="fold")))
    return rows


def _rows(lines: Iterable[Text]) -> list[Text]:
    """Wrapped rows without the spaces a break left at their ends."""
    out = []
    for row in lines:
        row.rstrip()
        out.append(row)
    return out


def page_count(rows: int, height: int) -> int:
    """How many pages ``rows`` terminal rows take on a screen of ``height`` rows (two
    are kept for the title and the keys line)."""
    per = max(1, height - 2)
    return max(1, -(-rows // per))


def log_page(rows: Sequence[Text], page: int, height: int, lang: str = "en",
             your_turn: bool = False) -> RenderableType:
    """Page ``page`` (0-based) of the game log on a ``height``-row screen: a title
    ``Game log · page 2/5``, the rows, and the keys ``Enter: next page · q: back to the
    table`` (``Enter or q: back to the table`` on the last page; ``your_turn``: they
    start with ``Your turn ·``). ``height - 2`` rows a page."""
    per = max(1, height - 2)
    pages = page_count(len(rows), height)
    page = max(0, min(page, pages - 1))
    chunk = list(rows[page * per:(page + 1) * per]) or [Text(t("log.empty", lang), style="dim")]
    title = Text(t("gamelog.title", lang, page=page + 1, pages=pages), style="bold yellow")
    keys = Text(t("gamelog.keys_last" if page == pages - 1 else "gamelog.keys", lang),
                style="bold" if your_turn else "dim")
    if your_turn:
        keys = Text(t("status.your_turn", lang) + " · ", style="bold reverse") + keys
    return Group(title, *chunk, keys)
