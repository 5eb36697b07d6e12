"""Host benchmark in instructions (issue 10 aim 3): the host's own work per action,
counted by ``valgrind --tool=callgrind``, for this checkout and an older one.

Run: ``python bench/host_instructions.py --old-python OLD/.venv/bin/python [--games 8]``
(needs ``valgrind``).

What runs: one 4-seat :class:`~jupai_net.host.table.Table` in memory (no TLS, no
sockets, no trio) whose seats are played by minimal clients (a random legal action, a
seeded RNG); every message the table sends is framed by a ``HostConnection`` as the
server does, every client action (a wire map the client packs, without the client's
own checks) is decoded and checked by it. So the
count covers what the host does per action apart from TLS and the kernel: the dealer
(signatures, statements, reveals), the engine, the messages and their encoding, the
table's logic, and each game's start (lobby, commit–reveal, deal) spread over its
actions. Seeds and game ids come from a seeded generator (``secrets.token_bytes`` is
replaced in the child), so each build plays the same games in every run; the two
builds' games differ where their rules differ, hence the figure per action.

Why: on this shared machine the CPU-time ratio of ``bench/network.py``'s two hosts
swung 1.6–2.0× between runs of one command (another process on the sibling hardware
thread slows an interpreter while its CPU time still counts); the number of
instructions does not depend on the load. Instructions are not time (Ed25519 and
msgpack's C code retire more instructions per cycle than the interpreter), so this is
printed beside, not instead of, ``bench/network.py``'s figures. A run of 2 games and
a run of ``2 + --games`` are counted and their difference divided by the actions in
between, so interpreter start-up and imports cancel out. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import subprocess
import sys
import time
from typing import Any

FIRST = 2  # games before the counted difference


def play(seed: int) -> int:
    """One game at a 4-seat table, every seat a minimal client; returns its actions."""
    from jupai_net.fairness import make_seed, seed_commitment, signing_key_from_bytes
    from jupai_net.host.table import Send, Table, TableConfig
    from jupai_net.protocol import Hello, Prompt, Ready, SeedCommit, SeedReveal, Start
    from jupai_net.protocol.connection import HostConnection
    from jupai_net.protocol.framing import encode_frame
    from jupai_net.rules import RuleSet

    table = Table(TableConfig(rules=RuleSet(players=4), turn_timeout=None),
                  signing_key_from_bytes(bytes(range(32))), rng=random.Random(seed))
    rng = random.Random(seed)
    conns = {c: HostConnection() for c in range(4)}
    sent = {c: 0 for c in range(4)}
    seeds = {c: make_seed() for c in range(4)}
    game_id: dict[int, bytes] = {}
    prompts: list[tuple[int, Any]] = []

    def to_host(c: int, msg: Any) -> Any:  # the client frames it, the host decodes and checks it
        return to_host_wire(c, msg.to_wire(seq=sent[c]))

    def to_host_wire(c: int, wire: dict[str, Any]) -> Any:
        conns[c].receive_data(encode_frame(wire))
        sent[c] += 1
        return conns[c].next_event()

    def carry_out() -> None:  # every frame the table sends, framed as the server does
        for eff in table.drain():
            if isinstance(eff, Send):
                conns[eff.cid].send(eff.msg)
                if isinstance(eff.msg, Start):
                    game_id[eff.cid] = eff.msg.game_id
                elif isinstance(eff.msg, Prompt):
                    prompts.append((eff.cid, eff.msg))

    for c in range(4):
        table.admit(c, to_host(c, Hello(f"p{c}")), 0.0)
    carry_out()
    for c in range(4):
        table.receive(c, to_host(c, Ready(True)), 0.0)
        carry_out()
    for c in range(4):
        table.receive(c, to_host(c, SeedCommit(game_id[c], seed_commitment(game_id[c], c, seeds[c]))), 0.0)
        carry_out()
    for c in range(4):
        table.receive(c, to_host(c, SeedReveal(game_id[c], seeds[c])), 0.0)
        carry_out()
    actions = 0
    while table.phase == "playing":
        c, prompt = prompts[-1]
        prompts.clear()
        action = prompt.legal[rng.randrange(len(prompt.legal))]
        # the client's action as its wire map (the client's own checks are not the host's work)
        wire = {"type": "action", "seq": sent[c], "game_id": game_id[c], "state_id": prompt.state_id,
                "action": action.to_wire()}
        table.receive(c, to_host_wire(c, wire), 1.0)
        carry_out()
        actions += 1
    return actions


def child(games: int) -> None:
    """Play ``games`` games (seeds 0, 1, …) after one warm-up game; print the actions."""
    draw = random.Random(77)
    secrets.token_bytes = lambda n=32: draw.randbytes(n)  # the same seeds and game ids in every run
    play(1000)
    t0 = time.process_time()
    actions = sum(play(s) for s in range(games))
    print(f"actions {actions} cpu {time.process_time() - t0:.6f}", file=sys.stderr)


def count(python: str, games: int) -> tuple[int, int]:
    """(instructions, actions) of one child run under callgrind."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    subprocess.run([python, "-c", "import jupai_net.host.table"], check=True, env=env)  # bytecode compiled first
    err = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, __file__,
                          "--child", str(games)], capture_output=True, text=True, env=env, check=True).stderr
    return (int(re.search(r"Collected : (\d+)", err).group(1)),
            int(re.search(r"^actions (\d+)", err, re.M).group(1)))


def per_action(python: str, games: int) -> tuple[float, int]:
    """Instructions per action between a run of FIRST games and one of FIRST + games."""
    i0, a0 = count(python, FIRST)
    i1, a1 = count(python, FIRST + games)
    return (i1 - i0) / (a1 - a0), a1 - a0


def cpu(python: str, games: int) -> float:
    """Process CPU per action of one run without valgrind (seconds)."""
    err = subprocess.run([python, __file__, "--child", str(games)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": "0"}, check=True).stderr
    found = re.search(r"^actions (\d+) cpu ([\d.]+)", err, re.M)
    return float(found.group(2)) / int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (options: ``--help``); prints the figures, returns the exit code."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=8, help="counted games per build (default 8)")
    p.add_argument("--old-python", default=None, metavar="PY", help="Python of an older checkout's venv")
    p.add_argument("--cpu-runs", type=int, default=3, help="interleaved CPU-time runs per build (default 3)")
    p.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child is not None:
        child(args.child)
        return 0
    builds = {"new": sys.executable} if args.old_python is None else {"old": args.old_python, "new": sys.executable}
    counted = {name: per_action(python, args.games) for name, python in builds.items()}
    times: dict[str, list[float]] = {name: [] for name in builds}
    for _ in range(args.cpu_runs):
        for name, python in builds.items():
            times[name].append(cpu(python, args.games))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores; one 4-seat table "
          f"in memory, {args.games} games per build (seeded), minimal clients; TLS and sockets not included")
    for name in builds:
        ins, acts = counted[name]
        t = sorted(times[name])[len(times[name]) // 2]
        print(f"{name:<4} {ins / 1e6:7.3f} M instructions per action ({acts} actions)   CPU {t * 1e6:7.1f} µs per "
              f"action (median of {args.cpu_runs})")
    if "old" in builds:
        ratio = counted["old"][0] / counted["new"][0]
        t_old = sorted(times["old"])[len(times["old"]) // 2]
        t_new = sorted(times["new"])[len(times["new"]) // 2]
        print(f"old/new  {ratio:.2f}× in instructions   {t_old / t_new:.2f}× in CPU time   "
              f"aim ≥ 2×: {'met' if ratio >= 2 else 'NOT met'} by instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
