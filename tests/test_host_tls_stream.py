"""The host's TLS stream (host/tls_stream.py, specs/host.md § TLS streams): a write the
kernel cannot take at once is finished later with the same bytes, in order; the end of
stream, a reset and a close are told apart; over real TLS 1.3 on 127.0.0.1."""

from __future__ import annotations

import socket
import ssl
import struct

import pytest
import trio

from jupai_net.host.tls_stream import TLSSocketStream

from .test_net_support import IDENTITY, client_context


async def _pair(*, sndbuf: int | None = None, rcvbuf: int | None = None) -> tuple[TLSSocketStream, trio.SSLStream]:
    """A host-side :class:`TLSSocketStream` and a client ``trio.SSLStream``, handshaken."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    await sock.connect(("127.0.0.1", port))
    tcp = await listeners[0].accept()
    await listeners[0].aclose()
    if sndbuf:
        tcp.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
    host = TLSSocketStream.wrap(tcp, IDENTITY.server_context())
    client = trio.SSLStream(trio.SocketStream(sock), client_context())
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.do_handshake)
        nursery.start_soon(client.do_handshake)
    return host, client


async def _read(client: trio.SSLStream, size: int) -> bytes:
    got = bytearray()
    while len(got) < size:
        chunk = await client.receive_some(65536)
        assert chunk, f"end of stream after {len(got)} of {size} bytes"
        got += chunk
    return bytes(got)


async def test_a_write_the_kernel_cannot_take_is_finished_later_in_order():
    host, client = await _pair(sndbuf=4096, rcvbuf=4096)
    chunks = [bytes([k % 251]) * 50_000 for k in range(200)]  # 10 MB at most: far more than the buffers
    sent = []
    for chunk in chunks:  # the client reads nothing yet: the kernel's buffers fill up
        sent.append(chunk)
        if not host.write_now(chunk):
            break
    assert host.write_blocked, "10 MB went into 4 KiB buffers without blocking"
    with pytest.raises(trio.BusyResourceError):
        host.write_now(b"must wait")  # a blocked write is finished first (TLS repeats it as it was)
    expected = b"".join(sent) + b"after"
    async with trio.open_nursery() as nursery:
        async def finish() -> None:
            await host.finish_write()
            assert not host.write_blocked
            # the finished write may leave the kernel's buffer full again (the client reads
            # concurrently): then the next write blocks too and is finished the same way
            if not host.write_now(b"after"):
                assert host.write_blocked
                await host.finish_write()
            assert not host.write_blocked

        nursery.start_soon(finish)
        with trio.fail_after(20):
            assert await _read(client, len(expected)) == expected
    await host.aclose()
    await client.aclose()


async def test_receive_send_all_and_the_end_of_stream():
    host, client = await _pair()
    await client.send_all(b"hello host")
    with trio.fail_after(5):
        assert await host.receive_some(65536) == b"hello host"
        await host.send_all(b"hello client")
        assert await _read(client, 12) == b"hello client"
        await client.aclose()  # TLS close_notify, then TCP FIN: the end of stream
        assert await host.receive_some(65536) == b""
    await host.aclose()


async def test_end_of_stream_after_our_tcp_fin_and_a_close_wakes_the_reader():
    host, client = await _pair()
    host.send_eof()  # the lingering close: our direction ends, reading goes on
    await client.send_all(b"late words")
    with trio.fail_after(5):
        assert await host.receive_some(65536) == b"late words"
    async with trio.open_nursery() as nursery:
        async def reader() -> None:
            with pytest.raises(trio.ClosedResourceError):
                await host.receive_some(65536)

        nursery.start_soon(reader)
        await trio.sleep(0.05)
        await host.aclose()  # a task waiting on the socket is woken, not left hanging
    with pytest.raises(trio.ClosedResourceError):
        host.write_now(b"x")
    await host.aclose()  # twice is fine
    await client.aclose()


async def test_a_reset_or_a_fin_without_close_notify_is_a_broken_stream():
    host, client = await _pair()
    raw = client.transport_stream.socket
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close -> RST
    raw.close()
    with trio.fail_after(5), pytest.raises(trio.BrokenResourceError) as info:
        await host.receive_some(65536)
    assert isinstance(info.value.__cause__, OSError)  # ssl.SSLError is one too
    await host.aclose()
    host, client = await _pair()
    client.transport_stream.socket.shutdown(socket.SHUT_WR)  # TCP FIN, no TLS close_notify
    with trio.fail_after(5), pytest.raises(trio.BrokenResourceError):
        await host.receive_some(65536)
    await host.aclose()
    await trio.aclose_forcefully(client)


async def test_a_peer_that_is_not_tls_fails_the_handshake():
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    plain = await trio.open_tcp_stream("127.0.0.1", port)
    tcp = await listeners[0].accept()
    await listeners[0].aclose()
    host = TLSSocketStream.wrap(tcp, IDENTITY.server_context())
    await plain.send_all(b"GET / HTTP/1.0\r\n\r\n")
    with trio.fail_after(5), pytest.raises(trio.BrokenResourceError):
        await host.do_handshake()
    await host.aclose()
    await plain.aclose()


async def test_a_read_that_must_write_while_a_write_waits_for_room_does_not_collide():
    """TLS 1.3 may need to write while reading (a key update to answer): OpenSSL then
    says "want write" to ``recv``. If the writer task already waits for room on the same
    socket, both wait for it; neither may fail (trio allows one waiter per direction)."""
    host, client = await _pair(sndbuf=4096, rcvbuf=4096)
    sent = []
    for k in range(200):
        chunk = bytes([k % 251]) * 50_000
        sent.append(chunk)
        if not host.write_now(chunk):
            break
    assert host.write_blocked
    real_recv = host._sock.recv
    calls = []

    def recv_that_must_write_first(n):
        calls.append(n)
        if len(calls) == 1:
            raise ssl.SSLWantWriteError("want write")  # what OpenSSL says when it must write first
        return real_recv(n)

    host._sock.recv = recv_that_must_write_first
    got = []
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host.finish_write)

            async def reader() -> None:
                got.append(await host.receive_some(65536))

            nursery.start_soon(reader)
            await trio.sleep(0.1)  # both tasks wait for room on the socket now
            assert await _read(client, sum(map(len, sent))) == b"".join(sent)
            await client.send_all(b"ping")
    assert got == [b"ping"] and len(calls) >= 2 and not host.write_blocked
    await host.aclose()
    await client.aclose()


async def test_records_that_arrived_while_the_host_was_busy_are_each_read_without_waiting_for_more():
    """After a read that took a whole record the host waits for the socket before it
    reads again (no read that fails first): records that arrived meanwhile, back to back
    in the kernel, are still each read at once, and a record sent later wakes it."""
    host, client = await _pair()
    records = [bytes([65 + k]) * (100 + k) for k in range(5)]
    for r in records:  # five TLS records, each its own send: all in the host's kernel buffer
        await client.send_all(r)
    await trio.sleep(0.05)
    with trio.fail_after(5):
        got = [await host.receive_some(65536) for _ in records]
    assert got == records
    async with trio.open_nursery() as nursery:
        async def later() -> None:
            await trio.sleep(0.05)
            await client.send_all(b"later")

        nursery.start_soon(later)
        with trio.fail_after(5):
            assert await host.receive_some(65536) == b"later"
    await client.send_all(b"x" * 40_000)  # several records in one send: read one by one, none lost
    with trio.fail_after(5):
        got_big = b""
        while len(got_big) < 40_000:
            got_big += await host.receive_some(65536)
    assert got_big == b"x" * 40_000
    await host.aclose()
    await client.aclose()
