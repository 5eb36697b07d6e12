"""Fuzz: whatever bytes or msgpack values a peer sends, the connection yields messages,
NEED_DATA/EOF, or a typed RemoteProtocolError — never another exception."""

from __future__ import annotations

import dataclasses

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupai_net.protocol import (
    CLIENT_MESSAGES,
    EOF,
    HOST_MESSAGES,
    NEED_DATA,
    Chat,
    ErrorMessage,
    FieldError,
    Hello,
    Message,
    RemoteProtocolError,
    Sync,
)
from jupai_net.protocol.errors import PROTOCOL_CODES
from jupai_net.protocol.framing import decode_payload, encode_frame

from .test_protocol_support import CLIENT_SAMPLES, HOST_SAMPLES, pair

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STAGES = ("new", "hello", "lobby", "game", "lobby-after-game")

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.binary(max_size=40),
)
keys = st.one_of(st.text(max_size=12), st.sampled_from(["type", "seq", "name", "text", "action", "legal"]))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(keys, inner, max_size=6)),
    max_leaves=25,
)
ALL_TYPES = sorted(set(CLIENT_MESSAGES) | set(HOST_MESSAGES))
FIELD_NAMES = sorted(
    {f.name for cls in (*CLIENT_MESSAGES.values(), *HOST_MESSAGES.values()) for f in dataclasses.fields(cls)}
)


def drain(conn) -> list[object]:
    """Pull events until NEED_DATA/EOF or a protocol error; check the error is well-formed."""
    events: list[object] = []
    for _ in range(1000):
        try:
            event = conn.next_event()
        except RemoteProtocolError as exc:
            assert exc.code in PROTOCOL_CODES and exc.message
            assert isinstance(exc.to_message(), ErrorMessage)
            try:  # sticky: the same error again
                conn.next_event()
            except RemoteProtocolError as again:
                assert again is exc
            else:
                raise AssertionError("a protocol error must be raised again")
            return events
        if event is NEED_DATA or event is EOF:
            return events
        assert isinstance(event, Message)
        events.append(event)
    raise AssertionError("next_event never ran out")


def feed_and_drain(conn, data: bytes, cuts: list[int], eof: bool) -> None:
    pos = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts) + [len(data)]:
        if cut > pos:
            conn.receive_data(data[pos:cut])
        pos = cut
        if conn.their_error is None:
            drain(conn)
        if conn.their_error is not None:
            return
    if eof:
        conn.receive_data(b"")
        drain(conn)


def connection(side: str, stage: str):
    client, host = pair(stage)
    return host if side == "host" else client


sides = st.sampled_from(["host", "client"])
stages = st.sampled_from(STAGES)


@FUZZ
@given(side=sides, stage=stages, data=st.binary(max_size=300), cuts=st.lists(st.integers(0, 300), max_size=4),
       eof=st.booleans())
def test_random_bytes(side, stage, data, cuts, eof):
    feed_and_drain(connection(side, stage), data, cuts, eof)


@FUZZ
@given(side=sides, stage=stages, value=values, eof=st.booleans())
def test_random_msgpack_values_in_a_frame(side, stage, value, eof):
    conn = connection(side, stage)
    payload = msgpack.packb(value, use_bin_type=True)
    feed_and_drain(conn, len(payload).to_bytes(4, "big") + payload, [], eof)


@FUZZ
@given(
    side=sides,
    stage=stages,
    kind=st.sampled_from(ALL_TYPES),
    seq_ok=st.booleans(),
    fields=st.dictionaries(st.sampled_from(FIELD_NAMES), values, max_size=6),
)
def test_random_fields_for_known_types(side, stage, kind, seq_ok, fields):
    conn = connection(side, stage)
    msg = {"type": kind, "seq": conn.their_seq if seq_ok else conn.their_seq + 1, **fields}
    feed_and_drain(conn, encode_frame(msg), [], False)


@FUZZ
@given(side=sides, stage=stages, data=st.data())
def test_one_field_of_a_valid_message_replaced(side, stage, data):
    """Valid messages with one field swapped for a random value: accepted as a valid
    message or refused with a typed error."""
    conn = connection(side, stage)
    samples = HOST_SAMPLES if side == "client" else CLIENT_SAMPLES
    kind = data.draw(st.sampled_from(sorted(samples)))
    wire = samples[kind].to_wire(seq=conn.their_seq)
    name = data.draw(st.sampled_from(sorted(wire)))
    wire[name] = data.draw(values)
    conn.receive_data(encode_frame(wire))
    for event in drain(conn):
        # whatever was accepted passes its own validation again
        assert type(event).from_wire(event.to_wire()) == event


@FUZZ
@given(value=values)
def test_every_accepted_observation_survives_the_wire(value):
    try:
        msg = Sync(1, {"v": value})
    except FieldError:
        return
    payload = encode_frame(msg.to_wire(seq=0))[4:]
    assert Sync.from_wire(decode_payload(payload)) == Sync(1, {"v": _plain(value)})


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


@FUZZ
@given(name=st.text(max_size=30), text=st.text(max_size=320))
def test_whatever_a_constructor_accepts_the_peer_accepts(name, text):
    for make in (lambda: Hello(name), lambda: Chat(text)):
        try:
            msg = make()
        except FieldError:
            continue
        host_side = connection("host", "new" if isinstance(msg, Hello) else "lobby")
        client_side = connection("client", "new" if isinstance(msg, Hello) else "lobby")
        data = client_side.send(msg)
        host_side.receive_data(data)
        assert host_side.next_event() == msg
