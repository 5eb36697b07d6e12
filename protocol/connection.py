"""Per-role connection state machines, sans-IO in the style of h11 (specs/protocol.md § State machine).

A connection object owns no socket. The caller feeds it received bytes with
:meth:`~Connection.receive_data` (``b""`` at end of stream), pulls messages with
:meth:`~Connection.next_event`, and turns outgoing messages into bytes with
:meth:`~Connection.send`, writing them to its transport itself::

    conn = HostConnection()
    conn.receive_data(await stream.receive_some(65536))
    while True:
        try:
            event = conn.next_event()
        except RemoteProtocolError as exc:
            await stream.send_all(conn.send(exc.to_message()))
            ...close...
        if event is NEED_DATA or event is EOF:
            break
        handle(event)

States (:class:`State`): ``HANDSHAKE`` → (``welcome``) → ``LOBBY`` ⇄ (``start`` /
``end``) ⇄ ``GAME``; ``bye``/``error`` from either side, or end of stream → ``CLOSED``.
The host's messages drive the phase; both ends apply the same transitions in the
same order, so a client always knows the host's phase exactly. A client's
messages may cross a ``start``/``end`` in flight, so a host accepts client
messages of the current phase and of the phase just left.
"""

from __future__ import annotations

import enum
from typing import ClassVar

from .errors import (
    BAD_FIELD,
    BAD_SEQ,
    CLOSED,
    DATA_AFTER_CLOSE,
    NOT_A_MAP,
    UNEXPECTED_MESSAGE,
    UNKNOWN_TYPE,
    VERSION_MISMATCH,
    LocalProtocolError,
    RemoteProtocolError,
    _short,
)
from .framing import FrameReader, decode_payload
from .limits import (BLIND_VERSION, ERROR_ARGS_VERSION, MAX_FRAME, NOTICE_ARGS_VERSION, REJECT_ARGS_VERSION,
                     SERIES_VERSION, SUPPORTED_VERSIONS)
from .messages import CLIENT_MESSAGES, HOST_MESSAGES, Hello, Message, Welcome


class Role(enum.Enum):
    """Which end of a connection: the ``CLIENT`` (a player) or the ``HOST`` (the table)."""

    CLIENT = "client"
    HOST = "host"


class State(enum.Enum):
    """Phase of a connection (specs/protocol.md § State machine)."""

    HANDSHAKE = "handshake"
    LOBBY = "lobby"
    GAME = "game"
    CLOSED = "closed"

    #: members are singletons compared by identity: hash them as objects (``Enum``'s own
    #: ``__hash__`` is a Python call, made for every message sent and received)
    __hash__ = object.__hash__


