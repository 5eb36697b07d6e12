"""Which notices a table screen shows: one line per subject, the newest news of it in
the place of the older (specs/client.md § What the player sees, notices).

A notice about someone's presence at the table — ``Bob (seat 1) disconnected; a bot
plays for them until they reconnect`` — is a state, not an event: when Bob comes back
(``Bob is back in seat 1``) or a bot takes his seat (``greedy bot 2 takes seat 1 of
Bob for the next game``), the old line is no longer true and must not stay on screen.
So notices are keyed by their **subject** (:func:`subject`): the person in a seat
(the host's ``player-joined``, ``player-left``, ``player-back``, ``bot-seated``,
``blind-wait``, whose args name the seat and the person), or this client's own
connection to the host (its notes ``connection-stalled``, ``connection-back``,
``reconnecting``, ``reconnected``). A newer notice of a subject replaces the older one
**in its slot** (the line changes where it is); the other notices are events and
each keeps its own line.

The session keeps every notice as it came (``ClientView.notices``: the plain
printers print each one as a line, and :func:`~.status_words.wait_left` reads them);
only what a screen shows is kept this way. Pure: no rich, no IO.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: Host notices about a seated person's presence (args ``seat`` and ``name``,
#: jupai_net.messages.notices): the newest about the same person in the same seat stands.
SEAT_CODES = frozenset({"player-joined", "player-left", "player-back", "bot-seated", "blind-wait"})

#: This client's own notes about its connection to the host (client/session.py).
CONNECTION_CODES = frozenset({"connection-stalled", "connection-back", "reconnecting", "reconnected"})


def subject(notice: Any) -> tuple[Any, ...] | None:
    """What ``notice`` (an object with ``code`` and ``args``, e.g. a
    :class:`~.session.NoticeLine`) is the news of: ``("seat", seat, name)`` for a
    person's presence in a seat (:data:`SEAT_CODES`, when its args name a seat number
    and a name), ``("host",)`` for this client's connection (:data:`CONNECTION_CODES`);
    None for an event (a time-out, a refusal, a chat throttle …), which no later
    notice makes untrue."""
    code = getattr(notice, "code", None)
    if code in CONNECTION_CODES:
        return ("host",)
    if code not in SEAT_CODES:
        return None
    args = getattr(notice, "args", None)
    if not isinstance(args, Mapping):
        return None
    seat, name = args.get("seat"), args.get("name")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(name, str):
        return None
    return ("seat", seat, name)


def current(notices: Sequence[Any]) -> list[tuple[int, Any]]:
    """``notices`` (oldest first, as they came) with each subject's older notices
    replaced by its newest, in the slot of the first: a list of ``(arrival, notice)``
    in slot order, ``arrival`` the notice's index in ``notices`` (how new it is)."""
    slots: list[tuple[int, Any]] = []
    where: dict[tuple[Any, ...], int] = {}
    for k, notice in enumerate(notices):
        key = subject(notice)
        if key is not None and key in where:
            slots[where[key]] = (k, notice)
            continue
        if key is not None:
            where[key] = len(slots)
        slots.append((k, notice))
    return slots


def shown(notices: Sequence[Any], keep: int = 3) -> list[Any]:
    """The ``keep`` notices a screen shows: of :func:`current`'s, the ``keep`` that came
    last (a subject's line is as new as its newest notice), in slot order. ``keep`` ≤ 0:
    none."""
    if keep <= 0:
        return []
    slots = current(notices)
    newest = sorted(sorted(range(len(slots)), key=lambda s: slots[s][0])[-keep:])
    return [slots[s][1] for s in newest]


__all__ = ["CONNECTION_CODES", "SEAT_CODES", "current", "shown", "subject"]
