"""The bridge to the rules engine: which cards are due to a viewer (specs/fairness.md §5.4, §9).

The host side (:class:`~jupai_net.fairness.dealer.HostDealer`) and the verifier both
use :func:`due_reveals`, so "which positions must be opened to whom, and when" has one
definition. The engine is imported lazily (``jupai_net.engine``) and can be replaced
by any module with the same ``GameState`` / ``IllegalAction`` contract (tests).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any


def load_engine(engine: ModuleType | None = None) -> ModuleType:
    """``engine`` if given, else the module :mod:`jupai_net.engine`.
    Raises ``ImportError`` when the engine is not available."""
    return engine if engine is not None else importlib.import_module("jupai_net.engine")


def due_reveals(state: Any, viewer: int | None, shown: Iterable[int],
                public_now: set[int] | frozenset[int] | None = None) -> tuple[list[int], list[int]]:
    """Cards newly due to ``viewer`` (a seat, or ``None`` for spectators) after the last
    change of ``state``: ``(private, public)``, two lists of card ids.

    ``public`` = cards in ``state.known_cards(None)`` not yet in ``shown``; ``private`` =
    cards in ``state.known_cards(viewer)`` neither public nor in ``shown``. ``shown`` is
    every card id already revealed to ``viewer``. Lists are in no particular order; the
    caller sorts them by deck position. ``public_now``: ``state.known_cards(None)`` as a
    set when the caller already has it (the host asks for every viewer after each action).
    """
    if not isinstance(shown, (set, frozenset)):
        shown = set(shown)
    if public_now is None:
        public_now = _as_set(state.known_cards(None))
    public = list(public_now.difference(shown))  # set operations: this runs per viewer per action
    if viewer is None:
        return [], public
    return list(_as_set(state.known_cards(viewer)).difference(shown, public_now)), public


def _as_set(cards: Iterable[int]) -> set[int] | frozenset[int]:
    return cards if isinstance(cards, (set, frozenset)) else frozenset(cards)


def reveal_positions(cards: Iterable[int], position_of: Mapping[int, int]) -> list[int]:
    """Deck positions of ``cards``, sorted increasing."""
    return sorted(position_of[c] for c in cards)
