"""Per-role state machines: the full exchange, what each state allows, seq, versions, closing."""

from __future__ import annotations

import pytest

from jupai_net.actions import Action
from jupai_net.protocol import (
    EOF,
    NEED_DATA,
    ActionMessage,
    Bye,
    Chat,
    ChatRelay,
    ClientConnection,
    End,
    ErrorMessage,
    FieldError,
    Hello,
    HostConnection,
    LocalProtocolError,
    Lobby,
    Ping,
    Pong,
    Prompt,
    Ready,
    Reject,
    RemoteProtocolError,
    Role,
    SeedCommit,
    SeedReveal,
    Start,
    State,
    Statement,
    Sync,
    Welcome,
)
from jupai_net.protocol.framing import encode_frame

from .test_protocol_support import (
    CLIENT_SAMPLES,
    GAME_ID,
    GAME_ID_2,
    HOST_SAMPLES,
    PLAYERS,
    RULES,
    TOKEN,
    deliver,
    frame,
    pair,
)

# What each side may receive, written out from specs/protocol.md § State machine.
ALWAYS = {"error", "bye"}
LIVE = {"chat", "ping", "pong"}
CLIENT_MAY_RECEIVE = {
    "new": ALWAYS,
    "hello": ALWAYS | {"welcome"},
    "lobby": ALWAYS | LIVE | {"lobby", "notice", "statement", "reject", "start", "series"},
    "game": ALWAYS | LIVE | {"lobby", "notice", "statement", "reject", "prompt", "sync", "end", "series"},
    "lobby-after-game": ALWAYS | LIVE | {"lobby", "notice", "statement", "reject", "start", "series"},
}
HOST_MAY_RECEIVE = {
    "new": ALWAYS | {"hello"},
    "hello": ALWAYS,
    "lobby": ALWAYS | LIVE | {"ready"},
    # a client's lobby/game messages may cross start/end in flight
    "game": ALWAYS | LIVE | {"ready", "seed_commit", "seed_reveal", "blind", "action"},
    "lobby-after-game": ALWAYS | LIVE | {"ready", "seed_commit", "seed_reveal", "blind", "action"},
}
CLIENT_MAY_SEND = {
    "new": ALWAYS | {"hello"},
    "hello": ALWAYS,
    "lobby": ALWAYS | LIVE | {"ready"},
    "game": ALWAYS | LIVE | {"seed_commit", "seed_reveal", "blind", "action"},
    "lobby-after-game": ALWAYS | LIVE | {"ready"},
}
HOST_MAY_SEND = {
    "new": ALWAYS,
    "hello": ALWAYS | {"welcome"},
    "lobby": CLIENT_MAY_RECEIVE["lobby"],
    "game": CLIENT_MAY_RECEIVE["game"],
    "lobby-after-game": CLIENT_MAY_RECEIVE["lobby-after-game"],
}
STAGE_STATE = {
    "new": State.HANDSHAKE,
    "hello": State.HANDSHAKE,
    "lobby": State.LOBBY,
    "game": State.GAME,
    "lobby-after-game": State.LOBBY,
}
STAGES = list(STAGE_STATE)


