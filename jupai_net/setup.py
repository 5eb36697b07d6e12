"""Setup of a game: identities, identity ranks, special numbers and the deck layout
(design/rules.md §1, §2, §3; specs/rules.md "Setup").

Every random choice of setup is drawn here from an ``rng`` passed in, which only
needs ``randrange(n) -> int`` uniform in ``0..n-1`` (``random.Random`` for
simulations, the fairness DRBG under its ``setup`` label for real games). The deck
order itself is passed to the engine as a permutation of ``0..52``.

Deck layout (positions of the shuffled deck, 0-based), fixed so every card's place
is known from the deck order alone:

* ``2s`` = mass and ``2s+1`` = weapon of seat ``s``'s first equipment, s = 0..P-1;
* then ``hand_size`` hand cards per seat, seat 0 first (``2P + s*hand_size + j``);
* then ``rounds`` cards of the round pile, top first;
* the rest is the stock, top first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .rules import COORDINATOR_RANKS, FARMER_RANKS, IDENTITY_NAMES, RuleSet


class RandRange(Protocol):
    """Anything with ``randrange(n)`` uniform on ``0..n-1`` (e.g. ``random.Random``)."""

    def randrange(self, n: int, /) -> int: ...


@dataclass(frozen=True, slots=True)
class Setup:
    """The random choices of setup other than the deck order (design/rules.md §1–§3).

    ``identities[s]`` is seat s's identity letter (L/C/F/N); ``coordinator_rank`` and
    ``farmer_rank`` are the ranks of the shared identity cards; ``supply_number`` and
    ``discard_number`` are the round-card ranks of supply and discard rounds.
    """

    identities: tuple[str, ...]
    coordinator_rank: int
    farmer_rank: int
    supply_number: int
    discard_number: int

    def identity_value(self, seat: int) -> int:
        """Identity value 身份值 of ``seat``: landlord 14, coordinator/farmer their card rank, narrator 0."""
        letter = self.identities[seat]
        if letter == "L":
            return 14
        if letter == "C":
            return self.coordinator_rank
        if letter == "F":
            return self.farmer_rank
        if letter == "N":
            return 0
        raise KeyError(letter)  # as the table lookup it was

    def identity_name(self, seat: int) -> str:
        """'landlord', 'coordinator', 'farmer' or 'narrator'."""
        return IDENTITY_NAMES[self.identities[seat]]

    def to_wire(self) -> dict[str, Any]:
        """Plain dict (msgpack/JSON friendly)."""
        return {
            "identities": "".join(self.identities),
            "coordinator_rank": self.coordinator_rank,
            "farmer_rank": self.farmer_rank,
            "supply_number": self.supply_number,
            "discard_number": self.discard_number,
        }

    @classmethod
    def from_wire(cls, data: Any) -> "Setup":
        """Inverse of :meth:`to_wire`. Raises ``ValueError`` on a malformed dict."""
        try:
            ids = data["identities"]
            if not isinstance(ids, str) or set(ids) - set(IDENTITY_NAMES):
                raise ValueError("identities must be a string of L/C/F/N")
            nums = [data[k] for k in ("coordinator_rank", "farmer_rank", "supply_number", "discard_number")]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed setup: {exc}") from None
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in nums):
            raise ValueError("setup numbers must be whole numbers")
        extra = sorted(str(k) for k in data if k not in ("identities", "coordinator_rank", "farmer_rank",
                                                           "supply_number", "discard_number"))
        if extra:
            raise ValueError(f"malformed setup: unknown field(s) {', '.join(extra)}")
        coordinator, farmer, supply, discard = nums
        if not ids or ids.count("L") > 1:
            raise ValueError("setup identities must name every seat, with at most one landlord")
        if coordinator not in COORDINATOR_RANKS:
            raise ValueError(f"coordinator rank {coordinator} is not one of {COORDINATOR_RANKS}")
        if farmer not in FARMER_RANKS:
            raise ValueError(f"farmer rank {farmer} is not one of {FARMER_RANKS}")
        if not (1 <= supply <= 14 and 1 <= discard <= 14) or supply == discard:
            raise ValueError("supply and discard numbers must be two different ranks 1–14")
        return cls(tuple(ids), *nums)

    def fits(self, rules: RuleSet) -> str | None:
        """Why this setup cannot come from :func:`draw_setup` for ``rules``, or None:
        the identities must be a permutation of the rules' identity letters, and without
        ``random_specials`` the supply/discard numbers must be the rules' numbers."""
        if sorted(self.identities) != sorted(rules.identity_letters):
            return f"setup identities {''.join(self.identities)} are not a dealing of {rules.identity_letters}"
        if not rules.random_specials and (self.supply_number, self.discard_number) != (
            rules.supply_number, rules.discard_number
        ):
            return "setup supply/discard numbers differ from the rules' numbers"
        return None


def draw_setup(rules: RuleSet, rng: RandRange) -> Setup:
    """Draw the setup choices for ``rules`` from ``rng``, in this fixed order:

    1. identities: a Fisher–Yates shuffle of ``rules.identity_letters`` (for i from
       len-1 down to 1, j = rng.randrange(i+1), swap i and j);
    2. coordinator rank: ``COORDINATOR_RANKS[rng.randrange(6)]``;
    3. farmer rank: ``FARMER_RANKS[rng.randrange(6)]``;
    4. only if ``rules.random_specials``: supply number = ``1 + rng.randrange(14)``,
       then discard number = the ``rng.randrange(13)``-th of the other 13 ranks in
       increasing order; otherwise the rules' numbers, with no draw.
    """
    letters = list(rules.identity_letters)
    for i in range(len(letters) - 1, 0, -1):
        j = rng.randrange(i + 1)
        letters[i], letters[j] = letters[j], letters[i]
    coordinator = COORDINATOR_RANKS[rng.randrange(len(COORDINATOR_RANKS))]
    farmer = FARMER_RANKS[rng.randrange(len(FARMER_RANKS))]
    supply, discard = rules.supply_number, rules.discard_number
    if rules.random_specials:
        supply = 1 + rng.randrange(14)
        others = [r for r in range(1, 15) if r != supply]
        discard = others[rng.randrange(len(others))]
    return Setup(tuple(letters), coordinator, farmer, supply, discard)


def hand_positions(rules: RuleSet, seat: int) -> range:
    """Deck positions of ``seat``'s initial hand."""
    start = 2 * rules.players + seat * rules.hand_size
    return range(start, start + rules.hand_size)


def round_pile_positions(rules: RuleSet) -> range:
    """Deck positions of the round pile, top first."""
    start = rules.players * (2 + rules.hand_size)
    return range(start, start + rules.rounds)


def stock_start(rules: RuleSet) -> int:
    """Deck position of the top card of the stock."""
    return rules.players * (2 + rules.hand_size) + rules.rounds
