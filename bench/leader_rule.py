"""Leader-rule experiment (issue 11, specs/rules.md § 11): what if round 1 were led by
the seat ``--shift`` places after the landlord (so the landlord acts later in round 1)?

Run: ``python bench/leader_rule.py --players P [--shift 1] [--games 2000] [--bot greedy]
[--seed 2026]``. The engine has no such setting: each game is dealt as usual and its
lead is moved before the first move (the round-1 log entry still names the landlord).
``--shift 0`` is the rule as it is, and gives the figures of ``jupai simulate --seed S``
except for the bots' random tie-breaks. Prints win rates by position after the landlord
(the landlord first) and by identity, with the widest 95 % interval. Asserts nothing.
"""

from __future__ import annotations

import argparse
import random

from jupai_net.bots import get_bot
from jupai_net.cards import CANONICAL_DECK
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup
from jupai_net.simulate import wilson


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--shift", type=int, default=1, help="round 1 led by the seat this many places after the landlord")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--bot", default="greedy")
    p.add_argument("--seed", type=int, default=2026)
    args = p.parse_args()
    rules = RuleSet(players=args.players)
    bot = get_bot(args.bot, rules=rules, clock=None) if args.bot == "expert" else get_bot(args.bot)
    rng = random.Random(args.seed)
    P = rules.players
    by_pos = [0] * P
    wins: dict[str, int] = {}
    seats: dict[str, int] = {}
    for _ in range(args.games):
        deck = list(CANONICAL_DECK)
        rng.shuffle(deck)
        state = GameState.new(rules, deck, draw_setup(rules, rng))
        landlord = state.first_leader
        state.first_leader = state.leader = (landlord + args.shift) % P
        while not state.is_over:
            seat = state.to_move
            state.apply(bot(state.observation(seat), state.legal_actions(seat), rng))
        first = state.ranking[0]
        by_pos[(first - landlord) % P] += 1
        for letter in state.setup.identities:
            seats[letter] = seats.get(letter, 0) + 1
        wins[state.setup.identities[first]] = wins.get(state.setup.identities[first], 0) + 1
    n = args.games
    half = max((hi - lo) / 2 for lo, hi in [wilson(w, n) for w in by_pos])
    print(f"{n} games, {P} players, {args.bot} bots, round 1 led {args.shift} seat(s) after the landlord, "
          f"seed {args.seed}")
    print("by position after the landlord: " + " / ".join(f"{w / n:.1%}" for w in by_pos) + f" (±{half:.1%})")
    print("by identity: " + ", ".join(f"{k} {wins.get(k, 0) / c:.1%}" for k, c in sorted(seats.items())))


if __name__ == "__main__":
    main()
