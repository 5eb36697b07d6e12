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


def game_log_rows(lines: Sequence[tuple[str, bool]], width: int, lang: str | None = None,
                  names: Names = None) -> list[Text]:
    """``lines`` broken by the one rule (:func:`jupai_net.linebreak.break_points`: at
    spaces, Chinese between characters, never inside a formula or a seat's name; a
    player's name of ``names`` never broken) to ``width`` cells: one :class:`Text` per
    terminal row (continuation rows indented four cells, so the line's own start
    stands out; own lines marked ``»``), with single spaces between words and none at
    a row's end (the break takes the space). ``lang``: None guesses it from each line."""
    from jupai_net.linebreak import break_lines

    from .card_words import shown_names

    keep = shown_names(names, lang or "en")
    rows: list[Text] = []
    for line, mine in lines:
        text = MINE_MARK + line if mine else "  " + line
        style = "bold cyan" if mine else ""
        rows.extend(Text(row, style=style) for row in break_lines(text, max(8, width), lang, keep, hang="    "))
    return rows


def page_count(rows: int, height: int) -> int:
    """How many pages ``rows`` terminal rows take on a screen of ``height`` rows (two
    are kept for the title and the keys line)."""
    per = max(1, height - 2)
    return max(1, -(-rows // per))


#: The keys line's catalog keys (another page, the last page) by what ``q`` goes back to:
#: the table (a seat, a spectator) or the replay's frame (``jupai replay``).
KEYS = {"table": ("gamelog.keys", "gamelog.keys_last"), "replay": ("gamelog.keys_replay", "gamelog.keys_last_replay")}


def log_page(rows: Sequence[Text], page: int, height: int, lang: str = "en",
             your_turn: bool = False, back: str = "table") -> RenderableType:
    """Page ``page`` (0-based) of the game log on a ``height``-row screen: a title
    ``Game log · page 2/5``, the rows, and the keys ``Enter: next page · q: back to the
    table`` (``Enter or q: back to the table`` on the last page; ``your_turn``: they
    start with ``Your turn ·``; ``back="replay"``: ``back to the replay``). ``height - 2``
    rows a page."""
    per = max(1, height - 2)
    pages = page_count(len(rows), height)
    page = max(0, min(page, pages - 1))
    chunk = list(rows[page * per:(page + 1) * per]) or [Text(t("log.empty", lang), style="dim")]
    title = Text(t("gamelog.title", lang, page=page + 1, pages=pages), style="bold yellow")
    keys = Text(t(KEYS[back][1] if page == pages - 1 else KEYS[back][0], lang),
                style="bold" if your_turn else "dim")
    if your_turn:
        keys = Text(t("status.your_turn", lang) + " · ", style="bold reverse") + keys
    return Group(title, *chunk, keys)


class LogPager:
    """The game log paged on a rich screen (``/log``; specs/client.md § The game log),
    for a seat's screen (:class:`.ui.TerminalPlayer`) and a spectator's
    (:class:`.watch.WatchScreen`) alike: the same pages and the same keys. Enter turns
    to the next page, ``q`` (or Enter on the last page) goes back to the table, any
    other line closes the log and is then handled as usual. ``back``: what ``q`` goes
    back to, as the keys line says it (``"table"``, or ``"replay"`` for ``jupai replay``)."""

    def __init__(self, back: str = "table") -> None:
        self.back = back
        self.rows: list[Text] = []
        self.page: int | None = None  # the page shown; None when the table is shown

    @property
    def is_open(self) -> bool:
        """True while a page of the log is on screen (updates do not replace it)."""
        return self.page is not None

    def open(self, view: Any, width: int, lang: str = "en") -> None:
        """Start at page 1 of ``view``'s game so far: its ``events`` (else the
        observation's log tail), as its ``seat`` sees them (None: a spectator), with
        its ``names``, wrapped to ``width`` cells."""
        get = lambda name: getattr(view, name, None) if view is not None else None  # noqa: E731
        events = list(get("events") or ())
        if not events:
            obs = get("observation") or get("obs") or {}
            events = list(obs.get("log") or ())
        self.rows = game_log_rows(game_log_lines(events, get("seat"), get("names"), lang), width, lang, get("names"))
        self.page = 0

    @staticmethod
    def height(console: Console) -> int:
        """The rows a page may take on ``console``: the terminal's height less the
        prompt's row; not paged when the output is not a terminal."""
        return max(6, console.height - 1) if console.is_terminal else 10**6

    def draw(self, console: Console, lang: str = "en", your_turn: bool = False, clear: bool = True) -> None:
        """Draw the page shown on ``console`` (cleared first with ``clear``; ``your_turn``:
        the keys line starts with ``Your turn ·``, :func:`log_page`)."""
        assert self.page is not None
        with console:  # one write: the clear and the page together (no blank screen between)
            if clear:
                console.clear()
            console.print(log_page(self.rows, self.page, self.height(console), lang, your_turn=your_turn,
                                   back=self.back))

    def close(self) -> None:
        """Close the log (the table is shown again at the next redraw)."""
        self.page, self.rows = None, []

    def key(self, line: str, console: Console) -> tuple[bool, bool]:
        """Act on ``line`` typed while the log is open on ``console``. Returns
        ``(still_open, used)``: still open after Enter turned the page (draw it);
        closed otherwise (draw the table), ``used`` False when the line is to be
        handled as usual (a move number, ``?``, …)."""
        assert self.page is not None
        word = line.strip().lower()
        if word == "" and self.page < page_count(len(self.rows), self.height(console)) - 1:
            self.page += 1
            return True, True
        self.close()
        return False, word in ("", "q")

    def turn(self, line: str, console: Console, redraw: Any, lang: str = "en", your_turn: bool = False,
             clear: bool = True) -> bool:
        """:meth:`key`, then draw what is now shown: the next page, or the table
        (``redraw()``). Returns True when ``line`` was used by the log."""
        still_open, used = self.key(line, console)
        if still_open:
            self.draw(console, lang, your_turn, clear)
        else:
            redraw()
        return used
