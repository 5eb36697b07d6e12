"""Layout helpers shared by every screen: the width rules, styles, measuring and
plain-text rendering of rich renderables (specs/client.md § What the player sees).
No IO besides an in-memory console."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.text import Text

#: The style of each round type (header, help).
TYPE_STYLE = {"attack": "bold red", "defense": "bold blue", "supply": "bold green", "discard": "bold magenta"}

#: Below this many columns the screen is laid out compactly (no panel borders, short
#: equipment and identity columns, moves grouped by target).
COMPACT_WIDTH = 100

#: Names longer than this are cut short (``…``) in the compact players table.
COMPACT_NAME = 14

#: Names longer than this are cut short (``…``) in the wide players table.
WIDE_NAME = 20

#: A name cut short keeps at least this many cells of itself besides the ``…``; a
#: column narrower than that shows no name (the seat number names the seat).
NAME_MIN = 3


def _cropped(name: str, cap: int, tail: int) -> str:
    """``name`` in ``cap`` cells: its head, ``…``, and its last ``tail`` cells."""
    end = ""
    for ch in reversed(name):
        if cell_len(end) + cell_len(ch) > tail:
            break
        end = ch + end
    head = set_cell_size(name, cap - 1 - cell_len(end)).rstrip()
    if cell_len(head + end.lstrip()) < NAME_MIN:  # too little of the name left: none
        return ""
    return head + "…" + end.lstrip()


def cap_names(names: Mapping[Any, str], cap: int) -> dict[Any, str]:
    """Each of ``names`` (key → name as shown) within ``cap`` cells, told apart
    (specs/client.md § Narrow terminals: names). A name that fits is whole; a longer
    one is cut to its head and ``…`` (``Barthol…``); when two cut names would read the
    same (``greedy b…`` twice), they keep their distinguishing tail (``greedy…1``,
    ``greedy…2``), the head shrinking down to :data:`NAME_MIN` cells; a name that even
    then reads as another's, or a ``cap`` under ``NAME_MIN + 1`` cells, gives ``""``
    (the seat number alone names the seat). Never ``…`` alone, never a name cut to
    another's text."""
    out = {k: n for k, n in names.items() if cell_len(n) <= cap}
    rest = {k: n for k, n in names.items() if k not in out}
    for tail in range(0, max(0, cap - NAME_MIN)):
        if not rest:
            break
        trial = {k: _cropped(n, cap, tail) for k, n in rest.items()}
        counts: dict[str, int] = {}
        for text in [*out.values(), *trial.values()]:
            counts[text.casefold()] = counts.get(text.casefold(), 0) + 1
        for k, text in trial.items():
            if text and counts[text.casefold()] == 1:
                out[k] = text
                del rest[k]
    out.update({k: "" for k in rest})
    return {k: out[k] for k in names}


def cut_between(parts: Sequence[str], sep: str, room: int, more: str = " …") -> str:
    """``parts`` joined by ``sep`` within ``room`` cells, cut only between parts: the
    whole parts that fit, then ``more`` (``4♦ 6♥ …``, never ``6…``: a card or a number
    is never cut); ``…`` alone when not even the first part fits."""
    whole = sep.join(parts)
    if cell_len(whole) <= room:
        return whole
    kept = ""
    for part in parts:
        nxt = (kept + sep if kept else "") + part
        if cell_len(nxt) + cell_len(more) > room:
            break
        kept = nxt
    return kept + more if kept else "…"


def lines_panel(lines: Sequence[str], title: str, style: str, compact: bool = False,
                lang: str = "en") -> RenderableType:
    """Notices or chat lines under ``title``: a panel, or (``compact``) one line
    ``Notices: a · b`` (``通知：a · b``, the label's colon in the language's own form),
    broken between the lines when too long (:class:`Packed`: no line ends in ``· ``)."""
    if compact:
        from .i18n import t

        items = [Text(line) for line in lines] or [Text("")]
        items[0] = Text(title + t("colon", lang)) + items[0]
        return Packed(items, style=style)
    # Chinese wraps between characters: rich wrapped a line at its last space, leaving most
    # of a row empty (`主机提前 29` / `秒判你超时…`, issue 12)
    return Panel(Wrapped(Text("\n".join(lines))), title=title, title_align="left", border_style=style)


