"""The client's rendering, one import for callers (specs/client.md § What the player
sees). The code lives in small modules with one job each:

Words (what to say; plain strings, no rich, no IO) — used by every screen, the
``--plain`` player, the host console and ``jupai replay``:

* :mod:`.card_words` — cards, seats and names, identities, round types, equipment;
* :mod:`.total_words` — what a move comes to (:func:`own_total`, :func:`pending_total`)
  with the engine's formulas, and its wording;
* :mod:`.move_words` — one legal move in words (:func:`describe_action`);
* :mod:`.event_words` — log events in words (:func:`describe_event`), "since your last
  turn" (:func:`recent_window`);
* :mod:`.status_words` — pending contest, whose turn, chat, notices, ranking rows;
* :mod:`.end_words` — how a game ended (:func:`game_end_lines`).

Layout (how to show it; rich renderables):

* :mod:`.layout` — width rules, styles, :func:`to_text`, :func:`height_of`;
* :mod:`.screen_parts` — header, hand, players table, outcomes, ranking, timer;
* :mod:`.screen_moves` — the numbered legal moves (:func:`render_actions`);
* :mod:`.screen` — the whole table screen (:func:`render_view`, :func:`render_table`);
* :mod:`.screen_lobby` — :func:`render_lobby`; :mod:`.screen_help` — :func:`render_help`.

This module re-exports their public names so ``from jupai_net.client.render import
render_view`` keeps working; new code may import from the modules directly.
"""

from __future__ import annotations

from .card_words import (
    ROUND_TYPES,
    Names,
    Obs,
    card_text,
    cards_text,
    display_name,
    equipment_text,
    identity_text,
    is_you,
    name_of,
    player_of,
    rearm_state,
    recovered_of,
    round_type_text,
    seat_label,
    weapon_text,
)
from .end_words import game_end_lines, shell_quote, verify_command
from .event_words import (
    LOG_LIMIT,
    MINE_MARK,
    acted,
    contest_text,
    describe_event,
    involves,
    log_lines,
    merged_events,
    recent_events,
    recent_window,
)
from .layout import COMPACT_NAME, COMPACT_WIDTH, TYPE_STYLE, AtWidth, height_of, lines_panel, to_text
from .move_words import describe_action, group_of, item_text, supply_follow, supplying
from .screen import render_table, render_view
from .screen_help import render_help
from .screen_lobby import render_lobby
from .screen_moves import MOVE_LAYOUTS, move_matrix, prompt_hint, render_actions
from .screen_parts import (
    render_hand,
    render_header,
    render_log,
    render_players,
    render_result,
    render_self,
    timer_text,
)
from .status_words import ChatLine, chat_line_text, notice_text, pending_text, ranking_rows, status_text
from .total_words import MoveTotal, action_fields, own_total, pending_total, pending_total_text, total_text

__all__ = [
    "ROUND_TYPES", "Names", "Obs", "card_text", "cards_text", "display_name", "equipment_text", "identity_text",
    "is_you", "name_of", "player_of", "rearm_state", "recovered_of", "round_type_text", "seat_label",
    "weapon_text", "game_end_lines", "shell_quote", "verify_command", "LOG_LIMIT", "MINE_MARK", "acted",
    "contest_text", "describe_event", "involves", "log_lines", "merged_events", "recent_events",
    "recent_window", "COMPACT_NAME", "COMPACT_WIDTH", "TYPE_STYLE", "AtWidth", "height_of", "lines_panel",
    "to_text", "describe_action", "group_of", "item_text", "supply_follow", "supplying", "render_table",
    "render_view", "render_help", "render_lobby", "MOVE_LAYOUTS", "move_matrix", "prompt_hint",
    "render_actions", "render_hand", "render_header", "render_log", "render_players", "render_result",
    "render_self", "timer_text", "ChatLine", "chat_line_text", "notice_text", "pending_text", "ranking_rows",
    "status_text", "MoveTotal", "action_fields", "own_total", "pending_total", "pending_total_text",
    "total_text",
]
