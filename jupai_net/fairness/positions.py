"""Which deck positions may be opened to a seat, checked the moment a statement arrives
(issue 7 item 5; specs/fairness.md §5.4, §8).

The deck layout is fixed (:mod:`jupai_net.setup`): positions ``2s``, ``2s+1`` are seat
``s``'s first equipment, then each seat's hand, then the round pile, then the stock. The
engine (:mod:`jupai_net.engine`) shows a seat a card privately in two ways only: the deal
(its equipment and hand) and a face-down draw of a stock pair (``_draw_pair``: the
``rearm`` action, or supply option (b) with ``face_up`` false); the stock is drawn two
cards at a time from the top, only by those two actions of the seat to move. So a
seat's witness knows from the rules and the public events alone, without the deck:

* at the ``deal``: exactly its own equipment and hand positions are opened to it, each
  privately; the only public opening is the first round card (the top of the round pile);
* at a ``step``: each draw event (``rearm``, or ``supply`` with ``option`` ``"b"``), in
  event order, takes the lowest two stock positions not drawn yet, by the step's
  ``actor``; the step opens privately to this seat exactly the pairs this seat drew face
  down; a face-up pair is opened publicly; a pair another seat drew face down is opened
  to nobody here.

Anything else opened privately — another seat's equipment or hand, a round card, a stock
pair another seat drew — and any due position left unopened is refused at once. The
public openings of played cards are left to the replay after the game (§9). Pure: no
engine, no IO.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..messages.verdicts import said
from ..rules import RuleSet
from ..setup import hand_positions, round_pile_positions, stock_start


def own_positions(rules: RuleSet, seat: int) -> frozenset[int]:
    """Deck positions dealt to ``seat``: its equipment (``2s``, ``2s+1``) and its hand."""
    return frozenset((2 * seat, 2 * seat + 1, *hand_positions(rules, seat)))


def owner_of(rules: RuleSet, position: int) -> str:
    """Who deck ``position`` is dealt to, in words for a reason: ``"seat 1's hand"``,
    ``"seat 0's equipment"``, ``"the round pile"`` or ``"the stock"`` (:func:`owner_said`
    in English)."""
    from ..messages.verdicts import verdict_sentence

    owner = owner_said(rules, position)
    return verdict_sentence(owner["code"], owner["args"], "en")


def owner_said(rules: RuleSet, position: int) -> dict[str, Any]:
    """:func:`owner_of` as a reason's nested arg (``{"code", "args"}``, said in every
    language by :mod:`jupai_net.messages.verdicts`)."""
    players = rules.players
    if position < 2 * players:
        return said("owner_equipment", {"seat": position // 2})
    if position < round_pile_positions(rules).start:
        return said("owner_hand", {"seat": (position - 2 * players) // rules.hand_size})
    if position < stock_start(rules):
        return said("owner_round_pile")
    return said("owner_stock")


def stock_draw(event: Any) -> tuple[Any, bool] | None:
    """``(seat, face_up)`` when ``event`` (an event's wire map) draws a pair from the
    stock, else ``None``: ``rearm`` (always face down) or ``supply`` with ``option ==
    "b"`` (face up when its ``face_up`` is true)."""
    if type(event) is not dict and not isinstance(event, Mapping):
        return None
    kind = event.get("kind")
    if kind == "rearm":
        return event.get("seat"), False
    if kind == "supply" and event.get("option") == "b":
        return event.get("seat"), event.get("face_up") is True
    return None


class PositionRule:
    """The positions due to ``seat`` (a seat of ``rules``), followed statement by
    statement. :meth:`deal` and :meth:`step` return ``None`` when a statement's openings
    are the due ones, else ``(position, reason)``: the first position opened that may
    not be (or due and missing) and why, a reason's code and args (``{"code",
    "args"}``: :func:`jupai_net.messages.verdicts.verdict_sentence` says it)."""

    def __init__(self, rules: RuleSet, seat: int):
        self.rules = rules
        self.seat = seat
        self.own = own_positions(rules, seat)
        #: The top stock position not drawn yet.
        self.next_stock = stock_start(rules)

    def deal(self, private: Iterable[int], public: Iterable[int]) -> tuple[int, dict[str, Any]] | None:
        """Check the positions of the ``deal`` statement's ``private`` and ``public`` openings."""
        private, public = set(private), set(public)
        for k in sorted(private - self.own):
            return k, said("pos_not_own", {"position": k, "owner": owner_said(self.rules, k)})
        for k in sorted(self.own & public):
            return k, said("pos_own_public", {"position": k})
        for k in sorted(self.own - private):
            return k, said("pos_own_missing", {"position": k})
        first_round = round_pile_positions(self.rules).start
        for k in sorted(public - {first_round}):
            return k, said("pos_only_round_card", {"position": k, "owner": owner_said(self.rules, k), "first": first_round})
        if first_round not in public:
            return first_round, said("pos_round_card_missing", {"position": first_round})
        return None

    def step(self, actor: Any, events: Iterable[Any], private: Iterable[int],
             public: Iterable[int]) -> tuple[int, dict[str, Any]] | None:
        """Check a ``step`` statement (its ``actor``, its ``events`` as this seat sees
        them, the positions of its ``private`` and ``public`` openings) against the
        stock draws its events announce, and move past the drawn pairs."""
        mine: set[int] = set()  # drawn face down by this seat: private, due
        shown: set[int] = set()  # drawn face up: public, due
        hidden: dict[int, Any] = {}  # drawn face down by another seat: not shown here
        for event in events:
            draw = stock_draw(event)
            if draw is None:
                continue
            who, face_up = draw
            pair = (self.next_stock, self.next_stock + 1)
            if who != actor:
                return pair[0], said("pos_wrong_drawer", {"drawer": repr(who), "actor": repr(actor)})
            self.next_stock += 2
            for k in pair:
                if face_up:
                    shown.add(k)
                elif who == self.seat:
                    mine.add(k)
                else:
                    hidden[k] = who
        private, public = set(private), set(public)
        if not private and not mine and not shown and (not public or not hidden):
            return None  # nothing drawn here, nothing opened to this seat alone (most steps)
        for k in sorted(private - mine):
            if k in hidden:
                return k, said("pos_hidden_private", {"position": k, "seat": hidden[k]})
            if k >= stock_start(self.rules):
                return k, said("pos_stock_not_drawn", {"position": k})
            return k, said("pos_never_alone", {"position": k, "owner": owner_said(self.rules, k)})
        for k in sorted(public & set(hidden)):
            return k, said("pos_hidden_public", {"position": k, "seat": hidden[k]})
        for k in sorted(mine - private):
            return k, said("pos_mine_missing", {"position": k})
        for k in sorted(shown - public):
            return k, said("pos_shown_missing", {"position": k})
        return None


__all__ = ["PositionRule", "own_positions", "owner_of", "stock_draw"]
