"""The 剧牌 rules engine: a pure game state machine (design/rules.md; specs/rules.md).

No IO, no clock, no randomness: a game is fully determined by its :class:`RuleSet`,
its :class:`~jupai_net.setup.Setup` and its deck order (a permutation of the card ids
0..52, laid out as documented in :mod:`jupai_net.setup`), then by the actions applied.

Surface (OpenSpiel-like)::

    state = GameState.new(rules, deck, setup)
    state.to_move                 # seat that must act now, None when the game is over
    state.pending                 # the contest the seat to move must answer, or None
    state.legal_actions(seat)     # list[Action] (read-only); empty unless seat is to move
    events = state.apply(action)  # IllegalAction (state unchanged) if not legal
    state.observation(seat)       # dict: only what seat may see (None = spectator)
    state.record()                # dict: rules + setup + deck + actions → replay(record)

Tokens. The engine moves *tokens* around and reads a token's rank only where the rules
use it, through ``state._ranks[token]``: a trusted game's tokens are card ids and
``_ranks`` is :data:`~jupai_net.cards.RANKS` (a plain tuple); a dealer-blind table's
host runs the same code on deck positions with a table that raises for a position not
opened yet (:mod:`jupai_net.blind_game`, specs/fairness.md B.16). Its
``BlindGameState`` overrides ``_new_equipment``, ``_flip_round`` and ``_legal_form``
(setting ``_legal_form_is_lookup`` False, so that ``apply`` always calls it) and wraps
``legal_actions``, ``apply``, ``observation``: keep these hooks, every rank
read going through ``_ranks`` or an equipment's ``m``/``w``/``quality``/``uses_left``,
and ``_flip_round`` as the last step of an action, when changing the engine;
tests/test_blind_game.py checks that both engines agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, ClassVar, NamedTuple

from . import actions as A
from .actions import Action
from .cards import RANKS, card_name, check_deck, is_prime
from .equipment import Equipment
from .formulas import attack_pair, defense_attack_pair, defense_pair
from .illegal import ILLEGAL
from .illegal import english as illegal_english
from .rules import RuleSet
from .setup import Setup, hand_positions, round_pile_positions, stock_start

RECORD_VERSION = 1
LOG_TAIL = 8
#: what changed about a seat since its ``players`` entries were built (GameState._touch)
_COUNTS, _RECOVERED, _EQUIPMENT, _ALL = 1, 2, 3, 4

ROUND_ATTACK, ROUND_DEFENSE, ROUND_SUPPLY, ROUND_DISCARD = "attack", "defense", "supply", "discard"


class IllegalAction(ValueError):
    """An action that is not legal now; the state is unchanged.

    ``IllegalAction(code, **params)``: a stable ``code`` of :data:`jupai_net.illegal.ILLEGAL`
    and its values (plain data), said in a person's language from the catalog key
    ``illegal.CODE`` (:func:`jupai_net.messages.illegal.illegal_sentence`); ``reason``
    and ``str()`` are the English sentence (logs, tests, a ``reject``'s ``message``).
    A text that is not a known code is kept as the reason (code ``other``)."""

    def __init__(self, code: str, /, **params: Any):
        if code not in ILLEGAL:
            code, params = "other", {**params, "text": code}
        self.code = code
        self.params = params
        self.reason = illegal_english(code, params)
        super().__init__(self.reason)

    def within(self, **context: int) -> "IllegalAction":
        """The same reason in context: ``claimant=seat`` (``seat 2: …``) or ``index=k``
        (``action 12: …``), a new exception."""
        return IllegalAction(self.code, **{**self.params, **context})

    def to_wire(self) -> dict[str, Any]:
        """``{"code": code, "args": params}`` (a verdict's or a ``reject``'s why)."""
        return {"code": self.code, "args": dict(self.params)}


class Event:
    """One outcome in the event log.

    ``data`` is what everyone sees; ``private[seat]`` is merged in for that seat only
    (e.g. the cards of a face-down draw). :meth:`to_wire` gives a viewer's dict.
    Events compare equal when kind, data and private parts are equal.

    The public wire dict (``{"kind": kind, **data}``) is what the event keeps: it is
    made once, when the event is (the engine writes its events in that form directly:
    ``GameState._emit``), and shared read-only by every observation's ``log``.
    """

    __slots__ = ("kind", "private", "_public", "_own")

    def __init__(self, kind: str, data: dict[str, Any], private: dict[int, dict[str, Any]] | None = None):
        self.kind = kind
        self.private = private
        self._public = {"kind": kind, **data}
        self._own: dict[int, dict[str, Any]] | None = None

    @property
    def data(self) -> dict[str, Any]:
        """What everyone sees, without the kind (a new dict)."""
        data = self._public.copy()
        del data["kind"]
        return data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self._public == other._public and self.private == other.private

    __hash__ = None  # type: ignore[assignment]  # mutable caches; as the dataclass it was

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, data={self.data!r}, private={self.private!r})"

    def to_wire(self, viewer: int | None = None) -> dict[str, Any]:
        """The event as ``viewer`` (a seat, or None for a spectator) may see it. The
        top-level dict is new; nested lists/maps are the event's own (read-only)."""
        return dict(self.wire(viewer))

    def wire(self, viewer: int | None = None) -> dict[str, Any]:
        """As :meth:`to_wire`, but the event's own cached dict (read-only: observations
        share it, so the wire form of an event is built once per viewer)."""
        private = self.private
        if private and viewer in private:
            own = self._own
            if own is None:
                own = self._own = {}
            out = own.get(viewer)  # type: ignore[arg-type]
            if out is None:
                out = own[viewer] = {**self._public, **private[viewer]}  # type: ignore[index]
            return out
        return self._public


class _EngineEvent(Event):
    """An :class:`Event` as the engine makes it (:meth:`GameState._emit` fills its
    slots): the same object with object's own ``__init__``, so that making one is a
    call in C (``object.__new__(Event)`` from Python cost about 300 interpreter
    instructions more per event, about one event a move)."""

    __slots__ = ()
    __init__ = object.__init__  # type: ignore[assignment]


_new_tuple = tuple.__new__


class Pending(NamedTuple):
    """A contest waiting for the target's answer: the actor's play and its context
    (a NamedTuple: one is made on every contest)."""

    contest: str  # attack | defense | discard
    actor: int
    target: int
    cards: tuple[int, ...]
    weapon: bool

    def to_wire(self) -> dict[str, Any]:
        """Plain dict (all of it is public: the actor's cards are played face-up)."""
        contest, actor, target, cards, weapon = self  # one unpacking, not five field reads
        return {"contest": contest, "actor": actor, "target": target, "cards": list(cards), "weapon": weapon}


@dataclass(slots=True)
class SupplyA:
    """Supply (a) under way (specs/rules.md §6, §9.3): ``seat`` has discarded the intent
    card(s) ``cards`` of rank ``v`` and may still discard ``left`` of its recovered
    cards, one action each; ``recovered`` lists those discarded so far."""

    seat: int
    cards: tuple[int, ...]
    v: int
    recovered: list[int]
    left: int

    def to_wire(self) -> dict[str, Any]:
        """Plain dict (all of it is public: the cards go to the face-up discard pile)."""
        return {"seat": self.seat, "cards": list(self.cards), "v": self.v,
                "recovered": list(self.recovered), "left": self.left}


def _table() -> dict[tuple[Any, ...], Action]:
    """Every single-card action, built once (legal-action lists are made on every
    move; looking an Action up is cheaper than making one): keys ``(kind, target,
    card, weapon)`` for plays and answers, ``(kind, card)`` for supply (a)."""
    new = tuple.__new__
    table: dict[tuple[Any, ...], Action] = {}
    for c in range(53):
        cards = (c,)
        for w in (False, True):
            for t in (None, 0, 1, 2, 3, 4, 5):
                for kind in (A.ATTACK, A.DEFENSE, A.DISCARD):
                    table[kind, t, c, w] = new(Action, (kind, t, cards, w, ()))
            table[A.ANSWER, None, c, w] = new(Action, (A.ANSWER, None, cards, w, ()))
        table[A.SUPPLY_RECOVERED, c] = new(Action, (A.SUPPLY_RECOVERED, None, cards, False, ()))
        table[A.SUPPLY_RECOVERED, None, c] = new(Action, (A.SUPPLY_RECOVERED, None, (), False, cards))
    return table


_ACTIONS = _table()
_TARGETS = (0, 1, 2, 3, 4, 5)
#: per kind and target, a list by card id: the action without / with the weapon, and
#: both in the engine's order (without first); answers likewise under target None
_PLAY: dict[tuple[str, int | None, bool], list[Action]] = {
    (kind, t, w): [_ACTIONS[kind, t, c, w] for c in range(53)]
    for kind in (A.ATTACK, A.DEFENSE, A.DISCARD, A.ANSWER) for t in (None, *_TARGETS) for w in (False, True)
    if kind != A.ANSWER or t is None}
_PLAY_BOTH: dict[tuple[str, int | None], list[tuple[Action, Action]]] = {
    (kind, t): list(zip(_PLAY[kind, t, False], _PLAY[kind, t, True]))
    for kind, t, w in _PLAY if not w}
#: per kind, weapon, table size n and seat: the _PLAY (or, weapon "both", _PLAY_BOTH)
#: rows of the seat's opponents in seat order, so a round's plays are one comprehension
_AT_OPPONENTS: dict[tuple[str, bool | str, int, int], tuple[list[Any], ...]] = {
    (kind, w, n, seat): tuple(_PLAY[kind, t, w] if w != "both" else _PLAY_BOTH[kind, t]
                              for t in range(n) if t != seat)
    for kind in (A.ATTACK, A.DEFENSE) for w in (False, True, "both") for n in range(2, 7) for seat in range(n)}
#: the rows the hot paths read, looked up here once (a tuple key is hashed on every
#: lookup): the answers without / with the weapon, and both, and per table size and
#: seat the opponents' attack rows with both forms and the attack / defense rows
#: without the weapon
_ANSWER_ROW = {w: _PLAY[A.ANSWER, None, w] for w in (False, True)}
_ANSWER_BOTH = _PLAY_BOTH[A.ANSWER, None]
_ATTACK_BOTH = [[_AT_OPPONENTS.get((A.ATTACK, "both", n, seat)) for seat in range(n)] for n in range(7)]
_PLAIN_ROWS = {kind: [[_AT_OPPONENTS.get((kind, False, n, seat)) for seat in range(n)] for n in range(7)]
               for kind in (A.ATTACK, A.DEFENSE)}
_INT = {int}
_PLAY_KINDS = frozenset((A.ATTACK, A.DEFENSE, A.DISCARD))
_SUPPLY_A = [_ACTIONS[A.SUPPLY_RECOVERED, c] for c in range(53)]
_SUPPLY_MORE = [_ACTIONS[A.SUPPLY_RECOVERED, None, c] for c in range(53)]
_PASS, _REARM, _SUPPLY_EQUIPMENT = Action(A.PASS), Action(A.REARM), Action(A.SUPPLY_EQUIPMENT)
_NO_CARD_ANSWER = {w: Action(A.ANSWER, cards=(), weapon=w) for w in (False, True)}


def round_type(card_rank: int, setup: Setup, rules: RuleSet) -> str:
    """Type of a round from its flipped card's rank (design/rules.md §2).

    supply number → supply; discard number → discard; the house rule's
    ``attack_number`` (if not 0) → attack; else prime → defense and non-prime (1,
    composites, 14) → attack, the other way round with ``swap_prime_composite``.
    """
    if card_rank == setup.supply_number:
        return ROUND_SUPPLY
    if card_rank == setup.discard_number:
        return ROUND_DISCARD
    if card_rank == rules.attack_number:
        return ROUND_ATTACK
    if is_prime(card_rank) != rules.swap_prime_composite:
        return ROUND_DEFENSE
    return ROUND_ATTACK


def rank_seats(cards_left: Sequence[int], recovered: Sequence[int], winner: int | None) -> list[int]:
    """Final ranking, best first (design/rules.md §8): the winner (who emptied its hand
    and equipment), then fewer cards left, then fewer recovered cards, then lower seat."""
    others = sorted((s for s in range(len(cards_left)) if s != winner),
                    key=lambda s: (cards_left[s], recovered[s], s))
    return ([winner] if winner is not None else []) + others


#: How a finished game was won (:func:`win_reason`, specs/rules.md §8): a seat emptied
#: its hand and equipment, or the last round ended and the seat was ranked first.
WIN_EMPTIED = "emptied"
WIN_RANKED = "ranked"


def game_winner(ranking: Sequence[Any] | None) -> int | None:
    """The seat that won a finished game (specs/rules.md §8, "who won"): the first of
    its final ``ranking`` (seats, best first, as :func:`rank_seats` gives it), whether
    the game ended by a seat emptying its hand and equipment (that seat is first) or
    after the last round (the seat with fewer cards left, then fewer recovered cards,
    then the lower seat). None when there is no ranking (an abandoned or unfinished
    game) or its first item is no seat number (a ranking from the network that is not
    one). Every screen says the winner through this function."""
    if not ranking:
        return None
    first = ranking[0]
    return first if isinstance(first, int) and not isinstance(first, bool) and first >= 0 else None


def win_reason(ranking: Sequence[Any] | None, winner: Any = None) -> str | None:
    """How the seat :func:`game_winner` names won: :data:`WIN_EMPTIED` when the game's
    ``winner`` (the engine's :attr:`GameState.winner`, the signed ``end`` statement's
    ``winner``: the seat that emptied its hand and equipment) is that seat,
    :data:`WIN_RANKED` when the game ended after the last round (``winner`` None) and
    the ranking decided (specs/rules.md §8); None when there is no winner."""
    seat = game_winner(ranking)
    if seat is None:
        return None
    return WIN_EMPTIED if winner == seat and not isinstance(winner, bool) else WIN_RANKED


@dataclass(slots=True)
class _Seat:
    hand: list[int]
    recovered: set[int]
    equipment: Equipment | None
    lost_round: int | None = None  # round in which its equipment was last lost
    identity_shown: bool = False


@dataclass(slots=True)
class GameState:
    """A game of 剧牌 in progress. Build with :meth:`new` or :func:`replay`."""

    rules: RuleSet
    setup: Setup
    deck: tuple[int, ...]
    seats: list[_Seat]
    stock: list[int]
    round_pile: list[int]
    discard_pile: list[int]
    first_leader: int
    flipped: list[int] = field(default_factory=list)  # round cards turned up so far
    round_no: int = 0
    round_card: int | None = None
    round_kind: str = ""
    round_value: int = 0
    leader: int = 0
    turn_index: int = 0
    rearmed: bool = False
    pending: Pending | None = None
    supplying: SupplyA | None = None
    winner: int | None = None
    ranking: list[int] = field(default_factory=list)
    #: True once a player has emptied its hand and equipment, or after the last round
    over: bool = False
    history: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    public: set[int] = field(default_factory=set)
    seen: list[set[int]] = field(default_factory=list)
    _legal_cache: list[Action] | None = None
    _values: tuple[int, ...] = ()  # identity value per seat
    #: seat that must act now (:meth:`_settle_turn` keeps it; read it as ``to_move``)
    to_move: int | None = field(default=None, init=False)
    #: True once the game is over (as ``over``: an attribute, read after every move)
    is_over: bool = field(default=False, init=False)
    #: the rules' ``same_identity == "matching-card"``, read on every contest
    _matching_card: bool = field(default=False, init=False, repr=False, compare=False)
    #: the class's ``_legal_form_is_lookup``, copied per state (a class attribute read
    #: through the instance is not specialised by Python 3.11: a slot read is)
    _lookup_legal: bool = field(default=True, init=False, repr=False, compare=False)
    # Observation caches: built when first asked for, replaced when the state changes
    # (shared, read-only; see observation()). Per seat, its ``players`` entry as the
    # others see it ([] until first built) and as the seat itself sees it when that
    # differs (None: rebuild), and what the seat sees of itself that the others do not (its hidden
    # identity, its equipment's hidden cards: keys of the entry with their own
    # values, {} for none; None: work it out again):
    _seen_by_others: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)
    _seen_by_self: list[dict[str, Any] | None] = field(default_factory=list, repr=False, compare=False)
    _own_extra: list[dict[str, Any] | None] = field(default_factory=list, repr=False, compare=False)
    #: seats whose entries are out of date since they were built, and how far
    #: (_COUNTS, _RECOVERED, _EQUIPMENT or _ALL: see _touch)
    _stale: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    #: every event's public wire dict, in order (the log's; :meth:`_emit` keeps it);
    #: per seat, the index of the last event with a private part for it, and the
    #: indices of all of them in order (a log tail patches only those)
    _wired: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)
    _private_at: list[int] = field(default_factory=list, repr=False, compare=False)
    _private_events: list[list[int]] = field(default_factory=list, repr=False, compare=False)
    #: the spectator's observation of this version (apply drops it: None); the
    #: round's dict it is filled into (None when a round starts: the round's keys are
    #: filled in again); and the game's one dict behind both (every key in order; made
    #: once, filled in place: never handed out, observations are copies)
    _frame: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _round_frame: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _frame_dict: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _specials: dict[str, int] | None = field(default=None, repr=False, compare=False)
    #: the pending contest's wire dict, made with its ``play`` event (whose ``cards``
    #: list it shares, as the contest's event does for the actor's side); None when
    #: no play of this state made the pending contest (``pending.to_wire()`` then)
    _pending_wire: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    #: the observations' ``discard_pile`` list, a copy made when first asked for after
    #: the pile changed (None: :meth:`_discard`, the one step that adds to the pile)
    _discard_wire: list[int] | None = field(default=None, repr=False, compare=False)
    _shown_identities: list[str | None] | None = field(default=None, repr=False, compare=False)
    #: rank by token (module docstring, "Tokens"): RANKS by card id, or a blind table
    _ranks: Sequence[int] = field(default=RANKS, repr=False, compare=False)

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, rules: RuleSet, deck: Sequence[int], setup: Setup, *, ranks: Sequence[int] = RANKS) -> "GameState":
        """Deal a new game (design/rules.md §3) and flip the first round card.

        ``deck`` must be a permutation of 0..52 (``ValueError`` otherwise); ``setup``
        must have one identity per seat. ``ranks`` maps a token to its rank (module
        docstring, "Tokens"): the default for card ids; a blind table passes the deck
        positions ``range(53)`` as ``deck`` and its card table.
        """
        # a list or tuple needs no abstract-class check (isinstance(deck, Sequence) is slow);
        # every card's type is looked up in {int} as it comes (set(map(type, deck)) <= {int}
        # built a set of them first: about 860 interpreter instructions more a deal)
        plain = type(deck) is list or type(deck) is tuple
        if not plain and (isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence)) \
                or not _INT.issuperset(map(type, deck)):
            raise ValueError("deck must be a sequence of card ids (int) 0..52")
        check_deck(deck)
        deck = tuple(deck)
        n = rules.players
        if len(setup.identities) != n:
            raise ValueError(f"setup has {len(setup.identities)} identities for {n} seats")
        # hidden identities: the landlord leads round 1 (rules §4), so its role is known from the start
        landlord = setup.identities.index("L") if "L" in setup.identities else 0
        hidden, landlord_known = rules.hidden_identities, "L" in setup.identities
        first, size = hand_positions(rules, 0).start, rules.hand_size  # seat s's hand: the next `size` after s-1's
        seats = [_Seat(sorted(deck[first + s * size:first + (s + 1) * size]), set(), None, None,
                       not hidden or (s == landlord and landlord_known)) for s in range(n)]
        at = round_pile_positions(rules)
        pile = list(deck[at.start:at.stop])
        stock = list(deck[stock_start(rules):])
        state = cls(rules, setup, deck, seats, stock, pile, [], landlord, _ranks=ranks)
        for s, seat in enumerate(seats):
            seat.equipment = state._new_equipment(deck[2 * s], deck[2 * s + 1], False)
        state._values = tuple([setup.identity_value(s) for s in range(n)])
        state.seen = [set(seat.hand) | {seat.equipment.mass, seat.equipment.weapon} for seat in seats]  # type: ignore[union-attr]
        state._emit(
            {"kind": "deal", "players": n, "identities": state._public_identities()},
            {
                s: {
                    "hand": list(seats[s].hand),
                    "equipment": [deck[2 * s], deck[2 * s + 1]],
                    "identity": setup.identities[s],
                }
                for s in range(n)
            },
        )
        state._start_round()
        state._settle_turn()
        return state

    # ------------------------------------------------------------- properties
    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.seats)

    @property
    def version(self) -> int:
        """Number of actions applied so far: the state id that actions answer."""
        return len(self.history)

    @property
    def last_round(self) -> bool:
        """True during the last round (every play uses all hand cards, §8)."""
        return self.round_no == self.rules.rounds

    @property
    def actor(self) -> int:
        """Seat whose round action it is (the target may be answering first)."""
        return (self.leader + self.turn_index) % len(self.seats)

    def __post_init__(self) -> None:
        self.is_over = self.over
        self._private_at = [-1] * len(self.seats)
        self._private_events = [[] for _ in self.seats]
        self._matching_card = self.rules.same_identity == "matching-card"
        self._lookup_legal = self._legal_form_is_lookup
        self._settle_turn()

    def _settle_turn(self) -> None:
        """Set :attr:`to_move`, the seat that must act now: the pending contest's target,
        else the actor; None when the game is over. Called at the end of :meth:`new`;
        within :meth:`apply` the steps that change it set it (a play that opens a
        contest: its target; :meth:`_next_turn`: the next actor; :meth:`_finish`:
        None), so reading it is an attribute and no step derives it again."""
        if self.over:
            self.to_move = None
        elif self.pending is not None:
            self.to_move = self.pending.target
        else:
            self.to_move = (self.leader + self.turn_index) % len(self.seats)

    def card_places(self) -> dict[str, list[int]]:
        """Where every card is: ``{"hand:0": [...], "equipment:0": [...], …, "stock",
        "round_pile", "flipped", "discard_pile", "in_play"}`` (for invariant checks)."""
        places: dict[str, list[int]] = {}
        for s, seat in enumerate(self.seats):
            places[f"hand:{s}"] = list(seat.hand)
            places[f"equipment:{s}"] = [seat.equipment.mass, seat.equipment.weapon] if seat.equipment else []
        places["stock"] = list(self.stock)
        places["round_pile"] = list(self.round_pile)
        places["flipped"] = list(self.flipped)
        places["discard_pile"] = list(self.discard_pile)
        places["in_play"] = list(self.pending.cards) if self.pending else []
        return places

    def cards_left(self, seat: int) -> int:
        """Cards a seat still holds: hand + equipment cards (§8), plus the cards it has
        in play in a contest still waiting for its answer (they are not gone yet)."""
        s = self.seats[seat]
        in_play = len(self.pending.cards) if self.pending is not None and self.pending.actor == seat else 0
        return len(s.hand) + (2 if s.equipment is not None else 0) + in_play

    def known_cards(self, seat: int | None) -> frozenset[int]:
        """Card ids ``seat`` has been shown so far (None: the public ones)."""
        if seat is None:
            return frozenset(self.public)
        self._check_viewer(seat)
        return frozenset(self.public | self.seen[seat])

    # ----------------------------------------------------------------- helpers
    def _check_viewer(self, seat: Any) -> None:
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.rules.players):
            raise ValueError(f"no seat {seat!r} at a {self.rules.players}-seat table")

    def _public_identities(self) -> list[str | None]:
        """Each seat's identity letter if shown, else None (shared, read-only: a reveal
        makes a new list)."""
        shown = self._shown_identities
        if shown is None:
            shown = self._shown_identities = [
                s_id if seat.identity_shown else None for s_id, seat in zip(self.setup.identities, self.seats)]
        return shown

    def _identity_value(self, seat: int) -> int:
        return self._values[seat]

    def _roles_match(self, a: int, b: int) -> bool:
        return self.setup.identities[a] == self.setup.identities[b]

    def _side_same(self, seat: int, other: int | None, cards: Sequence[int]) -> bool:
        """Whether a side of a contest uses the same-identity formula (§5)."""
        if self._matching_card:
            value = self._values[seat]
            ranks = self._ranks
            return any(ranks[c] == value for c in cards)
        return other is not None and self.setup.identities[seat] == self.setup.identities[other]

    def _role_unknown(self, target: int) -> bool:
        """True when the seat to act cannot know whether ``target`` shares its role
        (hidden identities, shared-role reading, target not shown yet). Its choices
        against such a target must not depend on that role (specs/rules.md §9.13)."""
        return (self.rules.hidden_identities and self.rules.same_identity == "shared-role"
                and not self.seats[target].identity_shown)

    def _emit(self, wire: dict[str, Any], private: dict[int, dict[str, Any]] | None = None) -> None:
        """Append the event whose public wire dict is ``wire`` (its first key
        ``"kind"``) and whose private parts are ``private`` (see :class:`Event`)."""
        event = _EngineEvent()
        event.kind = wire["kind"]
        event.private = private
        event._public = wire
        events = self.events
        if private:  # (an event without one never reads its _own cache: left unset)
            event._own = None
            k = len(events)
            for s in private:
                self._private_at[s] = k
                self._private_events[s].append(k)
        events.append(event)
        self._wired.append(wire)

    def _discard(self, cards: Sequence[int]) -> None:
        self.discard_pile.extend(cards)
        self._discard_wire = None
        self.public.update(cards)

    def _forget_views(self) -> None:
        """Drop every observation cache: what a viewer sees changed outside
        :meth:`apply` (a dealer-blind table opened a card or announced its round:
        :mod:`jupai_net.blind_game`)."""
        self._frame = self._round_frame = self._frame_dict = self._discard_wire = None
        self._seen_by_others.clear()
        self._seen_by_self.clear()
        self._own_extra.clear()
        self._stale.clear()

    def _touch(self, seat: int, level: int = _ALL) -> None:
        """Seat ``seat``'s ``players`` entries are brought up to date when next asked
        for. ``level`` says what changed: 1 (``_COUNTS``) its hand or cards in play
        only (``hand_count``, ``cards_left``), 2 (``_RECOVERED``) those and its
        recovered cards, 3 (``_EQUIPMENT``) those and how its equipment lies or what
        of it is shown (not whether it has any), 4 (``_ALL``, the default) anything
        (equipment drawn or lost, identity shown)."""
        stale = self._stale
        if stale.get(seat, 0) < level:
            stale[seat] = level

    def _remove_from_hand(self, seat: int, cards: Sequence[int]) -> None:
        s = self.seats[seat]
        hand, recovered = s.hand, s.recovered
        level = _COUNTS
        for c in cards:
            hand.remove(c)
            if c in recovered:
                recovered.remove(c)
                level = _RECOVERED
        stale = self._stale  # as _touch(seat, level)
        if seat not in stale or stale[seat] < level:
            stale[seat] = level

    def _collect(self, seat: int, cards: Sequence[int]) -> None:
        s = self.seats[seat]
        s.hand.extend(cards)
        s.hand.sort()
        s.recovered.update(cards)
        stale = self._stale  # as _touch(seat, _RECOVERED)
        if seat not in stale or stale[seat] < _RECOVERED:
            stale[seat] = _RECOVERED

    def _lose_equipment(self, seat: int) -> None:
        s = self.seats[seat]
        assert s.equipment is not None
        self._discard([s.equipment.mass, s.equipment.weapon])
        s.equipment = None
        s.lost_round = self.round_no
        self._touch(seat)

    def _use_weapon(self, seat: int) -> dict[str, Any]:
        """Spend one use of a seat's weapon (§7); returns the use as shown in the log."""
        eq = self.seats[seat].equipment
        assert eq is not None
        m, w, n_use = eq.m, eq.w, eq.uses_done + 1
        face = "down" if (eq.quality == "advanced" and n_use == 2) else "up"
        if not eq.shown:
            eq.shown = True
            self.public.update([eq.mass, eq.weapon])
        eq.uses_left -= 1
        stale = self._stale  # as _touch(seat, _EQUIPMENT) (the last use loses it: _ALL below)
        if seat not in stale or stale[seat] < _EQUIPMENT:
            stale[seat] = _EQUIPMENT
        eq.face_up = False  # after a use the pair lies face-down until its next use (§7)
        info = {"mass": eq.mass, "weapon": eq.weapon, "m": m, "w": w, "use": n_use, "face": face,
                "quality": eq.quality, "spent": eq.uses_left == 0}
        if eq.uses_left == 0:
            self._lose_equipment(seat)
        return info

    def _reveal_identity(self, seat: int) -> None:
        st = self.seats[seat]
        if not st.identity_shown:
            st.identity_shown = True
            self._shown_identities = None
            self._touch(seat)

    def _draw_pair(self, seat: int, face_up: bool) -> tuple[int, int]:
        mass, weapon = self.stock.pop(0), self.stock.pop(0)
        self._round_frame = None  # the observations' stock count changed (_round_keys)
        self.seats[seat].equipment = self._new_equipment(mass, weapon, face_up)
        self._touch(seat)
        if face_up:
            self.public.update([mass, weapon])
        else:
            self.seen[seat].update((mass, weapon))
        return mass, weapon

    def _new_equipment(self, mass: int, weapon: int, shown: bool) -> Equipment:
        """A fresh pair of tokens ``mass``, ``weapon`` (a blind table reads their ranks
        only once they are opened: :mod:`jupai_net.blind_game`)."""
        return Equipment.new(mass, weapon, shown)

    def _can_rearm(self, seat: int) -> bool:
        s = self.seats[seat]
        return (
            not self.rearmed
            and s.equipment is None
            and len(self.stock) >= 2
            and (s.lost_round is None or self.round_no >= s.lost_round + 2)
        )

    # ------------------------------------------------------------ round flow
    def _start_round(self) -> None:
        self._round_frame = None  # the observations' round keys change
        self.round_no += 1
        card = self.round_pile.pop(0)
        self.flipped.append(card)
        self.round_card = card
        self.public.add(card)
        self.leader = (self.first_leader + self.round_no - 1) % len(self.seats)
        self.turn_index = 0
        self.rearmed = False
        self._flip_round(card)

    def _flip_round(self, card: int) -> None:
        """The round card ``card`` (just made public) sets the round's type and R and
        is announced; always the last step of an action (a blind table may defer it
        until the card is opened: :mod:`jupai_net.blind_game`)."""
        r = self._ranks[card]
        self._round_frame = None
        self.round_kind = round_type(r, self.setup, self.rules)
        self.round_value = self.round_no if self.rules.round_value == "ordinal" else r
        self._emit(
            {
                "kind": "round",
                "round": self.round_no,
                "card": card,
                "type": self.round_kind,
                "R": self.round_value,
                "leader": self.leader,
                "last": self.round_no == self.rules.rounds,  # as last_round
            }
        )

    def _next_turn(self) -> None:
        """The next seat's turn (§4): after the last seat of a round the next round
        starts, after the last round the game ends. Sets :attr:`to_move`."""
        n = len(self.seats)
        self.turn_index = turn = self.turn_index + 1
        self.rearmed = False
        if turn >= n:
            if self.round_no == self.rules.rounds:
                self._finish("last-round")
                return
            self._start_round()
            turn = 0
        self.to_move = (self.leader + turn) % n

    def _check_win(self, first: int, other: int | None = None) -> bool:
        """End the game if seat ``first`` or ``other`` (the seats the action changed:
        no other seat can have emptied its hand and equipment, §8) now holds no card:
        the first of them clockwise from ``first``, i.e. ``first`` before ``other``."""
        seats = self.seats
        st = seats[first]
        if not st.hand and st.equipment is None:
            self.winner = first
        elif other is not None and not seats[other].hand and seats[other].equipment is None:
            self.winner = other
        else:
            return False
        self._finish("emptied")
        return True

    def _finish(self, reason: str) -> None:
        self.ranking = rank_seats(
            [self.cards_left(s) for s in range(self.players)],
            [len(self.seats[s].recovered) for s in range(self.players)],
            self.winner,
        )
        self.over = self.is_over = True
        self.to_move = None
        self._emit(
            {
                "kind": "end",
                "reason": reason,
                "winner": self.winner,
                "ranking": list(self.ranking),
                "cards_left": [self.cards_left(s) for s in range(self.players)],
                "recovered": [len(self.seats[s].recovered) for s in range(self.players)],
            }
        )

    # ---------------------------------------------------------- legal actions
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """All legal actions of ``seat`` now (default: the seat to move); [] if it is
        not that seat's move or the game is over. Order is stable (rules §6, specs/rules.md).

        Read-only: the list is the engine's own (kept until the next :meth:`apply`), not
        a copy; copy it before changing it."""
        to_move = self.to_move
        if to_move is None or (seat is not None and seat != to_move):
            return []
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._answers() if self.pending is not None else self._round_actions()
        return legal

    def _answers(self) -> list[Action]:
        p = self.pending
        assert p is not None
        # the contest and its target by index (a NamedTuple's field read is a descriptor call)
        contest = p[0]
        s = self.seats[p[2]]
        hand = s.hand
        armed = s.equipment is not None
        if self.round_no == self.rules.rounds:  # the last round: all hand cards
            weapon = armed and contest != ROUND_DISCARD
            return [Action(A.ANSWER, cards=tuple(hand), weapon=weapon)]
        if armed and contest == ROUND_ATTACK:  # each card without, then with the weapon
            if not hand:
                return [_NO_CARD_ANSWER[False], _NO_CARD_ANSWER[True]]
            out: list[Action] = []
            pairs = _ANSWER_BOTH
            for c in hand:  # a plain loop: cheaper than a chain of maps (Python 3.11)
                out += pairs[c]
            return out
        # an attack unarmed or a discard: without the weapon; a defense: with it if armed
        weapon = armed and contest == ROUND_DEFENSE
        if not hand:
            return [_NO_CARD_ANSWER[weapon]]
        row = _ANSWER_ROW[weapon]
        if len(hand) > 1:  # the row's actions at the hand's cards, fetched in C (as _round_actions)
            return [*itemgetter(*hand)(row)]
        return [row[hand[0]]]  # itemgetter of one card gives the Action itself, not a 1-tuple

    def _round_actions(self) -> list[Action]:
        seat = self.to_move  # no contest is pending: the actor
        assert seat is not None
        s = self.seats[seat]
        hand = s.hand
        if self.supplying is not None:  # supply (a) under way: one recovered card at a time, or stop
            rec = s.recovered
            out = [_SUPPLY_MORE[c] for c in hand if c in rec]
            out.append(_PASS)
            return out
        armed = s.equipment is not None
        out: list[Action] = [_REARM] if not armed and self._can_rearm(seat) else []
        kind = self.round_kind
        last = self.round_no == self.rules.rounds
        n = len(self.seats)
        if kind == ROUND_SUPPLY:
            # supply (a) starts with the intent card; its recovered cards follow one
            # action each (§9.3). In the last round it discards the whole hand, and a
            # player with hand cards has no other choice (§9.16).
            if last:
                if hand:
                    out.append(Action(A.SUPPLY_RECOVERED, cards=tuple(hand)))
                    return out
            else:
                out += [_SUPPLY_A[c] for c in hand]
            if len(self.stock) >= 2:
                out.append(_SUPPLY_EQUIPMENT)
            out.append(_PASS)
            return out
        if not hand:
            out.append(_PASS)
            return out
        if last:
            opponents = [t for t in range(n) if t != seat]
            plays: list[tuple[int, ...]] = [tuple(hand)]
            if kind == ROUND_ATTACK:
                out.extend([Action(A.ATTACK, t, plays[0], armed) for t in opponents])
            elif kind == ROUND_DEFENSE:
                out.extend([Action(A.DEFENSE, t, plays[0]) for t in opponents])
            else:
                self._discard_actions(seat, opponents, plays, armed, True, out)
            return out
        if kind == ROUND_ATTACK and armed:  # each card with and without the weapon
            for pairs in _ATTACK_BOTH[n][seat]:
                for c in hand:
                    out += pairs[c]
        elif kind == ROUND_ATTACK or kind == ROUND_DEFENSE:
            rows = _PLAIN_ROWS[kind][n][seat]
            if len(hand) > 1:
                pick = itemgetter(*hand)  # a row's actions at the hand's cards, as a tuple (fetched in C)
                for row in rows:
                    out += pick(row)
            else:  # itemgetter of one card gives the Action itself, not a 1-tuple
                c = hand[0]
                out += [row[c] for row in rows]
        else:
            opponents = [t for t in range(n) if t != seat]
            self._discard_actions(seat, opponents, [(c,) for c in hand], armed, False, out)
        return out

    def _discard_actions(self, seat: int, opponents: list[int], plays: list[tuple[int, ...]], armed: bool,
                         last: bool, out: list[Action]) -> None:
        """The discard-round actions of ``seat`` (§6 discard, §9.2, §9.13, §9.16)."""
        seats = self.seats
        targets = [t for t in opponents if seats[t].equipment is not None]
        if not targets:
            if last:
                out += [Action(A.DISCARD, None, cs) for cs in plays]
            else:  # single cards: the pre-built actions; the last round empties the hand (§9.16)
                row = _PLAY[A.DISCARD, None, False]
                out += [row[cs[0]] for cs in plays]
                out.append(_PASS)
            return
        for t in targets:
            both = _PLAY_BOTH[A.DISCARD, t]
            for cs in plays:
                if armed and (self._side_same(seat, t, cs) or self._role_unknown(t)):
                    if last:
                        out.append(Action(A.DISCARD, t, cs, True))
                    else:
                        out += both[cs[0]]  # without, then with the weapon
                elif last:
                    out.append(Action(A.DISCARD, t, cs, False))
                else:
                    out.append(both[cs[0]][0])

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply ``action`` for the seat to move (``seat``, if given, must be that seat).

        Returns the events it caused (also appended to :attr:`events`). Raises
        :class:`IllegalAction` with the reason when it is not legal; the state is then
        unchanged.
        """
        if self.over:
            raise IllegalAction("game-over")
        if seat is not None and seat != self.to_move:
            raise IllegalAction("not-your-turn", to_move=self.to_move)
        legal = self._legal_cache
        if legal is not None and self._lookup_legal:
            # as _legal_form's first step, without the call (nearly every action is
            # picked from the list the caller just asked for: the very object, so
            # only another object needs the type check)
            try:
                found = legal[legal.index(action)]
            except (ValueError, TypeError):
                found = None
            if found is not action:
                if not isinstance(action, Action):
                    raise IllegalAction("not-an-action")
                action = self._legal_form(action) if found is None else found
        else:
            if not isinstance(action, Action):
                raise IllegalAction("not-an-action")
            action = self._legal_form(action)
        start = len(self.events)
        self._legal_cache = self._frame = None
        self.history.append(action)
        # each step below keeps to_move (see _settle_turn); the kind by index: a
        # NamedTuple's field read is a descriptor call (Python 3.11 does not specialise it)
        kind = action[0]
        if kind == A.ANSWER:
            self._resolve(action)
        elif kind in _PLAY_KINDS:
            self._play(action)
        elif kind == A.REARM:
            self._rearm()
        else:
            self._act(action)
        return self.events[start:]

    #: True while _legal_form starts by finding the action in the cached legal list
    #: (apply then does that step itself); a subclass that overrides _legal_form in
    #: another way sets it False
    _legal_form_is_lookup: ClassVar[bool] = True

    def _legal_form(self, action: Action) -> Action:
        """The entry of the legal-action list equal to ``action``, or IllegalAction.

        The list's own entry is returned (and recorded), so an action that compares
        equal with other types (``target=1.0`` or ``True``, ``weapon=1``, a card
        ``6.0``) is stored with the engine's types and the record replays. Cards given
        in another order (all hand cards in the last round) are accepted in the
        engine's order.
        """
        legal = self._legal_cache
        if legal is None:
            legal = self.legal_actions()
        try:
            return legal[legal.index(action)]
        except (ValueError, TypeError):
            pass
        problem = _malformed(action)
        if problem is None:
            ordered = action._replace(cards=tuple(sorted(action.cards)))
            if ordered in legal:
                return legal[legal.index(ordered)]
        raise problem or self._why_illegal(action)

    def _why_illegal(self, action: Action) -> IllegalAction:
        seat = self.to_move
        assert seat is not None
        s = self.seats[seat]
        if self.supplying is not None:
            if action.kind not in (A.SUPPLY_RECOVERED, A.PASS) or action.cards:
                return IllegalAction("supply-unfinished")
            if any(c not in s.recovered for c in action.recovered):
                return IllegalAction("supply-recovered-only")
        elif self.pending is not None:
            if action.kind != A.ANSWER:
                return IllegalAction("answer-first", seat=seat, contest=self.pending.contest, actor=self.pending.actor)
        elif action.kind == A.ANSWER:
            return IllegalAction("nothing-to-answer")
        elif action.kind == A.REARM:
            if s.equipment is not None:
                return IllegalAction("rearm-equipped")
            if len(self.stock) < 2:
                return IllegalAction("stock-short")
            if self.rearmed:
                return IllegalAction("rearm-twice")
            return IllegalAction("rearm-too-soon", round=s.lost_round)
        elif action.kind in (A.ATTACK, A.DEFENSE, A.DISCARD, A.SUPPLY_RECOVERED, A.SUPPLY_EQUIPMENT):
            wanted = {ROUND_ATTACK: A.ATTACK, ROUND_DEFENSE: A.DEFENSE, ROUND_DISCARD: A.DISCARD}.get(self.round_kind)
            if self.round_kind == ROUND_SUPPLY and action.kind not in (A.SUPPLY_RECOVERED, A.SUPPLY_EQUIPMENT):
                return IllegalAction("not-supply-action", kind=action.kind)
            if self.round_kind != ROUND_SUPPLY and action.kind != wanted:
                return IllegalAction("wrong-round", round=self.round_kind, kind=action.kind)
        missing = [c for c in action.cards + action.recovered if c not in s.hand]
        if missing:
            return IllegalAction("not-in-hand", cards=[card_name(c) for c in missing])
        if action.target is not None and not (0 <= action.target < self.players) or action.target == seat:
            return IllegalAction("bad-target", target=action.target)
        if action.weapon and s.equipment is None:
            return IllegalAction("no-weapon")
        if self.last_round and action.kind not in (A.PASS, A.SUPPLY_EQUIPMENT, A.REARM):
            return IllegalAction("last-round-all")
        if action.kind == A.DISCARD and action.target is not None and self.seats[action.target].equipment is None:
            return IllegalAction("no-equipment", target=action.target)
        if action.kind == A.SUPPLY_RECOVERED and action.recovered:
            return IllegalAction("supply-order")
        if self.last_round and s.hand and action.kind in (A.PASS, A.SUPPLY_EQUIPMENT):
            return IllegalAction("last-round-no-pass")
        if action.kind == A.SUPPLY_EQUIPMENT:
            return IllegalAction("stock-short")
        if action.kind == A.PASS:
            return IllegalAction("cannot-pass")
        return IllegalAction("not-legal-now", kind=action.kind)

    def _rearm(self) -> None:
        seat = self.to_move  # the actor: rearm comes before its round action
        assert seat is not None
        mass, weapon = self._draw_pair(seat, face_up=False)
        self.rearmed = True
        self._emit({"kind": "rearm", "seat": seat}, {seat: {"equipment": [mass, weapon]}})

    def _act(self, action: Action) -> None:
        """A pass or a supply action of the actor (§6 supply, §9.3)."""
        seat = self.to_move  # no contest is pending: the actor
        assert seat is not None
        s = self.seats[seat]
        kind = action.kind
        if kind == A.PASS:
            if self.supplying is not None:  # stop discarding recovered cards
                self.supplying = None
                self._round_frame = None  # the observations' supply changed (_round_keys)
                self._emit({"kind": "pass", "seat": seat, "round_type": self.round_kind, "option": "a"})
            else:
                self._emit({"kind": "pass", "seat": seat, "round_type": self.round_kind})
            self._next_turn()
            return
        if kind == A.SUPPLY_RECOVERED:
            self._supply_recovered(seat, action)
            return
        assert kind == A.SUPPLY_EQUIPMENT, kind
        face_up = self.rules.same_identity == "shared-role" and any(
            self._roles_match(seat, t) for t in range(self.players) if t != seat
        )
        old = None
        if s.equipment is not None:
            old = [s.equipment.mass, s.equipment.weapon]
            self._discard(old)
            s.equipment = None
            self._touch(seat)
        mass, weapon = self._draw_pair(seat, face_up)
        if face_up:
            self._reveal_identity(seat)
        data = {"kind": "supply", "seat": seat, "option": "b", "discarded": old, "face_up": face_up}
        if face_up:
            data["equipment"] = [mass, weapon]
            self._emit(data)
        else:
            self._emit(data, {seat: {"equipment": [mass, weapon]}})
        self._next_turn()

    def _play(self, action: Action) -> None:
        """An attack, defense or discard play of the actor (§6): its cards are played
        face-up, into a contest its target answers next (a discard with no target, or
        between different identities, is settled at once)."""
        kind, target, cards, weapon, _ = action
        seat = self.to_move  # no contest is pending: the actor
        assert seat is not None
        # _remove_from_hand touches the seat: its hand changed; its cards in play still count (§8)
        self._remove_from_hand(seat, cards)
        self.public.update(cards)
        if kind == A.DISCARD:
            if target is None:
                self._discard(cards)
                self._emit({"kind": "discard", "actor": seat, "target": None, "cards": list(cards),
                            "result": "no-target"})
                if not self._check_win(seat):
                    self._next_turn()
                return
            if not self._side_same(seat, target, cards):
                self._plain_discard(seat, target, cards)
                return
        assert target is not None
        self.pending = _new_tuple(Pending, (kind, seat, target, cards, weapon))
        self.to_move = target
        shown = list(cards)  # one list for the event, the pending contest's wire and the contest's event
        self._pending_wire = {"contest": kind, "actor": seat, "target": target, "cards": shown, "weapon": weapon}
        self._emit({"kind": "play", "actor": seat, "target": target, "contest": kind, "cards": shown,
                    "weapon": weapon})

    def _supply_recovered(self, seat: int, action: Action) -> None:
        """Supply (a), one step (§6, §9.3): the intent card(s) first, then recovered
        cards one at a time while fewer than v are gone and some are left."""
        s = self.seats[seat]
        self._round_frame = None  # the observations' supply changes (_round_keys)
        gone = action.cards + action.recovered
        self._remove_from_hand(seat, gone)
        self._discard(gone)
        self._emit({"kind": "supply", "seat": seat, "option": "a", "cards": list(action.cards),
                                            "recovered": list(action.recovered)})
        if self._check_win(seat):
            self.supplying = None
            return
        sup = self.supplying
        if sup is None:
            v = _intent(action.cards, self._ranks)
            if s.recovered and not self.last_round:
                self.supplying = SupplyA(seat, action.cards, v, [], v)
                return
        else:
            sup.recovered.extend(action.recovered)
            sup.left -= len(action.recovered)
            if sup.left > 0 and s.recovered:
                return
            self.supplying = None
        self._next_turn()

    def _plain_discard(self, seat: int, target: int, cards: tuple[int, ...]) -> None:
        """Different-identity discard (§6): i_a > m_d discards the target's equipment."""
        eq = self.seats[target].equipment
        assert eq is not None
        i_a, m_d = _intent(cards, self._ranks), eq.m
        success = i_a > m_d
        self.public.update([eq.mass])  # the target shows its mass for the comparison
        self._touch(target, _EQUIPMENT)
        equipment = [eq.mass, eq.weapon]
        self._discard(cards)
        if success:
            self._lose_equipment(target)
        rel = ">" if i_a > m_d else "<" if i_a < m_d else "="
        self._emit({"kind": "discard", "actor": seat, "target": target, "cards": list(cards),
                    "formula": f"i {i_a} {rel} m {m_d}", "success": success,
                    "equipment": equipment if success else None, "result": "success" if success else "fail"})
        if not self._check_win(seat, target):
            self._next_turn()

    def _resolve(self, answer: Action) -> None:
        """The target of the pending contest answers (§6): both sides' totals, who
        collects or discards what, the weapons' uses, the identities shown."""
        contest, a, d, a_cards, weapon_a = self.pending  # type: ignore[misc]  # unpacked once (a NamedTuple)
        d_cards, weapon_d = answer[2], answer[3]  # cards, weapon (by index: as apply's kind)
        R = self.round_value
        values, ranks = self._values, self._ranks
        if contest != ROUND_DISCARD:  # a discard response is shown and kept
            self._remove_from_hand(d, d_cards)
        self.public.update(d_cards)
        i_a = ranks[a_cards[0]] if len(a_cards) == 1 else sum([ranks[c] for c in a_cards])  # as _intent
        i_d = ranks[d_cards[0]] if len(d_cards) == 1 else sum([ranks[c] for c in d_cards])
        # which side uses the same-identity formula (§5; as _side_same)
        matching = self._matching_card
        if matching:
            same_a = any(ranks[c] == values[a] for c in a_cards)
        else:
            identities = self.setup.identities
            same_a = identities[a] == identities[d]
        if contest == ROUND_DISCARD:
            # The target's side of a same-identity discard has no formula. In the
            # shared-role reading the contest itself is same-identity (both roles are
            # used and shown); with matching-card its card says nothing (it must not
            # tell the target's identity value to everyone).
            same_d = not matching
        elif matching:
            same_d = any(ranks[c] == values[d] for c in d_cards)
        else:
            same_d = same_a  # the same two roles
        use_a = self._use_weapon(a) if weapon_a else None
        use_d = self._use_weapon(d) if weapon_d else None
        collector: int | None = None
        data: dict[str, Any] = {"kind": "contest", "actor": a, "target": d, "contest": contest, "R": R}
        if contest == ROUND_ATTACK:
            # the totals as plain tuples (formulas.attack_pair: a Total cost ~2k instructions more)
            total_a, formula_a = attack_pair(R, i_a, (use_a["m"], use_a["w"]) if use_a else None, same_a, values[a])
            total_d, formula_d = attack_pair(R, i_d, (use_d["m"], use_d["w"]) if use_d else None, same_d, values[d])
            if total_a == total_d:
                self._discard(a_cards + d_cards)
                result = "tie"
            else:
                collector = a if total_a < total_d else d
                self._collect(collector, a_cards + d_cards)
                result = "collect"
        elif contest == ROUND_DEFENSE:
            total_a, formula_a = defense_attack_pair(R, i_a, same_a, values[a])
            total_d, formula_d = defense_pair(R, i_d, use_d["w"] if use_d else 0, same_d)
            if total_d > total_a:
                collector, result = a, "attack-invalid"
            else:
                collector, result = d, "attack-valid"
            self._collect(collector, a_cards + d_cards)
        else:  # same-identity discard: attack first, then discard
            total_a, formula_a = attack_pair(R, i_a, (use_a["m"], use_a["w"]) if use_a else None, True, values[a])
            total_d, formula_d = i_d, f"{i_d} = {i_d}"
            eq = self.seats[d].equipment
            if total_a > total_d:
                self._collect(d, a_cards)
                if eq is not None:
                    data["equipment"] = [eq.mass, eq.weapon]
                    self._lose_equipment(d)
                collector, result = d, "success"
            else:
                self._discard(a_cards)
                result = "fail"
        if same_a:
            self._reveal_identity(a)
        if same_d:
            self._reveal_identity(d)
        wire = self._pending_wire
        data["sides"] = [
            {"seat": a, "cards": list(a_cards) if wire is None else wire["cards"], "same": same_a, "weapon": use_a,
             "formula": formula_a, "total": total_a},
            {"seat": d, "cards": list(d_cards), "same": same_d, "weapon": use_d, "formula": formula_d, "total": total_d},
        ]
        data["result"] = result
        data["collector"] = collector
        data["identities"] = self._shown_identities or self._public_identities()
        self.pending = self._pending_wire = None
        stale = self._stale  # as _touch(a, _COUNTS): its cards are no longer in play
        if a not in stale:
            stale[a] = _COUNTS
        self._emit(data)
        seats = self.seats
        if (seats[a].hand or seats[a].equipment is not None) and (seats[d].hand or seats[d].equipment is not None):
            self._next_turn()  # neither side emptied its hand and equipment (as _check_win)
        elif not self._check_win(a, d):
            self._next_turn()

    # ------------------------------------------------------------ observation
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now, as a plain dict (None = spectator: public only).

        Keys: ``seat``, ``version``, ``round``/``rounds``/``round_card``/``round_type``/``R``/
        ``leader``/``last_round``, ``to_move``, ``pending``, ``supply`` (the supply (a)
        under way, specs/rules.md §9.3, or None), ``specials``, ``players`` (per seat:
        identity if visible, hand count, recovered cards, equipment as far as visible
        with ``face_up`` = how it lies now and ``shown`` = its cards were shown to all,
        §7; rearm round), ``hand`` (own cards, sorted; [] for a spectator),
        ``stock``/``round_pile`` counts, ``discard_pile``, ``log`` (last events as seen by
        ``seat``), ``result`` once over. Two states that differ only in cards ``seat``
        may not see give equal observations. Raises ``ValueError`` for a seat that is not
        at the table (``-1`` must not read the last seat's hand).

        Read-only: the top-level dict and ``hand`` are new on every call; everything
        else in it (lists, the ``players`` entries, ``log`` entries, ``pending``,
        ``supply``, ``specials``, ``result``) is shared with the engine and with other
        observations: each is built once and replaced, never changed, when the state
        changes (the host observes every seat and the spectator after every action; a
        deep copy per call would cost more than the rest of a move). A caller that
        wants to change a part must copy it first.
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < len(self.seats)):
            self._check_viewer(seat)
        frame = self._frame
        if frame is None:
            frame = self._frame = self._spectator_frame()
        obs = frame.copy()
        # the log (as _log, inline: one call less on every observation)
        wired = self._wired
        now = len(wired)
        if seat is None:
            obs["log"] = wired[-LOG_TAIL:] if now == len(self.events) else self._log(None)
            obs["players"] = self._seen_by_others.copy()
            obs["hand"] = []
            return obs
        if self._private_at[seat] < now - LOG_TAIL and now == len(self.events):
            obs["log"] = wired[-LOG_TAIL:]  # no private event for seat in the tail
        else:
            obs["log"] = self._log(seat)
        obs["seat"] = seat
        # a new list of every seat's entry as the others see it (one list per
        # observation: the frame keeps none), with the seat's own entry as it sees
        # itself when that differs: its public entry with its own values of the keys
        # that hide something from the others (kept until the seat changes; inline)
        players = self._seen_by_others.copy()
        extra = self._own_extra[seat]
        if extra is None:
            extra = self._own_extra[seat] = self._own_view(seat)
        if extra:  # (mostly not: the entry as others see it is the seat's own)
            own = self._seen_by_self[seat]
            if own is None:  # every key of extra is in the entry: the key order stays
                own = self._seen_by_self[seat] = {**players[seat], **extra}
            players[seat] = own
        obs["players"] = players
        obs["hand"] = self.seats[seat].hand.copy()
        return obs

    def _spectator_frame(self) -> dict[str, Any]:
        """What every viewer's observation of this version is copied from: the
        spectator's, without its ``log`` and ``players`` (see :meth:`observation`;
        the entries are brought up to date here, in ``_seen_by_others``): the game's
        dict with the parts an action changed filled in again, in place (observations
        of earlier versions are copies, and every value is replaced, never changed):
        the round's keys, the stock's count and the supply under way by _round_keys
        after a step that changes them dropped ``_round_frame``, the discard pile when
        it grew, the others on every version."""
        frame = self._round_frame
        if frame is None:
            frame = self._round_frame = self._round_keys()
        pending = self.pending
        frame["version"] = len(self.history)
        frame["to_move"] = self.to_move
        frame["pending"] = None if pending is None else self._pending_wire or pending.to_wire()
        # every seat's players entry as the others see it (inline: once per version):
        # entries of seats no action touched since are reused; a seat whose hand, cards
        # in play, recovered cards or equipment's state only changed gets a copy of its
        # entry with those keys again
        entries = self._seen_by_others
        stale = self._stale
        if not entries:
            n = len(self.seats)
            entries.extend([self._public_entry(t) for t in range(n)])
            self._seen_by_self[:] = self._own_extra[:] = [None] * n
            stale.clear()
        elif stale:
            seats, own = self.seats, self._seen_by_self
            in_play = -1 if pending is None else pending[1]  # the seat with cards in play (its actor)
            for t, level in stale.items():
                own[t] = None
                if level == _ALL:
                    self._own_extra[t] = None
                    entries[t] = self._public_entry(t)
                    continue
                st = seats[t]
                entry = entries[t].copy()
                entry["hand_count"] = left = len(st.hand)
                if level >= _RECOVERED:
                    recovered = [*st.recovered]  # sorted in place: sorted() of a set cost ~40 % more
                    recovered.sort()
                    entry["recovered"] = recovered
                    if level == _EQUIPMENT:  # the same pair, shown or used: its entries again
                        self._own_extra[t] = None
                        eq = st.equipment
                        entry["equipment"] = None if eq is None else self._equipment_entry(eq, False)
                if st.equipment is not None:
                    left += 2
                if t == in_play:
                    left += len(pending[3])  # type: ignore[index]  # its cards
                entry["cards_left"] = left  # as cards_left(t)
                entries[t] = entry
            stale.clear()
        if self._discard_wire is None:  # the pile grew: a new list (the frame keeps its list until then)
            frame["discard_pile"] = self._discard_wire = list(self.discard_pile)
        if self.over:
            frame["result"] = {"winner": self.winner, "ranking": list(self.ranking)}
        return frame

    def _round_keys(self) -> dict[str, Any]:
        """The game's frame dict with the keys that change only when a round starts
        or a pair is drawn from the stock or a supply (a) steps on (the stock's
        count, the supply under way) filled in again (in place: nine stores,
        where a new 21-key dict per round cost about three times as much; the others
        are filled in per version, or when they change: _spectator_frame)."""
        frame = self._frame_dict
        if frame is None:
            frame = self._frame_dict = self._frame_template()
        frame["round"] = self.round_no
        frame["round_card"] = self.round_card
        frame["round_type"] = self.round_kind
        frame["R"] = self.round_value
        frame["leader"] = self.leader
        frame["last_round"] = self.round_no == self.rules.rounds
        frame["round_pile"] = len(self.round_pile)
        frame["stock"] = len(self.stock)
        supplying = self.supplying
        frame["supply"] = None if supplying is None else supplying.to_wire()
        return frame

    def _frame_template(self) -> dict[str, Any]:
        """Every key of an observation in order, those that never change in a game
        filled in (the round's: _round_keys; the others per version: _spectator_frame)."""
        rules = self.rules
        specials = self._specials
        if specials is None:
            setup = self.setup
            specials = self._specials = {"supply": setup.supply_number, "discard": setup.discard_number,
                                         "coordinator": setup.coordinator_rank, "farmer": setup.farmer_rank}
        return {
            "seat": None,
            "version": None,
            "round": None,
            "rounds": rules.rounds,
            "round_card": None,
            "round_type": None,
            "R": None,
            "leader": None,
            "last_round": None,
            "to_move": None,
            "pending": None,
            "supply": None,
            "same_identity": rules.same_identity,
            "specials": specials,
            "players": None,
            "hand": [],
            "stock": None,
            "round_pile": None,
            "discard_pile": None,
            "log": None,
            "result": None,
        }

    def _log(self, viewer: int | None) -> list[dict[str, Any]]:
        """The last :data:`LOG_TAIL` events as ``viewer`` sees them (a new list of
        shared wire dicts): the events' public wire dicts, but a seat's own form of an
        event with a private part for it."""
        events, wired = self.events, self._wired
        now = len(events)
        if len(wired) != now:  # events appended from outside _emit
            wired[:] = [e._public for e in events]
            private_at = self._private_at = [-1] * len(self.seats)
            private_events = self._private_events = [[] for _ in self.seats]
            for k, e in enumerate(events):
                for s in e.private or ():
                    private_at[s] = k
                    private_events[s].append(k)
        tail = wired[-LOG_TAIL:]
        if viewer is not None and self._private_at[viewer] >= now - LOG_TAIL:
            first = now - len(tail)
            for k in reversed(self._private_events[viewer]):  # only the viewer's private events
                if k < first:
                    break
                tail[k - first] = events[k].wire(viewer)
        return tail

    def _own_view(self, seat: int) -> dict[str, Any]:
        """What seat ``seat`` sees of itself that the others do not: the keys of its
        ``players`` entry that hide something (its identity, its equipment's hidden
        cards) with its own values, {} for none. It changes only when the seat's
        identity, equipment or shown cards do, all _EQUIPMENT or _ALL touches (which
        drop it from ``_own_extra``): the counts' and recovered cards' touches keep it."""
        extra: dict[str, Any] = {}
        st = self.seats[seat]
        if not st.identity_shown:
            extra["identity"] = self.setup.identities[seat]
            extra["identity_value"] = self._values[seat]
        eq = st.equipment
        if eq is not None and not (eq.mass in self.public and eq.weapon in self.public):
            extra["equipment"] = self._equipment_entry(eq, True)
        return extra

    def _public_entry(self, t: int) -> dict[str, Any]:
        """Seat ``t``'s entry of ``observation()["players"]`` as everyone but ``t`` sees
        it: its identity if shown, its equipment's public cards."""
        st = self.seats[t]
        shown = st.identity_shown
        eq = st.equipment
        pending = self.pending
        hand = len(st.hand)
        return {
            "seat": t,
            "identity": self.setup.identities[t] if shown else None,
            "identity_value": self._values[t] if shown else None,
            "hand_count": hand,
            "recovered": sorted(st.recovered),
            "equipment": None if eq is None else self._equipment_entry(eq, False),
            "rearm_from": None if st.lost_round is None else st.lost_round + 2,
            # as cards_left(t)
            "cards_left": hand + (0 if eq is None else 2) + (
                len(pending.cards) if pending is not None and pending.actor == t else 0),
        }

    def _equipment_entry(self, eq: Equipment, own: bool) -> dict[str, Any]:
        """A ``players`` entry's ``equipment``: as its holder sees it (``own``), or with
        only the cards shown to everyone (the mass decides uses and quality, §7)."""
        public = self.public
        show_mass = own or eq.mass in public
        return {
            "mass": eq.mass if show_mass else None,
            "weapon": eq.weapon if own or eq.weapon in public else None,
            "uses_left": eq.uses_left if show_mass else None,
            "quality": eq.quality if show_mass else None,
            "face_up": eq.face_up,
            "shown": eq.shown,
        }

    # ---------------------------------------------------------- serialisation
    def record(self) -> dict[str, Any]:
        """The game as ``{"version", "rules", "setup", "deck", "actions"}`` (plain data);
        :func:`replay` rebuilds exactly this state from it."""
        return {
            "version": RECORD_VERSION,
            "rules": self.rules.to_wire(),
            "setup": self.setup.to_wire(),
            "deck": list(self.deck),
            "actions": [a.to_wire() for a in self.history],
        }

    def clone(self) -> "GameState":
        """An independent deep copy (for search bots and tests)."""
        twin = GameState.new(self.rules, self.deck, self.setup)
        for action in self.history:
            twin.apply(action)
        return twin


