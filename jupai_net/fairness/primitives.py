"""Fairness primitives: seeds, commitments, the DRBG, the shuffle and card reveals
(specs/fairness.md §3–§6).

Everything here is pure (no IO, no clock) and deterministic given its inputs, except
:func:`make_seed` and :func:`make_game_id`, which read the OS CSPRNG through
:mod:`secrets`. Every cryptographic primitive comes from ``cryptography`` (HKDF,
ChaCha20, Ed25519) or :mod:`hashlib` (SHA-256); nothing is hand-rolled.

Byte encodings (all fixed width, so a concatenation is unambiguous):

* ``game_id``: 16 bytes; seeds and salts: 32 bytes; commitments: 32 bytes (SHA-256);
* a seat: 1 byte, ``0..5`` for the players, :data:`HOST_SEAT` (``0xFF``) for the host;
* a deck position ``k``: 1 byte ``0..52``; a card id: 1 byte ``0..52``;
* every tag is ASCII ``jupai/v1/<name>`` followed by one ``0x00`` byte.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand

from ..cards import CANONICAL_DECK, DECK_SIZE, card_name
from ..rules import RuleSet
from ..setup import Setup, draw_setup

#: Version of the fairness scheme; it is part of every tag ("jupai/v1/...").
FAIRNESS_VERSION = 1
SEED_BYTES = 32
GAME_ID_BYTES = 16
SALT_BYTES = 32
DIGEST_BYTES = 32
#: Seat byte used for the host's own seed commitment.
HOST_SEAT = 0xFF

TAG_SEED = b"jupai/v1/seed\x00"
TAG_CARD = b"jupai/v1/card\x00"
TAG_SALT = b"jupai/v1/salt\x00"
TAG_DRBG = b"jupai/v1/drbg\x00"
TAG_KEY = b"jupai/v1/host-key\x00"

#: DRBG labels (specs/fairness.md §4).
LABEL_DECK = "deck"
LABEL_SETUP = "setup"


class FairnessError(ValueError):
    """A fairness check failed or a value has the wrong shape.

    ``reason`` is a one-line human explanation in English; ``position`` the deck
    position concerned (or ``None``); ``expected`` / ``found`` the two values that
    differ, in a printable form (or ``None``). ``code`` and ``args``, when given, say
    the same in every language (a ``verdict.reason.CODE`` of the message catalog,
    :mod:`jupai_net.messages.verdicts`; specs/fairness.md §9.1): ``reason`` may then be
    omitted, it is the catalog's English. Errors raised with a reason only have no code
    (``code`` None): a verdict says them as a technical detail.
    """

    def __init__(self, reason: str | None = None, *, position: int | None = None, expected: Any = None,
                 found: Any = None, code: str | None = None, args: dict[str, Any] | None = None):
        self.code = code
        self.code_args: dict[str, Any] = dict(args or {})
        if reason is None:
            from ..messages.verdicts import verdict_sentence

            reason = verdict_sentence(code or "unexplained", self.code_args, "en")
        super().__init__(reason)
        self.reason = reason
        self.position = position
        self.expected = expected
        self.found = found


# --------------------------------------------------------------------------- seeds


def make_seed() -> bytes:
    """A fresh 256-bit seed (32 bytes) from the OS CSPRNG (:func:`secrets.token_bytes`)."""
    import secrets  # here: a verifier never draws a seed (fast `jupai verify`)

    return secrets.token_bytes(SEED_BYTES)


def make_game_id() -> bytes:
    """A fresh 128-bit game id (16 bytes) from the OS CSPRNG."""
    import secrets

    return secrets.token_bytes(GAME_ID_BYTES)


def _need_bytes(name: str, value: Any, size: int) -> bytes:
    if not isinstance(value, (bytes, bytearray)) or len(value) != size:
        raise FairnessError(f"{name} must be {size} bytes, got {_short(value)}")
    return bytes(value)


def _need_seat(seat: Any, *, host_ok: bool = False) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not (0 <= seat <= 5 or (host_ok and seat == HOST_SEAT)):
        raise FairnessError(f"seat must be 0..5{' or the host (0xFF)' if host_ok else ''}, got {seat!r}")
    return seat


def _need_index(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < DECK_SIZE:
        raise FairnessError(f"{name} must be 0..{DECK_SIZE - 1}, got {value!r}")
    return value


def _short(value: Any) -> str:
    if isinstance(value, (bytes, bytearray)):
        return f"{len(value)} bytes"
    return repr(value)[:40]


def seed_commitment(game_id: bytes, seat: int, seed: bytes) -> bytes:
    """Commitment to a seed (specs/fairness.md §3): 32 bytes
    ``SHA-256(TAG_SEED ‖ game_id(16) ‖ seat(1) ‖ seed(32))``.

    ``seat`` is 0..5 for a player, :data:`HOST_SEAT` for the host. Raises
    :class:`FairnessError` on a wrong length or seat.
    """
    game_id = _need_bytes("game id", game_id, GAME_ID_BYTES)
    seed = _need_bytes("seed", seed, SEED_BYTES)
    seat = _need_seat(seat, host_ok=True)
    return hashlib.sha256(TAG_SEED + game_id + bytes([seat]) + seed).digest()


def check_seed(game_id: bytes, seat: int, seed: Any, commitment: bytes) -> None:
    """Raise :class:`FairnessError` unless ``seed`` opens ``commitment`` for ``seat``
    in game ``game_id`` (constant-time compare)."""
    who = seat
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
        raise FairnessError(code="seed_size", args={"seed_of": who, "size": SEED_BYTES, "got": _short(seed)})
    got = seed_commitment(game_id, seat, bytes(seed))
    if not hmac.compare_digest(got, commitment):
        raise FairnessError(
            code="seed_mismatch", args={"seed_of": who},
            expected=bytes(commitment).hex(),
            found=got.hex(),
        )


# --------------------------------------------------------------------------- DRBG


def drbg_key(game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes], label: str) -> bytes:
    """The 32-byte ChaCha20 key of the DRBG stream ``label`` (specs/fairness.md §4):
    ``HKDF-SHA256(ikm = host_seed ‖ seed_0 ‖ … ‖ seed_{n-1}, salt = game_id,
    info = TAG_DRBG ‖ label(ASCII), length = 32)``."""
    game_id = _need_bytes("game id", game_id, GAME_ID_BYTES)
    ikm = _need_bytes("host seed", host_seed, SEED_BYTES)
    for i, s in enumerate(seat_seeds):
        ikm += _need_bytes(f"seed of seat {i}", s, SEED_BYTES)
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=game_id, info=TAG_DRBG + label.encode("ascii"))
    return hkdf.derive(ikm)


class Drbg:
    """Deterministic random bit generator: the ChaCha20 keystream (RFC 8439, 96-bit
    nonce of zeros, block counter from 0) under a 32-byte key (specs/fairness.md §4).

    :meth:`randrange` draws unbiased integers by rejection sampling, so it can stand
    in for ``random.Random`` in :func:`jupai_net.setup.draw_setup`.
    """

    _CHUNK = 256

    def __init__(self, key: bytes):
        key = _need_bytes("DRBG key", key, 32)
        # cryptography's 16-byte ChaCha20 nonce = 4-byte little-endian counter ‖ 12-byte nonce.
        self._enc = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor()
        self._buf = b""
        self._pos = 0
        #: Number of stream bytes consumed so far.
        self.consumed = 0

    @classmethod
    def for_label(cls, game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes], label: str) -> "Drbg":
        """The DRBG stream ``label`` of a game (key from :func:`drbg_key`)."""
        return cls(drbg_key(game_id, host_seed, seat_seeds, label))

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes of the keystream."""
        pos = self._pos
        if pos + n <= len(self._buf):  # within the current chunk (nearly every draw)
            self._pos = pos + n
            self.consumed += n
            return self._buf[pos : pos + n]
        out = b""
        while len(out) < n:
            if self._pos >= len(self._buf):
                self._buf = self._enc.update(bytes(self._CHUNK))
                self._pos = 0
            take = min(n - len(out), len(self._buf) - self._pos)
            out += self._buf[self._pos : self._pos + take]
            self._pos += take
        self.consumed += n
        return out

    def randrange(self, n: int, /) -> int:
        """Uniform integer in ``0..n-1`` by rejection sampling (no modulo bias).

        ``n == 1`` returns 0 and reads nothing. Otherwise with ``b = (n-1).bit_length()``:
        read ``ceil(b/8)`` bytes, big-endian, keep the low ``b`` bits; accept if ``< n``,
        else read again. Raises ``ValueError`` if ``n < 1``.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"randrange needs a whole number n >= 1, got {n!r}")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            x = int.from_bytes(self.read(nbytes), "big") & mask
            if x < n:
                return x


def fisher_yates(items: Sequence[int], rng: Any) -> list[int]:
    """Fisher–Yates shuffle of a copy of ``items``: for i from len-1 down to 1,
    ``j = rng.randrange(i + 1)``, swap positions i and j (specs/fairness.md §4)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffle_deck(game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes]) -> list[int]:
    """The deck order of a game: :func:`fisher_yates` over :data:`CANONICAL_DECK`
    driven by the DRBG under label ``"deck"``. ``deck[k]`` is the card id at position k."""
    return fisher_yates(CANONICAL_DECK, Drbg.for_label(game_id, host_seed, seat_seeds, LABEL_DECK))


