"""Shared helpers for the network tests (no tests here): an in-memory harness for the
pure :class:`~jupai_net.host.table.Table`, a host server in a nursery, a raw TLS client
for misbehaving peers, a hostile TLS host for the real commands, a cuttable TCP
proxy, and the hidden-information checker."""

from __future__ import annotations

import random
import ssl
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack
import trio

from jupai_net.actions import Action
from jupai_net.engine import GameState
from jupai_net.fairness import SeatWitness, generate_signing_key
from jupai_net.fairness.statements import join_statement
from jupai_net.host.server import HostConfig, HostServer, for_version
from jupai_net.host.table import Close, Send, Table, TableConfig
from jupai_net.host.tls import ephemeral_identity
from jupai_net.protocol import (
    EOF,
    NEED_DATA,
    ClientConnection,
    Hello,
    HostConnection,
    Message,
    Prompt,
    Ready,
    SeedCommit,
    SeedReveal,
    Statement,
)
from jupai_net.protocol.framing import FrameReader, decode_payload
from jupai_net.rules import RuleSet

IDENTITY = ephemeral_identity()  # one certificate for the whole test run (key generation is slow-ish)


# --------------------------------------------------------------------------- pure table harness


class TableHarness:
    """Drives a :class:`Table` in memory: every connection is a real pair of
    protocol connections (so every effect is encoded and decoded as on the wire), and
    each seated client has a :class:`SeatWitness` that commits and reveals on cue."""

    def __init__(self, config: TableConfig, *, seed: int = 1, games: int | None = None):
        self.table = Table(config, generate_signing_key(), rng=random.Random(seed), games=games)
        self.now = 0.0
        self.host_conns: dict[int, HostConnection] = {}
        self.client_conns: dict[int, ClientConnection] = {}
        self.inbox: dict[int, list[Message]] = {}
        self.closed: dict[int, Any] = {}
        self.witness: dict[int, SeatWitness] = {}
        self.seat: dict[int, int | None] = {}
        self.auto_seed = True
        self._next = 0
        self._later: list[tuple[int, Message]] = []

    def connect(self, name: str, *, seat: int | None = None, token: str | None = None, resume: int | None = None,
                watch: bool = False, version: int | None = None) -> int:
        """A new connection saying hello; ``resume``: the old connection whose witness
        the client keeps (a reconnect in the same process); ``watch``: a spectator;
        ``version``: the client's highest protocol version (an older client)."""
        cid = self._next
        self._next += 1
        if resume is not None:
            self.witness[cid] = self.witness[resume]
            self.seat[cid] = self.seat[resume]
        h, c = HostConnection(), ClientConnection()
        self.host_conns[cid], self.client_conns[cid] = h, c
        self.inbox[cid] = []
        more = {} if version is None else {"version": version}
        hello = (Hello(name, seat=seat, token=token, watch=True, min_version=3, **more) if watch
                 else Hello(name, seat=seat, token=token, **more))
        h.receive_data(c.send(hello))
        hello = h.next_event()
        self.table.admit(cid, hello, self.now)
        self.pump()
        return cid

    def send(self, cid: int, msg: Message) -> None:
        h = self.host_conns[cid]
        h.receive_data(self.client_conns[cid].send(msg))
        event = h.next_event()
        self.table.receive(cid, event, self.now)
        self.pump()

    def inject(self, cid: int, msg: Message) -> None:
        """Hand ``msg`` to the table as if decoded from ``cid`` (skips the client-side checks)."""
        self.table.receive(cid, msg, self.now)
        self.pump()

    def drop(self, cid: int) -> None:
        self.table.disconnect(cid, self.now, "test drop")
        self.closed[cid] = "dropped"
        self.pump()

    def advance(self, seconds: float) -> None:
        """Let time pass, ticking the table at every deadline on the way."""
        end = self.now + seconds
        while True:
            dl = self.table.next_deadline()
            if dl is None or dl > end:
                break
            self.now = max(self.now, dl)
            self.table.tick(self.now)
            self.pump()
        self.now = end

    def pump(self) -> None:
        """Deliver the table's effects; witnesses commit/reveal on cue (auto_seed)."""
        while True:
            effects = self.table.drain()
            if not effects:
                return
            for eff in effects:
                if eff.cid in self.closed:
                    continue
                if isinstance(eff, Close):
                    self.closed[eff.cid] = eff.error
                    if eff.error is not None:
                        self.inbox[eff.cid].append(eff.error)
                    continue
                assert isinstance(eff, Send)
                c = self.client_conns[eff.cid]
                h = self.host_conns[eff.cid]
                c.receive_data(h.send(for_version(eff.msg, h.version)))  # as the server fits it
                msg = c.next_event()
                self.inbox[eff.cid].append(msg)
                self._react(eff.cid, msg)

    def _react(self, cid: int, msg: Message) -> None:
        from jupai_net.protocol import Start, Welcome

        if isinstance(msg, Welcome):
            self.seat[cid] = msg.seat
        elif isinstance(msg, Start):
            if cid not in self.witness or self.witness[cid].game_id != msg.game_id:
                self.witness[cid] = SeatWitness(self.seat[cid])
        elif isinstance(msg, Statement):
            w = self.witness[cid]
            raw = join_statement(msg.body, msg.sig)
            if len(w._raw) and raw in w._raw:
                return  # resent after a reconnect
            w.receive(raw)
            if w.seat is None:
                return  # a spectator has no seed
            if self.auto_seed and msg.kind == "start":
                self._queue(cid, SeedCommit(w.game_id, w.commitment))
            elif self.auto_seed and msg.kind == "commitments":
                self._queue(cid, SeedReveal(w.game_id, w.seed_reveal()))

    def _queue(self, cid: int, msg: Message) -> None:
        # deliver after the current batch: the host would read it later anyway
        self._later.append((cid, msg))

    def flush_later(self) -> None:
        while self._later:
            cid, msg = self._later.pop(0)
            if cid not in self.closed:
                self.send(cid, msg)

    def ready_all(self, *cids: int) -> None:
        for cid in cids:
            self.send(cid, Ready(True))
        self.flush_later()
        self.flush_later()

    def last(self, cid: int, kind: type) -> Any:
        for msg in reversed(self.inbox[cid]):
            if isinstance(msg, kind):
                return msg
        return None

    def all(self, cid: int, kind: type) -> list[Any]:
        return [m for m in self.inbox[cid] if isinstance(m, kind)]

    def prompt_for(self, cid: int) -> Prompt | None:
        """The newest prompt of ``cid`` if it is for the current state."""
        p = self.last(cid, Prompt)
        st = self.table.dealer.state if self.table.dealer else None
        return p if p is not None and st is not None and p.state_id == st.version and st.to_move == self.seat[cid] else None