class _Sentinel:
    """A named marker returned by :meth:`Connection.next_event` instead of a message."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: ``next_event()``: no complete message buffered; call ``receive_data`` first.
NEED_DATA = _Sentinel("NEED_DATA")
#: ``next_event()``: the peer's byte stream ended cleanly (``receive_data(b"")``) between frames.
EOF = _Sentinel("EOF")

_ANY_STATE = frozenset({"error", "bye"})
_LIVE = frozenset({"ping", "pong", "chat"})

#: Message types a client may send, by the client's phase.
CLIENT_SENDS: dict[State, frozenset[str]] = {
    State.HANDSHAKE: _ANY_STATE | {"hello"},
    State.LOBBY: _ANY_STATE | _LIVE | {"ready"},
    State.GAME: _ANY_STATE | _LIVE | {"seed_commit", "seed_reveal", "blind", "action"},
}
#: Message types a host may send, by the host's phase.
HOST_SENDS: dict[State, frozenset[str]] = {
    State.HANDSHAKE: _ANY_STATE | {"welcome"},
    State.LOBBY: _ANY_STATE | _LIVE | {"lobby", "notice", "statement", "reject", "start", "series"},
    State.GAME: _ANY_STATE | _LIVE | {"lobby", "notice", "statement", "reject", "prompt", "sync", "end", "series"},
}
_GAME_SCOPED = frozenset({"seed_commit", "seed_reveal", "blind", "action"})
#: Message types that change a connection's state beyond its sequence numbers.
_TRANSITIONS = _ANY_STATE | {"hello", "welcome", "start", "end"}


class Connection:
    """One end of one connection (base of :class:`ClientConnection` and :class:`HostConnection`).

    Attributes (read them, do not set them): ``role``; ``state`` (:class:`State`);
    ``version`` (negotiated protocol version, ``None`` before the handshake);
    ``game_id`` (16 bytes of the last ``start``, ``None`` before); ``our_seq`` /
    ``their_seq`` (next sequence number to send / expected); ``our_closed`` /
    ``their_closed`` (this side / the peer sent ``bye`` or ``error``, or the stream
    ended); ``their_error`` (the :class:`RemoteProtocolError` raised, if any).

    ``max_frame``: the largest payload accepted and sent, in bytes.
    """

    role: ClassVar[Role]
    _ours: ClassVar[dict[str, type[Message]]]
    _theirs: ClassVar[dict[str, type[Message]]]
    _we_send: ClassVar[dict[State, frozenset[str]]]
    _they_send: ClassVar[dict[State, frozenset[str]]]

    def __init__(self, *, max_frame: int = MAX_FRAME):
        self._reader = FrameReader(max_frame)
        self.max_frame = max_frame
        self._phase = State.HANDSHAKE
        self._prev_phase: State | None = None
        self._hello_done = False
        self._hello: Hello | None = None  # the hello this client sent
        self.version: int | None = None
        self.game_id: bytes | None = None
        self.our_seq = 0
        self.their_seq = 0
        self.our_closed = False
        self.their_closed = False
        self.their_error: RemoteProtocolError | None = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} state={self.state.name} our_seq={self.our_seq} their_seq={self.their_seq}>"

    @property
    def state(self) -> State:
        """``CLOSED`` once either side sent ``bye``/``error`` or the stream ended, else the phase."""
        return State.CLOSED if self.our_closed or self.their_closed else self._phase

    @property
    def buffered(self) -> int:
        """Bytes received and not yet returned as messages."""
        return self._reader.buffered

    # --- receiving ---------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Feed bytes read from the transport; ``b""`` means the peer closed its side.

        Nothing is parsed here (see :meth:`next_event`). Feed what one bounded socket
        read returned (e.g. ``receive_some(65536)``) and drain ``next_event`` before
        reading again: memory then stays within one read plus one frame. ``b""`` again is harmless;
        raises :class:`LocalProtocolError` ``closed`` for more bytes after end of stream.
        """
        if self._reader.eof and data:
            raise LocalProtocolError(CLOSED, "receive_data called after the end of the stream")
        self._reader.feed(data)

    def next_event(self) -> Message | _Sentinel:
        """The next message from the peer, :data:`NEED_DATA`, or :data:`EOF`.

        Raises :class:`RemoteProtocolError` (codes ``frame-too-large``,
        ``bad-msgpack``, ``not-a-map``, ``unknown-type``, ``bad-seq``,
        ``unexpected-message``, ``version-mismatch``, ``bad-field``, ``truncated``,
        ``data-after-close``) when the peer broke the protocol; the same error is
        raised again on every later call. No other exception escapes for any input.
        """
        if self.their_error is not None:
            raise self.their_error
        try:
            payload = self._reader.next_payload()
            if payload is None:
                if self._reader.eof:
                    self.their_closed = True
                    return EOF
                return NEED_DATA
            if self.their_closed:
                raise RemoteProtocolError(
                    DATA_AFTER_CLOSE, f"the {self._peer} sent data after its bye or error message"
                )
            msg = self._parse(decode_payload(payload))
        except RemoteProtocolError as exc:
            self.their_error = exc
            raise
        self._advance(msg, sent=False)
        return msg

    @property
    def _peer(self) -> str:
        return "host" if self.role is Role.CLIENT else "client"

    def _parse(self, value: object) -> Message:
        if not isinstance(value, dict):
            raise RemoteProtocolError(NOT_A_MAP, f"a frame must hold a msgpack map, got {type(value).__name__}")
        for key in value:
            if not isinstance(key, str):
                raise RemoteProtocolError(BAD_FIELD, f"message keys must be strings, got {_short(key)}")
        kind = value.get("type")
        if not isinstance(kind, str):
            raise RemoteProtocolError(UNKNOWN_TYPE, f"message has no 'type' string (got {_short(kind)})")
        cls = self._theirs.get(kind)
        if cls is None:
            if kind in self._ours:
                why = f"'{kind}' messages are sent by the {self.role.value}, not by the {self._peer}"
            else:
                why = f"unknown message type {_short(kind)}"
            raise RemoteProtocolError(UNKNOWN_TYPE, why)
        seq = value.get("seq")
        if type(seq) is not int or seq != self.their_seq:
            raise RemoteProtocolError(BAD_SEQ, f"{kind} message has seq {_short(seq)}, expected {self.their_seq}")
        if not self._they_may_send(kind):
            raise RemoteProtocolError(
                UNEXPECTED_MESSAGE, f"a {kind} message from the {self._peer} is not allowed {self._where()}"
            )
        self._before_decode(kind, value)
        msg = cls.from_wire(value)
        self._after_decode(msg)
        return msg

    def _where(self) -> str:
        where = f"in state {self._phase.name}"
        if self._phase is State.HANDSHAKE and self._hello_done:
            where += " after the hello"
        return where

    def _they_may_send(self, kind: str) -> bool:
        return kind in self._they_send[self._phase]

    def _before_decode(self, kind: str, value: dict[str, object]) -> None:
        """Role hook: checks on the raw map before field validation."""

    def _after_decode(self, msg: Message) -> None:
        """Role hook: checks on a decoded message."""

    # --- sending -----------------------------------------------------------------------

    def send(self, msg: Message) -> bytes:
        """Frame ``msg`` with the next sequence number and return the bytes to write.

        Applies the message's state transition. Raises :class:`LocalProtocolError`
        (and changes nothing) if this role may not send ``msg`` now: ``closed``
        (after either side's bye/error or end of stream; after a remote protocol
        error only ``error``/``bye`` may be sent), ``unknown-type`` (not a message
        of this role), ``unexpected-message`` (not allowed in this state),
        ``bad-field`` (a game id that is not the running game's, a welcome version
        that is not the negotiated one), ``frame-too-large``.
        """
        if not isinstance(msg, Message):
            raise LocalProtocolError(UNKNOWN_TYPE, f"send() takes a protocol message, got {_short(msg)}")
        if self.our_closed:
            raise LocalProtocolError(CLOSED, f"cannot send {msg.type}: this side already sent bye or error")
        if self.their_closed:
            raise LocalProtocolError(CLOSED, f"cannot send {msg.type}: the {self._peer} has closed the connection")
        if self.their_error is not None and msg.type not in _ANY_STATE:
            raise LocalProtocolError(
                CLOSED, f"cannot send {msg.type} after a protocol error from the {self._peer}; send error or bye"
            )
        if self._ours.get(msg.type) is not type(msg):
            raise LocalProtocolError(UNKNOWN_TYPE, f"a {self.role.value} does not send {type(msg).__name__}")
        if msg.type not in self._we_send[self._phase] or (msg.type == "hello" and self._hello_done):
            raise LocalProtocolError(
                UNEXPECTED_MESSAGE, f"a {self.role.value} may not send {msg.type} {self._where()}"
            )
        self._check_send(msg)
        data = msg.encode(self.our_seq, self.max_frame)
        self._advance(msg, sent=True)
        return data

    def _check_send(self, msg: Message) -> None:
        """Role hook: extra checks before sending."""

    # --- transitions -------------------------------------------------------------------

    def _advance(self, msg: Message, *, sent: bool) -> None:
        if sent:
            self.our_seq += 1
        else:
            self.their_seq += 1
        kind = msg.type
        if kind not in _TRANSITIONS:
            return  # most messages (statement, sync, prompt, action) change no state
        if kind == "hello":
            self._hello_done = True
            if sent:
                assert isinstance(msg, Hello)
                self._hello = msg
        elif kind == "welcome":
            assert isinstance(msg, Welcome)
            self.version = msg.version
            self._phase = State.LOBBY
        elif kind == "start":
            self.game_id = msg.game_id  # type: ignore[attr-defined]
            self._prev_phase, self._phase = self._phase, State.GAME
        elif kind == "end":
            self._prev_phase, self._phase = self._phase, State.LOBBY
        elif kind in _ANY_STATE:
            if sent:
                self.our_closed = True
            else:
                self.their_closed = True


