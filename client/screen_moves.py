"""The numbered legal moves as rich renderables (specs/client.md § Your moves): one
per line, in columns, grouped by target, as a targets × cards table or tight; the
words come from :mod:`.move_words` and :mod:`.total_words`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from jupai_net import actions as A
from jupai_net.actions import Action

from .card_words import Names, Obs, cards_text, display_name, name_of, seat_label, shown_names
from .i18n import t
from .layout import AtWidth, Packed, Wrapped, cap_names
from .move_words import column_labels, describe_action, group_of, group_rule, item_text, rules_legend
from .total_words import action_fields, own_total, total_text


#: How the moves are listed, most spelled out first: one per line in words
#: (``lines``), in columns in words (``columns``), grouped by target with each move's
#: formula (``grouped``), a table of targets × cards with the totals on top
#: (``matrix``), or grouped with each move's total only (``tight``).
MOVE_LAYOUTS = ("lines", "columns", "grouped", "matrix", "tight")


def prompt_hint(n: int, lang: str, legend: str = "", short: bool = False) -> Text:
    key = ("legal.prompt_one" if n == 1 else "legal.prompt") + ("_short" if short else "")
    return Text(t(key, lang, n=n) + legend, style="dim")


def _groups(actions: Sequence[Action], obs: Obs, names: Names, lang: str,
            first: int = 1) -> tuple[dict[Any, tuple[str, list[tuple[int, Action]]]], list[tuple[int, Action]]]:
    """The moves by group (:func:`~.move_words.group_of`: a target, the answer, the
    supply (a) under way), numbered from ``first`` (1: the host's first move) in the
    host's order, and the moves that stand alone (drawing equipment, pass, …)."""
    groups: dict[Any, tuple[str, list[tuple[int, Action]]]] = {}
    alone: list[tuple[int, Action]] = []
    for k, a in enumerate(actions, first):
        key, label = group_of(a, obs, names, lang)
        if label is None:
            alone.append((k, a))
        else:
            groups.setdefault(key, (label, []))[1].append((k, a))
    return groups, alone


def _legend(groups: Mapping[Any, tuple[str, Sequence[tuple[int, Action]]]], obs: Obs, names: Names, lang: str,
            head: str | None = None) -> list[Text]:
    """The rules of the totals under the grid or the tight list (dim lines)."""
    def who(key: Any, label: str) -> str:  # a target's rules are named by the seat
        target = key[1] if isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], int) else None
        return label if target is None else seat_label(target, names, obs.get("seat"), lang)

    rows = [(who(key, label), [(cards_text(a.cards or a.recovered, lang, "+"), a) for _k, a in moves])
            for key, (label, moves) in groups.items()]
    return [Text(line, style="dim") for line in rules_legend(rows, obs, lang, head)]


def _numbered(k: int, a: Action, obs: Obs, names: Names, lang: str) -> Text:
    return Text.assemble((f"{k:>2}. ", "bold"), describe_action(a, obs, names, lang))


def _row(k: int, a: Action, obs: Obs, names: Names, lang: str, keep: Sequence[str]) -> Wrapped:
    """A numbered move as a row of the list, broken by the one rule when it is wider
    than the screen (jupai_net.linebreak: never inside its formula, a seat's name or a
    name of ``keep``), its words under the move's words, not under its number."""
    return Wrapped(_numbered(k, a, obs, names, lang), lang=lang, keep=keep, hang=" " * cell_len(f"{k:>2}. "))


def lines_fit(legal: Sequence[Action], obs: Obs, names: Names, lang: str, width: int) -> bool:
    """True when every move of the one-per-line layout fits on one line of ``width``
    cells (else a move, or its formula, would be broken over two lines: the grouped
    layouts are used instead on a compact screen)."""
    return all(cell_len(_numbered(k, a, obs, names, lang).plain) <= width for k, a in enumerate(legal, 1))


def _shown_names(obs: Obs, names: Names, lang: str) -> dict[int | None, str]:
    """Every seat's name as shown (bot names in ``lang``; ``you`` for the viewer), the
    names :func:`~.layout.cap_names` tells apart, as the players table does."""
    me = obs.get("seat")
    return {p.get("seat"): t("you", lang) if p.get("seat") == me else display_name(name_of(names, p.get("seat")) or "", lang)
            for p in obs.get("players", [])}


