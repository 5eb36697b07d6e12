"""Pure rendering of a seat's view (or the spectator view) as rich renderables
(specs/client.md § What the player sees).

Input is what the host sends: the engine's ``observation(seat)`` dict
(jupai_net.engine.GameState.observation, plain data after msgpack), the legal actions
of a prompt, the seat's event history, chat lines, notices and the seconds left on the
turn timer. No IO here: every function returns a string or a rich renderable;
:func:`to_text` renders one to plain text (for tests and transcripts) without
touching the terminal.

Entry points:

* :func:`render_view` — the player's screen: header, hand, equipment, players,
  outcomes since the player's last turn (with formulas), numbered legal actions with
  the total each move comes to, timer, chat. Given the terminal's ``width`` and
  ``height`` it lays itself out to fit (compact below 100 columns).
* :func:`render_table` — the spectator view (``observation(None)``) for the host screen.
* :func:`describe_action` / :func:`describe_event` — one action / log event in words;
  :func:`own_total` — what a move comes to, computed with :mod:`jupai_net.formulas`.
* :func:`game_end_lines` — the end of a game (ranking, fairness verdict, transcript),
  one wording for every command that ends a game (printed by ``ui.print_game_end``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.cells import cell_len, set_cell_size
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.cards import SMALL_JOKER, card_name, rank
from jupai_net.formulas import (
    Total,
    attack_total,
    defense_attack_strength,
    defense_strength,
)

from jupai_net.printable import printable

from .i18n import MESSAGES, t, tn

Names = Mapping[int, str] | Sequence[str] | None
Obs = Mapping[str, Any]

#: A chat line: a plain string, ``(name, text)``, or a mapping with ``name``/``text``
#: (and optionally ``seat``), as in the protocol's ``chat`` message.
ChatLine = Any

_TYPE_STYLE = {"attack": "bold red", "defense": "bold blue", "supply": "bold green", "discard": "bold magenta"}

#: Below this many columns the screen is laid out compactly (no panel borders, short
#: equipment and identity columns, moves grouped by target).
COMPACT_WIDTH = 100

#: Names longer than this are cut short (``…``) in the compact players table.
COMPACT_NAME = 14

#: At most this many outcome lines are shown (the ones since the player's last turn).
LOG_LIMIT = 10

#: Marks an outcome line the viewer took part in.
MINE_MARK = "» "


# --------------------------------------------------------------------- small pieces
def card_text(card: int, lang: str = "en") -> str:
    """Display name of one card id: ``10♥``, ``K♠``; the small joker is ``JK`` / ``小王``."""
    return t("card.joker", lang) if card == SMALL_JOKER else card_name(card)


def cards_text(cards: Iterable[int], lang: str = "en", sep: str = " + ") -> str:
    """Several cards joined with `` + `` (``3♠ + 5♥``); no card gives ``no card`` / ``无牌``."""
    names = [card_text(c, lang) for c in cards]
    return sep.join(names) if names else t("cards.none", lang)


_BOT_NAME = re.compile(r"^([a-z]+) bot(?: (\d+))?$")


def display_name(name: str, lang: str = "en") -> str:
    """A player's name as shown: the bot names the host and ``jupai join --bot`` give
    (``greedy bot 1``, ``random bot``) in the viewer's language (``贪心机器人 1``,
    ``随机机器人``); any other name as it is."""
    name = printable(name or "")  # a peer's name: never an escape sequence on the screen
    m = _BOT_NAME.match(name)
    if m is None or lang != "zh":
        return name
    kind = t(f"bot.{m.group(1)}", lang) if f"bot.{m.group(1)}" in MESSAGES else m.group(1)
    return t("bot.name", lang, kind=kind, n=m.group(2)) if m.group(2) else t("bot.name_only", lang, kind=kind)


def _is_you(name: str) -> bool:
    """True for a name that only says "you" (the old default name), in any language."""
    return name.strip().casefold() in (t("you", "en").casefold(), t("you", "zh"))


def _name_of(names: Names, seat: int) -> str | None:
    if names is None:
        return None
    if isinstance(names, Mapping):
        return names.get(seat) or names.get(str(seat))  # type: ignore[call-overload]
    return names[seat] if 0 <= seat < len(names) and names[seat] else None


def seat_label(seat: int | None, names: Names = None, me: int | None = None, lang: str = "en") -> str:
    """``seat 2``, ``seat 2 (Alice)``, or ``seat 2 (you)`` for the viewer's own seat
    (``2号位`` … in Chinese). ``None`` (no seat) gives an empty string."""
    if seat is None:
        return ""
    if me is not None and seat == me:
        return t("seat.you", lang, n=seat)
    name = _name_of(names, seat)
    return t("seat.named", lang, n=seat, name=display_name(name, lang)) if name else t("seat", lang, n=seat)


def identity_text(letter: str | None, value: int | None = None, lang: str = "en", short: bool = False) -> str:
    """Identity in words: ``landlord (I=14)`` / ``地主（身份值 14）`` (``short``:
    ``landlord 14``); None → ``hidden``."""
    if letter is None:
        return t("identity.hidden", lang)
    name = t(f"identity.{letter}", lang)
    if value is None:
        return name
    return t("identity.short" if short else "identity.valued", lang, identity=name, value=value)


def round_type_text(kind: str, lang: str = "en") -> str:
    """Round type in words (进攻/防守/补给/丢弃); empty when unknown."""
    return t(f"round.{kind}", lang) if kind in _TYPE_STYLE else kind


def equipment_text(eq: Mapping[str, Any] | None, lang: str = "en", rearm: int | str | None = None,
                   short: bool = False, compact: bool = False) -> str:
    """One equipment as far as it is visible: ``mass 6♠ + weapon 8♥ · fine weapon · 2 uses
    left · face-down`` (``short``: ``6♠+8♥ fine · 2 left · face-down``; ``compact``:
    ``6♠+8♥ · 2 left · down``); hidden cards give ``face-down, not shown``; None → ``no
    equipment``, plus when a new pair may be drawn: ``rearm`` is a round number (from
    that round) or ``"now"`` (on the player's turn), see :func:`rearm_state`."""
    if eq is None:
        text = "—" if compact else t("equip.none", lang)
        if rearm == "now":
            text += " · " + t("equip.rearm_now", lang)
        elif rearm is not None:
            text += " · " + t("equip.rearm", lang, n=rearm)
        return text
    up = bool(eq.get("face_up"))
    if eq.get("mass") is None:
        return t("face.down", lang) if compact else t("equip.hidden", lang, face=t("face.up" if up else "face.down", lang))
    weapon = "?" if eq.get("weapon") is None else card_text(eq["weapon"], lang)
    quality = t(f"quality.{eq['quality']}", lang) if eq.get("quality") else "?"
    n = eq.get("uses_left")
    if compact:
        return t("equip.compact", lang, mass=card_text(eq["mass"], lang), weapon=weapon, uses="?" if n is None else n,
                 face=t("face.up_short" if up else "face.down_short", lang))
    face = t("face.up" if up else "face.down", lang)
    if short:
        return t("equip.short", lang, mass=card_text(eq["mass"], lang), weapon=weapon, quality=quality,
                 uses="?" if n is None else n, face=face)
    return t("equip.desc", lang, mass=card_text(eq["mass"], lang), weapon=weapon, quality=quality,
             uses=tn("uses_left", "?" if n is None else n, lang), face=face)


def _weapon(flag: bool, lang: str) -> str:
    return t("plus_weapon", lang) if flag else ""


def _player(obs: Obs, seat: int | None) -> Mapping[str, Any]:
    for p in obs.get("players") or ():
        if p.get("seat") == seat:
            return p
    return {}


def _recovered_of(obs: Obs, seat: int | None) -> set[int]:
    return set(_player(obs, seat).get("recovered") or []) if seat is not None else set()


# ------------------------------------------------------------ what a move comes to
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
    mine = _player(obs, me)
    if obs.get("same_identity") == "matching-card":
        value = mine.get("identity_value")
        return None if value is None else any(rank(c) == value for c in cards)
    role, theirs = mine.get("identity"), _player(obs, other).get("identity")
    if role is None:
        return None
    if theirs is None:
        return False if role == "L" else None  # there is only ever one landlord
    return role == theirs


def own_total(action: Action | Mapping[str, Any], obs: Obs) -> MoveTotal | None:
    """The total ``action`` gives the acting seat, computed from its observation with
    the engine's own formulas (:mod:`jupai_net.formulas`): R, the seat's identity value,
    the same-identity reading and its equipment. None for moves without a total
    (supply, pass, drawing equipment, a discard with no target)."""
    a = _action_fields(action)
    me, R = obs.get("seat"), obs.get("R")
    if me is None or R is None:
        return None
    I = _player(obs, me).get("identity_value") or 0
    i = sum(rank(c) for c in a.cards)
    eq = _player(obs, me).get("equipment") or {}
    mw = (rank(eq["mass"]), rank(eq["weapon"])) if eq.get("mass") is not None and eq.get("weapon") is not None else None
    if a.weapon and mw is None:
        return None

    def either(same: bool | None, different: Total, same_total: Total) -> MoveTotal:
        if same is None:
            return MoveTotal(different, alt=same_total)
        return MoveTotal(same_total if same else different)

    use = mw if a.weapon else None
    if a.kind == A.ATTACK:
        return either(_same_identity(obs, me, a.target, a.cards), attack_total(R, i, use, False),
                      attack_total(R, i, use, True, I))
    if a.kind == A.DEFENSE:
        return either(_same_identity(obs, me, a.target, a.cards), defense_attack_strength(R, i, False),
                      defense_attack_strength(R, i, True, I))
    if a.kind == A.DISCARD and a.target is not None:
        same = _same_identity(obs, me, a.target, a.cards)
        contest = attack_total(R, i, use, True, I)
        if same:
            return MoveTotal(contest)
        target_eq = _player(obs, a.target).get("equipment") or {}
        m = rank(target_eq["mass"]) if target_eq.get("mass") is not None else None
        return MoveTotal(plain=(i, m), alt=contest if same is None else None)
    if a.kind == A.ANSWER:
        pending = obs.get("pending") or {}
        contest_kind = pending.get("contest")
        if contest_kind == "discard":  # the response card is only compared, by its rank
            return MoveTotal(Total(i, str(i)))
        same = _same_identity(obs, me, pending.get("actor"), a.cards)
        if contest_kind == "attack":
            return either(same, attack_total(R, i, use, False), attack_total(R, i, use, True, I))
        if contest_kind == "defense":
            w = use[1] if use else 0
            return either(same, defense_strength(R, i, w, False), defense_strength(R, i, w, True))
    return None


def pending_total(obs: Obs) -> MoveTotal | None:
    """The total of the attack (or defense-round attack) waiting for an answer, from the
    observation with the engine's formulas: the attacker's cards, R, its identity value
    when the same-identity formula applies, and its weapon's ranks (public once used).
    None when there is no such contest or it cannot be computed (a weapon not shown, an
    identity hidden)."""
    p = obs.get("pending") or {}
    kind, actor, R = p.get("contest"), p.get("actor"), obs.get("R")
    if kind not in ("attack", "defense") or actor is None or R is None:
        return None
    cards = list(p.get("cards") or [])
    i = sum(rank(c) for c in cards)
    them = _player(obs, actor)
    I = them.get("identity_value")
    if obs.get("same_identity") == "matching-card":
        same = None if I is None else any(rank(c) == I for c in cards)
    else:
        role, other = them.get("identity"), _player(obs, p.get("target")).get("identity")
        same = None if role is None or other is None else role == other
    if same is None or (same and I is None):
        return None
    use = None
    if p.get("weapon"):
        eq = them.get("equipment") or {}
        if eq.get("mass") is None or eq.get("weapon") is None:
            return None
        use = (rank(eq["mass"]), rank(eq["weapon"]))
    if kind == "attack":
        return MoveTotal(attack_total(R, i, use, same, I or 0))
    return MoveTotal(defense_attack_strength(R, i, same, I or 0))


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


# ------------------------------------------------------------------------ actions
def _action_fields(action: Action | Mapping[str, Any]) -> Action:
    if isinstance(action, Action):
        return action
    return Action.from_wire(dict(action))


def describe_action(action: Action | Mapping[str, Any], obs: Obs, names: Names = None, lang: str = "en",
                    totals: bool = True) -> str:
    """One legal action in words, from the acting seat's point of view, with the total
    it comes to (``totals``), e.g. ``attack seat 2 with 10♥ + weapon (= 3×10 + 8×6 =
    78)`` or ``supply: discard 7♣ and recovered 3♠``."""
    a = _action_fields(action)
    me = obs.get("seat")
    target = seat_label(a.target, names, me, lang)
    cards = cards_text(a.cards, lang)
    weapon = _weapon(a.weapon, lang)
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
        then = _supply_follow(a, obs)
        if then:
            return t("act.supply_a_then", lang, cards=cards, k=then)
        return t("act.supply_a", lang, cards=cards)
    if a.kind == A.SUPPLY_EQUIPMENT:
        armed = bool(_player(obs, me).get("equipment"))
        return t("act.supply_b" if armed else "act.supply_b_none", lang)
    if a.kind == A.PASS:
        return t("act.supply_a_stop" if _supplying(obs) else "act.pass", lang)
    if a.kind == A.REARM:
        return t("act.rearm", lang)
    if a.kind == A.ANSWER:
        pending = obs.get("pending") or {}
        contest = pending.get("contest", "attack")
        if not a.cards and contest != "defense" and not a.weapon:
            return t("act.answer.none", lang) + suffix
        return t(f"act.answer.{contest}", lang, cards=cards, weapon=weapon) + suffix
    return a.kind  # pragma: no cover - Action.from_wire admits only known kinds


def _group_of(a: Action, obs: Obs, names: Names, lang: str) -> tuple[Any, str | None]:
    """The group a move is listed under in the compact move list: ``(key, label)``; a
    label of None means the move stands alone with its full description."""
    me = obs.get("seat")
    if a.kind in (A.ATTACK, A.DEFENSE) or (a.kind == A.DISCARD and a.target is not None):
        return (a.kind, a.target), t(f"group.{a.kind}", lang, target=seat_label(a.target, names, me, lang))
    if a.kind == A.ANSWER:
        contest = (obs.get("pending") or {}).get("contest", "attack")
        return ("answer",), t(f"group.answer.{contest}", lang)
    if a.kind == A.SUPPLY_RECOVERED:
        sup = _supplying(obs)
        if sup:
            return ("supply-a-more",), t("group.supply_a_more", lang, left=sup.get("left", "?"))
        return ("supply-a",), t("group.supply_a", lang)
    return ("alone", id(a)), None


def _supply_follow(a: Action, obs: Obs) -> int:
    """How many recovered cards may follow the intent card ``a.cards`` of a supply (a)
    (at most its rank v; none in the last round, where the whole hand goes at once)."""
    if obs.get("last_round") or len(a.cards) != 1:
        return 0
    rec = [c for c in _recovered_of(obs, obs.get("seat")) if c not in a.cards]
    return min(rank(a.cards[0]), len(rec))


def _supplying(obs: Obs) -> Mapping[str, Any] | None:
    """The supply (a) under way (``obs["supply"]``, specs/rules.md §9.3), or None."""
    sup = obs.get("supply")
    return sup if isinstance(sup, Mapping) else None


def _item_text(a: Action, obs: Obs, lang: str, full: bool) -> str:
    """A move inside its group: ``10♠+W =108`` (``full``: ``10♠ + weapon (= 6×10 + 8×6 = 108)``)."""
    if a.kind == A.SUPPLY_RECOVERED:
        if not a.cards:
            return cards_text(a.recovered, lang)
        text = cards_text(a.cards, lang)
        then = _supply_follow(a, obs)
        if then:
            text += f" (+{then})"
        if a.recovered:
            text += t("item.recovered", lang, cards=cards_text(a.recovered, lang, " "))
        return text
    if full:
        text = cards_text(a.cards, lang) + _weapon(a.weapon, lang)
        return text + total_text(own_total(a, obs), lang)
    text = cards_text(a.cards, lang, "+") + (t("item.weapon", lang) if a.weapon else "")
    short = total_text(own_total(a, obs), lang, short=True)
    return f"{text} {short}" if short else text


# ------------------------------------------------------------------------- events
def _weapon_use_text(use: Mapping[str, Any] | None, lang: str, short: bool = False) -> str:
    if not use:
        return ""
    if short:
        return t("ev.weapon_wrap", lang, text=t("ev.weapon_spent_short", lang)) if use.get("spent") else ""
    ordinal = t(f"ordinal.{use['use']}", lang) if use.get("use") in (1, 2, 3) else str(use.get("use"))
    text = t("ev.weapon", lang, quality=t(f"quality.{use['quality']}", lang), ordinal=ordinal, face=t("face.up" if use.get("face") == "up" else "face.down", lang))
    if use.get("spent"):
        text += t("ev.weapon_spent", lang)
    return t("ev.weapon_wrap", lang, text=text)


def contest_text(event: Mapping[str, Any], names: Names = None, me: int | None = None, lang: str = "en",
                 short: bool = False) -> str:
    """A resolved contest as its two formulas and the outcome, e.g.
    ``seat 0: 6×10 + 8×6 = 108 vs seat 1: 6×7 = 42 → seat 1 (Bob) collects``
    (``short``: the weapon's quality, use and face left out)."""
    sides = event["sides"]
    a, d = sides[0], sides[1]
    who_a = seat_label(a["seat"], names, me, lang)
    who_d = seat_label(d["seat"], names, me, lang)
    contest = event.get("contest")
    if contest == "defense":
        who_a = t("ev.side.attack", lang, who=who_a)
        who_d = t("ev.side.defense", lang, who=who_d)
    elif contest == "discard":
        who_a = t("ev.side.attack", lang, who=who_a)
        who_d = t("ev.side.response", lang, who=who_d)
    collector = seat_label(event.get("collector"), names, me, lang)
    result = event.get("result")
    if result == "tie":
        res = t("res.tie", lang)
    elif result == "attack-valid":
        res = t("res.attack_valid", lang, who=collector)
    elif result == "attack-invalid":
        res = t("res.attack_invalid", lang, who=collector)
    elif result == "success":
        res = t("res.discard_success", lang, who=collector, cards=cards_text(a["cards"], lang))
    elif result == "fail":
        res = t("res.discard_fail", lang, cards=cards_text(a["cards"], lang))
    else:
        res = t("res.collect", lang, who=collector)
    fa = f"{printable(a['formula'])}{_weapon_use_text(a.get('weapon'), lang, short)}"
    fd = f"{printable(d['formula'])}{_weapon_use_text(d.get('weapon'), lang, short)}"
    ca = cards_text(a["cards"], lang) + _weapon(bool(a.get("weapon")), lang)
    cd = cards_text(d["cards"], lang) + _weapon(bool(d.get("weapon")), lang)
    return t("ev.contest", lang, a=who_a, ca=ca, fa=fa, d=who_d, cd=cd, fd=fd, result=res)


def describe_event(event: Mapping[str, Any], names: Names = None, me: int | None = None,
                   lang: str = "en", short: bool = False) -> str | None:
    """One log event (``Event.to_wire``) in words; contests give their formulas
    (``short``: without the weapon-use details). Unknown kinds give None (skipped)."""
    kind = event.get("kind")
    who = lambda s: seat_label(s, names, me, lang)  # noqa: E731
    if kind == "deal":
        text = t("ev.deal", lang, players=event.get("players"))
        if "hand" in event:
            eq = event.get("equipment") or []
            text += t("sep", lang) + t("ev.deal_you", lang, hand=cards_text(event["hand"], lang),
                             equipment=cards_text(eq, lang), identity=identity_text(event.get("identity"), None, lang))
        return text
    if kind == "round":
        return t("ev.round", lang, round=event["round"], card=card_text(event["card"], lang),
                 type=round_type_text(event["type"], lang), R=event["R"], leader=who(event["leader"]))
    if kind == "play":
        contest = event.get("contest", "attack")
        return t(f"ev.play.{contest}", lang, actor=who(event["actor"]), target=who(event["target"]),
                 cards=cards_text(event["cards"], lang), weapon=_weapon(event.get("weapon", False), lang))
    if kind == "contest":
        return contest_text(event, names, me, lang, short)
    if kind == "discard":
        cards = cards_text(event.get("cards", []), lang)
        if event.get("target") is None:
            return t("ev.discard_none", lang, actor=who(event["actor"]), cards=cards)
        if event.get("success"):
            res = t("ev.discard.success", lang, target=who(event["target"]),
                    equipment=cards_text(event.get("equipment") or [], lang))
        else:
            res = t("ev.discard.fail", lang)
        return t("ev.discard", lang, actor=who(event["actor"]), target=who(event["target"]), cards=cards,
                 formula=printable(event.get("formula", "")), result=res)
    if kind == "supply":
        actor = who(event["seat"])
        if event.get("option") == "a":
            if event.get("recovered") and not event.get("cards"):
                return t("ev.supply_a_more", lang, actor=actor, recovered=cards_text(event["recovered"], lang))
            if event.get("recovered"):
                return t("ev.supply_a_rec", lang, actor=actor, cards=cards_text(event["cards"], lang),
                         recovered=cards_text(event["recovered"], lang))
            return t("ev.supply_a", lang, actor=actor, cards=cards_text(event.get("cards", []), lang))
        face = t("face.up" if event.get("face_up") else "face.down", lang)
        if event.get("discarded"):
            text = t("ev.supply_b_old", lang, actor=actor, old=cards_text(event["discarded"], lang), face=face)
        else:
            text = t("ev.supply_b", lang, actor=actor, face=face)
        if event.get("equipment"):
            text += ": " + t("ev.drew", lang, equipment=cards_text(event["equipment"], lang))
        return text
    if kind == "pass":
        if event.get("option") == "a":
            return t("ev.supply_a_stop", lang, actor=who(event["seat"]))
        return t("ev.pass", lang, actor=who(event["seat"]), type=round_type_text(event.get("round_type", ""), lang))
    if kind == "rearm":
        text = t("ev.rearm", lang, actor=who(event["seat"]))
        if event.get("equipment"):
            text += ": " + t("ev.drew", lang, equipment=cards_text(event["equipment"], lang))
        return text
    if kind == "end":
        if event.get("winner") is not None:
            return t("ev.end.winner", lang, winner=who(event["winner"]))
        return t("ev.end.rounds", lang)
    return None


def _merged(events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The events without each ``play`` that its own ``contest`` follows (the contest
    line repeats the cards and adds the formulas), and each supply (a) made of several
    steps (the intent card, then recovered cards one at a time, then maybe a pass:
    specs/rules.md §9.3) as one line: ``discards 7♣ and recovered 3♠ 5♥``."""
    log = list(events)
    out: list[Mapping[str, Any]] = []
    for k, e in enumerate(log):
        nxt = log[k + 1] if k + 1 < len(log) else None
        kind = e.get("kind")
        if (kind == "play" and nxt is not None and nxt.get("kind") == "contest"
                and nxt.get("actor") == e.get("actor") and nxt.get("target") == e.get("target")):
            continue
        prev = out[-1] if out else None
        if (prev is not None and prev.get("kind") == "supply" and prev.get("option") == "a"
                and prev.get("cards") and e.get("seat") == prev.get("seat") and e.get("option") == "a"
                and (kind == "pass" or (kind == "supply" and not e.get("cards")))):
            if kind == "supply":  # a recovered card after the intent card: one line for both
                out[-1] = {**prev, "recovered": list(prev.get("recovered") or []) + list(e.get("recovered") or [])}
            continue
        out.append(e)
    return out


def _log_events(obs: Obs) -> list[Mapping[str, Any]]:
    return _merged(obs.get("log") or [])


def involves(event: Mapping[str, Any], seat: int | None) -> bool:
    """True when ``seat`` acted in ``event`` or was its target (its own outcomes)."""
    if seat is None:
        return False
    kind = event.get("kind")
    if kind in ("play", "contest", "discard"):
        return seat in (event.get("actor"), event.get("target"))
    if kind in ("supply", "pass", "rearm"):
        return event.get("seat") == seat
    if kind == "end":
        return event.get("winner") == seat
    return False


def _acted(event: Mapping[str, Any], seat: int) -> bool:
    """True when ``event`` records a move of ``seat`` (a play, its answer, a supply…)."""
    kind = event.get("kind")
    if kind in ("play", "discard"):
        return event.get("actor") == seat
    if kind == "contest":
        return seat in (event.get("actor"), event.get("target"))
    return kind in ("supply", "pass", "rearm") and event.get("seat") == seat


def recent_window(events: Iterable[Mapping[str, Any]], me: int | None, limit: int = LOG_LIMIT,
                  minimum: int = 4) -> tuple[list[Mapping[str, Any]], bool, int]:
    """The outcomes to show: every event since the viewer's last move (that move's own
    outcome included), at least ``minimum`` and at most ``limit`` of them — always the
    newest ones (the viewer's own are marked, never preferred over newer ones).
    Returns ``(events, since_last_turn, hidden)``: the flag tells whether the list
    starts at the viewer's last move, ``hidden`` how many earlier ones were trimmed."""
    evs = _merged(events)
    start, since = max(0, len(evs) - minimum), False
    if me is not None:
        for k in range(len(evs) - 1, -1, -1):
            if _acted(evs[k], me):
                start, since = min(k, start), k <= start
                break
    limit = max(1, limit)
    chosen = evs[start:]
    hidden = max(0, len(chosen) - limit)
    return chosen[hidden:], since and not hidden, hidden


def recent_events(events: Iterable[Mapping[str, Any]], me: int | None, limit: int = LOG_LIMIT,
                  minimum: int = 4) -> tuple[list[Mapping[str, Any]], bool]:
    """:func:`recent_window` without the count of trimmed events."""
    shown, since, _ = recent_window(events, me, limit, minimum)
    return shown, since


def log_lines(obs: Obs, names: Names = None, lang: str = "en", limit: int = 8) -> list[str]:
    """The last ``limit`` log events in words, oldest first (a play followed by its
    contest shows once, as the contest with its formulas)."""
    me = obs.get("seat")
    lines = [describe_event(e, names, me, lang) for e in _log_events(obs)]
    return [line for line in lines if line][-limit:]


# ---------------------------------------------------------------------- sections
def render_header(obs: Obs, names: Names = None, lang: str = "en", compact: bool = False,
                  numbers: bool = True) -> RenderableType:
    """Round number / total, round card, round type, R, leader, special numbers, piles
    (``compact``: one short line of numbers, no ranks the players table shows;
    ``numbers=False``: without that line)."""
    me = obs.get("seat")
    kind = obs.get("round_type", "")
    line = Text()
    sep = " · " if compact else "  ·  "
    line.append(t("header.round", lang, round=obs.get("round"), rounds=obs.get("rounds")), style="bold")
    line.append(sep)
    card = obs.get("round_card")
    line.append(t("header.round_card", lang, card=card_text(card, lang) if card is not None else "?"))
    line.append(sep)
    line.append(t("header.type", lang, type=round_type_text(kind, lang)), style=_TYPE_STYLE.get(kind, "bold"))
    line.append(sep)
    line.append(t("header.R", lang, R=obs.get("R")), style="bold")
    line.append(sep)
    line.append(t("header.leader", lang, who=seat_label(obs.get("leader"), names, me, lang)))
    specials = obs.get("specials") or {}
    rows: list[RenderableType] = [line]
    if obs.get("last_round"):
        rows.append(Text(t("header.last_round", lang), style="bold yellow"))
    small = Text(style="dim")
    reading = obs.get("same_identity")
    if not numbers:
        return Group(*rows)
    if compact:
        small.append(t("header.compact", lang, supply=specials.get("supply", "?"), discard=specials.get("discard", "?"),
                       stock=obs.get("stock", 0), pile=len(obs.get("discard_pile") or [])))
        if reading == "matching-card":
            small.append(" · " + t("header.same_identity.matching-card", lang))
        rows.append(small)
        return Group(*rows)
    if specials:
        small.append(t("header.specials", lang, supply=specials.get("supply"), discard=specials.get("discard"),
                       coordinator=specials.get("coordinator"), farmer=specials.get("farmer")))
        small.append("  ·  ")
    small.append(t("header.piles", lang, stock=obs.get("stock", 0), pile=obs.get("round_pile", 0),
                   discard=len(obs.get("discard_pile") or [])))
    if reading:
        small.append("  ·  " + t(f"header.same_identity.{reading}", lang))
    rows.append(small)
    return Group(*rows)


def render_hand(obs: Obs, lang: str = "en") -> Text:
    """The viewer's hand, sorted, recovered cards marked with ``*`` (and styled)."""
    hand = obs.get("hand") or []
    recovered = _recovered_of(obs, obs.get("seat"))
    text = Text()
    if not hand:
        text.append(t("hand.empty", lang), style="dim")
    for k, c in enumerate(hand):
        if k:
            text.append("  ")
        if c in recovered:
            text.append(card_text(c, lang) + "*", style="bold cyan")
        else:
            text.append(card_text(c, lang), style="bold")
    if recovered & set(hand):
        text.append("    " + t("hand.legend", lang), style="dim")
    return text


def rearm_state(obs: Obs, player: Mapping[str, Any]) -> int | str | None:
    """When a player without equipment may draw a new pair (specs/rules.md §7):
    ``"now"`` once the round has come (and the stock still holds a pair), else the round
    from which it may (if that round will be played), else None."""
    if player.get("equipment") is not None:
        return None
    r = player.get("rearm_from")
    if r is None:
        return None
    if (obs.get("stock") or 0) < 2:  # the stock never grows again
        return None
    if r <= (obs.get("round") or 0):
        return "now"
    return r if r <= (obs.get("rounds") or 0) else None


def render_self(obs: Obs, lang: str = "en", compact: bool = False) -> RenderableType:
    """The viewer's panel: identity (in the title), hand (recovered cards marked) and
    equipment with uses left, quality and visibility (``compact``: no border)."""
    me = obs.get("seat")
    mine = _player(obs, me)
    grid = Table.grid(padding=(0, 2 if not compact else 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    grid.add_row(t("hand.title_short" if compact else "hand.title", lang), render_hand(obs, lang))
    grid.add_row(t("equip.title_short" if compact else "equip.title", lang),
                 Text(equipment_text(mine.get("equipment"), lang, rearm_state(obs, mine))))
    title = seat_label(me, None, me, lang) + " · " + t(
        "identity.yours", lang, identity=identity_text(mine.get("identity"), mine.get("identity_value"), lang))
    if compact:
        return Group(Text(title, style="bold cyan"), grid)
    return Panel(grid, title=Text(title), title_align="left", border_style="cyan")


def render_players(obs: Obs, names: Names = None, lang: str = "en", compact: bool = False) -> RenderableType:
    """Every seat, one row each: identity (as visible), hand count, recovered cards,
    equipment as visible, cards left; ``▶`` marks the seat to move, ``leads`` the leader
    (``compact``: short identity and equipment, no header rule; identities never cut)."""
    me = obs.get("seat")
    if compact:
        table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="dim")
    else:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
    table.add_column(t("col.seat", lang), no_wrap=True)
    table.add_column(t("col.identity", lang), no_wrap=True)
    table.add_column(t("col.hand", lang), justify="right", no_wrap=True)
    table.add_column(t("col.left_short" if compact else "col.left", lang), justify="right", no_wrap=True)
    if compact:
        table.add_column(t("col.equipment", lang), no_wrap=True)
        table.add_column(t("col.recovered", lang), min_width=8)
    else:
        table.add_column(t("col.recovered", lang))
        table.add_column(t("col.equipment", lang))
    for p in obs.get("players", []):
        s = p.get("seat")
        if compact:  # the column says "seat": the number and the name (cut short) are enough
            name = t("you", lang) if s == me else display_name(_name_of(names, s) or "", lang)
            if cell_len(name) > COMPACT_NAME:
                name = set_cell_size(name, COMPACT_NAME - 1) + "…"
            label = ("▶ " if s == obs.get("to_move") else "  ") + f"{s} {name}".rstrip()
        else:
            label = ("▶ " if s == obs.get("to_move") else "  ") + seat_label(s, names, me, lang)
        if s == obs.get("leader") and not compact:
            label += " · " + t("mark.leader", lang)
        rearm = rearm_state(obs, p) if s == me and not compact else None
        style = "bold cyan" if s == me else ("bold" if s == obs.get("to_move") else "")
        recovered = p.get("recovered") or []
        rec = cards_text(recovered, lang, " " if compact else " + ") if recovered else "—"
        equipment = equipment_text(p.get("equipment"), lang, rearm, short=True, compact=compact)
        ident = identity_text(p.get("identity"), p.get("identity_value"), lang, short=compact)
        # every cell a Text: what the host sent is never read as rich markup
        cells = [Text(printable(p.get("hand_count", 0))), Text(printable(p.get("cards_left", "")))]
        if compact:
            table.add_row(Text(label, style=style), Text(ident), *cells, Text(equipment), Text(rec))
        else:
            table.add_row(Text(label, style=style), Text(ident), *cells, Text(rec), Text(equipment))
    return table


def pending_text(obs: Obs, names: Names = None, lang: str = "en") -> str | None:
    """The contest waiting for an answer (or the supply (a) under way), in words; None
    when there is none."""
    p = obs.get("pending")
    me = obs.get("seat")
    sup = _supplying(obs)
    if not p and sup:
        return t("pending.supply", lang, actor=seat_label(sup.get("seat"), names, me, lang),
                 cards=cards_text(sup.get("cards", []), lang), v=sup.get("v", "?"), left=sup.get("left", "?"))
    if not p:
        return None
    return t(f"pending.{p['contest']}", lang, actor=seat_label(p["actor"], names, me, lang),
             target=seat_label(p["target"], names, me, lang), cards=cards_text(p.get("cards", []), lang),
             weapon=_weapon(p.get("weapon", False), lang), total=pending_total_text(obs, lang))


def pending_total_text(obs: Obs, lang: str = "en", short: bool = False) -> str:
    """``: 3×1 + 13×7 = 94`` — the pending attack's total (:func:`pending_total`), or a
    note that it cannot be computed; empty for a contest without a total (a discard)."""
    p = obs.get("pending") or {}
    if p.get("contest") not in ("attack", "defense"):
        return ""
    total = pending_total(obs)
    if total is None or total.total is None:
        return t("pending.total_unknown_short" if short else "pending.total_unknown", lang)
    return t("pending.total", lang, formula=total.total.formula)


def status_text(obs: Obs, names: Names = None, lang: str = "en") -> str:
    """Whose move it is: ``Your turn``, ``Your turn: answer the attack of seat 1`` (or
    ``defend against …``),
    ``Waiting for seat 3 (Carol)`` or ``Game over``."""
    me = obs.get("seat")
    to_move = obs.get("to_move")
    if obs.get("result") is not None or to_move is None:
        return t("status.over", lang)
    if me is not None and to_move == me:
        p = obs.get("pending")
        if p:
            return t(f"status.answer.{p['contest']}", lang, actor=seat_label(p["actor"], names, me, lang))
        return t("status.your_turn", lang)
    return t("status.waiting", lang, who=seat_label(to_move, names, me, lang))


_LOG_STYLE = {"contest": "yellow", "discard": "yellow", "round": "bold", "end": "bold green"}


def _log_text(events: Sequence[Mapping[str, Any]], me: int | None, names: Names, lang: str,
              short: bool = False) -> Text:
    text = Text()
    lines = []
    for e in events:
        line = describe_event(e, names, me, lang, short)
        if line:
            lines.append((line, involves(e, me), _LOG_STYLE.get(e.get("kind"), "")))
    for k, (line, mine, style) in enumerate(lines):
        if k:
            text.append("\n")
        if mine:
            text.append(MINE_MARK + line, style="bold cyan")
        else:
            text.append(line, style=style)
    if not lines:
        text.append(t("log.empty", lang), style="dim")
    return text


def render_log(obs: Obs, names: Names = None, lang: str = "en", limit: int = LOG_LIMIT,
               events: Sequence[Mapping[str, Any]] | None = None, compact: bool = False,
               minimum: int = 4) -> RenderableType:
    """The outcomes since the viewer's last move (at most ``limit``; contest formulas
    highlighted, the viewer's own outcomes marked ``»``), oldest first. ``events``: the
    seat's event history (default: the observation's log tail)."""
    me = obs.get("seat")
    source = list(events if events else (obs.get("log") or []))
    pending = obs.get("pending")
    if pending and source and source[-1].get("kind") == "play" and source[-1].get("actor") == pending.get("actor"):
        source.pop()  # the play waiting for its answer is shown as the pending contest
    shown, since, hidden = recent_window(source, me, limit, minimum)
    text = _log_text(shown, me, names, lang, short=compact)
    if hidden:
        text = Text.assemble((tn("log.hidden", hidden, lang), "dim"), "\n", text)
    title = t("log.since" if since else "log.title", lang)
    if compact:
        return Group(Text(title, style="yellow"), text)
    return Panel(text, title=title, title_align="left", border_style="yellow")


#: How the moves are listed, most spelled out first: one per line in words
#: (``lines``), in columns in words (``columns``), grouped by target with each move's
#: formula (``grouped``), a table of targets × cards with the totals on top
#: (``matrix``), or grouped with each move's total only (``tight``).
MOVE_LAYOUTS = ("lines", "columns", "grouped", "matrix", "tight")


def _prompt_hint(n: int, lang: str, legend: str = "", short: bool = False) -> Text:
    key = ("legal.prompt_one" if n == 1 else "legal.prompt") + ("_short" if short else "")
    return Text(t(key, lang, n=n) + legend, style="dim")


def _matrix(actions: Sequence[Action], obs: Obs, names: Names, lang: str) -> RenderableType | None:
    """Moves at targets as a table: one column per card (and one per card + weapon),
    the seat's total for each on top, one row per target with the move numbers; None
    when the moves do not form such a table (fewer than two targets, or targets with
    different card choices)."""
    me = obs.get("seat")
    groups: dict[tuple[str, int], dict[tuple[tuple[int, ...], bool], tuple[int, Action]]] = {}
    others: list[tuple[int, Action]] = []
    for k, a in enumerate(actions, 1):
        if a.kind in (A.ATTACK, A.DEFENSE, A.DISCARD) and a.target is not None:
            groups.setdefault((a.kind, a.target), {})[(a.cards, a.weapon)] = (k, a)
        else:
            others.append((k, a))
    if len(groups) < 2:
        return None
    columns = list(next(iter(groups.values())))
    if any(set(g) != set(columns) for g in groups.values()):
        return None
    table = Table(box=None, pad_edge=False, padding=(0, 0, 0, 1), show_edge=False, header_style="bold")
    table.add_column("", no_wrap=True)
    for cards, weapon in columns:
        table.add_column(t("item.weapon", lang) if weapon else cards_text(cards, lang, "+"), justify="right",
                         no_wrap=True, min_width=3)

    def totals(group: Mapping[Any, tuple[int, Action]]) -> list[str]:
        return [total_text(own_total(group[c][1], obs), lang, short=True).lstrip("=") for c in columns]

    rows = {key: tuple(totals(g)) for key, g in groups.items()}
    tally: dict[tuple[str, ...], int] = {}
    for r in rows.values():
        tally[r] = tally.get(r, 0) + 1
    common = max(tally, key=lambda r: tally[r])  # the totals most targets share, on top
    if any(common):
        table.add_row(Text(t("matrix.total", lang), style="dim"), *[Text(x, style="dim") for x in common])
    for (kind, target), group in groups.items():
        table.add_row(Text(t(f"matrix.{kind}", lang, target=seat_label(target, names, me, lang))),
                      *[Text(str(group[c][0]), style="bold") for c in columns])
        if rows[(kind, target)] != common and any(rows[(kind, target)]):  # e.g. a target of the same identity
            table.add_row(Text("  " + t("matrix.total_here", lang), style="dim"),
                          *[Text(x, style="dim") for x in rows[(kind, target)]])
    parts: list[RenderableType] = [table]
    parts.extend(Text.assemble((f"{k:>2}. ", "bold"), describe_action(a, obs, names, lang)) for k, a in others)
    return Group(*parts)


def render_actions(legal: Sequence[Action | Mapping[str, Any]], obs: Obs, names: Names = None,
                   lang: str = "en", layout: str | None = None, compact: bool = False) -> RenderableType:
    """The legal actions numbered from 1 in the host's order, each with the total it
    comes to, and the input hint. ``layout`` (see :data:`MOVE_LAYOUTS`; default: one
    per line up to 8 moves, else columns, or ``matrix``/``tight`` when ``compact``):
    ``grouped`` and ``tight`` list the moves under one line per target (``attack seat
    2:  1) 10♠ =60  2) 10♠+W =108``); ``matrix`` is a table of targets × cards with
    the totals on top. ``compact``: no border, a shorter hint."""
    actions = [_action_fields(a) for a in legal]
    n = len(actions)
    if layout is None:
        layout = "lines" if n <= 8 else ("matrix" if compact else "columns")
    body: RenderableType | None = _matrix(actions, obs, names, lang) if layout == "matrix" else None
    if layout == "matrix" and body is None:
        layout = "tight"
    marks = []
    if layout in ("lines", "columns"):
        items = [Text.assemble((f"{k:>2}. ", "bold"), describe_action(a, obs, names, lang))
                 for k, a in enumerate(actions, 1)]
        if layout == "lines":
            body = Group(*items)
        else:
            cols = 2 if n <= 30 else 3
            grid = Table.grid(padding=(0, 3))
            rows = -(-n // cols) if n else 0
            for _ in range(cols):
                grid.add_column()
            for r in range(rows):
                grid.add_row(*[items[c * rows + r] if c * rows + r < n else Text("") for c in range(cols)])
            body = grid
    elif layout in ("grouped", "tight"):
        full = layout == "grouped"
        groups: dict[Any, tuple[str | None, list[Text]]] = {}
        for k, a in enumerate(actions, 1):
            key, label = _group_of(a, obs, names, lang)
            if label is None:
                groups[key] = (None, [Text.assemble((f"{k:>2}. ", "bold"), describe_action(a, obs, names, lang))])
                continue
            groups.setdefault(key, (label, []))[1].append(
                Text.assemble((f"{k})", "bold"), " ", _item_text(a, obs, lang, full)))
        rows_out: list[RenderableType] = []
        for label, items in groups.values():
            if label is None:
                rows_out.extend(items)
            else:
                rows_out.append(Text(label, style="bold"))
                rows_out.append(Columns(items, padding=(0, 2)))
        body = Group(*rows_out)
    if layout in ("tight", "matrix"):
        if any(a.weapon for a in actions):
            marks.append(t("legal.legend_weapon", lang))
        if layout == "tight" and any(own_total(a, obs) is not None for a in actions):
            marks.append(t("legal.legend_total", lang))
    legend = "".join(" · " + m for m in marks)
    assert body is not None
    hint = _prompt_hint(n, lang, legend, short=compact)
    if compact:
        return Group(body, hint)
    return Panel(Group(body, hint), title=t("legal.title", lang), title_align="left", border_style="green")


def timer_text(seconds_left: float | None, lang: str = "en") -> Text | None:
    """``⏱ 23 s left`` (red under 10 s, ``time is up`` at 0); None without a timer."""
    if seconds_left is None:
        return None
    if seconds_left <= 0:
        return Text(t("timer.up", lang), style="bold red")
    secs = int(seconds_left + 0.999)
    return Text(t("timer.left", lang, s=secs), style="bold red" if secs < 10 else "bold")


def _chat_fields(line: ChatLine) -> tuple[Any, Any, Any]:
    if isinstance(line, str):
        return None, None, line
    if isinstance(line, Mapping):
        return line.get("seat"), line.get("name"), line.get("text", "")
    if isinstance(line, (tuple, list)) and len(line) == 2:
        return None, line[0], line[1]
    return getattr(line, "seat", None), getattr(line, "name", None), getattr(line, "text", str(line))


def chat_line_text(line: ChatLine, lang: str = "en", me: int | None = None) -> str:
    """One chat line as ``name: text``; accepts a string, ``(name, text)`` or a mapping
    (or object) with ``name``/``text``/``seat``. A None/empty name is the host; bot
    names are translated (:func:`display_name`), and the viewer's own lines
    (``seat == me``) under the placeholder name ``you`` read ``你：…`` in Chinese."""
    if isinstance(line, str):
        return printable(line)
    seat, name, text = _chat_fields(line)
    if me is not None and seat == me and (not name or _is_you(name)):
        who = t("you", lang)
    else:
        who = display_name(name, lang) if name else t("chat.host", lang)
    return t("chat.line", lang, name=who, text=printable(text))


def notice_text(notice: Any, lang: str = "en") -> str:
    """A host notice in the viewer's language: a string as is, or ``(code, text)`` /
    a mapping / an object with ``code`` and ``text`` translated by code."""
    if isinstance(notice, str):
        return printable(notice)
    if isinstance(notice, Mapping):
        code, text = notice.get("code", ""), notice.get("text", "")
    elif isinstance(notice, (tuple, list)) and len(notice) == 2:
        code, text = notice
    else:
        code, text = getattr(notice, "code", ""), getattr(notice, "text", str(notice))
    args = getattr(notice, "args", None)
    if isinstance(args, Mapping) and code == "welcome-back":
        return tn("notice.welcome-back", int(args.get("moves") or 0), lang, seat=args.get("seat"))
    if isinstance(args, Mapping) and f"notice.{code}" in MESSAGES:
        try:
            return t(f"notice.{code}", lang, text=text or "", **args).strip()
        except (KeyError, IndexError, ValueError):
            pass
    key = f"notice.{code}"
    return t(key if key in MESSAGES else "notice.other", lang, text=printable(text or "")).strip()


def ranking_rows(ranking: Sequence[int], names: Names = None, me: int | None = None, lang: str = "en",
                 cards_left: Sequence[int] | Mapping[int, int] | None = None,
                 recovered: Sequence[int] | Mapping[int, int] | None = None) -> list[str]:
    """The final places in words: ``1. seat 1 (Bob): 0 cards left, 2 recovered``
    (without counts when they are not known)."""
    def at(values: Any, s: int) -> Any:
        if values is None:
            return None
        if isinstance(values, Mapping):
            return values.get(s)
        return values[s] if 0 <= s < len(values) else None

    rows = []
    for place, s in enumerate(ranking, 1):
        who = seat_label(s, names, me, lang)
        left, rec = at(cards_left, s), at(recovered, s)
        if left is None:
            rows.append(t("result.row_plain", lang, place=place, who=who))
        else:
            rows.append(t("result.row", lang, place=place, who=who, left=tn("cards_left", left, lang),
                          recovered=0 if rec is None else rec))
    return rows


def render_result(obs: Obs, names: Names = None, lang: str = "en", compact: bool = False) -> RenderableType | None:
    """Final ranking panel once the game is over; None before."""
    result = obs.get("result")
    if not result:
        return None
    me = obs.get("seat")
    players = {p.get("seat"): p for p in obs.get("players", [])}
    text = Text()
    title = t("status.over", lang) + " · " + t("result.title", lang)
    if result.get("winner") is not None:
        won = t("result.winner", lang, who=seat_label(result["winner"], names, me, lang))
        if compact:  # one line: game over, who won
            title = t("status.over", lang) + " · " + won
        else:
            text.append(won + "\n", style="bold green")
    rows = ranking_rows(result.get("ranking") or [], names, me, lang,
                        {s: p.get("cards_left", "?") for s, p in players.items()},
                        {s: len(p.get("recovered") or []) for s, p in players.items()})
    text.append("\n".join(rows))
    if compact:
        return Group(Text(title, style="bold green"), text)
    return Panel(text, title=title, title_align="left", border_style="green")


def _lines_panel(lines: Sequence[str], title: str, style: str, compact: bool = False) -> RenderableType:
    if compact:
        return Text(title + ": " + " · ".join(lines), style=style)
    return Panel(Text("\n".join(lines)), title=title, title_align="left", border_style=style)


# ---------------------------------------------------------------------- full views
def height_of(renderable: RenderableType, width: int) -> int:
    """How many terminal lines ``renderable`` takes at ``width`` columns."""
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False, emoji=False)
    return len(console.render_lines(renderable, console.options, pad=False))


def render_view(obs: Obs, *, legal: Sequence[Action | Mapping[str, Any]] = (), chat: Sequence[ChatLine] = (),
                notices: Sequence[Any] = (), seconds_left: float | None = None, names: Names = None,
                lang: str = "en", log_limit: int = LOG_LIMIT, chat_limit: int = 4,
                events: Sequence[Mapping[str, Any]] | None = None, width: int | None = None,
                height: int | None = None, compact: bool | None = None) -> RenderableType:
    """The whole screen of a seat (or of a spectator when ``obs["seat"]`` is None):
    header (round, round card and type, R), own identity/hand/equipment, the players
    table, the outcomes since the seat's last move with formulas, the final ranking once
    over, the pending contest and whose turn it is with the turn timer, the numbered
    legal actions with their totals, notices and chat.

    ``events``: the seat's event history (default: the observation's log tail).
    ``width``/``height``: the terminal's size. Below :data:`COMPACT_WIDTH` columns (or
    with ``compact``) the screen is compact; with a ``height`` the moves are laid out
    and the outcomes trimmed (the seat's own kept first) so that the screen fits in
    ``height`` lines, keeping the header, the hand and the players table."""
    if compact is None:
        compact = width is not None and width < COMPACT_WIDTH
    legal = [_action_fields(a) for a in legal]
    spectator = obs.get("seat") is None
    me = obs.get("seat")
    source = events if events else (obs.get("log") or [])
    over = bool(obs.get("result"))
    minimum = 4
    if over:  # the result panel says who won; the log shows at least the last contest
        source = [e for e in source if e.get("kind") != "end"]
        merged = _merged(source)
        contests = [k for k, e in enumerate(merged) if e.get("kind") == "contest"]
        if contests:
            minimum = max(minimum, len(merged) - contests[-1])

    head: list[RenderableType] = []
    if compact:
        head.append(render_header(obs, names, lang, compact=True))
    else:
        title = t("app.title", lang) + (" · " + t("header.spectator", lang) if spectator else "")
        head.append(Panel(render_header(obs, names, lang), title=title, title_align="left", border_style="bold"))
    if not spectator and not (over and compact):  # once over the ranking says what is left
        head.append(render_self(obs, lang, compact))
    head.append(render_players(obs, names, lang, compact))

    tail: list[RenderableType] = []
    result = render_result(obs, names, lang, compact)
    if result is not None:
        tail.append(result)
    pend = pending_text(obs, names, lang)
    my_turn = not spectator and result is None and obs.get("to_move") == me
    status = Text(status_text(obs, names, lang), style="bold reverse" if my_turn else "bold")
    pending = obs.get("pending")
    if pend and compact and my_turn and pending:  # one line: what to answer, and with what it came
        status.append(" ⚔ " + cards_text(pending.get("cards", []), lang) + _weapon(pending.get("weapon", False), lang)
                      + pending_total_text(obs, lang, short=True), style="bold red")
    elif pend and pending:
        tail.append(Text("⚔ " + pend, style="bold red"))
    elif pend:  # supply (a) under way
        tail.append(Text(pend, style="bold green"))
    timer = timer_text(seconds_left, lang)
    if timer is not None:
        status.append("   ")
        status.append_text(timer)
    if result is None:  # once over, the result's title says "Game over"
        tail.append(status)

    extras: list[RenderableType] = []
    if notices:
        extras.append(_lines_panel([notice_text(n, lang) for n in notices][-chat_limit:], t("notices.title", lang),
                                   "blue", compact))
    if chat:
        extras.append(_lines_panel([chat_line_text(c, lang, me) for c in chat][-chat_limit:], t("chat.title", lang),
                                   "magenta", compact))

    def log_part(limit: int) -> RenderableType:
        return render_log(obs, names, lang, limit, source, compact, minimum)

    layouts: Sequence[str | None] = [None]
    if legal and height is not None and width is not None:
        layouts = ["lines", "grouped", "matrix", "tight"] if compact else list(MOVE_LAYOUTS)
    elif legal and compact:
        layouts = ["matrix"] if len(legal) > 8 else ["lines"]
    moves: RenderableType | None = None
    if legal:
        moves = render_actions(legal, obs, names, lang, layouts[0], compact)
    if height is None or width is None:
        parts = [*head, log_part(log_limit), *tail]
        if moves is not None:
            parts.append(moves)
        return Group(*parts, *extras)

    # fit the screen into `height` lines: the first move layout that leaves room for a
    # few outcome lines, then as many outcomes (and chat) as fit
    fixed = sum(height_of(r, width) for r in head + tail)
    min_log = 3 if compact else 5
    if moves is not None:
        best: tuple[int, RenderableType] | None = None
        for layout in layouts:
            candidate = render_actions(legal, obs, names, lang, layout, compact)
            h = height_of(candidate, width)
            if fixed + h + min_log <= height:
                best = (h, candidate)
                break
            if best is None or h < best[0]:
                best = (h, candidate)
        assert best is not None
        fixed += best[0]
        moves = best[1]
        if fixed > height and compact:  # last resort: the line of special numbers and pile counts goes
            short_header = render_header(obs, names, lang, compact=True, numbers=False)
            fixed -= height_of(head[0], width) - height_of(short_header, width)
            head[0] = short_header
    room = height - fixed
    kept_extras = []
    for extra in reversed(extras):  # chat first, then notices, if there is room beyond the outcomes' minimum
        h = height_of(extra, width)
        if room - h >= min_log:
            kept_extras.insert(0, extra)
            room -= h
    parts = [*head]
    for limit in range(log_limit, 0, -1):
        log = log_part(limit)
        if height_of(log, width) <= room:
            parts.append(log)
            break
    parts.extend(tail)
    if moves is not None:
        parts.append(moves)
    return Group(*parts, *kept_extras)


def render_table(obs: Obs, *, names: Names = None, chat: Sequence[ChatLine] = (), notices: Sequence[Any] = (),
                 seconds_left: float | None = None, lang: str = "en", log_limit: int = 8,
                 width: int | None = None, height: int | None = None) -> RenderableType:
    """The spectator view of the table for the host screen, from ``observation(None)``:
    everything public (round, every player's counts, visible identities and equipment,
    last outcomes with formulas, result), no hand, no legal actions."""
    spectator = dict(obs)
    spectator["seat"] = None
    spectator["hand"] = []
    if width is None:  # laid out when printed, for the console's width (compact below COMPACT_WIDTH)
        return _AtWidth(lambda w: render_view(spectator, chat=chat, notices=notices, seconds_left=seconds_left,
                                              names=names, lang=lang, log_limit=log_limit, width=w,
                                              height=height if height is not None else None,
                                              compact=w < COMPACT_WIDTH))
    return render_view(spectator, chat=chat, notices=notices, seconds_left=seconds_left, names=names, lang=lang,
                       log_limit=log_limit, width=width, height=height)


class _AtWidth:
    """A renderable built when printed, from the width the console offers."""

    def __init__(self, build: Any) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: Any) -> Any:
        yield self.build(options.max_width)


def render_lobby(players: Sequence[Any], *, seat: int | None = None, phase: str = "lobby", host: str = "",
                 port: int = 0, join_code: str = "", total: int | None = None, chat: Sequence[ChatLine] = (),
                 notices: Sequence[Any] = (), lang: str = "en") -> RenderableType:
    """The screen before the deal: host address and join code, who is seated (ready,
    bot, away), and what is happening (connecting, waiting, fair shuffle).
    ``players`` are the lobby entries (objects or mappings with ``seat``, ``name``,
    ``ready``, ``bot``, ``connected``)."""
    def field_of(p: Any, name: str, default: Any = None) -> Any:
        return p.get(name, default) if isinstance(p, Mapping) else getattr(p, name, default)

    rows = Text()
    entries = sorted((p for p in players if p is not None), key=lambda p: field_of(p, "seat", 0))
    by_seat = {field_of(p, "seat"): p for p in entries}
    order: list[Any] = list(entries)
    if total:  # every seat, empty ones included (as ClientView.seats: None = empty)
        order = [by_seat.get(s, s) for s in range(total)]
    for k, p in enumerate(order):
        if k:
            rows.append("\n")
        if isinstance(p, int):
            rows.append(t("seat", lang, n=p), style="dim")
            rows.append("  " + t("lobby.open", lang), style="dim")
            continue
        s = field_of(p, "seat")
        name = display_name(field_of(p, "name") or "", lang)
        tags = [t("lobby.bot", lang)] if field_of(p, "bot") else []
        if field_of(p, "ready"):
            tags.append(t("lobby.ready", lang))
        if not field_of(p, "connected", True):
            tags.append(t("lobby.away", lang))
        if s == seat:
            plain = not name or _is_you(name)
            label = t("seat.you", lang, n=s) if plain else t("seat.you_named", lang, n=s, name=name)
        else:
            label = t("seat.named", lang, n=s, name=name) if name else t("seat", lang, n=s)
        rows.append(label, style="bold cyan" if s == seat else "bold")
        if tags:
            rows.append("  " + " · ".join(tags), style="dim")
    if not order:
        rows.append(t("lobby.empty", lang), style="dim")
    head = Text()
    if host:
        head.append(t("lobby.host", lang, host=host, port=port, code=join_code or "?") + "\n", style="dim")
    if total:
        head.append(t("lobby.seats", lang, taken=len(entries), total=total))
        if len(entries) < total and phase in ("lobby", "connecting"):
            head.append(" · " + tn("lobby.waiting", total - len(entries), lang), style="yellow")
        head.append("\n")
    parts: list[RenderableType] = [
        Panel(Group(head, rows), title=t("app.title", lang) + " · " + t("lobby.title", lang), title_align="left",
              border_style="bold"),
        Text(t(f"phase.{phase}" if phase in ("connecting", "lobby", "seeding", "playing", "over") else "phase.lobby",
               lang), style="bold"),
    ]
    if notices:
        parts.append(_lines_panel([notice_text(n, lang) for n in notices][-3:], t("notices.title", lang), "blue"))
    if chat:
        parts.append(_lines_panel([chat_line_text(c, lang, seat) for c in chat][-4:], t("chat.title", lang), "magenta"))
    return Group(*parts)


def render_help(lang: str = "en") -> RenderableType:
    """The help panel: the keys, then how to play — round types, what each action does,
    the formulas (one line each) and what wins."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for key in ("win", "rounds", "symbols"):
        grid.add_row(t(f"help.{key}", lang), t(f"help.{key}.text", lang))
    for kind in ("attack", "defense", "supply", "discard"):
        grid.add_row(Text(round_type_text(kind, lang), style=_TYPE_STYLE[kind]), t(f"help.{kind}", lang))
        if f"help.{kind}.formula" in MESSAGES:
            grid.add_row("", Text(t(f"help.{kind}.formula", lang), style="bold"))
    for key in ("equipment", "last"):
        grid.add_row(t(f"help.{key}", lang), t(f"help.{key}.text", lang))
    body = Group(Text(t("help.keys", lang), style="dim"), grid)
    return Panel(body, title=t("help.title", lang) + " · " + t("help.play_title", lang), title_align="left",
                 border_style="blue")


# ------------------------------------------------------------------- end of a game
def game_end_lines(result: Any, lang: str = "en", with_ranking: bool = True) -> list[tuple[str, str, bool]]:
    """How a game ended, as lines ``(text, style, keep_whole)`` for ``jupai play`` and
    ``jupai join`` alike: the final ranking (with cards left and recovered cards when
    known) or why the game did not finish, the fairness verdict, and where the
    transcript is with the command to check it again. ``keep_whole`` lines (a file
    path, a command) must be printed without wrapping so they can be copied.

    ``result`` is a :class:`jupai_net.client.session.SessionResult` (or any object with
    its fields)."""
    lines: list[tuple[str, str, bool]] = []
    status = getattr(result, "status", "")
    ranking = list(getattr(result, "ranking", None) or [])
    me = getattr(result, "seat", None)
    end = getattr(result, "result", None) or {}
    names: Any = getattr(result, "names", None) or {}
    if not names and end.get("names"):
        names = {s: n for s, n in enumerate(end["names"]) if n}
    view = getattr(result, "view", None)
    obs = getattr(view, "observation", None) or {}
    players = {p.get("seat"): p for p in obs.get("players") or ()}
    cards_left = end.get("cards_left") or ({s: p.get("cards_left") for s, p in players.items()} or None)
    recovered = {s: len(p.get("recovered") or []) for s, p in players.items()} or None
    if ranking and not with_ranking:  # the final screen above already shows the ranking
        pass
    elif ranking:
        lines.append((t("end.ranking", lang), "bold", False))
        for row in ranking_rows(ranking, names, me, lang, cards_left, recovered):
            lines.append(("  " + row, "", False))
    elif status != "finished":
        error = getattr(result, "error", None)
        why = t(f"end.status.{status}", lang) if f"end.status.{status}" in MESSAGES else status
        if error and error[1]:
            why += ": " + printable(error[1])
        lines.append((t("end.unfinished", lang, why=why), "bold yellow", False))
    verdict = getattr(result, "verdict", None)
    if verdict is not None:
        word = t(f"verdict.{verdict.status}", lang) if f"verdict.{verdict.status}" in MESSAGES else verdict.status
        reason = printable(verdict.reason)
        key = f"verdict.sentence.{verdict.status}"
        sentence = t(key, lang) if key in MESSAGES and lang != "en" else ""
        if sentence:  # a sentence in the player's language, the technical detail after it
            reason = f"{sentence}（{reason}）" if reason else sentence
        lines.append((t("end.verdict_ok" if verdict.ok else "end.verdict_bad", lang, status=word,
                        reason=reason), "bold green" if verdict.ok else "bold red", False))
    path = getattr(result, "transcript_path", None)
    if path is not None:
        lines.append((t("end.transcript", lang), "", False))
        lines.append((f"  {path}", "bold", True))
        lines.append((t("end.verify", lang), "", False))
        lines.append((f"  {verify_command()} {shell_quote(str(path))}", "bold", True))
    return lines


def verify_command() -> str:
    """How the user can run ``jupai verify`` from the shell: ``jupai verify`` when the
    ``jupai`` on PATH is the running program, else the running ``jupai`` script by its
    absolute path, else ``python -m jupai_net verify`` with this interpreter."""
    import os
    import shutil
    import sys

    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    found = shutil.which("jupai")
    if found and argv0 and os.path.realpath(found) == os.path.realpath(shutil.which(argv0) or argv0):
        return "jupai verify"
    if argv0 and os.path.basename(argv0) == "jupai" and os.path.exists(argv0):
        return shell_quote(os.path.abspath(argv0)) + " verify"
    return shell_quote(sys.executable) + " -m jupai_net verify"


def shell_quote(arg: str) -> str:
    """``arg`` quoted for the user's shell, so a command with it works when pasted:
    POSIX shells get :func:`shlex.quote` (``'/home/Ann Lee/t.jupai'``), Windows
    ``cmd``/PowerShell double quotes (:func:`subprocess.list2cmdline`)."""
    import os

    if os.name == "nt":  # pragma: no cover - tested on POSIX
        import subprocess

        return subprocess.list2cmdline([arg])
    import shlex

    return shlex.quote(arg)


def to_text(renderable: RenderableType, width: int = 120) -> str:
    """Render to plain text (no colour, no terminal), e.g. for tests."""
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False, emoji=False)
    console.print(renderable)
    return console.export_text()
