"""The numbered legal moves as rich renderables (specs/client.md § Your moves): one
per line, in columns, grouped by target, as a targets × cards table or tight; the
words come from :mod:`.move_words` and :mod:`.total_words`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from jupai_net import actions as A
from jupai_net.actions import Action

from .card_words import Names, Obs, cards_text, seat_label
from .i18n import t
from .move_words import describe_action, group_of, item_text
from .total_words import action_fields, own_total, total_text


#: How the moves are listed, most spelled out first: one per line in words
#: (``lines``), in columns in words (``columns``), grouped by target with each move's
#: formula (``grouped``), a table of targets × cards with the totals on top
#: (``matrix``), or grouped with each move's total only (``tight``).
MOVE_LAYOUTS = ("lines", "columns", "grouped", "matrix", "tight")


def prompt_hint(n: int, lang: str, legend: str = "", short: bool = False) -> Text:
    key = ("legal.prompt_one" if n == 1 else "legal.prompt") + ("_short" if short else "")
    return Text(t(key, lang, n=n) + legend, style="dim")


def move_matrix(actions: Sequence[Action], obs: Obs, names: Names, lang: str) -> RenderableType | None:
    """Moves at targets as a table: one column per card (and one per card + weapon),
    the seat's total for each on top, one row per target with the move numbers; None
    when the moves do not form such a table (fewer than two targets, or targets with
    different card choices)."""
    me = obs.get("seat")
    groups: dict[tuple[str, int], dict[tuple[tuple[int, ...], bool], tuple[int, Action]]] = {}
    others: list[tuple[int, Action]] = []
    for k, a in enumerate(actions, 1):
        if a.kind in (A.ATTACK, A.DEFENSE, A.DISCARD) and a.target is not None:
            groups.setdefault((a.kind, a.target), {})[(a.cards, a.weapon)] = (k, a)
        else:
            others.append((k, a))
    if len(groups) < 2:
        return None
    columns = list(next(iter(groups.values())))
    if any(set(g) != set(columns) for g in groups.values()):
        return None
    table = Table(box=None, pad_edge=False, padding=(0, 0, 0, 1), show_edge=False, header_style="bold")
    table.add_column("", no_wrap=True)
    for cards, weapon in columns:
        table.add_column(t("item.weapon", lang) if weapon else cards_text(cards, lang, "+"), justify="right",
                         no_wrap=True, min_width=3)

    def totals(group: Mapping[Any, tuple[int, Action]]) -> list[str]:
        return [total_text(own_total(group[c][1], obs), lang, short=True).lstrip("=") for c in columns]

    rows = {key: tuple(totals(g)) for key, g in groups.items()}
    tally: dict[tuple[str, ...], int] = {}
    for r in rows.values():
        tally[r] = tally.get(r, 0) + 1
    common = max(tally, key=lambda r: tally[r])  # the totals most targets share, on top
    if any(common):
        table.add_row(Text(t("matrix.total", lang), style="dim"), *[Text(x, style="dim") for x in common])
    for (kind, target), group in groups.items():
        table.add_row(Text(t(f"matrix.{kind}", lang, target=seat_label(target, names, me, lang))),
                      *[Text(str(group[c][0]), style="bold") for c in columns])
        if rows[(kind, target)] != common and any(rows[(kind, target)]):  # e.g. a target of the same identity
            table.add_row(Text("  " + t("matrix.total_here", lang), style="dim"),
                          *[Text(x, style="dim") for x in rows[(kind, target)]])
    parts: list[RenderableType] = [table]
    parts.extend(Text.assemble((f"{k:>2}. ", "bold"), describe_action(a, obs, names, lang)) for k, a in others)
    return Group(*parts)


def render_actions(legal: Sequence[Action | Mapping[str, Any]], obs: Obs, names: Names = None,
                   lang: str = "en", layout: str | None = None, compact: bool = False) -> RenderableType:
    """The legal actions numbered from 1 in the host's order, each with the total it
    comes to, and the input hint. ``layout`` (see :data:`MOVE_LAYOUTS`; default: one
    per line up to 8 moves, else columns, or ``matrix``/``tight`` when ``compact``):
    ``grouped`` and ``tight`` list the moves under one line per target (``attack seat
    2:  1) 10♠ =60  2) 10♠+W =108``); ``matrix`` is a table of targets × cards with
    the totals on top. ``compact``: no border, a shorter hint."""
    actions = [action_fields(a) for a in legal]
    n = len(actions)
    if layout is None:
        layout = "lines" if n <= 8 else ("matrix" if compact else "columns")
    body: RenderableType | None = move_matrix(actions, obs, names, lang) if layout == "matrix" else None
    if layout == "matrix" and body is None:
        layout = "tight"
    marks = []
    if layout in ("lines", "columns"):
        items = [Text.assemble((f"{k:>2}. ", "bold"), describe_action(a, obs, names, lang))
                 for k, a in enumerate(actions, 1)]
        if layout == "lines":
            body = Group(*items)
        else:
            cols = 2 if n <= 30 else 3
            grid = Table.grid(padding=(0, 3))
            rows = -(-n // cols) if n else 0
            for _ in range(cols):
                grid.add_column()
            for r in range(rows):
                grid.add_row(*[items[c * rows + r] if c * rows + r < n else Text("") for c in range(cols)])
            body = grid
    elif layout in ("grouped", "tight"):
        full = layout == "grouped"
        groups: dict[Any, tuple[str | None, list[Text]]] = {}
        for k, a in enumerate(actions, 1):
            key, label = group_of(a, obs, names, lang)
            if label is None:
                groups[key] = (None, [Text.assemble((f"{k:>2}. ", "bold"), describe_action(a, obs, names, lang))])
                continue
            groups.setdefault(key, (label, []))[1].append(
                Text.assemble((f"{k})", "bold"), " ", item_text(a, obs, lang, full)))
        rows_out: list[RenderableType] = []
        for label, items in groups.values():
            if label is None:
                rows_out.extend(items)
            else:
                rows_out.append(Text(label, style="bold"))
                rows_out.append(Columns(items, padding=(0, 2)))
        body = Group(*rows_out)
    if layout in ("tight", "matrix"):
        if any(a.weapon for a in actions):
            marks.append(t("legal.legend_weapon", lang))
        if layout == "tight" and any(own_total(a, obs) is not None for a in actions):
            marks.append(t("legal.legend_total", lang))
    legend = "".join(" · " + m for m in marks)
    assert body is not None
    hint = prompt_hint(n, lang, legend, short=compact)
    if compact:
        return Group(body, hint)
    return Panel(Group(body, hint), title=t("legal.title", lang), title_align="left", border_style="green")
