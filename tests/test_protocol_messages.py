"""Message types: wire round trips, validation of every field, clear errors."""

from __future__ import annotations

import dataclasses

import msgpack
import pytest

from jupai_net.actions import Action
from jupai_net.protocol import (
    CLIENT_MESSAGES,
    HOST_MESSAGES,
    ActionMessage,
    Chat,
    ChatRelay,
    End,
    ErrorMessage,
    FieldError,
    Hello,
    Lobby,
    PlayerInfo,
    Prompt,
    RemoteProtocolError,
    Reject,
    SeedCommit,
    Start,
    Statement,
    Sync,
    Welcome,
)
from jupai_net.protocol.errors import PROTOCOL_CODES, ProtocolError
from jupai_net.protocol.framing import decode_payload, encode_frame
from jupai_net.protocol.limits import MAX_FRAME, MAX_TREE_DEPTH, MAX_TREE_NODES
from jupai_net.rules import RuleSet

from .test_protocol_support import CLIENT_SAMPLES, GAME_ID, HOST_SAMPLES, RULES, TOKEN

ALL_SAMPLES = [(f"client:{k}", v) for k, v in CLIENT_SAMPLES.items()] + [
    (f"host:{k}", v) for k, v in HOST_SAMPLES.items()
]


def test_samples_cover_every_message_type():
    assert set(CLIENT_SAMPLES) == set(CLIENT_MESSAGES)
    assert set(HOST_SAMPLES) == set(HOST_MESSAGES)
    assert {type(m) for m in CLIENT_SAMPLES.values()} == set(CLIENT_MESSAGES.values())
    assert {type(m) for m in HOST_SAMPLES.values()} == set(HOST_MESSAGES.values())


@pytest.mark.parametrize("name, msg", ALL_SAMPLES, ids=[n for n, _ in ALL_SAMPLES])
def test_round_trip_through_msgpack(name, msg):
    wire = msg.to_wire(seq=5)
    assert wire["type"] == msg.type and wire["seq"] == 5
    at_default = {k for k, v in msg._optional.items() if getattr(msg, k) == v}  # optional keys stay off the wire
    assert set(wire) == {"type", "seq"} | {f.name for f in dataclasses.fields(msg) if f.name != "seq"} - at_default
    payload = encode_frame(wire)[4:]
    back = type(msg).from_wire(decode_payload(payload))
    assert back == msg and back.seq == 5
    assert back.to_wire(seq=5) == decode_payload(payload)


def test_equality_ignores_seq_and_messages_are_frozen():
    a, b = Chat("x"), Chat("x", seq=3)
    assert a == b and a.seq is None and b.seq == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.text = "y"  # type: ignore[misc]


def test_both_chat_directions_share_the_wire_type_with_different_fields():
    assert CLIENT_MESSAGES["chat"] is Chat and HOST_MESSAGES["chat"] is ChatRelay
    assert set(Chat("a").to_wire(seq=0)) == {"type", "seq", "text"}
    assert set(ChatRelay(None, "Host", "a").to_wire(seq=0)) == {"type", "seq", "seat", "name", "text"}