def derive_setup(rules: RuleSet, game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes]) -> Setup:
    """The setup of a game: :func:`jupai_net.setup.draw_setup` driven by the DRBG under
    label ``"setup"``."""
    return draw_setup(rules, Drbg.for_label(game_id, host_seed, seat_seeds, LABEL_SETUP))


@dataclass(frozen=True, slots=True)
class Deal:
    """Everything random about a game, derived from its seeds: ``deck`` (card id per
    position, a permutation of 0..52), ``setup`` and the per-position ``salts``."""

    deck: tuple[int, ...]
    setup: Setup
    salts: tuple[bytes, ...]

    def position_of(self) -> dict[int, int]:
        """Map card id → deck position."""
        return {card: k for k, card in enumerate(self.deck)}


def derive_deal(rules: RuleSet, game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes]) -> Deal:
    """Deck, setup and salts of a game from all its seeds (specs/fairness.md §4–§5)."""
    return Deal(
        tuple(shuffle_deck(game_id, host_seed, seat_seeds)),
        derive_setup(rules, game_id, host_seed, seat_seeds),
        card_salts(game_id, host_seed),
    )


# --------------------------------------------------------------------------- card commitments


def card_salt(game_id: bytes, host_seed: bytes, position: int) -> bytes:
    """Salt of deck position ``position``: 32 bytes ``HKDF-SHA256(ikm = host_seed,
    salt = game_id, info = TAG_SALT ‖ position(1), length = 32)`` (specs/fairness.md §5)."""
    game_id = _need_bytes("game id", game_id, GAME_ID_BYTES)
    host_seed = _need_bytes("host seed", host_seed, SEED_BYTES)
    position = _need_index("position", position)
    hkdf = HKDF(algorithm=hashes.SHA256(), length=SALT_BYTES, salt=game_id, info=TAG_SALT + bytes([position]))
    return hkdf.derive(host_seed)


