"""Frames: a 4-byte big-endian length, then one msgpack value (specs/protocol.md § Frames).

:func:`encode_frame` packs a value; :class:`FrameReader` buffers received bytes and
cuts them into payloads, refusing an oversize frame as soon as its length prefix
has arrived (before buffering the payload); :func:`decode_payload` unpacks one
payload with the strict limits of :mod:`.limits`. All peer-caused failures raise
:class:`~.errors.RemoteProtocolError`; nothing else escapes.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import msgpack

from .errors import BAD_MSGPACK, FRAME_TOO_LARGE, TRUNCATED, LocalProtocolError, RemoteProtocolError
from .limits import HEADER_SIZE, MAX_FRAME, UNPACK_LIMITS


def encode_frame(value: Any, max_frame: int = MAX_FRAME) -> bytes:
    """Pack ``value`` (msgpack types only; ``bytes`` become bin) and prefix its length.

    Raises :class:`LocalProtocolError` ``frame-too-large`` if the payload exceeds
    ``max_frame`` bytes, and ``TypeError`` for a value msgpack cannot pack.
    """
    return frame_payload(msgpack.packb(value, use_bin_type=True), max_frame)


def frame_payload(payload: bytes, max_frame: int = MAX_FRAME) -> bytes:
    """Prefix an already packed ``payload`` with its length (as :func:`encode_frame`)."""
    if len(payload) > max_frame:
        raise LocalProtocolError(
            FRAME_TOO_LARGE, f"message of {len(payload)} bytes exceeds the {max_frame}-byte frame limit"
        )
    return len(payload).to_bytes(HEADER_SIZE, "big") + payload


def decode_payload(payload: bytes) -> Any:
    """Unpack exactly one msgpack value from ``payload`` with the strict limits.

    Raises :class:`RemoteProtocolError` ``bad-msgpack`` for anything that is not
    exactly one valid value within the limits (bad bytes, trailing data, ext types,
    invalid UTF-8, non-string map keys, too long/deep).
    """
    try:
        return msgpack.unpackb(payload, **UNPACK_LIMITS)
    except Exception as exc:  # noqa: BLE001 - untrusted input: every decoder failure is the peer's
        detail = str(exc) or type(exc).__name__
        raise RemoteProtocolError(BAD_MSGPACK, f"frame is not one valid msgpack value: {detail}") from None


def _container_header(n: int, small: int, word: int) -> bytes:
    if n < 16:
        return bytes([small | n])
    if n < 1 << 16:
        return bytes([word]) + n.to_bytes(2, "big")
    return bytes([word + 1]) + n.to_bytes(4, "big")


def map_header(n: int) -> bytes:
    """The msgpack header of a map of ``n`` entries (fixmap, map 16 or map 32)."""
    return _container_header(n, 0x80, 0xDE)


def array_header(n: int) -> bytes:
    """The msgpack header of an array of ``n`` items (fixarray, array 16 or array 32)."""
    return _container_header(n, 0x90, 0xDC)


class SharedPacker:
    """msgpack encoding of maps made of parts that stay the same from one map to the next
    (specs/performance.md § Host): the items of the lists under :attr:`shared` keys are
    maps that their owner builds once and replaces, never changes (the engine's event
    log entries and ``players`` entries, shared by every seat's observation, specs/rules.md
    §13); each such list is packed once per sequence of item objects, each item once
    while it is the same object. The result is byte for byte
    ``msgpack.packb(value, use_bin_type=True)``.

    The caches hold the objects they have bytes for (so an id is not reused while
    cached), in two generations of up to ``size`` entries: what is not used during a
    whole generation is let go."""

    def __init__(self, shared: frozenset[str], size: int = 4096):
        self.shared = shared
        self.size = size
        self._new: dict[Any, tuple[Any, bytes]] = {}
        self._old: dict[Any, tuple[Any, bytes]] = {}
        self._packer = msgpack.Packer(use_bin_type=True)
        #: keys of a map, in order -> the plan to pack it: runs of plain keys (packed
        #: together, their map header cut) and shared keys (with their packed name)
        self._plans: dict[tuple[str, ...], tuple[tuple[Any, ...], ...]] = {}

    def _cached(self, key: Any, obj: Any, make: Callable[[], bytes]) -> bytes:
        hit = self._new.get(key)
        if hit is None or not _same(hit[0], obj):
            hit = self._old.get(key)
            if hit is None or not _same(hit[0], obj):
                hit = (obj, make())
            if len(self._new) >= self.size:
                self._old, self._new = self._new, {}
            self._new[key] = hit
        return hit[1]

    def _list(self, items: list[Any]) -> bytes:
        """A shared list: its header and each item's bytes (the item's own entry for a map)."""
        pack = self._packer.pack
        return array_header(len(items)) + b"".join(
            [self._cached(id(x), x, lambda x=x: pack(x)) if type(x) is dict else pack(x) for x in items])

    def _plan(self, keys: tuple[str, ...]) -> tuple[tuple[Any, ...], ...]:
        plan: list[tuple[Any, ...]] = []
        run: list[str] = []
        for k in keys:
            if k in self.shared:
                if run:
                    plan.append(("run", tuple(run), len(map_header(len(run)))))
                    run = []
                plan.append(("shared", k, self._packer.pack(k)))
            else:
                run.append(k)
        if run:
            plan.append(("run", tuple(run), len(map_header(len(run)))))
        if len(self._plans) < 64:  # maps of a few layouts (an observation has one per viewer kind)
            self._plans[keys] = tuple(plan)
        return tuple(plan)

    def pack_map(self, value: dict[str, Any]) -> bytes:
        """``msgpack.packb(value, use_bin_type=True)`` of the map ``value``."""
        keys = tuple(value)
        plan = self._plans.get(keys) or self._plan(keys)
        parts = [map_header(len(keys))]
        pack = self._packer.pack
        for what, names, extra in plan:
            if what == "run":
                parts.append(pack({k: value[k] for k in names})[extra:])
                continue
            v = value[names]
            parts.append(extra)
            if type(v) is list:
                # the list as a sequence of objects: the same sequence (the same log tail
                # for every seat) is joined once
                parts.append(self._cached(tuple(map(id, v)), tuple(v), lambda v=v: self._list(v)))
            else:
                parts.append(pack(v))
        return b"".join(parts)


def _same(a: Any, b: Any) -> bool:
    """``a`` is ``b``, or both are tuples of the same objects (identity, not equality)."""
    if a is b:
        return True
    return type(a) is tuple and type(b) is tuple and len(a) == len(b) and all(map(operator.is_, a, b))


class FrameReader:
    """Buffer of received bytes, cut into frame payloads.

    ``feed(data)`` adds bytes (``b""`` = end of stream); ``next_payload()`` returns
    the next complete payload (``bytes``) or ``None`` if more data is needed.
    """

    def __init__(self, max_frame: int = MAX_FRAME):
        self.max_frame = max_frame
        self._buf = bytearray()
        self.eof = False

    def feed(self, data: bytes) -> None:
        """Append received bytes; an empty ``data`` marks the end of the stream."""
        if data:
            self._buf += data
        else:
            self.eof = True

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned as payloads."""
        return len(self._buf)

    def next_payload(self) -> bytes | None:
        """The next complete payload, or ``None`` when more bytes are needed.

        Raises :class:`RemoteProtocolError` ``frame-too-large`` as soon as a length
        prefix over ``max_frame`` is seen, and ``truncated`` if the stream ended
        inside a frame.
        """
        buf = self._buf
        if len(buf) >= HEADER_SIZE:
            size = int.from_bytes(buf[:HEADER_SIZE], "big")
            if size > self.max_frame:
                raise RemoteProtocolError(
                    FRAME_TOO_LARGE, f"frame of {size} bytes announced, the limit is {self.max_frame} bytes"
                )
            end = HEADER_SIZE + size
            if len(buf) >= end:
                payload = bytes(buf[HEADER_SIZE:end])
                del buf[:end]
                return payload
        if self.eof and buf:
            raise RemoteProtocolError(
                TRUNCATED, f"connection ended inside a frame ({len(buf)} bytes of an unfinished frame)"
            )
        return None