# --- local construction: FieldError naming the field ----------------------------------


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda: Hello(""), "name"),
        (lambda: Hello("x" * 25), "name"),
        (lambda: Hello(" Ann"), "name"),
        (lambda: Hello("A\nB"), "name"),
        (lambda: Hello("A\u202eB"), "name"),  # bidi override: not printable
        (lambda: Hello(7), "name"),  # type: ignore[arg-type]
        (lambda: Hello("Ann", lang="fr"), "lang"),
        (lambda: Hello("Ann", seat=6), "seat"),
        (lambda: Hello("Ann", seat=True), "seat"),  # bool is not a seat
        (lambda: Hello("Ann", token="short"), "token"),
        (lambda: Hello("Ann", token="x" * 15 + "!"), "token"),
        (lambda: Hello("Ann", version=1, min_version=2), "min_version"),
        (lambda: Hello("Bob", watch=True), "watch"),  # min_version 1: a version-2 host would not know the key
        (lambda: Hello("Bob", watch=True, min_version=3, seat=1), "watch"),  # a spectator asks for no seat
        (lambda: Hello("Bob", watch=True, min_version=3, token="x" * 32), "watch"),  # nor takes one back
        (lambda: Hello("Bob", watch=True, min_version=3, bot=True), "watch"),
        (lambda: Hello("Bob", watch=1, min_version=3), "watch"),  # type: ignore[arg-type]
        (lambda: Hello("Ann", seq=-1), "seq"),
        (lambda: Chat(""), "text"),
        (lambda: Chat("x" * 301), "text"),
        (lambda: SeedCommit(GAME_ID, b"\x00" * 31), "commitment"),
        (lambda: SeedCommit(b"\x00" * 15, b"\x00" * 32), "game_id"),
        (lambda: SeedCommit("0" * 16, b"\x00" * 32), "game_id"),  # type: ignore[arg-type]
        (lambda: ActionMessage(GAME_ID, -1, Action("pass")), "state_id"),
        (lambda: ActionMessage(GAME_ID, 0, {"kind": "pass"}), "action"),  # type: ignore[arg-type]
        (lambda: ActionMessage(GAME_ID, 0, Action("dance")), "action"),
        (lambda: ActionMessage(GAME_ID, 0, Action("attack", cards=(53,))), "action"),
        (lambda: ErrorMessage("Bad Code"), "code"),
        (lambda: ErrorMessage("x" * 33), "code"),
        (lambda: ErrorMessage("ok", "x" * 501), "message"),
        (lambda: Welcome(seat=4, token=TOKEN, rules=RULES), "seat"),
        (lambda: Welcome(seat=0, token=None, rules=RULES), "token"),  # type: ignore[arg-type]  # a 4-seat table: 0..3
        (lambda: Welcome(seat=0, token=TOKEN, rules={"players": 4}), "rules"),  # type: ignore[arg-type]
        (lambda: Welcome(seat=0, token=TOKEN, rules=RULES, players=(PlayerInfo(1, "a"), PlayerInfo(1, "b"))), "players"),
        (lambda: Lobby(tuple(PlayerInfo(i % 6, f"p{i}") for i in range(7))), "players"),
        (lambda: Lobby(({"seat": 0},)), "players"),  # type: ignore[arg-type]
        (lambda: Start(GAME_ID, None), "rules"),  # type: ignore[arg-type]
        (lambda: Statement("deal", b"", b"s"), "body"),
        (lambda: Statement("deal", b"b", b"s" * 257), "sig"),
        (lambda: Statement("", b"b", b"s"), "kind"),
        (lambda: Prompt(0, (Action("pass"),) * 4097), "legal"),  # empty is a dealer-blind prompt, §13
        (lambda: Prompt(0, (Action("pass"),), timeout_ms=-5), "timeout_ms"),
        (lambda: Prompt(0, (Action("pass"),), pending="a\tb"), "pending"),
        (lambda: Prompt(0, "pass"), "legal"),  # type: ignore[arg-type]
        (lambda: Sync(0, [1, 2]), "observation"),  # type: ignore[arg-type]
        (lambda: Sync(0, {1: "int key"}), "observation"),
        (lambda: Sync(0, {"s": {1, 2}}), "observation"),
        (lambda: Sync(0, {"f": float("nan")}), "observation"),
        (lambda: Sync(0, {"i": 2**64}), "observation"),
        (lambda: Sync(0, {"s": "\udc80"}), "observation"),  # lone surrogate: no UTF-8
        (lambda: Sync(0, {"s": "x" * 5000}), "observation"),
        (lambda: Sync(0, {"l": list(range(5000))}), "observation"),
        (lambda: Sync(0, {"m": {str(i): 0 for i in range(1025)}}), "observation"),
        (lambda: Sync(0, {"b": b"x" * (64 * 1024 + 1)}), "observation"),
        (lambda: End("finished", None), "result"),  # type: ignore[arg-type]
        (lambda: Reject(None, "stale state"), "code"),
        (lambda: ChatRelay(None, "", "hi"), "name"),
    ],
)
def test_constructors_refuse_bad_fields(make, field):
    with pytest.raises(FieldError) as info:
        make()
    assert info.value.field == field
    assert isinstance(info.value, ValueError)
    assert f"'{field}'" in str(info.value)