def card_salts(game_id: bytes, host_seed: bytes) -> tuple[bytes, ...]:
    """The 53 salts, one per deck position (each :func:`card_salt`). HKDF's extract step
    (``PRK = HMAC-SHA256(game_id, host_seed)``, RFC 5869 §2.2) is the same for every
    position, so it is done once (``HKDF.extract``, cryptography ≥ 47) and each salt is
    the expand step under its position's ``info``: the same bytes at half the cost."""
    extract = getattr(HKDF, "extract", None)
    if extract is None:  # an older cryptography: the whole HKDF per position
        return tuple(card_salt(game_id, host_seed, k) for k in range(DECK_SIZE))
    game_id = _need_bytes("game id", game_id, GAME_ID_BYTES)
    host_seed = _need_bytes("host seed", host_seed, SEED_BYTES)
    sha256 = hashes.SHA256()
    prk = extract(sha256, game_id, host_seed)
    return tuple(HKDFExpand(sha256, SALT_BYTES, TAG_SALT + bytes([k])).derive(prk) for k in range(DECK_SIZE))


def card_commitment(game_id: bytes, position: int, card: int, salt: bytes) -> bytes:
    """Commitment to the card at a deck position: 32 bytes
    ``SHA-256(TAG_CARD ‖ game_id(16) ‖ position(1) ‖ card(1) ‖ salt(32))``."""
    game_id = _need_bytes("game id", game_id, GAME_ID_BYTES)
    position = _need_index("position", position)
    card = _need_index("card", card)
    salt = _need_bytes("salt", salt, SALT_BYTES)
    return hashlib.sha256(TAG_CARD + game_id + bytes([position, card]) + salt).digest()


