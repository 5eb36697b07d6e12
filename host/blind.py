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

from collections.abc import Iterable

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


def merge(into: Outbox, more: Outbox) -> Outbox:
    """Append ``more``'s statements to ``into``, viewer by viewer (order kept)."""
    for viewer, raws in more.items():
        into.setdefault(viewer, []).extend(raws)
    return into


class BlindDeal:
    """One dealer-blind deal at the host.

    ``dealer``: the game's :class:`HostDealer` (it signs the ``hellos`` and ``blind``
    statements, after its ``start``); ``bots``: the seats the host plays. The host's
    participants say hello at once (:attr:`hellos`); the seats' hellos come through
    :meth:`receive`.
    """

    def __init__(self, dealer: HostDealer, bots: Iterable[int]):
        self.dealer = dealer
        self.rules = dealer.rules
        game_id = dealer.game_id
        self.participants = table_participants(self.rules.players)
        self.actor = BlindActor(BlindParticipant(game_id, pid) for pid in (HOST_SEAT, *sorted(bots)))
        self.ledger = BlindLedger(game_id, self.participants, relay=None)
        #: pid → hello wire bytes, until the ``hellos`` statement is out.
        self.hellos: dict[int, bytes] = dict(zip(self.actor.people, self.actor.hellos()))
        self._relayed: set[bytes] = set()

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
        schedule(self.ledger, self.rules)
        return merge(out, self._progress())

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
        return merge(out, self._progress())

    def _progress(self) -> Outbox:
        """Relay what the host's participants send now, until they owe nothing."""
        out: Outbox = {}
        while True:
            sent = self.actor.react(self.ledger)
            if not sent:
                break
            for raw in sent:
                self.ledger.receive(raw)
                self._relayed.add(raw)
                merge(out, self.dealer.relay(raw))
                schedule(self.ledger, self.rules)
        self.actor.open_own(self.ledger)
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
        """True once the deck is locked and every key of the deal's openings is in."""
        return self.ledger.phase == DEALT and not any(self.ledger.owed(q, to) for q, to in deal_openings(self.rules))

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
        owed = {p for q, to in led.requests for p in led.owed(q, to)}
        return [p for p in self.participants if p in owed]

    def is_seed(self, raw: bytes) -> bool:
        """True when ``raw`` is a well-formed ``seed`` message (taken after the game)."""
        try:
            return decode_message(bytes(raw))[0]["kind"] == SEED
        except BlindError:
            return False


__all__ = ["BlindDeal", "BlindError", "merge"]
