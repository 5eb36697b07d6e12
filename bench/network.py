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
"""

from __future__ import annotations

import argparse
import json
import os
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
    config = HostConfig(
        bind="127.0.0.1", port=0, max_tables=args.tables, games=args.tables,
        table=TableConfig(rules=rules, turn_timeout=60.0, seed_timeout=120.0),
        queue_size=1024, handshake_timeout=60.0, hello_timeout=60.0, idle_timeout=600.0, close_grace=1.0,
    )
    server = HostServer(config, identity)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        print(json.dumps({"port": server.port, "fingerprint": identity.fingerprint}), flush=True)
    t = os.times()
    print(json.dumps({"host_cpu": t.user + t.system, "stats": server.stats,
                      "games": sum(tb.games_done for tb in server.tables)}), flush=True)


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


def client_main(args: argparse.Namespace) -> None:
    out = trio.run(clients, args.port, args.fingerprint, args.n, args.think, args.offset)
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
    p.add_argument("--warmup", type=float, default=5.0, help="seconds of start-up left out of the steady-state figures")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--fingerprint", default="", help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        trio.run(serve, args)
        return
    if args.client:
        client_main(args)
        return

    env = dict(os.environ, JUPAI_CONFIG_DIR=tempfile.mkdtemp(prefix="jupai-bench-cfg-"))
    me = [sys.executable, os.path.abspath(__file__)]
    common = ["--tables", str(args.tables), "--players", str(args.players)]
    if args.rounds:
        common += ["--rounds", str(args.rounds)]
    host = subprocess.Popen(me + ["--serve"] + common, stdout=subprocess.PIPE, text=True, env=env)
    assert host.stdout is not None
    hello = json.loads(host.stdout.readline())
    n_clients = args.tables * args.players
    t0 = time.perf_counter()
    if args.client_procs <= 1:
        os.environ.update(env)
        out = [trio.run(clients, hello["port"], hello["fingerprint"], n_clients, args.think, 0)]
    else:
        per = -(-n_clients // args.client_procs)
        procs = []
        for k in range(args.client_procs):
            n = min(per, n_clients - k * per)
            procs.append(subprocess.Popen(me + ["--client", "--port", str(hello["port"]), "--fingerprint",
                                                hello["fingerprint"], "--n", str(n), "--offset", str(k * per),
                                                "--think", str(args.think)], stdout=subprocess.PIPE, text=True, env=env))
        out = [json.loads(pr.communicate()[0].strip().splitlines()[-1]) for pr in procs]
    wall = time.perf_counter() - t0
    tail = host.communicate(timeout=60)[0].strip().splitlines()
    host_info = json.loads(tail[-1]) if tail else {}
    if os.environ.get("JUPAI_BENCH_DUMP"):
        with open(os.environ["JUPAI_BENCH_DUMP"], "w") as fh:
            json.dump([o["rtts"] for o in out], fh)
    rtts = [x * 1000 for o in out for x, _ in o["rtts"]]
    steady = [x * 1000 for o in out for x, at in o["rtts"] if at >= args.warmup]
    per_second: dict[int, int] = {}
    for o in out:
        for _, at in o["rtts"]:
            per_second[int(at)] = per_second.get(int(at), 0) + 1
    busy = sorted(per_second.values())
    finals: dict[str, int] = {}
    for o in out:  # a table's players may be split over the client processes
        for g, v in o["games"].items():
            finals[g] = max(finals.get(g, 0), v)
    actions = sum(finals.values())
    elapsed = max(o["elapsed"] for o in out)
    statuses: dict[str, int] = {}
    for o in out:
        for s in o["statuses"]:
            statuses[s] = statuses.get(s, 0) + 1
    print(f"tables              {args.tables} × {args.players} players ({n_clients} TLS clients), "
          f"think {args.think:g} s, {args.client_procs} client process(es), {os.cpu_count()} cores")
    print(f"games               {host_info.get('games', '?')} finished on the host; sessions {statuses}; "
          f"{sum(o['verified'] for o in out)}/{n_clients} transcripts verified")
    print(f"actions             {actions} in {elapsed:.2f} s  ->  {actions / elapsed:.0f} actions/s on average "
          f"(until the longest game ended; wall incl. start-up {wall:.2f} s); "
          f"busiest second {busy[-1] if busy else 0}, median second {busy[len(busy) // 2] if busy else 0}")
    print(f"action round trip   p50 {pct(rtts, 50):.2f} ms   p90 {pct(rtts, 90):.2f} ms   "
          f"p99 {pct(rtts, 99):.2f} ms   max {max(rtts) if rtts else float('nan'):.2f} ms   (n = {len(rtts)})")
    if rtts:
        print(f"                    mean {statistics.fmean(rtts):.2f} ms")
    if steady:
        print(f"  after {args.warmup:g} s warm-up  p50 {pct(steady, 50):.2f} ms   p90 {pct(steady, 90):.2f} ms   "
              f"p99 {pct(steady, 99):.2f} ms   max {max(steady):.2f} ms   (n = {len(steady)}; the first seconds "
              f"carry every TLS handshake and every deal at once)")
    print(f"cpu                 host {host_info.get('host_cpu', float('nan')):.1f} s, "
          f"clients {sum(o['cpu'] for o in out):.1f} s; host stats {host_info.get('stats')}")


if __name__ == "__main__":
    main()
