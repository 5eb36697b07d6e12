"""``error.args`` (protocol version 7, specs/protocol.md § Errors): the seat a host's
waiting list keeps travels as data, not in the English words a client used to read;
older clients and older hosts keep working (issue 12)."""

from __future__ import annotations

import dataclasses

import pytest

from jupai_net.client.session import kept_seat
from jupai_net.host.server import for_version
from jupai_net.protocol import ClientConnection, ErrorMessage, Hello, HostConnection, LocalProtocolError
from jupai_net.protocol.errors import RemoteProtocolError

KEPT = "a game is running at this table: you take seat 2 at the next game (you are on the waiting list; " \
       "say hello again within 10 s)"


def _over(client_version: int, msg: ErrorMessage) -> ErrorMessage:
    """``msg`` from a host to a client that says hello with ``version=client_version``,
    fitted by the server to the negotiated version, sent and decoded on the client."""
    c, h = ClientConnection(), HostConnection()
    h.receive_data(c.send(Hello("Ann", version=client_version, min_version=1)))
    h.next_event()
    c.receive_data(h.send(for_version(msg, h.version)))
    got = c.next_event()
    assert isinstance(got, ErrorMessage)
    return got


def test_the_kept_seat_is_data_for_a_version_7_client_and_words_for_an_older_one():
    msg = ErrorMessage("game-running", KEPT, {"seat": 2})
    new = _over(7, msg)
    assert new.args == {"seat": 2} and kept_seat(new) == 2
    old = _over(6, msg)  # a version-6 client would refuse an error with a key it does not know
    assert old.args == {} and old.message == KEPT
    assert "args" not in old.to_wire(seq=0)
    assert kept_seat(old) == 2  # an older release of this client reads the words, as before


def test_a_host_connection_refuses_to_send_args_below_version_7():
    c, h = ClientConnection(), HostConnection()
    h.receive_data(c.send(Hello("Ann", version=6, min_version=1)))
    h.next_event()
    with pytest.raises(LocalProtocolError, match="error.args needs protocol version 7"):
        h.send(ErrorMessage("game-running", KEPT, {"seat": 2}))


def test_the_client_reads_the_seat_from_args_first_and_from_an_older_hosts_words():
    assert kept_seat(ErrorMessage("game-running", KEPT)) == 2  # a host of an older release
    assert kept_seat(ErrorMessage("game-running", "a game is running", {"seat": 1})) == 1
    # args are the truth when present: no seat in them keeps none, whatever the words say
    assert kept_seat(ErrorMessage("game-running", KEPT, {"other": 1})) is None
    for bad in (-1, 6, True, "2", 2.0):
        assert kept_seat(ErrorMessage("game-running", "x", {"seat": bad})) is None
    assert kept_seat(ErrorMessage("game-running", "a game is running and you hold no seat in it")) is None


def test_error_args_are_checked_as_a_tree():
    wire = ErrorMessage("game-running", KEPT, {"seat": 2}).to_wire(seq=0)
    assert wire["args"] == {"seat": 2}
    assert "args" not in ErrorMessage("kicked", "bye").to_wire(seq=0)  # left out when empty
    assert ErrorMessage.from_wire(wire) == dataclasses.replace(ErrorMessage("game-running", KEPT, {"seat": 2}))
    with pytest.raises(RemoteProtocolError, match="bad-field"):
        ErrorMessage.from_wire({**wire, "args": [1, 2]})