def deck_commitments(game_id: bytes, deck: Sequence[int], salts: Sequence[bytes]) -> list[bytes]:
    """The 53 per-position commitments of ``deck`` (``C_k`` for k = 0..52)."""
    if len(deck) != DECK_SIZE or len(salts) != DECK_SIZE:
        raise FairnessError(f"a deck and its salts have {DECK_SIZE} entries")
    if (isinstance(game_id, bytes) and len(game_id) == GAME_ID_BYTES and all(type(c) is int and 0 <= c < DECK_SIZE for c in deck)
            and all(type(x) is bytes and len(x) == SALT_BYTES for x in salts)):
        # checked once for all 53: each is card_commitment's hash
        prefix, sha256 = TAG_CARD + game_id, hashlib.sha256
        return [sha256(prefix + bytes((k, deck[k])) + salts[k]).digest() for k in range(DECK_SIZE)]
    return [card_commitment(game_id, k, deck[k], salts[k]) for k in range(DECK_SIZE)]


@dataclass(frozen=True, slots=True)
class CardReveal:
    """The opening of one deck commitment: position ``k``, ``card`` id and ``salt``.
    Wire form (inside a statement): msgpack array ``[k, card, salt]``."""

    position: int
    card: int
    salt: bytes

    def to_wire(self) -> list[Any]:
        """``[k, card, salt]``."""
        return [self.position, self.card, self.salt]

    @classmethod
    def from_wire(cls, data: Any) -> "CardReveal":
        """Inverse of :meth:`to_wire`; raises :class:`FairnessError` on a bad shape."""
        if not isinstance(data, (list, tuple)) or len(data) != 3:
            raise FairnessError(f"a card reveal is [position, card, salt], got {_short(data)}")
        k, card, salt = data
        return cls(_need_index("reveal position", k), _need_index("revealed card", card), _need_bytes("salt", salt, SALT_BYTES))


def _check_reveal(game_id: bytes, commitments: Sequence[bytes], reveal: CardReveal, what: str) -> None:
    k = reveal.position
    if not 0 <= k < len(commitments):
        raise FairnessError(code="reveal_no_position", args={"scope": what, "position": k}, position=k)
    got = card_commitment(game_id, k, reveal.card, reveal.salt)
    if not hmac.compare_digest(got, commitments[k]):
        raise FairnessError(
            code="reveal_mismatch", args={"scope": what, "position": k, "card": card_name(reveal.card)},
            position=k,
            expected=bytes(commitments[k]).hex(),
            found=got.hex(),
        )


def check_private_reveal(
    game_id: bytes, commitments: Sequence[bytes], reveal: CardReveal, *, seat: int | None, addressed_to: int | None
) -> None:
    """Check a private reveal (one seat's card) the moment it arrives (specs/fairness.md §5).

    ``seat`` is the receiving seat, ``addressed_to`` the seat the signed statement is
    addressed to. Raises :class:`FairnessError` when the reveal was addressed to another
    seat (a leak), or when ``(k, card, salt)`` does not open ``commitments[k]``.
    """
    if addressed_to != seat:
        raise FairnessError(
            code="reveal_misaddressed", args={"position": reveal.position, "to": addressed_to},
            position=reveal.position,
            expected=seat,
            found=addressed_to,
        )
    _check_reveal(game_id, commitments, reveal, "private")


def check_public_reveal(game_id: bytes, commitments: Sequence[bytes], reveal: CardReveal) -> None:
    """Check a public reveal (a card shown to everyone) the moment it arrives.
    Raises :class:`FairnessError` when ``(k, card, salt)`` does not open ``commitments[k]``."""
    _check_reveal(game_id, commitments, reveal, "public")


def find_committed_card(game_id: bytes, position: int, salt: bytes, commitment: bytes) -> int | None:
    """The card id that ``commitment`` hides at ``position`` with ``salt`` (tries all 53),
    or ``None`` if none does. Used to name what a wrong commitment was for."""
    for card in range(DECK_SIZE):
        if card_commitment(game_id, position, card, salt) == commitment:
            return card
    return None


# --------------------------------------------------------------------------- host key


def key_fingerprint(public_key: bytes) -> str:
    """Short fingerprint of a raw 32-byte Ed25519 host public key, for people to compare:
    the first 10 bytes of ``SHA-256(TAG_KEY ‖ key)`` as 5 dash-separated hex groups,
    e.g. ``'3f2a-91c0-7be4-0d55-a1e3'``."""
    digest = hashlib.sha256(TAG_KEY + bytes(public_key)).hexdigest()[:20]
    return "-".join(digest[i : i + 4] for i in range(0, 20, 4))