def test_a_whole_session():
    c, h = ClientConnection(), HostConnection()
    assert c.role is Role.CLIENT and h.role is Role.HOST
    assert c.state is h.state is State.HANDSHAKE and c.version is h.version is None

    hello = deliver(c, h, Hello("Ann", seat=1))
    assert hello == Hello("Ann", seat=1) and hello.seq == 0
    assert h.version == 8 and c.state is State.HANDSHAKE

    welcome = deliver(h, c, Welcome(seat=1, token=TOKEN, rules=RULES, players=PLAYERS))
    assert welcome.seat == 1 and welcome.players == PLAYERS
    assert c.state is h.state is State.LOBBY and c.version == h.version == 8

    assert deliver(h, c, Lobby(PLAYERS)).players == PLAYERS
    assert deliver(c, h, Ready(True)).ready is True
    assert deliver(c, h, Chat("hi")).seq == 2
    assert deliver(h, c, ChatRelay(1, "Ann", "hi")).text == "hi"

    deliver(h, c, Start(GAME_ID, RULES))
    assert c.state is h.state is State.GAME and c.game_id == h.game_id == GAME_ID
    deliver(h, c, Statement("start", b"body", b"s" * 64))
    assert deliver(c, h, SeedCommit(c.game_id, b"c" * 32)).commitment == b"c" * 32
    deliver(h, c, Statement("commitments", b"body", b"s" * 64))
    assert deliver(c, h, SeedReveal(c.game_id, b"s" * 32)).seed == b"s" * 32
    deliver(h, c, Sync(0, {"hand": [1, 2]}))
    prompt = deliver(h, c, Prompt(0, (Action("pass"),), timeout_ms=30_000, pending="attack"))
    act = deliver(c, h, ActionMessage(c.game_id, prompt.state_id, prompt.legal[0]))
    assert act.state_id == 0 and act.action == Action("pass")
    deliver(h, c, Sync(1, {"hand": [1, 2]}))
    assert deliver(c, h, Ping(9)).nonce == 9
    assert deliver(h, c, Pong(9)).nonce == 9

    deliver(h, c, End("finished", {"ranking": [1, 0]}))
    assert c.state is h.state is State.LOBBY
    assert deliver(c, h, Bye("quit")).reason == "quit"
    assert c.state is h.state is State.CLOSED
    assert c.our_closed and h.their_closed
    assert (c.our_seq, c.their_seq, h.our_seq, h.their_seq) == (8, 11, 11, 8)

    h.receive_data(b"")
    assert h.next_event() is EOF
    assert h.next_event() is EOF


def test_several_messages_in_one_chunk_and_byte_by_byte():
    c, h = pair("lobby")
    data = b"".join(h.send(m) for m in (Lobby(PLAYERS), ChatRelay(None, "Host", "a"), Start(GAME_ID, RULES)))
    events = []
    for i in range(len(data)):
        c.receive_data(data[i : i + 1])
        while (e := c.next_event()) is not NEED_DATA:
            events.append(e)
    assert [e.type for e in events] == ["lobby", "chat", "start"]
    assert c.state is State.GAME and c.buffered == 0


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("kind", sorted(HOST_SAMPLES))
def test_client_receives_exactly_what_its_state_allows(stage, kind):
    c, _ = pair(stage)
    assert c.state is STAGE_STATE[stage]
    c.receive_data(frame(HOST_SAMPLES[kind], c.their_seq))
    if kind in CLIENT_MAY_RECEIVE[stage]:
        assert c.next_event() == HOST_SAMPLES[kind]
    else:
        with pytest.raises(RemoteProtocolError) as info:
            c.next_event()
        assert info.value.code == "unexpected-message"
        assert kind in info.value.message and "host" in info.value.message


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("kind", sorted(CLIENT_SAMPLES))
def test_host_receives_exactly_what_its_state_allows(stage, kind):
    _, h = pair(stage)
    h.receive_data(frame(CLIENT_SAMPLES[kind], h.their_seq))
    if kind in HOST_MAY_RECEIVE[stage]:
        assert h.next_event() == CLIENT_SAMPLES[kind]
    else:
        with pytest.raises(RemoteProtocolError) as info:
            h.next_event()
        assert info.value.code == "unexpected-message"
        assert kind in info.value.message and "client" in info.value.message


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("kind", sorted(CLIENT_SAMPLES))
def test_client_sends_exactly_what_its_state_allows(stage, kind):
    c, _ = pair(stage)
    seq = c.our_seq
    if kind in CLIENT_MAY_SEND[stage]:
        assert c.send(CLIENT_SAMPLES[kind])[:4] != b""
        assert c.our_seq == seq + 1
    else:
        with pytest.raises(LocalProtocolError) as info:
            c.send(CLIENT_SAMPLES[kind])
        assert info.value.code == "unexpected-message"
        assert c.our_seq == seq and c.state is STAGE_STATE[stage]


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("kind", sorted(HOST_SAMPLES))
def test_host_sends_exactly_what_its_state_allows(stage, kind):
    _, h = pair(stage)
    seq = h.our_seq
    if kind in HOST_MAY_SEND[stage]:
        h.send(HOST_SAMPLES[kind])
        assert h.our_seq == seq + 1
    else:
        with pytest.raises(LocalProtocolError) as info:
            h.send(HOST_SAMPLES[kind])
        assert info.value.code == "unexpected-message"
        assert h.our_seq == seq and h.state is STAGE_STATE[stage]


