"""The engine against two known card-game engines, in one run (issue 10 aim 1).

* jupai: full 4-player random-bot games, ``observation(seat)`` + ``legal_actions(seat)``
  + ``apply`` per move (as bench/engine.py);
* OpenSpiel ``dou_dizhu`` (C++ through pyspiel): per decision ``observation_tensor`` of
  the player to move + ``legal_actions`` + ``apply_action`` of a uniformly random
  legal action; chance nodes (the deal) draw a random outcome;
* RLCard ``doudizhu`` with its ``RandomAgent`` in every seat (``env.run``), which builds
  each player's state (observation) every move.

Every random choice, jupai's moves and OpenSpiel's decisions and chance outcomes alike,
is ``legal[int(rng.random() * len(legal))]`` (one C call; ``rng.randrange`` is about
0.9 µs of pure Python, a tenth of an OpenSpiel decision), so the figures are the engines'
and not the loop's. jupai's deal is a Fisher–Yates shuffle drawn the same way, one
``rng.random()`` per card, and ``draw_setup``'s five draws too (``--shuffle draw``, the
default), as OpenSpiel deals one chance outcome per card; ``--shuffle random`` uses
``random.shuffle`` and ``random.Random.randrange`` (its ``_randbelow`` is pure Python:
about 150 k interpreter instructions a game, as much as two moves of the engine), as
the figures before 1 Dec 2026 06:30 UTC did.

Run: ``python bench/anchors.py [--seconds S] [--runs K]`` in an environment with the
optional ``bench`` extra (``pip install -e '.[bench]'``: open_spiel, rlcard). A missing
anchor is reported as MISSING with the import error, and the others still run.
Runs are interleaved (each competitor once per round, order rotating), each about
``S`` seconds of process CPU time; the script prints median games/s and µs per move
(a move = one decision of a player), the ratios jupai / anchor, and the load average.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

Runner = Callable[[int], tuple[int, int]]  # games → (games, moves)


def shuffle_by_draw(deck: list[int], draw: Callable[[], float]) -> None:
    """Shuffle ``deck`` in place, uniformly: Fisher–Yates with ``j = int(draw() * (i +
    1))`` (the bench's one-C-call draw, as every other random choice here)."""
    for i in range(len(deck) - 1, 0, -1):
        j = int(draw() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]


class RangeByDraw:
    """``randrange(n)`` as ``int(draw() * n)`` (the bench's draw), for ``draw_setup``."""

    def __init__(self, draw: Callable[[], float]):
        self.draw = draw

    def randrange(self, n: int, /) -> int:
        """Uniform on ``0..n-1``."""
        return int(self.draw() * n)


def jupai_runner(shuffle: str = "draw") -> Runner:
    """Full-loop jupai games (4 players, random bots); the deal shuffled by
    :func:`shuffle_by_draw` and the setup drawn by :class:`RangeByDraw` (``shuffle``
    "draw"), or by ``random.shuffle`` and ``random.Random.randrange`` ("random")."""
    from jupai_net.engine import GameState
    from jupai_net.rules import RuleSet
    from jupai_net.setup import draw_setup

    rules = RuleSet(players=4)
    rng = random.Random(1)
    draw = rng.random
    by_draw = shuffle == "draw"
    setup_rng = RangeByDraw(draw) if by_draw else rng

    def run(games: int) -> tuple[int, int]:
        moves = 0
        for _ in range(games):
            deck = list(range(53))
            if by_draw:
                shuffle_by_draw(deck, draw)
            else:
                rng.shuffle(deck)
            state = GameState.new(rules, deck, draw_setup(rules, setup_rng))
            while not state.is_over:
                seat = state.to_move
                state.observation(seat)  # what a bot reads
                legal = state.legal_actions(seat)
                state.apply(legal[int(draw() * len(legal))])
                moves += 1
        return games, moves

    return run


def openspiel_runner() -> Runner:
    """OpenSpiel dou_dizhu with observation_tensor per decision."""
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    draw = random.Random(1).random

    def run(games: int) -> tuple[int, int]:
        moves = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(draw() * len(outcomes))][0])
                    continue
                player = state.current_player()
                state.observation_tensor(player)
                legal = state.legal_actions()
                state.apply_action(legal[int(draw() * len(legal))])
                moves += 1
        return games, moves

    return run


def rlcard_runner() -> Runner:
    """RLCard doudizhu, RandomAgent in every seat."""
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("doudizhu", config={"seed": 1})
    np.random.seed(1)
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def run(games: int) -> tuple[int, int]:
        moves = 0
        for _ in range(games):
            trajectories, _ = env.run(is_training=False)
            moves += sum((len(t) - 1) // 2 for t in trajectories)  # state, action, state, … per player
        return games, moves

    return run


COMPETITORS: list[tuple[str, Callable[..., Runner]]] = [
    ("jupai engine (4 players)", jupai_runner),
    ("OpenSpiel dou_dizhu + observation_tensor", openspiel_runner),
    ("RLCard doudizhu random agents", rlcard_runner),
]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per timed run (default 2)")
    p.add_argument("--runs", type=int, default=5, help="timed runs per competitor (default 5)")
    p.add_argument("--shuffle", choices=("draw", "random"), default="draw",
                   help="jupai's deal: Fisher–Yates by the bench's draw (default) or random.shuffle")
    args = p.parse_args()
    runners: list[tuple[str, Runner, int]] = []
    missing = []
    for name, make in COMPETITORS:
        try:
            run = make(args.shuffle) if make is jupai_runner else make()
        except ImportError as exc:
            missing.append((name, exc))
            continue
        t0 = time.process_time()
        g = 1
        while True:  # calibrate: games per run ≈ --seconds of CPU
            run(g)
            took = time.process_time() - t0
            if took > 0.2:
                break
            g *= 2
            t0 = time.process_time()
        runners.append((name, run, max(1, int(g * args.seconds / took))))
    load_before = os.getloadavg()
    rates: dict[str, list[float]] = {name: [] for name, _, _ in runners}
    per_move: dict[str, list[float]] = {name: [] for name, _, _ in runners}
    for r in range(args.runs):
        k = r % max(1, len(runners))
        for name, run, games in runners[k:] + runners[:k]:
            t0 = time.process_time()
            played, moves = run(games)
            cpu = time.process_time() - t0
            rates[name].append(played / cpu)
            per_move[name].append(cpu / moves * 1e6)
    load_after = os.getloadavg()
    print(f"{args.runs} interleaved runs per competitor, about {args.seconds:g} s of process CPU time each; "
          f"jupai's deal: {'Fisher–Yates and setup by the draw' if args.shuffle == 'draw' else 'random.shuffle'}")
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}; python {sys.version.split()[0]}")
    med = {name: statistics.median(v) for name, v in rates.items()}
    for name, _, games in runners:
        print(f"  {name:<42} {med[name]:9,.0f} games/s  {statistics.median(per_move[name]):7.1f} µs per move"
              f"  ({games} games per run)")
    for name, exc in missing:
        print(f"  {name:<42} MISSING: {exc} (pip install -e '.[bench]')")
    jupai = COMPETITORS[0][0]
    if jupai in med:
        for name in med:
            if name != jupai:
                paired = statistics.median(a / b for a, b in zip(rates[jupai], rates[name]))
                print(f"jupai / {name}: {med[jupai] / med[name]:.2f}× games/s (ratio of medians; "
                      f"{paired:.2f}× median of paired runs)")
    if missing:
        print(f"{len(missing)} anchor(s) MISSING: their ratios are not measured")


if __name__ == "__main__":
    main()
