"""Frames: a 4-byte big-endian length, then one msgpack value (specs/protocol.md § Frames).

:func:`encode_frame` packs a value; :class:`FrameReader` buffers received bytes and
cuts them into payloads, refusing an oversize frame as soon as its length prefix
has arrived (before buffering the payload); :func:`decode_payload` unpacks one
payload with the strict limits of :mod:`.limits`. All peer-caused failures raise
:class:`~.errors.RemoteProtocolError`; nothing else escapes.
"""

from __future__ import annotations

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
    §13); each is packed once and its bytes reused while it is the same object. The
    result is byte for byte ``msgpack.packb(value, use_bin_type=True)``.

    The cache holds the maps it has bytes for (so an id is not reused while cached), in
    two generations of up to ``size`` entries: a map not used during a whole generation
    is let go."""

    def __init__(self, shared: frozenset[str], size: int = 4096):
        self.shared = shared
        self.size = size
        self._new: dict[int, tuple[Any, bytes]] = {}
        self._old: dict[int, tuple[Any, bytes]] = {}
        self._packer = msgpack.Packer(use_bin_type=True)
        self._keys: dict[str, bytes] = {}

    def _part(self, item: Any) -> bytes:
        key = id(item)
        hit = self._new.get(key)
        if hit is not None and hit[0] is item:
            return hit[1]
        hit = self._old.get(key)
        if hit is None or hit[0] is not item:
            hit = (item, self._packer.pack(item))
        if len(self._new) >= self.size:
            self._old, self._new = self._new, {}
        self._new[key] = hit
        return hit[1]

    def pack_map(self, value: dict[str, Any]) -> bytes:
        """``msgpack.packb(value, use_bin_type=True)`` of the map ``value``."""
        parts = [map_header(len(value))]
        run: dict[str, Any] = {}  # the keys between shared lists, packed together
        pack = self._packer.pack
        for k, v in value.items():
            if type(v) is list and k in self.shared:
                if run:
                    parts.append(pack(run)[len(map_header(len(run))):])
                    run = {}
                key = self._keys.get(k)
                if key is None:
                    key = self._keys[k] = pack(k)
                parts.append(key)
                parts.append(array_header(len(v)))
                parts += [self._part(x) if type(x) is dict else pack(x) for x in v]
            else:
                run[k] = v
        if run:
            parts.append(pack(run)[len(map_header(len(run))):])
        return b"".join(parts)


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