def _named_within(say: Callable[[Names], str], target: int, obs: Obs, names: Names, lang: str, room: int) -> str:
    """``say(names)`` (a line naming seat ``target``) within ``room`` cells when it fits;
    else with the name cut short by the one rule (:func:`~.layout.cap_names`, told
    apart from every other seat's name: ``attack seat 2 (Bart…h)``); else ``say(None)``
    (the seat number alone), which may still be wider than ``room``."""
    full = say(names)
    if cell_len(full) <= room:
        return full
    shown = _shown_names(obs, names, lang)
    if shown.get(target) and target != obs.get("seat"):
        cap = room - (cell_len(say({target: "x"})) - 1)  # the cells the name has
        cut = cap_names(shown, cap).get(target, "") if cap > 0 else ""
        if cut:
            return say({target: cut})
    return say(None)


def _capped_label(key: Any, label: str, obs: Obs, names: Names, lang: str, room: int) -> str | None:
    """A grid row's label within ``room`` cells: ``attack seat 2 (Bartholomew)``,
    the name cut short by the one rule (``attack seat 2 (Bart…h)``,
    :func:`_named_within`), then without the name (``attack seat 2``); None when even
    that does not fit (specs/client.md § Narrow terminals: names)."""
    kind, target = (key[0], key[1]) if isinstance(key, tuple) and len(key) == 2 else (None, None)
    if kind not in (A.ATTACK, A.DEFENSE, A.DISCARD) or target is None:
        text = label.rstrip(":：")
        return text if cell_len(text) <= room else None
    me = obs.get("seat")
    text = _named_within(lambda who: t(f"matrix.{kind}", lang, target=seat_label(target, who, me, lang)),
                         target, obs, names, lang, room)
    return text if cell_len(text) <= room else None


def move_matrix(actions: Sequence[Action], obs: Obs, names: Names, lang: str,
                width: int | None = None, first: int = 1) -> RenderableType | None:
    """The moves as a grid: one row per group (a target, the answer, the supply (a)
    step), one column per choice (cards, then the same cards with the weapon ``+W``),
    each cell the move's number; the seat's total for each column on top (a group
    whose totals differ, e.g. a target of the same identity, gets its own totals row),
    the moves that stand alone numbered under it, then the legend of the totals'
    rules (:func:`~.move_words.rules_legend`).

    Within ``width`` cells: row labels cut names short (never a number or a column);
    None when the grid does not fit, or the moves do not form one (groups with
    different choices, a single choice). ``first``: the number of ``actions[0]``
    (a page of the moves, :func:`move_pages`)."""
    groups, alone = _groups(actions, obs, names, lang, first)
    if not groups:
        return None
    cols: dict[Any, dict[tuple[tuple[int, ...], bool, tuple[int, ...]], tuple[int, Action]]] = {
        key: {(a.cards, a.weapon, a.recovered): (k, a) for k, a in moves} for key, (_label, moves) in groups.items()}
    columns = list(next(iter(cols.values())))
    if len(columns) < 2 or any(list(g) != columns for g in cols.values()):
        return None
    heads = column_labels([cols[next(iter(cols))][c][1] for c in columns], lang)

    def totals(group: Mapping[Any, tuple[int, Action]]) -> tuple[str, ...]:
        return tuple(total_text(own_total(group[c][1], obs), lang, short=True).lstrip("=") for c in columns)

    rows = {key: totals(g) for key, g in cols.items()}
    tally: dict[tuple[str, ...], int] = {}
    for r in rows.values():
        tally[r] = tally.get(r, 0) + 1
    common = max(tally, key=lambda r: tally[r])  # the totals most groups share, on top
    differ = [key for key, r in rows.items() if r != common and any(r)]
    widths = [max(cell_len(heads[j]), cell_len(str(max(g[c][0] for g in cols.values()))),
                  *(cell_len(r[j]) for r in rows.values())) for j, c in enumerate(columns)]
    room = (width if width is not None else 10**6) - sum(w + 1 for w in widths)
    labels = {key: _capped_label(key, groups[key][0], obs, names, lang, room) for key in groups}
    if any(v is None for v in labels.values()):
        return None

    def rule_of(key: Any) -> str | None:
        return group_rule([(cards_text(a.cards or a.recovered, lang, "+"), a) for _k, a in groups[key][1]], obs, lang)

    def with_rule(label: str, key: Any, indent: str = "") -> tuple[str, str | None]:
        """The totals row's label (after ``indent``) with the rules when they fit, else
        the rules for the legend."""
        rule = rule_of(key)
        if rule is None:
            return indent + label, None
        full = indent + t("rule.part", lang, label=label, rule=rule)
        return (full, None) if cell_len(full) <= room else (indent + label, rule)

    legend: list[Text] = []
    common_key = next(key for key, r in rows.items() if r == common)
    total_label, rule = with_rule(t("matrix.total", lang), common_key)
    if rule is not None:
        legend.append(Text(t("rule.part", lang, label=t("rule.total", lang), rule=rule), style="dim"))
    here: dict[Any, str] = {}
    for key in differ:
        here[key], rule = with_rule(t("matrix.total_here", lang), key, "  ")
        if rule is not None:
            line = labels[key] or ""
            if isinstance(key[1], int):  # the seat, named (cut short, told apart) if that fits on the line
                line = _named_within(lambda who, s=key[1], r=rule: t("rule.part", lang, rule=r,
                                                                     label=seat_label(s, who, obs.get("seat"), lang)),
                                     key[1], obs, names, lang, width if width is not None else 10**6)
            legend.append(Text(line, style="dim"))
    if max([cell_len(total_label) if any(common) else 0, *(cell_len(x) for x in here.values())]) > room:
        return None
    table = Table(box=None, pad_edge=False, padding=(0, 0, 0, 1), show_edge=False, header_style="bold",
                  collapse_padding=False)
    table.add_column("", no_wrap=True, overflow="crop")
    for head, w in zip(heads, widths):
        table.add_column(head, justify="right", no_wrap=True, min_width=w)
    if any(common):
        table.add_row(Text(total_label, style="dim"), *[Text(x, style="dim") for x in common])
    for key, group in cols.items():
        table.add_row(Text(labels[key] or ""), *[Text(str(group[c][0]), style="bold") for c in columns])
        if key in differ:
            table.add_row(Text(here[key], style="dim"), *[Text(x, style="dim") for x in rows[key]])
    parts: list[RenderableType] = [table]
    keep = shown_names(names, lang)
    parts.extend(_row(k, a, obs, names, lang, keep) for k, a in alone)
    parts.extend(legend)
    return Group(*parts)


