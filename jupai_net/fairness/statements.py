"""Signed statements: what the host says, as msgpack bodies with Ed25519 signatures
(specs/fairness.md §6).

A *signed statement* travels as opaque bytes: the msgpack array
``[body, signature]`` where ``body`` is a msgpack *bin* holding the msgpack-encoded
body map and ``signature`` is the 64-byte Ed25519 signature of
``TAG_STATEMENT ‖ body`` by the host signing key. Verifiers check the signature over
the stored body bytes and never re-encode a body. In a stream of version-3 bodies a
``step`` may carry an empty signature instead, deferred to the next signed statement of
its stream (specs/fairness.md §6.6).

Every body map has the fields ``v`` (1, 2 or 3), ``kind``, ``game`` (16-byte game id),
``to`` (the seat the statement is addressed to, ``nil`` for spectators) and ``n``
(its index in that addressee's stream, from 0), in a version-2 or -3 (*chained*) body then
``prev`` (the SHA-256 chain link to the statement before it in the same stream,
:func:`chain_link`), then the fields of its kind listed in :data:`KIND_FIELDS`
(specs/fairness.md §6.5: the last signature of a chained stream authenticates every
statement before it).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..cards import DECK_SIZE
from .keys import Weakness, key_weakness, signature_weakness
from .primitives import DIGEST_BYTES, FAIRNESS_VERSION, GAME_ID_BYTES, SALT_BYTES, SEED_BYTES, FairnessError

TAG_STATEMENT = b"jupai/v1/statement\x00"
#: Domain tag of the hash chain of a statement stream (specs/fairness.md §6.5).
TAG_CHAIN = b"jupai/v1/chain\x00"
#: Body version of the first format (no chain: every statement stands on its own signature).
PLAIN_BODY_VERSION = FAIRNESS_VERSION
#: Body version of the chained format: the common fields end with ``prev`` (§6.5).
CHAINED_BODY_VERSION = 2
#: Body version of the chained format whose ``step`` statements may come unsigned, their
#: signature *deferred* to the next signed statement of the stream (specs/fairness.md §6.6).
DEFERRED_BODY_VERSION = 3
BODY_VERSIONS = (PLAIN_BODY_VERSION, CHAINED_BODY_VERSION, DEFERRED_BODY_VERSION)
#: The body versions with ``prev`` (specs/fairness.md §6.5, §6.6).
CHAIN_BODY_VERSIONS = (CHAINED_BODY_VERSION, DEFERRED_BODY_VERSION)
#: The signature of a statement whose signature is deferred (§6.6): an empty byte string.
NO_SIGNATURE = b""
#: Addressee byte of the spectators' stream (``to`` nil) in :func:`chain_start`.
SPECTATOR_BYTE = 0xFE
SIGNATURE_BYTES = 64
PUBLIC_KEY_BYTES = 32
#: :class:`StatementError` reason of a signature that does not verify (as opposed to a
#: weak key or a non-canonical signature, whose reasons say so).
BAD_SIGNATURE = "signature does not verify with the host key"
#: Largest signed statement accepted (bytes).
MAX_STATEMENT_BYTES = 1 << 20

START = "start"
COMMITMENTS = "commitments"
SEEDS = "seeds"
DEAL = "deal"
STEP = "step"
END = "end"
ABANDON = "abandon"
#: Dealer-blind games (specs/fairness.md B.15.1): every participant's hello, then each
#: participant message relayed as the host received it.
HELLOS = "hellos"
BLIND = "blind"
#: A seat's move in a dealer-blind game, in deck positions, relayed before any card it
#: needs is opened (specs/fairness.md B.16.4, B.16.8).
CLAIM = "claim"
KINDS = (START, COMMITMENTS, SEEDS, DEAL, STEP, END, ABANDON, HELLOS, BLIND, CLAIM)
#: Largest participant message (B.5) a ``blind`` statement carries, and largest hello.
MAX_BLIND_MESSAGE = 32 * 1024
MAX_HELLO_MESSAGE = 512

#: Fields of each statement kind, after the common ``v, kind, game, to, n``, in encoding order.
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    START: ("rules", "seats", "host_commitment", "host_key"),
    COMMITMENTS: ("commitments",),
    SEEDS: ("seeds",),
    DEAL: ("commitments", "observation", "private", "public"),
    STEP: ("version", "actor", "action", "events", "private", "public"),
    END: ("host_seed", "ranking", "winner"),
    ABANDON: ("reason", "host_seed"),
    HELLOS: ("hellos",),
    BLIND: ("msg",),
    CLAIM: ("version", "actor", "action"),
}
COMMON_FIELDS = ("v", "kind", "game", "to", "n")
#: The common fields of a chained (version 2) body.
CHAINED_FIELDS = COMMON_FIELDS + ("prev",)


class StatementError(FairnessError):
    """A statement cannot be decoded, has a wrong shape, or its signature does not verify.
    ``signature`` is True when the problem is the signature."""

    def __init__(self, reason: str | None = None, *, signature: bool = False, **kw: Any):
        super().__init__(reason, **kw)
        self.signature = signature


# --------------------------------------------------------------------------- chain


def chain_start(game_id: bytes, to: int | None) -> bytes:
    """``prev`` of statement 0 of a chained stream (specs/fairness.md §6.5):
    ``SHA-256(TAG_CHAIN ‖ game_id(16) ‖ addressee(1))``, the addressee byte being the
    seat (0–5) or :data:`SPECTATOR_BYTE` for the spectators' stream. 32 bytes."""
    return hashlib.sha256(TAG_CHAIN + bytes(game_id) + bytes([SPECTATOR_BYTE if to is None else to])).digest()