def _intent(cards: tuple[int, ...], ranks: Sequence[int] = RANKS) -> int:
    """i: the sum of the ranks of the cards played (0 for none; §6); ``ranks`` by token."""
    if len(cards) == 1:
        return ranks[cards[0]]
    return sum([ranks[c] for c in cards])


def _malformed(action: Action) -> IllegalAction | None:
    """Why ``action`` is not even well formed (wrong types, card ids out of range, a
    card named twice), or None. Only called for actions that are not legal."""
    if not isinstance(action.kind, str) or action.kind not in A.KINDS:
        return IllegalAction("unknown-kind", kind=repr(action.kind))
    if action.target is not None and type(action.target) is not int:
        return IllegalAction("target-not-seat", target=repr(action.target))
    if type(action.weapon) is not bool:
        return IllegalAction("weapon-not-bool", weapon=repr(action.weapon))
    for name in ("cards", "recovered"):
        cards = getattr(action, name)
        if not isinstance(cards, tuple) or not all(type(c) is int and 0 <= c <= 52 for c in cards):
            return IllegalAction("cards-not-ids", field=name, value=repr(cards))
    named = action.cards + action.recovered
    if len(set(named)) != len(named):
        twice = sorted({c for c in named if named.count(c) > 1})
        return IllegalAction("cards-twice", cards=[card_name(c) for c in twice])
    return None


def replay(record: dict[str, Any]) -> GameState:
    """Rebuild a game from :meth:`GameState.record` output.

    Raises ``ValueError`` for a malformed record (missing or ill-typed parts, invalid
    rules, setup or deck) and :class:`IllegalAction` (with the action's index) if an
    action is not legal at its turn; never another exception type.
    """
    version = record.get("version") if isinstance(record, dict) else None
    if type(version) is not int or version != RECORD_VERSION:
        raise ValueError(f"not a version {RECORD_VERSION} game record")
    missing = [k for k in ("rules", "setup", "deck", "actions") if k not in record]
    if missing:
        raise ValueError(f"game record lacks {', '.join(missing)}")
    if not isinstance(record["actions"], (list, tuple)):
        raise ValueError("game record 'actions' must be a list")
    rules = RuleSet.from_wire(record["rules"])
    setup = Setup.from_wire(record["setup"])
    unfit = setup.fits(rules)
    if unfit:
        raise ValueError(unfit)
    state = GameState.new(rules, record["deck"], setup)
    for k, wire in enumerate(record["actions"]):
        try:
            action = Action.from_wire(wire)
        except ValueError as exc:
            raise ValueError(f"action {k}: {exc}") from None
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise exc.within(index=k) from None
    return state