# --------------------------------------------------------------------------- servers and clients


def host_config(players: int = 4, *, bots: int = 0, games: int | None = 1, **kw: Any) -> HostConfig:
    """A fast test host on 127.0.0.1, any free port."""
    table_kw = {k: kw.pop(k) for k in list(kw) if k in TableConfig.__dataclass_fields__}
    table_kw.setdefault("turn_timeout", 5.0)
    table_kw.setdefault("seed_timeout", 10.0)
    table_kw.setdefault("away_delay", 0.05)
    rules = table_kw.pop("rules", None) or RuleSet(players=players, rounds=kw.pop("rounds", 6))
    return HostConfig(bind="127.0.0.1", port=0, table=TableConfig(rules=rules, bots=bots, **table_kw), games=games, **kw)


async def start_host(nursery: trio.Nursery, config: HostConfig, observer: Any = None) -> HostServer:
    server = HostServer(config, IDENTITY, observer=observer)
    await nursery.start(server.serve)
    return server


def pin(host: str, port: int, fingerprint: str) -> None:
    """A fingerprint check that accepts only the test identity."""
    assert fingerprint == IDENTITY.fingerprint


#: The seat a hostile host's victim plays in :func:`victim_game` (seat 1: the host's bot).
VICTIM = 0


async def victim_game(monkeypatch: Any, table_class: type, *, session: dict[str, Any] | None = None,
                      **kw: Any) -> Any:
    """One 2-seat game over TCP+TLS against a host whose table is ``table_class`` (a
    hostile :class:`Table` subclass): seat :data:`VICTIM` a random bot (seed 3) playing
    through :func:`~jupai_net.client.session.run_session`, seat 1 the host's bot, 4
    rounds unless ``kw`` says otherwise (``kw``: more :func:`host_config` settings;
    ``session``: more or other ``run_session`` arguments, e.g. ``player``,
    ``transcript_path``). Returns the session's ``SessionResult`` (30 s at most)."""
    from jupai_net.client.bot import BotPlayer
    from jupai_net.client.session import run_session
    from jupai_net.host import server as server_mod

    monkeypatch.setattr(server_mod, "Table", table_class)
    args = {"name": "Victim", "player": BotPlayer("random", seed=3), "check_fingerprint": pin, "seat": VICTIM,
            "save_resume": False, **(session or {})}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, bots=1, **{"rounds": 4, **kw}))
        with trio.fail_after(30):
            result = await run_session("127.0.0.1", server.port, **args)
        nursery.cancel_scope.cancel()
    return result


def client_context() -> ssl.SSLContext:
    from jupai_net.client.tls import client_ssl_context

    return client_ssl_context()


