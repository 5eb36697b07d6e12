"""The game on deck positions (issue 9 layer 5; specs/fairness.md B.16): what it costs
the host to run a blind table's engine, next to the trusted engine, move for move.

Run: ``python bench/blind_game.py [--games N] [--runs K] [--players P]``.

Both sides play exactly the same games (seeded deck and setup; every move chosen once,
beforehand, by the random bot on the trusted engine). Per move:

* trusted: ``state.apply(action)``;
* blind host: ``openings_for`` until it returns [] (the card table filled by an oracle
  from the real deck, standing in for the ledger's openings), ``apply``, ``due`` with
  its openings, ``resume``: the whole bookkeeping of B.16.3 at the host, no crypto.

Runs are interleaved (trusted, blind, blind, trusted, …) and timed with process CPU
time; prints each side's median µs per move, the ratio of the medians, and the load
average before and after. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jupai_net.actions import Action  # noqa: E402
from jupai_net.blind_game import BlindGame  # noqa: E402
from jupai_net.engine import GameState  # noqa: E402
from jupai_net.rules import RuleSet  # noqa: E402
from jupai_net.setup import draw_setup  # noqa: E402


def games(players: int, count: int) -> list[tuple]:
    """(rules, deck, setup, trusted actions, position actions) of each seeded game."""
    rules = RuleSet(players=players)
    out = []
    for seed in range(1, count + 1):
        rng = random.Random(seed)
        deck = list(range(53))
        rng.shuffle(deck)
        setup = draw_setup(rules, rng)
        state = GameState.new(rules, deck, setup)
        where = {c: q for q, c in enumerate(deck)}
        moves = []
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            claim = Action(action.kind, action.target, tuple(where[c] for c in action.cards), action.weapon,
                           tuple(where[c] for c in action.recovered))
            moves.append((state.to_move, action, claim))
            state.apply(action)
        out.append((rules, deck, setup, moves))
    return out


def run_trusted(played: list[tuple]) -> float:
    clock = time.process_time
    t0 = clock()
    for rules, deck, setup, moves in played:
        state = GameState.new(rules, deck, setup)
        for _seat, action, _claim in moves:
            state.apply(action)
    return clock() - t0


def run_blind(played: list[tuple]) -> float:
    clock = time.process_time
    t0 = clock()
    for rules, deck, setup, moves in played:
        game = BlindGame(rules, setup, None)
        reveal = game.reveal
        for q, to in game.due():
            reveal(q, to, deck[q] if to is None else None)
        game.resume()
        for seat, _action, claim in moves:
            while todo := game.openings_for(claim, seat):
                for q, to in todo:
                    reveal(q, to, deck[q])
            game.apply(claim, seat)
            for q, to in game.due():
                reveal(q, to, deck[q] if to is None else None)
            game.resume()
    return clock() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100, help="games per timed run (default 100)")
    p.add_argument("--runs", type=int, default=7, help="timed runs per side (default 7)")
    p.add_argument("--players", type=int, default=4)
    args = p.parse_args()
    played = games(args.players, args.games)
    n_moves = sum(len(g[3]) for g in played)
    load_before = os.getloadavg()
    run_trusted(played[:10])
    run_blind(played[:10])
    times: dict[str, list[float]] = {"trusted": [], "blind host": []}
    for r in range(args.runs):
        sides = [("trusted", run_trusted), ("blind host", run_blind)]
        for name, run in sides if r % 2 == 0 else sides[::-1]:
            times[name].append(run(played) / n_moves * 1e6)
    load_after = os.getloadavg()
    print(f"game on positions (B.16): {args.players} players, {args.games} games, {n_moves:,} moves per run, "
          f"{args.runs} interleaved runs, process CPU time")
    print("load average before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f} ({} cores)".format(
        *load_before, *load_after, os.cpu_count()))
    med = {k: statistics.median(v) for k, v in times.items()}
    for name, values in times.items():
        print(f"  {name:<11} {med[name]:8.1f} µs per move  (min–max {min(values):.1f}–{max(values):.1f})")
    print(f"blind host / trusted: {med['blind host'] / med['trusted']:.2f}× per move (ratio of medians)")


if __name__ == "__main__":
    main()