# ---------------------------------------------------------------------- full views
_MEASURING: dict[int, Console] = {}


def measuring_console(width: int) -> Console:
    """The in-memory console :func:`width_of` and :func:`height_of` measure with at
    ``width`` columns: one per width, made once (making a rich ``Console`` reads the
    environment and builds its theme: about a tenth of a millisecond, hundreds of
    times a redraw). Measuring never writes to it nor changes it."""
    console = _MEASURING.get(width)
    if console is None:
        if len(_MEASURING) > 64:  # terminals resized many times: keep a few
            _MEASURING.clear()
        console = _MEASURING[width] = Console(file=io.StringIO(), width=width, color_system=None,
                                              force_terminal=False, legacy_windows=False, highlight=False,
                                              emoji=False)
    return console


def width_of(renderable: RenderableType, width: int = 10**4) -> int:
    """How many columns ``renderable`` takes at most (its natural width, up to ``width``)."""
    console = measuring_console(width)
    return Measurement.get(console, console.options, renderable).maximum


def height_of(renderable: RenderableType, width: int) -> int:
    """How many terminal lines ``renderable`` takes at ``width`` columns."""
    console = measuring_console(width)
    return len(console.render_lines(renderable, console.options, pad=False))

#: When True, :func:`lines_of` checks each of its figures against :func:`height_of` (a
#: test turns it on: the figures must be the lines rendering gives, else the screens
#: would be fitted differently).
CHECK_LINES = False

_LINES: dict[tuple[Any, ...], int] = {}


def lines_of(renderable: RenderableType, width: int) -> int:
    """:func:`height_of` (how many terminal lines ``renderable`` takes at ``width``
    columns), from its parts where that is exact, without rendering the whole: a
    ``Group`` (or a move list, :class:`AtWidth`) is the sum of its parts when each
    ends its last line; a table without borders whose cells are all one line (every
    column unwrapped: the move grid, a compact players table) is a line a row and
    one for the titles; a ``Text``, a ``Columns`` of texts, a :class:`Packed` or
    :class:`Wrapped` line is rendered once per content and width (the same group of
    moves on many candidate pages of the move list); anything else is rendered.
    The fitting of the screen measures hundreds of candidate parts per redraw
    (specs/performance.md § Client)."""
    found = _lines(renderable, width)
    if found is None:
        found = height_of(renderable, width)
    elif CHECK_LINES:
        assert found == height_of(renderable, width), (found, height_of(renderable, width), renderable)
    return found


def _content_key(renderable: RenderableType, width: int) -> tuple[Any, ...] | None:
    """What a leaf's height depends on (None: not a leaf known here)."""
    from rich.columns import Columns

    if isinstance(renderable, Text):
        r = renderable
        return ("T", r.plain, r.justify, r.overflow, r.no_wrap, r.tab_size, r.end, width)
    if isinstance(renderable, Packed):
        return ("P", tuple(item.plain for item in renderable.items), renderable.sep, width)
    if isinstance(renderable, Wrapped):
        return ("W", renderable.text.plain, renderable.lang, renderable.keep, renderable.hang, width)
    if isinstance(renderable, Columns) and all(type(x) is Text for x in renderable.renderables):
        c = renderable
        return ("C", tuple((x.plain, x.justify, x.overflow, x.no_wrap) for x in c.renderables), c.padding, c.width,
                c.expand, c.equal, c.column_first, c.right_to_left, c.align, str(c.title), width)
    return None


