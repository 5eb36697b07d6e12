"""The help screen (``?``): the keys, then how to play (specs/client.md § Help)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .card_words import ROUND_TYPES, round_type_text
from .i18n import MESSAGES, t
from .layout import TYPE_STYLE, Packed, height_of


def render_help(lang: str = "en", width: int | None = None, height: int | None = None, *,
                keys: str = "help.keys") -> RenderableType:
    """The help panel: the keys line (catalog key ``keys``: a player's keys, or
    ``watch.help_keys`` for a spectator, who has no move or chat), then how to play — what wins, rounds, symbols,
    what each action does with its formula (one line each), equipment, the last round
    — under the title ``Help · how to play``. With ``width`` and ``height`` it fits in
    ``height`` rows: the last rows (last round, equipment, the formulas…) give way
    first, and a line says ``(more on a larger terminal)``; the title and the keys
    line always stay."""
    rows: list[tuple[RenderableType, RenderableType]] = []
    # every text a line of ``a · b`` parts, broken between them (layout.Packed)
    for key in ("win", "rounds", "symbols"):
        rows.append((t(f"help.{key}", lang), Packed(t(f"help.{key}.text", lang))))
    for kind in ROUND_TYPES:
        rows.append((Text(round_type_text(kind, lang), style=TYPE_STYLE[kind]), Packed(t(f"help.{kind}", lang))))
        if f"help.{kind}.formula" in MESSAGES:
            rows.append(("", Packed(t(f"help.{kind}.formula", lang), style="bold")))
    for key in ("equipment", "last"):
        rows.append((t(f"help.{key}", lang), Packed(t(f"help.{key}.text", lang))))

    def panel(shown: list[tuple[RenderableType, RenderableType]], cut: bool) -> RenderableType:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(overflow="fold")
        for row in shown:
            grid.add_row(*row)
        parts: list[RenderableType] = [Packed(t(keys, lang), style="dim"), grid]  # a key never split
        if cut:
            parts.append(Text(t("help.more", lang), style="dim"))
        return Panel(Group(*parts), title=t("help.title", lang) + " · " + t("help.play_title", lang),
                     title_align="left", border_style="blue")

    if width is None or height is None:
        return panel(rows, False)
    for n in range(len(rows), 0, -1):
        candidate = panel(rows[:n], n < len(rows))
        if height_of(candidate, width) <= height:
            return candidate
    return candidate