class RawClient:
    """A hand-driven client over real TLS: send any message or raw bytes, read
    messages one by one. ``rcvbuf`` sets a small receive buffer (for a client that
    stops reading)."""

    def __init__(self, stream: trio.SSLStream):
        self.stream = stream
        self.conn = ClientConnection()
        self.received: list[Message] = []
        self.witness: SeatWitness | None = None
        self.seat: int | None = None

    @classmethod
    async def connect(cls, port: int, *, rcvbuf: int | None = None, handshake: bool = True) -> "RawClient":
        sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        await sock.connect(("127.0.0.1", port))
        tcp = trio.SocketStream(sock)
        stream = trio.SSLStream(tcp, client_context())
        if handshake:
            await stream.do_handshake()
        return cls(stream)

    async def send(self, msg: Message) -> None:
        await self.stream.send_all(self.conn.send(msg))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def recv(self, timeout: float = 5.0) -> Message | None:
        """The next message (None at end of stream). Raises trio.TooSlowError."""
        with trio.fail_after(timeout):
            while True:
                event = self.conn.next_event()
                if event is EOF:
                    return None
                if event is not NEED_DATA:
                    self.received.append(event)  # type: ignore[arg-type]
                    return event  # type: ignore[return-value]
                try:
                    data = await self.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    data = b""
                self.conn.receive_data(bytes(data))

    async def recv_until(self, kind: type, timeout: float = 5.0, *, where: Any = None) -> Any:
        """Read (acting on seeds automatically) until a message of ``kind`` (matching ``where``)."""
        with trio.fail_after(timeout):
            while True:
                msg = await self.recv(timeout)
                if msg is None:
                    raise AssertionError(f"connection ended before a {kind.__name__}: got {self.received[-3:]}")
                await self.react(msg)
                if isinstance(msg, kind) and (where is None or where(msg)):
                    return msg

    async def react(self, msg: Message) -> None:
        """Play the seed part of the protocol like an honest client."""
        from jupai_net.protocol import Start, Welcome

        if isinstance(msg, Welcome):
            self.seat = msg.seat
        elif isinstance(msg, Start):
            self.witness = SeatWitness(self.seat)
        elif isinstance(msg, Statement) and self.witness is not None:
            self.witness.receive(join_statement(msg.body, msg.sig))
            if msg.kind == "start":
                await self.send(SeedCommit(self.witness.game_id, self.witness.commitment))
            elif msg.kind == "commitments":
                await self.send(SeedReveal(self.witness.game_id, self.witness.seed_reveal()))

    async def join(self, name: str, seat: int | None = None) -> None:
        await self.send(Hello(name, seat=seat))
        from jupai_net.protocol import Welcome

        await self.recv_until(Welcome)
        await self.send(Ready(True))

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)


class HostileHost:
    """A TLS host on 127.0.0.1 (the test's own, port 0) in a thread, for a real ``jupai
    join``/``jupai watch`` against a host that says what the test wants: it answers a
    hello with ``frames`` (host messages, or wire maps a message class would refuse to
    build), numbered from seq 0, then keeps the connection until the client closes it,
    :meth:`close` is called or 30 s pass. ``port`` and ``identity.join_code`` are what
    the command line needs."""

    def __init__(self, frames: list[Any]) -> None:
        import threading

        self.identity = ephemeral_identity()
        self.frames = frames
        self.done = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        import time

        from jupai_net.protocol.framing import encode_frame

        ctx = self.identity.server_context()
        self.sock.settimeout(30)
        try:
            conn, _ = self.sock.accept()
            with ctx.wrap_socket(conn, server_side=True) as tls:
                tls.settimeout(30)
                tls.recv(65536)  # the hello
                for seq, frame in enumerate(self.frames):
                    wire = frame if isinstance(frame, dict) else frame.to_wire(seq=seq)
                    tls.sendall(encode_frame({**wire, "seq": seq}))
                tls.settimeout(0.1)
                end = time.monotonic() + 30
                while not self.done.is_set() and time.monotonic() < end:
                    try:
                        if not tls.recv(65536):  # the client's ready, chat, …; b"": it closed
                            break
                    except TimeoutError:
                        continue
        except OSError:
            pass
        finally:
            self.sock.close()

    def close(self) -> None:
        """Close the connection (if the client has not) and wait for the thread."""
        self.done.set()
        self.thread.join(10)


