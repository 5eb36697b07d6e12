"""Misbehaving peers over real TLS: each gets the specified error (or reject), the host
keeps running and the other players' game finishes (specs/host.md § Bad peers)."""

from __future__ import annotations

import pytest
import trio

from jupai_net.actions import Action
from jupai_net.client.bot import BotPlayer
from jupai_net.client.session import run_session
from jupai_net.fairness import VERIFIED
from jupai_net.protocol import (
    ActionMessage,
    End,
    ErrorMessage,
    Hello,
    Ping,
    Prompt,
    Reject,
    Sync,
    Welcome,
)

from .test_net_support import RawClient, host_config, pin, start_host


async def expect_error(raw: RawClient, code: str) -> ErrorMessage:
    """Read until the host's error; then the connection must end."""
    while True:
        msg = await raw.recv()
        assert msg is not None, f"connection closed without an error; got {raw.received}"
        if isinstance(msg, ErrorMessage):
            assert msg.code == code, msg
            assert msg.message  # a clear sentence, not just a code
            assert await raw.recv() is None  # and then the host closes
            return msg


async def healthy(server) -> None:
    """The host still answers a new client properly."""
    raw = await RawClient.connect(server.port)
    await raw.send(Hello("probe"))
    msg = await raw.recv()
    assert isinstance(msg, (Welcome, ErrorMessage))  # admitted, or a clear refusal (game running)
    await raw.aclose()


async def bot_clients(nursery, server, n, results, *, start=0):
    for i in range(start, start + n):
        async def one(i=i):
            results[i] = await run_session("127.0.0.1", server.port, name=f"bot{i}", player=BotPlayer("random", seed=i),
                                           check_fingerprint=pin, save_resume=False, transcript_path=None)
        nursery.start_soon(one)


@pytest.mark.parametrize(
    "data, code",
    [
        (b"\x00\x00\x00\x03\xc1\xc1\xc1", "bad-msgpack"),  # 0xc1 is never valid msgpack
        (b"\x00\x00\x00\x01\x2a", "not-a-map"),
        (b"\xff\xff\xff\xff", "frame-too-large"),  # refused on the prefix alone
        (b"\x00\x00\x00\x0c\x81\xa4type\xa5hello", "bad-seq"),  # type but no seq
    ],
)
async def test_garbage_and_oversize_frames_get_an_error(data, code):
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None))
        raw = await RawClient.connect(server.port)
        await raw.send_raw(data)
        await expect_error(raw, code)
        assert server.stats["protocol_errors"] == 1
        await healthy(server)
        nursery.cancel_scope.cancel()


async def test_plain_tcp_garbage_without_tls_is_dropped():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None))
        tcp = await trio.open_tcp_stream("127.0.0.1", server.port)
        await tcp.send_all(b"GET / HTTP/1.0\r\n\r\n" + bytes(range(256)))
        with trio.fail_after(5):
            rest = b""
            async for chunk in tcp:  # the host answers with a TLS alert at most, then closes
                rest += chunk
        await tcp.aclose()
        await healthy(server)
        nursery.cancel_scope.cancel()


async def test_wrong_protocol_version_is_refused_clearly():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None))
        raw = await RawClient.connect(server.port)
        await raw.send(Hello("future", version=99, min_version=99))
        err = await expect_error(raw, "version-mismatch")
        assert "99" in err.message and "1" in err.message
        await healthy(server)
        nursery.cancel_scope.cancel()


async def test_silent_client_gets_a_hello_timeout():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None, hello_timeout=0.2))
        raw = await RawClient.connect(server.port)
        await expect_error(raw, "hello-timeout")
        nursery.cancel_scope.cancel()


