"""Helpers to build exact deals for rules tests: place chosen cards at the deck
positions of jupai_net.setup's layout and fill the rest in canonical order."""

from __future__ import annotations

import random

from jupai_net.actions import Action
from jupai_net.cards import DECK_SIZE
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet
from jupai_net.setup import Setup, hand_positions, round_pile_positions, stock_start


def card(r: int, suit: int = 0) -> int:
    """Card id of rank ``r`` (1..14) and suit 0..3 (rank 14 = the small joker)."""
    return 52 if r == 14 else (r - 1) * 4 + suit


class Cards:
    """Hands out distinct card ids by rank: ``cards(10)`` gives the next unused 10."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, r: int) -> int:
        for suit in range(4 if r != 14 else 1):
            c = card(r, suit)
            if c not in self.used:
                self.used.add(c)
                return c
        raise ValueError(f"no rank {r} card left")


def deal(rules: RuleSet, setup: Setup, *, hands: dict[int, list[int]] | None = None,
         equipment: dict[int, tuple[int, int]] | None = None, rounds: list[int] | None = None,
         stock: list[int] | None = None) -> GameState:
    """A new game whose deck places the given card ids; unspecified places get the
    lowest unused ids. Hands shorter than hand_size are topped up from the fill."""
    deck: list[int | None] = [None] * DECK_SIZE
    for s, (m, w) in (equipment or {}).items():
        deck[2 * s], deck[2 * s + 1] = m, w
    for s, hand in (hands or {}).items():
        for pos, c in zip(hand_positions(rules, s), hand):
            deck[pos] = c
    for pos, c in zip(round_pile_positions(rules), rounds or []):
        deck[pos] = c
    for k, c in enumerate(stock or []):
        deck[stock_start(rules) + k] = c
    placed = [c for c in deck if c is not None]
    assert len(placed) == len(set(placed)), "a card is placed twice"
    fill = iter(c for c in range(DECK_SIZE) if c not in set(placed))
    full = [c if c is not None else next(fill) for c in deck]
    return GameState.new(rules, full, setup)


def setup_of(identities: str, coordinator: int = 6, farmer: int = 5, supply: int = 4, discard: int = 9) -> Setup:
    """A Setup with identities given in seat order."""
    return Setup(tuple(identities), coordinator, farmer, supply, discard)


def play_random(state: GameState, rng: random.Random, max_steps: int | None = None) -> list[Action]:
    """Apply random legal actions until the game is over (or ``max_steps``); returns them."""
    done = []
    while not state.is_over and (max_steps is None or len(done) < max_steps):
        action = rng.choice(state.legal_actions())
        state.apply(action)
        done.append(action)
    return done