def chain_link(body_bytes: bytes) -> bytes:
    """``prev`` of the statement after the one whose signed body is ``body_bytes`` in
    the same stream (specs/fairness.md §6.5): ``SHA-256(TAG_CHAIN ‖ body_bytes)``. 32 bytes."""
    return hashlib.sha256(TAG_CHAIN + body_bytes).digest()


# --------------------------------------------------------------------------- keys


def generate_signing_key() -> Ed25519PrivateKey:
    """A fresh Ed25519 host signing key (OS CSPRNG, via ``cryptography``)."""
    return Ed25519PrivateKey.generate()


def signing_key_from_bytes(raw: bytes) -> Ed25519PrivateKey:
    """Load a host signing key from its 32 raw private bytes."""
    return Ed25519PrivateKey.from_private_bytes(raw)


def signing_key_to_bytes(key: Ed25519PrivateKey) -> bytes:
    """The 32 raw private bytes of a host signing key (keep them secret)."""
    return key.private_bytes_raw()  # not serialization.*: that module costs `jupai verify` ~30 ms to import


def public_key_bytes(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    """The 32 raw bytes of the public half of ``key``."""
    pub = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return pub.public_bytes_raw()


# --------------------------------------------------------------------------- msgpack


def pack(obj: Any) -> bytes:
    """msgpack encoding used everywhere here (``use_bin_type=True``, str as UTF-8)."""
    return msgpack.packb(obj, use_bin_type=True)


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack extension type {code} is not allowed")


def _pairs_no_duplicates(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """Map hook of :func:`unpack` with ``unique_keys``: str keys only (msgpack's
    ``strict_map_key`` lets bin keys through), no key twice, no timestamp value (the
    timestamp extension bypasses ``ext_hook``)."""
    out: dict[Any, Any] = {}
    for key, value in pairs:
        if type(key) is not str:
            raise ValueError(f"a map key is not a string: {str(key)[:40]!r}")
        if key in out:
            raise ValueError(f"a map repeats the key {str(key)[:40]!r} (duplicate keys are refused)")
        if type(value) is msgpack.Timestamp:
            raise ValueError("msgpack extension type -1 (timestamp) is not allowed")
        out[key] = value
    return out


def _list_no_timestamps(items: list[Any]) -> list[Any]:
    """Array hook of :func:`unpack` with ``unique_keys``: no timestamp in an array."""
    for item in items:
        if type(item) is msgpack.Timestamp:
            raise ValueError("msgpack extension type -1 (timestamp) is not allowed")
    return items


@functools.lru_cache(maxsize=16)
def _unpack_options(max_len: int, unique_keys: bool) -> dict[str, Any]:
    """msgpack's options for :func:`unpack` (the same on its fast and its incremental path;
    made once per limit: callers only read them)."""
    return dict(
        object_pairs_hook=_pairs_no_duplicates if unique_keys else None,
        list_hook=_list_no_timestamps if unique_keys else None,
        raw=False,
        strict_map_key=True,
        ext_hook=_no_ext,
        timestamp=0,
        max_str_len=max_len,
        max_bin_len=max_len,
        max_array_len=100_000,
        max_map_len=10_000,
    )


#: :func:`decode_body`'s options: the limits of :func:`unpack`, no Python hooks.
_FAST_BODY = _unpack_options(MAX_STATEMENT_BYTES, unique_keys=False)


def unpack(data: bytes, *, max_len: int = MAX_STATEMENT_BYTES, unique_keys: bool = False) -> Any:
    """Decode untrusted msgpack: str (or, without ``unique_keys``, bin) keys only, no
    extension types (the timestamp only with ``unique_keys``), bounded sizes; with
    ``unique_keys`` a map that repeats a key is refused too.
    Raises ``ValueError`` (``msgpack.OutOfData`` when cut short).

    Valid data is decoded in one call of ``msgpack.unpackb`` (same limits and hooks);
    only when that fails does the incremental ``Unpacker`` run again, to raise the
    exact error it always raised (``OutOfData``, trailing bytes, a hook's reason)."""
    options = _unpack_options(max_len, unique_keys)  # the same limits and hooks on both paths
    if len(data) <= max_len:
        try:
            return msgpack.unpackb(data, **options)
        except (ValueError, TypeError, msgpack.UnpackException):
            pass  # the path below names the problem as it always did
    unpacker = msgpack.Unpacker(max_buffer_size=max(max_len, 1), **options)
    if len(data) > max_len:
        raise ValueError(f"{len(data)} bytes is more than the limit of {max_len}")
    unpacker.feed(data)
    obj = unpacker.unpack()  # OutOfData if truncated
    if unpacker.tell() != len(data):  # (cheaper than a second unpack() ending in OutOfData)
        raise ValueError("extra data after the msgpack value")
    return obj


def unpack_canonical(data: bytes, *, max_len: int = MAX_STATEMENT_BYTES) -> Any:
    """Decode a signed body, which must be in canonical msgpack (specs/fairness.md §6.1):
    no map repeats a key, and re-encoding the decoded value with :func:`pack` (map keys
    in the order found) gives back exactly ``data`` — so every integer in its smallest
    form, floats as float 64, strings as str and byte strings as bin in their smallest
    header, no extension types. Raises ``ValueError`` naming the problem
    (``msgpack.OutOfData`` when cut short)."""
    obj = unpack(data, max_len=max_len, unique_keys=True)
    if type(obj) is msgpack.Timestamp:
        raise ValueError("msgpack extension type -1 (timestamp) is not allowed")
    if pack(obj) != bytes(data):
        raise ValueError("not canonical msgpack: re-encoding the decoded value gives other bytes "
                         "(an integer, string or container not in its shortest form, a float 32, "
                         "or an int written as a float)")
    return obj


def canonical(obj: Any) -> Any:
    """``obj`` as it reads back after a msgpack round trip (tuples become lists), so a
    recomputed value compares equal to a decoded one."""
    return msgpack.unpackb(pack(obj), raw=False, strict_map_key=False)


# --------------------------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class Statement:
    """One decoded signed statement. ``body`` is the decoded body map, ``body_bytes``
    the exact signed bytes, ``signature`` 64 bytes, ``raw`` the wire bytes."""

    body: dict[str, Any]
    body_bytes: bytes
    signature: bytes
    raw: bytes

    @property
    def kind(self) -> str:
        """Statement kind (one of :data:`KINDS`)."""
        return self.body["kind"]

    @property
    def game_id(self) -> bytes:
        """The 16-byte game id."""
        return self.body["game"]

    @property
    def to(self) -> int | None:
        """Addressee seat, ``None`` for spectators."""
        return self.body["to"]

    @property
    def n(self) -> int:
        """Index of this statement in the addressee's stream."""
        return self.body["n"]

    def __getitem__(self, field: str) -> Any:
        return self.body[field]


def sign_statement(key: Ed25519PrivateKey, body: dict[str, Any], *, check: bool = True) -> bytes:
    """Encode ``body`` and sign it: returns the wire bytes ``pack([body_bytes, signature])``.
    The body is validated first (:func:`check_body`; raises :class:`StatementError`)
    unless ``check`` is False: the host's dealer signs bodies it built itself with
    :func:`make_body` from its own state, and every witness checks them on arrival."""
    if check:
        check_body(body)
    return sign_packed(key, pack(body))


def sign_packed(key: Ed25519PrivateKey, body_bytes: bytes) -> bytes:
    """Sign an already packed body: the wire bytes ``pack([body_bytes, signature])``.
    Ed25519 signatures are deterministic (RFC 8032 §5.1.6), so signing the same bytes
    later gives the same statement byte for byte (the host signs its spectators'
    stream only once someone watches, specs/performance.md § Host)."""
    return pack([body_bytes, key.sign(TAG_STATEMENT + body_bytes)])


def unsigned_packed(body_bytes: bytes) -> bytes:
    """The wire bytes ``pack([body_bytes, b""])`` of a statement whose signature is
    deferred to the next signed statement of its stream (a ``step`` in a version-3
    body, specs/fairness.md §6.6)."""
    return pack([body_bytes, NO_SIGNATURE])


def split_statement(raw: Any) -> tuple[bytes, bytes]:
    """Split wire bytes into ``(body_bytes, signature)`` without checking anything else.
    Raises :class:`StatementError` if they are not a msgpack ``[bin, bin(64)]`` or
    ``[bin, bin(0)]`` (a deferred signature, specs/fairness.md §6.6: whether the body
    may go unsigned is the verifier's business)."""
    if not isinstance(raw, (bytes, bytearray)):
        raise StatementError(code="stmt_not_bytes")
    try:
        outer = unpack(bytes(raw))
    except msgpack.OutOfData:
        raise StatementError(code="stmt_cut") from None
    except (ValueError, TypeError) as exc:
        raise StatementError(code="stmt_not_msgpack", args={"detail": str(exc)}) from None
    if (
        not isinstance(outer, list)
        or len(outer) != 2
        or not isinstance(outer[0], bytes)
        or not isinstance(outer[1], bytes)
        or len(outer[1]) not in (SIGNATURE_BYTES, 0)
    ):
        raise StatementError(code="stmt_not_pair")
    return outer[0], outer[1]


def join_statement(body_bytes: bytes, signature: bytes) -> bytes:
    """Wire bytes ``pack([body_bytes, signature])`` from the two parts, e.g. when the
    wire protocol carries them as separate fields (inverse of :func:`split_statement`)."""
    return pack([bytes(body_bytes), bytes(signature)])


def peek_kind(raw: bytes) -> str:
    """The ``kind`` of a signed statement, WITHOUT checking the signature (for dispatch
    and display only; the witness checks everything). Raises :class:`StatementError`."""
    body_bytes, _ = split_statement(raw)
    try:
        body = unpack(body_bytes)
    except (ValueError, TypeError) as exc:
        raise StatementError(code="body_not_msgpack", args={"detail": str(exc)}) from None
    kind = body.get("kind") if isinstance(body, dict) else None
    if not isinstance(kind, str) or kind not in KIND_FIELDS:
        raise StatementError(code="unknown_kind", args={"found": repr(kind)})
    return kind


def verify_signature(public_key: bytes, body_bytes: bytes, signature: bytes) -> None:
    """Raise :class:`StatementError` (``signature=True``) unless ``signature`` is the host
    key's Ed25519 signature of ``TAG_STATEMENT ‖ body_bytes``, the key is not weak and
    the signature is canonical (:mod:`.keys`, specs/fairness.md §6.3); the reason then
    says which. The key object of each host key is built once (:func:`_host_key`)."""
    key = _host_key(bytes(public_key)) if isinstance(public_key, (bytes, bytearray)) else key_weakness(public_key)
    why = (key if isinstance(key, str) and key != BAD_SIGNATURE else None) or signature_weakness(signature)
    if why:
        # said from its code in every language (the English is the same sentence)
        if isinstance(why, Weakness):
            raise StatementError(signature=True, code="signature_refused_why",
                                 args={"weakness": {"code": why.code, "args": dict(why.args)}})
        raise StatementError(signature=True, code="signature_refused", args={"detail": str(why)})
    try:
        if isinstance(key, str):
            raise ValueError(key)
        key.verify(signature, TAG_STATEMENT + body_bytes)
    except (InvalidSignature, ValueError):
        raise StatementError(BAD_SIGNATURE, signature=True) from None


@functools.lru_cache(maxsize=64)
def _host_key(public_key: bytes) -> Ed25519PublicKey | str:
    """The key object of a raw Ed25519 public key, or why the key is refused
    (:func:`~.keys.key_weakness`); cached: a game's statements all carry one key."""
    why = key_weakness(public_key)
    if why:
        return why
    try:
        return Ed25519PublicKey.from_public_bytes(public_key)
    except ValueError:
        return BAD_SIGNATURE


def decode_body(body_bytes: bytes) -> dict[str, Any]:
    """Decode a body in canonical msgpack (:func:`unpack_canonical`) and validate the map
    (:func:`check_body`). Raises :class:`StatementError`.

    A valid body is decoded once without the Python hooks of :func:`unpack` (same
    limits): re-encoding it gives back ``body_bytes`` exactly (so no map repeats a key:
    the decoded map would be shorter) and :func:`check_body` accepts it (every field has
    an exact type, which a timestamp or a non-string key never has). Anything else goes
    the checking way (:func:`_decode_body_checking`), which names the problem as it
    always did."""
    if len(body_bytes) <= MAX_STATEMENT_BYTES:
        try:
            body = msgpack.unpackb(body_bytes, **_FAST_BODY)
            if pack(body) == body_bytes:
                check_body(body)
                return body
        except Exception:  # noqa: BLE001 - any failure: the checking way says which
            pass
    return _decode_body_checking(body_bytes)


def _decode_body_checking(body_bytes: bytes) -> dict[str, Any]:
    """:func:`decode_body` the checking way: :func:`unpack_canonical`, then :func:`check_body`."""
    try:
        body = unpack_canonical(body_bytes)
    except msgpack.OutOfData:
        raise StatementError(code="body_cut") from None
    except (ValueError, TypeError) as exc:
        raise StatementError(code="body_not_msgpack", args={"detail": str(exc)}) from None
    check_body(body)
    return body


def decode_statement(raw: bytes, public_key: bytes | None) -> Statement:
    """Decode wire bytes into a :class:`Statement`, checking the signature against
    ``public_key`` (32 raw bytes) first. With ``public_key=None`` the key is taken from
    the body itself, which must then be a ``start`` statement (it carries ``host_key``).
    Raises :class:`StatementError`."""
    body_bytes, sig = split_statement(raw)
    if public_key is not None:
        verify_signature(public_key, body_bytes, sig)
        body = decode_body(body_bytes)
    else:
        body = decode_body(body_bytes)
        if body["kind"] != START:
            raise StatementError(code="first_not_start", args={"found_kind": body["kind"]})
        verify_signature(body["host_key"], body_bytes, sig)
    return Statement(body, body_bytes, sig, bytes(raw))


# --------------------------------------------------------------------------- schema


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _bad(field: str, what: str) -> StatementError:
    return StatementError(code="field_bad", args={"field": field, "detail": what})


def _need_bin(body: dict, field: str, size: int, *, optional: bool = False) -> None:
    v = body[field]
    if optional and v is None:
        return
    if not isinstance(v, bytes) or len(v) != size:
        raise _bad(field, f"must be {size} bytes")


def _need_bin_list(body: dict, field: str, count: int | None, size: int) -> None:
    v = body[field]
    if not isinstance(v, list) or (count is not None and len(v) != count):
        raise _bad(field, f"must be a list of {count if count is not None else 'some'} entries")
    if not all(isinstance(x, bytes) and len(x) == size for x in v):
        raise _bad(field, f"entries must be {size} bytes each")


def _need_reveals(body: dict, field: str) -> None:
    v = body[field]
    if not isinstance(v, list) or len(v) > DECK_SIZE:
        raise _bad(field, "must be a list of [position, card, salt] reveals")
    for r in v:
        if (type(r) is list and len(r) == 3 and type(r[0]) is int and type(r[1]) is int and type(r[2]) is bytes
                and 0 <= r[0] < DECK_SIZE and 0 <= r[1] < DECK_SIZE and len(r[2]) == SALT_BYTES):
            continue  # the exact types msgpack decodes to: the checks below in one expression
        if (
            not isinstance(r, list)
            or len(r) != 3
            or not _is_int(r[0])
            or not 0 <= r[0] < DECK_SIZE
            or not _is_int(r[1])
            or not 0 <= r[1] < DECK_SIZE
            or not isinstance(r[2], bytes)
            or len(r[2]) != SALT_BYTES
        ):
            raise _bad(field, "entries must be [position 0..52, card 0..52, 32-byte salt]")


_SCALARS = frozenset({type(None), bool, int, float, str, bytes})
_MAX_DEPTH = 32


def _plain(x: Any, depth: int = 0) -> bool:
    """True when ``x`` holds only nil/bool/int/float/str/bytes, lists and maps with
    string keys, nested at most ``32 - depth`` levels below it (``depth=-1``: each
    item of the list ``x`` checked as if alone). Iterative, with exact-type fast
    paths (every decoded body is checked: this runs on every value of a transcript)."""
    stack = [(x, depth)]
    pop, push = stack.pop, stack.append
    while stack:
        v, depth = pop()
        if depth > _MAX_DEPTH:
            return False
        t = type(v)
        if t is dict or (t not in _SCALARS and t is not list and isinstance(v, dict)):
            for k, y in v.items():
                if type(k) is not str and not isinstance(k, str):
                    return False
                if type(y) not in _SCALARS or depth >= _MAX_DEPTH:
                    push((y, depth + 1))
        elif t is list or t is tuple or (t not in _SCALARS and isinstance(v, (list, tuple))):
            for y in v:
                if type(y) not in _SCALARS or depth >= _MAX_DEPTH:
                    push((y, depth + 1))
        elif t not in _SCALARS and not (v is None or isinstance(v, (bool, int, float, str, bytes))):
            return False
    return True


def _need_move(body: dict, *, first_version: int) -> None:
    """The ``version``, ``actor`` and ``action`` fields of a ``step`` (versions from 1:
    after the action) or a ``claim`` (from 0: the state it answers)."""
    version, actor = body["version"], body["actor"]
    if not (type(version) is int or _is_int(version)) or version < first_version:
        raise _bad("version", f"must be a whole number >= {first_version}")
    if not (type(actor) is int or _is_int(actor)) or not 0 <= actor <= 5:
        raise _bad("actor", "must be a seat 0..5")
    if not isinstance(body["action"], dict) or not _plain(body["action"]):
        raise _bad("action", "must be a map")


def check_body(body: Any) -> None:
    """Validate the shape of a statement body (specs/fairness.md §6.2): the common fields,
    then the fields of its kind, no others. Raises :class:`StatementError` naming the field."""
    if not isinstance(body, dict):
        raise StatementError(code="body_not_map")
    kind = body.get("kind")
    if not isinstance(kind, str) or kind not in KIND_FIELDS:
        raise StatementError(code="unknown_kind", args={"found": repr(kind)})
    version = body.get("v")
    chained = version in CHAIN_BODY_VERSIONS and _is_int(version)
    expected = (CHAINED_FIELDS if chained else COMMON_FIELDS) + KIND_FIELDS[kind]
    missing = [f for f in expected if f not in body]
    extra = [str(f) for f in body if f not in expected]
    if missing:
        raise StatementError(code="lacks_fields", args={"kind": kind, "fields": ", ".join(missing)})
    if extra:
        raise StatementError(code="unknown_fields", args={"kind": kind, "fields": ", ".join(sorted(extra))})
    if body["v"] not in BODY_VERSIONS or not _is_int(body["v"]):
        raise StatementError(code="body_version", args={"found": repr(body["v"]), "plain": PLAIN_BODY_VERSION,
                                                         "chained": CHAINED_BODY_VERSION,
                                                         "deferred": DEFERRED_BODY_VERSION})
    _need_bin(body, "game", GAME_ID_BYTES)
    if body["to"] is not None and not (_is_int(body["to"]) and 0 <= body["to"] <= 5):
        raise _bad("to", "must be a seat 0..5 or nil")
    if not _is_int(body["n"]) or body["n"] < 0:
        raise _bad("n", "must be a whole number >= 0")
    if chained:
        _need_bin(body, "prev", DIGEST_BYTES)
    if kind == START:
        if not isinstance(body["rules"], dict) or not _plain(body["rules"]):
            raise _bad("rules", "must be a map of rule settings")
        if not _is_int(body["seats"]) or not 2 <= body["seats"] <= 6:
            raise _bad("seats", "must be 2..6")
        _need_bin(body, "host_commitment", DIGEST_BYTES)
        _need_bin(body, "host_key", PUBLIC_KEY_BYTES)
    elif kind == COMMITMENTS:
        _need_bin_list(body, "commitments", None, DIGEST_BYTES)
    elif kind == SEEDS:
        _need_bin_list(body, "seeds", None, SEED_BYTES)
    elif kind == DEAL:
        _need_bin_list(body, "commitments", DECK_SIZE, DIGEST_BYTES)
        if not isinstance(body["observation"], dict) or not _plain(body["observation"]):
            raise _bad("observation", "must be a map")
        _need_reveals(body, "private")
        _need_reveals(body, "public")
    elif kind == STEP:
        _need_move(body, first_version=1)
        events = body["events"]
        if (not isinstance(events, list) or not all(type(e) is dict or isinstance(e, dict) for e in events)
                or not _plain(events, -1)):  # each event as deep as if alone
            raise _bad("events", "must be a list of maps")
        _need_reveals(body, "private")
        _need_reveals(body, "public")
    elif kind == END:
        _need_bin(body, "host_seed", SEED_BYTES)
        if not isinstance(body["ranking"], list) or not all(_is_int(s) for s in body["ranking"]):
            raise _bad("ranking", "must be a list of seats")
        if body["winner"] is not None and not _is_int(body["winner"]):
            raise _bad("winner", "must be a seat or nil")
    elif kind == ABANDON:
        if not isinstance(body["reason"], str):
            raise _bad("reason", "must be a string")
        _need_bin(body, "host_seed", SEED_BYTES, optional=True)
    elif kind == HELLOS:
        v = body["hellos"]
        if not isinstance(v, list) or not 3 <= len(v) <= 7 or not all(isinstance(x, bytes) and 0 < len(x) <= MAX_HELLO_MESSAGE for x in v):
            raise _bad("hellos", f"must be a list of 3..7 participant hellos of 1..{MAX_HELLO_MESSAGE} bytes")
    elif kind == CLAIM:
        _need_move(body, first_version=0)
    elif kind == BLIND:
        if not isinstance(body["msg"], bytes) or not 0 < len(body["msg"]) <= MAX_BLIND_MESSAGE:
            raise _bad("msg", f"must be a participant message of 1..{MAX_BLIND_MESSAGE} bytes")


def make_body(kind: str, game_id: bytes, to: int | None, n: int, prev: bytes | None = None,
              *, deferrable: bool = False, **fields: Any) -> dict[str, Any]:
    """A body map with the common fields first, then ``fields`` in :data:`KIND_FIELDS`
    order: a chained body when ``prev`` (32 bytes, :func:`chain_start` or
    :func:`chain_link`) is given — version 3 with ``deferrable`` (a stream whose steps
    may come unsigned, §6.6), else version 2 — and a version-1 body without ``prev``
    (specs/fairness.md §6.2, §6.5)."""
    body: dict[str, Any] = {"v": PLAIN_BODY_VERSION, "kind": kind, "game": game_id, "to": to, "n": n}
    if prev is not None:
        body["v"] = DEFERRED_BODY_VERSION if deferrable else CHAINED_BODY_VERSION
        body["prev"] = prev
    for f in KIND_FIELDS[kind]:
        body[f] = fields[f]
    return body


#: The bytes after the map header with which :func:`pack` of a :func:`make_body` body of
#: each kind begins (``"v"``, the version, ``"kind"``, the kind), for :func:`made_kind`.
_KIND_PREFIXES = tuple(
    (kind, msgpack.packb({"v": version, "kind": kind}, use_bin_type=True)[1:])
    for version in (DEFERRED_BODY_VERSION, CHAINED_BODY_VERSION, PLAIN_BODY_VERSION)
    for kind in sorted(KINDS, key=lambda k: k not in (STEP, CLAIM, BLIND))  # one per action first
)


def made_kind(body_bytes: bytes) -> str | None:
    """The kind of a body this process built with :func:`make_body` and packed, read from
    its first bytes without decoding the rest (the host tags its own statements with it);
    ``None`` when the bytes do not begin like such a body. Not a check: a statement from
    elsewhere goes through :func:`decode_body`."""
    for kind, prefix in _KIND_PREFIXES:
        if body_bytes.startswith(prefix, 1):
            return kind
    return None
