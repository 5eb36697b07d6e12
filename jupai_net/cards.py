"""Cards of the 剧牌 play deck (design/rules.md §1).

A card is an ``int`` id in ``0..52``: ids ``0..51`` are the 52 ranked cards,
``rank = id // 4 + 1`` (A=1 … K=13) and ``suit = id % 4`` (suits have no effect on
play); id ``52`` is the small joker, rank 14. The canonical deck order is
``range(53)``; a shuffled deck is a permutation of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

DECK_SIZE = 53
SMALL_JOKER = 52
CANONICAL_DECK: tuple[int, ...] = tuple(range(DECK_SIZE))
SUITS = ("♠", "♥", "♣", "♦")
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "JK"}
PRIMES = frozenset({2, 3, 5, 7, 11, 13})

_RANKS: tuple[int, ...] = tuple(i // 4 + 1 for i in range(52)) + (14,)
#: rank of every card id, ``RANKS[card]`` (no range check: for ids known to be valid)
RANKS = _RANKS


def rank(card: int) -> int:
    """Rank 1..14 of card id ``card`` (0..52). Raises ``ValueError`` for other ids."""
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"card id {card!r} is not in 0..{DECK_SIZE - 1}")
    return _RANKS[card]


def ranks(cards: Iterable[int]) -> list[int]:
    """Ranks of several card ids, in order."""
    return [_RANKS[c] for c in cards]


def is_prime(r: int) -> bool:
    """True for the prime ranks 2, 3, 5, 7, 11, 13 (1 and 14 are not prime)."""
    return r in PRIMES


def card_name(card: int) -> str:
    """Short display name, e.g. ``'10♥'``, ``'K♠'``, ``'JK'`` for the small joker."""
    r = rank(card)
    if card == SMALL_JOKER:
        return "JK"
    return f"{RANK_NAMES.get(r, str(r))}{SUITS[card % 4]}"


_DECK_SET = frozenset(CANONICAL_DECK)


def check_deck(deck: Sequence[int]) -> None:
    """Raise ``ValueError`` unless ``deck`` is a permutation of ``0..52`` (53 items
    whose set is ``0..52``: a set, not a sort, as every game is dealt through here)."""
    if len(deck) != DECK_SIZE or set(deck) != _DECK_SET:
        raise ValueError(f"deck must be a permutation of the {DECK_SIZE} card ids 0..{DECK_SIZE - 1}")
