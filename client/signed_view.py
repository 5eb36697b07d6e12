"""What the host signed, kept to check the unsigned screen data at once (issue 7 item 4;
specs/client.md § What is checked against the signed stream).

The host draws the player's screen from unsigned ``sync`` and ``prompt`` messages. The
signed statements (specs/fairness.md §6.2) fix the same facts: the initial view (the
``deal`` statement's ``observation``), every state version, every event as this seat
sees it, and every card opened to this seat. :class:`SignedFacts` keeps those and
checks each ``sync``/``prompt`` against them the moment it arrives; any difference is
a reason to stop the game as **tampered**. Pure: no IO.

Checked at once:

* a ``sync`` shows the state the signed stream has reached (``state_id`` = the last
  signed version, and the observation's ``version`` the same);
* at version 0 the observation equals the signed ``deal`` observation exactly;
* the observation's ``log`` equals the tail of the signed events;
* every card the observation shows (the hand, equipment, round card, discard pile,
  recovered cards, the pending contest's cards) was opened to this seat in a signed
  statement, and none is shown in two places; the hand has as many cards as the
  seat's ``hand_count``;
* a ``prompt`` is for the last signed version, while this seat is to move, and every
  card its legal actions name is in the checked hand (or, for recovered cards, among
  the seat's recovered cards).

What can only be checked with the whole deck (the rest of each later observation) is
compared after the game by replaying it (:func:`replay_observations`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgpack

from jupai_net.messages.verdicts import said
from jupai_net.actions import Action


def normalize(value: Any) -> Any:
    """``value`` after a msgpack round trip (tuples become lists), as the signed bodies
    are compared (specs/fairness.md §9)."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False, strict_map_key=False)