class Proxy:
    """A TCP proxy on 127.0.0.1 to ``target_port``; :meth:`cut` breaks every
    connection through it (the client sees its connection drop, the host an EOF)."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.port = 0
        self._scopes: list[trio.CancelScope] = []
        self.connections = 0

    async def serve(self, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        await trio.serve_listeners(self._handle, listeners, task_status=task_status)

    async def _handle(self, client: trio.SocketStream) -> None:
        self.connections += 1
        upstream = await trio.open_tcp_stream("127.0.0.1", self.target_port)
        scope = trio.CancelScope()
        self._scopes.append(scope)

        async def pump(a: trio.SocketStream, b: trio.SocketStream) -> None:
            try:
                async for chunk in a:
                    await b.send_all(chunk)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            scope.cancel()

        with scope:
            async with trio.open_nursery() as n:
                n.start_soon(pump, client, upstream)
                n.start_soon(pump, upstream, client)
        await trio.aclose_forcefully(client)
        await trio.aclose_forcefully(upstream)

    def cut(self) -> None:
        for scope in self._scopes:
            scope.cancel()
        self._scopes.clear()


# --------------------------------------------------------------------------- hidden information

#: Keys whose int values (or lists of ints) are card ids, anywhere in a message.
CARD_KEYS = frozenset({"hand", "cards", "recovered", "discard_pile", "round_card", "card", "mass", "weapon",
                       "equipment", "discarded"})


def card_ids(tree: Any, key: str | None = None) -> Iterator[int]:
    """Every card id in ``tree``: ints (not bools) under a :data:`CARD_KEYS` key, and the
    card of every ``[position, card, salt]`` reveal under ``private``/``public``."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            if k == "recovered" and tree.get("kind") == "end":
                continue  # the end event's "recovered" holds counts, not cards
            if k in ("private", "public") and isinstance(v, list):
                for r in v:
                    if isinstance(r, list) and len(r) == 3:
                        yield r[1]
                continue
            yield from card_ids(v, k)
    elif isinstance(tree, (list, tuple)):
        for v in tree:
            yield from card_ids(v, key)
    elif isinstance(tree, int) and not isinstance(tree, bool) and key in CARD_KEYS:
        yield tree


@dataclass
class Tap:
    """Records the decrypted bytes one client received (``wire_tap``)."""

    chunks: list[bytes] = field(default_factory=list)

    def __call__(self, data: bytes) -> None:
        self.chunks.append(data)

    def frames(self) -> list[dict[str, Any]]:
        """Every received frame, decoded to its msgpack map."""
        reader = FrameReader()
        reader.feed(b"".join(self.chunks))
        out = []
        while (payload := reader.next_payload()) is not None:
            out.append(decode_payload(payload))
        return out


def known_by_version(record: dict[str, Any], seat: int) -> list[frozenset[int]]:
    """``known[v]`` = the cards ``seat`` may know after ``v`` actions, by replaying ``record``."""
    state = GameState.new(*_new_args(record))
    known = [state.known_cards(seat)]
    for wire in record["actions"]:
        state.apply(Action.from_wire(wire))
        known.append(state.known_cards(seat))
    return known


def _new_args(record: dict[str, Any]) -> tuple[Any, ...]:
    from jupai_net.setup import Setup

    return RuleSet.from_wire(record["rules"]), record["deck"], Setup.from_wire(record["setup"])


def leaks(frames: list[dict[str, Any]], known: list[frozenset[int]]) -> list[tuple[str, int, set[int]]]:
    """Frames that carry a card the seat may not know at the state they describe:
    ``[(type/kind, version, unknown cards)]``. Frames without a state (lobby, chat,
    notices, end) must carry no card id at all beyond the public ones at the end."""
    out = []
    final = known[-1]
    for f in frames:
        t = f["type"]
        if t == "statement":
            body = msgpack.unpackb(f["body"], raw=False)
            kind = body["kind"]
            if kind == "deal":
                v = 0
            elif kind == "step":
                v = body["version"]
            else:
                v = len(known) - 1
            cards = set(card_ids(body))
            label = f"statement/{kind}"
        elif t == "sync":
            v = f["state_id"]
            cards = set(card_ids(f["observation"]))
            label = t
        elif t == "prompt":
            v = f["state_id"]
            cards = {c for a in f["legal"] for c in list(a["cards"]) + list(a["recovered"])}
            label = t
        else:
            v = len(known) - 1
            cards = set(card_ids({k: val for k, val in f.items() if k != "type"}))
            label = t
        bad = cards - (known[v] if v < len(known) else final)
        if bad:
            out.append((label, v, bad))
    return out


async def start_watch(nursery: trio.Nursery, server: HostServer, watched: dict, *, name: str = "Wu",
                      player: Any = None) -> None:
    """Start a spectator session (``jupai watch``'s ``run_session(watch=True)``) on
    ``server``'s port; its result goes to ``watched["r"]``. Returns once the table
    counts the spectator (at most 5 s)."""
    from jupai_net.client.session import PlayerBase, run_session

    async def watch() -> None:
        watched["r"] = await run_session("127.0.0.1", server.port, name=name, player=player or PlayerBase(),
                                         check_fingerprint=pin, watch=True)

    nursery.start_soon(watch)
    with trio.fail_after(5):
        while not server.tables[0].spectators:
            await trio.sleep(0.01)
