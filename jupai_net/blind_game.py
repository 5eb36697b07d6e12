"""The game on deck positions at a dealer-blind table (issue 9; specs/fairness.md B.16).

At a blind table nobody holds the deck: a card is known to a participant only once
its deck position was *opened* to it (B.7). So the host, and every seat's client, run
the rules engine (:mod:`jupai_net.engine`) on **positions** instead of card ids — the
engine's tokens (engine module docstring, "Tokens") — with a :class:`CardTable` that
holds the cards opened to this participant and raises :class:`HiddenCard` for any other
position. The host's table holds the public cards and its bots' cards; a seat's holds
the public cards and its own. Pure: no IO, no clock, no randomness.

Surface (``Opening = (position, to)``, ``to`` a seat or None = everyone)::

    game = BlindGame(rules, setup, viewer=None, bots=(2,))   # the host; viewer=s: seat s's client
    game.due()                        # [Opening]: the deal's openings, and after every step its draws,
                                      # the next round card and the cards the step made public
    game.reveal(q, to, card)          # record an opening (card=None: opened to another seat)
    game.resume()                     # [Event]: the round card once opened (round 1: after the deal)
    game.openings_for(action, seat)   # [Opening] still missing before `action` can be applied;
                                      # IllegalAction naming the seat when the claim is not legal
    game.apply(action, seat)          # [Event]: once openings_for(...) is []
    game.legal_actions()              # the viewer's legal moves (positions), from its own cards
    game.card_action(a) / game.position_action(a)   # between positions and card ids
    game.observation(seat)            # as GameState.observation, in positions (what the host sends)
    fill_observation(obs, table)      # the same with card ids (what a seat's screen shows)

Every participant computes ``due`` and ``openings_for`` itself from public information
alone (the deal layout, the public state, and the cards already made public), so they
agree at the host, at every seat and in the verifier.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import actions as A
from .actions import Action
from .cards import DECK_SIZE, RANKS, card_name
from .engine import Event, GameState, IllegalAction, _malformed
from .equipment import _QUALITY, _USES
from .rules import RuleSet
from .setup import Setup

Opening = tuple[int, "int | None"]

#: the rank a hidden card is read as while the legal list of a claim is built (no rank is -1)
_UNKNOWN = -1


class HiddenCard(LookupError):
    """The engine read the card at ``position``, which was not opened to this
    participant (specs/fairness.md B.16): at the host this is a blindness breach or a
    missing opening, never a card to guess."""

    def __init__(self, position: int):
        super().__init__(f"the card at deck position {position} is not open to this participant")
        self.position = position


class CardTable:
    """Card ids and ranks by deck position, as far as opened to this participant.

    ``table[q]`` is the rank 1..14 of position ``q`` (what the engine reads, as it reads
    :data:`~jupai_net.cards.RANKS` by card id) and raises :class:`HiddenCard` for a
    position not opened; :meth:`card` gives the card id. While ``lenient`` is set (only
    inside :meth:`BlindGameState._legal_form`) a hidden position reads as rank -1, which
    matches no identity value: the legal list is then exact for every known card.
    """

    __slots__ = ("_cards", "_ranks", "_where", "lenient", "masking")

    def __init__(self, cards: Mapping[int, int] | None = None, *, size: int = DECK_SIZE):
        self._cards: list[int | None] = [None] * size
        self._ranks: list[int | None] = [None] * size
        self._where: dict[int, int] = {}
        self.lenient = False
        #: set while an observation is built: equipment not open here shows no quality/uses
        self.masking = False
        for q, c in (cards or {}).items():
            self.reveal(q, c)

    def reveal(self, position: int, card: int) -> None:
        """Record that ``position`` holds ``card``. Opening a position again with the
        same card is a no-op; ``ValueError`` if it held another card, or if ``card``
        is already at another position (a deck that is not a permutation)."""
        if type(position) is not int or not 0 <= position < len(self._cards):
            raise ValueError(f"deck position {position!r} is not in 0..{len(self._cards) - 1}")
        if type(card) is not int or not 0 <= card < DECK_SIZE:
            raise ValueError(f"card id {card!r} is not in 0..{DECK_SIZE - 1}")
        old = self._cards[position]
        if old == card:
            return
        if old is not None:
            raise ValueError(f"deck position {position} was opened as {card_name(old)} and now as {card_name(card)}")
        if card in self._where:
            raise ValueError(f"{card_name(card)} was opened at deck positions {self._where[card]} and {position}")
        self._cards[position] = card
        self._ranks[position] = RANKS[card]
        self._where[card] = position

    def __getitem__(self, position: int) -> int:
        r = self._ranks[position]
        if r is None:
            if self.lenient:
                return _UNKNOWN
            raise HiddenCard(position)
        return r

    def __contains__(self, position: object) -> bool:
        return type(position) is int and 0 <= position < len(self._cards) and self._cards[position] is not None

    def __len__(self) -> int:
        return len(self._where)

    def card(self, position: int) -> int:
        """Card id at ``position``; :class:`HiddenCard` if not opened here."""
        c = self._cards[position]
        if c is None:
            raise HiddenCard(position)
        return c

    def position(self, card: int) -> int:
        """Deck position of ``card``; ``KeyError`` if no position opened here holds it."""
        return self._where[card]

    def known(self) -> frozenset[int]:
        """The positions opened here."""
        return frozenset(self._where.values())

    def cards(self) -> dict[int, int]:
        """``{position: card}`` of every position opened here (a copy)."""
        return {q: c for c, q in self._where.items()}


class BlindEquipment:
    """A seat's equipment as two positions (duck-types :class:`~jupai_net.equipment.Equipment`):
    the ranks ``m``/``w``, ``quality``, ``uses`` and ``uses_left`` are read from the
    table when asked, so they raise :class:`HiddenCard` until the mass (or weapon) is
    opened. The engine asks for them only when the rules show the cards (a weapon use,
    a different-identity discard's comparison, an observation of shown equipment)."""

    __slots__ = ("mass", "weapon", "shown", "face_up", "_table", "_used")

    def __init__(self, mass: int, weapon: int, shown: bool, table: CardTable):
        self.mass, self.weapon = mass, weapon
        self.shown = self.face_up = shown
        self._table = table
        self._used = 0

    @property
    def m(self) -> int:
        """Mass rank (§7)."""
        return self._table[self.mass]

    @property
    def w(self) -> int:
        """Weapon rank (§7)."""
        return self._table[self.weapon]

    @property
    def quality(self) -> str | None:
        """'simple', 'fine' or 'advanced' from the mass rank (None while an observation
        is built and the mass is not open here)."""
        if self._table.masking and self.mass not in self._table:
            return None
        return _QUALITY[self.m]

    @property
    def uses(self) -> int:
        """Full number of uses from the mass rank."""
        return _USES[self.m]

    @property
    def uses_done(self) -> int:
        """Uses made so far (known without the mass)."""
        return self._used

    @property
    def uses_left(self) -> int | None:
        """Uses left (needs the mass; None while an observation is built and the mass
        is not open here)."""
        if self._table.masking and self.mass not in self._table:
            return None
        return _USES[self.m] - self._used

    @uses_left.setter
    def uses_left(self, value: int) -> None:
        self._used = _USES[self.m] - value

    def __repr__(self) -> str:
        return f"BlindEquipment(mass=@{self.mass}, weapon=@{self.weapon}, used={self._used}, shown={self.shown})"


class BlindGameState(GameState):
    """:class:`~jupai_net.engine.GameState` on deck positions (specs/fairness.md B.16).

    The deck is ``range(53)`` (a token is its deck position); ranks come from a
    :class:`CardTable`. Differences from the trusted engine, all because a card may not
    be opened yet:

    * the round card's type and R are set, and its ``round`` event appended, only once
      the card is opened (:meth:`resume`); until then no action is taken;
    * an action is checked against a legal list built with hidden ranks read as -1
      (:class:`CardTable` ``lenient``), which is exact for actions whose cards are all
      open; :meth:`apply` refuses an action naming a card that is not open;
    * several cards played at once (the last round) are kept in card-id order once
      open, as the trusted engine keeps them, so both engines log the same events;
    * a seat's own equipment not opened here is shown in observations as its
      positions with ``quality``/``uses_left`` None (the seat's client fills them in);
    * ``to_move`` names the next round's leader while its round card waits, but
      :meth:`legal_actions` is [] and :meth:`apply` refuses until :meth:`resume`.
    """

    _round_due: int | None = None
    _legal_form_is_lookup = False  # its _legal_form reads hidden ranks leniently and orders the cards

    @classmethod
    def new_blind(cls, rules: RuleSet, setup: Setup, table: CardTable) -> "BlindGameState":
        """Deal on positions: hands, equipment, round pile and stock are the layout's
        positions (:mod:`jupai_net.setup`); round 1 waits for its card (:meth:`resume`)."""
        state = cls.new(rules, range(DECK_SIZE), setup, ranks=table)
        assert isinstance(state, BlindGameState)
        return state

    @property
    def table(self) -> CardTable:
        """The cards opened to this participant."""
        return self._ranks  # type: ignore[return-value]

    @property
    def round_due(self) -> int | None:
        """Position of the round card flipped but not opened yet, or None."""
        return self._round_due

    def _new_equipment(self, mass: int, weapon: int, shown: bool) -> Any:
        return BlindEquipment(mass, weapon, shown, self._ranks)  # type: ignore[arg-type]

    def _flip_round(self, card: int) -> None:
        if card not in self.table:
            self._round_due = card
            return
        GameState._flip_round(self, card)

    def resume(self) -> list[Event]:
        """Announce the round whose card was waiting, once it is opened: its events
        ([] when no round card waits). :class:`HiddenCard` if it is still not open."""
        card = self._round_due
        if card is None:
            return []
        self.table[card]  # HiddenCard while not open
        start = len(self.events)
        self._round_due = None
        GameState._flip_round(self, card)
        self._forget_views()
        return self.events[start:]

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """As the engine's :meth:`~jupai_net.engine.GameState.apply`; also
        :class:`IllegalAction` while a round card waits, or when the action names a
        card not opened here."""
        if self._round_due is not None:
            raise IllegalAction("round-card-closed", position=self._round_due)
        if isinstance(action, Action) and not _malformed(action):
            hidden = [q for q in action.cards + action.recovered if q not in self.table]
            if hidden:
                raise IllegalAction("open-before-play", positions=hidden)
        return GameState.apply(self, action, seat)

    def _legal_form(self, action: Action) -> Action:
        table = self.table
        table.lenient = True
        try:
            legal = GameState._legal_form(self, action)
        finally:
            table.lenient = False
            self._legal_cache = None  # built with hidden ranks as -1: never reused
        if len(legal.cards) > 1 and all(q in table for q in legal.cards):  # the trusted engine's order: by card id
            legal = legal._replace(cards=tuple(sorted(legal.cards, key=table.card)))
        return legal

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """As the engine's; [] while a round card waits. Reads the ranks of the hand
        of the seat to move: :class:`HiddenCard` unless this participant holds it."""
        if self._round_due is not None:
            return []
        return GameState.legal_actions(self, seat)

    def observation(self, seat: int | None) -> dict[str, Any]:
        """As the engine's, in positions; a seat's own equipment not open here shows
        its positions with ``quality`` and ``uses_left`` None (B.16.5)."""
        table = self.table
        table.masking = True
        try:
            return GameState.observation(self, seat)
        finally:
            table.masking = False

    def clone(self) -> "BlindGameState":
        """An independent copy (same table contents, same actions)."""
        twin = BlindGameState.new_blind(self.rules, self.setup, CardTable(self.table.cards()))
        twin.resume()
        for action in self.history:
            twin.apply(action)
            twin.resume()
        return twin


class BlindGame:
    """One participant's game at a dealer-blind table, and the openings it calls for
    (specs/fairness.md B.16).

    ``viewer`` is the seat this participant plays (its client), or None for the host;
    ``bots`` are the seats whose cards it also holds (the host's bots). Its
    :class:`CardTable` gets the public cards and the cards of ``viewer`` and ``bots``;
    any other card the engine would read raises :class:`HiddenCard`. Tables with the
    hidden-identities house rule are refused (``ValueError``): a blind table deals
    public identities only (B.15.2).

    The order of one step, the same at every participant::

        while todo := game.openings_for(action, seat):   # [] once the action can count
            ... every participant sends its keys for todo; then game.reveal(q, to, card)
        events = game.apply(action, seat)
        for q, to in game.due(): ... keys; game.reveal(q, to, card or None)
        events += game.resume()                          # the next round, once its card is open
    """

    def __init__(self, rules: RuleSet, setup: Setup, viewer: int | None = None, *, bots: Iterable[int] = ()):
        if rules.hidden_identities:
            raise ValueError("a dealer-blind table deals public identities only (the hidden-identities house rule needs a trusted dealer)")
        bots = frozenset(bots)
        seats = range(rules.players)
        if viewer is not None and viewer not in seats or not bots <= set(seats):
            raise ValueError(f"no such seat at a {rules.players}-seat table")
        self.rules = rules
        self.viewer = viewer
        #: the seats whose cards this participant holds: its own seat and its bots
        self.holds: frozenset[int] = bots | ({viewer} if viewer is not None else frozenset())
        self.table = CardTable()
        self.state = BlindGameState.new_blind(rules, setup, self.table)
        #: positions opened to everyone so far, and to each seat alone
        self.opened_public: set[int] = set()
        self.opened_private: list[set[int]] = [set() for _ in seats]

    # ------------------------------------------------------------ openings
    def due(self) -> list[Opening]:
        """The openings the rules call for now and that were not made yet: every
        position the engine has made public (``(q, None)``), then for each seat the
        positions it has been shown alone (``(q, s)``: its deal, its face-down draws),
        each group by position. Right after the deal this is
        :func:`~jupai_net.fairness.blind_schedule.deal_openings` (as a set); after a
        step, the round card flipped, the stock pair drawn (to the drawer, or to
        everyone face up) and the cards the step made public without reading them
        (e.g. equipment sent to the discard pile). The same rule as the trusted
        dealer's reveals (specs/fairness.md §5.4)."""
        state = self.state
        out: list[Opening] = [(q, None) for q in sorted(state.public - self.opened_public)]
        for s, seen in enumerate(state.seen):
            out += [(q, s) for q in sorted(seen - state.public - self.opened_private[s] - self.opened_public)]
        return out

    def reveal(self, position: int, to: int | None, card: int | None = None) -> None:
        """Record the opening of ``position`` to ``to`` (a seat, or None = everyone).
        ``card`` is the card it opened to, required when this participant may see it
        (public, or to its own seat or a bot), else must be None. ``ValueError`` for a
        card that contradicts an earlier opening (:meth:`CardTable.reveal`)."""
        visible = to is None or to in self.holds
        if visible != (card is not None):
            raise ValueError(f"deck position {position} opened to {'everyone' if to is None else f'seat {to}'}: "
                             + ("its card is needed here" if visible else "this participant may not see its card"))
        if card is not None:
            self.table.reveal(position, card)
        if to is None:
            self.opened_public.add(position)
            self.state.public.add(position)  # known to all from now on, even if a claim fails
        else:
            self.opened_private[to].add(position)
        self.state._forget_views()  # an opened card can change what an observation shows

    def resume(self) -> list[Event]:
        """The events of a round whose card was waiting (:meth:`BlindGameState.resume`)."""
        return self.state.resume()

    def openings_for(self, action: Action, seat: int) -> list[Opening]:
        """The openings still missing before ``action``, claimed by ``seat`` (in
        positions), can be applied; [] when it can. Call again after revealing them:
        a discard's target mass is asked for only once the played card is open.

        Before any opening the claim is checked on public information alone (its
        cards are positions this seat holds and has not played, the kind, target and
        weapon fit the round), after the played cards are open against the full rules;
        ``IllegalAction`` names the seat and why. What is opened, all to everyone:

        * attack, defense, discard, supply (a): the cards played;
        * a discard between different identities (B.16.3): the target's current mass;
        * an answer: its cards, and the mass and weapon of each side that uses its
          weapon in this contest, unless already shown;
        * rearm, supply (b), pass: nothing before (the draw and the discarded
          equipment come with :meth:`due` after the step).
        """
        state = self.state
        if state.over:
            raise IllegalAction("game-over", claimant=seat)
        if state.round_due is not None:
            raise IllegalAction("round-card-closed", claimant=seat, position=state.round_due)
        if seat != state.to_move:
            raise IllegalAction("not-to-move", seat=seat, to_move=state.to_move)
        if not isinstance(action, Action):
            raise IllegalAction("not-an-action", claimant=seat)
        problem = _malformed(action)
        if problem:
            raise problem.within(claimant=seat)
        hand = state.seats[seat].hand
        for q in action.cards + action.recovered:
            if q not in hand:
                raise IllegalAction("not-held", seat=seat, position=q)
        played = action.cards + action.recovered
        hidden = [q for q in played if q not in self.opened_public]
        self._check(action, seat, public_only=bool(hidden))
        if hidden:
            return [(q, None) for q in hidden]
        out: list[int] = []
        if action.kind == A.DISCARD and action.target is not None and not state._side_same(seat, action.target, action.cards):
            eq = state.seats[action.target].equipment
            assert eq is not None  # a legal discard has a target with equipment
            out.append(eq.mass)
        elif action.kind == A.ANSWER:
            pending = state.pending
            assert pending is not None
            for user, uses in ((pending.actor, pending.weapon), (seat, action.weapon)):
                eq = state.seats[user].equipment
                if uses and eq is not None:
                    out += [eq.mass, eq.weapon]
        return [(q, None) for q in out if q not in self.opened_public]

    def _check(self, action: Action, seat: int, public_only: bool) -> None:
        """IllegalAction (seat named) unless ``action`` is legal for ``seat``; with
        ``public_only`` (its cards not open yet) a discard's weapon, which may depend
        on the card's rank, is judged once the card is open."""
        state = self.state
        try:
            state._legal_form(action)
        except IllegalAction as exc:
            if public_only and action.kind == A.DISCARD:
                try:  # with the card's rank unknown, the other weapon choice may be the legal one
                    state._legal_form(action._replace(weapon=not action.weapon))
                    return
                except IllegalAction:
                    pass
            raise exc.within(claimant=seat) from None

    # ---------------------------------------------------------------- play
    def apply(self, action: Action, seat: int) -> list[Event]:
        """Apply ``action`` (positions) of ``seat`` once :meth:`openings_for` is [];
        its events (positions). ``IllegalAction`` naming the seat when it is not legal
        or a card it needs is not open; the state is then unchanged."""
        todo = self.openings_for(action, seat)
        if todo:
            raise IllegalAction("open-first", claimant=seat, positions=[q for q, _ in todo])
        try:
            return self.state.apply(action, seat)
        except IllegalAction as exc:
            raise exc.within(claimant=seat) from None

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal moves of ``seat`` (default: this participant's own seat) when it is
        to move, in positions; [] otherwise. Only for a seat this participant holds
        (its own, or a bot of the host): computed from its own cards and the public
        state. ``ValueError`` for another seat."""
        seat = self.viewer if seat is None else seat
        if seat not in self.holds:
            raise ValueError(f"seat {seat}'s legal moves need its cards, which this participant does not hold")
        return self.state.legal_actions(seat)

    def card_action(self, action: Action) -> Action:
        """``action`` with card ids for positions (cards in id order, as the trusted
        engine records them). :class:`HiddenCard` for a position not open here."""
        card = self.table.card
        cards = tuple(sorted(card(q) for q in action.cards)) if len(action.cards) > 1 else tuple(map(card, action.cards))
        return action._replace(cards=cards, recovered=tuple(map(card, action.recovered)))

    def position_action(self, action: Action) -> Action:
        """``action`` with positions for card ids (the inverse of :meth:`card_action`):
        what a seat's client sends after its player or its default move chose in card
        ids. ``KeyError`` for a card not open here."""
        where = self.table.position
        return action._replace(cards=tuple(map(where, action.cards)), recovered=tuple(map(where, action.recovered)))

    def bot_action(self, bot: Any, rng: Any, seat: int | None = None) -> Action:
        """The move ``bot`` (a :data:`jupai_net.bots.Bot`: observation and legal actions
        in card ids, and ``rng``) chooses for ``seat`` (default: own), in positions: a
        host bot's move, or the default move a seat's client plays itself when its turn
        times out (B.15.4). The bot sees the legal actions sorted (card ids), so its
        choice does not depend on the deck order."""
        seat = self.viewer if seat is None else seat
        legal = sorted(self.card_action(a) for a in self.legal_actions(seat))
        return self.position_action(bot(self.card_observation(seat), legal, rng))

    def observation(self, seat: int | None) -> dict[str, Any]:
        """``state.observation(seat)`` in positions (every card field names a deck
        position): what the host sends to ``seat``. A seat's own equipment the host
        cannot see has its positions with ``quality``/``uses_left`` None. Ask between
        steps (after :meth:`due`'s openings and :meth:`resume`): a pair drawn face up
        is read only once opened (:class:`HiddenCard` before)."""
        return self.state.observation(seat)

    def card_observation(self, seat: int | None = None) -> dict[str, Any]:
        """The observation of ``seat`` (default: own) with card ids, as the trusted
        engine gives it: :func:`fill_observation` over this participant's table."""
        return fill_observation(self.observation(self.viewer if seat is None else seat), self.table)


def trusted_record(record: Mapping[str, Any], deck: Sequence[int]) -> dict[str, Any]:
    """A blind game's :meth:`~jupai_net.engine.GameState.record` (deck ``range(53)``,
    actions in positions) as the trusted engine's record of the same game, given the
    audited ``deck`` (card id by position, specs/fairness.md B.10): the real deck, and
    each action in card ids, several cards in id order. :func:`jupai_net.engine.replay`
    of it gives the same events (the equivalence of tests/test_blind_game.py), which is
    how a verifier replays a blind game. ``ValueError`` for a malformed record."""
    if not isinstance(record, Mapping) or not isinstance(record.get("actions"), (list, tuple)):
        raise ValueError("not a game record with a list of actions")
    if sorted(deck) != list(range(DECK_SIZE)):
        raise ValueError(f"deck must be a permutation of the {DECK_SIZE} card ids")
    actions = []
    for k, wire in enumerate(record["actions"]):
        try:
            action = Action.from_wire(wire)
        except ValueError as exc:
            raise ValueError(f"action {k}: {exc}") from None
        cards = [deck[q] for q in action.cards]
        actions.append(action._replace(cards=tuple(sorted(cards) if len(cards) > 1 else cards),
                                       recovered=tuple(deck[q] for q in action.recovered)).to_wire())
    return {**record, "deck": list(deck), "actions": actions}


# ----------------------------------------------------------- positions → cards
def _cards(value: Any, card: Any) -> Any:
    return [card(q) for q in value] if isinstance(value, list) else value


def _pair(value: Any, card: Any) -> Any:
    return None if value is None else [card(q) for q in value]


def _one(value: Any, card: Any) -> Any:
    return None if value is None else card(value)


def _sides(value: Any, card: Any) -> Any:
    out = []
    for side in value:
        side = {**side, "cards": sorted(card(q) for q in side["cards"])}
        use = side.get("weapon")
        if use:
            side["weapon"] = {**use, "mass": card(use["mass"]), "weapon": card(use["weapon"])}
        out.append(side)
    return out


def _sorted(value: Any, card: Any) -> Any:
    return None if value is None else sorted(card(q) for q in value)


#: every field of an event (wire form) that names cards, by event kind, and how to map it
EVENT_CARD_FIELDS: dict[str, dict[str, Any]] = {
    "deal": {"hand": _sorted, "equipment": _pair},
    "round": {"card": _one},
    "play": {"cards": _sorted},
    "contest": {"sides": _sides, "equipment": _pair},
    "discard": {"cards": _sorted, "equipment": _pair},
    "supply": {"cards": _sorted, "recovered": _sorted, "discarded": _pair, "equipment": _pair},
    "rearm": {"equipment": _pair},
}


def fill_event(event: Mapping[str, Any], cards: CardTable | Mapping[int, int]) -> dict[str, Any]:
    """An event's wire map (as :meth:`~jupai_net.engine.Event.to_wire` gives it) with
    card ids for positions, lists of several cards in id order: the trusted engine's
    form. ``cards`` is a :class:`CardTable` or ``{position: card}``;
    :class:`HiddenCard` for a position it lacks."""
    card = _card_of(cards)
    out = dict(event)
    for name, fill in EVENT_CARD_FIELDS.get(str(event.get("kind")), {}).items():
        if name in out:
            out[name] = fill(out[name], card)
    return out


def fill_observation(obs: Mapping[str, Any], cards: CardTable | Mapping[int, int]) -> dict[str, Any]:
    """An observation in positions (:meth:`BlindGame.observation`, as the host sends
    it) with card ids, as the trusted engine's observation of the same game: the
    viewer's hand and every player's recovered cards sorted by card id, the viewer's
    own equipment's ``quality`` and ``uses_left`` worked out from its mass when the
    host left them None (a hidden mass means no use yet), events as :func:`fill_event`.
    ``cards`` is the viewer's table (public + own cards); :class:`HiddenCard` names a
    position the observation shows that was not opened to the viewer. A new dict; the
    input is not changed."""
    card = _card_of(cards)
    out = dict(obs)
    out["round_card"] = _one(obs["round_card"], card)
    if obs.get("pending"):
        out["pending"] = {**obs["pending"], "cards": _sorted(obs["pending"]["cards"], card)}
    if obs.get("supply"):
        sup = obs["supply"]
        out["supply"] = {**sup, "cards": _sorted(sup["cards"], card), "recovered": [card(q) for q in sup["recovered"]]}
    players = []
    for p in obs["players"]:
        p = {**p, "recovered": sorted(card(q) for q in p["recovered"])}
        eq = p.get("equipment")
        if eq is not None:
            eq = {**eq, "mass": _one(eq["mass"], card), "weapon": _one(eq["weapon"], card)}
            if eq["mass"] is not None and eq.get("quality") is None:
                m = RANKS[eq["mass"]]
                eq["quality"], eq["uses_left"] = _QUALITY[m], _USES[m]
            p["equipment"] = eq
        players.append(p)
    out["players"] = players
    out["hand"] = sorted(card(q) for q in obs["hand"])
    out["discard_pile"] = [card(q) for q in obs["discard_pile"]]
    out["log"] = [fill_event(e, cards) for e in obs["log"]]
    return out


def _card_of(cards: CardTable | Mapping[int, int]) -> Any:
    if isinstance(cards, CardTable):
        return cards.card

    def card(q: int) -> int:
        try:
            return cards[q]
        except KeyError:
            raise HiddenCard(q) from None

    return card


__all__ = ["BlindEquipment", "BlindGame", "BlindGameState", "CardTable", "EVENT_CARD_FIELDS", "HiddenCard",
           "Opening", "fill_event", "fill_observation", "trusted_record"]
