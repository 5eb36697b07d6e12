"""What the participants one program plays send next in a dealer-blind game
(specs/fairness.md B.6, B.7, B.15.1): a seat's client plays its own participant, the
host plays itself (``0xFF``) and its bots' seats.

Pure: no IO, no clock. The program feeds every relayed message to its
:class:`~jupai_net.fairness.blind_ledger.BlindLedger` (in relay order), calls
:func:`schedule` right after each, then :meth:`BlindActor.react` to learn the messages
its participants send now. Every message is deterministic (passes derive from the seed,
Ed25519 signatures are deterministic), so a program that lost its connection and
rebuilt its ledger from the relayed stream sends again exactly the bytes it may have
sent before; the relay drops such a repeat.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules import RuleSet
from .blind import BlindError
from .blind_ledger import DEALT, HELLOS, RELOCKING, SHUFFLING, BlindLedger, BlindParticipant
from .blind_schedule import deal_openings


def schedule(ledger: BlindLedger, rules: RuleSet) -> list[tuple[int, int | None]]:
    """Record in ``ledger`` the openings that public information calls for now, and
    return the new ones: once the last re-lock is in (phase ``dealt``) and nothing was
    requested yet, the deal's openings (:func:`~.blind_schedule.deal_openings`). Every
    ledger (host, seats, verifier) calls it after each message, so all request the same
    openings at the same point of the stream."""
    if ledger.phase != DEALT or ledger.requests or ledger.failure is not None:
        return []
    out = deal_openings(rules)
    for q, to in out:
        ledger.request(q, to)
    return out


def request_all(ledger: BlindLedger, openings: Iterable[tuple[int, int | None]]) -> None:
    """Record further openings (the engine's schedule of play) in ``ledger``."""
    for q, to in openings:
        ledger.request(q, to)


class BlindActor:
    """The participants one program plays: ``participants`` (its
    :class:`BlindParticipant`s). :meth:`react` returns the wire bytes they send now,
    each at most once (:attr:`sent` remembers them until they come back relayed)."""

    def __init__(self, participants: Iterable[BlindParticipant]):
        self.people = {p.pid: p for p in participants}
        self._passes: set[tuple[int, int]] = set()  # (pid, deck index) of passes sent
        self._keys: set[tuple[int, int, int | None]] = set()  # (pid, position, to) of keys sent
        self._seeds: set[int] = set()
        #: (pid, position) → card: the cards opened to the seats this program plays.
        self.cards: dict[tuple[int, int], int] = {}

    def resync(self, ledger: BlindLedger | None) -> None:
        """Forget what was sent and number each participant's next message as ``ledger``
        expects it (0 before the hellos): after a lost connection, :meth:`react` then
        sends again, byte for byte, whatever the relay may not have received."""
        self._passes.clear()
        self._keys.clear()
        self._seeds.clear()
        for pid, me in self.people.items():
            me.resync(0 if ledger is None else ledger.next_number(pid))

    def hellos(self) -> list[bytes]:
        """The ``hello`` of every participant played here (once, at the start)."""
        return [p.hello() for p in self.people.values()]

    def react(self, ledger: BlindLedger) -> list[bytes]:
        """The messages due now from the participants played here, given everything
        ``ledger`` has received: a shuffle or re-lock pass when it is their turn, their
        lock keys for every opening requested and not yet revealed by them (never their
        own lock for a card opened to themselves). Nothing once the deal has failed."""
        if ledger.failure is not None:
            return []
        out: list[bytes] = []
        pids, turn = ledger.participants, len(ledger.decks) - 1
        if ledger.phase == SHUFFLING:
            who = pids[turn]
            if who in self.people and (who, turn) not in self._passes:
                self._passes.add((who, turn))
                out.append(self.people[who].shuffle(turn, ledger.deck, ledger.points))
        elif ledger.phase == RELOCKING:
            who = pids[turn - len(pids)]
            if who in self.people and (who, turn) not in self._passes:
                self._passes.add((who, turn))
                out.append(self.people[who].relock(ledger.deck, ledger.points))
        elif ledger.phase == DEALT:
            for pid, me in self.people.items():
                due = sorted(
                    ((q, to) for q, to in ledger.requests
                     if to != pid and pid not in ledger.revealed[(q, to)] and (pid, q, to) not in self._keys),
                    key=lambda e: (e[0], -1 if e[1] is None else e[1]),
                )
                if due:
                    self._keys.update((pid, q, to) for q, to in due)
                    out.append(me.keys(due))
        return out

    def ahead(self, ledger: BlindLedger) -> None:
        """While the hellos come in: when the first shuffle pass is played here (the
        host's), compute it now (its input, the card points, is known from the start;
        the result is kept until :meth:`react` sends it) and prepare its re-lock."""
        if ledger.phase != HELLOS or ledger.participants[0] not in self.people:
            return
        me = self.people[ledger.participants[0]]
        me.secrets.shuffle(ledger.deck, ledger.points)
        me.prepare()

    def prepare(self, ledger: BlindLedger) -> None:
        """Build ahead what the participants played here need for their re-lock passes
        (:meth:`BlindParticipant.prepare`), once the ones still to shuffle are not
        played here: call it after sending what :meth:`react` returned, so the work is
        done while the others take their turns, not on the deal's critical path."""
        if ledger.phase != SHUFFLING or ledger.failure is not None:
            return
        later = ledger.participants[len(ledger.decks) - 1:]
        if not any(pid in self.people for pid in later):
            for me in self.people.values():
                me.prepare()

    def open_own(self, ledger: BlindLedger) -> dict[tuple[int, int], int]:
        """Open every position requested to a seat played here whose keys are all in
        (B.7): ``{(seat, position): card}`` of the cards opened by this call. Raises
        :class:`BlindError` when a position opens to no card or to a card seen twice
        (a wrong pass: the audit names who)."""
        new: dict[tuple[int, int], int] = {}
        for q, to in sorted(ledger.requests, key=lambda e: (e[0], -1 if e[1] is None else e[1])):
            if to is None or to not in self.people or (to, q) in self.cards or ledger.owed(q, to):
                continue
            card = self.people[to].open(ledger, q)
            self.cards[(to, q)] = new[(to, q)] = card
        return new

    def seeds(self, ledger: BlindLedger) -> list[bytes]:
        """Every played participant's ``seed`` message not yet revealed (after the game,
        or to audit a failed deal)."""
        out = []
        for pid, me in self.people.items():
            if pid not in ledger.seeds and pid not in self._seeds:
                self._seeds.add(pid)
                out.append(me.seed())
        return out


__all__ = ["BlindActor", "BlindError", "schedule", "request_all"]
