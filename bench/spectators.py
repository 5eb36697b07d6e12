"""What spectators cost the host (issue 12, specs/host.md § Spectators).

A table that allows spectators (``--max-spectators`` > 0, the default) has its dealer
build the public statement stream from every game's start, whether anyone watches or
not, but sign it only while someone watches (the statements made meanwhile are signed
when a spectator comes); each watching spectator then costs one ``sync`` per action (one
shared ``observation(None)``) and the public statement's bytes.

This measures the table's own work per action (pure :class:`~jupai_net.host.table.Table`,
in memory, no sockets) for whole 4-player games played by host bots, three ways,
interleaved game by game with the same seeds: ``off`` (max_spectators 0), ``on`` (allowed,
nobody watching), ``8`` (eight spectators watching). Prints the median CPU time per
action of each, the ratios to ``off``, and the load average.

Run: ``python bench/spectators.py [--games 30]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from typing import Any

from jupai_net.fairness import SeatWitness, generate_signing_key
from jupai_net.fairness.statements import join_statement
from jupai_net.host.table import Send, Table, TableConfig
from jupai_net.protocol import Hello, Ready, SeedCommit, SeedReveal, Statement
from jupai_net.rules import RuleSet


def one_game(mode: str, seed: int, key: Any) -> float:
    """CPU seconds per action of one game at a 4-seat table: 3 host bots and one seat
    that commits and reveals its seed, then disconnects (the default bot plays it), so
    that every move is the table's own work; in ``mode``."""
    table = Table(TableConfig(rules=RuleSet(players=4), bots=3, turn_timeout=None, away_delay=0.0,
                              max_spectators=0 if mode == "off" else 8), key, rng=random.Random(seed))
    if mode == "8":
        for k in range(8):
            table.admit(100 + k, Hello(f"w{k}", watch=True, min_version=3), 0.0)
    table.admit(0, Hello("p"), 0.0)
    witness = SeatWitness(0)

    def feed() -> None:
        for eff in table.drain():
            if isinstance(eff, Send) and eff.cid == 0 and isinstance(eff.msg, Statement):
                witness.receive(join_statement(eff.msg.body, eff.msg.sig))

    table.receive(0, Ready(True), 0.0)
    feed()
    table.receive(0, SeedCommit(witness.game_id, witness.commitment), 0.0)
    feed()
    table.receive(0, SeedReveal(witness.game_id, witness.seed_reveal()), 0.0)
    table.disconnect(0, 0.0)
    table.drain()
    actions, now = 0, 0.0
    start = time.process_time()
    while table.phase == "playing":
        now += 1.0
        before = table.dealer.state.version
        table.tick(now)
        table.drain()
        actions += table.dealer.state.version - before
    return (time.process_time() - start) / max(1, actions)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=30)
    args = p.parse_args(argv)
    key = generate_signing_key()
    modes = ("off", "on", "8")
    per: dict[str, list[float]] = {m: [] for m in modes}
    for g in range(args.games):
        for m in modes if g % 2 == 0 else reversed(modes):  # interleaved, order alternating
            per[m].append(one_game(m, g, key))
    base = statistics.median(per["off"])
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.games} games of 4 seats per mode")
    for m, label in zip(modes, ("spectators off (0)", "allowed, nobody watching", "8 spectators watching")):
        med = statistics.median(per[m])
        print(f"{label:26} median {med * 1e6:8.1f} µs CPU per action   ×{med / base:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
