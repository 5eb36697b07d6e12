"""Layout helpers shared by every screen: the width rules, styles, measuring and
plain-text rendering of rich renderables (specs/client.md § What the player sees).
No IO besides an in-memory console."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
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


def lines_panel(lines: Sequence[str], title: str, style: str, compact: bool = False,
                lang: str = "en") -> RenderableType:
    """Notices or chat lines under ``title``: a panel, or (``compact``) one line
    ``Notices: a · b`` (``通知：a · b``, the label's colon in the language's own form)."""
    if compact:
        from .i18n import t

        return Text(title + t("colon", lang) + " · ".join(lines), style=style)
    return Panel(Text("\n".join(lines)), title=title, title_align="left", border_style=style)


# ---------------------------------------------------------------------- full views
def width_of(renderable: RenderableType, width: int = 10**4) -> int:
    """How many columns ``renderable`` takes at most (its natural width, up to ``width``)."""
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False, emoji=False)
    return Measurement.get(console, console.options, renderable).maximum


def height_of(renderable: RenderableType, width: int) -> int:
    """How many terminal lines ``renderable`` takes at ``width`` columns."""
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False, emoji=False)
    return len(console.render_lines(renderable, console.options, pad=False))

def pack_items(items: Sequence[Text], sep: str, width: int) -> Text:
    """``items`` joined by ``sep`` and broken into lines of ``width`` cells **between
    items only**: a separator never ends or starts a line (it is dropped at a break),
    and an item is never split unless it alone is wider than a line (then it wraps at
    its spaces). Used for every line of ``a · b · c`` parts: the header, the keys
    lines (specs/client.md § What the player sees)."""
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
        out.append_text(item)
        used = used + size if used + size <= width else width  # a wrapped item: the next starts a line
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
