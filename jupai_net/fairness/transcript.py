"""Transcript files: what one seat saw, in order (specs/fairness.md §7).

A transcript file is ONE msgpack map, keys in this order::

    {"format": "jupai-transcript", "v": 1,
     "seat": <int 0..5 | nil for a spectator>,
     "seed": <bin 32: the seat's own seed | nil>,
     "statements": [<bin: signed statement wire bytes>, ...],   # in the order received
     "host_gone": <str: local note, the host stopped before the end | nil>,
     "left": <str: local note, this seat left before the end>,     # optional key
     "host_cert": <bin: DER of the host certificate this seat pinned>,   # optional key
     "host_moves": [[<int: state version>, <str: "away" | "timeout">], ...],  # optional key
     "meta": {"saved": <str: ISO 8601 time>, "table": <str>, "address": <str>, "names": [<str>, ...]},  # optional key
     "seed_sent": <int: statements received when this seat sent its seed>,  # optional key
     "cut_short": [[<int: step version>, <int: turn ms>, <int: prompt heard, unix ms>,
                    <int: time-out heard, unix ms>, <int: ms between the two>], ...]}  # optional key

The statements are stored as the exact bytes received (their signatures cover
them); ``host_gone`` and ``left`` are written by the seat itself and are not
signed. ``left`` and ``host_cert`` are written only when set (a file without them
is byte-identical to one written before the keys existed); so is ``host_moves``,
the seat's own unsigned list of the steps the host played for it (while it was away,
or after a time-out). ``meta`` (optional, unsigned, for people: ``jupai history`` and
``jupai replay``) says when the file was saved, at which table and the players' names
by seat, as the saving program knew them; verifiers ignore it. ``seed_sent`` (optional,
unsigned) is the seat's own note that it sent its seed, after that many statements
(at least 2: ``start`` and ``commitments``); it is written only while the file holds no
``seeds`` statement, and makes any unfinished end *suspicious* (specs/fairness.md §9).
``cut_short`` (optional, unsigned) is the seat's own record of the time-outs the host
announced before the turn's time was up by this seat's clock (specs/fairness.md §9.3):
the step the host then played, the turn's time the prompt gave, when the prompt and
the time-out were heard (wall clock, for people) and the time between them (monotonic
clock: what counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

from .primitives import SEED_BYTES, FairnessError
from .statements import pack, unpack

FORMAT_NAME = "jupai-transcript"
TRANSCRIPT_VERSION = 1
#: Largest transcript file read (bytes).
MAX_TRANSCRIPT_BYTES = 64 << 20
_KEYS = ("format", "v", "seat", "seed", "statements", "host_gone")
#: Keys a file may leave out (written only when set).
_OPTIONAL_KEYS = ("left", "host_cert", "host_moves", "meta", "seed_sent", "cut_short")
#: Fields of a ``cut_short`` entry (specs/fairness.md §7, §9.3), all ints ≥ 0.
CUT_SHORT_FIELDS = ("step", "timeout_ms", "prompt_heard_ms", "timeout_heard_ms", "after_ms")
#: ``meta``: at most this many keys, each value a string or a list of strings of at
#: most :data:`MAX_META_TEXT` characters (lists of at most 6).
MAX_META_KEYS = 8
MAX_META_TEXT = 200
#: Largest certificate kept in a transcript (bytes).
MAX_CERT_BYTES = 16 << 10


class TranscriptError(FairnessError):
    """A transcript file cannot be read: not msgpack, cut short (``truncated``), wrong
    format name or version, or a field of the wrong shape."""

    def __init__(self, reason: str | None = None, *, truncated: bool = False, code: str | None = None,
                 args: dict[str, Any] | None = None):
        super().__init__(reason, code=code, args=args)
        self.truncated = truncated


@dataclass(frozen=True, slots=True)
class Transcript:
    """A decoded transcript file. ``statements`` are signed statement wire bytes."""

    seat: int | None
    seed: bytes | None
    statements: tuple[bytes, ...]
    host_gone: str | None = None
    left: str | None = None
    host_cert: bytes | None = None
    host_moves: tuple[tuple[int, str], ...] = ()
    meta: dict[str, Any] | None = None
    seed_sent: int | None = None
    #: ``(step, timeout_ms, prompt_heard_ms, timeout_heard_ms, after_ms)`` per time-out
    #: the host announced early by this seat's clock (:data:`CUT_SHORT_FIELDS`).
    cut_short: tuple[tuple[int, int, int, int, int], ...] = ()

    def encode(self) -> bytes:
        """The file bytes (see module docstring)."""
        return encode_transcript(self)


def encode_transcript(t: Transcript) -> bytes:
    """Encode a :class:`Transcript` into file bytes."""
    obj = {
        "format": FORMAT_NAME,
        "v": TRANSCRIPT_VERSION,
        "seat": t.seat,
        "seed": t.seed,
        "statements": list(t.statements),
        "host_gone": t.host_gone,
    }
    if t.left is not None:
        obj["left"] = t.left
    if t.host_cert is not None:
        obj["host_cert"] = t.host_cert
    if t.host_moves:
        obj["host_moves"] = [[v, why] for v, why in t.host_moves]
    if t.meta:
        obj["meta"] = dict(t.meta)
    if t.seed_sent is not None:
        obj["seed_sent"] = t.seed_sent
    if t.cut_short:
        obj["cut_short"] = [list(entry) for entry in t.cut_short]
    return pack(obj)


def decode_transcript(data: bytes) -> Transcript:
    """Decode file bytes into a :class:`Transcript`. Never raises anything but
    :class:`TranscriptError` (``truncated=True`` when the bytes stop mid-value); a map
    that repeats a key is refused, like in a signed body (specs/fairness.md §7)."""
    if not isinstance(data, (bytes, bytearray)):
        raise TranscriptError(code="file_not_bytes")
    if not data:
        raise TranscriptError(code="file_empty", truncated=True)
    try:
        obj = unpack(bytes(data), max_len=MAX_TRANSCRIPT_BYTES, unique_keys=True)  # a repeated key: refused (§7)
    except msgpack.OutOfData:
        raise TranscriptError(code="file_cut", truncated=True) from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise TranscriptError(code="file_not_msgpack", args={"detail": str(exc)}) from None
    except Exception as exc:  # msgpack raises a few other types on hostile input
        raise TranscriptError(code="file_not_msgpack", args={"detail": type(exc).__name__}) from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT_NAME:
        raise TranscriptError(code="file_no_format", args={"format": FORMAT_NAME})
    if obj.get("v") != TRANSCRIPT_VERSION:
        raise TranscriptError(code="file_version", args={"found": repr(obj.get("v")), "version": TRANSCRIPT_VERSION})
    extra = sorted(str(k) for k in obj if k not in _KEYS and k not in _OPTIONAL_KEYS)
    missing = [k for k in _KEYS if k not in obj]
    if missing or extra:
        raise TranscriptError(code="file_fields", args={"detail": ", ".join([f"missing {k}" for k in missing]
                                                                           + [f"unknown {k}" for k in extra])})
    seat, seed, stmts, gone = obj["seat"], obj["seed"], obj["statements"], obj["host_gone"]
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 5):
        raise TranscriptError(code="file_field", args={"field": "seat", "detail": "must be 0..5 or nil"})
    if seed is not None and (not isinstance(seed, bytes) or len(seed) != SEED_BYTES):
        raise TranscriptError(code="file_field", args={"field": "seed", "detail": f"must be {SEED_BYTES} bytes or nil"})
    if (seat is None) != (seed is None):
        raise TranscriptError(code="file_seat_seed")
    if not isinstance(stmts, list) or not all(isinstance(s, bytes) for s in stmts):
        raise TranscriptError(code="file_field", args={"field": "statements", "detail": "must be a list of byte strings"})
    if gone is not None and not isinstance(gone, str):
        raise TranscriptError(code="file_field", args={"field": "host_gone", "detail": "must be a string or nil"})
    left = obj.get("left")
    if left is not None and not isinstance(left, str):
        raise TranscriptError(code="file_field", args={"field": "left", "detail": "must be a string or nil"})
    cert = obj.get("host_cert")
    if cert is not None and (not isinstance(cert, bytes) or not 0 < len(cert) <= MAX_CERT_BYTES):
        raise TranscriptError(code="file_field", args={"field": "host_cert", "detail": f"must be the DER bytes of a certificate (at most {MAX_CERT_BYTES} bytes)"})
    moves = obj.get("host_moves", [])
    if not isinstance(moves, list) or not all(
            isinstance(m, list) and len(m) == 2 and isinstance(m[0], int) and not isinstance(m[0], bool)
            and isinstance(m[1], str) for m in moves):
        raise TranscriptError(code="file_field", args={"field": "host_moves", "detail": "must be a list of [version, reason] pairs"})
    meta = obj.get("meta")
    if meta is not None and not _meta_ok(meta):
        raise TranscriptError(code="file_field", args={"field": "meta", "detail": f"must be a map of at most {MAX_META_KEYS} keys, "
                              f"each a string or a list of at most 6 strings (at most {MAX_META_TEXT} characters)"})
    sent = obj.get("seed_sent")
    if sent is not None and (seat is None or isinstance(sent, bool) or not isinstance(sent, int)
                             or not 2 <= sent <= len(stmts)):
        raise TranscriptError(code="file_field", args={"field": "seed_sent", "detail": "must be the number of statements "
                              f"the seat had received when it sent its seed: 2 (start and commitments) to {len(stmts)}"})
    cut = obj.get("cut_short", [])
    if not isinstance(cut, list) or len(cut) > len(stmts) or not all(
            isinstance(e, list) and len(e) == len(CUT_SHORT_FIELDS)
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 1 << 63 for x in e) for e in cut):
        raise TranscriptError(code="file_field", args={"field": "cut_short", "detail": "must be a list of "
                              "[step, turn ms, prompt heard ms, time-out heard ms, ms between] lists of "
                              "whole numbers (at most one per statement)"})
    return Transcript(seat, seed, tuple(stmts), gone, left, cert, tuple((m[0], m[1]) for m in moves), meta, sent,
                      tuple((e[0], e[1], e[2], e[3], e[4]) for e in cut))


def _meta_ok(meta: Any) -> bool:
    def text(x: Any) -> bool:
        return isinstance(x, str) and len(x) <= MAX_META_TEXT

    return isinstance(meta, dict) and len(meta) <= MAX_META_KEYS and all(
        text(k) and (text(v) or (isinstance(v, list) and len(v) <= 6 and all(text(i) for i in v)))
        for k, v in meta.items())
