"""Seat side of the fairness protocol (specs/fairness.md §2, §8).

:class:`SeatWitness` is what a client keeps for itself: it makes the seat's seed,
checks every signed statement from the host the moment it arrives, records them in
order, writes the transcript file and verifies the game at the end. Pure: no IO.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..rules import RuleSet
from .primitives import FairnessError, key_fingerprint, make_seed, seed_commitment
from .statements import ABANDON, END, Statement
from .transcript import Transcript
from .verify import FairnessViolation, GameChecker, Verdict


class WitnessError(FairnessError):
    """A :class:`SeatWitness` method was called too early (e.g. the seed reveal before the
    host has announced every seat's commitment)."""


class SeatWitness:
    """The fairness record of one seat (or of a spectator: ``seat=None``).

    ``seed`` defaults to a fresh 256-bit seed from :mod:`secrets` (give one only for
    test vectors); a spectator has none. ``host_cert``: the DER bytes of the host
    certificate the client pinned at the TLS handshake; the ``start`` statement's host
    key must be the statement key it carries, else :meth:`receive` refuses it before
    the seat commits to its seed (specs/fairness.md §3.5). ``engine`` replaces
    :mod:`jupai_net.engine` (tests only).

    Use: feed every signed statement from the host to :meth:`receive` in arrival
    order; send :attr:`commitment` to the host once the ``start`` statement is in, and
    :meth:`seed_reveal` once the ``commitments`` statement is in; at the end save
    :meth:`transcript` and show :meth:`verify`.
    """

    def __init__(self, seat: int | None, seed: bytes | None = None, *, engine: ModuleType | None = None,
                 host_cert: bytes | None = None, blind: Any = None):
        if seat is not None and seed is None:
            seed = make_seed()
        if seat is None:
            seed = None
        self.seat = seat
        self.seed = seed
        self.host_cert = bytes(host_cert) if host_cert is not None else None
        #: This seat's dealer-blind participant (``BlindParticipant``) in a dealer-blind
        #: game: the ``hellos`` statement must carry its hello unchanged.
        self.blind = blind
        self._checker = GameChecker(seat, seed, engine=engine, host_cert=self.host_cert, blind=blind)
        self._raw: list[bytes] = []
        self.host_gone_note: str | None = None
        self.left_note: str | None = None
        self.host_moves: list[tuple[int, str]] = []
        #: This seat's own record of the time-outs the host announced early by its clock:
        #: the transcript's ``cut_short`` (specs/fairness.md §9.3), ``(step, timeout_ms,
        #: prompt_heard_ms, timeout_heard_ms, after_ms)`` each.
        self.cut_short: list[tuple[int, int, int, int, int]] = []
        #: How many statements this seat had received when it gave out its seed
        #: (:meth:`seed_reveal`), or None: the transcript's ``seed_sent`` note.
        self.seed_sent: int | None = None

    # ------------------------------------------------------------------ stream

    def receive(self, raw: bytes) -> Statement:
        """Record the next signed statement and check it at once: signature, game id,
        addressee, sequence number, order, this seat's commitment, the seed reveals and
        every card reveal. Returns the decoded :class:`Statement`. Raises
        :class:`FairnessViolation` (``.verdict`` says what and where) on the first
        failure; the statement is recorded either way, as evidence."""
        self._raw.append(bytes(raw))
        return self._checker.feed(raw)

    def host_gone(self, reason: str) -> None:
        """Note (unsigned, local) that the host stopped before the end, e.g. the
        connection was lost. Verification then reports the game as suspicious once this
        seat had sent its seed (or the seeds were announced), unverified otherwise."""
        self.host_gone_note = str(reason)

    def player_left(self, reason: str = "the player left") -> None:
        """Note (unsigned, local) that this seat itself left before the end (the player
        quit). Verification then reports an unfinished game as unverified because the
        seat left, and never blames the host for it (specs/fairness.md §9)."""
        self.left_note = str(reason)

    def host_moved(self, version: int, why: str) -> None:
        """Note (unsigned, local) that the host played the step leading to state
        ``version`` for this seat (``why``: ``"away"`` while the seat was disconnected,
        ``"timeout"`` after an announced time-out). Kept in the transcript's
        ``host_moves``; it does not change the verdict."""
        if (version, why) not in self.host_moves:
            self.host_moves.append((int(version), str(why)))

    def turn_cut_short(self, step: int, timeout_ms: int, prompt_heard_ms: int, timeout_heard_ms: int,
                       after_ms: int) -> None:
        """Note (unsigned, local) that the host announced this seat's time-out for the
        step leading to state ``step`` ``after_ms`` ms after the prompt (which gave
        ``timeout_ms``) arrived, by this seat's monotonic clock; ``prompt_heard_ms`` and
        ``timeout_heard_ms``: when the two arrived, wall clock (Unix ms), for people.
        Kept in the transcript's ``cut_short``; :meth:`verify` calls a verified game
        with any that is cut short beyond the tolerance *suspicious* (specs/fairness.md
        §9.3). Each step once."""
        if all(e[0] != step for e in self.cut_short):
            self.cut_short.append((int(step), max(0, int(timeout_ms)), max(0, int(prompt_heard_ms)),
                                   max(0, int(timeout_heard_ms)), max(0, int(after_ms))))

    # ------------------------------------------------------------------ seed

    @property
    def game_id(self) -> bytes | None:
        """The 16-byte game id, once the ``start`` statement is in."""
        return self._checker.game_id

    @property
    def commitment(self) -> bytes:
        """This seat's 32-byte seed commitment, to send to the host. Needs the ``start``
        statement (the commitment is bound to the game id); raises :class:`WitnessError`."""
        if self.seat is None or self.seed is None:
            raise WitnessError("a spectator has no seed")
        if self.game_id is None:
            raise WitnessError("the seed commitment needs the game id: receive the 'start' statement first")
        return seed_commitment(self.game_id, self.seat, self.seed)

    def seed_reveal(self) -> bytes:
        """This seat's 32-byte seed, to send to the host. Only after the host announced
        every commitment (the ``commitments`` statement, checked to hold this seat's own
        commitment); raises :class:`WitnessError` before, so the seed is never revealed
        while another seat could still choose its own.

        Call it only to send the seed: from then on the host may know the deck, so the
        witness notes it (:attr:`seed_sent`, the transcript's ``seed_sent``) and any end
        of the game without a complete game is *suspicious* (specs/fairness.md §1.2, §9)."""
        if self.seat is None or self.seed is None:
            raise WitnessError("a spectator has no seed")
        if self._checker.failure is not None:
            raise WitnessError("the host broke the protocol; do not reveal the seed")
        if self._checker.seat_commitments is None:
            raise WitnessError("reveal the seed only after the 'commitments' statement")
        if self.seed_sent is None:
            self.seed_sent = len(self._raw)
        return self.seed

    # ------------------------------------------------------------------ what the seat knows

    @property
    def rules(self) -> RuleSet | None:
        """The rules announced in the ``start`` statement."""
        return self._checker.rules

    @property
    def host_key(self) -> bytes | None:
        """The host's raw Ed25519 public key (32 bytes), from the ``start`` statement."""
        return self._checker.host_key

    @property
    def fingerprint(self) -> str | None:
        """Fingerprint of the host key (compare it with the other players)."""
        return key_fingerprint(self.host_key) if self.host_key else None

    @property
    def revealed(self) -> dict[int, int]:
        """Every card revealed to this seat so far and checked: deck position → card id."""
        return {k: v[0] for k, v in self._checker.revealed.items()}

    @property
    def ledger(self) -> Any:
        """The ``BlindLedger`` of a dealer-blind game (every relayed participant message,
        checked), from the ``hellos`` statement on; ``None`` before or in a trusted game."""
        return self._checker.ledger

    @property
    def play(self) -> Any:
        """The game on deck positions of a dealer-blind game (``BlindPlay``: this seat's
        own engine, its cards and legal moves), once the deck is locked; ``None`` before
        or in a trusted game."""
        return self._checker.play

    @property
    def violation(self) -> Verdict | None:
        """The first failed check, if any."""
        return self._checker.failure

    @property
    def finished(self) -> bool:
        """True once the host has sent its ``end`` or ``abandon`` statement."""
        return self._checker.last_kind in (END, ABANDON)

    @property
    def committed(self) -> bool:
        """True once the ``commitments`` statement is in (the seed may be revealed)."""
        return self._checker.last_kind is not None and self._checker.seat_commitments is not None

    # ------------------------------------------------------------------ after the game

    def transcript(self, meta: dict[str, Any] | None = None) -> bytes:
        """The transcript file bytes (specs/fairness.md §7) of everything received, with the
        unsigned ``meta`` map for people (saved time, table, names) when given."""
        return Transcript(self.seat, self.seed, tuple(self._raw), self.host_gone_note, self.left_note,
                          self.host_cert, tuple(sorted(self.host_moves)), meta, self._seed_sent_note(),
                          tuple(sorted(self.cut_short))).encode()

    def _seed_sent_note(self) -> int | None:
        """The ``seed_sent`` note, kept only while no signed ``seeds`` statement proves
        the seeds were out (so files of games that got that far are as before)."""
        return self.seed_sent if self._checker.seat_seeds is None else None

    def verify(self, *, cut_short: bool = True) -> Verdict:
        """The verdict on everything received (same as ``verify_transcript(self.transcript())``);
        ``cut_short=False``: without this seat's record of turns cut short (then
        :meth:`with_cut_short`)."""
        verdict = self._checker.conclude(self.host_gone_note, left=self.left_note, seed_sent=self._seed_sent_note())
        return self.with_cut_short(verdict) if cut_short else verdict

    def with_cut_short(self, verdict: Verdict) -> Verdict:
        """``verdict`` with this seat's record of turns the host cut short
        (:meth:`GameChecker.with_cut_short`, specs/fairness.md §9.3)."""
        return self._checker.with_cut_short(verdict, sorted(self.cut_short))


__all__ = ["SeatWitness", "WitnessError", "FairnessViolation"]
