"""Network benchmark (issue 4): many concurrent tables of headless bot clients against
ONE host process on loopback, over the real stack (TLS 1.3, framing, commit–reveal,
signed statements, per-seat observations, witnesses on every client).

Run: ``python bench/network.py [--tables 100] [--players 4] [--think 0.5]
[--rounds N] [--client-procs 1]``. The host runs in a child process (one process,
one trio loop, ``--tables`` tables); the bot clients run in this process (or in
``--client-procs`` child processes). Prints: tables, games finished and verified,
actions, actions per second, and the action round trip (from a client sending its
action to that client receiving the resulting state), p50/p90/p99/max in ms, plus
the host's CPU time. Asserts nothing; the aim is 100 four-player tables with
p99 < 50 ms on a 2-core machine (with bots thinking like people do, ``--think``).

``--think S``: each bot waits uniformly 0.5·S..1.5·S seconds before acting (0: act
at once, which measures saturated throughput rather than latency).

Host figures (issue 10 aims 3 and 5): host CPU per action (CPU from listening to the
last game, over the actions played) and host RSS per active table (peak RSS minus the
RSS once listening, over the tables; every table plays at once). ``--old-python
OLD/.venv/bin/python`` runs the host of another checkout (its venv's editable
install) in turns with this one's, ``--repeat`` times each, interleaved, with the
same clients (this checkout's), and prints medians and ratios old/new.
``--clients own``: each host gets the bot clients of its own build instead (for an old
checkout whose host this checkout's clients refuse, e.g. one from before the host
certificate carried the statement key); ``--clients old``: both hosts get the old
build's clients (the same load on both, when the old clients can play with the new
host). ``--profile FILE`` writes a cProfile of the
host (one run; slows it down).

``--host-latency``: the host also times each action it handles (dispatch and flush:
the dealer, the engine, the frames, the TLS writes) and how late a 5 ms timer on its
trio loop fires (the wait any new event, e.g. an action arriving, has before the host
runs it); both are printed as percentiles, to tell the host's own share of the round
trip from the clients'.

``--probe-clients N``: N of the clients run in their own process at normal priority
while the other client processes run at ``nice 10``, and their round trips are
printed apart ("probe"). On one 2-core machine the 400 bot clients of 100 tables
need more CPU than the host: their own scheduling delay then swamps the round trip.
A probe client stands for a player on their own laptop, whose round trip is the host's
latency under the whole load plus loopback, which is what the p99 aim is about.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio


# --------------------------------------------------------------------------- host process


async def serve(args: argparse.Namespace) -> None:
    from jupai_net.host.server import HostConfig, HostServer
    from jupai_net.host.table import TableConfig
    from jupai_net.host.tls import ephemeral_identity
    from jupai_net.rules import RuleSet

    identity = ephemeral_identity()
    rules = RuleSet(players=args.players, rounds=args.rounds)
    # every bench client comes from 127.0.0.1: no per-address limits (an older host, run with
    # --old-python, may predate them)
    limits = {name: None for name in ("max_per_address", "max_handshakes_per_address")
              if name in {f.name for f in dataclasses.fields(HostConfig)}}
    config = HostConfig(
        bind="127.0.0.1", port=0, max_tables=args.tables, games=args.tables,
        table=TableConfig(rules=rules, turn_timeout=60.0, seed_timeout=120.0),
        queue_size=1024, handshake_timeout=60.0, hello_timeout=60.0, idle_timeout=600.0, close_grace=1.0,
        **limits,
    )
    # one game per table: a table whose game is over takes no newcomers (on a slow host the
    # first games end before the last clients connect, and those would wait there for ever)
    from jupai_net.host.table import Table

    accepting = Table.accepting
    Table.accepting = property(lambda table: table.games_done == 0 and accepting.fget(table))
    server = HostServer(config, identity)
    service: list[float] = []  # seconds the host spent on each action message (its dispatch and flush)
    lags: list[float] = []  # how late a 5 ms timer of the host's loop fired: the wait a new event has
    lag_scope = trio.CancelScope()
    if args.host_latency:
        from jupai_net.protocol import ActionMessage

        dispatch = server._dispatch

        def timed(link: Any, msg: Any) -> None:
            if not isinstance(msg, ActionMessage):
                return dispatch(link, msg)
            t0 = time.perf_counter()
            dispatch(link, msg)
            service.append(time.perf_counter() - t0)

        server._dispatch = timed

    async def watch_lag() -> None:
        with lag_scope:
            while True:
                t0 = trio.current_time()
                await trio.sleep(0.005)
                lags.append(trio.current_time() - t0 - 0.005)

    async def serve_then_stop(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        try:
            await server.serve(task_status=task_status)
        finally:
            lag_scope.cancel()

    async with trio.open_nursery() as nursery:
        await nursery.start(serve_then_stop)
        if args.host_latency:
            nursery.start_soon(watch_lag)
        listening_cpu, listening_rss = sum(os.times()[:2]), rss_kib()
        print(json.dumps({"port": server.port, "fingerprint": identity.fingerprint}), flush=True)
    t = os.times()
    print(json.dumps({"host_cpu": t.user + t.system, "serving_cpu": t.user + t.system - listening_cpu,
                      "listening_rss_kib": listening_rss,
                      "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                      "stats": server.stats, "games": sum(tb.games_done for tb in server.tables),
                      "service_ms": [x * 1000 for x in service], "lag_ms": [x * 1000 for x in lags]}), flush=True)


def rss_kib() -> int:
    """This process's resident set size now, in KiB (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