def layout_floor(legal: Sequence[Action | Mapping[str, Any]], obs: Obs, names: Names, lang: str, layout: str,
                 compact: bool) -> int:
    """At least how many lines :func:`render_actions` takes for every move of ``legal``
    in ``layout`` at any width (without building it): a move a line (``lines``), a
    row of three (``columns``), a group's title and a row of moves (``grouped``,
    ``tight``), a grid row a group under a line of heads (``matrix``, or ``tight``
    when no grid), a line a move that stands alone; the hint's line; a panel's two
    borders when not ``compact``. The fitting of the screen skips a layout whose floor
    is already too tall (measuring it renders it)."""
    actions = [action_fields(a) for a in legal]
    n = len(actions)
    groups, alone = _groups(actions, obs, names, lang)
    body = {"lines": n, "columns": -(-n // 3), "grouped": 2 * len(groups) + len(alone),
            "tight": 2 * len(groups) + len(alone), "matrix": len(groups) + bool(groups) + len(alone)}.get(layout, 0)
    return body + 1 + (0 if compact else 2)


def move_units(legal: Sequence[Action | Mapping[str, Any]], obs: Obs, names: Names = None,
               lang: str = "en") -> list[tuple[int, int]]:
    """The moves cut where their group changes (:func:`~.move_words.group_of`; a move
    that stands alone is a unit of its own): ``(first, last)`` numbers, 1-based and
    inclusive, in the host's order. A page of the moves (:func:`move_pages`) is made
    of whole units when it can."""
    actions = [action_fields(a) for a in legal]
    units: list[tuple[int, int]] = []
    last_key: Any = object()
    for k, a in enumerate(actions, 1):
        key, label = group_of(a, obs, names, lang)
        if label is not None and key == last_key and units:
            units[-1] = (units[-1][0], k)
        else:
            units.append((k, k))
        last_key = key if label is not None else object()
    return units


def move_pages(units: Sequence[tuple[int, int]], fits: Any, limit: int | None = None) -> list[tuple[int, int]]:
    """The moves cut into pages, in order: each page ``(first, last)`` as many whole
    ``units`` (:func:`move_units`) as ``fits(first, last)`` allows, a unit too tall for
    a page alone cut into as many moves as fit (at least one a page). Every move is
    on exactly one page. ``limit``: stop after that many pages (the first ``limit``
    pages: a caller that wants fewer pages than that learns enough)."""
    pages: list[tuple[int, int]] = []
    rest = list(units)
    while rest and (limit is None or len(pages) < limit):
        first = rest[0][0]
        low, high = -1, len(rest) - 1  # the most whole units that fit: a longer page is never shorter
        while low < high:
            mid = (low + high + 1) // 2
            low, high = (mid, high) if fits(first, rest[mid][1]) else (low, mid - 1)
        if low >= 0:
            pages.append((first, rest[low][1]))
            rest = rest[low + 1:]
            continue
        low, high = first, rest[0][1] - 1  # the most moves of this unit that fit (one at least)
        while low < high:
            mid = (low + high + 1) // 2
            low, high = (mid, high) if fits(first, mid) else (low, mid - 1)
        pages.append((first, low))
        if low >= rest[0][1]:  # a unit of one move too tall alone: on a page of its own
            rest = rest[1:]
        else:
            rest[0] = (low + 1, rest[0][1])
    return pages


def render_actions(legal: Sequence[Action | Mapping[str, Any]], obs: Obs, names: Names = None,
                   lang: str = "en", layout: str | None = None, compact: bool = False,
                   status: Text | None = None, shown: tuple[int, int] | None = None,
                   fold: bool = False) -> RenderableType:
    """The legal actions numbered from 1 in the host's order, each with the total it
    comes to, and the input hint; laid out when printed, for the width the console
    offers. ``layout`` (see :data:`MOVE_LAYOUTS`; default: one per line up to 8
    moves, else columns, or ``matrix`` when ``compact``): ``grouped`` and ``tight``
    list the moves under one line per group (``attack seat 2:  1) 10♠ =60  2) 10♠+W
    =108``); ``matrix`` is the grid of :func:`move_matrix` (``tight`` when it does not
    fit). The layouts that show totals without their formulas (``matrix``,
    ``tight``) give the rules in a legend. A move number is never cut.
    ``compact``: no border, a shorter hint; ``status``: a line (``Your turn``) put in
    front of the hint, on its line. ``shown``: a page of the moves, ``(first, last)``
    numbers (1-based, inclusive; :func:`move_pages`), under which a line names the
    others and the key that turns the page (``other moves: 21–50 · Enter: next
    page``); the hint still offers every number, each playable from any page.
    ``fold`` (the most squeezed screens, :data:`~.screen.SQUEEZE` 9): on a page, when
    that line does not fit on the hint's line, the hint says it in short instead, on
    its line (``Your turn · 1–25 + Enter · Enter: more``): the numbers of the other
    moves are then not named, Enter still shows them page after page."""
    actions = [action_fields(a) for a in legal]
    return AtWidth(lambda width: _render_actions(actions, obs, names, lang, layout, compact, width, status, shown,
                                                 fold))


def _ranges_text(ranges: Sequence[tuple[int, int]], lang: str) -> str:
    from jupai_net.messages import names_text

    return names_text((f"{a}–{b}" if b > a else str(a) for a, b in ranges), lang)


def _render_actions(all_actions: Sequence[Action], obs: Obs, names: Names, lang: str, layout: str | None,
                    compact: bool, width: int, status: Text | None = None,
                    shown: tuple[int, int] | None = None, fold: bool = False) -> RenderableType:
    total = len(all_actions)
    first, last = shown if shown is not None else (1, total)
    actions = all_actions[first - 1:last]
    n = len(actions)
    if layout is None:
        layout = "lines" if n <= 8 else ("matrix" if compact else "columns")
    inner = width if compact else width - 4  # inside the panel's borders and padding
    keep = shown_names(names, lang)  # the players' names, never broken over two lines
    body: RenderableType | None = (move_matrix(actions, obs, names, lang, inner, first) if layout == "matrix"
                                   else None)
    if layout == "matrix" and body is None:
        layout = "tight"
    if layout in ("lines", "columns"):
        items = [_row(k, a, obs, names, lang, keep) for k, a in enumerate(actions, first)]
        # as many columns (2, or 3 from 31 moves) as the longest move fits whole
        cols = min(2 if n <= 30 else 3, max(1, (inner + 3) // (max((cell_len(x.plain) for x in items), default=1) + 3)))
        if layout == "lines" or cols == 1:
            body = Group(*items)
        else:
            grid = Table.grid(padding=(0, 3))
            rows = -(-n // cols) if n else 0
            for _ in range(cols):
                grid.add_column()
            for r in range(rows):
                grid.add_row(*[items[c * rows + r] if c * rows + r < n else Text("") for c in range(cols)])
            body = grid
    elif layout in ("grouped", "tight"):
        full = layout == "grouped"
        groups, alone = _groups(actions, obs, names, lang, first)
        rows_out: list[RenderableType] = []
        alone_at = {k: a for k, a in alone}
        done: set[Any] = set()
        for k, a in enumerate(actions, first):  # in the host's order: a group where its first move is
            if k in alone_at:
                rows_out.append(_row(k, a, obs, names, lang, keep))
                continue
            key = group_of(a, obs, names, lang)[0]
            if key in done:
                continue
            done.add(key)
            label, moves = groups[key]
            rows_out.append(Text(label, style="bold"))
            rows_out.append(Columns([Text.assemble((f"{j})", "bold"), " ", item_text(b, obs, lang, full))
                                     for j, b in moves], padding=(0, 2)))
        if not full:
            rows_out.extend(_legend(groups, obs, names, lang, t("legal.legend_total", lang)))
        body = Group(*rows_out)
    weapon = layout in ("tight", "matrix") and any(a.weapon for a in actions)
    n = total  # the hint offers every move, shown on this page or not
    hint = prompt_hint(n, lang, " · " + t("legal.legend_weapon", lang) if weapon else "", short=compact)
    tiny = Text(t("legal.prompt_one_tiny" if n == 1 else "legal.prompt_tiny", lang, n=n)
                + (" · " + t("legal.legend_weapon_tiny", lang) if weapon else ""), style="dim")
    # the tiniest: without the +W key (the column heads and the legend's rule say +W)
    bare = Text(t("legal.prompt_one_tiny" if n == 1 else "legal.prompt_tiny", lang, n=n), style="dim")
    lines: list[Text] = []
    hints = [hint, tiny, *([bare] if weapon and layout == "matrix" else [])]
    lead = cell_len(status.plain) + 3 if status is not None else 0

    def led(h: Text) -> Text:  # the status in front of the hint
        return h if status is None else Text.assemble(status, " · ", h)

    more: Text | None = None
    if n > len(actions):  # a page: the other moves' numbers, and how to see them (on the hint's line if it fits)
        others = [r for r in ((1, first - 1), (last + 1, total)) if r[0] <= r[1]]
        more = Text(t("legal.more", lang, ranges=_ranges_text(others, lang)) + " · " + t("legal.more_key", lang),
                    style="bold yellow")
        whole = next((h for h in hints if lead + cell_len(h.plain) + 3 + cell_len(more.plain) <= inner), None)
        if whole is not None:  # all on one line
            return _moves_part(body, [Text.assemble(led(whole), " · ", more)], compact, lang, keep)
        if fold:  # squeezed most: the short hint that says there is more, on the status's line if it fits
            short = Text(t("legal.prompt_paged", lang, n=n), style="dim")
            if status is not None and (compact and lead + cell_len(short.plain) > inner):
                return _moves_part(body, _status_lines(status, short, inner, lang, keep), compact, lang, keep)
            return _moves_part(body, [led(short)], compact, lang, keep)
    if compact and cell_len(hint.plain) > inner:  # the shortest hint, on one line
        hint = tiny
    if status is not None:  # on the hint's line when that fits, else on its own line above it
        fits = [h for h in hints if not compact or lead + cell_len(h.plain) <= inner]
        if fits:
            hint = led(fits[0])
        elif fold and compact:  # squeezed most: the hint after the status's last line, if it saves one
            *above, hint = _status_lines(status, hint, inner, lang, keep)
            lines.extend(above)
        else:
            lines.append(status)
    if more is not None:  # the other moves' numbers on their own line (broken between parts)
        lines.append(Packed([Text(part) for part in more.plain.split(" · ")], style="bold yellow"))
    lines.append(hint)
    return _moves_part(body, lines, compact, lang, keep)


def _status_lines(status: Text, hint: Text, width: int, lang: str, keep: Sequence[str]) -> list[Text]:
    """A status too long to share a line with the ``hint``: the two run on as one text
    wrapped at ``width`` (``Defend vs seat 1 ⚔ Q♦: (6 + 12) + (1 + 12) = 31 · 1–5 +
    Enter · ? help`` on two lines) when that takes fewer lines than the status above a
    line of its own; else the status, then the hint."""
    from .layout import lines_of

    joined = Text.assemble(status, " · ", hint)
    if lines_of(Wrapped(joined, lang=lang, keep=keep), width) < lines_of(Wrapped(status, lang=lang, keep=keep),
                                                                         width) + 1:
        return [joined]
    return [status, hint]


def _moves_part(body: RenderableType | None, lines: Sequence[RenderableType], compact: bool, lang: str,
                keep: Sequence[str]) -> RenderableType:
    """The moves' ``body`` with the hint's ``lines`` under it, each broken by the one
    rule (:class:`~.layout.Wrapped`, the names of ``keep`` whole): compact, as they
    are; else in the moves' panel."""
    rows = [Wrapped(x, lang=lang, keep=keep) if isinstance(x, Text) else x for x in lines]  # the one rule
    assert body is not None
    if compact:
        return Group(body, *rows)
    return Panel(Group(body, *rows), title=t("legal.title", lang), title_align="left", border_style="green")
