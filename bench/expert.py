"""Expert-bot benchmark (issue 11): one ``expert`` against greedy (or random) bots.

Run: ``python bench/expert.py [--games N] [--players P] [--think S] [--playouts K]
[--opponents greedy] [--seed S]``. The expert's seat rotates over the table, game by
game; setups and decks come from ``--seed``. Prints the expert's win rate with a 95 %
Wilson interval (fair share 1/P), its seconds per move (median, mean, p95, on one
core, moves with one legal choice excluded: wall-clock and this process's CPU time,
which is what one core would take on an idle machine) and the load average, so figures
from a busy machine can be read as such. Asserts nothing (issue 11's aim: ≥ 40 % at 4
players against three greedy bots at ≤ 0.5 s per move).

By default the expert runs with its deterministic budget (``think × PLAYOUTS_PER_SECOND``
playouts, no clock), so a seed gives the same games on any machine; ``--clock``
stops each search after ``think`` seconds instead (as at a live table).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from jupai_net.bots import get_bot
from jupai_net.cards import CANONICAL_DECK
from jupai_net.engine import GameState
from jupai_net.expert import ExpertBot
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup
from jupai_net.simulate import wilson


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--think", type=float, default=0.5, help="seconds per move (default 0.5)")
    p.add_argument("--playouts", type=int, default=None, help="playouts per move (default: from --think)")
    p.add_argument("--clock", action="store_true", help="also stop each search after --think seconds")
    p.add_argument("--opponents", default="greedy")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rules = RuleSet(players=args.players)
    expert = ExpertBot(args.think, playouts=args.playouts, clock=time.perf_counter if args.clock else None,
                       rules=rules)
    other = get_bot(args.opponents)
    rng = random.Random(args.seed)
    wins = 0
    times: list[float] = []
    cpu: list[float] = []
    playouts: list[int] = []
    load0 = os.getloadavg()[0]
    for g in range(args.games):
        seat = g % rules.players
        deck = list(CANONICAL_DECK)
        rng.shuffle(deck)
        state = GameState.new(rules, deck, draw_setup(rules, rng))
        bot_rng = random.Random(rng.randrange(2**32))
        while not state.is_over:
            s = state.to_move
            obs, legal = state.observation(s), state.legal_actions(s)
            if s == seat:
                t0, c0 = time.perf_counter(), time.process_time()
                action = expert(obs, legal, bot_rng)
                if len(legal) > 1:
                    times.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                    playouts.append(expert.last.playouts)
            else:
                action = other(obs, legal, bot_rng)
            state.apply(action)
        wins += state.ranking[0] == seat
    lo, hi = wilson(wins, args.games)
    print(f"{args.games} games, {args.players} players: 1 expert ({expert!r}{', clock' if args.clock else ''}) "
          f"against {args.players - 1} {args.opponents}; seed {args.seed}")
    print(f"expert win rate: {wins / args.games:.1%} (95% CI {lo:.1%}–{hi:.1%}; fair share {1 / args.players:.1%})")
    if times:
        times.sort()
        print(f"seconds per searched move: median {statistics.median(times):.3f}, mean {statistics.fmean(times):.3f}, "
              f"p95 {times[int(0.95 * (len(times) - 1))]:.3f} ({len(times)} moves, "
              f"{statistics.fmean(playouts):.0f} playouts each on average)")
        cpu.sort()
        print(f"CPU seconds per searched move: median {statistics.median(cpu):.3f}, mean {statistics.fmean(cpu):.3f}, "
              f"p95 {cpu[int(0.95 * (len(cpu) - 1))]:.3f}")
    print(f"load average: {load0:.2f} at start, {os.getloadavg()[0]:.2f} at end ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
