"""The host's side of a dealer-blind deal (specs/fairness.md Part B, B.15.1;
specs/protocol.md §13): it collects every participant's hello, relays every
participant message inside its own signed ``blind`` statements, plays its own
participant (``0xFF``) and those of its bot seats, and knows who owes what when a
time-out comes.

Pure: no sockets, no clock. The :class:`~jupai_net.host.table.Table` calls it with the
seats' ``blind`` messages and delivers the :data:`~jupai_net.fairness.dealer.Outbox`
each call returns. Every failure is a :class:`BlindError` naming its culprit
(``culprit``: the seat whose message is wrong, or the participant that owes a message).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from jupai_net.fairness.blind import BlindError, participant_name, table_participants
from jupai_net.fairness.blind_actor import BlindActor, schedule
from jupai_net.fairness.blind_ledger import (
    DEALT,
    HELLO,
    HELLOS,
    RELOCKING,
    SEED,
    SHUFFLING,
    BlindLedger,
    BlindParticipant,
    decode_message,
)
from jupai_net.fairness.dealer import HostDealer, Outbox
from jupai_net.fairness.primitives import HOST_SEAT
from jupai_net.fairness.blind_schedule import deal_openings
from jupai_net.fairness.blind_play import BlindPlay
from jupai_net.engine import IllegalAction
from jupai_net.rules import RuleSet


def merge(into: Outbox, more: Outbox) -> Outbox:
    """Append ``more``'s statements to ``into``, viewer by viewer (order kept)."""
    for viewer, raws in more.items():
        into.setdefault(viewer, []).extend(raws)
    return into


