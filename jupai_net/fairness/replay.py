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


def due_reveals(state: Any, viewer: int | None, shown: Iterable[int]) -> tuple[list[int], list[int]]:
    """Cards newly due to ``viewer`` (a seat, or ``None`` for spectators) after the last
    change of ``state``: ``(private, public)``, two lists of card ids.

    ``public`` = cards in ``state.known_cards(None)`` not yet in ``shown``; ``private`` =
    cards in ``state.known_cards(viewer)`` neither public nor in ``shown``. ``shown`` is
    every card id already revealed to ``viewer``. Lists are in no particular order; the
    caller sorts them by deck position.
    """
    shown = set(shown)
    public_now = frozenset(state.known_cards(None))
    mine = frozenset(state.known_cards(viewer)) if viewer is not None else frozenset()
    public = [c for c in public_now if c not in shown]
    private = [c for c in mine if c not in shown and c not in public_now]
    return private, public


def reveal_positions(cards: Iterable[int], position_of: Mapping[int, int]) -> list[int]:
    """Deck positions of ``cards``, sorted increasing."""
    return sorted(position_of[c] for c in cards)
