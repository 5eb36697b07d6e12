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

from .card_words import Names, Obs, cards_text, weapon_text
from .event_words import LOG_LIMIT, merged_events
from .i18n import t
from .layout import COMPACT_WIDTH, AtWidth, height_of, lines_panel
from .screen_moves import MOVE_LAYOUTS, render_actions
from .screen_parts import render_header, render_log, render_players, render_result, render_self, timer_text
from .status_words import ChatLine, chat_line_text, notice_text, pending_text, status_text
from .total_words import action_fields, pending_total_text


def render_view(obs: Obs, *, legal: Sequence[Action | Mapping[str, Any]] = (), chat: Sequence[ChatLine] = (),
                notices: Sequence[Any] = (), seconds_left: float | None = None, names: Names = None,
                lang: str = "en", log_limit: int = LOG_LIMIT, chat_limit: int = 4,
                events: Sequence[Mapping[str, Any]] | None = None, width: int | None = None,
                height: int | None = None, compact: bool | None = None) -> RenderableType:
    """The whole screen of a seat (or of a spectator when ``obs["seat"]`` is None):
    header (round, round card and type, R), own identity/hand/equipment, the players
    table, the outcomes since the seat's last move with formulas, the final ranking once
    over, the pending contest and whose turn it is with the turn timer, the numbered
    legal actions with their totals, notices and chat.

    ``events``: the seat's event history (default: the observation's log tail).
    ``width``/``height``: the terminal's size. Below :data:`COMPACT_WIDTH` columns (or
    with ``compact``) the screen is compact; with a ``height`` the moves are laid out
    and the outcomes trimmed (the seat's own kept first) so that the screen fits in
    ``height`` lines, keeping the header, the hand and the players table."""
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

    head: list[RenderableType] = []
    if compact:
        head.append(render_header(obs, names, lang, compact=True))
    else:
        title = t("app.title", lang) + (" · " + t("header.spectator", lang) if spectator else "")
        head.append(Panel(render_header(obs, names, lang), title=title, title_align="left", border_style="bold"))
    if not spectator and not (over and compact):  # once over the ranking says what is left
        head.append(render_self(obs, lang, compact))
    head.append(render_players(obs, names, lang, compact))

    tail: list[RenderableType] = []
    result = render_result(obs, names, lang, compact)
    if result is not None:
        tail.append(result)
    pend = pending_text(obs, names, lang)
    my_turn = not spectator and result is None and obs.get("to_move") == me
    status = Text(status_text(obs, names, lang), style="bold reverse" if my_turn else "bold")
    pending = obs.get("pending")
    if pend and compact and my_turn and pending:  # one line: what to answer, and with what it came
        status.append(" ⚔ " + cards_text(pending.get("cards", []), lang) + weapon_text(pending.get("weapon", False), lang)
                      + pending_total_text(obs, lang, short=True), style="bold red")
    elif pend and pending:
        tail.append(Text("⚔ " + pend, style="bold red"))
    elif pend:  # supply (a) under way
        tail.append(Text(pend, style="bold green"))
    timer = timer_text(seconds_left, lang)
    if timer is not None:
        status.append("   ")
        status.append_text(timer)
    if result is None:  # once over, the result's title says "Game over"
        tail.append(status)

    extras: list[RenderableType] = []
    if notices:
        extras.append(lines_panel([notice_text(n, lang) for n in notices][-chat_limit:], t("notices.title", lang),
                                   "blue", compact))
    if chat:
        extras.append(lines_panel([chat_line_text(c, lang, me) for c in chat][-chat_limit:], t("chat.title", lang),
                                   "magenta", compact))

    def log_part(limit: int) -> RenderableType:
        return render_log(obs, names, lang, limit, source, compact, minimum)

    layouts: Sequence[str | None] = [None]
    if legal and height is not None and width is not None:
        layouts = ["lines", "grouped", "matrix", "tight"] if compact else list(MOVE_LAYOUTS)
    elif legal and compact:
        layouts = ["matrix"] if len(legal) > 8 else ["lines"]
    moves: RenderableType | None = None
    if legal:
        moves = render_actions(legal, obs, names, lang, layouts[0], compact)
    if height is None or width is None:
        parts = [*head, log_part(log_limit), *tail]
        if moves is not None:
            parts.append(moves)
        return Group(*parts, *extras)

    # fit the screen into `height` lines: the first move layout that leaves room for a
    # few outcome lines, then as many outcomes (and chat) as fit
    fixed = sum(height_of(r, width) for r in head + tail)
    min_log = 3 if compact else 5
    if moves is not None:
        best: tuple[int, RenderableType] | None = None
        for layout in layouts:
            candidate = render_actions(legal, obs, names, lang, layout, compact)
            h = height_of(candidate, width)
            if fixed + h + min_log <= height:
                best = (h, candidate)
                break
            if best is None or h < best[0]:
                best = (h, candidate)
        assert best is not None
        fixed += best[0]
        moves = best[1]
        if fixed > height and compact:  # last resort: the line of special numbers and pile counts goes
            short_header = render_header(obs, names, lang, compact=True, numbers=False)
            fixed -= height_of(head[0], width) - height_of(short_header, width)
            head[0] = short_header
    room = height - fixed
    kept_extras = []
    for extra in reversed(extras):  # chat first, then notices, if there is room beyond the outcomes' minimum
        h = height_of(extra, width)
        if room - h >= min_log:
            kept_extras.insert(0, extra)
            room -= h
    parts = [*head]
    for limit in range(log_limit, 0, -1):
        log = log_part(limit)
        if height_of(log, width) <= room:
            parts.append(log)
            break
    parts.extend(tail)
    if moves is not None:
        parts.append(moves)
    return Group(*parts, *kept_extras)


def render_table(obs: Obs, *, names: Names = None, chat: Sequence[ChatLine] = (), notices: Sequence[Any] = (),
                 seconds_left: float | None = None, lang: str = "en", log_limit: int = 8,
                 width: int | None = None, height: int | None = None) -> RenderableType:
    """The spectator view of the table for the host screen, from ``observation(None)``:
    everything public (round, every player's counts, visible identities and equipment,
    last outcomes with formulas, result), no hand, no legal actions."""
    spectator = dict(obs)
    spectator["seat"] = None
    spectator["hand"] = []
    if width is None:  # laid out when printed, for the console's width (compact below COMPACT_WIDTH)
        return AtWidth(lambda w: render_view(spectator, chat=chat, notices=notices, seconds_left=seconds_left,
                                              names=names, lang=lang, log_limit=log_limit, width=w,
                                              height=height if height is not None else None,
                                              compact=w < COMPACT_WIDTH))
    return render_view(spectator, chat=chat, notices=notices, seconds_left=seconds_left, names=names, lang=lang,
                       log_limit=log_limit, width=width, height=height)
