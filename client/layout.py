"""Layout helpers shared by every screen: the width rules, styles, measuring and
plain-text rendering of rich renderables (specs/client.md § What the player sees).
No IO besides an in-memory console."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

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


def lines_panel(lines: Sequence[str], title: str, style: str, compact: bool = False) -> RenderableType:
    if compact:
        return Text(title + ": " + " · ".join(lines), style=style)
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
