"""One legal move in words, from the acting seat's point of view, with the total it
comes to (specs/client.md § Your moves), and how moves group in the shorter move
lists (by target; supply (a) steps together). No rich, no IO."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.cards import rank

from .card_words import Names, Obs, cards_text, player_of, recovered_of, seat_label, weapon_text
from .i18n import t
from .total_words import action_fields, own_rule, own_total, total_text


def describe_action(action: Action | Mapping[str, Any], obs: Obs, names: Names = None, lang: str = "en",
                    totals: bool = True) -> str:
    """One legal action in words, from the acting seat's point of view, with the total
    it comes to (``totals``), e.g. ``attack seat 2 with 10♥ + weapon (= 3×10 + 8×6 =
    78)`` or ``supply: discard 7♣ and recovered 3♠``."""
    a = action_fields(action)
    me = obs.get("seat")
    target = seat_label(a.target, names, me, lang)
    cards = cards_text(a.cards, lang)
    weapon = weapon_text(a.weapon, lang)
    suffix = total_text(own_total(a, obs), lang) if totals else ""
    if a.kind == A.ATTACK:
        return t("act.attack", lang, target=target, cards=cards, weapon=weapon) + suffix
    if a.kind == A.DEFENSE:
        return t("act.defense", lang, target=target, cards=cards) + suffix
    if a.kind == A.DISCARD:
        if a.target is None:
            return t("act.discard_none", lang, cards=cards)
        return t("act.discard", lang, target=target, cards=cards, weapon=weapon) + suffix
    if a.kind == A.SUPPLY_RECOVERED:
        if not a.cards:  # supply (a) under way: one more recovered card
            return t("act.supply_a_more", lang, recovered=cards_text(a.recovered, lang))
        if a.recovered:
            return t("act.supply_a_rec", lang, cards=cards, recovered=cards_text(a.recovered, lang))
        then = supply_follow(a, obs)
        if then:
            return t("act.supply_a_then", lang, cards=cards, k=then)
        return t("act.supply_a", lang, cards=cards)
    if a.kind == A.SUPPLY_EQUIPMENT:
        armed = bool(player_of(obs, me).get("equipment"))
        return t("act.supply_b" if armed else "act.supply_b_none", lang)
    if a.kind == A.PASS:
        return t("act.supply_a_stop" if supplying(obs) else "act.pass", lang)
    if a.kind == A.REARM:
        return t("act.rearm", lang)
    if a.kind == A.ANSWER:
        pending = obs.get("pending") or {}
        contest = pending.get("contest", "attack")
        if not a.cards and contest != "defense" and not a.weapon:
            return t("act.answer.none", lang) + suffix
        return t(f"act.answer.{contest}", lang, cards=cards, weapon=weapon) + suffix
    return a.kind  # pragma: no cover - Action.from_wire admits only known kinds


def group_of(a: Action, obs: Obs, names: Names, lang: str) -> tuple[Any, str | None]:
    """The group a move is listed under in the compact move list: ``(key, label)``; a
    label of None means the move stands alone with its full description."""
    me = obs.get("seat")
    if a.kind in (A.ATTACK, A.DEFENSE) or (a.kind == A.DISCARD and a.target is not None):
        return (a.kind, a.target), t(f"group.{a.kind}", lang, target=seat_label(a.target, names, me, lang))
    if a.kind == A.ANSWER:
        contest = (obs.get("pending") or {}).get("contest", "attack")
        return ("answer",), t(f"group.answer.{contest}", lang)
    if a.kind == A.SUPPLY_RECOVERED:
        sup = supplying(obs)
        if sup:
            return ("supply-a-more",), t("group.supply_a_more", lang, left=sup.get("left", "?"))
        return ("supply-a",), t("group.supply_a", lang)
    return ("alone", id(a)), None


def supply_follow(a: Action, obs: Obs) -> int:
    """How many recovered cards may follow the intent card ``a.cards`` of a supply (a)
    (at most its rank v; none in the last round, where the whole hand goes at once)."""
    if obs.get("last_round") or len(a.cards) != 1:
        return 0
    rec = [c for c in recovered_of(obs, obs.get("seat")) if c not in a.cards]
    return min(rank(a.cards[0]), len(rec))


def supplying(obs: Obs) -> Mapping[str, Any] | None:
    """The supply (a) under way (``obs["supply"]``, specs/rules.md §9.3), or None."""
    sup = obs.get("supply")
    return sup if isinstance(sup, Mapping) else None


def item_text(a: Action, obs: Obs, lang: str, full: bool) -> str:
    """A move inside its group: ``10♠+W =108`` (``full``: ``10♠ + weapon (= 6×10 + 8×6 = 108)``)."""
    if a.kind == A.SUPPLY_RECOVERED:
        if not a.cards:
            return cards_text(a.recovered, lang)
        text = cards_text(a.cards, lang)
        then = supply_follow(a, obs)
        if then:
            text += t("item.supply_then", lang, k=then)
        if a.recovered:
            text += t("item.recovered", lang, cards=cards_text(a.recovered, lang, " "))
        return text
    if full:
        text = cards_text(a.cards, lang) + weapon_text(a.weapon, lang)
        return text + total_text(own_total(a, obs), lang)
    text = cards_text(a.cards, lang, "+") + (t("item.weapon", lang) if a.weapon else "")
    short = total_text(own_total(a, obs), lang, short=True)
    return f"{text} {short}" if short else text


_USES_I = re.compile(r"(?<![A-Za-z])i(?![A-Za-z])")


def column_label(a: Action, lang: str = "en") -> str:
    """A move's column in the table of moves: its cards (``10♠+J♥``), ``+W`` for the
    same cards with the weapon, or the recovered card of a supply (a) step."""
    if a.weapon:
        return t("item.weapon", lang)
    if not a.cards and a.recovered:
        return cards_text(a.recovered, lang, "+")
    return cards_text(a.cards, lang, "+")


def column_labels(moves: Sequence[Action], lang: str = "en") -> list[str]:
    """The column heads of a table of moves, in order (:func:`column_label`): ``+W``
    right after the column of the same cards without the weapon, else the cards with
    it (``A♠+W``: the weapon must be used, e.g. a defense with an armed weapon or the
    last round, so there is no column without it to stand beside)."""
    heads = []
    before: Action | None = None
    for a in moves:
        head = column_label(a, lang)
        if a.weapon and (before is None or before.weapon or before.cards != a.cards):
            head = cards_text(a.cards, lang, "+") + head
        heads.append(head)
        before = a
    return heads


def group_rule(moves: Sequence[tuple[str, Action]], obs: Obs, lang: str = "en") -> str | None:
    """The rules the totals of one group of moves follow, with the intent as ``i``:
    ``1×i · +W: 1×i + 12×7``; a column that differs from the group's usual rule is
    named (``J♥: 11×i + 1``, matching-card reading). ``moves``: ``(cards label,
    action)`` pairs. None when no move of the group has a total."""
    sig = [(col, a.weapon, r) for col, a in moves if (r := own_rule(a, obs, lang)) is not None]
    if not sig:
        return None
    parts = []
    for weapon in (False, True):
        cols = [(c, r) for c, w, r in sig if w == weapon]
        if not cols:
            continue
        counts: dict[str, int] = {}
        for _c, r in cols:
            counts[r] = counts.get(r, 0) + 1
        base = max(counts, key=lambda r: counts[r])
        parts.append(t("rule.part", lang, label=t("rule.weapon", lang), rule=base) if weapon else base)
        w = t("rule.weapon", lang) if weapon else ""
        parts.extend(t("rule.part", lang, label=c + w, rule=r) for c, r in cols if r != base)
    return " · ".join(parts)


def rules_legend(rows: Sequence[tuple[str, Sequence[tuple[str, Action]]]], obs: Obs,
                 lang: str = "en", head: str | None = None) -> list[str]:
    """The legend under a list that shows totals only (the tight list, a grid whose
    row labels have no room for the rules): the rule each total follows
    (:func:`group_rule`). ``rows``: the moves by group, ``(group label, [(cards label,
    action), ...])``.

    The rules most groups share come first as ``your total: 1×i · +W: 1×i + 12×7 (i =
    your card's rank)``; a group with other rules gets its own line, ``seat 2 (Bob):
    11×i + 1 · +W: …``; ``head`` replaces ``your total`` (``=N your total`` under the
    tight list). Empty when no move has a total."""
    rules = [(label, r) for label, moves in rows if (r := group_rule(moves, obs, lang)) is not None]
    if not rules:
        return []
    tally: dict[str, int] = {}
    for _label, r in rules:
        tally[r] = tally.get(r, 0) + 1
    common = max(tally, key=lambda k: tally[k])
    lines = [t("rule.part", lang, label=head or t("rule.total", lang), rule=common)]
    seen = {common}
    for label, r in rules:
        if r not in seen:
            seen.add(r)
            lines.append(t("rule.part", lang, label=label.rstrip(":："), rule=r))
    if any(_USES_I.search(r) for r in seen):
        lines[0] += t("total.wrap", lang, text=t("rule.i", lang))
    return lines
