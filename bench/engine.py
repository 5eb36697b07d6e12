"""Engine benchmark (issue 2): full 4-player random-bot games per second on one core,
and microseconds per ``apply()``.

Run: ``python bench/engine.py [--games N] [--players P] [--seed S]``. Prints figures;
asserts nothing (targets live here, not in timed tests). Aim: ≥ 1,000 games/s.
"""

from __future__ import annotations

import argparse
import random
import time

from jupai_net.bots import random_bot
from jupai_net.cards import CANONICAL_DECK
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=3000)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rules = RuleSet(players=args.players)
    rng = random.Random(args.seed)
    applies = 0
    apply_time = 0.0
    clock = time.perf_counter
    start = clock()
    for _ in range(args.games):
        deck = list(CANONICAL_DECK)
        rng.shuffle(deck)
        state = GameState.new(rules, deck, draw_setup(rules, rng))
        while not state.is_over:
            seat = state.to_move
            action = random_bot(state.observation(seat), state.legal_actions(seat), rng)
            t0 = clock()
            state.apply(action)
            apply_time += clock() - t0
            applies += 1
    total = clock() - start
    print(f"{args.games} games, {args.players} players, random bots, {rules.rounds} rounds")
    print(f"full games per second (incl. observation + legal_actions per move): {args.games / total:,.0f}")
    print(f"apply(): {applies:,} calls, {apply_time / applies * 1e6:.1f} µs per call")
    print(f"moves per game: {applies / args.games:.1f}")


if __name__ == "__main__":
    main()
