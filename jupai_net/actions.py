"""Actions a seat can take (design/rules.md §4–§7; specs/rules.md "Actions").

Kinds:

* ``attack``  — attack round, actor: 1 intent card (all hand cards in the last
  round) at ``target``, ``weapon`` optional (mandatory in the last round if armed).
* ``defense`` — defense round, actor: 1 intent card at ``target``, never a weapon.
* ``discard`` — discard round, actor: 1 intent card at ``target`` (a player with
  equipment); ``target`` None = discard the card with no target (only when no
  opponent has equipment). ``weapon`` only in the same-identity variant, or against a
  target whose identity is hidden (specs/rules.md §9.13: unused if the roles differ).
* ``supply-recovered`` — supply (a), in steps (specs/rules.md §9.3): first
  ``cards=(c,)`` discards intent card c of rank v (the whole hand in the last round);
  then, while the same seat stays to move, ``recovered=(r,)`` discards one of its
  recovered cards r (at most v in all), and ``pass`` stops.
* ``supply-equipment`` — supply (b): discard equipment (if any), draw a new pair.
* ``pass`` — do nothing this turn (supply (c), or an actor with no playable move), or
  stop discarding recovered cards in supply (a).
* ``answer`` — the target of a contest answers with ``cards`` (empty when its hand
  is empty, i = 0) and ``weapon``.
* ``rearm`` — before its round action, a player without equipment that has waited
  a full round draws a new pair from the stock; the same player then acts.
"""

from __future__ import annotations

from typing import Any, NamedTuple

ATTACK = "attack"
DEFENSE = "defense"
DISCARD = "discard"
SUPPLY_RECOVERED = "supply-recovered"
SUPPLY_EQUIPMENT = "supply-equipment"
PASS = "pass"
ANSWER = "answer"
REARM = "rearm"
KINDS = (ATTACK, DEFENSE, DISCARD, SUPPLY_RECOVERED, SUPPLY_EQUIPMENT, PASS, ANSWER, REARM)


#: The fields of an action's wire map, and the card ids (0..52) a card field may hold.
_WIRE_FIELDS = frozenset({"kind", "target", "cards", "weapon", "recovered"})
_CARD_IDS = frozenset(range(53))
_INT_ONLY = frozenset({int})  # exact ints: not bool, not float (3.0 == 3 in a set)


def _exact(kind: Any, target: Any, cards: Any, weapon: Any, recovered: Any) -> bool:
    """True when the fields are of exactly the types :meth:`Action.from_wire` keeps (a
    ``str`` kind of :data:`KINDS`, an ``int`` or ``None`` target, a ``bool`` weapon, at
    most 53 ``int`` card ids 0..52 in each sized sequence): such fields always pass its
    checks. False says nothing: the caller then checks the long way."""
    return (type(kind) is str and kind in KINDS and (target is None or type(target) is int) and type(weapon) is bool
            and len(cards) <= 53 and len(recovered) <= 53
            and _INT_ONLY.issuperset(map(type, cards)) and _INT_ONLY.issuperset(map(type, recovered))
            and _CARD_IDS.issuperset(cards) and _CARD_IDS.issuperset(recovered))


class Action(NamedTuple):
    """One move (immutable, hashable). ``cards`` and ``recovered`` are card ids (0..52);
    ``target`` a seat or None. A NamedTuple because legal-action lists are built on
    every move and must be cheap."""

    kind: str
    target: int | None = None
    cards: tuple[int, ...] = ()
    weapon: bool = False
    recovered: tuple[int, ...] = ()

    def exact(self) -> bool:
        """True when every field has exactly the type :meth:`from_wire` gives it (as the
        engine's own actions do), so ``Action.from_wire(a.to_wire())`` is ``a``; False
        says nothing (check the long way)."""
        return type(self.cards) is tuple and type(self.recovered) is tuple and _exact(*self)

    def to_wire(self) -> dict[str, Any]:
        """Plain dict: ``{"kind", "target", "cards", "weapon", "recovered"}``."""
        return {
            "kind": self.kind,
            "target": self.target,
            "cards": list(self.cards),
            "weapon": self.weapon,
            "recovered": list(self.recovered),
        }

    @classmethod
    def from_wire(cls, data: Any) -> "Action":
        """Inverse of :meth:`to_wire`. Raises ``ValueError`` naming the bad field."""
        if type(data) is dict and len(data) == 5 and _WIRE_FIELDS.issuperset(data):
            # a decoded wire map with every field (nearly every one): the checks below in
            # one pass over the exact types msgpack decodes to; anything else goes the long way
            kind, target, cards, weapon, recovered = (data["kind"], data["target"], data["cards"], data["weapon"],
                                                      data["recovered"])
            if type(cards) is list and type(recovered) is list and _exact(kind, target, cards, weapon, recovered):
                return cls(kind, target, tuple(cards), weapon, tuple(recovered))
        if not isinstance(data, dict):
            raise ValueError("action must be a map")
        kind = data.get("kind")
        if kind not in KINDS:
            raise ValueError(f"action kind {kind!r} is not one of {', '.join(KINDS)}")
        target = data.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise ValueError("action target must be a seat number or null")
        weapon = data.get("weapon", False)
        if not isinstance(weapon, bool):
            raise ValueError("action weapon must be true or false")
        lists = []
        for name in ("cards", "recovered"):
            value = data.get(name, [])
            if not isinstance(value, (list, tuple)) or len(value) > 53 or not all(
                isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 52 for c in value
            ):
                raise ValueError(f"action {name} must be a list of card ids 0..52")
            lists.append(tuple(value))
        extra = set(data) - {"kind", "target", "cards", "weapon", "recovered"}
        if extra:
            raise ValueError(f"unknown action field(s): {', '.join(sorted(map(str, extra)))}")
        return cls(kind, target, lists[0], weapon, lists[1])