#: Host messages with the optional ``dealer`` key (version 4): a host sends it, and a
#: client accepts it, only on a version-4 connection (below, the key is left out).
_DEALER_KEYED = frozenset({"welcome", "lobby", "start"})
#: Host messages :meth:`HostConnection._check_send` checks (the others need nothing).
_HOST_CHECKED = _DEALER_KEYED | {"notice", "error", "reject", "series"}


class ClientConnection(Connection):
    """The player's end. Sends :data:`~.messages.CLIENT_MESSAGES`, receives :data:`~.messages.HOST_MESSAGES`.

    Sends ``hello`` first (once); a ``welcome`` is accepted only after it, and only
    with a version within the hello's ``min_version..version``. Game-scoped
    messages (``seed_commit``, ``seed_reveal``, ``action``) must carry
    :attr:`game_id` (the running game's).
    """

    role = Role.CLIENT
    _ours = CLIENT_MESSAGES
    _theirs = HOST_MESSAGES
    _we_send = CLIENT_SENDS
    _they_send = HOST_SENDS

    def _check_send(self, msg: Message) -> None:
        if msg.type in _GAME_SCOPED and msg.game_id != self.game_id:  # type: ignore[attr-defined]
            raise LocalProtocolError(BAD_FIELD, f"{msg.type} names another game than the running one")
        if msg.type == "blind" and (self.version or 0) < BLIND_VERSION:
            raise LocalProtocolError(UNEXPECTED_MESSAGE, f"blind messages need protocol version {BLIND_VERSION}; "
                                     f"this connection speaks version {self.version}")

    def _they_may_send(self, kind: str) -> bool:
        if kind == "welcome" and not self._hello_done:
            return False
        return super()._they_may_send(kind)

    def _after_decode(self, msg: Message) -> None:
        if msg.type in _DEALER_KEYED and msg.dealer != "trusted":  # type: ignore[attr-defined]
            version = msg.version if isinstance(msg, Welcome) else self.version
            if (version or 0) < BLIND_VERSION:
                raise RemoteProtocolError(
                    BAD_FIELD, f"{msg.type}.dealer needs protocol version {BLIND_VERSION}; "
                    f"this connection speaks version {version}"
                )
        if msg.type == "notice" and msg.args and (self.version or 0) < NOTICE_ARGS_VERSION:  # type: ignore[attr-defined]
            raise RemoteProtocolError(
                BAD_FIELD, f"notice.args needs protocol version {NOTICE_ARGS_VERSION}; "
                f"this connection speaks version {self.version}"
            )
        if msg.type == "reject" and msg.args and (self.version or 0) < REJECT_ARGS_VERSION:  # type: ignore[attr-defined]
            raise RemoteProtocolError(
                BAD_FIELD, f"reject.args needs protocol version {REJECT_ARGS_VERSION}; "
                f"this connection speaks version {self.version}"
            )
        if msg.type == "series" and (self.version or 0) < SERIES_VERSION:
            raise RemoteProtocolError(
                UNEXPECTED_MESSAGE, f"a series message needs protocol version {SERIES_VERSION}; "
                f"this connection speaks version {self.version}"
            )
        if isinstance(msg, Welcome):
            hello = self._hello
            assert hello is not None
            if not hello.min_version <= msg.version <= hello.version or msg.version not in SUPPORTED_VERSIONS:
                raise RemoteProtocolError(
                    VERSION_MISMATCH,
                    f"the host chose protocol version {msg.version}, this client speaks "
                    f"{hello.min_version}..{hello.version}",
                )