def test_messages_of_the_other_role_are_unknown_types():
    c, h = pair("lobby")
    h.receive_data(frame(HOST_SAMPLES["lobby"], 1))
    with pytest.raises(RemoteProtocolError) as info:
        h.next_event()
    assert info.value.code == "unknown-type"
    assert "'lobby' messages are sent by the host, not by the client" in info.value.message
    with pytest.raises(LocalProtocolError, match="unknown-type"):
        c.send(HOST_SAMPLES["lobby"])
    with pytest.raises(LocalProtocolError, match="unknown-type"):
        c.send(ChatRelay(0, "Ann", "hi"))  # same wire type as Chat, but the host's class
    _, h = pair("lobby")
    with pytest.raises(LocalProtocolError, match="unknown-type"):
        h.send(Chat("hi"))
    with pytest.raises(LocalProtocolError, match="unknown-type"):
        h.send({"type": "chat"})  # type: ignore[arg-type]


def test_seq_must_count_up_from_zero():
    h = HostConnection()
    h.receive_data(frame(Hello("Ann"), 1))
    with pytest.raises(RemoteProtocolError) as info:
        h.next_event()
    assert info.value.code == "bad-seq" and "expected 0" in info.value.message
    c, h = pair("lobby")
    h.receive_data(frame(Ready(), 1) + frame(Ready(), 1))
    assert h.next_event() == Ready()
    with pytest.raises(RemoteProtocolError, match="bad-seq"):
        h.next_event()
    for bad in (None, "1", True, 1.0):
        h2 = HostConnection()
        h2.receive_data(encode_frame(dict(Hello("Ann").to_wire(), seq=bad)))
        with pytest.raises(RemoteProtocolError, match="bad-seq"):
            h2.next_event()


def test_hello_is_sent_once_and_welcome_needs_it():
    c, h = pair("hello")
    with pytest.raises(LocalProtocolError, match="unexpected-message"):
        c.send(Hello("Ann"))
    h.receive_data(frame(Hello("Ann"), 1))
    with pytest.raises(RemoteProtocolError, match="after the hello"):
        h.next_event()
    fresh = HostConnection()
    with pytest.raises(LocalProtocolError, match="only after the client's hello"):
        fresh.send(Welcome(seat=0, token=TOKEN, rules=RULES))
    client = ClientConnection()
    client.receive_data(frame(Welcome(seat=0, token=TOKEN, rules=RULES), 0))
    with pytest.raises(RemoteProtocolError, match="unexpected-message"):
        client.next_event()


# --- versions -------------------------------------------------------------------------


@pytest.mark.parametrize("low, high", [(9, 9), (9, 10), (0, 0)])
def test_host_refuses_a_client_of_another_version_clearly(low, high):
    h = HostConnection()
    h.receive_data(frame(Hello("Ann", version=high, min_version=low), 0))
    with pytest.raises(RemoteProtocolError) as info:
        h.next_event()
    assert info.value.code == "version-mismatch"
    assert "this host speaks protocol version 1, 2, 3, 4, 5, 6, 7, 8" in info.value.message
    assert f"the client speaks {high if low == high else f'{low}..{high}'}" in info.value.message
    assert h.version is None
    # the host can still tell the client why, in the error message every version can read
    data = h.send(info.value.to_message())
    c = ClientConnection()
    c.send(Hello("Ann", version=high, min_version=low))
    c.receive_data(data)
    err = c.next_event()
    assert isinstance(err, ErrorMessage) and err.code == "version-mismatch" and c.state is State.CLOSED


def test_version_is_read_before_other_fields_of_a_future_hello():
    h = HostConnection()
    # a version-9 hello with fields this version does not know
    h.receive_data(encode_frame({"type": "hello", "seq": 0, "version": 9, "min_version": 9, "avatar": b"..."}))
    with pytest.raises(RemoteProtocolError, match="version-mismatch"):
        h.next_event()
    h = HostConnection()
    h.receive_data(encode_frame({"type": "hello", "seq": 0, "version": "1"}))
    with pytest.raises(RemoteProtocolError, match="bad-field"):
        h.next_event()


