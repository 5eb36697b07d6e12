"""What the cards, seats, identities and equipment are called on screen, in the
viewer's language (specs/client.md § What the player sees). Words only: plain strings,
no rich renderables, no IO. Every screen, the host console and ``jupai replay`` name
things with these functions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from jupai_net.cards import SMALL_JOKER, card_name
from jupai_net.printable import printable

from .i18n import MESSAGES, t, tn

#: Player names by seat: a mapping ``seat -> name`` or a list indexed by seat (or None).
Names = Mapping[int, str] | Sequence[str] | None
#: An observation: ``GameState.observation(seat)`` as plain data (after msgpack).
Obs = Mapping[str, Any]

#: The four round types (specs/rules.md §4), in the order the rules give them.
ROUND_TYPES = ("attack", "defense", "supply", "discard")


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


def shown_names(names: Names, lang: str = "en") -> tuple[str, ...]:
    """Every player's name of ``names`` as shown (:func:`display_name`): the strings a
    line is never broken inside (:mod:`jupai_net.linebreak`)."""
    who = names.values() if isinstance(names, Mapping) else (names or ())
    return tuple(dict.fromkeys(display_name(n, lang) for n in who if isinstance(n, str) and n))


def is_you(name: str) -> bool:
    """True for a name that only says "you" (the old default name), in any language."""
    return name.strip().casefold() in (t("you", "en").casefold(), t("you", "zh"))


def name_of(names: Names, seat: int) -> str | None:
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
    name = name_of(names, seat)
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
    return t(f"round.{kind}", lang) if kind in ROUND_TYPES else kind


def equipment_text(eq: Mapping[str, Any] | None, lang: str = "en", rearm: int | str | None = None,
                   short: bool = False, compact: bool = False) -> str:
    """One equipment as far as it is visible: ``mass 6♠ + weapon 8♥ · fine weapon · 2 uses
    left · face-down`` (``short``: ``6♠+8♥ fine · 2 left · face-down``; ``compact``:
    ``6♠+8♥ · 2 left · down``); a face-down pair whose cards were shown to all
    (``eq["shown"]``, public knowledge) says ``face-down, shown to all`` (compact: ``seen``)
    instead of ``face-down``; hidden
    cards give ``face-down, not shown``; None → ``no
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
    # what the viewer sees: face-up, or face-down but its cards shown to all (public), or
    # face-down and known to its owner only
    lies = "up" if up else "shown" if eq.get("shown") else "down"
    if compact:
        return t("equip.compact", lang, mass=card_text(eq["mass"], lang), weapon=weapon, uses="?" if n is None else n,
                 face=t(f"face.{lies}_short", lang))
    face = t(f"face.{lies}", lang)
    if short:
        return t("equip.short", lang, mass=card_text(eq["mass"], lang), weapon=weapon, quality=quality,
                 uses="?" if n is None else n, face=face)
    return t("equip.desc", lang, mass=card_text(eq["mass"], lang), weapon=weapon, quality=quality,
             uses=tn("uses_left", "?" if n is None else n, lang), face=face)


def weapon_text(flag: bool, lang: str) -> str:
    return t("plus_weapon", lang) if flag else ""


def player_of(obs: Obs, seat: int | None) -> Mapping[str, Any]:
    for p in obs.get("players") or ():
        if p.get("seat") == seat:
            return p
    return {}


def recovered_of(obs: Obs, seat: int | None) -> set[int]:
    return set(player_of(obs, seat).get("recovered") or []) if seat is not None else set()

def rearm_state(obs: Obs, player: Mapping[str, Any]) -> int | str | None:
    """When a player without equipment may draw a new pair (specs/rules.md §7):
    ``"now"`` once the round has come or in a supply round, whose move (b) is not bound
    by the wait (and the stock still holds a pair), else the round
    from which it may (if that round will be played), else None."""
    if player.get("equipment") is not None:
        return None
    r = player.get("rearm_from")
    if r is None:
        return None
    if (obs.get("stock") or 0) < 2:  # the stock never grows again
        return None
    if r <= (obs.get("round") or 0) or obs.get("round_type") == "supply":
        return "now"  # a supply round's move (b) draws a pair whatever the wait (rules.md § 7)
    return r if r <= (obs.get("rounds") or 0) else None