def _shown_cards(obs: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Every (place, card id) the observation shows, each card at most once in an
    honest view (recovered cards are in their holder's hand: see :func:`_recovered`)."""
    out: list[tuple[str, int]] = []

    def add(place: str, cards: Iterable[Any]) -> None:
        for c in cards:
            if c is not None:
                out.append((place, c))

    add("hand", obs.get("hand") or ())
    if obs.get("round_card") is not None:
        add("round card", [obs["round_card"]])
    add("discard pile", obs.get("discard_pile") or ())
    for p in obs.get("players") or ():
        if not isinstance(p, Mapping):
            continue
        who = f"seat {p.get('seat')}"
        eq = p.get("equipment")
        if isinstance(eq, Mapping):
            add(f"{who} equipment", [eq.get("mass"), eq.get("weapon")])
    pending = obs.get("pending")
    if isinstance(pending, Mapping):
        add("pending contest", pending.get("cards") or ())
    return out


def _recovered(obs: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Every (``seat N recovered``, card id) of the observation."""
    return [(f"seat {p.get('seat')} recovered", c) for p in obs.get("players") or () if isinstance(p, Mapping)
            for c in p.get("recovered") or ()]


class SignedFacts:
    """The signed facts of one seat's game so far. Feed every decoded statement body
    (``Statement`` of :mod:`jupai_net.fairness.statements`, or its mapping) to
    :meth:`feed` in order; ask :meth:`check_sync` / :meth:`check_prompt` for every
    unsigned message. Each check returns ``None`` or the reason (a code and its args, said in every language by
    :mod:`jupai_net.messages.verdicts`)."""

    def __init__(self, seat: int | None, log_tail: int | None = None):
        from jupai_net.engine import LOG_TAIL

        self.seat = seat
        self.log_tail = LOG_TAIL if log_tail is None else log_tail
        self.version: int | None = None  # the last signed state version (None before the deal)
        self.events: list[Any] = []  # every event this seat was signed, in order
        self.deal_observation: Any = None
        self.steps: list[tuple[int, int, dict[str, Any]]] = []  # (version, actor, action wire)

    def feed(self, kind: str, body: Mapping[str, Any]) -> None:
        """Take a checked statement of ``kind`` with body ``body``."""
        if kind == "deal":
            self.version = 0
            self.deal_observation = normalize(body["observation"])
            self.events = list(normalize(body["observation"].get("log", [])))
        elif kind == "step":
            self.version = body["version"]
            self.events.extend(normalize(list(body["events"])))
            self.steps.append((body["version"], body["actor"], dict(body["action"])))

    def check_sync(self, state_id: int, obs: Any, opened: set[int]) -> dict[str, Any] | None:
        """Check a ``sync`` of state ``state_id`` showing ``obs``; ``opened``: every card
        id opened to this seat in a signed statement. The reason is a code and its args
        (``{"code", "args"}``, :mod:`jupai_net.messages.verdicts`)."""
        if self.version is None:
            return said("view_before_deal", {"state": state_id})
        if state_id != self.version:
            return said("view_other_state", {"state": state_id, "signed": self.version})
        if not isinstance(obs, Mapping):
            return said("view_not_map")
        if obs.get("version") != state_id:
            return said("view_says_state", {"found": repr(obs.get("version")), "state": state_id})
        if state_id == 0 and normalize(obs) != self.deal_observation:
            return said("view_deal_differs")
        log = normalize(list(obs.get("log") or []))
        want = self.events[-self.log_tail:] if self.log_tail else []
        if log != want:
            return said("view_events_differ")
        seen: dict[int, str] = {}
        for place, card in _shown_cards(obs) + _recovered(obs):
            if place.endswith("recovered") and card in opened:
                continue
            if card not in opened:
                return said("view_card_not_opened" if self.seat is not None else "view_card_not_opened_public",
                            {"card": repr(card), "place": place})
            if card in seen:
                return said("view_card_twice", {"card": card, "first": seen[card], "place": place})
            seen[card] = place
        if self.seat is not None:
            me = next((p for p in obs.get("players") or () if isinstance(p, Mapping) and p.get("seat") == self.seat), None)
            if me is None or me.get("hand_count") != len(obs.get("hand") or ()):
                return said("view_hand_count")
            if not set(me.get("recovered") or ()) <= set(obs.get("hand") or ()):
                return said("view_recovered")
        return None

    def check_prompt(self, state_id: int, legal: Sequence[Action], obs: Any) -> dict[str, Any] | None:
        """Check a ``prompt`` for state ``state_id`` against the signed version and the
        (checked) observation ``obs`` of that state."""
        if not legal:  # (an empty list is a dealer-blind prompt, specs/protocol.md §13, not checked here)
            return said("prompt_none", {"state": state_id})
        if self.version is None or state_id != self.version:
            return said("prompt_other_state", {"state": state_id, "signed": repr(self.version)})
        if not isinstance(obs, Mapping) or obs.get("version") != state_id:
            return None  # the sync of this state is still to come: checked then
        if obs.get("to_move") != self.seat:
            return said("prompt_not_to_move", {"state": state_id, "seat": obs.get("to_move")})
        hand = set(obs.get("hand") or ())
        me = next((p for p in obs.get("players") or () if isinstance(p, Mapping) and p.get("seat") == self.seat), {})
        recovered = set(me.get("recovered") or ())
        for a in legal:
            if not set(a.cards) <= hand or not set(a.recovered) <= recovered:
                return said("prompt_cards", {"move": f"{a.kind} {list(a.cards)}"})
        return None


def same_action(sent: Mapping[str, Any], signed: Mapping[str, Any]) -> bool:
    """True when the signed action is the one this seat sent (the engine may list the
    cards of a multi-card play in its own order)."""
    def key(a: Mapping[str, Any]) -> tuple[Any, ...]:
        return (a.get("kind"), a.get("target"), sorted(a.get("cards") or ()), bool(a.get("weapon")),
                sorted(a.get("recovered") or ()))
    return key(sent) == key(signed)


def replay_observations(rules: Any, deck: Sequence[int], setup: Any, actions: Sequence[Mapping[str, Any]],
                        seat: int | None, shown: Mapping[int, Any]) -> dict[str, Any] | None:
    """After the game, with the whole deck known: replay ``actions`` from the deal and
    compare every view the host showed (``shown``: state version → observation, as
    received in ``sync``) with the engine's ``observation(seat)`` of that state (``seat``
    None: a spectator's public view).
    Returns ``None`` or the reason of the first difference (a code and its args)."""
    from jupai_net.engine import GameState

    state = GameState.new(rules, deck, setup)
    for v in range(len(actions) + 1):
        if v > 0:
            state.apply(Action.from_wire(dict(actions[v - 1])))
        if v in shown and normalize(state.observation(seat)) != normalize(shown[v]):
            return said("view_replay_differs", {"state": v})
    return None


__all__ = ["SignedFacts", "normalize", "replay_observations", "same_action"]