def test_negotiation_picks_the_highest_shared_version():
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=9, min_version=1))
    assert h.version == 8
    with pytest.raises(LocalProtocolError, match="negotiated version is 8"):
        h.send(Welcome(seat=0, token=TOKEN, rules=RULES, version=9))
    deliver(h, c, Welcome(seat=0, token=TOKEN, rules=RULES, version=8))
    assert c.version == 8
    # a version-7 client (no reject.args) is still served, in version 7
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=7, min_version=1))
    assert h.version == 7
    # a version-6 client (no error.args) is still served, in version 6
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=6, min_version=1))
    assert h.version == 6
    # a version-5 client (no deferred signatures) is still served, in version 5
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=5, min_version=1))
    assert h.version == 5
    # a version-4 client (no hash-chained statements) is still served, in version 4
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=4, min_version=1))
    assert h.version == 4
    # a version-3 client (no dealer-blind games) is still served, in version 3
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=3, min_version=1))
    assert h.version == 3
    # a version-2 client (no hello.watch) is still served, in version 2
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=2, min_version=1))
    assert h.version == 2
    # a version-1 client (no hello.bot) is still served, in version 1
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=1, min_version=1))
    assert h.version == 1
    deliver(h, c, Welcome(seat=0, token=TOKEN, rules=RULES, version=1))
    assert c.version == 1


def test_a_bot_hello_needs_version_2_and_a_version_1_host_says_so(monkeypatch):
    c, h = ClientConnection(), HostConnection()
    hello = deliver(c, h, Hello("random bot", bot=True, min_version=2))
    assert hello.bot is True and h.version == 8
    # a person's hello leaves the key out: it is a valid version-1 hello too
    assert "bot" not in Hello("Ann").to_wire(seq=0) and Hello("Ann").bot is False
    with pytest.raises(FieldError, match="bot"):
        Hello("random bot", bot=True)  # min_version 1 with bot: refused locally
    # a host that speaks only version 1 reports a version mismatch, not an unknown key
    monkeypatch.setattr("jupai_net.protocol.connection.SUPPORTED_VERSIONS", (1,))
    h = HostConnection()
    h.receive_data(frame(Hello("random bot", bot=True, min_version=2), 0))
    with pytest.raises(RemoteProtocolError, match="version-mismatch"):
        h.next_event()


def test_client_refuses_a_welcome_in_another_version():
    c = ClientConnection()
    c.send(Hello("Ann"))
    c.receive_data(frame(Welcome(seat=0, token=TOKEN, rules=RULES, version=9), 0))
    with pytest.raises(RemoteProtocolError) as info:
        c.next_event()
    assert info.value.code == "version-mismatch"
    assert "the host chose protocol version 9, this client speaks 1..8" in info.value.message


def test_a_spectator_hello_needs_version_3_and_older_hosts_say_so(monkeypatch):
    c, h = ClientConnection(), HostConnection()
    hello = deliver(c, h, Hello("Bob", watch=True, min_version=3))
    assert hello.watch is True and hello.seat is None and h.version == 8
    assert hello.to_wire(seq=0)["watch"] is True
    # a player's hello leaves the key out: still a valid version-1 hello
    assert "watch" not in Hello("Ann").to_wire(seq=0)
    # a spectator welcome carries no seat
    deliver(h, c, Welcome(seat=None, token=TOKEN, rules=RULES, players=PLAYERS))
    assert c.state is State.LOBBY
    # hosts of versions 1 and 2 report a version mismatch, not an unknown key
    for versions in ((1,), (1, 2)):
        monkeypatch.setattr("jupai_net.protocol.connection.SUPPORTED_VERSIONS", versions)
        h = HostConnection()
        h.receive_data(frame(Hello("Bob", watch=True, min_version=3), 0))
        with pytest.raises(RemoteProtocolError, match="version-mismatch"):
            h.next_event()


# --- games: game id, crossing messages, stale actions ------------------------------------


def test_client_game_messages_must_name_the_running_game():
    c, _ = pair("game")
    for msg in (
        SeedCommit(GAME_ID_2, b"c" * 32),
        SeedReveal(GAME_ID_2, b"s" * 32),
        ActionMessage(GAME_ID_2, 0, Action("pass")),
    ):
        with pytest.raises(LocalProtocolError) as info:
            c.send(msg)
        assert info.value.code == "bad-field"
    c.send(ActionMessage(GAME_ID, 0, Action("pass")))


