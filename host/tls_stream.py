"""The host's TLS connections: the standard library's :class:`ssl.SSLSocket` on a
non-blocking socket, driven by trio's readiness waits (specs/host.md § TLS streams,
specs/performance.md § Host).

``trio.SSLStream`` runs TLS through memory BIOs in Python (locks, a retry loop and a
task switch per send); here OpenSSL reads and writes the socket itself, and the host
can write a whole batch of frames *without waiting* (:meth:`TLSSocketStream.write_now`)
straight from the code that queued them: no writer task has to wake up per action.
Only when the kernel's send buffer is full does a write wait (:meth:`finish_write`,
retrying the same bytes as OpenSSL requires).

On the wire nothing changes: the same TLS 1.3 records from the same context; the host
still ends its direction with a plain TCP FIN (:meth:`send_eof`) in its lingering close.
Every transport failure is raised as ``trio.BrokenResourceError`` (the ``ssl.SSLError``
or ``OSError`` as its ``__cause__``), use after :meth:`aclose` as
``trio.ClosedResourceError``, as ``trio.SSLStream`` does.
"""

from __future__ import annotations

import socket
import ssl

import trio


class TLSSocketStream:
    """Server side of one TLS connection (see the module docstring).

    Build it with :meth:`wrap` from the accepted ``trio.SocketStream`` (which it takes
    over: that object must not be used afterwards), then ``await``
    :meth:`do_handshake`. One task may receive while another writes; writes must not
    overlap: after :meth:`write_now` returned ``False``, :attr:`write_blocked` is true
    until :meth:`finish_write` has sent those bytes, and nothing else may be written
    meanwhile.
    """

    def __init__(self, sock: ssl.SSLSocket):
        self._sock = sock
        self._blocked: bytes | None = None  # bytes of a write the kernel did not take yet
        self._closed = False
        self._read_all = False  # the last read took a whole record and left nothing in OpenSSL

    @classmethod
    def wrap(cls, tcp: trio.SocketStream, context: ssl.SSLContext) -> "TLSSocketStream":
        """Take over ``tcp``'s socket and wrap it for the server side of ``context``
        (no handshake yet)."""
        raw = socket.socket(fileno=tcp.socket.detach())
        raw.setblocking(False)
        # suppress_ragged_eofs=False: a TCP FIN or a reset without TLS close_notify is a
        # broken connection (as with trio.SSLStream), not a clean end of stream
        return cls(context.wrap_socket(raw, server_side=True, do_handshake_on_connect=False,
                                       suppress_ragged_eofs=False))

    @property
    def write_blocked(self) -> bool:
        """True while a write waits for room in the send buffer (:meth:`finish_write`)."""
        return self._blocked is not None

    def _check_open(self) -> None:
        if self._closed:
            raise trio.ClosedResourceError("the TLS stream is closed")

    async def do_handshake(self) -> None:
        """The TLS handshake (a checkpoint). Raises ``trio.BrokenResourceError`` if it
        fails (refused certificate, a peer that is not TLS, a reset)."""
        self._check_open()
        await trio.lowlevel.checkpoint_if_cancelled()
        while True:
            try:
                self._sock.do_handshake()
                break
            except ssl.SSLWantReadError:
                await trio.lowlevel.wait_readable(self._sock)
            except ssl.SSLWantWriteError:
                await trio.lowlevel.wait_writable(self._sock)
            except (ssl.SSLError, OSError) as exc:
                raise trio.BrokenResourceError("TLS handshake failed") from exc
        await trio.lowlevel.cancel_shielded_checkpoint()

    async def receive_some(self, max_bytes: int = 65536) -> bytes:
        """Up to ``max_bytes`` decrypted bytes; ``b""`` at the end of the stream (the
        peer's TLS close_notify). A TCP FIN or reset without close_notify raises
        ``trio.BrokenResourceError``. Always a checkpoint."""
        self._check_open()
        await trio.lowlevel.checkpoint_if_cancelled()
        waited = False
        if self._read_all:
            # OpenSSL reads a record's header, then exactly its body (no read-ahead), so
            # after a read that left nothing decrypted behind, whatever comes next is in
            # the kernel: wait for it first instead of a read that would fail (a system
            # call and an SSLWantReadError on almost every client message)
            self._read_all = False
            waited = True
            await trio.lowlevel.wait_readable(self._sock)
            self._check_open()
        while True:
            try:
                data = self._sock.recv(max_bytes)
            except ssl.SSLWantReadError:
                waited = True
                await trio.lowlevel.wait_readable(self._sock)
                self._check_open()
                continue
            except ssl.SSLWantWriteError:  # a TLS message to answer while the send buffer is full
                waited = True
                await self._wait_writable()
                self._check_open()
                continue
            except (ssl.SSLError, OSError) as exc:
                if self._closed:
                    raise trio.ClosedResourceError("the TLS stream is closed") from None
                raise trio.BrokenResourceError("TLS connection broken") from exc
            if not waited:
                await trio.lowlevel.cancel_shielded_checkpoint()  # data was already there: let others run
            self._read_all = bool(data) and len(data) < max_bytes and not self._sock.pending()
            return data

    def write_now(self, data: bytes) -> bool:
        """Encrypt and send ``data`` without waiting: ``True`` when the kernel took all
        of it; ``False`` when its send buffer is full: then the rest goes out with
        :meth:`finish_write` (the same bytes: a TLS write that could not finish must be
        repeated as it was). Not while :attr:`write_blocked`. Raises
        ``trio.BrokenResourceError`` / ``trio.ClosedResourceError``."""
        self._check_open()
        if self._blocked is not None:
            raise trio.BusyResourceError("a blocked write must be finished first")
        try:
            self._sock.send(data)
            return True
        except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
            self._blocked = data
            return False
        except (ssl.SSLError, OSError) as exc:
            raise trio.BrokenResourceError("TLS connection broken") from exc

    async def finish_write(self) -> None:
        """Wait for room and send the bytes of the write :meth:`write_now` could not
        finish (nothing to do without one). Raises like :meth:`write_now`."""
        while self._blocked is not None:
            await self._wait_writable()
            self._check_open()
            try:
                self._sock.send(self._blocked)
                self._blocked = None
            except (ssl.SSLWantWriteError, BlockingIOError):
                pass
            except ssl.SSLWantReadError:  # not in TLS 1.3 after the handshake; do not spin
                await trio.sleep(0.01)
            except (ssl.SSLError, OSError) as exc:
                raise trio.BrokenResourceError("TLS connection broken") from exc

    async def _wait_writable(self) -> None:
        """Wait for room in the socket's send buffer. The reader (a TLS 1.3 read that
        must write first, e.g. to answer a key update) and the writer (a blocked write)
        may both need it; trio lets only one task wait per direction, so the second
        polls instead (every 5 ms) of failing with ``trio.BusyResourceError``."""
        try:
            await trio.lowlevel.wait_writable(self._sock)
        except trio.BusyResourceError:
            await trio.sleep(0.005)

    async def send_all(self, data: bytes) -> None:
        """Send ``data``, waiting for room when needed (a checkpoint)."""
        await trio.lowlevel.checkpoint_if_cancelled()
        if self.write_now(data):
            await trio.lowlevel.cancel_shielded_checkpoint()
        else:
            await self.finish_write()

    def send_eof(self) -> None:
        """End our direction with a TCP FIN (no TLS close_notify: the lingering close
        after the last frame; the stream can still receive)."""
        self._check_open()
        try:
            socket.socket.shutdown(self._sock, socket.SHUT_WR)  # not SSLSocket.shutdown: keep TLS for reading
        except OSError as exc:
            raise trio.BrokenResourceError("cannot end the connection") from exc

    async def aclose(self) -> None:
        """Close the socket at once (tasks waiting on it get ``ClosedResourceError``).
        Bytes already received and not read are dropped first (at most 256 KiB, no
        waiting): closing a socket with unread input makes the kernel reset the
        connection, and the peer would lose the TLS alert or the last frames sent to
        it. A checkpoint; closing twice is fine."""
        if not self._closed:
            self._closed = True
            trio.lowlevel.notify_closing(self._sock)
            try:
                for _ in range(4):
                    if not socket.socket.recv(self._sock, 65536):  # the raw socket, under TLS
                        break
            except OSError:  # nothing more to read now (BlockingIOError), or a reset
                pass
            self._sock.close()
        await trio.lowlevel.checkpoint()
