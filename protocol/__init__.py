"""Sans-IO wire protocol of jupai-net (specs/protocol.md).

Frames are a 4-byte big-endian length and one msgpack map. Messages are frozen
dataclasses (:mod:`.messages`); :class:`ClientConnection` and
:class:`HostConnection` are per-role state machines with ``receive_data(bytes)``,
``next_event()`` and ``send(message) -> bytes`` (:mod:`.connection`). Limits live in
:mod:`.limits`, errors and their codes in :mod:`.errors`. No sockets, no trio here.
"""

from .connection import CLIENT_SENDS, EOF, HOST_SENDS, NEED_DATA, ClientConnection, Connection, HostConnection, Role, State
from .errors import (
    HOST_ERROR_CODES,
    NOTICE_CODES,
    PROTOCOL_CODES,
    REJECT_CODES,
    FieldError,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from .framing import FrameReader, decode_payload, encode_frame
from .limits import MAX_FRAME, PROTOCOL_VERSION, SUPPORTED_VERSIONS
from .messages import (
    CLIENT_MESSAGES,
    HOST_MESSAGES,
    ActionMessage,
    Blind,
    Bye,
    Chat,
    ChatRelay,
    End,
    ErrorMessage,
    Hello,
    Lobby,
    Message,
    Notice,
    Ping,
    PlayerInfo,
    Pong,
    Prompt,
    Ready,
    Reject,
    SeedCommit,
    SeedReveal,
    Series,
    SeriesStanding,
    Start,
    Statement,
    Sync,
    Welcome,
)

__all__ = [
    "CLIENT_MESSAGES", "CLIENT_SENDS", "EOF", "HOST_ERROR_CODES", "HOST_MESSAGES", "HOST_SENDS", "MAX_FRAME",
    "NEED_DATA", "NOTICE_CODES", "PROTOCOL_CODES", "PROTOCOL_VERSION", "REJECT_CODES", "SUPPORTED_VERSIONS",
    "ActionMessage", "Bye", "Chat", "ChatRelay", "ClientConnection", "Connection", "End", "ErrorMessage",
    "FieldError", "FrameReader", "Hello", "HostConnection", "LocalProtocolError", "Lobby", "Message", "Notice",
    "Ping", "PlayerInfo", "Pong", "Prompt", "ProtocolError", "Ready", "Reject", "RemoteProtocolError", "Role",
    "Blind", "SeedCommit", "SeedReveal", "Series", "SeriesStanding", "Start", "State", "Statement", "Sync", "Welcome", "decode_payload",
    "encode_frame",
]