async def test_bad_actions_are_rejected_and_the_game_goes_on():
    """Out of turn, a card not held, a replayed (stale) action: rejects, never a crash;
    the bot clients' game finishes and verifies."""
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(3, turn_timeout=0.3, rounds=4))
        raw = await RawClient.connect(server.port)
        await raw.join("mallory", seat=0)
        await bot_clients(nursery, server, 2, results, start=1)
        sync = await raw.recv_until(Sync, timeout=10)
        gid = raw.witness.game_id
        seen = {"not-your-turn": 0, "illegal-action": 0, "stale-state": 0}
        # out of turn: act when another seat is to move
        while True:
            if sync.observation["to_move"] != raw.seat:
                await raw.send(ActionMessage(gid, sync.state_id, Action("pass")))
                rej = await raw.recv_until(Reject, timeout=10)
                if rej.code == "not-your-turn":
                    seen["not-your-turn"] += 1
                    break
                assert rej.code == "stale-state"  # the state moved on meanwhile: fine, retry
            sync = await raw.recv_until(Sync, timeout=10)
        # a card it does not hold, then a legal action, then the same action again
        prompt = await raw.recv_until(Prompt, timeout=10, where=lambda p: any(a.cards for a in p.legal))
        last_sync = [m for m in raw.received if isinstance(m, Sync)][-1]
        hand = set(last_sync.observation["hand"])
        foreign = next(c for c in range(53) if c not in hand)
        legal = next(a for a in prompt.legal if a.cards)
        await raw.send(ActionMessage(gid, prompt.state_id, legal._replace(cards=(foreign,))))
        rej = await raw.recv_until(Reject, timeout=10)
        if rej.code == "illegal-action":
            assert "not in your hand" in rej.message
            seen["illegal-action"] += 1
            await raw.send(ActionMessage(gid, prompt.state_id, legal))
            await raw.send(ActionMessage(gid, prompt.state_id, legal))  # replayed
            rej = await raw.recv_until(Reject, timeout=10)
            if rej.code == "stale-state":
                seen["stale-state"] += 1
                assert rej.state_id == prompt.state_id
                full = await raw.recv()  # a full sync follows at once
                assert isinstance(full, Sync) and full.state_id > prompt.state_id
        # let the turn timer play the rest of mallory's turns
        end = await raw.recv_until(End, timeout=20)
        assert end.reason == "finished"
        await raw.aclose()
    assert seen["not-your-turn"] == 1
    assert seen["illegal-action"] == 1 and seen["stale-state"] == 1, seen
    assert raw.witness.verify().status == VERIFIED
    for r in results.values():
        assert r.status == "finished" and r.verdict.ok
    assert server.stats["internal_errors"] == 0


async def test_client_vanishing_mid_turn_does_not_stop_the_game():
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(3, rounds=4))
        raw = await RawClient.connect(server.port)
        await raw.join("ghost", seat=0)
        await bot_clients(nursery, server, 2, results, start=1)
        await raw.recv_until(Prompt, timeout=10)
        await raw.aclose()  # gone, in the middle of its own turn
    for r in results.values():
        assert r.status == "finished" and r.verdict.ok
        assert any(n.code == "player-left" and "ghost" in n.text for n in r.view.notices)
    assert server.tables[0].games_done == 1


async def test_client_that_stops_reading_is_dropped_as_too_slow():
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(3, rounds=4, queue_size=16, sndbuf=4096))
        raw = await RawClient.connect(server.port, rcvbuf=4096)
        await raw.join("sloth", seat=0)
        await bot_clients(nursery, server, 2, results, start=1)
        await raw.recv_until(Sync, timeout=10)  # seeds done, the game runs
        # stop reading; ask for more pongs than the host will queue for a client that does not read
        burst = b"".join(raw.conn.send(Ping(k)) for k in range(3000))
        with trio.move_on_after(5):
            try:
                await raw.send_raw(burst)
            except trio.BrokenResourceError:
                pass  # the host may drop us before the burst is out
        with trio.fail_after(10):
            while server.stats["slow_clients"] == 0:
                await trio.sleep(0.02)
        # now read everything that was sent: it ends with the error (if it still fit in time)
        codes = []
        with trio.fail_after(10):
            while (msg := await raw.recv()) is not None:
                if isinstance(msg, ErrorMessage):
                    codes.append(msg.code)
        assert codes == ["slow-client"]
        await raw.aclose()
    for r in results.values():
        assert r.status == "finished" and r.verdict.ok
    assert server.stats["slow_clients"] == 1 and server.tables[0].games_done == 1


async def test_slow_client_error_is_delivered_when_it_reads_again():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None, queue_size=8, sndbuf=4096, close_grace=5.0))
        raw = await RawClient.connect(server.port, rcvbuf=4096)
        await raw.send(Hello("sloth"))
        await raw.recv_until(Welcome)
        burst = b"".join(raw.conn.send(Ping(k)) for k in range(3000))
        with trio.move_on_after(5):
            try:
                await raw.send_raw(burst)
            except trio.BrokenResourceError:
                pass  # the host may drop us before the burst is out
        with trio.fail_after(10):
            while server.stats["slow_clients"] == 0:
                await trio.sleep(0.02)
        last = None
        with trio.fail_after(10):
            while (msg := await raw.recv()) is not None:
                last = msg
        assert isinstance(last, ErrorMessage) and last.code == "slow-client"
        assert "did not read 8 waiting messages" in last.message
        await healthy(server)
        nursery.cancel_scope.cancel()


async def test_host_survives_a_handshake_that_never_finishes():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None, handshake_timeout=0.2))
        tcp = await trio.open_tcp_stream("127.0.0.1", server.port)
        with trio.fail_after(5):
            assert await tcp.receive_some(100) == b""  # closed by the host after the timeout
        await healthy(server)
        nursery.cancel_scope.cancel()