def _ends_lines(renderable: RenderableType) -> bool:
    """True when ``renderable`` is known to end its last line (a part after it starts
    a line of its own)."""
    from rich.columns import Columns
    from rich.table import Table

    if isinstance(renderable, Text):
        return renderable.end == "\n"
    if isinstance(renderable, (Table, Columns, Panel, Packed, Wrapped)):
        return True
    from rich.console import Group

    if isinstance(renderable, Group):
        return all(_ends_lines(r) for r in renderable.renderables)
    return False


def _one_line_rows(table: Any) -> int | None:
    """The lines of a borderless table whose every cell is one line, else None."""
    top, _right, bottom, _left = table.padding
    if (table.box is not None or table.title is not None or table.caption is not None or table.show_footer
            or table.leading or top or bottom or not table.columns):
        return None
    for column in table.columns:
        if not column.no_wrap or "\n" in str(column.header):
            return None
        for cell in column._cells:
            if type(cell) is not Text or cell.no_wrap is False or "\n" in cell.plain:
                return None
    return table.row_count + (1 if table.show_header else 0)


def _lines(renderable: RenderableType, width: int) -> int | None:
    from rich.console import Group
    from rich.table import Table

    if isinstance(renderable, AtWidth):
        built = renderable.build(width)
        return lines_of(built, width)
    if isinstance(renderable, Group):
        if not all(_ends_lines(r) or isinstance(r, AtWidth) for r in renderable.renderables):
            return None
        total = 0
        for r in renderable.renderables:
            if isinstance(r, AtWidth):
                r = r.build(width)
                if not _ends_lines(r):
                    return None
            total += lines_of(r, width)
        return total
    if isinstance(renderable, Table):
        return _one_line_rows(renderable)
    key = _content_key(renderable, width)
    if key is None:
        return None
    found = _LINES.get(key)
    if found is None:
        if len(_LINES) > 20000:  # a long evening: start again
            _LINES.clear()
        found = _LINES[key] = height_of(renderable, width)
    return found


def pack_items(items: Sequence[Text], sep: str, width: int) -> Text:
    """``items`` joined by ``sep`` and broken into lines of ``width`` cells **between
    items only**: a separator never ends or starts a line (it is dropped at a break),
    and an item is never split unless it alone is wider than a line (then it wraps at
    its spaces and, Chinese text, between characters: :func:`wrap_text`). Used for
    every line of ``a · b · c`` parts: the header, the keys lines, the help
    (specs/client.md § What the player sees)."""
    out = Text()
    used = 0
    gap = cell_len(sep)
    for item in items:
        size = cell_len(item.plain)
        if used and used + gap + size > width:
            out.append("\n")
            used = 0
        elif used:
            out.append(sep)
            used += gap
        if size > width - used:  # wider than a line: wrapped here, the next item after its last line
            item = wrap_text(item, width)
            size = cell_len(item.plain.rsplit("\n", 1)[-1])
            used = 0
        out.append_text(item)
        used += size
    return out


class Packed:
    """A line of parts ``a · b · c`` laid out when printed (:func:`pack_items` at the
    width the console offers). ``items``: rich ``Text`` s, or one string cut at ``sep``."""

    def __init__(self, items: Sequence[Text] | str, sep: str = " · ", style: str = "") -> None:
        if isinstance(items, str):
            items = [Text(part) for part in items.split(sep)]
        self.items, self.sep, self.style = list(items), sep, style

    def __rich_console__(self, console: Console, options: Any) -> Any:
        text = pack_items(self.items, self.sep, options.max_width)
        text.stylize(self.style)
        yield text

    def __rich_measure__(self, console: Console, options: Any) -> Measurement:
        longest = max((cell_len(item.plain) for item in self.items), default=0)
        whole = sum(cell_len(item.plain) for item in self.items) + cell_len(self.sep) * max(0, len(self.items) - 1)
        return Measurement(min(longest, options.max_width), min(whole, options.max_width))

    @property
    def plain(self) -> str:
        """The parts on one line, as text."""
        return self.sep.join(item.plain for item in self.items)


