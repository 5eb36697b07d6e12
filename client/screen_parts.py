"""The sections of the table screen as rich renderables (specs/client.md § What the
player sees, items 1–5 and the timer): header, own hand and equipment, the players
table, the outcomes since the last turn, the final ranking. Words come from the
``*_words`` modules; this module only lays them out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from jupai_net.printable import printable

from .card_words import (
    Names,
    Obs,
    card_text,
    cards_text,
    display_name,
    equipment_text,
    identity_text,
    name_of,
    player_of,
    rearm_state,
    recovered_of,
    round_type_text,
    seat_label,
    shown_names,
)
from .event_words import LOG_LIMIT, MINE_MARK, describe_event, involves, recent_window
from .i18n import t, tn
from .layout import COMPACT_NAME, TYPE_STYLE, WIDE_NAME, AtWidth, Packed, Wrapped, cap_names, cut_between, width_of
from .status_words import ranking_rows
from .win_words import game_win_text


#: The header's last part: the scheme that deals the game (``ClientView.dealer``), the
#: blind one in green, the trusted dealer (the host can see every hand) in yellow.
DEALER_PARTS = {"blind": ("header.dealer.blind", "green"), "trusted": ("header.dealer.trusted", "yellow")}


def render_header(obs: Obs, names: Names = None, lang: str = "en", compact: bool = False,
                  numbers: bool = True, tight: bool = False, dealer: str | None = None,
                  tiny: bool = False) -> RenderableType:
    """Round number / total, round card, round type, R, leader, the dealing scheme,
    special numbers, piles (``compact``: one short line of numbers, no ranks the
    players table shows; ``numbers=False``: without that line; ``tight``: the round
    card without its words, ``Round 2/11 · 2♠ · defense round · …``). ``dealer``:
    ``"blind"`` or ``"trusted"`` (any other scheme is said as trusted, as the start's
    notice says it), named last on the first line, which every screen keeps
    (``dealer-blind`` / ``trusted dealer``, ``庄家盲发`` / ``可信庄家``); None: not named.
    ``tiny`` (with ``tight``, the most squeezed screen, :data:`~.screen.SQUEEZE` 11):
    the fewest words, on one 40-column line when they fit, the leader by seat number
    (``2/11 · J♥ defense · R = 2 · seat 5 leads``, ``2/11回合 · J♥ 防守 · R = 2 ·
    5号位先手``), the last round's warning in short (``LAST ROUND: all hand cards +
    weapon``)."""
    me = obs.get("seat")
    kind = obs.get("round_type", "")
    sep = " · " if compact else "  ·  "
    card = obs.get("round_card")
    card_name = card_text(card, lang) if card is not None else "?"
    # the parts break between them, never after a separator (layout.pack_items)
    if tiny:
        line = Packed([Text(t("header.round_tiny", lang, round=obs.get("round"), rounds=obs.get("rounds")),
                            style="bold"),
                       Text(t("header.type_tiny", lang, card=card_name, type=round_type_text(kind, lang)),
                            style=TYPE_STYLE.get(kind, "bold")),
                       Text(f"R = {obs.get('R')}", style="bold"),
                       Text(t("header.leader_tiny", lang, who=seat_label(obs.get("leader"), None, None, lang))),
                       *([] if dealer is None else [_dealer_part(dealer, lang)])], sep)
    else:
        line = Packed([Text(t("header.round", lang, round=obs.get("round"), rounds=obs.get("rounds")), style="bold"),
                       Text(card_name if tight else t("header.round_card", lang, card=card_name)),
                       Text(t("header.type", lang, type=round_type_text(kind, lang)),
                            style=TYPE_STYLE.get(kind, "bold")),
                       Text(f"R = {obs.get('R')}" if tight else t("header.R", lang, R=obs.get("R")), style="bold"),
                       Text(t("header.leader", lang, who=seat_label(obs.get("leader"), names, me, lang))),
                       *([] if dealer is None else [_dealer_part(dealer, lang)])], sep)
    specials = obs.get("specials") or {}
    rows: list[RenderableType] = [line]
    if obs.get("last_round") and not obs.get("result"):  # a warning for the plays: none once over
        rows.append(Text(t("header.last_round_tiny" if tiny else "header.last_round", lang), style="bold yellow"))
    small = Text(style="dim")
    reading = obs.get("same_identity")
    if not numbers:
        return Group(*rows)
    if compact:
        small.append(t("header.compact", lang, supply=specials.get("supply", "?"), discard=specials.get("discard", "?"),
                       stock=obs.get("stock", 0), pile=len(obs.get("discard_pile") or [])))
        if reading == "matching-card":
            small.append(" · " + t("header.same_identity.matching-card", lang))
        rows.append(small)
        return Group(*rows)
    if specials:
        small.append(t("header.specials", lang, supply=specials.get("supply"), discard=specials.get("discard"),
                       coordinator=specials.get("coordinator"), farmer=specials.get("farmer")))
        small.append("  ·  ")
    small.append(t("header.piles", lang, stock=obs.get("stock", 0), pile=obs.get("round_pile", 0),
                   discard=len(obs.get("discard_pile") or [])))
    if reading:
        small.append("  ·  " + t(f"header.same_identity.{reading}", lang))
    rows.append(small)
    return Group(*rows)


def _dealer_part(dealer: str, lang: str) -> Text:
    key, style = DEALER_PARTS.get(dealer, DEALER_PARTS["trusted"])
    return Text(t(key, lang), style=style)


def render_hand(obs: Obs, lang: str = "en", legend: bool = True) -> Text:
    """The viewer's hand, sorted, recovered cards marked with ``*`` (and styled); with
    ``legend``, ``* = recovered card`` after it when one is."""
    hand = obs.get("hand") or []
    recovered = recovered_of(obs, obs.get("seat"))
    text = Text()
    if not hand:
        text.append(t("hand.empty", lang), style="dim")
    for k, c in enumerate(hand):
        if k:
            text.append(" " if not legend else "  ")
        if c in recovered:
            text.append(card_text(c, lang) + "*", style="bold cyan")
        else:
            text.append(card_text(c, lang), style="bold")
    if legend and recovered & set(hand):
        text.append("    " + t("hand.legend", lang), style="dim")
    return text

def render_self(obs: Obs, lang: str = "en", compact: bool = False, title: bool = True,
                oneline: bool = False, cut: bool = False) -> RenderableType:
    """The viewer's panel: identity (in the title), hand (recovered cards marked) and
    equipment with uses left, quality and visibility (``compact``: no border;
    ``title=False`` with ``compact``: no title line, the players table's own row gives
    the identity; ``oneline`` with ``compact``: hand and short equipment on one line,
    ``Hand 3♠* 4♦ · Equipment Q♠+3♣ · 1 left · down``; with ``cut`` too, one terminal
    line: the equipment's parts that fit after the hand, cut between parts
    (``Hand 3♠* 4♦ 9♠ J♦ Q♣ K♣ · Equipment Q♠+3♣ …``), none when not even its first
    part fits — the players table's own row shows it, cut to its cell
    (:data:`~.screen.SQUEEZE` 10); a hand too long for the line is wrapped whole)."""
    me = obs.get("seat")
    mine = player_of(obs, me)
    if compact and oneline:  # parts broken between them only (layout.Packed)
        hand = Text(t("hand.title_short", lang) + " ", style="dim")
        hand.append_text(render_hand(obs, lang, legend=False))
        equipment = [Text(part) for part in
                     equipment_text(mine.get("equipment"), lang, rearm_state(obs, mine), compact=True).split(" · ")]
        equipment[0] = Text(t("equip.title_short", lang) + " ", style="dim") + equipment[0]
        if cut:
            return AtWidth(lambda width: _self_line(hand, equipment, width))
        return Packed([hand, *equipment])
    grid = Table.grid(padding=(0, 2 if not compact else 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    grid.add_row(t("hand.title_short" if compact else "hand.title", lang), render_hand(obs, lang))
    grid.add_row(t("equip.title_short" if compact else "equip.title", lang),
                 Packed(equipment_text(mine.get("equipment"), lang, rearm_state(obs, mine))))  # whole parts
    heading = seat_label(me, None, me, lang) + " · " + t(
        "identity.yours", lang, identity=identity_text(mine.get("identity"), mine.get("identity_value"), lang))
    if compact:
        return Group(Text(heading, style="bold cyan"), grid) if title else grid
    return Panel(grid, title=Text(heading), title_align="left", border_style="cyan")


def _self_line(hand: Text, equipment: Sequence[Text], width: int) -> RenderableType:
    """The hand, then the equipment's parts that fit on the line (cut between parts
    with `` …``, never inside a card or a number; none when its first part does not
    fit), on one line of ``width`` cells; a hand wider than the line is wrapped whole
    (:class:`~.layout.Packed`)."""
    if cell_len(hand.plain) > width:
        return Packed([hand, *equipment])
    line = hand.copy()
    room = width - cell_len(hand.plain) - 3
    kept = cut_between([part.plain for part in equipment], " · ", room)
    if kept != "…":
        line.append(" · ")
        count = len(kept.removesuffix(" …").split(" · "))
        for k, part in enumerate(equipment[:count]):
            line.append_text(Text(" · ") + part if k else part)
        if kept.endswith(" …"):
            line.append(" …")
    return line


def render_players(obs: Obs, names: Names = None, lang: str = "en", compact: bool = False,
                   header: bool = True, one_row: bool = False, mine_above: bool = False,
                   lines: bool = True, recovered_line: bool = True) -> RenderableType:
    """Every seat, one row each: identity (as visible), hand count, recovered cards,
    equipment as visible, cards left; ``▶`` marks the seat to move, ``leads`` the leader
    (``compact``: short identity and equipment, no header rule; identities never cut;
    names longer than 14 cells cut with ``…``, shorter (10, then 6 cells) when the
    console is too narrow for the row, the recovered cards, last, wrapped; when even
    then their column would be narrower than its title (or 8 cells) they go on a line
    under the table, ``Recovered: seat 0 A♠ 6♠ · seat 3 K♠`` (never a title or a card
    broken: ``Recovere/d``); ``one_row`` with ``compact``: one terminal row per seat
    (no column titles), the recovered cards cut with ``…`` if needed;
    ``header=False``: without the column titles). On a terminal too narrow for a row
    with its equipment even then (40 columns), a seat whose equipment does not fit
    what the row leaves gets it on a line under its row (a face-down pair said
    ``down`` when ``face-down`` does not fit), except the viewer's own with
    ``mine_above`` (the own section above the table shows it); ``lines=False`` (the
    most squeezed screen, :data:`~.screen.SQUEEZE` 7): no such line, the equipment cut
    with ``…`` in its row; ``recovered_line=False`` (:data:`~.screen.SQUEEZE` 8) with it:
    no line of recovered cards under the table either, they are cut with ``…`` in
    their rows when a column of 3 cells is left, else not shown."""
    if not compact:
        return _players(obs, names, lang, False, header, COMPACT_NAME)
    need = max(8, cell_len(t("col.recovered", lang)) if header else 0)  # the column's title whole

    def fitted(width: int) -> RenderableType:
        for cap in (COMPACT_NAME, 10, 6):
            # what is left for the recovered cards' column (the cells' padding is 1 each side)
            rest = width - width_of(_players(obs, names, lang, True, header, cap, recovered=False)) - 2
            table = _players(obs, names, lang, True, header, cap, one_row=one_row)
            if (width_of(table) <= width) if one_row else rest >= need:  # else the recovered cards wrap in 8+
                return table
        parts = recovered_parts(obs, lang)
        bare = _players(obs, names, lang, True, header, 6, recovered=False)
        if width_of(bare) > width:  # even the equipment does not fit: on a line of its own where it does not
            return _equipment_under(obs, names, lang, header, width, parts if lines or recovered_line else None,
                                    mine_above, lines)
        if rest >= need or (one_row and rest >= 3):  # the recovered cards get what is left of the line
            return _players(obs, names, lang, True, header, 6, rest, one_row=one_row)  # (cut between cards, or wrapped)
        # else on a line under the table (squeezed most: not shown): a column squeezed by
        # the table would cut the names and the counts (`gree…`, `…`)
        return Group(bare, Packed(parts)) if parts and (recovered_line or not one_row) else bare

    return AtWidth(fitted)


def _equipment_under(obs: Obs, names: Names, lang: str, header: bool, width: int,
                     recovered: list[Text] | None, mine_above: bool = False, lines: bool = True) -> RenderableType:
    """The compact players table on a terminal too narrow for a row with its equipment
    (40 columns, 6 seats): names cut at 6 cells, the equipment in its column for the
    seats whose equipment fits what the row leaves, and for each other seat on a line
    of its own under its row, under the identity column (broken between its parts
    when even that line is too short); the recovered cards on a line under the table
    (:func:`recovered_parts`; ``recovered=None``: in their rows, cut with ``…``, when
    a column of 3 cells is left, else not shown). Only a seat whose equipment does not fit gets a line: a
    face-down pair is said ``down`` (``暗``) when ``face-down`` does not fit; with
    ``mine_above`` the viewer's own equipment (shown above the table) gets none;
    ``lines=False``: no seat gets one, the equipment is cut with ``…`` in its row."""
    seats = [p.get("seat") for p in obs.get("players", [])]
    texts = {p.get("seat"): equipment_text(p.get("equipment"), lang, None, short=True, compact=True)
             for p in obs.get("players", [])}
    # what a row leaves for the equipment column (its padding: 2 cells)
    room = width - width_of(_players(obs, names, lang, True, header, 6, recovered=False, equipment=False)) - 2
    for p in obs.get("players", []):
        eq = p.get("equipment")
        if eq is not None and eq.get("mass") is None and cell_len(texts[p.get("seat")]) > room:
            texts[p.get("seat")] = t("face.down_short", lang)
    fits = {s for s in seats if cell_len(texts[s]) <= room}
    if not lines and room >= 2:  # squeezed most: what does not fit is cut
        texts = {s: x if s in fits else _kit_cut(x, room) for s, x in texts.items()}
        fits = set(seats)
    kit_of = {s: texts[s] for s in fits}
    titled = room >= cell_len(t("col.equipment", lang))  # the column's title whole, else none
    table = _players(obs, names, lang, True, header, 6, recovered=False, equipment=bool(fits), kit_of=kit_of,
                     titled=titled)
    if recovered is None:  # squeezed most: the recovered cards in what is left of the rows, if anything
        rest = width - width_of(table) - 2
        if rest >= 3:
            table = _players(obs, names, lang, True, header, 6, rest, equipment=bool(fits), kit_of=kit_of,
                             one_row=True, titled=titled)
        recovered = []
    labels = [cell_len(_seat_cell(obs, names, lang, s, 6)) for s in seats]
    indent = max([*labels, cell_len(t("col.seat", lang)) if header else 0]) + 2
    me = obs.get("seat")
    notes = {k: s for k, s in enumerate(seats) if s not in fits and not (mine_above and s == me)}
    out = _RowNotes(table, {k: _note(texts[s], indent, width, _row_style(obs, s)) for k, s in notes.items()},
                    header)
    return Group(out, Packed(recovered)) if recovered else out


def _kit_cut(text: str, room: int) -> str:
    """An equipment cut to ``room`` cells between its parts (``Q♠+3♣ …``), else after
    its first card (``10♣+…``): a card or a number is never cut."""
    cut = cut_between(text.split(" · "), " · ", room)
    if cut != "…":
        return cut
    mass = text.split(" · ")[0].split("+")[0]
    return mass + "+…" if cell_len(mass) + 2 <= room else "…"


def _note(text: str, indent: int, width: int, style: str) -> Text:
    """An equipment's line under its row: ``indent`` spaces, then its parts, broken
    between them (under the same indent) when the line is too short."""
    if indent + cell_len(text) > width:
        indent = min(indent, 2)
    from .layout import pack_items

    body = pack_items([Text(part) for part in text.split(" · ")], " · ", max(1, width - indent))
    lines = [Text(" " * indent) + line for line in body.split("\n")]
    out = Text("\n").join(lines)
    out.stylize(style)
    return out


class _RowNotes:
    """A table with a line under some of its rows (``notes``: row index → ``Text``;
    ``header``: the table shows its titles, one line). Every cell of the table is one
    line (no_wrap), so row ``k`` is rendered line ``k`` (``k + 1`` under titles); else
    the notes follow the table."""

    def __init__(self, table: Table, notes: dict[int, Text], header: bool) -> None:
        self.table, self.notes, self.header = table, notes, header

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.segment import Segment

        lines = console.render_lines(self.table, options, pad=False)
        top = 1 if self.header else 0
        if len(lines) != top + self.table.row_count:  # (never: every cell is one line) the notes after it
            yield self.table
            yield from self.notes.values()
            return
        for k, line in enumerate(lines):
            yield from line
            yield Segment.line()
            if k - top in self.notes:
                yield self.notes[k - top]


def _row_style(obs: Obs, s: int | None) -> str:
    return "bold cyan" if s == obs.get("seat") else ("bold" if s == obs.get("to_move") else "")


def _seat_cell(obs: Obs, names: Names, lang: str, s: int | None, cap: int) -> str:
    """A compact row's seat cell: ``▶ 2 Bartho…`` (the mark, the number, the name cut at
    ``cap`` cells; ``you`` for the viewer)."""
    name = _names_at(obs, names, lang, cap).get(s, "")
    return ("▶ " if s == obs.get("to_move") else "  ") + f"{s} {name}".rstrip()


def _names_at(obs: Obs, names: Names, lang: str, cap: int) -> dict[int | None, str]:
    """Every seat's name as its row shows it, within ``cap`` cells and told apart
    (:func:`~.layout.cap_names`; ``you`` for the viewer, never cut)."""
    me = obs.get("seat")
    shown = {p.get("seat"): t("you", lang) if p.get("seat") == me else display_name(name_of(names, p.get("seat")) or "", lang)
             for p in obs.get("players", [])}
    return cap_names(shown, max(cap, cell_len(t("you", lang))) if me is not None else cap)


def recovered_parts(obs: Obs, lang: str = "en") -> list[Text]:
    """Every seat's recovered cards, one part a seat, for the line under a players
    table too narrow for their column: ``Recovered: seat 0 A♠ 6♠``, ``seat 3 K♠``
    (``回收的牌：0号位 A♠ 6♠``); [] when nobody has any."""
    parts = [Text(t("seat", lang, n=p.get("seat")) + " " + cards_text(p["recovered"], lang, " "))
             for p in obs.get("players", []) if p.get("recovered")]
    if parts:
        parts[0] = Text(t("col.recovered", lang) + t("colon", lang), style="dim") + parts[0]
    return parts


def in_play(player: Any) -> int:
    """How many of a ``players`` entry's cards left are in play: cards it played into a
    contest that waits for the answer, which still count as its own (specs/rules.md § 8)
    — its ``cards_left`` beyond its hand and equipment (2 cards); 0 when a count is
    missing or not a number."""
    left, hand = player.get("cards_left"), player.get("hand_count")
    if not isinstance(left, int) or not isinstance(hand, int) or isinstance(left, bool):
        return 0
    return max(0, left - hand - (2 if player.get("equipment") else 0))


def left_cell(player: Any, marked: bool) -> str:
    """The players table's "Left" cell (specs/client.md § Players table): the cards left
    that rank the player (hand + equipment + cards in play, specs/rules.md § 8), with a
    ``⚔`` when some of them are in play (``1⚔``: its last card waits for the answer; the
    status line shows it after its ``⚔``); when any row is ``marked`` so, the other cells
    end in a space so that the numbers stay in line."""
    text = printable(player.get("cards_left", ""))
    if in_play(player):
        return text + "⚔"
    return text + " " if marked else text


def _players(obs: Obs, names: Names, lang: str, compact: bool, header: bool, cap: int,
             recovered_width: int | None = None, recovered: bool = True, one_row: bool = False,
             equipment: bool = True, kit_of: Mapping[int | None, str] | None = None, titled: bool = True) -> Table:
    """The players table with names cut at ``cap`` cells; compact, the recovered cards
    at most ``recovered_width`` cells (``one_row``: cut with …, else wrapped), or left
    out (``recovered=False``); the equipment column left out (``equipment=False``), or
    given as ``kit_of`` says for the seats in it (None: every seat as usual; the others'
    cells empty), without its title (``titled=False``: too narrow for it)."""
    me = obs.get("seat")
    if compact:
        table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="dim",
                      show_header=header)
    else:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
    # the identity, hand and cards-left columns never give way (their titles and values
    # whole); when the row is too wide the equipment and recovered cards are cut with …
    idents = [identity_text(p.get("identity"), p.get("identity_value"), lang, short=compact)
              for p in obs.get("players", [])]
    titles = (t("col.identity", lang), t("col.hand", lang), t("col.left_short" if compact else "col.left", lang))
    shown = [cell_len(title) if header else 1 for title in titles]  # titles count only when shown
    table.add_column(t("col.seat", lang), no_wrap=True)
    table.add_column(titles[0], no_wrap=True, min_width=max([shown[0], *map(cell_len, idents)]))
    table.add_column(titles[1], justify="right", no_wrap=True, min_width=shown[1])
    # "Left": while a seat has a card in play its cell ends in ⚔ and the others in a space,
    # padded here to one width (rich drops a right-justified cell's trailing space)
    marked = any(in_play(p) for p in obs.get("players", []))
    lefts = [left_cell(p, marked) for p in obs.get("players", [])]
    left_w = max([shown[2], *map(cell_len, lefts)])
    lefts = [" " * (left_w - cell_len(x)) + x for x in lefts] if marked else lefts
    table.add_column(titles[2], justify="left" if marked else "right", no_wrap=True, min_width=shown[2])
    if compact:
        if equipment:
            table.add_column(t("col.equipment", lang) if titled else "", no_wrap=True, overflow="ellipsis")
        if recovered:
            table.add_column(t("col.recovered", lang), min_width=None if recovered_width else 8,
                             max_width=recovered_width, no_wrap=one_row, overflow="ellipsis" if one_row else "fold")
    else:
        table.add_column(t("col.recovered", lang))
        table.add_column(t("col.equipment", lang))
    wide = None if compact or names is None else {
        s: n for s, n in cap_names({p.get("seat"): display_name(name_of(names, p.get("seat")) or "", lang)
                                    for p in obs.get("players", [])}, WIDE_NAME).items() if n}
    for p, ident, left in zip(obs.get("players", []), idents, lefts):
        s = p.get("seat")
        if compact:  # the column says "seat": the number and the name (cut short) are enough
            label = _seat_cell(obs, names, lang, s, cap)
        else:  # names cut short at WIDE_NAME cells, told apart (layout.cap_names)
            label = ("▶ " if s == obs.get("to_move") else "  ") + seat_label(s, wide, me, lang)
        if s == obs.get("leader") and not compact:
            label += " · " + t("mark.leader", lang)
        rearm = rearm_state(obs, p) if s == me and not compact else None
        style = _row_style(obs, s)
        got = p.get("recovered") or []  # (not `recovered`: that flag says whether the column is shown)
        rec = cards_text(got, lang, " " if compact else " + ") if got else "—"
        if got and compact and one_row and recovered_width:  # cut between whole cards, never a card (`6…`)
            rec = cut_between([card_text(c, lang) for c in got], " ", recovered_width)
        kit = equipment_text(p.get("equipment"), lang, rearm, short=True, compact=compact)
        # every cell a Text: what the host sent is never read as rich markup
        cells = [Text(printable(p.get("hand_count", 0))), Text(left)]
        if compact:
            eq = [Text(kit if kit_of is None else kit_of.get(s, ""))] if equipment else []
            table.add_row(Text(label, style=style), Text(ident), *cells, *eq,
                          *([Text(rec)] if recovered and got else []))
        else:
            table.add_row(Text(label, style=style), Text(ident), *cells, Text(rec), Text(kit))
    return table

_LOG_STYLE = {"contest": "yellow", "discard": "yellow", "round": "bold", "end": "bold green"}


def _log_text(events: Sequence[Mapping[str, Any]], me: int | None, names: Names, lang: str,
              short: bool = False) -> RenderableType:
    lines = []
    for e in events:
        line = describe_event(e, names, me, lang, short)
        if line:
            lines.append((line, involves(e, me), _LOG_STYLE.get(e.get("kind"), "")))
    if not lines:
        return Text(t("log.empty", lang), style="dim")
    rows = [Text(MINE_MARK + line if mine else line, style="bold cyan" if mine else style)
            for line, mine, style in lines]
    # every outcome whole with its formula, wrapped at word boundaries (Chinese between
    # characters), never cut: a screen short of rows shows fewer, older ones go first
    return Wrapped(Text("\n").join(rows), lang=lang, keep=shown_names(names, lang))


#: How few outcome lines a fitted screen keeps (the newest; more when there is room).
LOG_MIN = 3


def render_log(obs: Obs, names: Names = None, lang: str = "en", limit: int = LOG_LIMIT,
               events: Sequence[Mapping[str, Any]] | None = None, compact: bool = False,
               minimum: int = 4) -> RenderableType:
    """The outcomes since the viewer's last move (at most ``limit``; contest formulas
    highlighted, the viewer's own outcomes marked ``»``), oldest first. ``events``: the
    seat's event history (default: the observation's log tail).

    ``compact``: no border; the count of earlier lines not shown goes into the title
    (``Since your last turn · 2 earlier lines: /log``). Each outcome is whole, wrapped
    to the width (never cut with ``…``); seats always keep their names: an event reads
    the same on every screen and in ``/log``."""
    me = obs.get("seat")
    source = list(events if events else (obs.get("log") or []))
    pending = obs.get("pending")
    if pending and source and source[-1].get("kind") == "play" and source[-1].get("actor") == pending.get("actor"):
        source.pop()  # the play waiting for its answer is shown as the pending contest
    shown, since, hidden = recent_window(source, me, limit, minimum)
    body = _log_text(shown, me, names, lang, short=compact)
    title = t("log.since" if since else "log.title", lang)
    if compact:
        head = Text(title, style="yellow")
        if hidden:
            head.append(" · " + tn("log.more", hidden, lang), style="dim")
        return Group(head, body)
    if hidden:
        body = Group(Text(tn("log.hidden", hidden, lang), style="dim"), body)
    return Panel(body, title=title, title_align="left", border_style="yellow")


def timer_text(seconds_left: float | None, lang: str = "en") -> Text | None:
    """``⏱ 23 s left`` (red under 10 s, ``time is up`` at 0); None without a timer."""
    if seconds_left is None:
        return None
    if seconds_left <= 0:
        return Text(t("timer.up", lang), style="bold red")
    secs = int(seconds_left + 0.999)
    return Text(t("timer.left", lang, s=secs), style="bold red" if secs < 10 else "bold")

def render_result(obs: Obs, names: Names = None, lang: str = "en", compact: bool = False,
                  counts: bool = True) -> RenderableType | None:
    """Final ranking panel once the game is over; None before. ``counts=False``: each
    place names the seat and its cards left only (``1. seat 4 (Bob): 0 cards left``), for
    a squeezed screen whose players table gives the cards recovered; compact, the places
    then follow each other on a line (``1. seat 4 (Bob): 0 cards left · 2. seat 0 (you):
    3 cards left · …``), a spectator's as a seat's."""
    result = obs.get("result")
    if not result:
        return None
    me = obs.get("seat")
    players = {p.get("seat"): p for p in obs.get("players", [])}
    text = Text()
    heads = [t("status.over", lang), t("result.title", lang)]
    won = game_win_text(result.get("ranking"), result.get("winner"), lambda s: seat_label(s, names, me, lang), lang)
    if won is not None:  # one rule on every screen: the first of the ranking (specs/rules.md § 8)
        if compact:  # one line: game over, who won
            heads[1] = won
        else:
            text.append(won + "\n", style="bold green")
    title = " · ".join(heads)
    head = Text(title, style="bold green")  # wrapped at its spaces: fewer lines than broken between its parts
    left = {s: p.get("cards_left", "?") for s, p in players.items()}
    if counts:
        rows = ranking_rows(result.get("ranking") or [], names, me, lang, left,
                            {s: len(p.get("recovered") or []) for s, p in players.items()})
    else:  # the cards left (the ranking's measure) stay; the players table has the recovered ones
        rows = [t("result.row_left", lang, place=k, who=seat_label(s, names, me, lang), left=tn("cards_left", left[s], lang))
                if isinstance(left.get(s), int) else t("result.row_plain", lang, place=k, who=seat_label(s, names, me, lang))
                for k, s in enumerate(result.get("ranking") or [], 1)]
    if compact and not counts:  # squeezed: the places on as few lines as they fit, broken between places
        return Group(head, Packed([Text(row) for row in rows]))
    text.append("\n".join(rows))
    if compact:
        return Group(head, text)
    return Panel(text, title=title, title_align="left", border_style="green")