def test_observation_depth_and_size_limits():
    deep: dict = {}
    node = deep
    for _ in range(MAX_TREE_DEPTH - 1):
        node["d"] = {}
        node = node["d"]
    Sync(0, deep)  # exactly at the depth limit
    node["d"] = {}
    with pytest.raises(FieldError, match="deeper"):
        Sync(0, deep)
    wide = {"l": [[0] * 4000 for _ in range(MAX_TREE_NODES // 4000 + 1)]}
    with pytest.raises(FieldError, match="more than"):
        Sync(0, wide)


def test_lists_become_tuples_and_bytearrays_bytes():
    p = Prompt(0, [Action("pass")])
    assert p.legal == (Action("pass"),)
    assert Lobby([PlayerInfo(0, "a")]).players == (PlayerInfo(0, "a"),)
    assert SeedCommit(bytearray(GAME_ID), memoryview(b"\x00" * 32)).game_id == GAME_ID


def test_unicode_names_and_chat_are_fine():
    assert Hello("张伟").name == "张伟"
    assert Chat("游戏开始了！👍").text == "游戏开始了！👍"
    assert len(Hello("名" * 24).name) == 24


def test_observation_sizes_that_fit_a_frame():
    obs = {"hand": list(range(53)), "log": [{"kind": "attack", "seat": 1, "data": None}] * 500, "x": b"\x00"}
    data = encode_frame(Sync(3, obs).to_wire(seq=0))
    assert len(data) < MAX_FRAME
    assert Sync.from_wire(decode_payload(data[4:])) == Sync(3, obs)


# --- decoding peer data: RemoteProtocolError bad-field naming the field ---------------


def wire(msg, **changes):
    out = msg.to_wire(seq=0)
    out.update(changes)
    return out


@pytest.mark.parametrize(
    "cls, data, needle",
    [
        (Hello, wire(CLIENT_SAMPLES["hello"], name=""), "'name'"),
        (Hello, wire(CLIENT_SAMPLES["hello"], lang=None), "'lang'"),
        (Hello, {k: v for k, v in wire(CLIENT_SAMPLES["hello"]).items() if k != "lang"}, "'lang' is missing"),
        (Hello, wire(CLIENT_SAMPLES["hello"], admin=True), "'admin' is not a field"),
        (Hello, wire(CLIENT_SAMPLES["hello"], watch="yes", min_version=3), "'watch' must be true or false"),
        (Hello, wire(CLIENT_SAMPLES["hello"], watch=True, min_version=1), "'watch' needs min_version 3"),
        (Hello, wire(CLIENT_SAMPLES["hello"], watch=True, min_version=3, seat=0), "'watch' a spectator holds no seat"),
        (Hello, wire(CLIENT_SAMPLES["hello"], watch=None, min_version=3), "'watch'"),
        (ActionMessage, wire(CLIENT_SAMPLES["action"], action={"kind": "fly"}), "'action'"),
        (ActionMessage, wire(CLIENT_SAMPLES["action"], action=[1]), "'action'"),
        (ActionMessage, wire(CLIENT_SAMPLES["action"], action={"kind": "pass", "x": 1}), "unknown action field"),
        (ActionMessage, wire(CLIENT_SAMPLES["action"], state_id="7"), "'state_id'"),
        (ActionMessage, wire(CLIENT_SAMPLES["action"], game_id="0123456789abcdef"), "'game_id'"),
        (Prompt, wire(HOST_SAMPLES["prompt"], legal={"kind": "pass"}), "'legal'"),
        (Prompt, wire(HOST_SAMPLES["prompt"], legal=[{"kind": "pass"}, 5]), "'legal'"),
        (Welcome, wire(HOST_SAMPLES["welcome"], rules={"players": 9}), "'rules'"),
        (Welcome, wire(HOST_SAMPLES["welcome"], rules={"colour": "red"}), "'rules'"),
        (Welcome, wire(HOST_SAMPLES["welcome"], rules=[]), "'rules'"),
        (Welcome, wire(HOST_SAMPLES["welcome"], players={"seat": 0}), "'players'"),
        (Lobby, wire(HOST_SAMPLES["lobby"], players=[{"seat": 0, "name": "a"}]), "'players'"),
        (Lobby, wire(HOST_SAMPLES["lobby"], players=[1]), "'players'"),
        (Lobby, wire(HOST_SAMPLES["lobby"], players=[dict(PlayerInfo(0, "a").to_wire(), ready="yes")]), "'ready'"),
        (Sync, wire(HOST_SAMPLES["sync"], observation=None), "'observation'"),
        (Statement, wire(HOST_SAMPLES["statement"], body="text"), "'body'"),
        (End, wire(HOST_SAMPLES["end"], result=[]), "'result'"),
    ],
)
def test_from_wire_refuses_with_bad_field(cls, data, needle):
    with pytest.raises(RemoteProtocolError) as info:
        cls.from_wire(data)
    assert info.value.code == "bad-field"
    assert info.value.message.startswith(f"{cls.type} message: ")
    assert needle in info.value.message


def test_protocol_error_becomes_an_error_message_that_can_be_sent():
    exc = RemoteProtocolError("bad-field", "weird\x00text " + "x" * 600)
    msg = exc.to_message()
    assert isinstance(msg, ErrorMessage) and msg.code == "bad-field"
    assert len(msg.message) == 500 and "\x00" not in msg.message
    assert str(exc).startswith("bad-field: weird")
    assert isinstance(exc, ProtocolError)
    for code in PROTOCOL_CODES:  # every code is a valid wire code
        ErrorMessage(code)


def test_action_message_keeps_the_engine_action():
    msg = ActionMessage.from_wire(CLIENT_SAMPLES["action"].to_wire(seq=0))
    assert msg.action == Action("attack", target=2, cards=(12,), weapon=True)
    assert isinstance(msg.action, Action)


def test_rules_travel_as_a_validated_ruleset():
    rules = RuleSet(players=3, rounds=10, swap_prime_composite=True, identities="LFF")
    msg = Start.from_wire(Start(GAME_ID, rules).to_wire(seq=0))
    assert msg.rules == rules


def test_sample_frames_are_small():
    for _, msg in ALL_SAMPLES:
        assert len(encode_frame(msg.to_wire(seq=0))) < 2048
    assert msgpack.unpackb(encode_frame(CLIENT_SAMPLES["ping"].to_wire(seq=0))[4:]) == {
        "type": "ping", "seq": 0, "nonce": 41,
    }


def test_the_spec_lists_every_message_and_code():
    from pathlib import Path

    spec = (Path(__file__).resolve().parents[1] / "specs" / "protocol.md").read_text(encoding="utf-8")
    for registry in (CLIENT_MESSAGES, HOST_MESSAGES):
        for kind, cls in registry.items():
            assert f"| `{kind}` [`{cls.__name__}`] |" in spec, kind
            for f in dataclasses.fields(cls):
                if f.name != "seq":
                    assert f"`{f.name}`" in spec, (kind, f.name)
    for code in PROTOCOL_CODES:
        assert f"| `{code}` |" in spec, code
