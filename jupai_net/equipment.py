"""Equipment 装备 = a mass card and a weapon card (design/rules.md §7).

Quality and uses follow the mass rank m: m ≤ 4 simple 简单 (1 use), 5–8 fine 精致
(2 uses), ≥ 9 advanced 高级 (3 uses). The first use is face-up (both cards become
public); after it the pair lies face-down again until its next use (seed rule 3:
"明牌展示使用一次后，背着回收"); the 2nd use of an advanced weapon is face-down; the last
use sends both cards to the discard pile.

Two separate facts: ``face_up`` is how the pair lies on the table now; ``shown`` is
whether its cards have ever been shown to everyone (they stay known once shown).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import RANKS, rank


def quality(mass_rank: int) -> str:
    """'simple' (m ≤ 4), 'fine' (5–8) or 'advanced' (≥ 9)."""
    return "simple" if mass_rank <= 4 else "fine" if mass_rank <= 8 else "advanced"


def uses_for(mass_rank: int) -> int:
    """Number of uses for a mass rank: 1, 2 or 3 (§7)."""
    return 1 if mass_rank <= 4 else 2 if mass_rank <= 8 else 3


_QUALITY = [""] + [quality(r) for r in range(1, 15)]
_USES = [0] + [uses_for(r) for r in range(1, 15)]


@dataclass(slots=True)
class Equipment:
    """A seat's mass + weapon pair. ``mass``/``weapon`` are card ids; ``uses_left`` ≥ 1;
    ``shown`` is True once the cards are public (first use, or drawn face-up);
    ``face_up`` is True while the pair lies face-up (drawn face-up and not used yet):
    every use that does not spend it puts it back face-down (specs/rules.md §7)."""

    mass: int
    weapon: int
    uses_left: int
    shown: bool = False
    face_up: bool = False
    #: mass rank m, weapon rank w, quality and full uses: looked up once (§7)
    m: int = field(init=False, repr=False, compare=False)
    w: int = field(init=False, repr=False, compare=False)
    quality: str = field(init=False, repr=False, compare=False)
    uses: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.m = m = RANKS[self.mass]
        self.w = RANKS[self.weapon]
        self.quality = _QUALITY[m]
        self.uses = _USES[m]

    @classmethod
    def new(cls, mass: int, weapon: int, shown: bool = False) -> "Equipment":
        """Fresh equipment with the full number of uses for its mass; a pair drawn
        face-up (``shown``) also lies face-up until its first use."""
        return cls(mass, weapon, _USES[rank(mass)], shown, shown)

    @property
    def uses_done(self) -> int:
        """Uses made so far."""
        return self.uses - self.uses_left

    def copy(self) -> "Equipment":
        """An independent copy."""
        return Equipment(self.mass, self.weapon, self.uses_left, self.shown, self.face_up)
