"""Host side of the fairness protocol (specs/fairness.md §2, §6).

:class:`HostDealer` runs commit–reveal with the seats, derives the deck and setup,
owns the :class:`jupai_net.engine.GameState` and produces every signed statement the
host must send. It is pure: no IO, no clock; the trio host only carries the bytes.

Every method that changes the game returns an :data:`Outbox`: for each viewer (seat
``0..P-1``, and ``None`` for spectators when enabled) the list of signed statements
(opaque ``bytes``) to deliver to that viewer now, in order. Statements addressed to
a seat must reach that seat only.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..rules import RuleSet
from .primitives import (
    GAME_ID_BYTES,
    HOST_SEAT,
    SEED_BYTES,
    Deal,
    FairnessError,
    check_seed,
    deck_commitments,
    derive_deal,
    key_fingerprint,
    make_game_id,
    make_seed,
    seed_commitment,
)
from .replay import due_reveals, load_engine
from .statements import (ABANDON, BLIND, CLAIM, COMMITMENTS, DEAL, END, HELLOS, SEEDS, START, STEP, chain_link,
                         chain_start, make_body, pack, public_key_bytes, sign_packed, unsigned_packed)

#: Viewer → signed statements to send it now, in order.
Outbox = dict[int | None, list[bytes]]

# Dealer phases.
CREATED, COMMITTING, REVEALING, PLAYING, ENDED, ABANDONED = "created", "committing", "revealing", "playing", "ended", "abandoned"


class DealerError(FairnessError):
    """A :class:`HostDealer` method was called out of order or with a bad argument
    (wrong seat, bad commitment length, a seed that does not open its commitment)."""


class HostDealer:
    """The host's dealer for one game.

    ``rules``: the :class:`RuleSet`; ``signing_key``: the host's Ed25519 key;
    ``game_id`` (16 bytes) and ``host_seed`` (32 bytes) default to fresh values from
    :mod:`secrets` (give them only for test vectors); ``spectators``: also produce the
    public stream (viewer ``None``); ``engine``: replaces :mod:`jupai_net.engine` (tests);
    ``chained``: the viewers whose streams are chained (specs/fairness.md §6.5), every
    viewer by default (``True``), none with ``False`` (version-1 bodies, as before the
    chain), else a collection of viewers (seats, ``None`` for the spectators' stream).
    ``deferred``: the seats among them whose streams are in version-3 bodies (§6.6):
    their ``step`` statements are signed only for the seat to move after the step (the
    one the host asks next), the others' signature deferred to their next signed
    statement; none by default, every chained seat with ``True``.

    Order of calls: :meth:`start`; :meth:`commit` (or :meth:`commit_bot`) for every seat;
    :meth:`reveal` for every seat that is not a bot; then :meth:`apply` for each action
    until ``state.is_over``; then :meth:`finish`. :meth:`abandon` at any point.
    """

    def __init__(
        self,
        rules: RuleSet,
        signing_key: Ed25519PrivateKey,
        *,
        game_id: bytes | None = None,
        host_seed: bytes | None = None,
        spectators: bool = False,
        engine: ModuleType | None = None,
        chained: Any = True,
        deferred: Any = False,
    ):
        self.rules = rules
        self._key = signing_key
        self.game_id = game_id if game_id is not None else make_game_id()
        self._host_seed = host_seed if host_seed is not None else make_seed()
        if len(self.game_id) != GAME_ID_BYTES or len(self._host_seed) != SEED_BYTES:
            raise DealerError("game id must be 16 bytes and host seed 32 bytes")
        self.host_commitment = seed_commitment(self.game_id, HOST_SEAT, self._host_seed)
        self.host_key = public_key_bytes(signing_key)
        self.seats = rules.players
        self.viewers: tuple[int | None, ...] = tuple(range(self.seats)) + ((None,) if spectators else ())
        self._engine = engine
        self.phase = CREATED
        self._n: dict[int | None, int] = {v: 0 for v in self.viewers}
        #: viewer -> ``prev`` of its stream's next statement (chained streams only)
        self._prev: dict[int | None, bytes] = {
            v: chain_start(self.game_id, v) for v in self.viewers
            if chained is True or (chained is not False and v in chained)}
        #: the seats whose streams are in version-3 bodies (specs/fairness.md §6.6)
        self._deferred: frozenset[int] = frozenset(
            v for v in self._prev if v is not None and (deferred is True or (deferred is not False and v in deferred)))
        self._commitments: list[bytes | None] = [None] * self.seats
        self._seeds: list[bytes | None] = [None] * self.seats
        self._bots: dict[int, bytes] = {}
        self.deal: Deal | None = None
        self.state: Any = None
        self._shown: dict[int | None, set[int]] = {v: set() for v in self.viewers}
        self._pos: dict[int, int] = {}
        self._unwatched: list[tuple[str, int, dict[str, Any]]] | None = None  # public statements not signed yet (unwatched())
        #: every public statement's parts, and those signed so far in version-1 bodies (plain_public())
        self._public: list[tuple[str, int, dict[str, Any]]] = []
        self._plain: list[bytes] = []

    # ------------------------------------------------------------------ helpers

    @property
    def fingerprint(self) -> str:
        """Fingerprint of the host public key, to show on the host screen."""
        return key_fingerprint(self.host_key)

    def unwatched(self) -> None:
        """Nobody watches the public stream (viewer ``None``) for now: its statements are
        built and numbered as before but kept unsigned and out of every
        :data:`Outbox`, until :meth:`watched` (specs/performance.md § Host: a fifth of
        the signing per action at a 4-seat table). No effect without ``spectators``."""
        if None in self._n and self._unwatched is None:
            self._unwatched = []

    def watched(self) -> list[bytes]:
        """Someone watches again: sign the public statements kept since :meth:`unwatched`
        and return them, in order (the same bytes as if signed at once: Ed25519 is
        deterministic); later ones go into the outboxes again."""
        kept, self._unwatched = self._unwatched or [], None
        return [self._sign(None, *entry) for entry in kept]

    def plain_public(self) -> list[bytes]:
        """The spectators' stream so far in version-1 bodies (no chain), for spectators
        whose client reads no chained body (protocol below 5, specs/protocol.md §12):
        the same statements as the public stream, each signed once, when first asked
        for. Empty without ``spectators``."""
        for kind, n, fields in self._public[len(self._plain):]:
            self._plain.append(sign_packed(self._key, pack(make_body(kind, self.game_id, None, n, **fields))))
        return list(self._plain)

    @property
    def chained(self) -> frozenset[int | None]:
        """The viewers whose streams are chained (specs/fairness.md §6.5)."""
        return frozenset(self._prev)

    @property
    def deferred(self) -> frozenset[int]:
        """The seats whose streams are in version-3 bodies, steps signed only for the
        seat to move (specs/fairness.md §6.6)."""
        return self._deferred

    def _emit(self, out: Outbox, viewer: int | None, kind: str, **fields: Any) -> None:
        n = self._n[viewer]
        self._n[viewer] += 1
        if viewer is None:
            self._public.append((kind, n, fields))
        if viewer is None and self._unwatched is not None:
            self._unwatched.append((kind, n, fields))  # packed (and chained) when someone watches: never changed
            return
        out.setdefault(viewer, []).append(self._sign(viewer, kind, n, fields))

    def _sign(self, viewer: int | None, kind: str, n: int, fields: dict[str, Any]) -> bytes:
        """Build, pack and sign statement ``n`` of ``viewer``'s stream (built here: not
        re-checked; every witness checks it); in a chained stream with ``prev``, and the
        link to it kept for the next one (specs/fairness.md §6.5). In a version-3 stream
        a ``step`` for a seat that is not to move after it goes unsigned (§6.6)."""
        prev = self._prev.get(viewer)
        deferrable = viewer in self._deferred
        body_bytes = pack(make_body(kind, self.game_id, viewer, n, prev, deferrable=deferrable, **fields))
        if prev is not None:
            self._prev[viewer] = chain_link(body_bytes)
        if deferrable and kind == STEP and self.state.to_move != viewer:
            return unsigned_packed(body_bytes)
        return sign_packed(self._key, body_bytes)

    def _broadcast(self, out: Outbox, kind: str, **fields: Any) -> None:
        for v in self.viewers:
            self._emit(out, v, kind, **fields)

    def _need(self, *phases: str) -> None:
        if self.phase not in phases:
            raise DealerError(f"not allowed in phase '{self.phase}' (needs {' or '.join(phases)})")

    def _seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise DealerError(f"no seat {seat!r} at a {self.seats}-seat table")
        return seat

    # ------------------------------------------------------------------ commit-reveal

    def start(self) -> Outbox:
        """The ``start`` statement for every viewer: game id, rules, seat count, host seed
        commitment and host public key."""
        self._need(CREATED)
        out: Outbox = {}
        self._broadcast(
            out,
            START,
            rules=self.rules.to_wire(),
            seats=self.seats,
            host_commitment=self.host_commitment,
            host_key=self.host_key,
        )
        self.phase = COMMITTING
        return out

    def commit(self, seat: int, commitment: bytes) -> Outbox:
        """Record ``seat``'s 32-byte seed commitment. Returns ``{}`` until every seat has
        committed; then the ``commitments`` statement for every viewer (plus what
        :meth:`reveal` would return if every seat is a bot). Raises :class:`DealerError`
        on a second commitment or a bad length."""
        self._need(COMMITTING)
        seat = self._seat(seat)
        if not isinstance(commitment, (bytes, bytearray)) or len(commitment) != 32:
            raise DealerError(f"seat {seat}: a seed commitment is 32 bytes")
        if self._commitments[seat] is not None:
            raise DealerError(f"seat {seat} has already committed")
        self._commitments[seat] = bytes(commitment)
        if any(c is None for c in self._commitments):
            return {}
        out: Outbox = {}
        self._broadcast(out, COMMITMENTS, commitments=list(self._commitments))
        self.phase = REVEALING
        for s, seed in self._bots.items():
            self._seeds[s] = seed
        if all(s is not None for s in self._seeds):
            self._after_reveals(out)
        return out

    def commit_bot(self, seat: int) -> Outbox:
        """Make a seed for a bot seat (played by the host) and commit it; its reveal is
        automatic. Returns like :meth:`commit`."""
        self._need(COMMITTING)
        seat = self._seat(seat)
        seed = make_seed()
        self._bots[seat] = seed
        return self.commit(seat, seed_commitment(self.game_id, seat, seed))

    def reveal(self, seat: int, seed: bytes) -> Outbox:
        """Record ``seat``'s seed reveal. Raises :class:`DealerError` if it does not open
        the seat's commitment (the host should then abandon the game, blaming that seat).
        Returns ``{}`` until every seat has revealed; then, for every viewer, the ``seeds``
        statement followed by the ``deal`` statement (deck commitments, initial view and
        the initial card reveals), and the game is ready for :meth:`apply`."""
        self._need(REVEALING)
        seat = self._seat(seat)
        if self._seeds[seat] is not None:
            raise DealerError(f"seat {seat} has already revealed its seed")
        try:
            check_seed(self.game_id, seat, seed, self._commitments[seat])
        except FairnessError as e:
            raise DealerError(e.reason) from None
        self._seeds[seat] = bytes(seed)
        if any(s is None for s in self._seeds):
            return {}
        out: Outbox = {}
        self._after_reveals(out)
        return out

    def _after_reveals(self, out: Outbox) -> None:
        seeds: Sequence[bytes] = list(self._seeds)  # type: ignore[arg-type]
        self._broadcast(out, SEEDS, seeds=list(seeds))
        self.deal = derive_deal(self.rules, self.game_id, self._host_seed, seeds)
        self._pos = self.deal.position_of()
        engine = load_engine(self._engine)
        self.state = engine.GameState.new(self.rules, self.deal.deck, self.deal.setup)
        commitments = deck_commitments(self.game_id, self.deal.deck, self.deal.salts)
        for v in self.viewers:
            private, public = self._due(v)
            self._emit(out, v, DEAL, commitments=commitments, observation=self.state.observation(v), private=private, public=public)
        self.phase = PLAYING

    def _due(self, viewer: int | None, public_now: Any = None) -> tuple[list[list[Any]], list[list[Any]]]:
        private, public = due_reveals(self.state, viewer, self._shown[viewer], public_now)
        if not private and not public:
            return [], []
        self._shown[viewer].update(private)
        self._shown[viewer].update(public)
        deal = self.deal
        return (
            [[k, deal.deck[k], deal.salts[k]] for k in sorted(self._pos[c] for c in private)],
            [[k, deal.deck[k], deal.salts[k]] for k in sorted(self._pos[c] for c in public)],
        )

    # ------------------------------------------------------------------ play

    def apply(self, action: Any) -> tuple[list[Any], Outbox]:
        """Apply ``action`` (a :class:`jupai_net.actions.Action`) for the seat to move.
        Returns ``(events, outbox)``: the engine's events and, for every viewer, one
        ``step`` statement (state version, actor, action wire form, the events as that
        viewer sees them, the card reveals now due to it). Raises the engine's
        ``IllegalAction`` (state unchanged, nothing emitted) on an illegal action."""
        self._need(PLAYING)
        actor = self.state.to_move
        events = self.state.apply(action)
        history = getattr(self.state, "history", None)
        if history:  # sign the engine's own form of the action (int seat, bool weapon, card order)
            action = history[-1]
        out: Outbox = {}
        version, wire = self.state.version, action.to_wire()  # the same for every viewer (packed, never changed)
        public_now = frozenset(self.state.known_cards(None))
        for v in self.viewers:
            private, public = self._due(v, public_now)
            self._emit(
                out,
                v,
                STEP,
                version=version,
                actor=actor,
                action=wire,
                events=[e.to_wire(v) for e in events],
                private=private,
                public=public,
            )
        return events, out

    def finish(self) -> Outbox:
        """The ``end`` statement for every viewer: the host seed reveal, the ranking and
        the winner. Only once ``state.is_over``; raises :class:`DealerError` before."""
        self._need(PLAYING)
        if not self.state.is_over:
            raise DealerError("the game is not over")
        out: Outbox = {}
        self._broadcast(out, END, host_seed=self._host_seed, ranking=list(self.state.ranking), winner=self.state.winner)
        self.phase = ENDED
        return out

    def abandon(self, reason: str, *, reveal_seed: bool = True) -> Outbox:
        """The ``abandon`` statement for every viewer (the game stops here). With
        ``reveal_seed`` (the honest default) it carries the host seed, so the seats can
        check the deal so far; verifiers still report a game abandoned after the seed
        reveals as suspicious (specs/fairness.md §9)."""
        self._need(COMMITTING, REVEALING, PLAYING)
        out: Outbox = {}
        self._broadcast(out, ABANDON, reason=str(reason), host_seed=self._host_seed if reveal_seed else None)
        self.phase = ABANDONED
        return out

    # ------------------------------------------------------------------ dealer-blind relay

    def hellos(self, hellos: Sequence[bytes]) -> Outbox:
        """The ``hellos`` statement of a dealer-blind game (specs/fairness.md B.15.1) for
        every viewer: every participant's ``hello`` wire bytes, in pass order (the host,
        then seats 0…P−1). Right after :meth:`start`, instead of the seed commitments."""
        self._need(COMMITTING)
        out: Outbox = {}
        self._broadcast(out, HELLOS, hellos=[bytes(h) for h in hellos])
        return out

    def relay(self, raw: bytes) -> Outbox:
        """The ``blind`` statement carrying one participant message ``raw`` (B.5 wire
        bytes, as its author signed it) to every viewer, in relay order."""
        self._need(COMMITTING, PLAYING, ENDED, ABANDONED)
        out: Outbox = {}
        self._broadcast(out, BLIND, msg=bytes(raw))
        return out

    def play_blind(self, state: Any) -> None:
        """The dealer-blind deal is done: play begins on ``state`` (the host's
        :class:`~jupai_net.blind_game.BlindGameState`, on deck positions), which
        :meth:`finish` reads the ranking from (specs/fairness.md B.16.8)."""
        self._need(COMMITTING)
        self.state = state
        self.phase = PLAYING

    def claim(self, version: int, actor: int, action: Any) -> Outbox:
        """The ``claim`` statement of a dealer-blind game for every viewer: seat
        ``actor`` plays ``action`` (an :class:`~jupai_net.actions.Action` in deck
        positions) at state ``version``, relayed before any card it needs is opened
        (specs/fairness.md B.16.4)."""
        self._need(PLAYING)
        out: Outbox = {}
        self._broadcast(out, CLAIM, version=int(version), actor=int(actor), action=action.to_wire())
        return out

    def seat_seeds(self) -> list[bytes | None]:
        """The seat seeds received so far (``None`` where missing)."""
        return list(self._seeds)