class BlindDeal:
    """One dealer-blind deal at the host.

    ``dealer``: the game's :class:`HostDealer` (it signs the ``hellos`` and ``blind``
    statements, after its ``start``); ``bots``: the seats the host plays; ``own``: the
    host's participants (default: fresh ones; given only for vectors and tests). The
    host's participants say hello at once (:attr:`hellos`); the seats' hellos come
    through :meth:`receive`. :func:`play_blind_deal` drives a whole deal in one process.
    """

    def __init__(self, dealer: HostDealer, bots: Iterable[int], *, own: Iterable[BlindParticipant] | None = None):
        self.dealer = dealer
        self.rules = dealer.rules
        game_id = dealer.game_id
        self.participants = table_participants(self.rules.players)
        self.bots = frozenset(bots)
        pids = (HOST_SEAT, *sorted(self.bots))
        mine = list(own) if own is not None else [BlindParticipant(game_id, pid) for pid in pids]
        if sorted(p.pid for p in mine) != sorted(pids) or any(p.game_id != game_id for p in mine):
            raise ValueError("the host's participants are the host (0xFF) and its bot seats, for this game")
        self.actor = BlindActor(mine)
        self.ledger = BlindLedger(game_id, self.participants, relay=None)
        #: pid → hello wire bytes, until the ``hellos`` statement is out.
        self.hellos: dict[int, bytes] = dict(zip(self.actor.people, self.actor.hellos()))
        self._relayed: set[bytes] = set()
        #: The game on deck positions, from the moment the deck is locked (B.16.8).
        self.play: BlindPlay | None = None
        #: An opening of the game that failed after its message was relayed (no card, or
        #: a card seen twice: a wrong pass, the audit names who); the table abandons.
        self.failure: BlindError | None = None

    # ------------------------------------------------------------------ messages

    def receive(self, seat: int, raw: bytes) -> Outbox:
        """A ``blind`` message from the client of ``seat``: check it and return what to
        deliver (its relay, then the host's own participants' answers). A repeat of a
        message already taken returns ``{}``. Raises :class:`BlindError` (culprit: the
        seat) when it is not that seat's message or fails the ledger's checks."""
        raw = bytes(raw)
        if raw in self._relayed or self.hellos.get(seat) == raw:
            return {}
        try:
            body = decode_message(raw)[0]
        except BlindError as exc:
            raise BlindError(exc.reason, culprit=seat) from None
        if body["from"] != seat:
            raise BlindError(f"seat {seat} sent a message of {participant_name(body['from'])}", culprit=seat)
        if self.ledger.phase == HELLOS and body["kind"] == HELLO:
            return self._hello(seat, raw)
        self.ledger.receive(raw)  # BlindError: its culprit is the author, this seat
        out = self.dealer.relay(raw)
        self._relayed.add(raw)
        self._advance()
        return merge(out, self._progress())

    def claim(self, seat: int, action: Any) -> Outbox:
        """``seat`` plays ``action`` (deck positions) now: checked on public information
        (B.16.4 stage 1: ``IllegalAction`` naming the seat, nothing relayed or opened),
        then relayed in a signed ``claim`` statement, and the host's participants send
        their keys for the openings it needs. Whether it counts is known once those
        keys are in (:attr:`play`: applied, or in ``rejected``)."""
        play = self.play
        if play is None or not play.idle or self.dealer.phase != "playing":
            raise IllegalAction("still-opening", claimant=seat)
        version = play.version
        play.game.openings_for(action, seat)  # stage 1; IllegalAction names the seat
        out = self.dealer.claim(version, seat, action)
        try:
            play.on_claim(version, seat, action)
        except BlindError as exc:
            self.ledger.stop(exc.reason)
            self.failure = exc
            return out
        return merge(out, self._progress())

    def _advance(self) -> None:
        """After each message the host's ledger took: the deal's openings once the deck
        is locked, then the game on positions (:class:`BlindPlay`) once it exists."""
        schedule(self.ledger, self.rules)
        if self.ledger.failure is not None or self.dealer.phase in ("ended", "abandoned"):
            return
        try:
            if self.play is None:
                if self.ledger.phase == DEALT:
                    self.play = BlindPlay(self.rules, self.ledger, bots=self.bots, actor=self.actor)
            else:
                self.play.advance()
        except BlindError as exc:  # what was relayed stays relayed; the table abandons
            self.ledger.stop(exc.reason)
            self.failure = self.failure or exc

    def _hello(self, seat: int, raw: bytes) -> Outbox:
        if seat in self.hellos:
            raise BlindError(f"seat {seat} said hello twice, with two different hellos", culprit=seat)
        probe = BlindLedger(self.dealer.game_id, self.participants, relay=None)
        probe.receive(raw)  # its own signature, game and shape: BlindError naming the seat
        self.hellos[seat] = raw
        if len(self.hellos) < len(self.participants):
            self.actor.ahead(self.ledger)  # the host's shuffle pass, while the last hellos come in
            return {}
        hellos = [self.hellos[p] for p in self.participants]
        out = self.dealer.hellos(hellos)
        for h in hellos:
            self.ledger.receive(h)
        self._advance()
        return merge(out, self._progress())

    def _progress(self) -> Outbox:
        """Relay what the host's participants send now, until they owe nothing."""
        out: Outbox = {}
        while self.failure is None:
            sent = self.actor.react(self.ledger)
            if not sent:
                break
            for raw in sent:
                self.ledger.receive(raw)
                self._relayed.add(raw)
                merge(out, self.dealer.relay(raw))
                self._advance()
        if self.failure is None:
            try:
                self.actor.open_own(self.ledger)
            except BlindError as exc:
                self.ledger.stop(exc.reason)
                self.failure = exc
        return out

    def seeds(self) -> Outbox:
        """The host's participants' ``seed`` messages, relayed (after ``end``/``abandon``)."""
        out: Outbox = {}
        for raw in self.actor.seeds(self.ledger):
            self.ledger.receive(raw)
            self._relayed.add(raw)
            merge(out, self.dealer.relay(raw))
        return out

    # ------------------------------------------------------------------ where it stands

    @property
    def dealt(self) -> bool:
        """True once the deck is locked, every key of the deal's openings is in and
        round 1 is announced (:attr:`play` exists and is idle)."""
        return self.play is not None and self.play.idle

    @property
    def audited(self) -> bool:
        """True once every participant's seed is in."""
        return all(p in self.ledger.seeds for p in self.participants)

    def owing(self) -> list[int]:
        """The participants (pass order) the deal waits for now: missing hellos, the
        participant whose pass it is, or those owing a key of a requested opening (after
        the game: those owing their seed)."""
        led = self.ledger
        if self.dealer.phase in ("ended", "abandoned"):
            return [p for p in self.participants if p not in led.seeds]
        if led.phase == HELLOS:
            return [p for p in self.participants if p not in self.hellos]
        turn = len(led.decks) - 1
        if led.phase == SHUFFLING:
            return [self.participants[turn]]
        if led.phase == RELOCKING:
            return [self.participants[turn - len(self.participants)]]
        if self.play is not None:
            return self.play.owing()
        owed = {p for q, to in led.requests for p in led.owed(q, to)}
        return [p for p in self.participants if p in owed]

    def is_seed(self, raw: bytes) -> bool:
        """True when ``raw`` is a well-formed ``seed`` message (taken after the game)."""
        try:
            return decode_message(bytes(raw))[0]["kind"] == SEED
        except BlindError:
            return False


