"""The public record of a dealer-blind deal: participants' signed messages, the checks
made the moment each arrives, openings, and the audit after the game
(specs/fairness.md Part B, B.5–B.10).

Pure: no IO, no clock. The host, every seat and the offline verifier run the same
:class:`BlindLedger` over the same messages; a seat also holds its own
:class:`~jupai_net.fairness.blind.ParticipantSecrets` (a :class:`BlindParticipant`).

Every message is signed by its author's per-game Ed25519 key (announced in its
``hello``), so the host, which relays them, can neither forge nor alter one, and a
wrong message names its author (``BlindError.culprit``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..cards import DECK_SIZE
from .blind import (
    POINT_BYTES,
    BlindError,
    CardTable,
    ParticipantSecrets,
    Points,
    check_shuffle_proof,
    check_size,
    derive_permutation,
    derive_scalar,
    initial_deck,
    load_deck,
    lock_commitment,
    participant_name,
    relock_pass,
    scalar_bytes,
    scalar_from_bytes,
    seed_commitment,
    shuffle_pass,
    LABEL_LOCK,
    LABEL_PASS_KEY,
    LABEL_PASS_PERM,
    unlock,
)
from .primitives import GAME_ID_BYTES, HOST_SEAT, SEED_BYTES
from .statements import StatementError, pack, public_key_bytes, signing_key_from_bytes, signing_key_to_bytes, split_statement, unpack

TAG_BLIND_MSG = b"jupai/v1/blind/msg\x00"
BLIND_VERSION = 1

HELLO, SHUFFLE, RELOCK, KEYS, SEED = "hello", "shuffle", "relock", "keys", "seed"
#: Fields of each message kind after the common ``v, kind, game, from, n``, in encoding order.
MESSAGE_FIELDS: dict[str, tuple[str, ...]] = {
    HELLO: ("seed_commitment", "key"),
    SHUFFLE: ("deck", "proof"),
    RELOCK: ("deck", "locks"),
    KEYS: ("keys",),
    SEED: ("seed",),
}
COMMON = ("v", "kind", "game", "from", "n")

# Ledger phases.
HELLOS, SHUFFLING, RELOCKING, DEALT = "hellos", "shuffling", "relocking", "dealt"


@dataclass(frozen=True, slots=True)
class BlindMessage:
    """One decoded participant message: ``body`` (the map), ``raw`` (the wire bytes)."""

    body: dict[str, Any]
    raw: bytes

    @property
    def kind(self) -> str:
        """Message kind (one of :data:`MESSAGE_FIELDS`)."""
        return self.body["kind"]

    @property
    def author(self) -> int:
        """Participant id of the author (``from``)."""
        return self.body["from"]


def sign_message(key: Ed25519PrivateKey, body: dict[str, Any]) -> bytes:
    """Wire bytes ``pack([body_bytes, Ed25519(key, TAG_BLIND_MSG ‖ body_bytes)])``."""
    body_bytes = pack(body)
    return pack([body_bytes, key.sign(TAG_BLIND_MSG + body_bytes)])


def make_message(kind: str, game_id: bytes, author: int, n: int, **fields: Any) -> dict[str, Any]:
    """A message body with the common fields then ``fields`` in :data:`MESSAGE_FIELDS` order."""
    if set(fields) != set(MESSAGE_FIELDS[kind]):
        raise BlindError(f"a {kind} message has the fields {', '.join(MESSAGE_FIELDS[kind])}")
    body = {"v": BLIND_VERSION, "kind": kind, "game": game_id, "from": author, "n": n}
    body.update((f, fields[f]) for f in MESSAGE_FIELDS[kind])
    return body


def decode_message(raw: bytes) -> tuple[dict[str, Any], bytes, bytes]:
    """``(body, body_bytes, signature)`` of wire bytes, shape-checked (not the signature).
    Raises :class:`BlindError` (culprit unknown: a relay could have garbled it)."""
    try:
        body_bytes, sig = split_statement(raw)
        body = unpack(body_bytes)
    except msgpack.OutOfData:
        raise BlindError(code="msg_cut") from None
    except (StatementError, ValueError, TypeError) as exc:
        raise BlindError(code="msg_malformed", args={"detail": str(getattr(exc, "reason", exc))}) from None
    if not isinstance(body, dict) or body.get("kind") not in MESSAGE_FIELDS:
        raise BlindError(code="msg_no_kind")
    if list(body) != list(COMMON + MESSAGE_FIELDS[body["kind"]]) or body["v"] != BLIND_VERSION:
        raise BlindError(code="msg_fields", args={"kind": body["kind"], "version": BLIND_VERSION})
    if not isinstance(body["game"], bytes) or len(body["game"]) != GAME_ID_BYTES:
        raise BlindError(code="msg_game_id")
    if type(body["from"]) is not int or type(body["n"]) is not int:
        raise BlindError(code="msg_author")
    return body, body_bytes, sig


class BlindParticipant:
    """One participant's side: its secrets, its signing key and the messages it sends.

    ``game_id`` (16 bytes), ``pid`` (seat 0–5 or 0xFF), ``size`` (cards). ``seed`` and
    ``signing_key`` default to fresh random ones (give them only for vectors and tests).
    Each method returns the wire bytes of one message; the sequence number counts up.
    """

    def __init__(
        self,
        game_id: bytes,
        pid: int,
        *,
        size: int = DECK_SIZE,
        seed: bytes | None = None,
        signing_key: Ed25519PrivateKey | None = None,
        proof_rounds: int = 0,
    ):
        self.secrets = ParticipantSecrets(game_id, pid, seed, size=size)
        self.game_id, self.pid, self.size = game_id, pid, size
        self.proof_rounds = proof_rounds
        self._key = signing_key or Ed25519PrivateKey.generate()
        self.public_key = public_key_bytes(self._key)
        self._n = 0

    def save(self) -> bytes:
        """Everything needed to resume this participant after a lost connection or a
        restart (specs/fairness.md B.15): msgpack ``[game_id, pid, size, proof_rounds,
        seed, signing key (32 raw bytes), next message number]``. Secret: keep it
        private (file mode 0600) and delete it after the game."""
        return pack([self.game_id, self.pid, self.size, self.proof_rounds, self.secrets.seed, signing_key_to_bytes(self._key), self._n])

    @classmethod
    def resume(cls, data: bytes) -> "BlindParticipant":
        """The participant saved by :meth:`save`; it goes on with the next message number.
        Raises :class:`BlindError` on anything that is not such a record."""
        try:
            game_id, pid, size, rounds, seed, key, n = unpack(bytes(data))
            me = cls(game_id, pid, size=size, seed=seed, signing_key=signing_key_from_bytes(key), proof_rounds=rounds)
        except (ValueError, TypeError, BlindError, msgpack.ExtraData, msgpack.OutOfData) as exc:
            raise BlindError(f"not a saved blind participant: {getattr(exc, 'reason', exc)}") from None
        if type(n) is not int or n < 0:
            raise BlindError("not a saved blind participant: bad message number")
        me._n = n
        return me

    def resync(self, n: int) -> None:
        """Number the next message ``n`` (:meth:`BlindLedger.next_number` of this
        participant): after a lost connection, so that what it sends again is byte for
        byte what it may have sent before (every message is deterministic)."""
        if type(n) is not int or n < 0:
            raise BlindError(f"a message number is a whole number >= 0, got {n!r}")
        self._n = n

    def _send(self, kind: str, **fields: Any) -> bytes:
        raw = sign_message(self._key, make_message(kind, self.game_id, self.pid, self._n, **fields))
        self._n += 1
        return raw

    def hello(self) -> bytes:
        """The ``hello``: its seed commitment and its Ed25519 public key."""
        return self._send(HELLO, seed_commitment=self.secrets.commitment, key=self.public_key)

    def shuffle(self, index: int, deck: Sequence[bytes], points: Points | None = None) -> bytes:
        """The ``shuffle`` pass number ``index`` over ``deck`` (with a proof when the table
        asks for ``proof_rounds`` > 0). ``points``: ``deck`` already loaded
        (:attr:`BlindLedger.points`)."""
        out = self.secrets.shuffle(deck, points)
        proof = self.secrets.prove(index, deck, out, self.proof_rounds) if self.proof_rounds else None
        return self._send(SHUFFLE, deck=out, proof=proof)

    def relock(self, deck: Sequence[bytes], points: Points | None = None) -> bytes:
        """The ``relock`` pass over ``deck`` with the commitments to its lock keys.
        ``points``: ``deck`` already loaded (:attr:`BlindLedger.points`)."""
        return self._send(RELOCK, deck=self.secrets.relock(deck, points), locks=self.secrets.lock_commitments())

    def prepare(self) -> None:
        """Build the re-lock's key objects and commitments now, while waiting for the
        turn (:meth:`~jupai_net.fairness.blind.ParticipantSecrets.prepare`)."""
        self.secrets.prepare()

    def keys(self, openings: Sequence[tuple[int, int | None]]) -> bytes:
        """A ``keys`` message revealing its lock key for each ``(position, to)``;
        ``to`` is the seat the card opens to, ``None`` for everyone. Refuses (BlindError)
        to reveal its own key privately (``to == pid``): that would show its card to the relay."""
        keys = []
        for position, to in openings:
            if to == self.pid:
                raise BlindError(f"{participant_name(self.pid)} never reveals its own lock for a card opened to itself", position=position)
            keys.append([position, to, scalar_bytes(self.secrets.lock_key(position))])
        return self._send(KEYS, keys=keys)

    def seed(self) -> bytes:
        """The ``seed`` reveal (at the end of the game, or for an audit)."""
        return self._send(SEED, seed=self.secrets.seed)

    def open(self, ledger: "BlindLedger", position: int) -> int:
        """The card at ``position`` opened to this participant: every other participant's
        key from ``ledger`` plus its own lock. See :meth:`BlindLedger.open_private`."""
        return ledger.open_private(position, self.pid, self.secrets.lock_key(position))


class BlindLedger:
    """The checks of a blind deal, message by message (specs/fairness.md B.5–B.9).

    ``participants``: ids in pass order (:func:`~jupai_net.fairness.blind.table_participants`);
    ``size``: cards; ``relay``: who carries the messages (the host: a message whose
    signature fails was forged or altered by it; ``None`` on the host's own ledger);
    ``own``: the participant this ledger belongs to (a seat's client): its own hello as
    relayed must be the one it sent, or the relay is named (a relay that replaced it
    could speak for it to everyone else); ``proof_rounds``: 0 (no shuffle proofs: passes are checked by the
    audit) or the rounds each ``shuffle`` must prove. Feed every message, in the order
    the host relays them, to :meth:`receive`; the host's public schedule of openings to
    :meth:`request`. Every failure raises :class:`BlindError` with its ``culprit``.
    """

    def __init__(
        self,
        game_id: bytes,
        participants: Sequence[int],
        *,
        size: int = DECK_SIZE,
        proof_rounds: int = 0,
        relay: int | None = HOST_SEAT,
        own: BlindParticipant | None = None,
    ):
        self.game_id = game_id
        self.relay = relay
        self.own = own
        self.participants = tuple(participants)
        if len(set(self.participants)) != len(self.participants) or len(self.participants) < 2:
            raise BlindError("a blind deal has two or more distinct participants")
        self.size = check_size(size)
        self.proof_rounds = proof_rounds
        self.cards = CardTable(size)
        self.phase = HELLOS
        self._n = {p: 0 for p in self.participants}
        self.keys: dict[int, Ed25519PublicKey] = {}
        self.seed_commitments: dict[int, bytes] = {}
        #: decks[0] = card points; decks[i+1] = after shuffle pass i; then the re-locks.
        self.decks: list[list[bytes]] = [initial_deck(size)]
        #: the decks' values loaded as points (checked on the curve once, then reused by
        #: the next pass, the openings and the audit); ``None`` until needed for ``decks[0]``
        self._points: list[list | None] = [None]
        self.locks: dict[int, list[bytes]] = {}
        self.requests: set[tuple[int, int | None]] = set()
        self.revealed: dict[tuple[int, int | None], dict[int, int]] = {}
        self.seeds: dict[int, bytes] = {}
        #: The first failure; once set the deal is stopped and only seeds are taken.
        self.failure: BlindError | None = None
        #: position → card, for openings this ledger has made (one viewer's view).
        self.opened: dict[int, int] = {}

    # ------------------------------------------------------------------ messages

    @property
    def deck(self) -> list[bytes]:
        """The current deck: after the last pass received (the final locked deck once dealt)."""
        return self.decks[-1]

    @property
    def points(self) -> Points:
        """:attr:`deck` loaded as points (give them to the next pass: it loads nothing again)."""
        return self.points_of(len(self.decks) - 1)

    def points_of(self, i: int) -> Points:
        """``decks[i]`` loaded as points (loaded when first asked for, then kept)."""
        if self._points[i] is None:
            self._points[i] = load_deck(self.decks[i])
        return self._points[i]  # type: ignore[return-value]

    def stop(self, reason: str) -> None:
        """The game was abandoned (``reason``): stop the deal as a failure does (only
        ``seed`` messages from now on, and a seed may skip the numbers of messages the
        relay refused before it, B.9). Nothing changes if the deal has already failed."""
        if self.failure is None:
            self.failure = BlindError(code="blind_abandoned", args={"why": reason})

    def next_number(self, pid: int) -> int:
        """The sequence number the next message of participant ``pid`` must carry."""
        return self._n[pid]

    def _stopped(self, what: str) -> None:
        if self.failure is not None:
            from .verify import why_of

            raise BlindError(
                code="blind_stopped", args={"why_stopped": why_of(self.failure), "what": what},
                culprit=self.failure.culprit,
                position=self.failure.position,
            )

    def _fail(self, exc: BlindError) -> BlindError:
        if self.failure is None:
            self.failure = exc
        return exc

    def receive(self, raw: bytes) -> BlindMessage:
        """Check one message at once and record it. Raises :class:`BlindError`: culprit =
        the author for a wrong message it signed; the relay for a message whose signature
        does not verify (forged or altered on the way). The first failure stops the deal
        (:attr:`failure`): from then on only ``seed`` messages are taken, for the audit."""
        try:
            return self._receive(raw)
        except BlindError as exc:
            raise self._fail(exc) from None

    def _receive(self, raw: bytes) -> BlindMessage:
        try:
            body, body_bytes, sig = decode_message(raw)
        except BlindError as exc:
            raise BlindError(exc.reason, culprit=self.relay, code=exc.code, args=exc.code_args) from None
        author, kind = body["from"], body["kind"]
        if kind != SEED:
            self._stopped(kind)
        if author not in self._n:
            raise BlindError(code="blind_not_participant", args={"found": repr(author)}, culprit=self.relay)
        key = self.keys.get(author)
        if kind == HELLO and key is None:
            key = _public_key(body["key"])
        if key is None:
            raise BlindError(code="blind_before_hello", args={"kind": kind, "who": author}, culprit=self.relay)
        try:
            key.verify(sig, TAG_BLIND_MSG + body_bytes)
        except InvalidSignature:
            raise BlindError(code="blind_bad_signature", args={"kind": kind, "who": author, "relay": self.relay},
                             culprit=self.relay) from None
        if body["game"] != self.game_id:
            raise BlindError(code="blind_other_game", args={"kind": kind, "who": author}, culprit=author)
        n = body["n"]
        # a seed may skip the numbers of messages refused before it (the deal stopped)
        if n != self._n[author] and not (kind == SEED and self.failure is not None and n > self._n[author]):
            raise BlindError(code="blind_number", args={"kind": kind, "who": author, "found": n, "expected": self._n[author]},
                             culprit=author)
        getattr(self, "_" + kind)(author, body)
        self._n[author] = n + 1
        return BlindMessage(body, bytes(raw))

    def _expect(self, phase: str, kind: str, author: int) -> None:
        if self.phase != phase:
            raise BlindError(code="blind_out_of_turn", args={"kind": kind, "who": author, "phase": self.phase}, culprit=author)

    def _hello(self, author: int, body: dict[str, Any]) -> None:
        self._expect(HELLOS, HELLO, author)
        if author in self.keys:
            raise BlindError(code="blind_hello_twice", args={"who": author}, culprit=author)
        c = body["seed_commitment"]
        if not isinstance(c, bytes) or len(c) != 32:
            raise BlindError(code="blind_commitment_size", args={"who": author}, culprit=author)
        if self.own is not None and author == self.own.pid and (body["key"], c) != (self.own.public_key, self.own.secrets.commitment):
            raise BlindError(code="blind_hello_replaced", args={"who": author, "relay": self.relay}, culprit=self.relay)
        self.keys[author] = _public_key(body["key"])
        self.seed_commitments[author] = c
        if len(self.keys) == len(self.participants):
            self.phase = SHUFFLING

    def _turn(self, kind: str, author: int, done: int) -> int:
        expected = self.participants[done]
        if author != expected:
            raise BlindError(code="blind_not_turn", args={"who": author, "kind": kind, "expected_pid": expected}, culprit=author)
        return done

    def _deck(self, author: int, value: Any, what: str) -> tuple[list[bytes], list]:
        """``(values, points)`` of a pass deck, checked (B.9)."""
        if not isinstance(value, list) or len(value) != self.size or not all(isinstance(x, bytes) and len(x) == POINT_BYTES for x in value):
            raise BlindError(code="blind_deck_size", args={"pass_name": what, "who": author, "size": self.size,
                                                           "point": POINT_BYTES}, culprit=author)
        if len(set(value)) != self.size:
            raise BlindError(code="blind_deck_repeats", args={"pass_name": what, "who": author}, culprit=author)
        try:
            points = load_deck(value, culprit=author)
        except BlindError as exc:
            q = exc.position
            raise BlindError(code="blind_off_curve", args={"pass_name": what, "who": author, "position": q},
                             culprit=author, position=q) from None
        return list(value), points

    def _append(self, deck: list[bytes], points: list) -> None:
        self.decks.append(deck)
        self._points.append(points)

    def _shuffle(self, author: int, body: dict[str, Any]) -> None:
        self._expect(SHUFFLING, SHUFFLE, author)
        index = self._turn("shuffle", author, len(self.decks) - 1)
        deck, points = self._deck(author, body["deck"], SHUFFLE)
        if self.proof_rounds:
            if body["proof"] is None:
                raise BlindError(code="blind_no_proof", args={"who": author}, culprit=author)
            check_shuffle_proof(self.game_id, author, index, self.deck, deck, body["proof"], self.proof_rounds)
        self._append(deck, points)
        if len(self.decks) == len(self.participants) + 1:
            self.phase = RELOCKING

    def _relock(self, author: int, body: dict[str, Any]) -> None:
        self._expect(RELOCKING, RELOCK, author)
        self._turn("relock", author, len(self.decks) - 1 - len(self.participants))
        locks = body["locks"]
        deck, points = self._deck(author, body["deck"], RELOCK)
        if not isinstance(locks, list) or len(locks) != self.size or not all(isinstance(c, bytes) and len(c) == 32 for c in locks):
            raise BlindError(code="blind_locks_size", args={"who": author, "size": self.size}, culprit=author)
        self._append(deck, points)
        self.locks[author] = list(locks)
        if len(self.decks) == 2 * len(self.participants) + 1:
            self.phase = DEALT

    def _keys(self, author: int, body: dict[str, Any]) -> None:
        self._expect(DEALT, KEYS, author)
        entries = body["keys"]
        if not isinstance(entries, list) or not entries:
            raise BlindError(code="blind_keys_empty", args={"who": author}, culprit=author)
        for entry in entries:
            if not isinstance(entry, list) or len(entry) != 3:
                raise BlindError(code="blind_key_shape", args={"who": author}, culprit=author)
            position, to, key = entry
            if type(position) is not int or not (to is None or type(to) is int) or (position, to) not in self.requests:
                raise BlindError(
                    code="blind_key_wrong_seat", args={"who": author, "position": repr(position), "opened_to": to},
                    culprit=author,
                    position=position if isinstance(position, int) else None,
                )
            if to == author:
                raise BlindError(code="blind_own_lock", args={"who": author, "position": position}, culprit=author, position=position)
            got = self.revealed[(position, to)]
            if author in got:
                raise BlindError(code="blind_key_twice", args={"who": author, "position": position, "opened_to": to},
                                 culprit=author, position=position)
            k = scalar_from_bytes(key, culprit=author, position=position)
            if lock_commitment(self.game_id, author, position, key) != self.locks[author][position]:
                raise BlindError(code="blind_wrong_key", args={"who": author, "position": position},
                                 culprit=author, position=position)
            got[author] = k

    def _seed(self, author: int, body: dict[str, Any]) -> None:
        if author in self.seeds:
            raise BlindError(code="blind_seed_twice", args={"who": author}, culprit=author)
        seed = body["seed"]
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES or seed_commitment(self.game_id, author, seed) != self.seed_commitments[author]:
            raise BlindError(code="blind_seed_mismatch", args={"who": author}, culprit=author)
        self.seeds[author] = seed

    # ------------------------------------------------------------------ openings

    def request(self, position: int, to: int | None) -> None:
        """Record that the rules now open ``position`` to seat ``to`` (``None``: to
        everyone); from now on the other participants' (every participant's, for
        ``None``) ``keys`` for it are accepted. Public information (the host's schedule)."""
        self._stopped("opening")
        if self.phase != DEALT:
            raise BlindError(code="open_before_locked")
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < self.size:
            raise BlindError(code="open_no_position", args={"found": repr(position)})
        if to is not None and to not in self.participants:
            raise BlindError(code="open_no_seat", args={"found": repr(to)})
        self.requests.add((position, to))
        self.revealed.setdefault((position, to), {})

    def owed(self, position: int, to: int | None) -> list[int]:
        """The participants that still owe their key for ``(position, to)``, in pass order."""
        got = self.revealed.get((position, to), {})
        return [p for p in self.participants if p != to and p not in got]

    def check_withheld(self, position: int, to: int | None) -> None:
        """Call when the time allowed for the reveals of ``(position, to)`` has passed:
        raises :class:`BlindError` naming the first participant that withheld its key
        (or, without naming anyone, when that opening was never requested)."""
        if (position, to) not in self.requests:
            raise BlindError(code="open_not_requested", args={"position": repr(position), "opened_to": to})
        owed = self.owed(position, to)
        if owed:
            raise self._fail(BlindError(
                code="blind_withheld", args={"who": owed[0], "position": position, "opened_to": to},
                culprit=owed[0],
                position=position,
            ))

    def _card(self, position: int, keys: list[int]) -> int:
        self._stopped("opening")
        card = self.cards.card(unlock(self.deck[position], keys, point=self.points[position]))
        if card is None:
            raise self._fail(BlindError(code="blind_no_card", args={"position": position}, position=position))
        for p, c in self.opened.items():
            if c == card and p != position:
                raise self._fail(BlindError(code="blind_same_card", args={"position": position, "first": p},
                                            position=position))
        self.opened[position] = card
        return card

    def open_private(self, position: int, seat: int, own_key: int) -> int:
        """The card at ``position`` for ``seat``, which holds ``own_key`` (its own lock):
        needs every other participant's key for ``(position, seat)``. Raises
        :class:`BlindError` when a key is missing (culprit: the first one owed), or the
        result is not a card or repeats a card seen at another position (culprit unknown
        until the audit)."""
        self.check_withheld(position, seat)
        keys = list(self.revealed[(position, seat)].values()) + [own_key]
        return self._card(position, keys)

    def open_public(self, position: int) -> int:
        """The card at ``position`` once every participant revealed its key to everyone."""
        self.check_withheld(position, None)
        return self._card(position, list(self.revealed[(position, None)].values()))

    # ------------------------------------------------------------------ audit

    def audit(self) -> list[int]:
        """After every ``seed`` message: recompute every pass and every lock commitment
        from the revealed seeds, in pass order, and return the deck (card id per
        position). Raises :class:`BlindError` naming the first participant whose seed is
        missing, whose pass differs from its seed, or whose lock commitments do.
        Also checks every card this ledger opened against the deck."""
        for p in self.participants:
            if p not in self.seeds:
                raise BlindError(code="blind_no_seed", args={"who": p}, culprit=p)
        if self.phase != DEALT:
            raise BlindError(code="blind_stopped_at", args={"phase": self.phase})
        g, n = self.game_id, len(self.participants)
        for i, p in enumerate(self.participants):
            seed = self.seeds[p]
            key = derive_scalar(g, p, seed, LABEL_PASS_KEY)
            perm = derive_permutation(g, p, seed, LABEL_PASS_PERM, self.size)
            if shuffle_pass(self.decks[i], key, perm, points=self.points_of(i)) != self.decks[i + 1]:
                raise BlindError(code="blind_wrong_shuffle", args={"who": p}, culprit=p)
        for i, p in enumerate(self.participants):
            seed = self.seeds[p]
            key = derive_scalar(g, p, seed, LABEL_PASS_KEY)
            locks = [derive_scalar(g, p, seed, LABEL_LOCK + bytes([q])) for q in range(self.size)]
            if [lock_commitment(g, p, q, scalar_bytes(k)) for q, k in enumerate(locks)] != self.locks[p]:
                raise BlindError(code="blind_wrong_locks", args={"who": p}, culprit=p)
            if relock_pass(self.decks[n + i], key, locks, points=self.points_of(n + i)) != self.decks[n + i + 1]:
                raise BlindError(code="blind_wrong_relock", args={"who": p}, culprit=p)
        all_locks = {p: [derive_scalar(g, p, self.seeds[p], LABEL_LOCK + bytes([q])) for q in range(self.size)] for p in self.participants}
        final = self.points
        deck = [self.cards.card(unlock(self.deck[q], [all_locks[p][q] for p in self.participants], point=final[q])) for q in range(self.size)]
        if sorted(c for c in deck if c is not None) != list(range(self.size)):  # pragma: no cover  (follows from the passes)
            raise BlindError(code="blind_not_permutation")
        for q, c in self.opened.items():
            if deck[q] != c:  # pragma: no cover  (keys are bound by their commitments)
                raise BlindError(code="blind_opened_other", args={"position": q, "found": c, "card": deck[q]}, position=q)
        return deck


def run_deal(
    game_id: bytes,
    participants: Sequence[int],
    *,
    size: int = DECK_SIZE,
    proof_rounds: int = 0,
    seeds: Sequence[bytes] | None = None,
    signing_keys: Sequence[Ed25519PrivateKey] | None = None,
) -> tuple[list[BlindParticipant], BlindLedger, list[bytes]]:
    """An honest blind deal in one process (tests, vectors, bench): every participant
    says hello, shuffles in turn and re-locks in turn. Returns ``(participants, ledger,
    messages)`` with the ledger ready for openings and ``messages`` the wire bytes in
    the order they were received."""
    people = [
        BlindParticipant(
            game_id,
            pid,
            size=size,
            seed=None if seeds is None else seeds[i],
            signing_key=None if signing_keys is None else signing_keys[i],
            proof_rounds=proof_rounds,
        )
        for i, pid in enumerate(participants)
    ]
    ledger = BlindLedger(game_id, participants, size=size, proof_rounds=proof_rounds)
    messages = [p.hello() for p in people]
    for m in messages:
        ledger.receive(m)
    for i, p in enumerate(people):
        messages.append(p.shuffle(i, ledger.deck))
        ledger.receive(messages[-1])
    for p in people:
        messages.append(p.relock(ledger.deck))
        ledger.receive(messages[-1])
    return people, ledger, messages


def _public_key(raw: Any) -> Ed25519PublicKey:
    if not isinstance(raw, bytes) or len(raw) != 32:
        raise BlindError(code="participant_key_size")
    try:
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise BlindError(code="participant_key_bad") from None
