"""Log events in words (specs/client.md § Since your last turn): each event with its
formulas and outcome, the merging of a play into its contest and of a supply (a) into
one line, and which events are "since your last turn". Used by every screen, the
``--plain`` player, the host console and ``jupai replay``. No rich, no IO."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from jupai_net.engine import game_winner
from jupai_net.printable import printable

from .card_words import Names, Obs, card_text, cards_text, identity_text, round_type_text, seat_label, weapon_text
from .i18n import t
from .win_words import game_win_text

#: At most this many outcome lines are shown (the ones since the player's last turn).
LOG_LIMIT = 10

#: Marks an outcome line the viewer took part in.
MINE_MARK = "» "


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
    ca = cards_text(a["cards"], lang) + weapon_text(bool(a.get("weapon")), lang)
    cd = cards_text(d["cards"], lang) + weapon_text(bool(d.get("weapon")), lang)
    return t("ev.contest", lang, a=who_a, ca=ca, fa=fa, d=who_d, cd=cd, fd=fd, result=res)


def describe_event(event: Mapping[str, Any], names: Names = None, me: int | None = None,
                   lang: str = "en", short: bool = False) -> str | None:
    """One log event (``Event.to_wire``) in words; contests give their formulas
    (``short``: without the weapon-use details). The same words on every screen, whole:
    a screen wraps them, never cuts them (specs/client.md § Fitting the screen).
    Unknown kinds give None (skipped)."""
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
                 cards=cards_text(event["cards"], lang), weapon=weapon_text(event.get("weapon", False), lang))
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
            text += t("colon", lang) + t("ev.drew", lang, equipment=cards_text(event["equipment"], lang))
        return text
    if kind == "pass":
        if event.get("option") == "a":
            return t("ev.supply_a_stop", lang, actor=who(event["seat"]))
        return t("ev.pass", lang, actor=who(event["seat"]), type=round_type_text(event.get("round_type", ""), lang))
    if kind == "rearm":
        text = t("ev.rearm", lang, actor=who(event["seat"]))
        if event.get("equipment"):
            text += t("colon", lang) + t("ev.drew", lang, equipment=cards_text(event["equipment"], lang))
        return text
    if kind == "end":
        won = game_win_text(event.get("ranking"), event.get("winner"), who, lang)  # specs/rules.md § 8
        return t("ev.end.winner", lang, winner=won) if won is not None else t("ev.end.rounds", lang)
    return None


def merged_events(events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
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


def log_events(obs: Obs) -> list[Mapping[str, Any]]:
    return merged_events(obs.get("log") or [])


def involves(event: Mapping[str, Any], seat: int | None) -> bool:
    """True when ``seat`` acted in ``event`` or was its target (its own outcomes)."""
    if seat is None:
        return False
    kind = event.get("kind")
    if kind in ("play", "contest", "discard"):
        return seat in (event.get("actor"), event.get("target"))
    if kind in ("supply", "pass", "rearm"):
        return event.get("seat") == seat
    if kind == "end":  # the winner's own outcome, by the one rule (specs/rules.md § 8)
        return game_winner(event.get("ranking")) == seat
    return False


def acted(event: Mapping[str, Any], seat: int) -> bool:
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
    evs = merged_events(events)
    start, since = max(0, len(evs) - minimum), False
    if me is not None:
        for k in range(len(evs) - 1, -1, -1):
            if acted(evs[k], me):
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
    lines = [describe_event(e, names, me, lang) for e in log_events(obs)]
    return [line for line in lines if line][-limit:]
