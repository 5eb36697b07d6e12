"""Protocol errors and the registry of machine codes (specs/protocol.md § Errors).

Every problem with what a peer sent becomes a :class:`RemoteProtocolError`; every
attempt to send something the role or state forbids becomes a
:class:`LocalProtocolError`. Both are :class:`ProtocolError`: ``code`` is a short
machine code from :data:`PROTOCOL_CODES`, ``message`` a clear English sentence.
The usual reaction to a remote error is ``conn.send(exc.to_message())`` (an
``error`` message with the same code) and closing the transport.
"""

from __future__ import annotations

from typing import Any

# Codes the protocol layer itself raises (RemoteProtocolError / LocalProtocolError).
FRAME_TOO_LARGE = "frame-too-large"
BAD_MSGPACK = "bad-msgpack"
NOT_A_MAP = "not-a-map"
UNKNOWN_TYPE = "unknown-type"
BAD_FIELD = "bad-field"
BAD_SEQ = "bad-seq"
VERSION_MISMATCH = "version-mismatch"
UNEXPECTED_MESSAGE = "unexpected-message"
TRUNCATED = "truncated"
DATA_AFTER_CLOSE = "data-after-close"
CLOSED = "closed"

#: code -> meaning, for every code the protocol layer raises.
PROTOCOL_CODES: dict[str, str] = {
    FRAME_TOO_LARGE: "a frame's length prefix exceeds the maximum frame size",
    BAD_MSGPACK: "a frame is not exactly one msgpack value within the unpacker limits",
    NOT_A_MAP: "a frame's msgpack value is not a map",
    UNKNOWN_TYPE: "the message type is missing, not a string, or not one this peer may send",
    BAD_FIELD: "a field is missing, unknown, of the wrong type or out of range",
    BAD_SEQ: "the sequence number is not the next one expected",
    VERSION_MISMATCH: "the two sides have no protocol version in common",
    UNEXPECTED_MESSAGE: "the message is not allowed in the connection's current state",
    TRUNCATED: "the connection ended in the middle of a frame",
    DATA_AFTER_CLOSE: "the peer sent data after its bye or error message",
    CLOSED: "the connection is closed (local misuse: send or receive after the end)",
}

#: Codes the host application sends in ``error`` messages (then closes), suggested
#: so that clients can translate them; the wire accepts any well-formed code.
HOST_ERROR_CODES: dict[str, str] = {
    "table-full": "no free seat at the table",
    "seat-taken": "the requested seat is held by a connected player",
    "name-taken": "another player at the table uses this name",
    "bad-token": "the reconnect token is unknown or expired",
    "reconnect-limit": "this seat reconnected too often; the client may try again a few seconds later",
    "game-running": "a game is running and this connection holds no seat in it",
    "kicked": "the host removed this player",
    "internal": "the host failed; the game cannot continue",
    "slow-client": "the client did not read its messages in time (its outgoing queue overflowed)",
    "hello-timeout": "no hello arrived in time after the TLS handshake",
    "idle-timeout": "nothing arrived from the client for too long",
    "ready-timeout": "the seat was not ready in the lobby in time and was freed",
    "spectators-full": "the table already has as many spectators as it takes",
    "blind-unsupported": "the table deals blind and the client's protocol version is below 4",
}

#: Suggested codes of ``reject`` messages (an action or seed refused, not fatal).
REJECT_CODES: dict[str, str] = {
    "stale-state": "the action answers an older state; a sync follows",
    "wrong-game": "the message names a game that is not running",
    "not-your-turn": "this seat is not asked to act now",
    "illegal-action": "the action is not among the legal ones",
    "bad-commitment": "the seed does not match the commitment, or arrived out of order",
    "bad-blind": "a dealer-blind message failed the host's checks (the game stops, naming its author)",
}

#: Suggested codes of ``notice`` messages (information, no reply expected).
NOTICE_CODES: dict[str, str] = {
    "turn-timeout": "a seat's turn timed out; the default action was played",
    "player-joined": "a player took a seat",
    "player-left": "a player disconnected; the seat waits for a reconnect",
    "player-back": "a player reconnected",
    "bot-seated": "a bot took over a seat",
    "chat-throttled": "this client chatted too fast; its line was not relayed",
    "spectator-joined": "someone started watching the table",
    "spectator-left": "a spectator stopped watching",
    "spectator-readonly": "a spectator's chat line was not relayed (spectators only watch)",
    "old-client": "a seat's client cannot deal blind (protocol version below 4): the table deals trusted",
    "blind-wait": "a dealer-blind game waits for a seat that is away (its key or its move) until a deadline",
}


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for quoting peer data in messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ProtocolError(Exception):
    """A protocol violation. ``code``: machine code (:data:`PROTOCOL_CODES`); ``message``: clear text.

    ``str(exc)`` is ``"code: message"``. Subclasses tell who broke the protocol.
    """

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_message(self) -> "Any":
        """The ``error`` message (:class:`~jupai_net.protocol.messages.ErrorMessage`) to send the peer.

        The text is cut to the protocol's text limit.
        """
        from .limits import MAX_TEXT_LEN
        from .messages import ErrorMessage

        text = "".join(c if c.isprintable() else "?" for c in self.message)[:MAX_TEXT_LEN]
        return ErrorMessage(code=self.code, message=text)


class RemoteProtocolError(ProtocolError):
    """The peer sent something invalid: raised by ``next_event()`` (and raised again on every later call)."""


class LocalProtocolError(ProtocolError):
    """This side tried something the protocol forbids (``send`` of a message not allowed now,
    a frame too large, use after close). A programming error in the caller."""


class FieldError(ValueError):
    """A message field has a bad value. ``field`` names it.

    Raised by message constructors (local misuse); while decoding peer data it is
    turned into a :class:`RemoteProtocolError` with code ``bad-field``.
    """

    def __init__(self, field: str, message: str):
        super().__init__(f"field '{field}' {message}")
        self.field = field