class HostConnection(Connection):
    """The table's end of one client connection. Sends :data:`~.messages.HOST_MESSAGES`,
    receives :data:`~.messages.CLIENT_MESSAGES`.

    Checks the hello's version range first and raises ``version-mismatch`` when it
    shares no version with :data:`~.limits.SUPPORTED_VERSIONS`; else :attr:`version`
    is the highest shared one and the ``welcome`` must carry it. ``welcome`` may be
    sent only after the hello. In ``LOBBY``/``GAME`` it accepts client messages of
    the current phase and of the phase just left (they may have crossed a
    ``start``/``end``); a stale ``action`` or seed message is for the host logic to
    ``reject``.
    """

    role = Role.HOST
    _negotiated: int | None = None
    _ours = HOST_MESSAGES
    _theirs = CLIENT_MESSAGES
    _we_send = HOST_SENDS
    _they_send = CLIENT_SENDS

    def _they_may_send(self, kind: str) -> bool:
        if kind == "hello":
            return self._phase is State.HANDSHAKE and not self._hello_done
        if self._phase is State.HANDSHAKE:
            return kind in _ANY_STATE
        return super()._they_may_send(kind) or (
            self._prev_phase is not None and kind in self._they_send[self._prev_phase]
        )

    def _before_decode(self, kind: str, value: dict[str, object]) -> None:
        if kind != "hello":
            return
        # Read the version range before anything else: these two fields keep their
        # meaning in every protocol version, so a mismatch is always reported as such.
        high = value.get("version")
        low = value.get("min_version", high)
        if type(high) is not int or type(low) is not int:
            raise RemoteProtocolError(BAD_FIELD, "hello message: 'version' and 'min_version' must be whole numbers")
        shared = [v for v in SUPPORTED_VERSIONS if low <= v <= high]
        if not shared:
            ours = ", ".join(map(str, SUPPORTED_VERSIONS))
            theirs = str(high) if low == high else f"{low}..{high}"
            raise RemoteProtocolError(
                VERSION_MISMATCH,
                f"this host speaks protocol version {ours}, the client speaks {theirs}; "
                "use the same jupai-net release on both sides",
            )
        self._negotiated = max(shared)

    def _after_decode(self, msg: Message) -> None:
        if isinstance(msg, Hello):
            self.version = self._negotiated
        elif msg.type == "blind" and (self.version or 0) < BLIND_VERSION:
            raise RemoteProtocolError(
                UNEXPECTED_MESSAGE, f"blind messages need protocol version {BLIND_VERSION}; "
                f"this client speaks version {self.version}"
            )

    def _check_send(self, msg: Message) -> None:
        if msg.type not in _HOST_CHECKED:
            return  # statement, sync, prompt...: nothing depends on the version or the hello
        if isinstance(msg, Welcome) and not self._hello_done:
            raise LocalProtocolError(UNEXPECTED_MESSAGE, "a host may send welcome only after the client's hello")
        if isinstance(msg, Welcome) and msg.version != self.version:
            raise LocalProtocolError(
                BAD_FIELD, f"welcome carries version {msg.version}, the negotiated version is {self.version}"
            )
        if msg.type in _DEALER_KEYED and msg.dealer != "trusted" and (self.version or 0) < BLIND_VERSION:  # type: ignore[attr-defined]
            raise LocalProtocolError(
                BAD_FIELD, f"{msg.type}.dealer needs protocol version {BLIND_VERSION}; "
                f"this client speaks version {self.version} (send it without dealer)"
            )
        if msg.type == "notice" and msg.args and (self.version or 0) < NOTICE_ARGS_VERSION:  # type: ignore[attr-defined]
            raise LocalProtocolError(
                BAD_FIELD, f"notice.args needs protocol version {NOTICE_ARGS_VERSION}; "
                f"this client speaks version {self.version} (send the notice without args)"
            )
        if msg.type == "error" and msg.args and (self.version or 0) < ERROR_ARGS_VERSION:  # type: ignore[attr-defined]
            raise LocalProtocolError(
                BAD_FIELD, f"error.args needs protocol version {ERROR_ARGS_VERSION}; "
                f"this client speaks version {self.version} (send the error without args)"
            )
        if msg.type == "reject" and msg.args and (self.version or 0) < REJECT_ARGS_VERSION:  # type: ignore[attr-defined]
            raise LocalProtocolError(
                BAD_FIELD, f"reject.args needs protocol version {REJECT_ARGS_VERSION}; "
                f"this client speaks version {self.version} (send the reject without args)"
            )
        if msg.type == "series" and (self.version or 0) < SERIES_VERSION:
            raise LocalProtocolError(
                UNEXPECTED_MESSAGE, f"series messages need protocol version {SERIES_VERSION}; "
                f"this client speaks version {self.version}"
            )
