"""Benchmark of the fairness layer (issue 3): time to commit a 53-card deck and to
verify a full 4-player game transcript. Aim: verify under 50 ms.

Run: ``python bench/fairness.py [--games N]``. Prints median and worst times, in
process, and the load average before and after (other processes slow every figure).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from jupai_net.fairness import derive_deal, deck_commitments, make_game_id, make_seed, verify_transcript
from jupai_net.fairness.selfplay import play_game
from jupai_net.rules import RuleSet


def _ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:7.2f} ms   max {max(samples) * 1000:7.2f} ms"


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # not available on this platform
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=20, help="number of 4-player games to verify")
    args = p.parse_args(argv)
    rules = RuleSet()
    print(f"load average {_load()} (1, 5, 15 min) before")

    derive, commit = [], []
    for _ in range(200):
        gid, host, seats = make_game_id(), make_seed(), [make_seed() for _ in range(4)]
        t0 = time.perf_counter()
        deal = derive_deal(rules, gid, host, seats)
        t1 = time.perf_counter()
        deck_commitments(gid, deal.deck, deal.salts)
        t2 = time.perf_counter()
        derive.append(t1 - t0)
        commit.append(t2 - t1)
    print(f"derive deck+setup+53 salts      {_ms(derive)}")
    print(f"commit a 53-card deck           {_ms(commit)}")
    print(f"deal total (derive + commit)    {_ms([a + b for a, b in zip(derive, commit)])}")

    play, verify, verify_cpu, steps, sizes = [], [], [], [], []
    for g in range(args.games):
        t0 = time.perf_counter()
        sp = play_game(rules, rng_seed=g)
        play.append(time.perf_counter() - t0)
        data = sp.transcript(0)
        t0, c0 = time.perf_counter(), time.process_time()
        v = verify_transcript(data)
        verify.append(time.perf_counter() - t0)
        verify_cpu.append(time.process_time() - c0)
        if not v.ok:
            print(f"game {g}: {v.status}: {v.reason}", file=sys.stderr)
            return 1
        steps.append(sp.steps)
        sizes.append(len(data))
    print(f"host+4 seats+spectator, 1 game  {_ms(play)}")
    print(
        f"verify a 4-player transcript    {_ms(verify)}"
        f"   ({statistics.median(steps):.0f} actions, {statistics.median(sizes) / 1024:.1f} KiB median)"
    )
    print(f"  the same, CPU time of this process {_ms(verify_cpu)}")
    worst, worst_cpu = max(verify) * 1000, max(verify_cpu) * 1000
    print(f"aim: verify under 50 ms -> wall {'met' if worst < 50 else 'NOT met'} (worst {worst:.1f} ms), "
          f"CPU {'met' if worst_cpu < 50 else 'NOT met'} (worst {worst_cpu:.1f} ms; under load, wall time "
          "also counts the time other processes hold the cores)")
    print(f"load average {_load()} (1, 5, 15 min) after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