def wrap_offsets(plain: str, width: int, lang: str | None = None, keep: Sequence[str] = (),
                 rest_width: int | None = None) -> list[int]:
    """Where to break the one-line ``plain`` so that each line fits ``width`` cells
    (the others ``rest_width``): the one rule of every screen,
    :func:`jupai_net.linebreak.break_points` (Chinese between characters, English at
    spaces, never inside a formula, a seat's name or ``keep``; specs/client.md §
    Languages). rich wraps only at white space, so a Chinese sentence with a number in
    it broke at the number's spaces and left half-empty lines."""
    from jupai_net.linebreak import break_points

    return break_points(plain, width, lang, keep, rest_width)


def wrap_text(text: Text, width: int, lang: str | None = None, keep: Sequence[str] = (), hang: str = "") -> Text:
    """``text`` broken into lines of at most ``width`` cells (:func:`wrap_offsets` for
    each of its lines; styles kept, the spaces at a break dropped); ``hang`` before
    every line after the first of each of its lines."""
    out: list[Text] = []
    width = max(1, width)
    rest = max(1, width - cell_len(hang))
    for line in text.split("\n", allow_blank=True):
        for k, part in enumerate(line.divide(wrap_offsets(line.plain, width, lang, keep, rest))):
            part.rstrip()
            out.append(Text(hang) + part if k and hang else part)
    return Text("\n").join(out)


class Wrapped:
    """A ``Text`` (or string, with ``style``) wrapped when printed at the width the
    console offers by the one rule (:func:`wrap_text`): ``lang`` (None: guessed from
    the text), ``keep`` (names never broken), ``hang`` (before each line after the
    first: a move's words under its number)."""

    def __init__(self, text: Text | str, style: str = "", lang: str | None = None, keep: Sequence[str] = (),
                 hang: str = "", *, whole: Sequence[str] = ()) -> None:
        self.text = text if isinstance(text, Text) else Text(text, style=style)
        # ``whole``: the same as ``keep`` (texts never broken: a seat and its name)
        self.lang, self.keep, self.hang = lang, tuple(k for k in (*keep, *whole) if k), hang

    def __rich_console__(self, console: Console, options: Any) -> Any:
        yield wrap_text(self.text, options.max_width, self.lang, self.keep, self.hang)

    def __rich_measure__(self, console: Console, options: Any) -> Measurement:
        from jupai_net.linebreak import min_width

        plain = self.text.plain
        unit = min_width(plain, self.lang, self.keep) + (cell_len(self.hang) if "\n" in plain or self.hang else 0)
        whole = max((cell_len(line) for line in plain.split("\n")), default=0)
        return Measurement(min(unit, whole, options.max_width), min(whole, options.max_width))

    @property
    def plain(self) -> str:
        return self.text.plain


class Trimmed:
    """``renderable`` printed with no trailing spaces on its lines: a table or a grid
    pads its last column to the column's width, which a log or a copied line keeps
    (the host console, issue 12). Spaces inside a line stay; a line's end-of-line
    style (a background) is dropped with its spaces."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: Any) -> Any:
        from rich.segment import Segment

        for line in console.render_lines(self.renderable, options, pad=False, new_lines=False):
            while line and not line[-1].control and not line[-1].text.rstrip(" "):
                line.pop()
            if line and not line[-1].control:
                last = line[-1]
                line[-1] = Segment(last.text.rstrip(" "), last.style, last.control)
            yield from line
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: Any) -> Measurement:
        return Measurement.get(console, options, self.renderable)

    @property
    def plain(self) -> str:
        return getattr(self.renderable, "plain", "")


class AtWidth:
    """A renderable built when printed, from the width the console offers."""

    def __init__(self, build: Any) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: Any) -> Any:
        yield self.build(options.max_width)

def to_text(renderable: RenderableType, width: int = 120) -> str:
    """Render to plain text (no colour, no terminal), e.g. for tests."""
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False, emoji=False)
    console.print(renderable)
    return console.export_text()