def serve_main(args: argparse.Namespace) -> None:
    if not args.profile:
        trio.run(serve, args)
        return
    import cProfile

    profiler = cProfile.Profile(time.process_time)  # CPU, not wall time: the machine is shared
    profiler.enable()
    try:
        trio.run(serve, args)
    finally:
        profiler.disable()
        profiler.dump_stats(args.profile)


# --------------------------------------------------------------------------- clients


async def clients(port: int, fingerprint: str, n: int, think: float, offset: int) -> dict[str, Any]:
    from jupai_net.client.bot import BotPlayer
    from jupai_net.client.session import ClientView, run_session

    class Timed(BotPlayer):
        def __init__(self, i: int):
            super().__init__("random", seed=offset + i, think=(0.5 * think, 1.5 * think) if think > 0 else 0.0)
            self.sent: tuple[int, float] | None = None
            self.rtts: list[float] = []
            self.final_state = 0

        async def choose(self, view: ClientView):
            action = await super().choose(view)
            self.sent = (view.prompt_state, time.perf_counter())  # the session sends it right away
            return action

        def on_update(self, view: ClientView) -> None:
            if view.change == "sync" and self.sent is not None and view.state_id is not None:
                state, t0 = self.sent
                if view.state_id > state:
                    now = time.perf_counter()
                    self.rtts.append((now - t0, now - start))
                    self.sent = None
            if view.state_id is not None:
                self.final_state = view.state_id

    def check(host: str, p: int, fp: str) -> None:
        if fp != fingerprint:
            raise RuntimeError("unexpected certificate")

    start = time.perf_counter()
    players = [Timed(i) for i in range(n)]
    results: list[Any] = [None] * n
    tmp = Path(tempfile.mkdtemp(prefix="jupai-bench-"))

    async def one(i: int) -> None:
        results[i] = await run_session("127.0.0.1", port, name=f"b{offset + i}", player=players[i],
                                       check_fingerprint=check, save_resume=False, reconnect_for=0,
                                       connect_timeout=60.0, transcript_path=tmp / f"{offset + i}.jupai")

    async with trio.open_nursery() as nursery:
        for i in range(n):
            nursery.start_soon(one, i)
            if i % 20 == 19:
                await trio.sleep(0)  # stagger the TLS handshakes a little
    elapsed = time.perf_counter() - start
    games: dict[bytes, int] = {}
    for r, p in zip(results, players):
        if r is not None and r.game_id is not None:
            games[r.game_id] = max(games.get(r.game_id, 0), p.final_state)
    return {
        "rtts": [x for p in players for x in p.rtts],
        "statuses": [r.status if r else "none" for r in results],
        "verified": sum(1 for r in results if r and r.verdict and r.verdict.ok),
        "games": {g.hex(): v for g, v in games.items()},
        "elapsed": elapsed,
        "cpu": sum(os.times()[:2]),
    }