def play_blind_deal(
    rules: RuleSet,
    signing_key: Ed25519PrivateKey,
    *,
    game_id: bytes | None = None,
    host_seed: bytes | None = None,
    participants: Sequence[BlindParticipant] | None = None,
    reason: str = "the dealer-blind deal is done",
    chained: Any = True,
) -> list[bytes]:
    """An honest dealer-blind deal between a host and one client per seat, in one
    process, as the table and the client sessions play it over the wire
    (specs/protocol.md §13; tests, vectors and the bench): ``start``, the hellos, the
    passes, every key of the deal's openings (each seat opens its own hand), then
    ``abandon`` (``reason``) and every participant's seed. Returns each seat's
    transcript (index = seat), as its client would save it.

    ``signing_key``: the host's statement key; ``participants``: every participant in
    pass order (host, seats 0…P−1; default: fresh ones); ``chained``: as
    :class:`~jupai_net.fairness.HostDealer`'s (``False``: version-1 bodies). Raises
    :class:`~jupai_net.fairness.blind.BlindError` or ``FairnessViolation`` if a check
    fails (it cannot, honestly played)."""
    from jupai_net.fairness.witness import SeatWitness

    dealer = HostDealer(rules, signing_key, game_id=game_id, host_seed=host_seed, chained=chained)
    pids = table_participants(rules.players)
    people = list(participants) if participants is not None else [BlindParticipant(dealer.game_id, p) for p in pids]
    if [p.pid for p in people] != list(pids):
        raise ValueError("one participant per pid, in pass order: the host, then seats 0 … P−1")
    out = dealer.start()
    deal = BlindDeal(dealer, (), own=people[:1])
    seats = [BlindActor([p]) for p in people[1:]]
    witnesses = [SeatWitness(s, p.secrets.seed, blind=p) for s, p in enumerate(people[1:])]
    inbox: list[tuple[int, bytes]] = []  # (seat, blind message) on their way to the host
    while out:
        for seat, w in enumerate(witnesses):
            for raw in out.get(seat, []):
                st = w.receive(raw)
                actor, ledger = seats[seat], w.ledger
                if ledger is None:
                    sent = actor.hellos() if st.kind == "start" else []
                elif st.kind in ("end", "abandon"):
                    sent = actor.seeds(ledger)
                else:
                    sent = actor.react(ledger)
                    actor.open_own(ledger)
                inbox += [(seat, m) for m in sent]
        out = {}
        while inbox and not out:
            seat, raw = inbox.pop(0)
            merge(out, deal.receive(seat, raw))
        if not out and not inbox and deal.dealt and dealer.phase not in ("ended", "abandoned"):
            out = merge(dealer.abandon(reason), deal.seeds())
    return [w.transcript() for w in witnesses]


__all__ = ["BlindDeal", "BlindError", "merge", "play_blind_deal"]
