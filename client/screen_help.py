"""The help screen (``?``): the keys, then how to play (specs/client.md § Help)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .card_words import ROUND_TYPES, round_type_text
from .i18n import MESSAGES, t
from .layout import TYPE_STYLE


def render_help(lang: str = "en") -> RenderableType:
    """The help panel: the keys, then how to play — round types, what each action does,
    the formulas (one line each) and what wins."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for key in ("win", "rounds", "symbols"):
        grid.add_row(t(f"help.{key}", lang), t(f"help.{key}.text", lang))
    for kind in ROUND_TYPES:
        grid.add_row(Text(round_type_text(kind, lang), style=TYPE_STYLE[kind]), t(f"help.{kind}", lang))
        if f"help.{kind}.formula" in MESSAGES:
            grid.add_row("", Text(t(f"help.{kind}.formula", lang), style="bold"))
    for key in ("equipment", "last"):
        grid.add_row(t(f"help.{key}", lang), t(f"help.{key}.text", lang))
    body = Group(Text(t("help.keys", lang), style="dim"), grid)
    return Panel(body, title=t("help.title", lang) + " · " + t("help.play_title", lang), title_align="left",
                 border_style="blue")
