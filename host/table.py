"""One game table, as pure logic: seats, lobby, commit–reveal, whose turn, timers,
reconnects, and which message goes to whom (specs/host.md).

No sockets, no trio, no clock: the server (:mod:`jupai_net.host.server`) calls

* :meth:`Table.admit` with a client's ``hello``,
* :meth:`Table.receive` with every later message of that client,
* :meth:`Table.disconnect` when its connection is gone,
* :meth:`Table.tick` whenever :meth:`Table.next_deadline` has passed,

always passing ``now`` (seconds on any monotonic clock), and after each call drains
:meth:`Table.drain` — a list of :class:`Send` and :class:`Close` effects, in order —
and carries them out. Connections are named by an ``int`` id chosen by the server.

Private delivery: every message built here for a seat comes from that seat's own
engine observation, its own fairness statement stream or its own legal actions;
spectators (``hello.watch``, specs/protocol.md §12) and the host screen (the
``observer`` callback) get the public observation and the public statement stream only.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack

from jupai_net.actions import Action
from jupai_net.bots import get_bot
from jupai_net.cards import card_name
from jupai_net.blind_game import HiddenCard, fill_event, fill_observation
from jupai_net.engine import IllegalAction
from jupai_net.fairness import DealerError, HostDealer
from jupai_net.fairness.statements import made_kind
from jupai_net.host.blind import BlindDeal, BlindError, merge
from jupai_net.messages.notices import HOST_PID, KNOWN_REASONS, abandon_sentence, notice_sentence
from jupai_net.printable import REPLACEMENT, printable
from jupai_net.protocol import (
    ActionMessage,
    Blind,
    Bye,
    Chat,
    ChatRelay,
    End,
    ErrorMessage,
    Hello,
    Lobby,
    Message,
    Notice,
    Ping,
    PlayerInfo,
    Pong,
    Prompt,
    Ready,
    Reject,
    SeedCommit,
    SeedReveal,
    Series,
    SeriesStanding,
    Start,
    Statement,
    Sync,
    Welcome,
)
from jupai_net.protocol.limits import (
    BLIND_VERSION,
    CHAIN_VERSION,
    DEFER_VERSION,
    MAX_NAME_LEN,
    MAX_STANDINGS,
    MAX_TEXT_LEN,
    MAX_TIMEOUT_MS,
    PROTOCOL_VERSION,
)
from jupai_net.rules import RuleSet
from jupai_net.series import Series as SeriesState

log = logging.getLogger("jupai.host")

LOBBY, SEEDING, PLAYING = "lobby", "seeding", "playing"

#: What ``TableConfig.dealer`` may say (specs/host.md § 2): ``auto`` deals each game
#: blind when every seat's client can (protocol version 4) and the house rules allow it,
#: else trusted; ``trusted`` and ``blind`` always deal that scheme (``blind`` refuses
#: older clients). The wire names only the scheme a game uses
#: (``jupai_net.protocol.limits.DEALERS``).
DEALER_CHOICES: tuple[str, ...] = ("auto", "trusted", "blind")
#: A dealer-blind game after its ``end``/``abandon`` statement: the table waits for every
#: participant's seed (specs/fairness.md B.10) before the ``end`` message.
AUDITING = "auditing"

#: The most spectators ``TableConfig.max_spectators`` may allow per table.
MAX_SPECTATORS = 64


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class Send:
    """Effect: send ``msg`` to connection ``cid`` (through its bounded queue)."""

    cid: int
    msg: Message


@dataclass(frozen=True, slots=True)
class Close:
    """Effect: send ``error`` (if any) to connection ``cid``, then close it. The table
    has already forgotten the connection when it emits this."""

    cid: int
    error: ErrorMessage | None = None


Effect = Send | Close
Observer = Callable[[str, dict[str, Any]], None]


# --------------------------------------------------------------------------- config


@dataclass(frozen=True)
class DealerWhy:
    """Why a table deals the scheme it deals (:meth:`Table.next_dealer`): ``code`` is
    ``"chosen"`` (``dealer`` trusted or blind), ``"every-client"`` (auto: every seat's
    client can deal blind), ``"hidden-identities"`` (auto: the house rule needs a
    trusted dealer, specs/fairness.md B.15 item 2) or ``"old-client"`` (auto: ``seats``
    are the seats whose clients speak a protocol version below 4)."""

    code: str
    seats: tuple["Seat", ...] = ()

    def observation(self) -> dict[str, Any]:
        """Plain data for the table's observer (the host screen): ``code`` and the old
        clients' ``seats`` as ``{"seat", "name", "version"}`` maps."""
        return {"code": self.code, "seats": [{"seat": st.seat, "name": st.name, "version": st.version}
                                             for st in self.seats]}


class KickRefused(ValueError):
    """Why ``kick N`` removes nobody (:meth:`Table.kick`): ``code`` (``no-seat``,
    ``empty``, ``bot``) and ``fields`` (``seat``, ``seats``) for the console's catalog
    (``host.cannot_kick.<code>``); ``str()`` is the English sentence (the log)."""

    def __init__(self, code: str, sentence: str, **fields: int) -> None:
        super().__init__(sentence)
        self.code = code
        self.fields = fields


@dataclass(frozen=True)
class TableConfig:
    """Settings of a table (all times in seconds).

    ``rules``: the :class:`RuleSet` (``rules.players`` seats). ``bots``: how many seats
    the host plays itself (the last ``bots`` seats), with the bot ``bot``.
    ``default_bot``: the bot that plays a timed-out turn and the turns of a
    disconnected player. ``turn_timeout``: how long a prompted player may think
    (``None``: forever). ``seed_timeout``: how long the seats have to commit and
    reveal their seeds before the game is abandoned. ``bot_delay``: pause before a
    host bot moves (for people watching). ``think``: seconds per move of a planning
    host bot (``expert``; None = its default 0.5 s); the host's loop waits while it
    thinks, so keep it short. ``away_delay``: pause before the default
    bot plays for a disconnected player. ``chat_burst`` / ``chat_rate``: chat lines a
    connection may send at once / per second after that; ``ready_burst`` /
    ``ready_rate``: the same for ``ready`` toggles (more are ignored, so a flood cannot
    make the host broadcast lobby updates until honest players are dropped as slow).
    ``ready_timeout``: a seat in the lobby that is not ready this long after sitting
    down (or un-readying) is freed, with a notice (``None``: never).
    ``max_spectators``: spectators (``hello.watch``) the table takes at once, 0..64
    (0: none; the dealer then signs no public statement stream); one more is refused
    with ``error spectators-full``. ``dealer``: ``"trusted"`` (specs/fairness.md Part
    A), ``"blind"`` (Part B: the host cannot see the seats' cards; every seat's client
    must speak protocol version 4, else ``error blind-unsupported``; specs/protocol.md
    §13) or ``"auto"`` (each game blind when every seat's client speaks version 4 and the
    rules deal public identities, else trusted: :meth:`Table.next_dealer`; the default of
    ``jupai host`` and ``jupai play``, specs/host.md § 2). The library's default stays
    ``"trusted"``: a table built in code names its scheme.
    ``turn_grace``: at a dealer-blind table the host cannot play a seat's move (it
    cannot see its cards): the seat's own client plays its default move when its turn
    time is up, and a seat whose move has not come ``turn_grace`` seconds after that
    (gone, or its client stuck) ends the game as "a seat left" (specs/host.md § A
    dealer-blind game).
    """

    rules: RuleSet = field(default_factory=RuleSet)
    bots: int = 0
    bot: str = "greedy"
    default_bot: str = "greedy"
    turn_timeout: float | None = 60.0
    seed_timeout: float = 30.0
    bot_delay: float = 0.0
    think: float | None = None
    away_delay: float = 1.0
    chat_burst: int = 8
    chat_rate: float = 1.0
    ready_burst: int = 4
    ready_rate: float = 0.5
    ready_timeout: float | None = 120.0
    max_spectators: int = 8
    dealer: str = "trusted"
    turn_grace: float = 15.0

    def __post_init__(self) -> None:
        if self.dealer not in DEALER_CHOICES:
            raise ValueError(f"the dealer is one of {', '.join(DEALER_CHOICES)}, got {self.dealer!r}")
        if self.dealer == "blind" and self.rules.hidden_identities:
            raise ValueError("a dealer-blind table deals public identities only: the hidden-identities house rule "
                             "needs --dealer trusted (specs/fairness.md B.15)")
        if isinstance(self.max_spectators, bool) or not isinstance(self.max_spectators, int) \
                or not 0 <= self.max_spectators <= MAX_SPECTATORS:
            raise ValueError(f"max spectators must be a whole number 0..{MAX_SPECTATORS}, got {self.max_spectators!r}")
        if not 0 <= self.bots < self.rules.players:
            raise ValueError(f"bots must be 0..{self.rules.players - 1} at a {self.rules.players}-seat table, got {self.bots}")
        get_bot(self.bot), get_bot(self.default_bot)  # ValueError naming the bots
        if self.turn_timeout is not None and not 0 < self.turn_timeout * 1000 <= MAX_TIMEOUT_MS:
            raise ValueError("turn timeout must be more than 0 s and at most a day")
        if self.seed_timeout <= 0:
            raise ValueError("seed timeout must be more than 0 s")
        if self.turn_grace <= 0:
            raise ValueError("turn grace must be more than 0 s")
        if self.ready_timeout is not None and self.ready_timeout <= 0:
            raise ValueError("ready timeout must be more than 0 s (or None: no limit)")


@dataclass
class Seat:
    """One occupied seat. ``token`` is ``None`` for a host bot; ``cid`` is the live
    connection (``None`` while a player is disconnected). ``bot``: a host bot (the
    table plays it); ``remote_bot``: a client that said ``hello.bot`` (a bot program
    plays it over the network, like a person: shown as a bot in the lobby)."""

    seat: int
    name: str
    token: str | None
    bot: bool = False
    cid: int | None = None
    ready: bool = False
    remote_bot: bool = False
    waiting_since: float | None = None  # in the lobby: since when this seat is not ready
    stand_in: bool = False  # a host bot that took the seat of a person who left between games
    stands_in_for: str | None = None  # a stand-in: the name of the person whose seat it took
    version: int = PROTOCOL_VERSION  # the protocol version its client negotiated (a host bot: this host's)

    @property
    def connected(self) -> bool:
        """A human with a live connection."""
        return self.cid is not None

    def info(self) -> PlayerInfo:
        """The lobby entry for this seat."""
        return PlayerInfo(self.seat, self.name, ready=self.ready or self.bot, bot=self.bot or self.remote_bot,
                          connected=self.bot or self.cid is not None)


def describe_action(action: Action) -> str:
    """Short English text of an action, e.g. ``'attack seat 2 with 7♥ + weapon'``."""
    parts = [action.kind]
    if action.target is not None:
        parts.append(f"seat {action.target}")
    if action.cards:
        parts.append("with " + " ".join(card_name(c) for c in action.cards))
    if action.recovered:
        parts.append("and recovered " + " ".join(card_name(c) for c in action.recovered))
    if action.weapon:
        parts.append("+ weapon")
    return " ".join(parts)