def test_messages_crossing_start_and_end_are_accepted_by_the_host():
    c, h = pair("lobby")
    to_host = c.send(Ready(True))  # client still in the lobby ...
    to_client = h.send(Start(GAME_ID, RULES))  # ... while the host starts the game
    h.receive_data(to_host)
    assert h.next_event() == Ready(True) and h.state is State.GAME
    c.receive_data(to_client)
    assert c.next_event() == Start(GAME_ID, RULES)
    to_host = c.send(ActionMessage(GAME_ID, 4, Action("pass")))
    to_client = h.send(End("aborted"))
    h.receive_data(to_host)
    stale = h.next_event()
    assert isinstance(stale, ActionMessage) and h.state is State.LOBBY
    # the host logic refuses it; a reject is allowed in the lobby too
    c.receive_data(to_client + h.send(Reject(stale.state_id, "wrong-game", "that game is over")))
    assert c.next_event() == End("aborted")
    assert c.next_event() == Reject(4, "wrong-game", "that game is over")


def test_stale_action_then_reject_and_full_sync():
    c, h = pair("game")
    deliver(h, c, Prompt(3, (Action("pass"),)))
    act = deliver(c, h, ActionMessage(GAME_ID, 3, Action("pass")))
    assert act.state_id == 3  # the host finds the table at state 4: stale
    deliver(h, c, Reject(3, "stale-state", "the table moved on to state 4"))
    sync = deliver(h, c, Sync(4, {"hand": []}))
    assert sync.state_id == 4 and c.state is State.GAME


def test_a_second_game_on_the_same_connection():
    c, h = pair("lobby-after-game")
    three = RULES.replace(players=3)
    assert deliver(h, c, Start(GAME_ID_2, three)).rules == three
    assert c.game_id == h.game_id == GAME_ID_2 and c.state is State.GAME
    assert deliver(c, h, ActionMessage(GAME_ID_2, 0, Action("pass"))).game_id == GAME_ID_2


def test_reconnect_gets_welcome_start_and_sync():
    c, h = ClientConnection(), HostConnection()
    assert deliver(c, h, Hello("Ann", token=TOKEN)).token == TOKEN
    deliver(h, c, Welcome(seat=2, token=TOKEN, rules=RULES, players=PLAYERS))
    deliver(h, c, Start(GAME_ID, RULES))
    assert deliver(h, c, Sync(17, {"hand": [5]})).state_id == 17
    assert c.state is State.GAME and c.game_id == GAME_ID


# --- closing ---------------------------------------------------------------------------


def test_error_closes_and_later_sends_are_refused():
    c, h = pair("game")
    err = deliver(h, c, ErrorMessage("kicked", "bye now"))
    assert err.code == "kicked" and c.state is h.state is State.CLOSED
    for conn, msg in ((h, Lobby()), (h, Bye()), (c, Bye()), (c, Chat("x"))):
        with pytest.raises(LocalProtocolError) as info:
            conn.send(msg)
        assert info.value.code == "closed"


def test_data_after_the_peers_bye_is_an_error():
    c, h = pair("lobby")
    h.receive_data(c.send(Bye()) + frame(Chat("still here"), 1))
    assert h.next_event() == Bye()
    with pytest.raises(RemoteProtocolError) as info:
        h.next_event()
    assert info.value.code == "data-after-close"


def test_after_our_bye_messages_in_flight_are_still_read():
    c, h = pair("game")
    in_flight = h.send(Sync(2, {})) + h.send(Bye("host-shutdown"))
    c.send(Bye("quit"))
    assert c.state is State.CLOSED
    c.receive_data(in_flight)
    assert c.next_event() == Sync(2, {})
    assert c.next_event() == Bye("host-shutdown")
    c.receive_data(b"")
    assert c.next_event() is EOF


def test_end_of_stream_without_bye():
    c, h = pair("game")
    h.receive_data(b"")
    assert h.next_event() is EOF
    assert h.state is State.CLOSED and h.their_closed
    with pytest.raises(LocalProtocolError, match="closed"):
        h.send(Sync(0, {}))
    h.receive_data(b"")  # a second end of stream is harmless
    assert h.next_event() is EOF
    with pytest.raises(LocalProtocolError, match="closed"):
        h.receive_data(b"more")


def test_end_of_stream_inside_a_frame():
    c, h = pair("lobby")
    data = c.send(Chat("hello there"))
    h.receive_data(data[:-3])
    assert h.next_event() is NEED_DATA
    h.receive_data(b"")
    with pytest.raises(RemoteProtocolError) as info:
        h.next_event()
    assert info.value.code == "truncated"


