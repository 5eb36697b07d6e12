"""The whole table screen of a seat, or of a spectator (specs/client.md § What the
player sees): the sections of :mod:`.screen_parts` and the moves of
:mod:`.screen_moves`, fitted to the terminal's width and height."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from jupai_net.actions import Action
from jupai_net.printable import printable

from .card_words import Names, Obs, cards_text, shown_names, weapon_text
from .event_words import LOG_LIMIT, merged_events
from .i18n import t
from .layout import COMPACT_WIDTH, AtWidth, Wrapped, lines_of, lines_panel
from .screen_moves import MOVE_LAYOUTS, layout_floor, lines_fit, move_pages, move_units, render_actions
from .screen_parts import (
    LOG_MIN,
    render_header,
    render_log,
    render_players,
    render_result,
    render_self,
    timer_text,
)
from .status_words import ChatLine, answer_tiny, chat_line_text, notice_text, pending_text, status_text
from .total_words import action_fields, pending_total_text


#: How far the screen is squeezed to fit the height:
#: 0 everything; 1 without the line of numbers (special ranks, piles) and, compact,
#: the own title line (the players table's row gives the identity); 2 the header's
#: leader by seat number only (the outcomes keep every name: an event reads the
#: same on every screen, a player's and a spectator's); 3 no column titles over the
#: players; 4 (compact) one row per
#: player (names cut shorter when narrow), the own hand and equipment on one line,
#: the round card without its words, the status ("Your turn") on the moves' hint line,
#: the final ranking with the cards left only, its places on a line (the players table
#: gives the recovered cards); 5 as 4, without the scheme's name in the header; 6 as 5, the
#: outcomes naming seats by number only (``seat 1 attack 8♦: …``: the players table
#: right above names them). Outcomes are never cut: each is whole with its formula,
#: wrapped. :data:`LOG_MIN` of them are kept: at each level in turn every move, and
#: from level 4 on the moves in pages (:func:`~.screen_moves.move_pages`); only when
#: even level 6 with a page of one move has no room for them, fewer (the newest; at
#: least one), tried again in the same order; 7 as 6, on a terminal too narrow for a
#: players row with its equipment (40 columns), the lines under the rows that give the
#: equipment that does not fit go: it is cut with ``…`` in its row (tried after level 6
#: with pages, before fewer outcomes); 8 as 7, the line of recovered cards under the
#: players table goes too (they are cut with ``…`` in their rows when there is room);
#: 9 as 8, a page of the moves says that there are more in short on the hint's line
#: (``Your turn · 1–25 + Enter · Enter: more``) when the line naming the other moves'
#: numbers does not fit on it; 10 as 9, the own hand and equipment on one terminal
#: line: the equipment's parts that do not fit after the hand go (cut between parts;
#: the players table's own row shows it, cut to its cell); 11 as 10, the header in the
#: fewest words, the leader by seat number (``2/11 · J♥ defense · R = 2 · seat 5
#: leads``: one 40-column line), the last round's warning in short, the status of a
#: seat that must answer a contest too (``Defend vs seat 1 ⚔ 9♥: 2 + 9 = 11``), and the
#: moves name seats by number only (``play 4♠ against seat 0 (they defend)``). Levels
#: 9 to 11 (compact) come after level 8 with pages, before fewer outcomes.
SQUEEZE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)

#: The first level whose pages say "more" in short (:data:`SQUEEZE` 9), the first whose
#: own section is one line (10), the first with the fewest words in the header and the
#: status (11).
FOLD_LEVEL, SELF_LINE_LEVEL, TINY_LEVEL = 9, 10, 11

#: Notices the person must see when they come (the newest ones, until another notice
#: follows them): kept on the screen at the cost of outcomes (down to one), alone when
#: the other notices do not fit with them — a rejoin's ``welcome-back`` (the seat is
#: theirs again) and ``time-left`` (the turn kept its deadline) were dropped at 60 columns.
URGENT_NOTICES = frozenset({"welcome-back", "time-left"})


def render_view(obs: Obs, *, legal: Sequence[Action | Mapping[str, Any]] = (), chat: Sequence[ChatLine] = (),
                notices: Sequence[Any] = (), seconds_left: float | None = None, names: Names = None,
                lang: str = "en", log_limit: int = LOG_LIMIT, chat_limit: int = 4,
                events: Sequence[Mapping[str, Any]] | None = None, width: int | None = None,
                height: int | None = None, compact: bool | None = None, dealer: str | None = None,
                waiting: Sequence[int] = (), ends_in: float | None = None, table: str = "",
                moves_page: int = 0) -> RenderableType:
    """The whole screen of a seat (or of a spectator when ``obs["seat"]`` is None):
    header (round, round card and type, R), own identity/hand/equipment, the players
    table, the outcomes since the seat's last move with formulas, the final ranking once
    over, the pending contest and whose turn it is with the turn timer, the numbered
    legal actions with their totals, notices and chat.

    ``events``: the seat's event history (default: the observation's log tail).
    ``dealer``: the scheme dealing the game (``"blind"``/``"trusted"``), named in the
    header on every screen (:func:`~.screen_parts.render_header`); None: not named.
    ``waiting``: who a dealer-blind game waits for, a key for the cards being opened
    (``ClientView.waiting``), said on the status line instead of whose turn it is;
    ``ends_in``: the seconds before the game is abandoned unless the away seat it waits
    for comes back (:func:`~.status_words.wait_left`), said after it.
    ``table``: the table's name (``ClientView.table``), in the header's title after the
    program's name; ``""``: none.
    ``width``/``height``: the terminal's size. Below :data:`COMPACT_WIDTH` columns (or
    with ``compact``) the screen is compact; with a ``height`` the moves are laid out
    and the outcomes trimmed (the seat's own kept first) so that the screen fits in
    ``height`` lines, keeping the header, the hand and the players table and at least
    :data:`~.screen_parts.LOG_MIN` outcomes (specs/client.md § Fitting the screen).
    When even the most squeezed screen cannot hold every move with them, the moves
    are cut into pages (whole groups when possible, :func:`~.screen_moves.move_pages`)
    and page ``moves_page`` (modulo their count) is shown, with a line naming the other
    moves' numbers (every number stays playable; Enter turns the page,
    :class:`~.ui.TerminalPlayer`)."""
    if compact is None:
        compact = width is not None and width < COMPACT_WIDTH
    legal = [action_fields(a) for a in legal]
    spectator = obs.get("seat") is None
    me = obs.get("seat")
    source = events if events else (obs.get("log") or [])
    over = bool(obs.get("result"))
    minimum = 4
    if over:  # the result panel says who won; the log shows at least the last contest
        source = [e for e in source if e.get("kind") != "end"]
        merged = merged_events(source)
        contests = [k for k, e in enumerate(merged) if e.get("kind") == "contest"]
        if contests:
            minimum = max(minimum, len(merged) - contests[-1])

    built: dict[tuple[Any, ...], RenderableType] = {}  # a part the same at several levels is built once

    def once(key: tuple[Any, ...], build: Any) -> RenderableType:
        if key not in built:
            built[key] = build()
        return built[key]

    def head_at(level: int) -> list[RenderableType]:
        """The top of the screen at squeeze ``level`` (see :data:`SQUEEZE`)."""
        out: list[RenderableType] = []
        numbers = level < 1
        named = dealer if level < 5 else None
        if compact:  # squeezed, the leader by seat number only (the players table names it)
            leader = names if level < 2 else None
            out.append(once(("header", level < 2, numbers, level >= 4, named, level >= TINY_LEVEL),
                            lambda: render_header(obs, leader, lang, compact=True, numbers=numbers,
                                                  tight=level >= 4, dealer=named, tiny=level >= TINY_LEVEL)))
        else:
            # the table's name is a peer's text: a Text title, never parsed as markup
            title = Text(t("app.title", lang) + (" · " + printable(table) if table else "")
                         + (" · " + t("header.spectator", lang) if spectator else ""))
            out.append(once(("header", numbers, named),
                            lambda: Panel(render_header(obs, names, lang, numbers=numbers, dealer=named),
                                          title=title, title_align="left", border_style="bold")))
        mine_above = not spectator and not (over and compact)
        if mine_above:  # once over the ranking says what is left
            out.append(once(("self", level < 1, level >= 4, level >= SELF_LINE_LEVEL),
                            lambda: render_self(obs, lang, compact, title=level < 1, oneline=level >= 4,
                                                cut=level >= SELF_LINE_LEVEL)))
        out.append(once(("players", level < 3, level >= 4, level < 7, level < 8),
                        lambda: render_players(obs, names, lang, compact, header=level < 3, one_row=level >= 4,
                                               mine_above=mine_above, lines=level < 7, recovered_line=level < 8)))
        return out

    tail: list[RenderableType] = []
    result = render_result(obs, names, lang, compact)
    if result is not None:
        tail.append(result)
    pend = pending_text(obs, names, lang)
    my_turn = not spectator and result is None and obs.get("to_move") == me and not waiting
    status = Text(status_text(obs, names, lang, waiting, ends_in), style="bold reverse" if my_turn else "bold")
    pending = obs.get("pending")
    short_status: Text | None = None  # squeezed most (level 11): what to answer in the fewest words
    if pend and compact and my_turn and pending:  # one line: what to answer, and with what it came
        came = (" ⚔ " + cards_text(pending.get("cards", []), lang) + weapon_text(pending.get("weapon", False), lang)
                + pending_total_text(obs, lang, short=True))
        status.append(came, style="bold red")
        tiny = answer_tiny(obs, lang)
        if tiny is not None:
            short_status = Text(tiny, style="bold reverse")
            short_status.append(came, style="bold red")
    elif pend and pending:
        tail.append(Text("⚔ " + pend, style="bold red"))
    elif pend:  # supply (a) under way
        tail.append(Text(pend, style="bold green"))
    timer = timer_text(seconds_left, lang)
    if timer is not None:
        for said in (status, short_status):
            if said is not None:
                said.append("   ")
                said.append_text(timer)
    if result is None:  # once over, the result's title says "Game over"
        tail.append(status)
    # squeezed (level 4, compact, on a prompt) the status goes on the moves' hint line
    merge_status = compact and bool(legal) and result is None

    extras: list[RenderableType] = []
    # the newest notice, when it is one the person must see now (a rejoin's welcome
    # back), keeps its line even on a squeezed screen: alone when all of them do not fit
    urgent: list[RenderableType] = []
    if notices:
        extras.append(lines_panel([notice_text(n, lang) for n in notices][-chat_limit:], t("notices.title", lang),
                                   "blue", compact, lang))
        fresh = list(notices)[-chat_limit:]
        k = len(fresh)
        while k > 0 and getattr(fresh[k - 1], "code", None) in URGENT_NOTICES:
            k -= 1
        if k < len(fresh):  # the newest notices are urgent ones: they alone, if not all fit
            urgent = [extras[0], lines_panel([notice_text(n, lang) for n in fresh[k:]], t("notices.title", lang),
                                             "blue", compact, lang)]
    if chat:
        extras.append(lines_panel([chat_line_text(c, lang, me) for c in chat][-chat_limit:], t("chat.title", lang),
                                   "magenta", compact, lang))

    def log_part(limit: int, named: bool = True) -> RenderableType:
        return render_log(obs, names if named else None, lang, limit, source, compact, minimum)

    layouts: Sequence[str | None] = [None]
    if legal and height is not None and width is not None:
        layouts = ["lines", "grouped", "matrix", "tight"] if compact else list(MOVE_LAYOUTS)
        if compact and not lines_fit(legal, obs, names, lang, width):  # no move broken over two lines
            layouts.remove("lines")
    elif legal and compact:
        layouts = ["matrix"] if len(legal) > 8 else ["lines"]
    if height is None or width is None:
        parts = [*head_at(0), log_part(log_limit), *tail]
        if legal:
            parts.append(render_actions(legal, obs, names, lang, layouts[0], compact))
        return Group(*parts, *extras)

    # fit the screen into `height` lines with at least LOG_MIN outcomes: try the move
    # layouts (most spelled out first) with the full top, then without the line of
    # numbers and the own title; then squeeze the top and the players' titles. Outcomes
    # are whole (wrapped, never cut): when no level has room for LOG_MIN of them, the
    # least squeezed screen with room for fewer (the newest; at least one); the
    # scheme's name in the header goes last
    heads: dict[int, tuple[list[RenderableType], int]] = {}
    moves_at: dict[tuple[str | None, bool, bool], tuple[RenderableType | None, int]] = {}
    logs: dict[tuple[int, bool], tuple[RenderableType, int]] = {}

    def log_of(limit: int, level: int = 0) -> tuple[RenderableType, int]:  # the same words up to level 5
        key = (limit, level < 6)
        if key not in logs:
            part = log_part(limit, named=key[1])
            logs[key] = (part, lines_of(part, width))
        return logs[key]

    part_h: dict[int, int] = {}

    def h_of(part: RenderableType) -> int:  # the parts are kept in `built`: their ids stay theirs
        if id(part) not in part_h:
            part_h[id(part)] = lines_of(part, width)
        return part_h[id(part)]

    def head_of(level: int) -> tuple[list[RenderableType], int]:
        if level not in heads:
            parts = head_at(level)
            heads[level] = (parts, sum(h_of(r) for r in parts))
        return heads[level]

    def merged(level: int) -> bool:
        return merge_status and level >= 4

    # a moves key: (layout, the status on the hint's line, the fewest words, a page's
    # "more" folded into the hint[, the page]); squeezed most (level 11) the moves name
    # seats by number only (the players table right above names them), the status short
    def status_of(key: tuple[Any, ...]) -> Text | None:
        return (short_status if key[2] and short_status is not None else status) if key[1] else None

    def names_of(key: tuple[Any, ...]) -> Names:
        return None if key[2] else names

    def moves_of(layout: str | None, level: int = 0) -> tuple[RenderableType | None, int]:
        key = (layout, merged(level), level >= TINY_LEVEL)  # (every move: no page to fold)
        if key not in moves_at:
            r = (render_actions(legal, obs, names_of(key), lang, layout, compact, status=status_of(key))
                 if legal else None)
            moves_at[key] = (r, lines_of(r, width) if r is not None else 0)
        return moves_at[key]

    # squeezed (level 4, compact) the ranking gives places, names and cards left only:
    # the players table right above it gives each seat's recovered cards
    places = render_result(obs, names, lang, compact, counts=False) if result is not None and compact else None

    tails: dict[int, tuple[list[RenderableType], int]] = {}
    keep = shown_names(names, lang)

    def tail_of(level: int) -> tuple[list[RenderableType], int]:
        if level not in tails:
            parts = [places if places is not None and level >= 4 and r is result
                     else Wrapped(r, lang=lang, keep=keep) if isinstance(r, Text) else r  # the one rule (linebreak)
                     for r in tail if not (merged(level) and r is status)]
            tails[level] = (parts, sum(lines_of(r, width) for r in parts))
        return tails[level]

    floors: dict[str | None, int] = {}

    def floor_of(layout: str | None) -> int:
        if layout not in floors:
            floors[layout] = layout_floor(legal, obs, names, lang, layout, compact) if legal and layout else 0
        return floors[layout]

    page_h: dict[tuple[str, bool, bool, bool, int, int], int] = {}
    too_small: dict[tuple[str, bool, bool, bool], int] = {}  # the most room in which a layout's pages did not all fit
    units = move_units(legal, obs, names, lang) if legal else []
    page_layouts = [lay for lay in layouts if lay in ("matrix", "tight")] or list(layouts[-1:])
    # the last resort, on the most squeezed screen only: a move a line (wrapped when
    # long), whose page of one move is the smallest — never the whole list unpaged
    # past the terminal's last row
    last_layouts = page_layouts + (["lines"] if compact and "lines" not in page_layouts else [])

    def paged(level: int, need: int) -> tuple[RenderableType, int] | None:
        """Page ``moves_page`` of the moves cut into pages that each fit under the rest
        of the screen at ``level`` with ``need`` outcomes, in the layout that needs
        the fewest pages; None when a page of one move does not fit."""
        room = height - head_of(level)[1] - tail_of(level)[1] - log_of(need, level)[1]
        best: tuple[int, str, list[tuple[int, int]]] | None = None
        for layout in (last_layouts if level >= 8 else page_layouts):
            key = (layout, merged(level), level >= TINY_LEVEL, level >= FOLD_LEVEL)
            if room <= too_small.get(key, 0):  # a move alone did not fit with more room
                continue

            def fits(a: int, b: int) -> bool:
                if (*key, a, b) not in page_h:
                    r = render_actions(legal, obs, names_of(key), lang, layout, compact, status=status_of(key),
                                       shown=(a, b), fold=key[3])
                    page_h[(*key, a, b)] = lines_of(r, width)
                return page_h[(*key, a, b)] <= room

            if room <= 0 or not fits(1, 1):
                continue
            # a layout needing as many pages as the best so far cannot win (ties go to the
            # first): its pages are cut no further than that
            pages = move_pages(units, fits, best[0] if best is not None else None)
            if best is not None and len(pages) >= best[0]:
                continue
            if not all(fits(a, b) for a, b in pages):
                too_small[key] = max(room, too_small.get(key, 0))
            elif len(pages) > 1 and (best is None or len(pages) < best[0]):
                best = (len(pages), layout, pages)
        if best is None:
            return None
        _n, layout, pages = best
        shown = pages[moves_page % len(pages)]
        key = (layout, merged(level), level >= TINY_LEVEL, level >= FOLD_LEVEL)
        r = render_actions(legal, obs, names_of(key), lang, layout, compact, status=status_of(key), shown=shown,
                           fold=key[3])
        return r, page_h[(*key, *shown)]

    order = [(lv, lay) for lay in layouts for lv in (0, 1)] + [(lv, lay) for lv in SQUEEZE[2:6] for lay in layouts]
    # every move with LOG_MIN outcomes; else the moves in pages (the most squeezed
    # level that keeps the scheme's name); else without the scheme's name (the last
    # level), every move, then in pages; only then fewer outcomes, in the same order
    tries: list[tuple[int, int, str | None]] = []
    for need in range(LOG_MIN, 0, -1):
        tries += [(need, lv, lay) for lv, lay in order]
        for lv in SQUEEZE[4:]:
            if lv >= 7 and not compact:
                continue
            tries += [(need, lv, lay) for lay in layouts] if lv > 4 else []
            tries += [(need, lv, "pages")] if legal else []
    chosen = None
    page: tuple[RenderableType, int] | None = None
    for need, level, layout in tries:
        if layout == "pages":
            page = paged(level, need)
            if page is not None:
                chosen = (level, layout, need)
                break
        elif (head_of(level)[1] + tail_of(level)[1] + floor_of(layout) + log_of(need, level)[1] <= height
              and head_of(level)[1] + tail_of(level)[1] + moves_of(layout, level)[1] + log_of(need, level)[1]
              <= height):  # (a layout whose floor is too tall is not built)
            chosen = (level, layout, need)
            break
    if chosen is None:  # nothing fits: the most squeezed screen, the shortest move list, the newest outcome
        chosen = (SQUEEZE[-1], min(layouts, key=lambda lay: moves_of(lay, SQUEEZE[-1])[1]), 1)
    level, layout, need = chosen
    head, head_h = head_of(level)
    tail, tail_h = tail_of(level)
    moves, moves_h = page if layout == "pages" and page is not None else moves_of(layout, level)
    room = height - head_h - tail_h - moves_h
    kept_extras = []
    for extra in reversed(extras):  # chat first, then notices, if there is room beyond the outcomes' minimum
        h = lines_of(extra, width)
        if room - h >= log_of(need, level)[1]:
            kept_extras.insert(0, extra)
            room -= h
    if urgent and urgent[0] not in kept_extras:  # an urgent notice: at the cost of outcomes (one stays)
        for panel in urgent:
            h = lines_of(panel, width)
            if room - h >= log_of(1, level)[1]:
                kept_extras.insert(0, panel)
                room -= h
                need = 1
                break
    low, high = need, max(need, log_limit)  # with more room, more outcomes (up to log_limit)
    while low < high:  # the most that fit: a longer list is never shorter
        mid = (low + high + 1) // 2
        low, high = (mid, high) if log_of(mid, level)[1] <= room else (low, mid - 1)
    log = log_of(low, level)[0]
    parts = [*head, log, *tail]
    if moves is not None:
        parts.append(moves)
    return Group(*parts, *kept_extras)


def render_table(obs: Obs, *, names: Names = None, chat: Sequence[ChatLine] = (), notices: Sequence[Any] = (),
                 seconds_left: float | None = None, lang: str = "en", log_limit: int = 8,
                 width: int | None = None, height: int | None = None, dealer: str | None = None) -> RenderableType:
    """The spectator view of the table for the host screen, from ``observation(None)``:
    everything public (round, every player's counts, visible identities and equipment,
    last outcomes with formulas, result), no hand, no legal actions. ``dealer``
    (``"blind"``/``"trusted"``) names the dealing scheme in the header as every client
    screen does (``dealer-blind`` / ``trusted dealer``, ``庄家盲发`` / ``可信庄家``)."""
    spectator = dict(obs)
    spectator["seat"] = None
    spectator["hand"] = []
    if width is None:  # laid out when printed, for the console's width (compact below COMPACT_WIDTH)
        return AtWidth(lambda w: render_view(spectator, chat=chat, notices=notices, seconds_left=seconds_left,
                                              names=names, lang=lang, log_limit=log_limit, width=w,
                                              height=height if height is not None else None,
                                              compact=w < COMPACT_WIDTH, dealer=dealer))
    return render_view(spectator, chat=chat, notices=notices, seconds_left=seconds_left, names=names, lang=lang,
                       log_limit=log_limit, width=width, height=height, dealer=dealer)
