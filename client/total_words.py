"""What a move comes to: the seat's own total for each legal move and the total of
the attack waiting for an answer, computed from the observation with the engine's own
formulas (:mod:`jupai_net.formulas`, specs/rules.md §5–§9), and their wording
(specs/client.md § Your moves). No rich, no IO."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.cards import rank
from jupai_net.formulas import (
    Total,
    attack_rule,
    attack_total,
    defense_attack_rule,
    defense_attack_strength,
    defense_rule,
    defense_strength,
)

from .card_words import Obs, player_of
from .i18n import t


def action_fields(action: Action | Mapping[str, Any]) -> Action:
    """``action`` as an :class:`~jupai_net.actions.Action` (a wire mapping is parsed
    with ``Action.from_wire``; ValueError for an unknown kind)."""
    if isinstance(action, Action):
        return action
    return Action.from_wire(dict(action))


@dataclass(frozen=True, slots=True)
class MoveTotal:
    """What a move comes to for the seat making it, from its observation alone.

    ``total``: the side's total and formula in the contest the move starts or answers
    (None for a plain discard). ``plain``: ``(i, m)`` for a different-identity discard,
    the intent against the target's mass rank (``m`` None while the mass is face-down).
    ``alt``: the same-identity total, when the seat cannot know whether the target
    shares its role (hidden identities), next to ``total`` or ``plain``.
    """

    total: Total | None = None
    plain: tuple[int, int | None] | None = None
    alt: Total | None = None

    def values(self) -> set[int]:
        """Every total this move may come to (one unless the target's role is hidden)."""
        out = {x.value for x in (self.total, self.alt) if x is not None}
        if self.plain is not None:
            out.add(self.plain[0])
        return out


def _same_identity(obs: Obs, me: int, other: int | None, cards: Sequence[int]) -> bool | None:
    """Whether the viewer's side of a contest with ``other`` uses the same-identity
    formula (specs/rules.md §5), or None when it cannot know (a hidden role)."""
    mine = player_of(obs, me)
    if obs.get("same_identity") == "matching-card":
        value = mine.get("identity_value")
        return None if value is None else any(rank(c) == value for c in cards)
    role, theirs = mine.get("identity"), player_of(obs, other).get("identity")
    if role is None:
        return None
    if theirs is None:
        return False if role == "L" else None  # there is only ever one landlord
    return role == theirs


def own_total(action: Action | Mapping[str, Any], obs: Obs, rule: bool = False) -> MoveTotal | None:
    """The total ``action`` gives the acting seat, computed from its observation with
    the engine's own formulas (:mod:`jupai_net.formulas`): R, the seat's identity value,
    the same-identity reading and its equipment. None for moves without a total
    (supply, pass, drawing equipment, a discard with no target).

    ``rule``: each :class:`Total`'s ``formula`` is the rule with the intent as ``i``
    (``3×i + 8×6``, no `` = value``; see :func:`own_rule`)."""
    a = action_fields(action)
    me, R = obs.get("seat"), obs.get("R")
    if me is None or R is None:
        return None
    I = player_of(obs, me).get("identity_value") or 0
    i = sum(rank(c) for c in a.cards)
    eq = player_of(obs, me).get("equipment") or {}
    mw = (rank(eq["mass"]), rank(eq["weapon"])) if eq.get("mass") is not None and eq.get("weapon") is not None else None
    if a.weapon and mw is None:
        return None

    def either(same: bool | None, different: Total, same_total: Total) -> MoveTotal:
        if same is None:
            return MoveTotal(different, alt=same_total)
        return MoveTotal(same_total if same else different)

    def attack(use: tuple[int, int] | None, same: bool) -> Total:
        total = attack_total(R, i, use, same, I)
        return Total(total.value, attack_rule(R, use, same, I)) if rule else total

    def defense_attack(same: bool) -> Total:
        total = defense_attack_strength(R, i, same, I)
        return Total(total.value, defense_attack_rule(R, same, I)) if rule else total

    def defense(w: int, same: bool) -> Total:
        total = defense_strength(R, i, w, same)
        return Total(total.value, defense_rule(R, w, same)) if rule else total

    use = mw if a.weapon else None
    if a.kind == A.ATTACK:
        return either(_same_identity(obs, me, a.target, a.cards), attack(use, False), attack(use, True))
    if a.kind == A.DEFENSE:
        return either(_same_identity(obs, me, a.target, a.cards), defense_attack(False), defense_attack(True))
    if a.kind == A.DISCARD and a.target is not None:
        same = _same_identity(obs, me, a.target, a.cards)
        contest = attack(use, True)
        if same:
            return MoveTotal(contest)
        target_eq = player_of(obs, a.target).get("equipment") or {}
        m = rank(target_eq["mass"]) if target_eq.get("mass") is not None else None
        return MoveTotal(plain=(i, m), alt=contest if same is None else None)
    if a.kind == A.ANSWER:
        pending = obs.get("pending") or {}
        contest_kind = pending.get("contest")
        if contest_kind == "discard":  # the response card is only compared, by its rank
            return MoveTotal(Total(i, "i" if rule else str(i)))
        same = _same_identity(obs, me, pending.get("actor"), a.cards)
        if contest_kind == "attack":
            return either(same, attack(use, False), attack(use, True))
        if contest_kind == "defense":
            w = use[1] if use else 0
            return either(same, defense(w, False), defense(w, True))
    return None


def own_rule(action: Action | Mapping[str, Any], obs: Obs, lang: str = "en") -> str | None:
    """The rule a move's total follows, with its cards' intent as ``i``: ``1×i + 12×7``;
    ``i > m 8`` for a plain discard at a visible mass (``i vs m ?`` hidden); with a
    hidden role both readings (``1×i; if same identity: 11×i + 1``). None for a move
    without a total. The legend of the move lists that show totals only (grid, tight)."""
    total = own_total(action, obs, rule=True)
    if total is None:
        return None
    parts = []
    if total.plain is not None:
        m = total.plain[1]
        parts.append(t("rule.plain", lang, m=m) if m is not None else t("rule.plain_unknown", lang))
    elif total.total is not None:
        parts.append(total.total.formula)
    if total.alt is not None:
        parts.append(t("total.if_same", lang, formula=total.alt.formula))
    return t("sep", lang).join(parts)


def _pending_parts(obs: Obs) -> tuple[str, int, int, bool, int, tuple[int, int] | None | bool] | None:
    """``(kind, R, i, same, I, weapon)`` of the attack (or defense-round attack) waiting
    for an answer: ``weapon`` ``(m, w)`` when used and shown, None when not used, False
    when used but face-down. None when there is no such contest or the formula itself
    is not known (an identity hidden)."""
    p = obs.get("pending") or {}
    kind, actor, R = p.get("contest"), p.get("actor"), obs.get("R")
    if kind not in ("attack", "defense") or actor is None or R is None:
        return None
    cards = list(p.get("cards") or [])
    i = sum(rank(c) for c in cards)
    them = player_of(obs, actor)
    I = them.get("identity_value")
    if obs.get("same_identity") == "matching-card":
        same = None if I is None else any(rank(c) == I for c in cards)
    else:
        role, other = them.get("identity"), player_of(obs, p.get("target")).get("identity")
        same = None if role is None or other is None else role == other
    if same is None or (same and I is None):
        return None
    use: tuple[int, int] | None | bool = None
    if p.get("weapon") and kind == "attack":
        eq = them.get("equipment") or {}
        use = False if eq.get("mass") is None or eq.get("weapon") is None else (rank(eq["mass"]), rank(eq["weapon"]))
    return kind, R, i, same, I or 0, use


def pending_total(obs: Obs) -> MoveTotal | None:
    """The total of the attack (or defense-round attack) waiting for an answer, from the
    observation with the engine's formulas: the attacker's cards, R, its identity value
    when the same-identity formula applies, and its weapon's ranks (public once used).
    None when there is no such contest or it cannot be computed (a weapon not shown, an
    identity hidden)."""
    parts = _pending_parts(obs)
    if parts is None or parts[5] is False:
        return None
    kind, R, i, same, I, use = parts
    if kind == "attack":
        return MoveTotal(attack_total(R, i, use, same, I))  # type: ignore[arg-type]
    return MoveTotal(defense_attack_strength(R, i, same, I))


def _plain_text(i: int, m: int | None, lang: str) -> str:
    if m is None:
        return t("total.plain.unknown", lang, i=i)
    if i > m:
        return t("total.plain.win", lang, i=i, m=m)
    return t("total.plain.fail", lang, i=i, m=m, rel="=" if i == m else "<")


def total_text(total: MoveTotal | None, lang: str = "en", short: bool = False) -> str:
    """A move's total for its description: `` (= 6×3 + 1×8 = 26)`` (``short``: ``=26``);
    a plain discard `` (i 10 > m 8: discards it)``; with a hidden role both readings."""
    if total is None:
        return ""
    if short:
        if total.plain is not None:
            i, m = total.plain
            text = f"i{i}" + (":m?" if m is None else (">" if i > m else "=" if i == m else "<") + f"m{m}")
        else:
            text = f"={total.total.value}" if total.total is not None else ""
        if total.alt is not None:
            text += f"/{total.alt.value}" if total.plain is None else f" /={total.alt.value}"
        return text
    parts = []
    if total.plain is not None:
        parts.append(_plain_text(*total.plain, lang))
    elif total.total is not None:
        parts.append(t("total.formula", lang, formula=total.total.formula))
    if total.alt is not None:
        parts.append(t("total.if_same", lang, formula=total.alt.formula))
    return t("total.wrap", lang, text=t("sep", lang).join(parts))

def pending_total_text(obs: Obs, lang: str = "en", short: bool = False) -> str:
    """``: 3×1 + 13×7 = 94`` — the pending attack's total (:func:`pending_total`); with
    the attacker's weapon face-down, what is known of it (``: 3×12 + a face-down
    weapon``); empty when nothing is (an identity hidden) and for a contest without a
    total (a discard)."""
    p = obs.get("pending") or {}
    if p.get("contest") not in ("attack", "defense"):
        return ""
    total = pending_total(obs)
    if total is not None and total.total is not None:
        return t("pending.total", lang, formula=total.total.formula)
    parts = _pending_parts(obs)
    if parts is None:  # an identity hidden: nothing of the total is known
        return ""
    _kind, R, i, same, I, _use = parts  # the weapon face-down: what the cards come to
    cards = attack_total(R, i, None, same, I).formula.rsplit(" = ", 1)[0]
    return t("pending.total_part_short" if short else "pending.total_part", lang, formula=cards)
