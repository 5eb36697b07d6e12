"""Dealer-blind dealing: commutative encryption of the deck on P-256 (mental poker)
(specs/fairness.md Part B, issue 9).

Pure: no IO, no clock. Randomness only from the 32-byte seeds passed in (or
:func:`jupai_net.fairness.primitives.make_seed` when none is given).

Every elliptic-curve operation goes through ``cryptography``: the only operation the
scheme needs is ``x(k·P)``, the x-coordinate of a scalar multiple of a point, and that
is exactly what ECDH computes (``derive_private_key(k).exchange(ECDH(), P)``). A
point is carried as its 32-byte big-endian x-coordinate and loaded with the compressed
encoding ``0x02 ‖ x``; working on x alone is consistent because
``x(k·P) = x(k·(−P))``. Scalars are Python ints modulo the group order
:data:`ORDER` (inverses with ``pow(k, -1, ORDER)``: arithmetic, not a primitive).

The deck of ``N`` cards (53 for a game; smaller decks for tests) goes through:

1. **card points** ``M_c`` by hash-to-curve of the card id (:func:`card_point`);
2. **shuffle passes**, one per participant in the table's order: participant ``i``
   outputs ``Y[j] = x(k_i · X[π_i[j]])`` (:func:`shuffle_pass`);
3. **re-lock passes**, one per participant in the same order: ``Z[p] =
   x((l_{i,p} / k_i) · Y[p])`` (:func:`relock_pass`), publishing a commitment to every
   per-position key ``l_{i,p}`` (:func:`lock_commitment`);
4. **openings**: the final ``D[p] = x((Π_i l_{i,p}) · M_card)``; whoever holds every
   ``l_{i,p}`` computes ``x((Π_i l_{i,p})^{-1} · D[p])`` and finds the card
   (:func:`unlock`, :class:`CardTable`).

All of a participant's secrets (pass key, permutation, lock keys, proof randomness)
derive from one 32-byte seed by HKDF (:class:`ParticipantSecrets`), so revealing the
seed at the end lets every verifier recompute every pass
(:meth:`jupai_net.fairness.blind_ledger.BlindLedger.audit`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from functools import lru_cache

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ..cards import DECK_SIZE
from .primitives import GAME_ID_BYTES, HOST_SEAT, SEED_BYTES, Drbg, FairnessError, fisher_yates, make_seed

#: Order of the P-256 group (FIPS 186-4 D.1.2.3); scalars live in 1 … ORDER−1.
ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
#: The P-256 field prime; an x-coordinate is an integer below it.
FIELD = 2**256 - 2**224 + 2**192 + 2**96 - 1
POINT_BYTES = 32
SCALAR_BYTES = 32
CURVE = ec.SECP256R1()

TAG_BLIND_CARD = b"jupai/v1/blind/card\x00"
TAG_BLIND_SEED = b"jupai/v1/blind/seed\x00"
TAG_BLIND_DERIVE = b"jupai/v1/blind/derive\x00"
TAG_BLIND_LOCK = b"jupai/v1/blind/lock\x00"
TAG_BLIND_PROOF = b"jupai/v1/blind/proof\x00"

#: HKDF labels (after TAG_BLIND_DERIVE ‖ participant byte) of a participant's secrets.
LABEL_PASS_KEY = b"pass-key"
LABEL_PASS_PERM = b"pass-perm"
LABEL_LOCK = b"lock"
LABEL_SHADOW_KEY = b"shadow-key"
LABEL_SHADOW_PERM = b"shadow-perm"

#: Default number of cut-and-choose rounds of a shuffle proof (soundness 2^-rounds).
PROOF_ROUNDS = 40


class BlindError(FairnessError):
    """A dealer-blind check failed.

    ``culprit`` is the participant id (seat 0–5, or :data:`HOST_SEAT` for the host)
    whose message is wrong, or ``None`` when the failure is seen but its author is not
    known yet (an :func:`audit` names it). ``position`` is the deck position concerned.
    """

    def __init__(self, reason: str | None = None, *, culprit: int | None = None, **kw):
        super().__init__(reason, **kw)
        self.culprit = culprit


#: Largest deck: positions, card ids and proof permutations are one byte each.
MAX_DECK = 255


def check_size(size: int) -> int:
    """``size`` if it is a deck size the scheme carries (1 … :data:`MAX_DECK`), else BlindError."""
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_DECK:
        raise BlindError(f"a blind deck has 1 … {MAX_DECK} cards, got {size!r}")
    return size


def _check_pid(pid: int) -> int:
    if isinstance(pid, bool) or not isinstance(pid, int) or not (0 <= pid <= 5 or pid == HOST_SEAT):
        raise BlindError(f"a participant is a seat 0 … 5 or the host (0xFF), got {pid!r}")
    return pid


def participant_name(pid: int | None) -> str:
    """'the host', 'seat 2' or 'an unknown participant'."""
    if pid is None:
        return "an unknown participant"
    return "the host" if pid == HOST_SEAT else f"seat {pid}"


def table_participants(seats: int) -> tuple[int, ...]:
    """The participants of a blind table in pass order: the host (0xFF) first, then
    seats 0 … seats−1 (specs/fairness.md B.4)."""
    if not 2 <= seats <= 6:
        raise BlindError(f"a table has 2 to 6 seats, got {seats!r}")
    return (HOST_SEAT,) + tuple(range(seats))


# --------------------------------------------------------------------------- points


def _load(x: bytes, *, what: str = "point", culprit: int | None = None, position: int | None = None) -> ec.EllipticCurvePublicKey:
    if not isinstance(x, (bytes, bytearray)) or len(x) != POINT_BYTES:
        raise BlindError(code="point_size", args={"point_what": what, "size": POINT_BYTES}, culprit=culprit, position=position)
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(CURVE, b"\x02" + bytes(x))
    except ValueError:
        raise BlindError(code="point_off_curve", args={"point_what": what}, culprit=culprit, position=position) from None


def is_point(x: bytes) -> bool:
    """Whether ``x`` (32 bytes) is the x-coordinate of a point of P-256."""
    try:
        _load(x)
    except BlindError:
        return False
    return True


def _private(k: int) -> ec.EllipticCurvePrivateKey:
    # not cached: secret scalars must not outlive their use in a global cache
    return ec.derive_private_key(k, CURVE)


def _check_scalar(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not 0 < k < ORDER:
        raise BlindError(f"a scalar is an integer in 1 … n−1, got {k!r}")
    return k


def mul(x: bytes, k: int) -> bytes:
    """``x(k·P)`` for the point ``P`` with x-coordinate ``x`` (32 bytes) and a scalar
    ``1 ≤ k < ORDER``, via ECDH in ``cryptography``. Raises :class:`BlindError` when
    ``x`` is not on the curve or ``k`` out of range."""
    return _private(_check_scalar(k)).exchange(ec.ECDH(), _load(x))


#: A deck's values loaded as curve points (``cryptography`` public keys), index = position.
Points = Sequence[ec.EllipticCurvePublicKey]


def load_deck(xs: Sequence[bytes], *, culprit: int | None = None, what: str = "point") -> list[ec.EllipticCurvePublicKey]:
    """Every value of ``xs`` loaded as a point: checks each is the x-coordinate of a
    P-256 point (:class:`BlindError` naming ``culprit`` and the position otherwise).
    The result can be given to the next pass (``points=``), which then loads nothing
    again: one curve check per value per program."""
    return [_load(x, what=what, culprit=culprit, position=i) for i, x in enumerate(xs)]


def mul_all(xs: Sequence[bytes], k: int, *, culprit: int | None = None, points: Points | None = None) -> list[bytes]:
    """``[x(k·P) for P in xs]`` with the key object built once. A bad point raises
    :class:`BlindError` naming ``culprit`` and the position. ``points``: ``xs``
    already loaded (:func:`load_deck`)."""
    key = _private(_check_scalar(k))
    loaded = load_deck(xs, culprit=culprit) if points is None else points
    return [key.exchange(ec.ECDH(), p) for p in loaded]


def scalar_bytes(k: int) -> bytes:
    """A scalar as 32 bytes big-endian."""
    return _check_scalar(k).to_bytes(SCALAR_BYTES, "big")


def scalar_from_bytes(b: bytes, *, culprit: int | None = None, position: int | None = None) -> int:
    """Inverse of :func:`scalar_bytes`; raises :class:`BlindError` unless 32 bytes in 1 … n−1."""
    if not isinstance(b, (bytes, bytearray)) or len(b) != SCALAR_BYTES:
        raise BlindError(code="key_size", args={"size": SCALAR_BYTES}, culprit=culprit, position=position)
    k = int.from_bytes(b, "big")
    if not 0 < k < ORDER:
        raise BlindError(code="key_range", culprit=culprit, position=position)
    return k


#: The try-and-increment counters of card ids 0 … 52 (specs/fairness.md B.3; byte c is
#: card c's), so that a program's first deal does not search for them: 104 curve checks
#: less. ``tests/test_blind.py`` checks them against :func:`search_card_point`.
CARD_COUNTERS = bytes.fromhex("0000010103000001030001000001000003000004010200000100000000000100010001000002010101020204010300000000000900")


@lru_cache(maxsize=None)
def hash_to_curve(card: int) -> tuple[int, bytes]:
    """``(counter, x)`` of card id ``card`` (0 … 255) by try-and-increment: the first
    ``x = SHA-256(TAG_BLIND_CARD ‖ card(1) ‖ counter(1))``, counter = 0, 1, …, with
    ``x < p`` and ``0x02 ‖ x`` on P-256 (the counters of a 53-card deck are
    :data:`CARD_COUNTERS`; others are searched, :func:`search_card_point`)."""
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 255:
        raise BlindError(f"a card id is 0 … 255, got {card!r}")
    if card < len(CARD_COUNTERS):
        counter = CARD_COUNTERS[card]
        return counter, hashlib.sha256(TAG_BLIND_CARD + bytes([card, counter])).digest()
    return search_card_point(card)


def search_card_point(card: int) -> tuple[int, bytes]:
    """:func:`hash_to_curve` computed by the search itself (every counter tried in turn)."""
    for counter in range(256):
        x = hashlib.sha256(TAG_BLIND_CARD + bytes([card, counter])).digest()
        if int.from_bytes(x, "big") < FIELD and is_point(x):
            return counter, x
    raise BlindError(f"no curve point for card {card}")  # pragma: no cover  (probability 2^-256)


def card_point(card: int) -> bytes:
    """The point (32-byte x) of card id ``card`` (:func:`hash_to_curve`). Nobody knows
    the discrete logarithm of one card point to another (unlike ``i·G``), so encrypted
    cards cannot be linked."""
    return hash_to_curve(card)[1]


class CardTable:
    """Lookup from a card point (32-byte x) back to its card id, for a deck of
    ``size`` cards with ids 0 … size−1."""

    def __init__(self, size: int = DECK_SIZE):
        self.size = size
        self.points = tuple(card_point(c) for c in range(size))
        self._ids = {x: c for c, x in enumerate(self.points)}

    def card(self, x: bytes) -> int | None:
        """The card id whose point has x-coordinate ``x``, or None."""
        return self._ids.get(bytes(x))


# --------------------------------------------------------------------------- secrets


def _need(name: str, value, size: int) -> bytes:
    if not isinstance(value, (bytes, bytearray)) or len(value) != size:
        raise BlindError(f"{name} must be {size} bytes")
    return bytes(value)


def derive_bytes(game_id: bytes, pid: int, seed: bytes, label: bytes, length: int) -> bytes:
    """``HKDF-SHA256(ikm = seed, salt = game_id, info = TAG_BLIND_DERIVE ‖ pid(1) ‖ label,
    L = length)`` (RFC 5869)."""
    info = TAG_BLIND_DERIVE + bytes([pid]) + label
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=game_id, info=info).derive(seed)


def derive_scalar(game_id: bytes, pid: int, seed: bytes, label: bytes) -> int:
    """A scalar in 1 … n−1: 48 HKDF bytes (:func:`derive_bytes`) as a big-endian integer
    ``z``, then ``z mod (n−1) + 1`` (bias below 2^-128)."""
    return int.from_bytes(derive_bytes(game_id, pid, seed, label, 48), "big") % (ORDER - 1) + 1


def derive_permutation(game_id: bytes, pid: int, seed: bytes, label: bytes, size: int) -> list[int]:
    """A permutation of 0 … size−1: Fisher–Yates (specs/fairness.md §4.4) over
    ``range(size)`` driven by the ChaCha20 DRBG (§4.2, §4.3) under the key
    ``derive_bytes(..., label, 32)``."""
    return fisher_yates(range(size), Drbg(derive_bytes(game_id, pid, seed, label, 32)))


def seed_commitment(game_id: bytes, pid: int, seed: bytes) -> bytes:
    """``SHA-256(TAG_BLIND_SEED ‖ game_id(16) ‖ pid(1) ‖ seed(32))``: a participant's
    commitment to its blind seed (256 random bits need no salt)."""
    return hashlib.sha256(TAG_BLIND_SEED + _need("game id", game_id, GAME_ID_BYTES) + bytes([pid]) + _need("seed", seed, SEED_BYTES)).digest()


def lock_commitment(game_id: bytes, pid: int, position: int, key: bytes) -> bytes:
    """``SHA-256(TAG_BLIND_LOCK ‖ game_id(16) ‖ pid(1) ‖ position(1) ‖ key(32))``: the
    commitment to participant ``pid``'s lock key for ``position``. The key is a
    uniform ~256-bit scalar, so no salt is needed to hide it; the game id, participant
    and position bind it to one place (no replay, no moving between positions)."""
    return hashlib.sha256(TAG_BLIND_LOCK + game_id + bytes([pid, position]) + key).digest()


class ParticipantSecrets:
    """Everything secret of one participant, derived from its 32-byte ``seed``
    (``None``: a fresh seed from the OS CSPRNG).

    ``pass_key`` (scalar), ``permutation`` (list, ``π[j]`` = input index put at output
    ``j``), ``lock_key(p)`` (scalar) and the shadow shuffles of its proof all come from
    :func:`derive_bytes` with the labels of specs/fairness.md.
    """

    def __init__(self, game_id: bytes, pid: int, seed: bytes | None = None, *, size: int = DECK_SIZE):
        self.game_id = _need("game id", game_id, GAME_ID_BYTES)
        self.pid = _check_pid(pid)
        check_size(size)
        self.seed = make_seed() if seed is None else _need("seed", seed, SEED_BYTES)
        self.size = size
        self.commitment = seed_commitment(self.game_id, pid, self.seed)
        self.pass_key = derive_scalar(self.game_id, pid, self.seed, LABEL_PASS_KEY)
        self.permutation = derive_permutation(self.game_id, pid, self.seed, LABEL_PASS_PERM, size)
        self._locks: dict[int, int] = {}
        self._relock_keys: list[ec.EllipticCurvePrivateKey] | None = None  # prepare()
        self._commitments: list[bytes] | None = None  # prepare()
        self._shuffled: tuple[list[bytes], list[bytes]] | None = None  # (input, output) of the last shuffle

    def lock_key(self, position: int) -> int:
        """The lock key of ``position`` (scalar)."""
        if position not in self._locks:
            self._locks[position] = derive_scalar(self.game_id, self.pid, self.seed, LABEL_LOCK + bytes([position]))
        return self._locks[position]

    def lock_keys(self) -> list[int]:
        """The lock keys of positions 0 … size−1."""
        return [self.lock_key(p) for p in range(self.size)]

    def lock_commitments(self) -> list[bytes]:
        """The commitments to every lock key (:func:`lock_commitment`)."""
        self.prepare()
        return list(self._commitments)  # type: ignore[arg-type]

    def prepare(self) -> None:
        """Build now what the re-lock pass needs and does not depend on the deck: the
        key objects of its scalars (:func:`relock_scalars`) and the lock commitments.
        A program calls it while it waits for its turn (issue 9: the blind setup's
        figures); the pass then costs only its multiplications. Idempotent."""
        if self._relock_keys is None:
            self._relock_keys = [_private(k) for k in relock_scalars(self.pass_key, self.lock_keys())]
        if self._commitments is None:
            self._commitments = [lock_commitment(self.game_id, self.pid, p, scalar_bytes(self.lock_key(p))) for p in range(self.size)]

    def shuffle(self, deck: Sequence[bytes], points: Points | None = None) -> list[bytes]:
        """This participant's shuffle pass over ``deck`` (:func:`shuffle_pass`);
        ``points``: ``deck`` already loaded. The last result is kept: the first
        participant, whose input (the card points) is known from the start, computes
        its pass while the hellos come in and sends it the moment they are all in."""
        if self._shuffled is not None and self._shuffled[0] == list(deck):
            return list(self._shuffled[1])
        out = shuffle_pass(deck, self.pass_key, self.permutation, culprit=None, points=points)
        self._shuffled = (list(deck), out)
        return list(out)

    def relock(self, deck: Sequence[bytes], points: Points | None = None) -> list[bytes]:
        """This participant's re-lock pass over ``deck`` (:func:`relock_pass`);
        ``points``: ``deck`` already loaded."""
        self.prepare()
        return relock_pass(deck, self.pass_key, self.lock_keys(), points=points, keys=self._relock_keys)

    def prove(self, index: int, deck_in: Sequence[bytes], deck_out: Sequence[bytes], rounds: int = PROOF_ROUNDS) -> bytes:
        """The cut-and-choose proof that ``deck_out`` is this participant's shuffle
        pass number ``index`` of ``deck_in`` (:func:`prove_shuffle`)."""
        return prove_shuffle(self, index, deck_in, deck_out, rounds)


# --------------------------------------------------------------------------- passes


def shuffle_pass(
    deck: Sequence[bytes], key: int, permutation: Sequence[int], *, culprit: int | None = None, points: Points | None = None
) -> list[bytes]:
    """``Y[j] = x(key · X[π[j]])`` for j = 0 … N−1: permute, then encrypt every card with
    one scalar. Raises :class:`BlindError` (naming ``culprit``) on a point off the curve.
    ``points``: ``deck`` already loaded (:func:`load_deck`)."""
    if sorted(permutation) != list(range(len(deck))):
        raise BlindError("a shuffle pass needs a permutation of the deck's positions")
    loaded = load_deck(deck, culprit=culprit) if points is None else points
    return mul_all([deck[i] for i in permutation], key, points=[loaded[i] for i in permutation])


def relock_scalars(pass_key: int, lock_keys: Sequence[int]) -> list[int]:
    """The scalar of each position of a re-lock pass: ``l_p · k^{-1} mod n``."""
    inv = pow(_check_scalar(pass_key), -1, ORDER)
    return [lock * inv % ORDER for lock in lock_keys]


def relock_pass(
    deck: Sequence[bytes],
    pass_key: int,
    lock_keys: Sequence[int],
    *,
    culprit: int | None = None,
    points: Points | None = None,
    keys: Sequence[ec.EllipticCurvePrivateKey] | None = None,
) -> list[bytes]:
    """``Z[p] = x((l_p · k^{-1} mod n) · Y[p])``: remove the pass key ``k`` and put the
    per-position lock ``l_p`` on every position, in one multiplication each.
    ``points``: ``deck`` already loaded (:func:`load_deck`); ``keys``: the key objects
    of :func:`relock_scalars` already built (:meth:`ParticipantSecrets.prepare`)."""
    if len(lock_keys) != len(deck):
        raise BlindError("a re-lock pass needs one lock key per position")
    loaded = load_deck(deck, culprit=culprit) if points is None else points
    made = [_private(k) for k in relock_scalars(pass_key, lock_keys)] if keys is None else keys
    return [key.exchange(ec.ECDH(), p) for key, p in zip(made, loaded)]


def unlock(x: bytes, keys: Iterable[int], *, point: ec.EllipticCurvePublicKey | None = None) -> bytes:
    """``x((Π keys)^{-1} · D)``: remove every lock from the position value ``x``
    (one multiplication whatever the number of keys); ``point``: ``x`` already loaded."""
    product = 1
    for k in keys:
        product = product * _check_scalar(k) % ORDER
    inverse = pow(product, -1, ORDER)
    if point is None:
        return mul(x, inverse)
    return _private(inverse).exchange(ec.ECDH(), point)


def initial_deck(size: int = DECK_SIZE) -> list[bytes]:
    """The deck before the first pass: the card points of ids 0 … size−1."""
    return list(CardTable(size).points)


# --------------------------------------------------------------------------- proofs


def _challenge(game_id: bytes, pid: int, index: int, rounds: int, deck_in: Sequence[bytes], deck_out: Sequence[bytes], shadows: Sequence[Sequence[bytes]]) -> bytes:
    h = hashlib.sha256(TAG_BLIND_PROOF + game_id + bytes([pid, index, rounds, len(deck_in)]))
    for deck in (deck_in, deck_out, *shadows):
        h.update(b"".join(deck))
    return h.digest()


def _bits(digest: bytes, rounds: int) -> list[int]:
    return [(digest[j // 8] >> (7 - j % 8)) & 1 for j in range(rounds)]


def proof_size(rounds: int, size: int = DECK_SIZE) -> int:
    """Bytes of a shuffle proof: ``32 + rounds × (32 + size)``."""
    return 32 + rounds * (SCALAR_BYTES + size)


def prove_shuffle(secrets: ParticipantSecrets, index: int, deck_in: Sequence[bytes], deck_out: Sequence[bytes], rounds: int = PROOF_ROUNDS) -> bytes:
    """Non-interactive cut-and-choose proof (Fiat–Shamir) that ``deck_out`` is a
    permutation of ``x(k·deck_in)`` for the prover's pass key ``k``.

    For each round j the prover makes a shadow ``S_j[t] = x(r_j · X[σ_j[t]])`` (r_j,
    σ_j from its seed, labels ``shadow-key``/``shadow-perm`` ‖ index ‖ j); the challenge
    is ``c = SHA-256(TAG_BLIND_PROOF ‖ game_id ‖ pid ‖ index ‖ rounds ‖ N ‖ X ‖ Y ‖ S_0 ‖
    … ‖ S_{rounds−1})`` and bit j of it (most significant first) picks the answer:
    bit 0 opens the shadow (``r_j``, ``σ_j``); bit 1 links it to the output
    (``s_j = k·r_j^{-1} mod n``, ``τ_j = σ_j^{-1}∘π``) so that ``Y[t] = x(s_j · S_j[τ_j[t]])``.
    Neither answer alone tells anything about ``π`` or ``k``.
    Wire form: ``c(32) ‖ rounds × (scalar(32) ‖ permutation(N bytes))``.
    """
    if not 1 <= rounds <= 255:
        raise BlindError("a proof has 1 … 255 rounds")
    g, pid, size = secrets.game_id, secrets.pid, len(deck_in)
    shadows, opened = [], []
    for j in range(rounds):
        r = derive_scalar(g, pid, secrets.seed, LABEL_SHADOW_KEY + bytes([index, j]))
        sigma = derive_permutation(g, pid, secrets.seed, LABEL_SHADOW_PERM + bytes([index, j]), size)
        shadows.append(shuffle_pass(deck_in, r, sigma))
        opened.append((r, sigma))
    digest = _challenge(g, pid, index, rounds, deck_in, deck_out, shadows)
    out = bytearray(digest)
    pi = secrets.permutation
    for (r, sigma), bit in zip(opened, _bits(digest, rounds)):
        if bit == 0:
            out += scalar_bytes(r) + bytes(sigma)
        else:
            inv_sigma = [0] * size
            for t, s in enumerate(sigma):
                inv_sigma[s] = t
            out += scalar_bytes(secrets.pass_key * pow(r, -1, ORDER) % ORDER) + bytes(inv_sigma[pi[t]] for t in range(size))
    return bytes(out)


def check_shuffle_proof(
    game_id: bytes, pid: int, index: int, deck_in: Sequence[bytes], deck_out: Sequence[bytes], proof: bytes, rounds: int = PROOF_ROUNDS
) -> None:
    """Check a :func:`prove_shuffle` proof. Raises :class:`BlindError` naming ``pid``
    (the prover) when the proof is malformed or does not verify, i.e. ``deck_out`` is
    not a re-encrypted permutation of ``deck_in`` (a replaced, duplicated or dropped
    card), except with probability 2^-rounds per attempt."""
    size = len(deck_in)
    if not isinstance(proof, (bytes, bytearray)) or len(proof) != proof_size(rounds, size):
        raise BlindError(code="proof_size", args={"who": pid}, culprit=pid)
    digest, body = bytes(proof[:32]), bytes(proof[32:])
    step = SCALAR_BYTES + size
    out_index = {bytes(y): t for t, y in enumerate(deck_out)}
    if len(out_index) != size:
        raise BlindError(code="blind_deck_repeats", args={"pass_name": "shuffle", "who": pid}, culprit=pid)
    shadows = []
    for j, bit in enumerate(_bits(digest, rounds)):
        chunk = body[j * step : (j + 1) * step]
        scalar = scalar_from_bytes(chunk[:SCALAR_BYTES], culprit=pid)
        perm = list(chunk[SCALAR_BYTES:])
        if sorted(perm) != list(range(size)):
            raise BlindError(code="proof_round", args={"who": pid, "round": j}, culprit=pid)
        if bit == 0:
            shadows.append(shuffle_pass(deck_in, scalar, perm, culprit=pid))
        else:
            # Y[t] = x(s · S[τ[t]])  ⇒  S[τ[t]] = x(s^{-1} · Y[t])
            back = mul_all(deck_out, pow(scalar, -1, ORDER), culprit=pid)
            shadow: list[bytes] = [b""] * size
            for t, u in enumerate(perm):
                shadow[u] = back[t]
            shadows.append(shadow)
    if not hmac.compare_digest(_challenge(game_id, pid, index, rounds, deck_in, deck_out, shadows), digest):
        raise BlindError(code="proof_fails", args={"who": pid}, culprit=pid)
