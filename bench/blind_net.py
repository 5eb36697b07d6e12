"""Benchmark of a dealer-blind deal over loopback TCP with one OS process per seat
(issue 9). Not the game protocol (which does not carry blind deals yet): a relay in
the host process forwards every participant message to every participant, in one
order, as the host will; each seat process runs its own :class:`BlindLedger` over
every message (as a real client must), takes its shuffle and re-lock turns, reveals
its keys for the deal's openings (:func:`deal_openings`) and opens its own cards.

Measured: wall time from "start" to the moment every seat has opened its first hand
(median over ``--samples`` deals per table size), for 2, 4 and 6 seats.
Run: ``python bench/blind_net.py [--samples N]``. Prints the load average.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import struct
import subprocess
import sys
import time

import msgpack

from jupai_net.fairness.blind import table_participants
from jupai_net.fairness.blind_ledger import BlindLedger, BlindParticipant
from jupai_net.fairness.blind_schedule import deal_openings
from jupai_net.rules import RuleSet


def send(sock: socket.socket, obj) -> None:
    data = msgpack.packb(obj, use_bin_type=True)
    sock.sendall(struct.pack(">I", len(data)) + data)


def recv(sock: socket.socket):
    head = _exactly(sock, 4)
    return msgpack.unpackb(_exactly(sock, struct.unpack(">I", head)[0]), raw=False)


def _exactly(sock: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("peer closed")
        buf += chunk
    return buf


class Seat:
    """One participant's logic, driven by the relayed messages (used by seat processes
    and by the host's own participant)."""

    def __init__(self, game_id: bytes, pid: int, players: int):
        self.rules = RuleSet(players=players)
        self.me = BlindParticipant(game_id, pid)
        self.ledger = BlindLedger(game_id, table_participants(players), own=self.me)
        self.keys_sent = False
        self.cards: dict[int, int] = {}

    def on_message(self, raw: bytes) -> list[bytes]:
        """Check one relayed message; return the messages this participant sends now."""
        led, pids, out = self.ledger, self.ledger.participants, []
        led.receive(raw)
        if led.phase == "shuffling" and pids[len(led.decks) - 1] == self.me.pid:
            out.append(self.me.shuffle(len(led.decks) - 1, led.deck))
        elif led.phase == "relocking" and pids[len(led.decks) - 1 - len(pids)] == self.me.pid:
            out.append(self.me.relock(led.deck))
        elif led.phase == "dealt" and not self.keys_sent:
            self.keys_sent = True
            openings = deal_openings(self.rules)
            for q, to in openings:
                led.request(q, to)
            out.append(self.me.keys([(q, to) for q, to in openings if to != self.me.pid]))
        return out

    def try_open(self) -> bool:
        """Open its own first hand once every key has arrived; True when done."""
        mine = [q for q, to in deal_openings(self.rules) if to == self.me.pid]
        if not self.keys_sent or any(self.ledger.owed(q, self.me.pid) for q in mine):
            return False
        for q in mine:
            self.cards[q] = self.me.open(self.ledger, q)
        return True


def client(port: int, pid: int, players: int) -> None:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    send(sock, ["ready", pid])
    while True:
        kind, *rest = recv(sock)
        if kind == "quit":
            return
        if kind != "start":  # the rest of the last deal's messages
            continue
        game_id = rest[0]
        seat = Seat(game_id, pid, players)
        send(sock, ["msg", seat.me.hello()])
        done = False
        while not done:
            kind, raw = recv(sock)
            for m in seat.on_message(raw):
                send(sock, ["msg", m])
            if seat.try_open():
                send(sock, ["done", len(seat.cards)])
                done = True


def host_run(players: int, samples: int) -> list[float]:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    procs = [subprocess.Popen([sys.executable, __file__, "--client", str(port), str(s), str(players)]) for s in range(players)]
    conns = []
    for _ in range(players):
        c, _ = server.accept()
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        assert recv(c)[0] == "ready"
        conns.append(c)
    times = []
    try:
        for _ in range(samples):
            times.append(_one_deal(players, conns))
        for c in conns:
            send(c, ["quit"])
    finally:
        for p in procs:
            p.wait(timeout=60)
        server.close()
    return times


def _one_deal(players: int, conns: list[socket.socket]) -> float:
    import selectors

    t0 = time.perf_counter()
    game_id = os.urandom(16)
    host = Seat(game_id, 0xFF, players)
    for c in conns:
        send(c, ["start", game_id])
    queue = [host.me.hello()]
    done = 0
    sel = selectors.DefaultSelector()
    for c in conns:
        sel.register(c, selectors.EVENT_READ)
    try:
        while done < players:
            while queue:  # relay in one order to everyone, the host's participant first
                raw = queue.pop(0)
                for c in conns:
                    send(c, ["msg", raw])
                queue.extend(host.on_message(raw))
            for key, _ in sel.select():
                kind, value = recv(key.fileobj)
                if kind == "msg":
                    queue.append(value)
                else:
                    done += 1
    finally:
        sel.close()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--client":
        client(int(argv[1]), int(argv[2]), int(argv[3]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=5, help="deals per table size (default 5)")
    args = ap.parse_args(argv)
    if args.samples < 1:
        ap.error("--samples must be at least 1")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}   cores: {os.cpu_count()}")
    for players in (2, 4, 6):
        times = host_run(players, args.samples)
        print(f"blind setup + first hands over loopback, {players} seat processes + host: median {statistics.median(times) * 1000:7.1f} ms"
              f"   (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
