"""Benchmark of a dealer-blind deal over loopback TCP with one OS process per seat
(issue 9). Without ``--wire``, the deal alone, outside the game protocol: a relay in
the host process forwards every participant message to every participant, in one
order, as the host does; each seat process runs its own :class:`BlindLedger` over
every message (as a real client must), takes its shuffle and re-lock turns, reveals
its keys for the deal's openings (:func:`deal_openings`) and opens its own cards.

Measured: wall time from "start" to the moment every seat has opened its first hand
(median over ``--samples`` deals per table size), for 2, 4 and 6 seats.
Run: ``python bench/blind_net.py [--samples N]``. Prints the load average.

``--wire`` measures the real thing instead: a :class:`~jupai_net.host.server.HostServer`
(the game protocol over TCP+TLS on 127.0.0.1) and one OS process per seat running the
real client session (``run_session``: its witness, its ``BlindLedger``, its
participant), dealer-blind against trusted in the same run, interleaved: wall time at
the host from the game's ``start`` to the moment every seat can open its first hand
(blind: the last key of the deal's openings relayed; trusted: the ``deal`` statement
sent, after the seed commit–reveal), median per table size, with the CPU the host
process and the seat processes (summed) spent meanwhile; the play after it, per move
(random bot clients, the whole game); then ``jupai verify`` (``verify_transcript``) of a
seat's transcript of a whole 4-seat game of each scheme (blind: the deal, the play, the
seeds, the audit and the replay), interleaved, with the ratio; and whether the aims of
issue 9 are met (4 seats' setup < 1 s, verify < 1 s; one opening: ``bench/blind.py``).

``--wire --old PYTHON`` compares two builds instead: dealer-blind games of this build
and of the build whose interpreter is ``PYTHON`` (e.g. a worktree of an older commit
with its own venv), interleaved, each game in a fresh process of its build (this file
drives either build's host and client session), medians and new/old ratios.
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


# --------------------------------------------------------------------------- the real protocol (--wire)


def wire_client(port: int, fingerprint: str, transcript: str) -> None:
    """One seat: the real client session, a bot player, pinned to the host's certificate.
    Writes ``TRANSCRIPT.cpu``: this process's CPU seconds from the game's ``start`` to
    its first hand (dealer-blind: opened by itself; trusted: the ``deal`` statement)."""
    import trio

    from jupai_net.client.bot import BotPlayer
    from jupai_net.client.session import run_session

    class TimedBot(BotPlayer):
        started: float | None = None
        written = False

        def on_update(self, view) -> None:
            super().on_update(view)
            if view.change == "start" and self.started is None:
                self.started = time.process_time()
            elif self.started is not None and not self.written and (view.blind_cards or view.phase == "playing"):
                self.written = True
                with open(transcript + ".cpu", "w") as f:
                    f.write(f"{time.process_time() - self.started:.6f}")

    def pin(host: str, port: int, seen: str) -> None:
        if seen != fingerprint:
            raise ValueError("not the bench host")

    async def run() -> None:
        await run_session("127.0.0.1", port, name=f"seat{os.getpid() % 10000}", player=TimedBot("random"),
                          check_fingerprint=pin, transcript_path=transcript, save_resume=False, reconnect_for=0)

    trio.run(run)


def wire_game(players: int, dealer: str, identity, workdir: str) -> tuple[float, float, float, float, int, list[str]]:
    """One game at a fresh host with ``players`` seat processes; returns (seconds from the
    start to the first hands, the host's CPU seconds meanwhile, the seats' CPU seconds
    from their start to their first hand, summed; seconds from the first hands to the
    game's end, moves played; the seats' transcript paths)."""
    import trio

    from jupai_net.host.server import HostConfig, HostServer
    from jupai_net.host.table import TableConfig

    marks: dict[str, float] = {}

    moves = [0]

    def observer(tid: int, kind: str, data) -> None:
        if kind == "start" or (kind in ("blind-dealt" if dealer == "blind" else "deal", "end") and "start" in marks):
            marks.setdefault(kind, time.perf_counter())
            marks.setdefault(kind + "-cpu", time.process_time())
        if kind == "step":
            moves[0] += 1

    paths = [os.path.join(workdir, f"{dealer}-{players}-{i}.jupai") for i in range(players)]
    config = HostConfig(bind="127.0.0.1", port=0, games=1, table=TableConfig(
        rules=RuleSet(players=players), dealer=dealer, seed_timeout=120.0, turn_timeout=None, ready_timeout=None))

    async def run() -> None:
        server = HostServer(config, identity, observer=observer)
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            procs = [await nursery.start(trio.run_process, [sys.executable, __file__, "--wire-client", str(server.port),
                                                             identity.fingerprint, path])
                     for path in paths]
            with trio.fail_after(300):
                await server.done.wait()
                for p in procs:
                    await p.wait()
            nursery.cancel_scope.cancel()

    trio.run(run)
    done = "blind-dealt" if dealer == "blind" else "deal"
    seats_cpu = sum(float(open(p + ".cpu").read()) for p in paths)
    return (marks[done] - marks["start"], marks[done + "-cpu"] - marks["start-cpu"], seats_cpu,
            marks["end"] - marks[done], moves[0], paths)


def wire_game_json(players: int, dealer: str) -> None:
    """``--wire-game``: one game (:func:`wire_game`) in this process's build; prints its
    figures as JSON (for ``--old``)."""
    import json
    import logging
    import tempfile

    from jupai_net.host.tls import ephemeral_identity

    logging.getLogger("jupai").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as workdir:
        wall, host, seats, *_ = wire_game(players, dealer, ephemeral_identity(), workdir)
    print(json.dumps({"wall": wall, "host": host, "seats": seats}))


def compare_main(samples: int, old: str) -> None:
    """``--wire --old PYTHON``: blind games of this build against the old build's, interleaved."""
    import json

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}   cores: {os.cpu_count()}")
    builds = {"old": old, "new": sys.executable}
    for players in (2, 4, 6):
        got: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(samples):
            for name, python in builds.items():
                done = subprocess.run([python, __file__, "--wire-game", str(players), "blind"], capture_output=True,
                                      text=True, timeout=600, check=True)
                got[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
        med = {b: {k: statistics.median(g[k] for g in got[b]) for k in ("wall", "host", "seats")} for b in builds}
        o, n = med["old"], med["new"]
        print(f"{players} seats, dealer-blind start to first hands (medians of {samples}): wall old {o['wall'] * 1000:6.0f} ms,"
              f" new {n['wall'] * 1000:6.0f} ms ({n['wall'] / o['wall']:.2f}x); CPU host old {o['host'] * 1000:.0f} ms,"
              f" new {n['host'] * 1000:.0f} ms ({n['host'] / o['host']:.2f}x); seats (sum) old {o['seats'] * 1000:.0f} ms,"
              f" new {n['seats'] * 1000:.0f} ms ({n['seats'] / o['seats']:.2f}x)")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def wire_main(samples: int) -> None:
    import tempfile

    from jupai_net.fairness import verify_transcript
    from jupai_net.host.tls import ephemeral_identity

    import logging

    logging.getLogger("jupai").setLevel(logging.ERROR)
    identity = ephemeral_identity()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}   cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as workdir:
        four: dict[str, list[str]] = {}  # a 4-seat game's transcripts of each scheme
        setup: dict[int, float] = {}  # blind start to first hands, median, by seats
        for players in (2, 4, 6):
            times: dict[str, list[tuple[float, float, float]]] = {"blind": [], "trusted": []}
            per_move: dict[str, list[float]] = {"blind": [], "trusted": []}
            for _ in range(samples):  # interleaved: one blind game, one trusted game
                for dealer in ("blind", "trusted"):
                    wall, host_cpu, seats_cpu, play, moves, paths = wire_game(players, dealer, identity, workdir)
                    times[dealer].append((wall, host_cpu, seats_cpu))
                    per_move[dealer].append(play / max(1, moves))
                    if players == 4:
                        four[dealer] = paths
            (b, bh, bs), (tr, th, ts) = (tuple(statistics.median(f[i] for f in times[d]) for i in range(3))
                                         for d in ("blind", "trusted"))
            walls = [f[0] for f in times["blind"]]
            setup[players] = b
            print(f"{players} seats, start to first hands over TCP+TLS, real clients: blind median {b * 1000:7.1f} ms"
                  f" (min {min(walls) * 1000:.1f}, max {max(walls) * 1000:.1f}),"
                  f" trusted median {tr * 1000:6.1f} ms, ratio {b / tr:4.1f}x;"
                  f" CPU meanwhile: host {bh * 1000:.0f} / {th * 1000:.0f} ms, seats (sum) {bs * 1000:.0f} / {ts * 1000:.0f} ms")
            pb, pt = statistics.median(per_move["blind"]), statistics.median(per_move["trusted"])
            print(f"{players} seats, play (first hands to end) per move, random bots: blind median {pb * 1000:7.1f} ms,"
                  f" trusted median {pt * 1000:6.1f} ms, ratio {pb / pt:4.1f}x")
        # `jupai verify` of seat 0's transcript of the last 4-seat game of each scheme, interleaved
        data = {d: open(four[d][0], "rb").read() for d in ("blind", "trusted")}
        walls: dict[str, list[float]] = {"blind": [], "trusted": []}
        cpus: dict[str, list[float]] = {"blind": [], "trusted": []}
        verdicts = {}
        for _ in range(max(3, samples)):
            for d in ("blind", "trusted"):
                w0, c0 = time.perf_counter(), time.process_time()
                verdicts[d] = verify_transcript(data[d])
                walls[d].append(time.perf_counter() - w0)
                cpus[d].append(time.process_time() - c0)
        (vb, vt), (cb, ct) = ((statistics.median(x["blind"]), statistics.median(x["trusted"])) for x in (walls, cpus))
        print(f"verify a seat's transcript of a whole 4-seat game (deal, play, seeds, audit, replay):"
              f" blind ({len(data['blind'])} bytes, {verdicts['blind'].status}) median {vb * 1000:.1f} ms wall,"
              f" {cb * 1000:.1f} ms CPU; trusted ({len(data['trusted'])} bytes, {verdicts['trusted'].status})"
              f" {vt * 1000:.1f} ms wall, {ct * 1000:.1f} ms CPU; ratio {vb / vt:4.1f}x wall, {cb / ct:4.1f}x CPU")
        print(f"aims (issue 9): 4 seats' blind setup < 1 s: {'met' if setup[4] < 1 else 'NOT met'} ({setup[4]:.2f} s);"
              f" verify of a blind 4-seat game < 1 s: {'met' if vb < 1 else 'NOT met'} ({vb:.2f} s)")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--client":
        client(int(argv[1]), int(argv[2]), int(argv[3]))
        return 0
    if argv and argv[0] == "--wire-client":
        wire_client(int(argv[1]), argv[2], argv[3])
        return 0
    if argv and argv[0] == "--wire-game":
        wire_game_json(int(argv[1]), argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=5, help="deals per table size (default 5)")
    ap.add_argument("--wire", action="store_true", help="the real host and client sessions over TCP+TLS, blind against trusted")
    ap.add_argument("--old", metavar="PYTHON", help="with --wire: blind games of this build against the build of PYTHON")
    args = ap.parse_args(argv)
    if args.samples < 1:
        ap.error("--samples must be at least 1")
    if args.old and not args.wire:
        ap.error("--old goes with --wire")
    if args.wire and args.old:
        compare_main(args.samples, args.old)
        return 0
    if args.wire:
        wire_main(args.samples)
        return 0
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}   cores: {os.cpu_count()}")
    for players in (2, 4, 6):
        times = host_run(players, args.samples)
        print(f"blind setup + first hands over loopback, {players} seat processes + host: median {statistics.median(times) * 1000:7.1f} ms"
              f"   (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
