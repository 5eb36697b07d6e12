"""Which deck positions open to whom, from public information only (specs/fairness.md
B.7): the part of a blind table's schedule that follows from the deal layout.

Pure. Positions follow the layout of :mod:`jupai_net.setup` (design/rules.md §3).
"""

from __future__ import annotations

from ..rules import RuleSet
from ..setup import hand_positions, round_pile_positions

def deal_openings(rules: RuleSet) -> list[tuple[int, int | None]]:
    """The openings due right after the deal, in this order: for each seat s = 0 … P−1
    its mass (position 2s), its weapon (2s+1) and its hand cards
    (:func:`jupai_net.setup.hand_positions`), opened to s; then the first card of the
    round pile, flipped for round 1, opened to everyone. Exactly what the engine shows
    each seat at the start (``GameState.known_cards``)."""
    out: list[tuple[int, int | None]] = []
    for s in range(rules.players):
        out += [(2 * s, s), (2 * s + 1, s)] + [(p, s) for p in hand_positions(rules, s)]
    out.append((round_pile_positions(rules)[0], None))
    return out