async def light_clients(port: int, fingerprint: str, n: int, think: float, offset: int) -> dict[str, Any]:
    """``n`` light load clients (``--load-clients light``): each its own TLS connection
    to the host, speaking the newest protocol version as a seat does (hello, ready, seed
    commitment and reveal, a random legal action per prompt, pong, bye after the end),
    but without what a player's client does besides (no statement checks, no views, no
    replay, no transcript): a load generator whose CPU per action is a fraction of a full
    client's, so that on a small machine the host, not the clients, sets the pace. The
    host cannot tell them from full clients: the same frames arrive on the same kind of
    connections. Returns the figures :func:`clients` returns (``verified`` 0)."""
    import random
    import msgpack

    from jupai_net.client.tls import client_ssl_context, peer_fingerprint
    from jupai_net.fairness import make_seed, seed_commitment
    from jupai_net.protocol import Hello, Ready
    from jupai_net.protocol.framing import FrameReader, encode_frame

    ctx = client_ssl_context()
    start = time.perf_counter()
    rtts: list[tuple[float, float]] = []
    statuses: list[str] = []
    games: dict[str, int] = {}

    async def one(i: int) -> None:
        rng = random.Random(offset + i)
        seq = 0
        status = "none"
        try:
            tcp = await trio.open_tcp_stream("127.0.0.1", port)
            stream = trio.SSLStream(tcp, ctx, server_hostname=None)
            await stream.do_handshake()
            if peer_fingerprint(stream) != fingerprint:
                raise RuntimeError("unexpected certificate")

            async def send(wire: dict[str, Any]) -> None:
                nonlocal seq
                wire["seq"] = seq
                seq += 1
                await stream.send_all(encode_frame(wire))

            await send(Hello(f"b{offset + i}").to_wire())
            reader = FrameReader()
            seat = game_id = None
            seed = make_seed()
            sent: tuple[int, float] | None = None
            while True:
                data = await stream.receive_some(65536)
                if not data:
                    return
                reader.feed(data)
                while (payload := reader.next_payload()) is not None:
                    msg = msgpack.unpackb(payload)
                    kind = msg["type"]
                    if kind == "sync":
                        state = msg["state_id"]
                        games[game_id.hex()] = max(games.get(game_id.hex(), 0), state)
                        if sent is not None and state > sent[0]:
                            now = time.perf_counter()
                            rtts.append((now - sent[1], now - start))
                            sent = None
                    elif kind == "prompt":
                        if think > 0:
                            await trio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                        sent = (msg["state_id"], time.perf_counter())
                        await send({"type": "action", "game_id": game_id, "state_id": msg["state_id"],
                                    "action": rng.choice(msg["legal"])})
                    elif kind == "statement" and msg["kind"] == "start":
                        await send({"type": "seed_commit", "game_id": game_id,
                                    "commitment": seed_commitment(game_id, seat, seed)})
                    elif kind == "statement" and msg["kind"] == "commitments":
                        await send({"type": "seed_reveal", "game_id": game_id, "seed": seed})
                    elif kind == "welcome":
                        seat = msg["seat"]
                        await send(Ready(True).to_wire())
                    elif kind == "start":
                        game_id = msg["game_id"]
                    elif kind == "ping":
                        await send({"type": "pong", "nonce": msg.get("nonce", 0)})
                    elif kind == "end":
                        status = "finished" if msg.get("reason") == "finished" else str(msg.get("reason"))
                        await send({"type": "bye", "reason": "game-over"})
                        await stream.aclose()
                        return
                    elif kind in ("bye", "error"):
                        status = f"{kind} {msg.get('code') or msg.get('reason')}"
                        return
        except (OSError, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            status = f"lost ({exc})"
        finally:
            statuses.append(status)

    async with trio.open_nursery() as nursery:
        for i in range(n):
            nursery.start_soon(one, i)
            if i % 20 == 19:
                await trio.sleep(0)  # stagger the TLS handshakes a little
    return {"rtts": rtts, "statuses": statuses, "verified": 0, "games": games,
            "elapsed": time.perf_counter() - start, "cpu": sum(os.times()[:2])}


def client_main(args: argparse.Namespace) -> None:
    run = light_clients if args.light else clients
    out = trio.run(run, args.port, args.fingerprint, args.n, args.think, args.offset)
    print(json.dumps(out), flush=True)


# --------------------------------------------------------------------------- driver


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--rounds", type=int, default=None, help="rounds per game (default: the rules' default, 12)")
    p.add_argument("--think", type=float, default=0.5, help="mean seconds a bot thinks per action (0: none)")
    p.add_argument("--client-procs", type=int, default=2, help="client processes (default 2)")
    p.add_argument("--probe-clients", type=int, default=0, metavar="N",
                   help="N clients in their own process at normal priority, the others at nice 10; their round "
                        "trips are printed apart (default 0: off)")
    p.add_argument("--host-latency", action="store_true",
                   help="also time, inside the host, each action's handling (dispatch and flush) and the lateness of "
                        "a 5 ms timer on its loop (the wait a new event has), to tell the host's own delay from the "
                        "clients'; costs the host a little CPU")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds of start-up left out of the steady-state figures")
    p.add_argument("--old-python", default=None, metavar="PY",
                   help="Python of an older checkout's venv: its host runs in turns with this one's (interleaved)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each host with --old-python (default 3)")
    p.add_argument("--clients", choices=("this", "own", "old"), default="this",
                   help="with --old-python, whose bot clients play: this checkout's (default), each host's own "
                        "build's, or the old build's for both hosts")
    p.add_argument("--load-clients", choices=("full", "light"), default="full",
                   help="the clients other than the probes: full bot clients (default: each checks every statement, "
                        "keeps its views and verifies its transcript, as a player's does) or light load generators "
                        "(the same connections and frames for the host, a fraction of the client CPU; this "
                        "checkout's code whatever --clients says); the probe clients are always full")
    p.add_argument("--profile", default=None, metavar="FILE", help="write a cProfile of the host to FILE")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--fingerprint", default="", help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--light", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        serve_main(args)
        return
    if args.client:
        client_main(args)
        return
    if args.old_python is None:
        report(run_once(args, sys.executable), args)
        return
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    for k in range(args.repeat):
        for name, python in (("old", args.old_python), ("new", sys.executable)):
            print(f"--- run {k + 1}/{args.repeat}: {name} host ({python})", flush=True)
            runs[name].append(run_once(args, python))
            report(runs[name][-1], args)
    compare(runs, args)


def run_once(args: argparse.Namespace, host_python: str) -> dict[str, Any]:
    """One bench run: a host process (``host_python``) and the bot clients; the figures."""
    env = dict(os.environ, JUPAI_CONFIG_DIR=tempfile.mkdtemp(prefix="jupai-bench-cfg-"))
    client_python = {"this": sys.executable, "own": host_python, "old": args.old_python}[args.clients]
    me = [client_python, os.path.abspath(__file__)]
    common = ["--tables", str(args.tables), "--players", str(args.players)]
    if args.rounds:
        common += ["--rounds", str(args.rounds)]
    if args.profile:
        common += ["--profile", args.profile]
    if args.host_latency:
        common += ["--host-latency"]
    host = subprocess.Popen([host_python, os.path.abspath(__file__), "--serve"] + common, stdout=subprocess.PIPE,
                            text=True, env=env)
    assert host.stdout is not None
    hello = json.loads(host.stdout.readline())
    n_clients = args.tables * args.players
    t0 = time.perf_counter()
    light = args.load_clients == "light"
    if args.client_procs <= 1 and client_python == sys.executable and not light:
        os.environ.update(env)
        out = [trio.run(clients, hello["port"], hello["fingerprint"], n_clients, args.think, 0)]
    else:
        probe = min(max(0, args.probe_clients), n_clients)
        procs_n = max(1, args.client_procs)
        per = -(-(n_clients - probe) // procs_n)
        parts = ([(probe, 0, None)] if probe else []) + [
            (min(per, n_clients - probe - k * per), probe + k * per, 10 if probe else None) for k in range(procs_n)]
        procs = []
        for k, (n, offset, nice) in enumerate(parts):
            if n <= 0:
                continue
            load = light and not (probe and k == 0)  # the probe clients are always full clients
            cmd = ([sys.executable, os.path.abspath(__file__), "--light"] if load else me) + [
                "--client", "--port", str(hello["port"]), "--fingerprint", hello["fingerprint"], "--n", str(n),
                "--offset", str(offset), "--think", str(args.think)]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env,
                                          preexec_fn=(lambda nice=nice: os.nice(nice)) if nice else None))
        out = [json.loads(pr.communicate()[0].strip().splitlines()[-1]) for pr in procs]
        if probe:
            out[0]["probe"] = True
    wall = time.perf_counter() - t0
    tail = host.communicate(timeout=60)[0].strip().splitlines()
    host_info = json.loads(tail[-1]) if tail else {}
    if os.environ.get("JUPAI_BENCH_DUMP"):
        with open(os.environ["JUPAI_BENCH_DUMP"], "w") as fh:
            json.dump([o["rtts"] for o in out], fh)
    finals: dict[str, int] = {}
    for o in out:  # a table's players may be split over the client processes
        for g, v in o["games"].items():
            finals[g] = max(finals.get(g, 0), v)
    actions = sum(finals.values())
    statuses: dict[str, int] = {}
    for o in out:
        for s in o["statuses"]:
            statuses[s] = statuses.get(s, 0) + 1
    serving = host_info.get("serving_cpu", float("nan"))
    return {
        "n_clients": n_clients, "out": out, "host": host_info, "wall": wall, "actions": actions,
        "statuses": statuses, "elapsed": max(o["elapsed"] for o in out),
        "cpu_per_action_ms": serving / actions * 1000 if actions else float("nan"),
        "rss_per_table_mib": (host_info.get("peak_rss_kib", 0) - host_info.get("listening_rss_kib", 0)) / 1024 / args.tables,
        "p99": pct([x * 1000 for o in out for x, _ in o["rtts"]], 99),
        "probe_p99": pct([x * 1000 for o in out if o.get("probe") for x, at in o["rtts"] if at >= args.warmup], 99),
    }


def report(run: dict[str, Any], args: argparse.Namespace) -> None:
    out, host_info, actions, elapsed = run["out"], run["host"], run["actions"], run["elapsed"]
    rtts = [x * 1000 for o in out for x, _ in o["rtts"]]
    steady = [x * 1000 for o in out for x, at in o["rtts"] if at >= args.warmup]
    per_second: dict[int, int] = {}
    for o in out:
        for _, at in o["rtts"]:
            per_second[int(at)] = per_second.get(int(at), 0) + 1
    busy = sorted(per_second.values())
    print(f"tables              {args.tables} × {args.players} players ({run['n_clients']} TLS clients), "
          f"think {args.think:g} s, {args.client_procs} client process(es) of {args.load_clients} clients, "
          f"{os.cpu_count()} cores, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"games               {host_info.get('games', '?')} finished on the host; sessions {run['statuses']}; "
          f"{sum(o['verified'] for o in out)}/{run['n_clients']} transcripts verified")
    print(f"actions             {actions} in {elapsed:.2f} s  ->  {actions / elapsed:.0f} actions/s on average "
          f"(until the longest game ended; wall incl. start-up {run['wall']:.2f} s); "
          f"busiest second {busy[-1] if busy else 0}, median second {busy[len(busy) // 2] if busy else 0}")
    print(f"action round trip   p50 {pct(rtts, 50):.2f} ms   p90 {pct(rtts, 90):.2f} ms   "
          f"p99 {pct(rtts, 99):.2f} ms   max {max(rtts) if rtts else float('nan'):.2f} ms   (n = {len(rtts)})")
    if rtts:
        print(f"                    mean {statistics.fmean(rtts):.2f} ms")
    if steady:
        print(f"  after {args.warmup:g} s warm-up  p50 {pct(steady, 50):.2f} ms   p90 {pct(steady, 90):.2f} ms   "
              f"p99 {pct(steady, 99):.2f} ms   max {max(steady):.2f} ms   (n = {len(steady)}; the first seconds "
              f"carry every TLS handshake and every deal at once)")
    probe = [x * 1000 for o in out if o.get("probe") for x, at in o["rtts"] if at >= args.warmup]
    if probe:
        print(f"  probe clients     p50 {pct(probe, 50):.2f} ms   p90 {pct(probe, 90):.2f} ms   "
              f"p99 {pct(probe, 99):.2f} ms   max {max(probe):.2f} ms   (n = {len(probe)}, after the warm-up; "
              f"{args.probe_clients} clients at normal priority, the others at nice 10)")
    service, lags = host_info.get("service_ms") or [], host_info.get("lag_ms") or []
    if service:
        print(f"  inside the host   handling an action p50 {pct(service, 50):.2f} ms   p99 {pct(service, 99):.2f} ms "
              f"(dispatch and flush, n = {len(service)}); a 5 ms timer late by p50 {pct(lags, 50):.2f} ms   "
              f"p99 {pct(lags, 99):.2f} ms   max {max(lags) if lags else float('nan'):.2f} ms (n = {len(lags)}): the "
              f"host's own delay before it reads an action is about that lateness")
    print(f"cpu                 host {host_info.get('host_cpu', float('nan')):.1f} s, "
          f"clients {sum(o['cpu'] for o in out):.1f} s; host stats {host_info.get('stats')}")
    print(f"host per action     {run['cpu_per_action_ms']:.3f} ms CPU (from listening to the last game, handshakes "
          f"and deals included) -> {1000 / run['cpu_per_action_ms']:.0f} actions/s per core")
    print(f"host memory         {run['rss_per_table_mib']:.3f} MiB RSS per active table (peak "
          f"{host_info.get('peak_rss_kib', 0) / 1024:.1f} MiB, {host_info.get('listening_rss_kib', 0) / 1024:.1f} MiB "
          f"when listening)", flush=True)


def compare(runs: dict[str, list[dict[str, Any]]], args: argparse.Namespace) -> None:
    """Medians of the interleaved runs and the ratios old/new."""
    print(f"=== {args.repeat} interleaved runs each, {args.tables} tables, think {args.think:g} s; medians; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for key, label, better in (("cpu_per_action_ms", "host CPU per action (ms)", "lower"),
                               ("rss_per_table_mib", "host RSS per active table (MiB)", "lower"),
                               ("p99", "action round trip p99 (ms)", "lower"),
                               ("probe_p99", "probe clients' round trip p99 (ms)", "lower")):
        old = statistics.median(r[key] for r in runs["old"])
        new = statistics.median(r[key] for r in runs["new"])
        print(f"{label:<34} old {old:8.3f}   new {new:8.3f}   old/new {old / new:5.2f}×")


if __name__ == "__main__":
    main()