def statement_message(raw: bytes) -> Statement:
    """The protocol ``statement`` message carrying the signed fairness statement ``raw``
    (``pack([body, sig])``, as this host's dealer signed it: decoded without the checks
    of :func:`~jupai_net.fairness.statements.split_statement`, which are for statements
    from elsewhere); the client rebuilds ``raw`` byte for byte from it."""
    body, sig = msgpack.unpackb(raw)
    kind = made_kind(body) or msgpack.unpackb(body, raw=False)["kind"]  # the body is not decoded for its kind
    return Statement.trusted(kind, body, sig)


def _take_token(buckets: dict[int, tuple[float, float]], cid: int, burst: int, rate: float, now: float) -> bool:
    """Token bucket per connection (``buckets[cid] = (tokens, last time)``): True (and
    one token taken) if ``cid`` may act now — at most ``burst`` at once, then ``rate``
    per second."""
    tokens, last = buckets.get(cid, (float(burst), now))
    tokens = min(float(burst), tokens + (now - last) * rate)
    if tokens < 1:
        buckets[cid] = (tokens, now)
        return False
    buckets[cid] = (tokens - 1, now)
    return True


def _clip(text: str, limit: int = MAX_TEXT_LEN) -> str:
    text = printable(text).replace(REPLACEMENT, " ")  # emoji joiners in names kept
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _illegal_reject(state_id: int | None, code: str, why: IllegalAction) -> Reject:
    """A ``reject`` with ``code`` of an action refused for ``why``: the English sentence as
    ``message`` and, as ``args`` (protocol version 8, specs/protocol.md §7b), ``{"illegal":
    {"code": CODE, "args": {…}}}`` (:meth:`IllegalAction.to_wire`) from which a client says
    it in its own language; a value the wire cannot carry leaves the args out (the English
    words alone). The server drops the args for a client below version 8."""
    text = _clip(why.reason)
    try:
        return Reject(state_id, code, text, {"illegal": why.to_wire()})
    except ValueError:
        return Reject(state_id, code, text)


# --------------------------------------------------------------------------- the table