def test_remote_error_sticks_and_only_error_or_bye_may_follow():
    c, h = pair("lobby")
    h.receive_data(b"\x00\x00\x00\x01\xc1")
    with pytest.raises(RemoteProtocolError) as first:
        h.next_event()
    assert first.value.code == "bad-msgpack"
    h.receive_data(frame(Ready(), 1))  # even a good message later is not read
    with pytest.raises(RemoteProtocolError) as again:
        h.next_event()
    assert again.value is first.value
    with pytest.raises(LocalProtocolError, match="after a protocol error"):
        h.send(Lobby())
    data = h.send(first.value.to_message())
    assert h.state is State.CLOSED
    c.receive_data(data)
    assert c.next_event() == ErrorMessage("bad-msgpack", first.value.message)
    assert c.state is State.CLOSED


def test_oversize_frame_is_refused_before_the_body_arrives():
    _, h = pair("lobby")
    h.receive_data((10**9).to_bytes(4, "big"))  # 1 GB announced, nothing more sent
    with pytest.raises(RemoteProtocolError) as info:
        h.next_event()
    assert info.value.code == "frame-too-large" and h.buffered == 4


def test_host_refuses_to_send_an_oversize_message():
    _, h = pair("game")
    big = {"blob": [b"\x00" * 60_000] * 5}
    with pytest.raises(LocalProtocolError) as info:
        h.send(Sync(0, big))
    assert info.value.code == "frame-too-large" and h.our_seq == 2
    small = HostConnection(max_frame=100)
    small.receive_data(frame(Hello("Ann"), 0))
    small.next_event()
    with pytest.raises(LocalProtocolError, match="frame-too-large"):
        small.send(Welcome(seat=0, token=TOKEN, rules=RULES))


@pytest.mark.parametrize(
    "data, code",
    [
        (encode_frame([1, 2]), "not-a-map"),
        (encode_frame("hello"), "not-a-map"),
        (encode_frame({"seq": 0}), "unknown-type"),
        (encode_frame({"type": 5, "seq": 0}), "unknown-type"),
        (encode_frame({"type": "launch", "seq": 0}), "unknown-type"),
        (encode_frame({b"type": "chat", "seq": 0}), "bad-field"),
        (encode_frame({"type": "chat", "seq": 1, "text": 5}), "bad-field"),
        (encode_frame({"type": "chat", "seq": 1}), "bad-field"),
        (b"\x00\x00\x00\x03abc", "bad-msgpack"),
    ],
)
def test_bad_frames_raise_typed_errors(data, code):
    _, h = pair("lobby")
    h.receive_data(data)
    with pytest.raises(RemoteProtocolError) as info:
        h.next_event()
    assert info.value.code == code and info.value.message


def test_repr_shows_state():
    c, _ = pair("game")
    assert repr(c) == "<ClientConnection state=GAME our_seq=1 their_seq=2>"
    assert repr(NEED_DATA) == "NEED_DATA" and repr(EOF) == "EOF"


def test_a_blind_message_needs_version_4_on_both_sides_and_start_names_the_dealer():
    from jupai_net.protocol import Blind

    msg = Blind(GAME_ID, b"\x92\xc4\x01\x00\xc4\x40" + b"\x00" * 64)
    # a version-3 connection: the client does not send it, the host refuses it
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=3, min_version=1))
    deliver(h, c, Welcome(seat=0, token=TOKEN, rules=RULES, version=3))
    deliver(h, c, Start(GAME_ID, RULES))
    with pytest.raises(LocalProtocolError, match="unexpected-message.*version 4"):
        c.send(msg)
    h.receive_data(encode_frame(msg.to_wire(seq=c.our_seq)))
    with pytest.raises(RemoteProtocolError, match="unexpected-message.*version 4"):
        h.next_event()
    # version 4: carried; a trusted start leaves the dealer key out (a valid version-3 start)
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann", version=4, min_version=1))
    deliver(h, c, Welcome(seat=0, token=TOKEN, rules=RULES, version=4))
    assert "dealer" not in Start(GAME_ID, RULES).to_wire(seq=0)
    assert deliver(h, c, Start(GAME_ID, RULES, "blind")).dealer == "blind"
    assert deliver(c, h, msg) == msg
    with pytest.raises(FieldError, match="dealer"):
        Start(GAME_ID, RULES, "psychic")
    with pytest.raises(FieldError, match="msg"):
        Blind(GAME_ID, b"")
