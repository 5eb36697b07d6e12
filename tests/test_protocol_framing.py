"""Frames: length prefix, oversize refused on the prefix alone, strict msgpack limits."""

from __future__ import annotations

import msgpack
import pytest

from jupai_net.protocol import LocalProtocolError, RemoteProtocolError
from jupai_net.protocol.framing import FrameReader, decode_payload, encode_frame
from jupai_net.protocol.limits import (
    HEADER_SIZE,
    MAX_ARRAY_LEN,
    MAX_BIN_LEN,
    MAX_FRAME,
    MAX_MAP_LEN,
    MAX_STR_LEN,
)


def test_encode_frame_is_big_endian_length_then_msgpack():
    data = encode_frame({"type": "ping", "seq": 0, "nonce": 1})
    payload = msgpack.packb({"type": "ping", "seq": 0, "nonce": 1}, use_bin_type=True)
    assert data == len(payload).to_bytes(4, "big") + payload
    assert data[:4] == b"\x00\x00\x00\x17"


def test_frames_reassemble_across_every_split_point():
    stream = encode_frame({"a": 1}) + encode_frame({"b": b"xy"}) + encode_frame({})
    for cut in range(len(stream) + 1):
        reader = FrameReader()
        reader.feed(stream[:cut])
        got = []
        while (p := reader.next_payload()) is not None:
            got.append(decode_payload(p))
        reader.feed(stream[cut:])
        while (p := reader.next_payload()) is not None:
            got.append(decode_payload(p))
        assert got == [{"a": 1}, {"b": b"xy"}, {}]
        assert reader.buffered == 0


def test_oversize_frame_is_refused_from_the_prefix_alone():
    reader = FrameReader()
    reader.feed((MAX_FRAME + 1).to_bytes(4, "big"))  # no payload byte at all
    with pytest.raises(RemoteProtocolError) as info:
        reader.next_payload()
    assert info.value.code == "frame-too-large"
    assert str(MAX_FRAME + 1) in info.value.message and str(MAX_FRAME) in info.value.message


def test_frame_of_exactly_max_size_is_accepted_one_byte_more_is_not():
    # fixarray (1 byte) + 4 × bin16 (3-byte header): lengths chosen to total MAX_FRAME
    value = [b"\x00" * 65535] * 3 + [b"\x00" * (MAX_FRAME - 1 - 4 * 3 - 3 * 65535)]
    data = encode_frame(value)
    assert int.from_bytes(data[:4], "big") == MAX_FRAME == len(data) - 4
    reader = FrameReader()
    reader.feed(data)
    assert decode_payload(reader.next_payload()) == value
    tight = FrameReader(max_frame=MAX_FRAME - 1)
    tight.feed(data[:4])
    with pytest.raises(RemoteProtocolError, match="frame-too-large"):
        tight.next_payload()
    with pytest.raises(LocalProtocolError, match="frame-too-large"):
        encode_frame(value, max_frame=MAX_FRAME - 1)


def test_encode_refuses_a_frame_over_the_limit():
    with pytest.raises(LocalProtocolError) as info:
        encode_frame({"b": b"\x00" * 100}, max_frame=50)
    assert info.value.code == "frame-too-large"


def test_end_of_stream_inside_a_frame_is_truncated():
    data = encode_frame({"a": 1})
    for cut in (1, HEADER_SIZE, len(data) - 1):
        reader = FrameReader()
        reader.feed(data[:cut])
        reader.feed(b"")
        with pytest.raises(RemoteProtocolError) as info:
            reader.next_payload()
        assert info.value.code == "truncated"


def test_end_of_stream_between_frames_is_clean():
    reader = FrameReader()
    reader.feed(encode_frame({}))
    reader.feed(b"")
    assert reader.next_payload() is not None
    assert reader.next_payload() is None and reader.eof


@pytest.mark.parametrize(
    "payload, detail",
    [
        (b"", "incomplete"),
        (b"\xc1", "FormatError"),  # never-used byte
        (msgpack.packb(1) + b"\x00", "extra data"),
        (msgpack.packb("x" * (MAX_STR_LEN + 1)), "max_str_len"),
        (msgpack.packb(b"x" * (MAX_BIN_LEN + 1)), "max_bin_len"),
        (msgpack.packb([0] * (MAX_ARRAY_LEN + 1)), "max_array_len"),
        (msgpack.packb({str(i): 0 for i in range(MAX_MAP_LEN + 1)}), "max_map_len"),
        (msgpack.packb({1: 2}), "map key"),
        (msgpack.packb(msgpack.ExtType(5, b"ab")), "max_ext_len"),
        (b"\xd6\xff\x00\x00\x00\x00", "max_ext_len"),  # timestamp ext
        (b"\xa3\xff\xfe\xfd", "utf-8"),  # invalid UTF-8 string
        (b"\x91" * 5000, "StackError"),  # absurd nesting
    ],
)
def test_strict_unpacker_refuses(payload, detail):
    with pytest.raises(RemoteProtocolError) as info:
        decode_payload(payload)
    assert info.value.code == "bad-msgpack"
    assert detail.lower() in info.value.message.lower()


def test_unpacker_keeps_strings_as_str_and_bin_as_bytes():
    value = decode_payload(msgpack.packb({"s": "字", "b": b"\xff"}, use_bin_type=True))
    assert value == {"s": "字", "b": b"\xff"}
    assert type(value["s"]) is str and type(value["b"]) is bytes
