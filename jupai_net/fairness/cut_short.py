"""Turns cut short: time-outs a host announces before the turn's time was up, as one
seat's own clock measured them (specs/fairness.md §9.3). Pure: the clock readings
are passed in.

A seat's client counts each turn from when the prompt's bytes *arrived* (monotonic
clock) and gives the host a tolerance for the network delay of the prompt, the
client's own delay in reading it and clock granularity: :func:`tolerance_ms`. A
time-out heard ``after_ms`` after the prompt, where the prompt gave ``timeout_ms``,
was cut short when ``after_ms < timeout_ms - tolerance_ms(timeout_ms)``
(:func:`is_cut_short`). An honest host's time-out comes ``timeout_ms`` after it sent
the prompt, so the seat hears it about ``timeout_ms`` plus the time-out's delay minus
the prompt's delay after the prompt: never earlier than the prompt's one-way delay
(plus the client's delay in reading the prompt) before the end of the turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: The fixed part of the tolerance (ms): the prompt's network delay on a poor LAN or
#: Wi-Fi, the client's delay in reading it from the socket, timer granularity.
TOLERANCE_FIXED_MS = 1000
#: The part of the tolerance that grows with the turn (per cent of the turn's time):
#: clock rate differences and a client busy for a moment while the turn runs.
TOLERANCE_SHARE_PERCENT = 10


def tolerance_ms(timeout_ms: int) -> int:
    """The tolerance (ms) given to a host for a turn of ``timeout_ms`` (ms, ≥ 0):
    ``1000 + timeout_ms / 10`` (a 30 s turn: 4 s; a 5 s turn: 1.5 s)."""
    return TOLERANCE_FIXED_MS + timeout_ms * TOLERANCE_SHARE_PERCENT // 100


def is_cut_short(timeout_ms: int, after_ms: int) -> bool:
    """True when a time-out heard ``after_ms`` (ms) after a prompt that gave
    ``timeout_ms`` (ms) came before the turn's time was up, beyond the tolerance."""
    return after_ms < timeout_ms - tolerance_ms(timeout_ms)


def counted(entries: Iterable[tuple[int, int, int, int, int]], actors: Mapping[int, int],
            seat: int | None) -> list[dict[str, Any]]:
    """The entries of a transcript's ``cut_short`` list (``(step, timeout_ms,
    prompt_heard_ms, timeout_heard_ms, after_ms)``) that count as evidence: the step is
    a signed step of this ``seat`` (``actors``: step version → actor, from the signed
    statements) and its times say cut short (:func:`is_cut_short`); each step once, in
    step order. Returned as maps with those five keys (``details.cut_short``)."""
    if seat is None:
        return []
    out: dict[int, dict[str, Any]] = {}
    for step, timeout_ms, prompt_heard, timeout_heard, after_ms in entries:
        if actors.get(step) == seat and is_cut_short(timeout_ms, after_ms) and step not in out:
            out[step] = {"step": step, "timeout_ms": timeout_ms, "prompt_heard_ms": prompt_heard,
                         "timeout_heard_ms": timeout_heard, "after_ms": after_ms}
    return [out[k] for k in sorted(out)]


__all__ = ["TOLERANCE_FIXED_MS", "TOLERANCE_SHARE_PERCENT", "counted", "is_cut_short", "tolerance_ms"]
