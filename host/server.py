"""The trio host: sockets, TLS, one bounded outgoing queue per client, timers
(specs/host.md). All table logic lives in :class:`jupai_net.host.table.Table`; this
module only moves bytes and time into it and its effects out of it.

Per connection: a TLS handshake (with a timeout), a **reader** task that feeds the
sans-IO :class:`~jupai_net.protocol.HostConnection` and hands every message to the
table, and a bounded queue of encoded frames. The frames a table's effects queue are
written at once, as one TLS write per connection, without waiting
(:class:`~jupai_net.host.tls_stream.TLSSocketStream`); a **writer** task per
connection sends only what the kernel could not take at once (and the last frames of
a closing connection). Per table: a **driver** task that sleeps until the table's next deadline (or a
kick) and calls :meth:`Table.tick`. One **keepalive** task for the host pings every
idle client and drops every dead one.

Bad input never crashes the host: a protocol error is answered with an ``error``
message and the connection is closed; a client whose queue overflows (it does not
read) gets a ``slow-client`` error (if it still can receive it) and is dropped; any
unexpected exception while handling one connection is logged and ends that
connection only (``internal`` error).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import ssl
import socket
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from jupai_net.protocol import (
    EOF,
    NEED_DATA,
    Bye,
    ErrorMessage,
    Hello,
    HostConnection,
    LocalProtocolError,
    Lobby,
    Message,
    Notice,
    Ping,
    Reject,
    RemoteProtocolError,
    Start,
    Welcome,
    encode_frame,
)
from jupai_net.protocol.limits import (BLIND_VERSION, ERROR_ARGS_VERSION, NOTICE_ARGS_VERSION, REJECT_ARGS_VERSION,
                                       TABLE_NAME_VERSION)

from . import DEFAULT_PORT
from .table import AUDITING, Close, Send, Table, TableConfig
from .tls import HostIdentity
from .tls_stream import TLSSocketStream

log = logging.getLogger("jupai.host")

#: Host error codes this module sends besides the table's (specs/host.md § Errors).
SLOW_CLIENT = "slow-client"
HELLO_TIMEOUT = "hello-timeout"
IDLE_TIMEOUT = "idle-timeout"
INTERNAL = "internal"


@dataclass(frozen=True)
class HostConfig:
    """Settings of a host process (times in seconds, sizes in frames or bytes).

    ``bind``: address to listen on (``""``: all interfaces); ``port``: TCP port (0: any
    free port, see :attr:`HostServer.port`). ``table``: the :class:`TableConfig` of
    every table; ``max_tables``: tables served at once (new ones are opened when every
    lobby is full). ``games``: stop after this many games have ended in total
    (``None``: serve forever). ``queue_size``: frames waiting for one client before it
    counts as too slow; ``sndbuf``: the kernel send buffer per client socket (``None``:
    the OS default). ``handshake_timeout`` / ``hello_timeout``: time for the TLS
    handshake / the first message. ``ping_interval``: ping a client silent for this
    long; ``idle_timeout``: drop a client silent for this long. ``close_grace``: time to
    flush a closing connection's last frames. ``audit_grace``: when the host is stopped
    during a dealer-blind game, time for the seats to reveal their seeds after the
    ``abandon`` (the audit) before the transcripts are written. ``transcript_dir``: if set, every seat's
    transcript of every finished or abandoned game is written there.
    ``max_per_address`` / ``max_handshakes_per_address``: connections / unfinished TLS
    handshakes one IP address may hold at once (``None``: no limit); more are closed at
    once, before any TLS work (seat squatting, handshake floods).
    ``max_spectators_per_address``: spectators one IP address may have watching at once
    (``None``: no limit beyond the table's cap), so that one machine cannot take every
    spectator place; more get ``error spectators-full``.
    """

    bind: str = ""
    port: int = DEFAULT_PORT
    table: TableConfig = field(default_factory=TableConfig)
    max_tables: int = 1
    games: int | None = 1
    queue_size: int = 512
    sndbuf: int | None = None
    handshake_timeout: float = 10.0
    hello_timeout: float = 10.0
    ping_interval: float = 15.0
    idle_timeout: float = 60.0
    close_grace: float = 2.0
    audit_grace: float = 5.0
    transcript_dir: Path | None = None
    max_per_address: int | None = 32
    max_handshakes_per_address: int | None = 8
    max_spectators_per_address: int | None = 4


class _Link:
    """One client connection: its stream, protocol state, queue and table."""

    def __init__(self, cid: int, stream: TLSSocketStream, peer: str, queue_size: int, ip: str = "?"):
        self.cid = cid
        self.stream = stream
        self.peer = peer
        self.ip = ip
        self.conn = HostConnection()
        self.queue: deque[bytes] = deque()
        self.queue_size = queue_size
        self.wake = trio.Event()
        self.flushed = trio.Event()
        self.closing = False
        self.table: Table | None = None
        self.last_rx = trio.current_time()  # when the last complete frame arrived
        self.reader_scope = trio.CancelScope()
        self.tail_lobby: int | None = None  # seq of the queue's last frame if it is a lobby

    def push(self, data: bytes, *, lobby_seq: int | None = None) -> bool:
        """Queue one encoded frame (always: its sequence number is taken); ``lobby_seq``:
        it is a ``lobby`` frame with that seq (a later lobby may replace it while it
        waits). :meth:`send_queued` sends it. Returns False when the queue was already
        full, i.e. the client is too slow."""
        full = len(self.queue) >= self.queue_size
        self.queue.append(data)
        self.tail_lobby = lobby_seq
        return not full

    def send_queued(self) -> None:
        """Write every queued frame now, as one TLS write, without waiting; what the
        kernel cannot take at once is left to the writer task, which also sends the
        frames queued meanwhile (they wait in the queue, where they count towards
        ``queue_size``). A broken connection is closed."""
        if not self.queue or self.stream.write_blocked:
            return  # nothing to send, or the writer is waiting for room: it sends these next
        batch = b"".join(self.queue)
        self.queue.clear()
        self.tail_lobby = None
        try:
            if self.stream.write_now(batch):
                return
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            log.debug("connection %d: send failed: %s", self.cid, exc.__cause__ or exc)
            self.close()
            return
        self.wake.set()  # the writer finishes the write when there is room

    def replace_lobby(self, msg: Lobby) -> bool:
        """Coalesce lobby broadcasts: if the last queued frame is a ``lobby`` not yet
        handed to the writer, put ``msg`` in its place (same seq). True if done."""
        if self.tail_lobby is None or not self.queue:
            return False
        self.queue[-1] = encode_frame(msg.to_wire(seq=self.tail_lobby), self.conn.max_frame)
        return True

    def close(self, final: bytes | None = None) -> None:
        """Stop reading; send what is queued, then ``final``, then close."""
        if final is not None and not self.closing:
            self.queue.append(final)
            self.tail_lobby = None
        self.closing = True
        self.wake.set()
        self.reader_scope.cancel()


#: The message classes :func:`for_version` may change.
_FITTED = frozenset({Welcome, Notice, ErrorMessage, Reject, Lobby, Start})


def for_version(msg: Message, version: int | None) -> Message:
    """``msg`` as the table made it, fitted to a connection that negotiated protocol
    ``version`` (None: before the hello): a ``welcome`` carries that version; below
    version 4 a ``notice`` goes without ``args`` (the English ``text`` alone) and a
    ``welcome``/``lobby``/``start`` without ``dealer`` (specs/protocol.md §6, §13: an
    older connection at a dealer-blind table is a spectator, which reads the scheme
    from the signed statements), a ``welcome`` without ``table``, below version 7
    an ``error`` without ``args``, and below version 8 a ``reject`` without ``args``
    (the English ``message`` alone). Every other message is returned as it is."""
    if type(msg) not in _FITTED:
        return msg  # statement, sync, prompt...: the same in every version
    if isinstance(msg, Welcome) and version is not None and msg.version != version:
        msg = dataclasses.replace(msg, version=version)  # the version negotiated with this client
    if isinstance(msg, Notice) and msg.args and (version or 0) < NOTICE_ARGS_VERSION:
        msg = dataclasses.replace(msg, args={})  # an older client reads the English text alone
    if isinstance(msg, ErrorMessage) and msg.args and (version or 0) < ERROR_ARGS_VERSION:
        msg = dataclasses.replace(msg, args={})  # below version 7: the English message alone (its words say it)
    if isinstance(msg, Reject) and msg.args and (version or 0) < REJECT_ARGS_VERSION:
        msg = dataclasses.replace(msg, args={})  # below version 8: the English message alone
    if isinstance(msg, (Welcome, Lobby, Start)) and msg.dealer != "trusted" and (version or 0) < BLIND_VERSION:
        msg = dataclasses.replace(msg, dealer="trusted")
    if isinstance(msg, Welcome) and msg.table is not None and (version or 0) < TABLE_NAME_VERSION:
        msg = dataclasses.replace(msg, table=None)  # a client of an older release refuses a key it does not know
    return msg


#: Python's young-generation threshold while a host serves (the default is 700).
HOST_GC_YOUNG = 10_000


def tune_gc() -> None:
    """Set this process's garbage collector for serving (specs/performance.md § Host):
    every action makes many short-lived maps and lists (messages, wire forms, frames),
    so with the default threshold of 700 the young generation is collected every few
    actions and the tables' growing state is scanned again and again (about 3 % of the
    host's CPU at 50 tables); the objects made while starting (modules, classes) are
    moved out of the collector's way (``gc.freeze``), and the young generation is
    collected every :data:`HOST_GC_YOUNG` allocations. Objects without cycles are freed
    at once as always (reference counting); only cyclic garbage waits longer. Idempotent."""
    import gc

    if gc.get_threshold()[0] < HOST_GC_YOUNG:
        gc.freeze()
        gc.set_threshold(HOST_GC_YOUNG, 20, 20)


class HostServer:
    """A jupai host: listens, runs up to ``config.max_tables`` tables, stops after
    ``config.games`` games.

    ``identity``: certificate and statement key (:class:`~jupai_net.host.tls.HostIdentity`).
    ``observer(table_id, kind, data)``: public table events for the host screen
    (see :class:`Table`). Run it with ``await nursery.start(server.serve)``; after
    that :attr:`port` is the listening port.
    """

    def __init__(self, config: HostConfig, identity: HostIdentity,
                 observer: Callable[[int, str, dict[str, Any]], None] | None = None):
        self.config = config
        self.identity = identity
        self.observer = observer
        self.ssl_context = identity.server_context()
        self.ssl_context.num_tickets = 0  # no session resumption: nothing to gain on a LAN
        self.tables: list[Table] = []
        self.links: dict[int, _Link] = {}
        self._kicks: dict[int, trio.Event] = {}
        self._sleeping_until: dict[int, float] = {}
        self.games_done = 0  # games over (finished or abandoned) on every table
        self._games_counted: dict[int, int] = {}  # table id -> its games counted in games_done
        self._next_cid = 0
        self._nursery: trio.Nursery | None = None
        self.port: int = config.port
        self.ports: list[tuple[str, int]] = []
        self.done = trio.Event()
        self.closed = trio.Event()  # set when serve() has returned (clients told, sockets closed)
        self.stop_reason: str | None = None
        self._address: str | None = None  # ``host:port`` the transcripts record (transcript_address)
        #: the table's name for people (the announced name), kept in the transcripts' meta
        self.table_name: str | None = None
        self.stats = {"connections": 0, "protocol_errors": 0, "slow_clients": 0, "internal_errors": 0,
                      "refused_connections": 0}
        self._per_address: dict[str, int] = {}  # open connections per IP address
        self._handshaking: dict[str, int] = {}  # unfinished TLS handshakes per IP address
        self._last_refusal_log = -math.inf

    # ------------------------------------------------------------------ running

    async def serve(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until :attr:`done` (``config.games`` games over) or
        cancellation. Reports ``self`` to ``nursery.start`` once listening."""
        try:
            listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.bind or None)
            self.ports = [l.socket.getsockname()[:2] for l in listeners]
            self.port = self.ports[0][1]
            log.info("listening on %s", ", ".join(f"{h}:{p}" for h, p in self.ports))
            tune_gc()
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                await nursery.start(trio.serve_listeners, self._handle, listeners)
                nursery.start_soon(self._keepalive)
                self._new_table()
                task_status.started(self)
                await self.done.wait()
                await self._shutdown()
                nursery.cancel_scope.cancel()
        finally:
            self.closed.set()

    async def _shutdown(self) -> None:
        """Abandon a running game if stopped early (:meth:`stop` with a reason), say bye
        to every client, give them ``close_grace`` to get their last frames. A
        dealer-blind game's seats reveal their seeds after the ``abandon`` (the audit,
        specs/fairness.md B.15.1): the host waits for them up to ``audit_grace`` (5 s),
        not the seed time-out, so its transcripts can be saved, then ends the audit. So
        does a game that was over already, its audit under way, when the host was stopped
        (it is not abandoned: its seats' seeds come, and it is scored as finished)."""
        if self.stop_reason is not None:
            now = trio.current_time()
            for table in self.tables:  # (a game over whose audit runs is left to finish, below)
                if table.stop_game(now, self.stop_reason, audit=False):
                    self._flush(table)
            with trio.move_on_after(self.config.audit_grace):
                while any(t.phase == AUDITING for t in self.tables):
                    await trio.sleep(0.02)
            for table in self.tables:
                if table.phase == AUDITING and table.stop_game(trio.current_time(), self.stop_reason):
                    self._flush(table)
        log.info("%s; shutting down", self.stop_reason or "all games played")
        for link in list(self.links.values()):
            if not link.closing:
                try:
                    link.close(link.conn.send(Bye("host-shutdown")))
                except LocalProtocolError:
                    link.close()
        with trio.move_on_after(self.config.close_grace):
            while self.links:
                await trio.sleep(0.02)

    def stop(self, reason: str | None = None) -> None:
        """Ask :meth:`serve` to shut down. With a ``reason`` (e.g. Ctrl-C at the host) a
        game still running is first abandoned with that reason (signed ``abandon``
        statement with the host seed, ``end aborted``), so every player is told why and
        keeps a transcript; then every client gets ``bye host-shutdown``."""
        if reason is not None and self.stop_reason is None:
            self.stop_reason = reason
        self.done.set()

    def kick(self, seat: int, table_id: int = 0) -> str:
        """The host removes the player in ``seat`` of table ``table_id`` (see
        :meth:`Table.kick`). Returns the name of the player removed; raises
        :class:`~.table.KickRefused` if there is nobody to remove, ``ValueError`` for a
        table that does not exist."""
        if not 0 <= table_id < len(self.tables):
            raise ValueError(f"there is no table {table_id}")
        table = self.tables[table_id]
        name = table.kick(seat, trio.current_time())
        self._flush(table)
        self._kick(table)
        return name

    def fill_with_bots(self, table_id: int = 0) -> list[int]:
        """The host console's ``start``: bots take the empty seats of table ``table_id``
        and its game starts when every person seated is ready (:meth:`Table.fill_with_bots`:
        returns the seats filled; ``ValueError`` with the code of why not)."""
        table = self.tables[table_id]
        seats = table.fill_with_bots(trio.current_time())
        self._flush(table)
        self._kick(table)
        return seats

    def _new_table(self) -> Table:
        tid = len(self.tables)
        obs = None
        if self.observer is not None or self.config.transcript_dir is not None:
            def obs(kind: str, data: dict[str, Any], tid: int = tid) -> None:
                self._observed(tid, kind, data)
        # one table: its series is the host's games; several (a benchmark): each plays on
        games = self.config.games if self.config.max_tables == 1 else None
        table = Table(self.config.table, self.identity.signing_key, table_id=tid, observer=obs, games=games)
        table.name = self.table_name
        self.tables.append(table)
        self._kicks[tid] = trio.Event()
        self._sleeping_until[tid] = -math.inf
        self._games_counted[tid] = 0
        assert self._nursery is not None
        self._nursery.start_soon(self._drive, table)
        return table

    def _observed(self, tid: int, kind: str, data: dict[str, Any]) -> None:
        # a dealer-blind game's transcripts need the seats' seeds, relayed after its end: "audited"
        if kind in ("end", "abandon", "audited") and self.config.transcript_dir is not None:
            self._save_transcripts(self.tables[tid])
        if self.observer is not None:
            self.observer(tid, kind, data)

    def _save_transcripts(self, table: Table) -> None:
        directory = self.config.transcript_dir
        assert directory is not None and table.dealer is not None
        import datetime as dt

        if self._address is None:
            self._address = transcript_address(self.config.bind, self.port)
        address = self._address
        meta = {"saved": dt.datetime.now().isoformat(timespec="seconds"), "table": (self.table_name or address)[:200],
                "address": address[:200]}
        files = table.transcripts(meta)
        if not files:
            return  # no seeds yet (a dealer-blind game before its audit): nothing to verify
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for seat, data in files.items():
                path = directory / f"{table.dealer.game_id.hex()}-seat{seat}.jupai"
                path.write_bytes(data)
            log.info("table %d: transcripts saved in %s", table.table_id, directory)
        except OSError as exc:
            log.error("cannot save transcripts in %s: %s", directory, exc)

    # ------------------------------------------------------------------ tables

    def _choose_table(self, hello: Hello) -> Table:
        if hello.watch:  # a spectator watches the first table with a game on, else the first table
            return next((t for t in self.tables if t.phase != "lobby"), self.tables[0])
        if hello.token is not None:
            for t in self.tables:
                if t.has_token(hello.token):
                    return t
            return self.tables[0]  # it will refuse the token
        for t in self.tables:
            if t.accepting:
                return t
        if len(self.tables) < self.config.max_tables:
            return self._new_table()
        return self.tables[0]  # it will say why not (table-full / game-running)

    async def _drive(self, table: Table) -> None:
        """Call ``table.tick`` whenever its next deadline passes (woken early by kicks)."""
        tid = table.table_id
        while True:
            deadline = table.next_deadline()
            if deadline is None or deadline > trio.current_time():
                self._sleeping_until[tid] = math.inf if deadline is None else deadline
                with trio.move_on_at(self._sleeping_until[tid]):
                    await self._kicks[tid].wait()
                self._kicks[tid] = trio.Event()
            else:
                await trio.lowlevel.checkpoint()
            self._sleeping_until[tid] = -math.inf  # awake: no kick needed
            try:
                table.tick(trio.current_time())
            except Exception:  # noqa: BLE001 - a bug must not take the host down
                self.stats["internal_errors"] += 1
                log.exception("table %d: tick failed", tid)
            self._flush(table)

    def _kick(self, table: Table) -> None:
        """Wake the table's driver if the table now has an earlier deadline than the
        one the driver sleeps until (a later one only costs an idle wake-up)."""
        deadline = table.next_deadline()
        if deadline is not None and deadline < self._sleeping_until[table.table_id]:
            self._kicks[table.table_id].set()

    def _flush(self, table: Table) -> None:
        """Carry out the table's effects (which may cause more: a slow client), then
        write each connection's new frames at once, one TLS write per connection."""
        touched: dict[int, _Link] = {}
        while True:
            effects = table.drain()
            if not effects:
                break
            for eff in effects:
                link = self.links.get(eff.cid)
                if link is None or link.closing:
                    continue
                if isinstance(eff, Send):
                    self._push(link, eff.msg)
                    touched[eff.cid] = link
                elif isinstance(eff, Close):
                    self._close(link, eff.error)
        for link in touched.values():
            if not link.closing:  # a closing link's writer sends the rest, then the final frame
                link.send_queued()
        if table.games_done != self._games_counted[table.table_id]:  # not a sum over every table per flush
            self.games_done += table.games_done - self._games_counted[table.table_id]
            self._games_counted[table.table_id] = table.games_done
            if self.config.games is not None and self.games_done >= self.config.games and not self.done.is_set():
                self.done.set()

    def _push(self, link: _Link, msg: Message) -> None:
        msg = for_version(msg, link.conn.version)
        if isinstance(msg, Lobby) and link.replace_lobby(msg):
            return  # the client has not even got the previous lobby: it gets this one instead
        try:
            data = link.conn.send(msg)
        except LocalProtocolError as exc:  # e.g. the client closed its side meanwhile
            log.debug("connection %d: not sending %s: %s", link.cid, msg.type, exc)
            return
        if not link.push(data, lobby_seq=link.conn.our_seq - 1 if isinstance(msg, Lobby) else None):
            self.stats["slow_clients"] += 1
            who = "spectator" if link.table is not None and link.cid in link.table.spectators else "client"
            log.warning("connection %d (%s): %d frames waiting; the %s is too slow, dropping it",
                        link.cid, link.peer, len(link.queue) - 1, who)
            err = ErrorMessage(SLOW_CLIENT, f"you did not read {link.queue_size} waiting messages in time; disconnected")
            self._close(link, err)  # after the queued frames: sequence numbers must stay gapless
            if link.table is not None:
                link.table.disconnect(link.cid, trio.current_time(), "too slow")
                self._kick(link.table)

    def _close(self, link: _Link, error: ErrorMessage | None) -> None:
        final = None
        if error is not None:
            error = for_version(error, link.conn.version)
            try:
                final = link.conn.send(error)
            except LocalProtocolError:
                final = None
        link.close(final)

    # ------------------------------------------------------------------ connections

    async def _handle(self, tcp: trio.SocketStream) -> None:
        cid = self._next_cid
        self._next_cid += 1
        self.stats["connections"] += 1
        try:
            address = tcp.socket.getpeername()[:2]
            peer, ip = "%s:%s" % address, str(address[0])
        except OSError:
            peer = ip = "?"
        cfg = self.config
        if cfg.max_per_address is not None and self._per_address.get(ip, 0) >= cfg.max_per_address:
            self._refuse_address(cid, peer, f"{cfg.max_per_address} connections")
            await trio.aclose_forcefully(tcp)
            return
        if (cfg.max_handshakes_per_address is not None
                and self._handshaking.get(ip, 0) >= cfg.max_handshakes_per_address):
            self._refuse_address(cid, peer, f"{cfg.max_handshakes_per_address} unfinished TLS handshakes")
            await trio.aclose_forcefully(tcp)
            return
        self._per_address[ip] = self._per_address.get(ip, 0) + 1
        try:
            await self._handle_connection(cid, tcp, peer, ip)
        finally:
            self._per_address[ip] -= 1
            if not self._per_address[ip]:
                del self._per_address[ip]

    def _refuse_address(self, cid: int, peer: str, what: str) -> None:
        """Log (rate-limited to one line per second) a connection refused by a per-address limit."""
        self.stats["refused_connections"] += 1
        now = trio.current_time()
        if now - self._last_refusal_log >= 1.0:
            self._last_refusal_log = now
            log.warning("connection %d (%s): refused: that address already holds %s (%d refused so far)",
                        cid, peer, what, self.stats["refused_connections"])

    async def _handshake(self, stream: TLSSocketStream, ip: str) -> None:
        """``stream.do_handshake()``, counted in the address's unfinished handshakes."""
        self._handshaking[ip] = self._handshaking.get(ip, 0) + 1
        try:
            await stream.do_handshake()
        finally:
            self._handshaking[ip] -= 1
            if not self._handshaking[ip]:
                del self._handshaking[ip]

    async def _handle_connection(self, cid: int, tcp: trio.SocketStream, peer: str, ip: str) -> None:
        if self.config.sndbuf:
            try:
                tcp.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config.sndbuf)
            except OSError:
                pass
        try:
            stream = TLSSocketStream.wrap(tcp, self.ssl_context)
        except (ssl.SSLError, OSError) as exc:
            log.info("connection %d (%s): TLS handshake failed: %s", cid, peer, exc)
            await trio.aclose_forcefully(tcp)
            return
        with trio.move_on_after(self.config.handshake_timeout) as scope:
            try:
                await self._handshake(stream, ip)
            except (trio.BrokenResourceError, trio.ClosedResourceError, ssl.SSLError, OSError) as exc:
                log.info("connection %d (%s): TLS handshake failed: %s", cid, peer, exc.__cause__ or exc)
                await trio.aclose_forcefully(stream)
                return
        if scope.cancelled_caught:
            log.info("connection %d (%s): no TLS handshake within %g s", cid, peer, self.config.handshake_timeout)
            await trio.aclose_forcefully(stream)
            return
        link = _Link(cid, stream, peer, self.config.queue_size, ip)
        self.links[cid] = link
        log.debug("connection %d (%s): TLS up", cid, peer)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._writer, link)
                with link.reader_scope:
                    try:
                        await self._reader(link)
                    except Exception:  # noqa: BLE001 - one connection's bug must not stop the host
                        self.stats["internal_errors"] += 1
                        log.exception("connection %d (%s): internal error", cid, peer)
                        self._close(link, ErrorMessage(INTERNAL, "the host failed handling this connection"))
                self._forget(link, "connection closed")
                link.close()
                # Keep reading (and discarding) while the last frames go out: closing a
                # socket with unread input makes the kernel reset the connection, and
                # the client would lose the error message we owe it.
                input_done = trio.Event()
                nursery.start_soon(self._discard_input, link, input_done)
                with trio.move_on_after(self.config.close_grace):
                    await link.flushed.wait()
                    # Lingering close: end our direction (TCP FIN after the last frame),
                    # then wait for the client to close its side.
                    try:
                        link.stream.send_eof()
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        pass
                    await input_done.wait()
                nursery.cancel_scope.cancel()
        finally:
            self.links.pop(cid, None)
            self._forget(link, "connection closed")
            await trio.aclose_forcefully(stream)
            log.debug("connection %d (%s): closed", cid, peer)

    def _forget(self, link: _Link, why: str, *, left: bool = False) -> None:
        """Tell the table the connection is gone (once); ``left``: the client said
        ``bye`` (:meth:`Table.disconnect`)."""
        table = link.table
        if table is not None and table.knows(link.cid):
            table.disconnect(link.cid, trio.current_time(), why, left=left)
            self._flush(table)
            self._kick(table)

    async def _discard_input(self, link: _Link, done: trio.Event) -> None:
        """Read and drop whatever the client still sends (during the close grace)."""
        try:
            while await link.stream.receive_some(65536):
                pass
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            done.set()

    async def _writer(self, link: _Link) -> None:
        """Finish the writes the kernel could not take at once and send the frames
        queued meanwhile (all at once); until closed and everything is sent. Frames are
        mostly written straight away (:meth:`_Link.send_queued`): this task wakes only
        for a full send buffer or a close."""
        stream = link.stream
        try:
            while True:
                if stream.write_blocked:
                    await stream.finish_write()
                elif link.queue:
                    batch = b"".join(link.queue)
                    link.queue.clear()
                    link.tail_lobby = None
                    stream.write_now(batch)  # if the kernel cannot take it all, the loop waits for room
                elif link.closing:
                    return
                else:
                    link.wake = trio.Event()
                    await link.wake.wait()
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            log.debug("connection %d: send failed: %s", link.cid, exc.__cause__ or exc)
            link.close()
        finally:
            link.flushed.set()

    async def _keepalive(self) -> None:
        """Ping every quiet client; drop every one silent for ``idle_timeout``. One sweep
        over the connections every ``min(ping_interval, idle_timeout) / 2`` seconds: one
        timer for the host, not one per connection (a silent client is dropped at most
        half an interval after its ``idle_timeout``, as with a timer per connection)."""
        cfg = self.config
        nonce = 0
        while True:
            await trio.sleep(min(cfg.ping_interval, cfg.idle_timeout) / 2)
            now = trio.current_time()
            nonce = (nonce + 1) % 2**32
            for link in list(self.links.values()):
                if link.closing:
                    continue
                quiet = now - link.last_rx
                if quiet >= cfg.idle_timeout:
                    log.info("connection %d (%s): silent for %.0f s; dropping it", link.cid, link.peer, quiet)
                    self._close(link, ErrorMessage(IDLE_TIMEOUT, f"nothing received for {cfg.idle_timeout:g} s"))
                elif quiet >= cfg.ping_interval and link.conn.version is not None:
                    self._push(link, Ping(nonce))
                    link.send_queued()

    async def _reader(self, link: _Link) -> None:
        """Read frames until the end of stream, a protocol error, or a close."""
        conn = link.conn
        hello_deadline = trio.current_time() + self.config.hello_timeout
        while not link.closing:
            if link.table is None:
                with trio.move_on_at(hello_deadline) as scope:
                    try:
                        data = await link.stream.receive_some(65536)
                    except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                        # e.g. a client that refused our certificate without saying so
                        log.info("connection %d (%s): connection lost before the hello: %s", link.cid, link.peer,
                                 exc.__cause__ or exc)
                        return
                if scope.cancelled_caught:
                    log.info("connection %d (%s): no hello within %g s", link.cid, link.peer, self.config.hello_timeout)
                    self._close(link, ErrorMessage(HELLO_TIMEOUT, f"no hello within {self.config.hello_timeout:g} s"))
                    return
                if not data and not conn.buffered:  # hung up without a word (TLS close or TCP FIN)
                    log.info("connection %d (%s): connection lost before the hello: closed by the client",
                             link.cid, link.peer)
                    return
            else:
                try:
                    data = await link.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                    log.info("connection %d (%s): connection lost: %s", link.cid, link.peer, exc.__cause__ or exc)
                    return
            conn.receive_data(bytes(data))
            while True:
                try:
                    event = conn.next_event()
                except RemoteProtocolError as exc:
                    self.stats["protocol_errors"] += 1
                    log.warning("connection %d (%s): protocol error %s", link.cid, link.peer, exc)
                    self._forget(link, f"protocol error: {exc.code}")
                    self._close(link, exc.to_message())
                    return
                if event is NEED_DATA:
                    break
                if event is EOF:
                    log.info("connection %d (%s): closed by the client", link.cid, link.peer)
                    return
                assert isinstance(event, Message)
                link.last_rx = trio.current_time()  # idleness counts frames: a byte a minute is silence
                self._dispatch(link, event)
                if link.closing:
                    return
                if link.queue:
                    # let the writer send before reading on: the queue bound must measure
                    # a client that does not read, not a burst we have not yielded for
                    await trio.lowlevel.checkpoint()

    def _watching_from(self, ip: str) -> int:
        """How many spectators watch from address ``ip`` now (any table)."""
        return sum(1 for other in self.links.values()
                   if other.ip == ip and other.table is not None and other.cid in other.table.spectators)

    def _dispatch(self, link: _Link, msg: Message) -> None:
        now = trio.current_time()
        if isinstance(msg, (Bye, ErrorMessage)):
            what = f"bye ({msg.reason or 'no reason'})" if isinstance(msg, Bye) else f"error {msg.code}: {msg.message!r}"
            if link.table is None and isinstance(msg, ErrorMessage):
                # a refused handshake: the client does not trust this host's certificate
                # (a wrong join code, a changed key): one line, no traceback
                log.warning("connection %d (%s): the client refused this host before its hello: %s",
                            link.cid, link.peer, what)
            else:
                log.info("connection %d (%s): client sent %s", link.cid, link.peer, what)
            self._forget(link, what, left=isinstance(msg, Bye))
            link.close()
            return
        if link.table is None:
            assert isinstance(msg, Hello)  # the protocol allows nothing else first
            limit = self.config.max_spectators_per_address
            if msg.watch and limit is not None and self._watching_from(link.ip) >= limit:
                log.info("connection %d (%s): refusing a spectator: %d already watch from that address",
                         link.cid, link.peer, limit)
                self._close(link, ErrorMessage("spectators-full", f"{limit} spectators already watch from your "
                                               "address, the most one address may have"))
                return
            table = self._choose_table(msg)
            link.table = table
            table.admit(link.cid, msg, now)
        else:
            table = link.table
            table.receive(link.cid, msg, now)
        self._flush(table)
        self._kick(table)


def transcript_address(bind: str, port: int, adapters: Any = None) -> str:
    """The ``host:port`` the host's transcripts record (``jupai history`` shows it as
    the table's address): the ``--bind`` address, else this machine's first IPv4 LAN
    address (the one the banner's commands name,
    :func:`~jupai_net.host.announce.lan_addresses`; ``adapters`` as there), else its
    loopback address — never the placeholder ``host`` (trial 13). IPv6 in brackets."""
    from .announce import lan_addresses

    if bind and bind not in ("0.0.0.0", "::"):
        host = bind
    else:
        found = lan_addresses(adapters) if bind != "::" else []
        host = found[0] if found else ("::1" if bind == "::" else "127.0.0.1")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
