"""Forward compatibility (specs/protocol.md §6): a client ignores the keys it does not
know in the informative host messages (welcome, lobby, notice, chat, series and their
player/standing entries), so a newer host of the same version may add information;
every other message, anything signed and everything a client sends stay strict.
Issue 12 (trial of main): a client built before ``welcome.dealer`` existed failed
against a newer version-4 host with "the host broke the protocol"."""

from __future__ import annotations

import pytest
import trio

from jupai_net.protocol import NEED_DATA, Lobby, Notice, RemoteProtocolError, Welcome
from jupai_net.protocol.errors import BAD_FIELD
from jupai_net.protocol.framing import encode_frame

from .test_net_hostile_host import join_against, read_hello
from .test_protocol_support import CLIENT_SAMPLES, HOST_SAMPLES, PLAYERS, RULES, TOKEN, pair

LENIENT = {"welcome", "lobby", "notice", "chat", "series"}
#: the stage a client must be at to take each host message
STAGE = {"welcome": "hello", "start": "lobby"}


def with_key(msg, seq: int, **extra) -> bytes:
    """The frame of ``msg`` with ``extra`` keys added to its wire map."""
    return encode_frame({**msg.to_wire(seq=seq), **extra})


@pytest.mark.parametrize("kind", sorted(HOST_SAMPLES))
def test_a_host_message_with_a_key_this_client_does_not_know(kind):
    msg = HOST_SAMPLES[kind]
    c, h = pair(STAGE.get(kind, "game"))
    c.receive_data(with_key(msg, h.our_seq, later={"label": "from a newer host"}))
    if kind in LENIENT:
        assert c.next_event() == msg
        assert c.next_event() is NEED_DATA
    else:
        with pytest.raises(RemoteProtocolError) as err:
            c.next_event()
        assert err.value.code == BAD_FIELD and "'later' is not a field" in str(err.value)


def test_unknown_keys_in_player_and_standing_entries_are_ignored():
    c, h = pair("game")
    lobby = Lobby(PLAYERS).to_wire(seq=h.our_seq)
    lobby["players"] = [{**p, "away": True} for p in lobby["players"]]
    series = HOST_SAMPLES["series"].to_wire(seq=h.our_seq + 1)
    series["standings"] = [{**s, "streak": 2} for s in series["standings"]]
    c.receive_data(encode_frame(lobby) + encode_frame(series))
    assert c.next_event() == Lobby(PLAYERS)
    assert c.next_event() == HOST_SAMPLES["series"]


@pytest.mark.parametrize("extra, code, field", [({1: "x"}, "bad-msgpack", ""), ({"dealer": "nobody"}, BAD_FIELD, "dealer")])
def test_a_lenient_message_still_refuses_a_bad_known_key_or_a_key_that_is_not_a_string(extra, code, field):
    c, h = pair("lobby")
    c.receive_data(encode_frame({**Lobby(PLAYERS).to_wire(seq=h.our_seq), **extra}))
    with pytest.raises(RemoteProtocolError) as err:
        c.next_event()
    assert err.value.code == code and field in str(err.value)


def test_a_new_rule_setting_in_a_welcome_is_still_refused():
    """``welcome.rules`` changes the game: an unknown setting there is not information."""
    c, h = pair("hello")
    msg = Welcome(seat=0, token=TOKEN, rules=RULES).to_wire(seq=h.our_seq)
    msg["rules"] = {**msg["rules"], "jokers": 2}
    c.receive_data(encode_frame(msg))
    with pytest.raises(RemoteProtocolError) as err:
        c.next_event()
    assert "jokers" in str(err.value)


def test_the_host_stays_strict_with_what_a_client_sends():
    c, h = pair("new")
    h.receive_data(with_key(CLIENT_SAMPLES["hello"], 0, later=1))
    with pytest.raises(RemoteProtocolError):
        h.next_event()


@pytest.mark.parametrize("lang, stopped", [("en", "the host was stopped"), ("zh", "主机已停止")])
def test_jupai_join_against_a_newer_host_that_adds_keys(tmp_path, lang, stopped):
    """Through the command: a newer host's welcome, lobby and notice each carry a key
    this client does not know (and so does every player entry); the client takes them
    and stays at the table until the host's goodbye, instead of "the host broke the
    protocol"."""

    async def handler(tls, n):
        conn = await read_hello(tls)
        wire = Welcome(0, TOKEN, RULES, PLAYERS[:2], version=conn.version).to_wire(seq=0)
        wire["players"] = [{**p, "away": False} for p in wire["players"]]
        data = encode_frame({**wire, "table_name": "Friday", "dealer": "blind"})
        data += encode_frame({**Lobby(PLAYERS[:2]).to_wire(seq=1), "spectators": 2})
        data += encode_frame({**Notice("player-joined", "Ann joined").to_wire(seq=2), "icon": "wave"})
        data += encode_frame({"type": "bye", "seq": 3, "reason": "host-shutdown"})
        await tls.send_all(data)
        await trio.sleep(3)

    code, text, err = join_against(tmp_path, handler, "--lang", lang)
    assert "Traceback" not in err + text
    assert "protocol" not in err and "协议" not in err, err
    assert stopped in err + text, (code, text, err)