class Table:
    """A table of ``config.rules.players`` seats, playing one game after another.

    ``signing_key``: the host's Ed25519 statement key. ``table_id``: a number for logs.
    ``rng``: randomness for bots and default actions (default: seeded from
    :mod:`secrets`). ``observer(kind, data)``: called with public information for the
    host's spectator screen (kinds ``lobby`` (``players``, ``seats`` = table size, ``free`` =
    seats a newcomer may take: empty or a stand-in's), ``start``, ``deal``,
    ``blind-dealt`` (a dealer-blind deal is complete: every seat can open its hand), ``step``,
    ``notice``, ``chat``, ``end``, ``abandon``, ``series``, ``audited`` (a dealer-blind game's
    seeds are in, or their time is up: its transcripts are complete); see specs/host.md §
    Host screen).

    The games form a **series** (specs/host.md § 3a, specs/rules.md § 15): ``games`` is
    how many it has (``None``: until the host stops). Between games a person who leaves
    (``bye``, a lost connection, a kick, the ready timer) is replaced by a host bot
    (a *stand-in*, which gives the seat back to a newcomer in the lobby); before each
    ``end`` every version-3 client gets the ``series`` scoreboard. When no person is
    left after a game, the series is over (:attr:`deserted` is set, stand-ins leave,
    the next people who sit down start a new series, of the games the host has left).
    """

    def __init__(
        self,
        config: TableConfig,
        signing_key: Any,
        *,
        table_id: int = 0,
        rng: random.Random | None = None,
        observer: Observer | None = None,
        games: int | None = None,
    ):
        self.config = config
        self.rules = config.rules
        self.key = signing_key
        self.table_id = table_id
        #: the table's name (``jupai host --table-name``, a valid announced name), sent in
        #: every ``welcome`` (``table``) for the players' screens and history; None: not said
        self.name: str | None = None
        self.rng = rng or random.Random(secrets.randbits(64))
        self.observer = observer
        P = self.rules.players
        self.seats: list[Seat | None] = [None] * P
        for s in range(P - config.bots, P):
            self.seats[s] = Seat(s, f"{config.bot} bot {s}"[:MAX_NAME_LEN], None, bot=True)
        self.phase = LOBBY
        self.dealer: HostDealer | None = None
        #: The dealer-blind deal of the current game (when it deals blind).
        self.blind: BlindDeal | None = None
        #: The scheme of the running (else the last) game: ``"trusted"`` or ``"blind"``.
        self.game_dealer = "blind" if config.dealer == "blind" else "trusted"
        self._audit_end: tuple[str, dict[str, Any]] | None = None  # the end message held until the seeds are in
        # dealer-blind play: events and refused claims already handled, the seat whose claim is open
        self._blind_events = self._blind_rejected = 0
        self._claimant: int | None = None
        self.games_started = 0
        self.games_done = 0
        self.last_result: dict[str, Any] | None = None
        self._effects: list[Effect] = []
        self._conn_seat: dict[int, int] = {}
        self._streams: dict[int | None, list[Statement]] = {}  # viewer (None: spectators) -> statements this game
        self._raw: dict[int, list[bytes]] = {}
        self._commits: dict[int, bytes] = {}
        self._reveals: dict[int, bytes] = {}
        self._seed_deadline: float | None = None
        self._turn_deadline: float | None = None
        # (state version, seat, deadline) of the turn in progress: fixed when the turn
        # starts; a reconnect resends the prompt with the time left, never a new turn
        self._turn_end: tuple[int, int, float] | None = None
        self._rejoins: dict[int, tuple[float, float]] = {}  # seat -> (tokens, time) of its reconnect budget
        # seats removed from the current game (kicked: token revoked, connection closed): they
        # can never send a dealer-blind seed, so the audit does not wait for them
        self._removed: set[int] = set()
        self._prompt: tuple[int, int] | None = None  # (state id, seat) of the live prompt
        # dealer-blind: the wait on an away seat last announced (what, seat, deadline)
        self._wait_said: tuple[str, int, float] | None = None
        self._bot_at: float | None = None
        self._chat: dict[int, tuple[float, float]] = {}
        self._ready_rate: dict[int, tuple[float, float]] = {}
        self.spectators: dict[int, str] = {}  # connection id -> name of each spectator
        #: spectators whose client reads no chained statement (protocol below 5): they get
        #: the spectators' stream in version-1 bodies (HostDealer.plain_public)
        self._plain_spectators: set[int] = set()
        self._plain_sent = 0  # statements of that stream sent to them this game
        self.games = games
        self.series = SeriesState(secrets.token_bytes(16), games)
        self.game_label: tuple[bytes, int] | None = None  # (series id, game number) of the current or last game
        self.deserted = False  # a series ended because every person left (for the host screen and tests)
        self._stopping = False
        #: the waiting list (specs/host.md § 3a): people who said hello while a game ran
        #: and a stand-in held a seat for them, by casefolded name -> (name, seat kept,
        #: time of their latest hello); in order of arrival
        self.waiting: dict[str, tuple[str, int, float]] = {}

    # ------------------------------------------------------------------ queries

    def __repr__(self) -> str:
        return f"<Table {self.table_id} {self.phase} {self.players()}>"

    def players(self) -> tuple[PlayerInfo, ...]:
        """The lobby list: one :class:`PlayerInfo` per occupied seat."""
        return tuple(s.info() for s in self.seats if s is not None)

    def names(self) -> list[str | None]:
        """Name per seat (``None`` for an empty seat)."""
        return [s.name if s else None for s in self.seats]

    @property
    def accepting(self) -> bool:
        """True while new players may sit down: in the lobby with a free seat (an empty
        one, or one a stand-in bot keeps for a person who left)."""
        return self.phase == LOBBY and any(self._free(s) for s in range(len(self.seats)))

    def _free(self, seat: int, name: str | None = None) -> bool:
        """Seat ``seat`` can take a newcomer (called ``name``): empty, or kept by a
        stand-in bot — and not kept for another person on the waiting list."""
        st = self.seats[seat]
        if not (st is None or st.stand_in):
            return False
        return all(kept != seat or key == (name or "").casefold() for key, (_, kept, _) in self.waiting.items())

    #: How long a place on the waiting list lasts after the person's latest ``hello``
    #: (a waiting client says hello again every 3 s, ``client/session.SEAT_RETRY``): a
    #: person who stops asking (left, or lost the network) no longer holds up the next game.
    WAIT_KEEP = 10.0

    def _keep_for(self, name: str, now: float) -> int | None:
        """Put ``name`` (who said hello while a game runs) on the waiting list, or
        refresh its place: the seat kept for it — the stand-in's seat that stood in
        for this very name first, else another stand-in's seat nobody waits for — or
        None when every seat is a person's (nothing to take back at the next game)."""
        key = name.casefold()
        if key in self.waiting:
            _, seat, _ = self.waiting[key]
            self.waiting[key] = (name, seat, now)
            return seat
        stand_ins = [st for st in self.seats if st is not None and st.stand_in and self._free(st.seat, name)]
        mine = [st for st in stand_ins if (st.stands_in_for or "").casefold() == key]
        if not (mine or stand_ins):
            return None
        seat = (mine or stand_ins)[0].seat
        self.waiting[key] = (name, seat, now)
        log.info("table %d: %r waits for the next game; seat %d is kept for them", self.table_id, name, seat)
        self._observe("waiting", name=name, seat=seat, stand_in=self.seats[seat].name)  # type: ignore[union-attr]
        return seat

    def _drop_lapsed(self, now: float) -> bool:
        """Forget the waiting-list places whose person stopped asking (:data:`WAIT_KEEP`);
        True when one was dropped."""
        lapsed = [key for key, (_, _, seen) in self.waiting.items() if now >= seen + self.WAIT_KEEP]
        for key in lapsed:
            name, seat, _ = self.waiting.pop(key)
            log.info("table %d: %r stopped waiting; seat %d is free again", self.table_id, name, seat)
        return bool(lapsed)

    @property
    def humans(self) -> int:
        """Seats held by people (or bot clients) with a live connection."""
        return sum(1 for st in self.seats if st is not None and not st.bot and st.cid is not None)

    def _in_series(self) -> bool:
        """True between two games of a series: a game was played and the series goes on
        (a person who leaves now is replaced by a stand-in bot)."""
        return self.series.played > 0 and not self.series.over

    def _vacate(self, seat: int) -> None:
        """The person in ``seat`` left while the table is in the lobby: between games of
        a series a stand-in host bot takes the seat (named like the host's bots), before
        the first game the seat is empty again."""
        if not self._in_series():
            self.seats[seat] = None
            return
        before = self.seats[seat]
        person = before.name if before is not None and not before.bot else None
        name = f"{self.config.bot} bot {seat}"[:MAX_NAME_LEN]
        taken = {st.name.casefold() for st in self.seats if st is not None and st.seat != seat}
        n = seat
        while name.casefold() in taken:
            n += len(self.seats)
            name = f"{self.config.bot} bot {n}"[:MAX_NAME_LEN]
        self.seats[seat] = Seat(seat, name, None, bot=True, stand_in=True, stands_in_for=person)
        log.info("table %d: %r stands in for seat %d", self.table_id, name, seat)

    @property
    def connections(self) -> list[int]:
        """Ids of the connections seated at this table."""
        return list(self._conn_seat)

    def seat_of(self, cid: int) -> int | None:
        """The seat of connection ``cid`` (``None`` if it holds none here)."""
        return self._conn_seat.get(cid)

    def knows(self, cid: int) -> bool:
        """True while connection ``cid`` holds a seat or watches at this table."""
        return cid in self._conn_seat or cid in self.spectators

    def has_token(self, token: str) -> bool:
        """True when ``token`` is a session token of a seat at this table."""
        return any(s is not None and s.token is not None and secrets.compare_digest(s.token, token) for s in self.seats)

    def next_deadline(self) -> float | None:
        """The earliest time :meth:`tick` has something to do (``None``: nothing planned)."""
        kept = [seen + self.WAIT_KEEP for _, _, seen in self.waiting.values()] if self.phase == LOBBY else []
        times = [t for t in (self._seed_deadline, self._turn_deadline, self._bot_at, self._ready_deadline(), *kept)
                 if t is not None]
        return min(times) if times else None

    def _ready_deadline(self) -> float | None:
        """When the first seat that is not ready in the lobby runs out of time."""
        limit = self.config.ready_timeout
        if limit is None or self.phase != LOBBY:
            return None
        times = [st.waiting_since + limit for st in self.seats
                 if st is not None and st.waiting_since is not None and not st.ready and not st.bot]
        return min(times) if times else None

    def drain(self) -> list[Effect]:
        """The effects produced since the last call, in order (and forget them)."""
        out, self._effects = self._effects, []
        return out

    # ------------------------------------------------------------------ output helpers

    def _send(self, cid: int | None, msg: Message) -> None:
        if cid is not None:
            self._effects.append(Send(cid, msg))

    def _to_seat(self, seat: int, msg: Message) -> None:
        s = self.seats[seat]
        if s is not None and s.cid is not None:
            self._send(s.cid, msg)

    def _broadcast(self, msg: Message, *, but: int | None = None) -> None:
        """Send a public message to every connected seat and every spectator (but ``but``)."""
        for s in self.seats:
            if s is not None and s.cid is not None and s.cid != but:
                self._send(s.cid, msg)
        for cid in self.spectators:
            if cid != but:
                self._send(cid, msg)

    def _public_view(self) -> dict[str, Any] | None:
        """``observation(None)`` of the current state if a spectator or the host screen
        needs it now (it costs an observation), else ``None``."""
        if self.dealer is None or (not self.spectators and self.observer is None):
            return None
        return self._public_observation()

    def _public_observation(self) -> dict[str, Any]:
        """The public view of the current state, with card ids (at a dealer-blind table
        the host's engine names positions: it fills in the public cards it holds,
        specs/fairness.md B.16.5)."""
        assert self.dealer is not None
        obs = self.dealer.state.observation(None)
        if self.blind is not None and self.blind.play is not None:
            obs = fill_observation(obs, self.blind.play.game.table)
        return obs

    def _sync_spectators(self, obs: dict[str, Any] | None) -> None:
        if obs is not None and self.spectators:
            assert self.dealer is not None
            msg = Sync.trusted(self.dealer.state.version, obs)
            for cid in self.spectators:
                self._send(cid, msg)

    def _observe(self, kind: str, **data: Any) -> None:
        if self.observer is not None:
            try:
                self.observer(kind, data)
            except Exception:  # noqa: BLE001 - the host screen must never stop the table
                log.exception("table %d: observer failed on %s", self.table_id, kind)

    def _notice(self, code: str, *, but: int | None = None, **args: Any) -> None:
        """Send every connection (but ``but``) the notice ``code`` with its ``args``
        (:mod:`jupai_net.messages.notices`) and its English sentence as ``text``."""
        text = notice_sentence(code, args, "en")
        self._broadcast(Notice(code, _clip(text), args), but=but)
        self._observe("notice", code=code, text=text, args=args)

    def next_dealer(self) -> tuple[str, DealerWhy]:
        """The scheme the next game deals with the seats as they are now, and why:
        ``("blind", DealerWhy("chosen"))`` / ``("trusted", DealerWhy("chosen"))`` for
        ``dealer="blind"``/``"trusted"``; under ``"auto"`` (specs/host.md § 2,
        specs/fairness.md B.15 item 5) ``"trusted"`` with ``why.code``
        ``"hidden-identities"`` (the house rule needs a trusted dealer, B.15 item 2) or
        ``"old-client"`` (``why.seats``: the seats whose clients negotiated a protocol
        version below 4, which cannot take part in a blind deal), else ``"blind"``
        (``"every-client"``). Host bots and stand-ins are the host's: they can always."""
        mode = self.config.dealer
        if mode != "auto":
            return mode, DealerWhy("chosen")
        if self.rules.hidden_identities:
            return "trusted", DealerWhy("hidden-identities")
        old = tuple(st for st in self.seats if st is not None and not st.bot and st.version < BLIND_VERSION)
        if old:
            return "trusted", DealerWhy("old-client", old)
        return "blind", DealerWhy("every-client")

    def _shown_dealer(self) -> str:
        """The scheme ``welcome`` and ``lobby`` name: the running game's, else the next's."""
        return self.game_dealer if self.phase != LOBBY else self.next_dealer()[0]

    def _lobby(self) -> None:
        players = self.players()
        self._broadcast(Lobby(players, self._shown_dealer()))
        self._observe("lobby", players=players, seats=self.rules.players,
                      free=sum(1 for s in range(self.rules.players) if self._free(s)), people=self.humans,
                      **self._status())

    def _status(self) -> dict[str, Any]:
        """Where the table is, for the host console's status line (specs/host.md § 8):
        ``phase`` (``lobby``, ``seeding``, ``playing``, ``auditing``) and, during a
        game, ``game`` (its number in the series), ``games`` (the series' length, None
        = until stopped), ``round`` (0 before the first round) and ``rounds``."""
        if self.phase == LOBBY or self.game_label is None:
            return {"phase": LOBBY}
        state = getattr(self.dealer, "state", None)
        return {"phase": self.phase, "game": self.game_label[1], "games": self.series.games,
                "round": getattr(state, "round_no", 0), "rounds": self.rules.rounds}

    def _error(self, cid: int, code: str, text: str, hello: Hello | None = None, why: str | None = None,
               wire_args: dict[str, Any] | None = None, **args: Any) -> None:
        """Refuse connection ``cid`` (``error CODE`` with the English ``text``, then close)
        and, for a ``hello``, tell the host console (observer event ``refused``: ``code``,
        ``why`` — the console's catalog key ``host.refused.WHY``, default the code —
        ``name``, ``watch``, ``version`` and the sentence's ``args``; specs/host.md §
        Console). ``wire_args``: the error's ``args`` for the client (protocol version 7:
        the server leaves them out for older ones, whose clients read ``text``)."""
        log.info("table %d: refusing connection %d: %s: %r", self.table_id, cid, code, text)
        self._effects.append(Close(cid, ErrorMessage(code, _clip(text), wire_args or {})))
        if hello is not None:
            self._observe("refused", code=code, why=why or code, text=text, name=hello.name, watch=hello.watch,
                          version=hello.version, args=args)

    # ------------------------------------------------------------------ connections

    def admit(self, cid: int, hello: Hello, now: float) -> int | None:
        """Seat the client of a new connection ``cid`` that said ``hello``.

        With a token: the seat holding it is given back (its old connection, if any,
        is closed); during a game the client then gets ``start``, its whole statement
        stream so far, a ``sync`` and (if it is to move) a ``prompt``. Without: a free
        seat in the lobby (the one asked for, else the first). Returns the seat, or
        ``None`` after a :class:`Close` with an ``error`` (codes ``bad-token``,
        ``game-running``, ``name-taken``, ``seat-taken``, ``table-full``). A bot client
        (``hello.bot``) whose name is taken is not refused: it is seated as
        ``NAME N`` (N its seat), as host bots are; the ``welcome`` tells it. A
        spectator (``hello.watch``) is admitted by :meth:`_admit_spectator` and the
        result is ``None`` (no seat) either way.
        """
        if not hello.watch and hello.version < BLIND_VERSION:
            # a spectator of any version reads the public stream; a seat must deal
            if self.config.dealer == "blind":
                self._error(cid, "blind-unsupported",
                            "this table deals blind (the host cannot see your cards), which needs jupai-net with "
                            f"protocol version {BLIND_VERSION}; update jupai, or ask the host for --dealer trusted",
                            hello, "blind-table", version=hello.version, need=BLIND_VERSION)
                return None
            if hello.token is not None and self.phase != LOBBY and self.game_dealer == "blind":
                self._error(cid, "blind-unsupported",
                            "this game deals blind (the host cannot see your cards), which needs jupai-net with "
                            f"protocol version {BLIND_VERSION}; update jupai to take your seat back",
                            hello, "blind-game", version=hello.version, need=BLIND_VERSION)
                return None
        if hello.watch:
            self._admit_spectator(cid, hello, now)
            return None
        if hello.token is not None:
            need = self._stream_needs(hello.token)
            if hello.version < need:
                self._error(cid, "version-mismatch",
                            "this game's signed statements to your seat are hash-chained in a format that needs "
                            f"jupai-net with protocol version {need}; update jupai to take your seat back",
                            hello, "chained-game", version=hello.version, need=need)
                return None
            return self._readmit(cid, hello, now)
        if self.phase != LOBBY:
            # no place for a name taken at the table (a connected person's or a bot's):
            # the lobby refuses it (name-taken), so the seat promised would never be
            # taken; a person who left this game (its seat goes to a stand-in) may wait
            taken = any(s is not None and (s.bot or s.cid is not None) and s.name.casefold() == hello.name.casefold()
                        for s in self.seats)
            kept = None if hello.bot or self._stopping or taken else self._keep_for(hello.name, now)
            if kept is not None:  # the seat is kept: as data (args, version 7) and in the text (older clients)
                self._error(cid, "game-running", f"a game is running at this table: you take seat {kept} at the "
                            "next game (you are on the waiting list; say hello again within "
                            f"{self.WAIT_KEEP:g} s)", wire_args={"seat": kept})
                return None
            self._error(cid, "game-running", "a game is running at this table and you hold no seat in it", hello)
            return None
        self._drop_lapsed(now)
        waited = self.waiting.pop(hello.name.casefold(), None)
        taken = {s.name.casefold() for s in self.seats if s is not None}
        if hello.name.casefold() in taken and not hello.bot:
            self._error(cid, "name-taken", f"another player at the table is called {hello.name!r}; pick another name",
                        hello)
            return None
        P = self.rules.players
        if hello.seat is not None:
            if hello.seat >= P:
                self._error(cid, "seat-taken", f"there is no seat {hello.seat} at this {P}-seat table", hello,
                            "no-seat", seat=hello.seat, seats=P)
                return None
            if not self._free(hello.seat, hello.name):
                self._error(cid, "seat-taken", f"seat {hello.seat} is taken", hello, seat=hello.seat)
                return None
            seat = hello.seat
        elif waited is not None and self._free(waited[1], hello.name):
            seat = waited[1]  # the seat kept for this person on the waiting list
        else:
            # empty seats first, then the seats of bots standing in for people who left
            free = ([s for s in range(P) if self.seats[s] is None and self._free(s, hello.name)]
                    or [s for s in range(P) if self._free(s, hello.name)])
            if not free:
                self._error(cid, "table-full", f"all {P} seats are taken", hello, seats=P)
                return None
            seat = free[0]
        name = hello.name
        n = seat
        while name.casefold() in taken:  # only a bot client gets here: name it like a host bot
            suffix = f" {n}"
            name = hello.name[: MAX_NAME_LEN - len(suffix)].rstrip() + suffix
            n += P
        token = secrets.token_urlsafe(24)
        version = min(hello.version, PROTOCOL_VERSION)
        self.seats[seat] = Seat(seat, name, token, cid=cid, remote_bot=hello.bot, waiting_since=now, version=version)
        self._conn_seat[cid] = seat
        what = "bot client " if hello.bot else ""
        log.info("table %d: %s%r took seat %d (connection %d, protocol version %d)", self.table_id, what, name, seat,
                 cid, version)
        self._send(cid, self._welcome(seat, token))
        self._lobby()
        self._notice("player-joined", but=cid, name=name, seat=seat, bot=hello.bot)
        self._old_client_notice(self.seats[seat])  # type: ignore[arg-type]
        return seat

    def _stream_needs(self, token: str) -> int:
        """The protocol version a client needs to take back the seat of the running game
        that ``token`` holds: :data:`DEFER_VERSION` when its statement stream is in
        version-3 bodies (specs/fairness.md §6.6), :data:`CHAIN_VERSION` when it is
        hash-chained (§6.5), else 0 (specs/protocol.md §6)."""
        if self.phase == LOBBY or self.dealer is None:
            return 0
        seat = next((s.seat for s in self.seats if s is not None and s.token is not None
                     and secrets.compare_digest(s.token, token)), None)
        if seat is None:
            return 0
        return DEFER_VERSION if seat in self.dealer.deferred else CHAIN_VERSION if seat in self.dealer.chained else 0

    def _chained_viewers(self) -> set[int | None]:
        """The viewers whose streams the next game chains: every seat whose client
        negotiated protocol 5 or later, every bot seat, and the spectators' stream
        (older spectators get it in version-1 bodies)."""
        return {st.seat for st in self.seats if st is not None and (st.bot or st.version >= CHAIN_VERSION)} | {None}

    def _deferred_seats(self) -> set[int]:
        """The seats whose streams the next game writes in version-3 bodies, their steps
        signed only when the seat is to move (specs/fairness.md §6.6): every seat whose
        client negotiated protocol 6 or later, and every bot seat."""
        return {st.seat for st in self.seats if st is not None and (st.bot or st.version >= DEFER_VERSION)}

    def _welcome(self, seat: int | None, token: str) -> Welcome:
        """The ``welcome`` for ``seat`` (None: a spectator), naming the scheme and the
        table (:attr:`name`)."""
        return Welcome(seat, token, self.rules, self.players(), dealer=self._shown_dealer(), table=self.name)

    def _old_client_notice(self, st: Seat) -> None:
        """Under ``dealer="auto"``: tell everyone (``notice old-client``) and the log that
        the client of ``st`` cannot deal blind, so the table deals trusted while it sits
        there (specs/host.md § 2). Nothing when its client can, or the table deals
        trusted anyway (``--dealer trusted``, hidden identities)."""
        if st.bot or st.version >= BLIND_VERSION or self.next_dealer()[1].code != "old-client":
            return
        log.warning("table %d: %r (seat %d) joined with protocol version %d, which cannot deal blind: "
                    "the table deals trusted while that client sits there", self.table_id, st.name, st.seat, st.version)
        self._notice("old-client", name=st.name, seat=st.seat, version=st.version)

    def _admit_spectator(self, cid: int, hello: Hello, now: float) -> bool:
        """Admit a spectator (``hello.watch``, specs/protocol.md §12): ``welcome`` with no
        seat, ``lobby``, and during a game ``start``, the public statement stream so far
        and a ``sync`` of the public view. Over ``max_spectators``: ``error
        spectators-full``. Returns True if admitted."""
        cap = self.config.max_spectators
        if len(self.spectators) >= cap:
            why = ("this table takes no spectators" if cap == 0 else
                   f"this table already has {cap} spectator{'s' if cap != 1 else ''}, the most it takes; "
                   "try again when one leaves")
            self._error(cid, "spectators-full", why, hello, "no-spectators" if cap == 0 else None, count=cap)
            return False
        name = hello.name
        self.spectators[cid] = name
        if hello.version < CHAIN_VERSION:
            self._plain_spectators.add(cid)
        log.info("table %d: %r watches (connection %d; %d spectators)", self.table_id, name, cid, len(self.spectators))
        self._send(cid, self._welcome(None, secrets.token_urlsafe(24)))
        self._send(cid, Lobby(self.players(), self._shown_dealer()))
        self._notice("spectator-joined", but=cid, name=name, count=len(self.spectators))
        if self.phase != LOBBY and self.dealer is not None:
            self._send(cid, self._start_message())
            # the public statements made while nobody watched, signed now (the same bytes)
            self._streams[None].extend(statement_message(raw) for raw in self.dealer.watched())
            if cid in self._plain_spectators:  # the same stream in version-1 bodies
                plain = self.dealer.plain_public()
                for raw in plain[:self._plain_sent]:
                    self._send(cid, statement_message(raw))
                self._send_plain(plain[self._plain_sent:])  # to it, and any other such spectator
            else:
                for msg in self._streams.get(None, []):
                    self._send(cid, msg)
            if self.phase == PLAYING and self._settled():
                self._send(cid, Sync.trusted(self.dealer.state.version, self._public_observation()))
        return True

    def _settled(self) -> bool:
        """True unless a dealer-blind step's cards are still being opened (then the next
        ``sync`` comes when they are, specs/fairness.md B.16.8)."""
        return self.blind is None or (self.blind.play is not None and self.blind.play.idle)

    def _readmit(self, cid: int, hello: Hello, now: float) -> int | None:
        assert hello.token is not None
        found = [s for s in self.seats if s is not None and s.token is not None and secrets.compare_digest(s.token, hello.token)]
        if not found:
            self._error(cid, "bad-token", "this session token is unknown or expired (the game it was for is over)",
                        hello)
            return None
        st = found[0]
        if self.phase != LOBBY and not self._rejoin_allowed(st.seat, now):
            self._error(cid, "reconnect-limit", f"seat {st.seat} reconnected too often; try again in a few seconds",
                        hello, seat=st.seat)
            return None
        if st.cid is not None:
            old = st.cid
            self._conn_seat.pop(old, None)
            self._effects.append(Close(old, ErrorMessage("kicked", "this seat was taken back by a new connection with its token")))
            log.info("table %d: seat %d: connection %d replaced by %d", self.table_id, st.seat, old, cid)
        st.cid = cid
        self._conn_seat[cid] = st.seat
        old_version, st.version = st.version, min(hello.version, PROTOCOL_VERSION)
        log.info("table %d: %r is back in seat %d (connection %d)", self.table_id, st.name, st.seat, cid)
        self._send(cid, self._welcome(st.seat, st.token))  # type: ignore[arg-type]
        self._lobby()
        self._notice("player-back", but=cid, name=st.name, seat=st.seat)
        self._wait_said = None  # gone again later: said again
        if st.version < old_version:
            self._old_client_notice(st)
        if self.phase != LOBBY:
            assert self.dealer is not None
            self._send(cid, self._start_message())
            for msg in self._streams.get(st.seat, []):
                self._send(cid, msg)
            if self.phase == PLAYING and self._settled():
                state = self.dealer.state
                self._send(cid, Sync.trusted(state.version, state.observation(st.seat)))
                if state.to_move == st.seat and (self.blind is None or self._prompt == (state.version, st.seat)):
                    self._prompt_next(now)
        return st.seat

    #: Reconnects a seat may make at once, and how many seconds earn one more
    #: (specs/host.md § Reconnect: reconnecting cannot buy time).
    REJOIN_BURST, REJOIN_EVERY = 5, 6.0

    def _rejoin_allowed(self, seat: int, now: float) -> bool:
        tokens, last = self._rejoins.get(seat, (float(self.REJOIN_BURST), now))
        tokens = min(float(self.REJOIN_BURST), tokens + (now - last) / self.REJOIN_EVERY)
        if tokens < 1:
            self._rejoins[seat] = (tokens, now)
            log.warning("table %d: seat %d reconnects too often; refused", self.table_id, seat)
            return False
        self._rejoins[seat] = (tokens - 1, now)
        return True

    def disconnect(self, cid: int, now: float, why: str = "", *, left: bool = False) -> None:
        """Connection ``cid`` is gone (closed, broken, too slow or refused). In the
        lobby its seat is freed; during a game the seat waits for a reconnect with the
        token while the default bot plays its turns. ``left``: the client said ``bye``
        (its person left: ``q``, ``/quit``, the end of input, Ctrl-C) — during a game the
        others are told it left, not that it may come back: at a trusted table the
        default bot plays its turns to the end (its token still takes the seat back),
        and a dealer-blind game, which nobody else can play for it, is abandoned at once
        instead of waiting for its turn's time and grace (specs/host.md § 5); after the
        game's end, while the audit waits for the seeds, its seed is not waited for. Unknown
        ids are ignored."""
        seat = self._conn_seat.pop(cid, None)
        self._chat.pop(cid, None)
        self._ready_rate.pop(cid, None)
        name = self.spectators.pop(cid, None)
        self._plain_spectators.discard(cid)
        if name is not None:
            n = len(self.spectators)
            log.info("table %d: spectator %r left (connection %d)%s", self.table_id, name, cid, f": {why}" if why else "")
            self._notice("spectator-left", name=name, count=n)
            if not self.spectators and self.dealer is not None:
                self.dealer.unwatched()  # nobody watches: the public stream is signed when someone does
            return
        if seat is None:
            return
        st = self.seats[seat]
        assert st is not None
        st.cid = None
        log.info("table %d: %r (seat %d) disconnected%s", self.table_id, st.name, seat, f": {why}" if why else "")
        if self.phase == LOBBY:
            self._vacate(seat)
            self._lobby()
            self._notice("player-left", **self._left_args(st, "left"))
            self._after_leave(now)
            return
        self._lobby()
        if left and self.blind is not None:
            # it said goodbye, and nobody else can open its cards: the game ends now (its
            # seed, which it will not send, is not waited for: a removed seat's)
            self._removed.add(seat)
            self._notice("player-left", name=st.name, seat=seat, why="left")
            if self.phase == AUDITING:  # the game is over already: the audit ends without its seed
                if self._audit_complete():
                    self._close_audit(now)
                return
            self._abandon("blind-left", now, who=[[st.name, seat]], why="left")
            return
        # at a dealer-blind table nobody can play its cards: the game waits for it (its turn's grace)
        self._notice("player-left", name=st.name, seat=seat, why="left" if left else "disconnected",
                     then="bot" if left else "wait" if self.blind is not None else "reconnect")
        if self.blind is not None:
            self._say_blind_wait(now)
            return  # nobody can play its cards: the turn (and its grace) runs on; a rejoin resumes it
        if self.phase == PLAYING and self._prompt is not None and self._prompt[1] == seat:
            self._prompt = None
            self._turn_deadline = None
            self._bot_at = now + self.config.away_delay

    def kick(self, seat: int, now: float) -> str:
        """The host removes the player in ``seat`` (the host console's ``kick N``): its
        connection gets ``error kicked`` and is closed; in the lobby the seat is freed,
        during a game its token stops working and the default bot plays the seat to the
        end. Returns the name of the player removed (the console says it from its
        catalog, ``host.kicked``). Raises :class:`KickRefused` (a ``ValueError``: its
        ``code`` ``no-seat``, ``empty`` or ``bot`` and ``fields``, said by the console in
        its language; ``str()`` the English sentence) for a seat that does not exist, an
        empty seat or a host bot."""
        if not 0 <= seat < len(self.seats):
            raise KickRefused("no-seat", f"there is no seat {seat} at this {len(self.seats)}-seat table",
                              seat=seat, seats=len(self.seats))
        st = self.seats[seat]
        if st is None:
            raise KickRefused("empty", f"seat {seat} is empty", seat=seat)
        if st.bot:
            raise KickRefused("bot", f"seat {seat} is the host's own bot", seat=seat)
        log.warning("table %d: the host removed %r from seat %d", self.table_id, st.name, seat)
        self._remove(st, "kicked", f"the host removed you from seat {seat}", {}, now, wire_args={"seat": seat})
        return st.name

    def fill_with_bots(self, now: float) -> list[int]:
        """The host console's ``start`` (specs/host.md § Console): a host bot (``bot``,
        named like the host's bots) takes every empty seat of the lobby and the game
        starts as soon as every person seated is ready (at once when they are). The bots
        keep those seats as stand-ins do: a person who comes between games takes one
        back. Returns the seats filled, in order. Raises ``ValueError`` whose text is a
        code the console says from its catalog: ``running`` (not in the lobby),
        ``nobody`` (no person is seated: a table of bots alone plays for nobody),
        ``full`` (no empty seat: the game waits for people to get ready)."""
        if self.phase != LOBBY:
            raise ValueError("running")
        if self.humans == 0:
            raise ValueError("nobody")
        empty = [s for s, st in enumerate(self.seats) if st is None and self._free(s)]
        if not empty:
            raise ValueError("full")
        taken = {st.name.casefold() for st in self.seats if st is not None}
        for seat in empty:
            n = seat
            name = f"{self.config.bot} bot {n}"[:MAX_NAME_LEN]
            while name.casefold() in taken:
                n += len(self.seats)
                name = f"{self.config.bot} bot {n}"[:MAX_NAME_LEN]
            taken.add(name.casefold())
            self.seats[seat] = Seat(seat, name, None, bot=True, stand_in=True)
        log.info("table %d: the host filled seats %s with %s bots", self.table_id, empty, self.config.bot)
        self._lobby()
        self._maybe_start(now)
        return empty

    def _left_args(self, st: Seat, why: str, **more: Any) -> dict[str, Any]:
        """The args of a ``player-left`` notice (``st`` left its seat, ``why``), plus the
        bot that takes the seat now, if one does."""
        args: dict[str, Any] = {"name": st.name, "seat": st.seat, "why": why, **more}
        now_in = self.seats[st.seat]
        if now_in is not None and now_in.stand_in:
            args.update(then="stand-in", stand_in=now_in.name)
        return args

    def _after_leave(self, now: float) -> None:
        """After a person left the lobby: end the series when nobody is left (stand-ins
        leave, a new series begins with the next people; :attr:`deserted` is set), else
        start the next game if everyone left is ready."""
        if self.series.played > 0 and self.humans == 0 and self.phase == LOBBY:
            log.info("table %d: every person left; series %s over after %d game(s)", self.table_id,
                     self.series.series_id.hex(), self.series.played)
            self.series.close()
            # the next people start a new series: of the games the host has left to play
            # (None: until stopped; 0: none, the host is closing)
            left = None if self.games is None else max(0, self.games - self.games_done)
            self._observe("series-over", games=self.series.played, left=left)
            self.deserted = True
            for s, st in enumerate(self.seats):
                if st is not None and st.stand_in:
                    self.seats[s] = None
            self.series = SeriesState(secrets.token_bytes(16), None if left is None else max(1, left))
            self._lobby()
            return
        if self.series.played == 0 and self.humans == 0 and self.phase == LOBBY:
            # before the first game, nobody left: the bots ``start`` seated leave too
            stand_ins = [s for s, st in enumerate(self.seats) if st is not None and st.stand_in]
            for s in stand_ins:
                self.seats[s] = None
            if stand_ins:
                self._lobby()
                return
        self._maybe_start(now)

    def _free_unready(self, now: float) -> None:
        """Free every lobby seat whose ``ready_timeout`` has run out (seat squatting)."""
        limit = self.config.ready_timeout
        assert limit is not None
        for st in list(self.seats):
            if st is None or st.bot or st.ready or st.waiting_since is None or now < st.waiting_since + limit:
                continue
            log.info("table %d: %r (seat %d) was not ready within %g s; seat freed", self.table_id, st.name,
                     st.seat, limit)
            self._remove(st, "ready-timeout", f"you did not get ready within {limit:g} s; your seat is free again",
                         {"seconds": f"{limit:g}"}, now)

    def _remove(self, st: Seat, code: str, to_player: str, more: dict[str, Any], now: float,
                wire_args: dict[str, Any] | None = None) -> None:
        """Take ``st`` from its player: close its connection with ``error code`` (its
        ``args`` ``wire_args``, e.g. ``{"seat": 1}`` for ``kicked``: the client says it
        from its catalog) and tell the others (a ``player-left`` notice, ``why`` =
        ``code``, with ``more`` args); free the seat in the lobby, else revoke its token
        and let the default bot play it."""
        cid = st.cid
        if cid is not None:
            self._conn_seat.pop(cid, None)
            self._chat.pop(cid, None)
            self._ready_rate.pop(cid, None)
            self._effects.append(Close(cid, ErrorMessage(code, _clip(to_player), wire_args or {})))
        if self.phase == LOBBY:
            self._vacate(st.seat)
            self._lobby()
            self._notice("player-left", **self._left_args(st, code, **more))
            self._after_leave(now)
            return
        st.cid = None
        st.token = secrets.token_urlsafe(24)  # the old token no longer takes the seat back
        self._removed.add(st.seat)
        if self.blind is not None and self.phase in (SEEDING, PLAYING):
            # nobody else can play its cards or send its keys: the game ends here
            self._lobby()
            self._notice("player-left", name=st.name, seat=st.seat, why=code, **more)
            self._abandon("blind-left", now, who=[[st.name, st.seat]], why=code)
            return
        self._lobby()
        self._notice("player-left", name=st.name, seat=st.seat, why=code, then="bot", **more)
        if self.phase == PLAYING and self._prompt is not None and self._prompt[1] == st.seat:
            self._prompt = None
            self._turn_deadline = None
            self._bot_at = now + self.config.away_delay

    # ------------------------------------------------------------------ messages

    def receive(self, cid: int, msg: Message, now: float) -> None:
        """Handle a message (after the ``hello``) from seated connection ``cid``.

        Refusals that are not fatal are ``reject`` messages (codes ``wrong-game``,
        ``stale-state`` followed by a ``sync``, ``not-your-turn``, ``illegal-action``,
        ``bad-commitment``). ``bye``/``error`` from the client are handled by the server
        (:meth:`disconnect`). Messages of unknown connections are ignored.
        """
        seat = self._conn_seat.get(cid)
        if seat is None:
            if cid in self.spectators:
                self._from_spectator(cid, msg, now)
            return
        if isinstance(msg, ActionMessage):
            self._on_action(cid, seat, msg, now)
        elif isinstance(msg, Ping):
            self._send(cid, Pong(msg.nonce))
        elif isinstance(msg, Chat):
            self._on_chat(cid, seat, msg, now)
        elif isinstance(msg, Ready):
            self._on_ready(cid, seat, msg, now)
        elif isinstance(msg, SeedCommit):
            self._on_commit(cid, seat, msg, now)
        elif isinstance(msg, SeedReveal):
            self._on_reveal(cid, seat, msg, now)
        elif isinstance(msg, Blind):
            self._on_blind(cid, seat, msg, now)
        elif isinstance(msg, (Pong, Bye, ErrorMessage)):
            pass
        else:  # pragma: no cover - the protocol layer lets nothing else through
            log.warning("table %d: unexpected %s from connection %d", self.table_id, msg.type, cid)

    def _from_spectator(self, cid: int, msg: Message, now: float) -> None:
        """A spectator's message: ``ping`` answered; ``chat`` not relayed (notice
        ``spectator-readonly``, rate-limited like chat); an action or seed refused with
        ``reject not-your-turn``; ``ready`` ignored (specs/protocol.md §12)."""
        if isinstance(msg, Ping):
            self._send(cid, Pong(msg.nonce))
        elif isinstance(msg, Chat):
            if _take_token(self._chat, cid, self.config.chat_burst, self.config.chat_rate, now):
                self._send(cid, Notice("spectator-readonly", notice_sentence("spectator-readonly", {})))
        elif isinstance(msg, (ActionMessage, SeedCommit, SeedReveal, Blind)):
            state_id = msg.state_id if isinstance(msg, ActionMessage) else None
            self._send(cid, Reject(state_id, "not-your-turn", "a spectator holds no seat"))

    def _on_ready(self, cid: int, seat: int, msg: Ready, now: float) -> None:
        st = self.seats[seat]
        if self.phase != LOBBY or st is None:
            return  # crossed the start of a game: nothing to do
        if st.ready != msg.ready:
            if not _take_token(self._ready_rate, cid, self.config.ready_burst, self.config.ready_rate, now):
                # ignored without an answer: a flood must not cost anyone else a frame
                log.info("table %d: connection %d toggles ready too fast; ignored", self.table_id, cid)
                return
            st.ready = msg.ready
            st.waiting_since = None if msg.ready else now
            self._lobby()
        self._maybe_start(now)

    def _on_chat(self, cid: int, seat: int, msg: Chat, now: float) -> None:
        cfg = self.config
        if not _take_token(self._chat, cid, cfg.chat_burst, cfg.chat_rate, now):
            self._send(cid, Notice("chat-throttled", notice_sentence("chat-throttled", {})))
            return
        st = self.seats[seat]
        assert st is not None
        self._broadcast(ChatRelay(seat, st.name, msg.text))
        self._observe("chat", seat=seat, name=st.name, text=msg.text)

    # ------------------------------------------------------------------ game start and seeds

    def _maybe_start(self, now: float) -> None:
        if self._stopping or self.phase != LOBBY or not all(s is not None and (s.bot or (s.connected and s.ready)) for s in self.seats):
            return
        self._drop_lapsed(now)
        if self.waiting:  # someone takes a stand-in's seat back: the game starts once they sat down
            return
        self.game_dealer, why = self.next_dealer()
        self._start_game(now, HostDealer(self.rules, self.key, spectators=self.config.max_spectators > 0,
                                         chained=self._chained_viewers(), deferred=self._deferred_seats()), why)

    def _start_game(self, now: float, dealer: HostDealer, why: DealerWhy | None = None) -> None:
        """Begin a game dealt by ``dealer`` (fresh game id and host seed) in the scheme
        :attr:`game_dealer` (``why``: :meth:`next_dealer`'s reason, for the log and the
        host screen): ``start`` to every connected seat, the signed ``start``
        statements, bot seeds committed."""
        self.dealer = dealer
        self._removed = set()
        self._wait_said = None
        if not self.spectators:
            dealer.unwatched()  # the public stream is signed once someone watches (specs/host.md § Spectators)
        self.phase = SEEDING
        self.games_started += 1
        self.game_label = (self.series.series_id, self.series.played + 1)
        self._streams = {s: [] for s in range(self.rules.players)}
        self._streams[None] = []  # the public stream, for spectators (if the dealer signs one)
        self._plain_sent = 0
        self._raw = {s: [] for s in range(self.rules.players)}
        self._commits, self._reveals = {}, {}
        self._seed_deadline = now + self.config.seed_timeout
        log.info("table %d: game %s starts (%s dealer): %s", self.table_id, self.dealer.game_id.hex(), self.game_dealer,
                 ", ".join(map(repr, self.names())))  # type: ignore[arg-type]
        if why is not None and why.code == "old-client":
            log.warning("table %d: this game deals trusted: %s cannot deal blind", self.table_id,
                        ", ".join(f"{st.name!r} (seat {st.seat}, protocol version {st.version})" for st in why.seats))
        self._observe("start", game_id=self.dealer.game_id, rules=self.rules, names=self.names(),
                      host_key=self.dealer.fingerprint, dealer=self.game_dealer,
                      why=why.observation() if why is not None else None)
        self._broadcast(self._start_message())
        self._deliver(self.dealer.start())
        if self.game_dealer == "blind":
            # dealer-blind (specs/protocol.md §13): the seats send their participants'
            # hellos; the host's own participants have said theirs
            self.blind = BlindDeal(self.dealer, [st.seat for st in self.seats if st is not None and st.bot])
            return
        self.blind = None
        for st in self.seats:
            if st is not None and st.bot:
                self._deliver(self.dealer.commit_bot(st.seat))
        self._after_seeds(now)

    def _start_message(self) -> Start:
        """The ``start`` message of the current game (``dealer`` says the scheme)."""
        assert self.dealer is not None
        return Start(self.dealer.game_id, self.rules, self.game_dealer)

    def _deliver(self, outbox: dict[int | None, list[bytes]]) -> None:
        """Send each viewer's new statements: a seat's to that seat only, the public
        stream (viewer ``None``) to every spectator; keep them for rejoins."""
        for viewer, raws in outbox.items():
            for raw in raws:
                msg = statement_message(raw)
                self._streams[viewer].append(msg)
                if viewer is None:
                    for cid in self.spectators:
                        if cid not in self._plain_spectators:
                            self._send(cid, msg)
                    continue
                self._raw[viewer].append(raw)
                self._to_seat(viewer, msg)
        if None in outbox and self._plain_spectators:
            plain = self.dealer.plain_public()  # type: ignore[union-attr]
            self._send_plain(plain[self._plain_sent:])

    def _send_plain(self, raws: list[bytes]) -> None:
        """Send the spectators' statements ``raws`` in version-1 bodies (the next ones of
        that stream) to every spectator whose client reads no chain."""
        for raw in raws:
            msg = statement_message(raw)
            for cid in self._plain_spectators:
                self._send(cid, msg)
        self._plain_sent += len(raws)

    def _on_commit(self, cid: int, seat: int, msg: SeedCommit, now: float) -> None:
        if self.dealer is None or msg.game_id != self.dealer.game_id:
            self._send(cid, Reject(None, "wrong-game", "that seed commitment names a game that is not running"))
            return
        if self.blind is not None:
            self._send(cid, Reject(None, "bad-commitment", "this game deals blind: its seats send no seed commitment"))
            return
        old = self._commits.get(seat)
        if old is not None:
            if old != msg.commitment:
                self._send(cid, Reject(None, "bad-commitment", "your seat has already committed to another seed"))
            return  # the same commitment again (e.g. after a reconnect): nothing to do
        if self.phase != SEEDING:
            self._send(cid, Reject(None, "bad-commitment", "seed commitments are closed for this game"))
            return
        try:
            out = self.dealer.commit(seat, msg.commitment)
        except DealerError as exc:
            self._send(cid, Reject(None, "bad-commitment", _clip(exc.reason)))
            return
        self._commits[seat] = msg.commitment
        self._deliver(out)
        self._after_seeds(now)

    def _on_reveal(self, cid: int, seat: int, msg: SeedReveal, now: float) -> None:
        if self.dealer is None or msg.game_id != self.dealer.game_id:
            self._send(cid, Reject(None, "wrong-game", "that seed names a game that is not running"))
            return
        if self.blind is not None:
            self._send(cid, Reject(None, "bad-commitment", "this game deals blind: its seats reveal their seeds as blind messages"))
            return
        old = self._reveals.get(seat)
        if old is not None:
            if old != msg.seed:
                self._send(cid, Reject(None, "bad-commitment", "your seat has already revealed another seed"))
            return
        if self.phase != SEEDING or self.dealer.phase != "revealing":
            self._send(cid, Reject(None, "bad-commitment", "reveal your seed only after the host announced every commitment"))
            return
        try:
            out = self.dealer.reveal(seat, msg.seed)
        except DealerError as exc:
            st = self.seats[seat]
            name = st.name if st else f"seat {seat}"
            self._send(cid, Reject(None, "bad-commitment", _clip(exc.reason)))
            log.warning("table %d: seat %d revealed a seed that does not open its commitment", self.table_id, seat)
            self._abandon("bad-seed", now, who=[[name, seat]])
            return
        self._reveals[seat] = msg.seed
        self._deliver(out)
        self._after_seeds(now)

    # ------------------------------------------------------------------ dealer-blind deal

    def _on_blind(self, cid: int, seat: int, msg: Blind, now: float) -> None:
        """A seat's dealer-blind participant message (specs/protocol.md §13): checked by
        the host's ledger and relayed in a signed ``blind`` statement; a wrong one stops
        the game, naming its author."""
        blind = self.blind
        if self.dealer is None or blind is None or msg.game_id != self.dealer.game_id:
            self._send(cid, Reject(None, "wrong-game", "that dealer-blind message names a game that is not running"))
            return
        if self.phase == AUDITING and not blind.is_seed(msg.msg):
            return  # a key or pass crossing the end of the game: nothing more is opened
        if self.phase not in (SEEDING, PLAYING, AUDITING):
            return
        try:
            out = blind.receive(seat, msg.msg)
        except BlindError as exc:
            if exc.culprit != seat:  # e.g. a bot's card opens to no card: a wrong pass, the audit names who
                log.warning("table %d: the dealer-blind deal failed: %s", self.table_id, exc.reason)
                if self.phase != AUDITING:
                    self._abandon("blind-deal-failed", now, detail=_clip(exc.reason))
                return
            st = self.seats[seat]
            name = st.name if st else f"seat {seat}"
            log.warning("table %d: seat %d sent a wrong dealer-blind message: %s", self.table_id, seat, exc.reason)
            self._send(cid, Reject(None, "bad-blind", _clip(exc.reason)))
            if self.phase != AUDITING:
                self._abandon("blind-bad-message", now, who=[[name, seat]], detail=_clip(exc.reason))
            return
        self._deliver(out)
        if self.phase == AUDITING:
            if self._audit_complete():
                self._close_audit(now)
            return
        if self._blind_failed(now):
            return
        self._seed_deadline = now + self.config.seed_timeout  # progress: the next step gets its own time
        if self.phase == SEEDING and blind.dealt:
            self._blind_dealt(now)
        elif self.phase == PLAYING:
            self._blind_progress(now)
            self._say_blind_wait(now)

    def _blind_dealt(self, now: float) -> None:
        """Every seat holds its opened cards and round 1 is announced: play on deck
        positions begins (specs/fairness.md B.16.8). The host's engine holds the public
        cards and its bots' cards only."""
        assert self.dealer is not None and self.blind is not None and self.blind.play is not None
        log.info("table %d: dealer-blind deal done; play begins", self.table_id)
        self._observe("blind-dealt")
        self.dealer.play_blind(self.blind.play.game.state)
        self._blind_events = len(self.blind.play.events)
        self._blind_rejected = 0
        self._claimant = None
        self.phase = SEEDING  # _after_seeds moves it to PLAYING
        self._after_seeds(now)

    def _blind_claim(self, seat: int, action: Action, now: float) -> None:
        """Seat ``seat`` (a client's move or a host bot's) plays ``action`` in deck
        positions: checked on public information and relayed as a signed ``claim``
        (specs/fairness.md B.16.4); the turn's timer stops while its cards are opened.
        ``IllegalAction`` (nothing sent) when it fails stage 1."""
        assert self.blind is not None
        out = self.blind.claim(seat, action)
        self._claimant = seat
        self._prompt = None
        self._turn_deadline = self._bot_at = None
        self._deliver(out)
        if self._blind_failed(now):
            return
        self._seed_deadline = now + self.config.seed_timeout
        self._blind_progress(now)
        self._say_blind_wait(now)

    def _say_blind_wait(self, now: float) -> None:
        """Dealer-blind game in play: when it waits for a seat that is away — a key of
        the cards being opened, or its move — tell everyone who, and in how many
        seconds the game is abandoned unless that seat comes back (``blind-wait``,
        specs/host.md § A dealer-blind game). Said again only when the wait changes
        (another seat, or the deadline moved by 2 s or more: a key from another seat
        is progress and restarts the time)."""
        if self.blind is None or self.phase != PLAYING or self.dealer is None:
            return
        play = self.blind.play
        wait: tuple[str, int, float] | None = None
        if play is not None and not play.idle and self._seed_deadline is not None:
            away = [p for p in self.blind.owing() if p < len(self.seats) and self._away(p)]
            if away:
                wait = ("key", away[0], self._seed_deadline)
        elif self._prompt is not None and self._turn_deadline is not None:
            if self._away(self._prompt[1]):
                wait = ("turn", self._prompt[1], self._turn_deadline)
        said = self._wait_said
        if wait is None or (said is not None and said[:2] == wait[:2] and abs(said[2] - wait[2]) < 2):
            return
        self._wait_said = wait
        what, seat, deadline = wait
        st = self.seats[seat]
        assert st is not None
        self._notice("blind-wait", name=st.name, seat=seat, what=what, seconds=max(0, round(deadline - now)))

    def _away(self, seat: int) -> bool:
        """A person's seat whose connection is gone (not a host bot)."""
        st = self.seats[seat]
        return st is not None and not st.bot and not st.connected

    def _blind_failed(self, now: float) -> bool:
        """True (and the game abandoned) when an opening of the dealer-blind game failed
        after its message was relayed: no card, or a card seen twice (B.9)."""
        assert self.blind is not None
        exc = self.blind.failure
        if exc is None or self.phase == AUDITING:
            return False
        log.warning("table %d: the dealer-blind game failed: %s", self.table_id, exc.reason)
        self._abandon("blind-deal-failed", now, detail=_clip(exc.reason))
        return True

    def _blind_progress(self, now: float) -> None:
        """After a message of a dealer-blind game in play: tell a seat its claim was
        refused once its cards were open (it plays again), and once the step's cards
        are all open, sync every viewer and prompt the next seat (or end the game)."""
        assert self.blind is not None and self.dealer is not None
        play = self.blind.play
        if play is None or self.phase != PLAYING:
            return
        for seat, action, why in play.rejected[self._blind_rejected:]:
            log.info("table %d: seat %d's claim refused once its cards were open: %s", self.table_id, seat, why.reason)
            self._to_seat(seat, _illegal_reject(play.version, "illegal-action", why))
        refused = len(play.rejected) > self._blind_rejected
        self._blind_rejected = len(play.rejected)
        if not play.idle:
            return
        self._seed_deadline = None
        events = play.events[self._blind_events:]
        self._blind_events = len(play.events)
        if events:
            state = self.dealer.state
            self._sync_seats()
            public = self._public_view()
            self._sync_spectators(public)
            if self.observer is not None:
                table = play.game.table
                wire = []
                for e in events:
                    try:
                        wire.append(fill_event(e.to_wire(None), table))
                    except HiddenCard:  # pragma: no cover - a public event names public cards only
                        log.exception("table %d: a public event names a hidden card", self.table_id)
                self._observe("step", actor=self._claimant, action=play.game.card_action(state.history[-1]),
                              events=wire, observation=public)
            if state.is_over:
                self._finish(now)
                return
        if events or refused:
            self._prompt_next(now)

    def _sync_seats(self) -> None:
        """Every connected seat's ``sync`` of the current state (its own observation;
        deck positions at a dealer-blind table, filled in by its client)."""
        assert self.dealer is not None
        state = self.dealer.state
        for st in self.seats:
            if st is not None and st.cid is not None:
                self._send(st.cid, Sync.trusted(state.version, state.observation(st.seat)))

    def _blind_owing(self) -> list[list[Any]]:
        """Who owes the dealer-blind deal a message: ``[name, seat]`` pairs (the host as
        ``["", HOST_PID]``), for an abandon reason's ``who``."""
        assert self.blind is not None
        owing: list[list[Any]] = []
        for pid in self.blind.owing():
            st = self.seats[pid] if pid != HOST_PID else None
            owing.append(["", HOST_PID] if pid == HOST_PID else [st.name if st else "", pid])
        return owing

    def _close_audit(self, now: float) -> None:
        """Every seed is in (or their time is up): score a finished game (``series``) and
        send the ``end`` message held back."""
        assert self._audit_end is not None
        reason, result = self._audit_end
        self._audit_end = None
        audited = self.blind is None or self.blind.audited
        if not audited:
            log.warning("table %d: no dealer-blind seed in time from %s", self.table_id,
                        abandon_sentence("blind-deal-late", {"who": self._blind_owing()}, "en"))
        if reason == "finished":
            # a finished game scores its ranking once its deal is audited; without every
            # seed no seat can verify it, and its clients count it as scoring nothing
            # (specs/rules.md § 15): so does the host (an abandoned game was scored at
            # its abandon)
            self._score(list(result["ranking"]) if audited else None)
        # the seats' streams are complete now (the seeds relayed): the transcripts can be written
        self._observe("audited", reason=reason, verified=audited)
        self._broadcast(End(reason, result))
        self._back_to_lobby(result, now)

    def _after_seeds(self, now: float) -> None:
        """Once the dealer has dealt: sync every seat and prompt the first player."""
        assert self.dealer is not None
        if self.phase != SEEDING or self.dealer.phase != "playing":
            return
        self.phase = PLAYING
        self._seed_deadline = None
        state = self.dealer.state
        for st in self.seats:
            if st is not None and st.cid is not None:
                self._send(st.cid, Sync.trusted(state.version, state.observation(st.seat)))
        public = self._public_view()
        self._sync_spectators(public)
        if self.observer is not None:
            self._observe("deal", observation=public, dealer=self.game_dealer)
        self._prompt_next(now)

    # ------------------------------------------------------------------ turns

    def _prompt_next(self, now: float) -> None:
        assert self.dealer is not None
        state = self.dealer.state
        seat = state.to_move
        st = self.seats[seat]
        assert st is not None
        self._bot_at = self._turn_deadline = None
        self._prompt = None
        timeout = self.config.turn_timeout
        deadline = None
        if timeout is not None and not st.bot:
            turn = self._turn_end
            if turn is None or turn[:2] != (state.version, seat):
                turn = self._turn_end = (state.version, seat, now + timeout)
            deadline = turn[2]
        if self.blind is not None and not st.bot:
            self._prompt_blind(seat, st, deadline, now)
            return
        if st.connected:
            legal = tuple(state.legal_actions())
            self._prompt = (state.version, seat)
            self._turn_deadline = deadline
            if deadline is not None and deadline <= now:
                return  # no time left (a reconnect after the deadline): tick plays the default now
            ms = None if deadline is None else max(1, round((deadline - now) * 1000))
            self._send(st.cid, Prompt.trusted(state.version, legal, ms, self._pending_text()))
        else:
            self._bot_at = now + (self.config.bot_delay if st.bot else self.config.away_delay)

    def _prompt_blind(self, seat: int, st: Seat, deadline: float | None, now: float) -> None:
        """Prompt a person's seat at a dealer-blind table: no legal-move list (the host
        cannot know it; the client computes its own), the turn's time left; the host
        waits ``turn_grace`` more for the move its client plays itself when the time
        is up, even while the seat is disconnected (specs/host.md § A dealer-blind game)."""
        assert self.dealer is not None
        state = self.dealer.state
        self._prompt = (state.version, seat)
        self._turn_deadline = None if deadline is None else deadline + self.config.turn_grace
        if not st.connected:
            self._say_blind_wait(now)
        if st.connected and (deadline is None or deadline > now):
            ms = None if deadline is None else max(1, round((deadline - now) * 1000))
            self._send(st.cid, Prompt.trusted(state.version, (), ms, self._pending_text()))
        elif st.connected:  # a rejoin after the turn's time: its client plays the default at once
            self._send(st.cid, Prompt.trusted(state.version, (), 1, self._pending_text()))

    def _on_action(self, cid: int, seat: int, msg: ActionMessage, now: float) -> None:
        if self.dealer is None or msg.game_id != self.dealer.game_id:
            self._send(cid, Reject(msg.state_id, "wrong-game", "that action names a game that is not running"))
            return
        if self.phase != PLAYING:
            self._send(cid, Reject(msg.state_id, "not-your-turn", "the cards are not dealt yet"))
            return
        state = self.dealer.state
        if msg.state_id != state.version:
            self._send(cid, Reject(msg.state_id, "stale-state",
                                   f"that action answers state {msg.state_id}; the table is at state {state.version}"))
            self._send(cid, Sync.trusted(state.version, state.observation(seat)))
            if self._prompt == (state.version, seat):
                self._prompt_next_resend(cid, now)
            return
        if state.to_move != seat:
            self._send(cid, Reject(msg.state_id, "not-your-turn", f"seat {state.to_move} is to move, not seat {seat}",
                                   {"illegal": IllegalAction("not-your-turn", to_move=state.to_move).to_wire()}))
            return
        if self.blind is not None:
            if self._prompt != (state.version, seat):
                self._send(cid, Reject(msg.state_id, "not-your-turn", "your last move's cards are still being opened",
                                       {"illegal": IllegalAction("still-opening").to_wire()}))
                return
            try:
                self._blind_claim(seat, msg.action, now)
            except IllegalAction as exc:
                log.info("table %d: seat %d's claim refused: %s", self.table_id, seat, exc.reason)
                self._send(cid, _illegal_reject(msg.state_id, "illegal-action", exc))
            return
        try:
            self._play(seat, msg.action, now)
        except IllegalAction as exc:
            self._send(cid, _illegal_reject(msg.state_id, "illegal-action", exc))

    def _prompt_next_resend(self, cid: int, now: float) -> None:
        """Send the live prompt again (after a full sync), keeping its deadline."""
        assert self.dealer is not None
        state = self.dealer.state
        if self.blind is not None:
            self._prompt_next(now)  # the turn keeps its deadline (_turn_end)
            return
        left = None if self._turn_deadline is None else max(0, int((self._turn_deadline - now) * 1000))
        self._send(cid, Prompt.trusted(state.version, tuple(state.legal_actions()), left, self._pending_text()))

    def _pending_text(self) -> str:
        """What the prompted seat is asked, e.g. ``'attack round 3'`` or
        ``'answer the attack of seat 1'``."""
        assert self.dealer is not None
        state = self.dealer.state
        if state.pending is not None:
            return f"answer the {state.pending.contest} of seat {state.pending.actor}"
        if state.supplying is not None:
            return f"supply round {state.round_no}: discard up to {state.supplying.left} more recovered cards, or pass"
        return f"{state.round_kind} round {state.round_no}"

    def _play(self, seat: int, action: Action, now: float, *, then: Callable[[], None] | None = None) -> None:
        """Apply ``action`` for ``seat`` (the seat to move) and tell everyone.
        ``then`` runs once the move is public but before the game ends or the next
        seat is prompted (the turn-timeout notice: it names cards the move reveals, and
        it must come before ``end`` when this move finishes the game).
        Raises ``IllegalAction`` (nothing changed, nothing sent) if it is not legal."""
        assert self.dealer is not None
        events, out = self.dealer.apply(action)
        self._prompt = None
        self._turn_deadline = self._bot_at = None
        self._deliver(out)
        state = self.dealer.state
        for st in self.seats:
            if st is not None and st.cid is not None:
                self._send(st.cid, Sync.trusted(state.version, state.observation(st.seat)))
        public = self._public_view()  # the spectator's view costs an observation: only when someone watches
        self._sync_spectators(public)
        if self.observer is not None:
            self._observe("step", actor=seat, action=action, events=[e.to_wire(None) for e in events],
                          observation=public)
        if then is not None:
            then()
        if state.is_over:
            self._finish(now)
        else:
            self._prompt_next(now)

    def _default_action(self, seat: int) -> Action:
        assert self.dealer is not None
        state = self.dealer.state
        bot = get_bot(self.config.default_bot)
        return bot(state.observation(seat), state.legal_actions(), self.rng)

    def tick(self, now: float) -> None:
        """Do what is due at ``now``: abandon a game whose seeds are late, play the
        default action of a timed-out turn (with a ``turn-timeout`` notice to all), or
        one move of a host bot or of the bot standing in for a disconnected player.
        At most one move per call, so the server gets to run between moves. In the
        lobby: free the seats that did not get ready within ``ready_timeout``."""
        if self.phase == LOBBY:
            deadline = self._ready_deadline()
            if deadline is not None and now >= deadline:
                self._free_unready(now)
            if self._drop_lapsed(now):
                self._lobby()
                self._maybe_start(now)
            return
        if self._seed_deadline is not None and now >= self._seed_deadline and self.phase == AUDITING:
            self._close_audit(now)
            return
        if self._seed_deadline is not None and now >= self._seed_deadline and self.phase == SEEDING and self.blind is not None:
            self._abandon("blind-deal-late", now, who=self._blind_owing())
            return
        if self._seed_deadline is not None and now >= self._seed_deadline and self.phase == SEEDING:
            late = [s for s in range(self.rules.players) if s not in self._reveals and (self.seats[s] is None or not self.seats[s].bot)]  # type: ignore[union-attr]
            self._abandon("seed-late", now, who=[[self.names()[s] or "", s] for s in late])
            return
        if self.phase != PLAYING or self.dealer is None:
            return
        if self.blind is not None:
            self._blind_tick(now)
            return
        state = self.dealer.state
        seat = state.to_move
        if self._turn_deadline is not None and now >= self._turn_deadline and self._prompt == (state.version, seat):
            action = self._default_action(seat)
            st = self.seats[seat]
            name = st.name if st else f"seat {seat}"
            log.info("table %d: %r (seat %d) timed out; playing %s", self.table_id, name, seat, describe_action(action))
            args = {"name": name, "seat": seat, "seconds": f"{self.config.turn_timeout:g}",
                    "action": action.to_wire()}
            # The notice follows the move (it names cards the move makes public) but
            # precedes the end of the game when this move finishes it.
            self._play(seat, action, now, then=lambda: self._notice("turn-timeout", **args))
            return
        if self._bot_at is not None and now >= self._bot_at:
            action = self._bot_action(seat) if self._is_host_bot(seat) else self._default_action(seat)
            self._play(seat, action, now)

    def _blind_tick(self, now: float) -> None:
        """What is due at a dealer-blind table in play: a host bot's move; the end of
        the game when a key is late (``seed_timeout`` since the last progress; B.9
        withheld key) or a person's move has not come within its turn and the grace
        period ("a seat left", specs/host.md § A dealer-blind game)."""
        assert self.blind is not None and self.dealer is not None
        state = self.dealer.state
        seat = state.to_move
        if self._seed_deadline is not None and now >= self._seed_deadline:
            self._abandon("blind-key-late", now, who=self._blind_owing())
            return
        if self._turn_deadline is not None and now >= self._turn_deadline and self._prompt == (state.version, seat):
            st = self.seats[seat]
            name = st.name if st else f"seat {seat}"
            self._abandon("blind-turn-late", now, who=[[name, seat]], seconds=f"{self.config.turn_grace:g}")
            return
        if self._bot_at is not None and now >= self._bot_at and self._is_host_bot(seat):
            assert self.blind.play is not None
            bot = get_bot(self.config.bot, think=self.config.think, rules=self.rules)
            action = self.blind.play.game.bot_action(bot, self.rng, seat)
            try:
                self._blind_claim(seat, action, now)
            except IllegalAction:  # pragma: no cover - a bot plays from the legal list
                log.exception("table %d: the host bot of seat %d made an illegal claim", self.table_id, seat)
                self._abandon("bot-failed", now, seat=seat)

    def _is_host_bot(self, seat: int) -> bool:
        st = self.seats[seat]
        return st is not None and st.bot

    def _bot_action(self, seat: int) -> Action:
        assert self.dealer is not None
        state = self.dealer.state
        bot = get_bot(self.config.bot, think=self.config.think, rules=self.rules)
        return bot(state.observation(seat), state.legal_actions(), self.rng)

    # ------------------------------------------------------------------ end of a game

    def _finish(self, now: float) -> None:
        assert self.dealer is not None
        state = self.dealer.state
        self._deliver(self.dealer.finish())
        end = state.events[-1].to_wire(None) if state.events and state.events[-1].kind == "end" else {}
        result = {
            "reason": end.get("reason", "finished"),
            "winner": state.winner,
            "ranking": list(state.ranking),
            "cards_left": end.get("cards_left", [state.cards_left(s) for s in range(self.rules.players)]),
            "names": [n or "" for n in self.names()],
        }
        log.info("table %d: game %s over: ranking %s", self.table_id, self.dealer.game_id.hex(),
                 ", ".join(repr(self.names()[s]) for s in state.ranking))
        if self.blind is not None:
            # dealer-blind: every participant reveals its seed (the audit, B.10), then
            # `series` (scored when the audit ends: :meth:`_close_audit`) and `end`
            self._observe("end", result=result)
            self._await_seeds("finished", result, now)
            return
        self._score(list(state.ranking))
        self._broadcast(End("finished", result))
        self._observe("end", result=result)
        self._back_to_lobby(result, now)

    def stop_game(self, now: float, reason: str, *, audit: bool = True) -> bool:
        """Abandon the running game, if any, because the host stops (``reason``, e.g.
        "the host was stopped"): every seat gets the signed ``abandon`` statement (with
        the host seed) and ``end aborted``. Returns True if a game was running (or an
        audit was closed). From now on no game starts. A dealer-blind game that is over
        and waits for the seats' seeds (its audit) is not abandoned: with ``audit`` its
        audit is closed now (the seeds not in are missing), else it is left to finish
        (the host's shutdown waits ``audit_grace`` for the seeds on their way, so every
        seat can verify a game that ended as the host was stopped; specs/host.md § 2)."""
        self._stopping = True
        if self.phase == LOBBY or self.dealer is None:
            return False
        if self.phase == AUDITING:
            if not audit:
                return False
            self._close_audit(now)
            return True
        code = KNOWN_REASONS.get(reason, "").removeprefix("reason.")
        self._abandon(code or "host-stopped", now, reason=reason)
        return True

    def _score(self, ranking: list[int] | None) -> None:
        """Record the game that just ended in the series (``ranking`` None: abandoned)
        and send every seat the ``series`` scoreboard (before its ``end``; the server
        drops it for clients older than protocol version 3)."""
        try:
            self.series.record(self.names(), ranking)
        except ValueError:  # pragma: no cover - the engine's ranking names every seat
            log.exception("table %d: cannot score ranking %r", self.table_id, ranking)
            self.series.record(self.names(), None)
        if self._stopping:
            self.series.close()
        msg = self.series_message()
        self._broadcast(msg)
        self._observe("series", message=msg)

    def series_message(self) -> Series:
        """The ``series`` message of the latest game (specs/protocol.md § 4)."""
        standings = tuple(SeriesStanding(st.name, st.points, st.wins, st.played, st.last)
                          for st in self.series.standings()[:MAX_STANDINGS])
        return Series(self.series.series_id, self.series.played, self.series.games, self.series.over, standings,
                      self.series.abandoned)

    def _abandon(self, code: str, now: float, reason: str | None = None, **args: Any) -> None:
        """Abandon the running game for the reason ``code`` with its ``args``
        (:data:`~jupai_net.messages.notices.ABANDON_CODES`): the signed ``abandon``
        statement and ``end aborted``'s ``reason`` carry the English sentence (``reason``:
        the host's own stop words), ``end``'s ``code``/``args`` let each client say it in
        its own language (specs/protocol.md § end)."""
        assert self.dealer is not None
        if reason is None:
            try:
                reason = abandon_sentence(code, args, "en")
            except ValueError:  # pragma: no cover - the calls above give each code its args
                log.exception("table %d: abandon reason %r %r", self.table_id, code, args)
                reason = code
        log.warning("table %d: game %s abandoned: %s", self.table_id, self.dealer.game_id.hex(), reason)
        self._deliver(self.dealer.abandon(reason))
        if self.blind is not None:
            # as every verifier does at the abandon statement (B.9): only seeds from now
            # on, and a seed may skip the numbers of keys that crossed the abandon
            self.blind.ledger.stop(reason)
        result = {"reason": _clip(reason), "code": code, "args": args, "names": [n or "" for n in self.names()]}
        self._score(None)
        if self.blind is not None and self.blind.ledger.seed_commitments:
            # dealer-blind: every participant now reveals its seed, so each seat can
            # audit the deal (specs/fairness.md B.9, B.10); the end message follows
            # (the ledger stopped above: a seed may skip the number of a pass or key
            # still on its way, which is not taken)
            self._observe("abandon", reason=reason, code=code, args=args)
            self._await_seeds("aborted", result, now)
            return
        self._broadcast(End("aborted", result))
        self._observe("abandon", reason=reason, code=code, args=args)
        self._back_to_lobby(result, now)

    def _await_seeds(self, reason: str, result: dict[str, Any], now: float) -> None:
        """After a dealer-blind game's ``end``/``abandon`` statement: relay the host's
        participants' seeds and wait (seed time-out) for the seats' before ``end``."""
        assert self.blind is not None
        self.phase = AUDITING
        self._prompt = None
        self._turn_deadline = self._bot_at = None
        self._audit_end = (reason, result)
        self._deliver(self.blind.seeds())
        self._seed_deadline = now + self.config.seed_timeout
        if self._audit_complete():
            self._close_audit(now)

    def _audit_complete(self) -> bool:
        """True when no seed the audit still waits for can come: every participant's
        seed is in, or the only ones missing are of seats removed from this game (a kick
        revokes the seat's token and closes its connection: it can never send its seed,
        so the others do not wait ``seed_timeout`` for it; specs/host.md § A dealer-blind
        game)."""
        assert self.blind is not None
        if self.blind.audited:
            return True
        owing = self.blind.owing()
        return bool(owing) and all(pid in self._removed for pid in owing)

    def _back_to_lobby(self, result: dict[str, Any], now: float) -> None:
        self.phase = LOBBY
        self._audit_end = None
        self.last_result = result
        self.games_done += 1
        self._seed_deadline = self._turn_deadline = self._bot_at = None
        self._prompt = self._turn_end = None
        self._rejoins.clear()
        left = []
        for s, st in enumerate(self.seats):
            if st is None or st.bot:
                continue
            if st.cid is None:
                self._vacate(s)  # its token dies with the game; a stand-in bot may take the seat
                left.append(st)
            else:
                st.ready = False
                st.waiting_since = now
        self._lobby()
        for st in left:  # (the players heard of the disconnect during the game)
            if (now_in := self.seats[st.seat]) is not None and now_in.stand_in:
                self._notice("bot-seated", name=st.name, seat=st.seat, stand_in=now_in.name)
        self._after_leave(now)

    def transcripts(self, meta: dict[str, Any] | None = None) -> dict[int, bytes]:
        """Transcript file bytes (specs/fairness.md §7) of every seat of the current or
        last game, as the host sent them, with the seats' revealed seeds: what ``jupai
        verify`` checks. Empty before the seeds are revealed (a transcript needs them).
        Their unsigned ``meta``: ``meta`` (e.g. the saved time and the table, from the
        server, which has a clock) plus the names by seat, the series id (hex) and the
        game's number in it."""
        from jupai_net.fairness import Transcript

        if self.dealer is None:
            return {}
        seeds = self.dealer.seat_seeds()
        if self.blind is not None:  # a seat's transcript keeps its participant's seed (specs/fairness.md B.15.1)
            seeds = [self.blind.ledger.seeds.get(s) for s in range(self.rules.players)]
        if any(s is None for s in seeds):
            return {}
        out = {}
        for s in range(self.rules.players):
            st = self.seats[s]
            gone = st is None or (not st.bot and st.cid is None)
            # a seat not connected at the end never saw the end: its copy says so, and
            # verifies as "unverified: this seat left" (specs/fairness.md §9)
            left = "the seat was not connected at the end; the host wrote this copy" if gone else None
            out[s] = Transcript(s, seeds[s], tuple(self._raw.get(s, ())), left=left, meta=self._meta(meta)).encode()
        return out

    def _meta(self, extra: dict[str, Any] | None) -> dict[str, Any]:
        """The transcripts' unsigned ``meta`` map (specs/fairness.md §7)."""
        meta: dict[str, Any] = dict(extra or {})
        meta["names"] = [(n or f"seat {s}")[:64] for s, n in enumerate(self.names())]
        if self.game_label is not None:
            meta["series"], meta["game"] = self.game_label[0].hex(), str(self.game_label[1])
        return meta

    def record(self) -> dict[str, Any] | None:
        """The engine record of the current (or last) game (``None`` before the deal)."""
        if self.dealer is None or self.dealer.state is None:
            return None
        return self.dealer.state.record()
