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
    payload = msgpack.packb(value, use_bin_type=True)
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
