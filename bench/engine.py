"""Engine benchmark (issue 10 aim 1): the full loop — for every move of a random-bot
game, ``observation(seat)`` + ``legal_actions(seat)`` + ``apply`` — as games per second
and µs per move, on one core, for this checkout's engine and a base git revision's
engine side by side.

Run: ``python bench/engine.py [--base REV] [--games N] [--runs K] [--players P]
[--viewers mover|all] [--bot draw|project]``.

The random bot: by default (``--bot draw``) the loop picks the move itself,
``legal[int(rng.random() * len(legal))]`` (uniform over the legal actions, one C call),
so that the figure is the engine's and not the bench's; ``--bot project`` calls each
engine's own ``bots.random_bot`` (``rng.randrange``: about 0.9 µs of pure Python per
move, as much as a tenth of a move of this checkout's engine, the same for both
engines). Either way both engines play the same games.

``--viewers mover`` (the default; issue 10's figure) asks the observation of the seat
to move only, as a bot does; ``--viewers all`` asks it for every seat and the
spectator at every move, as the host does (it sends every seat and the spectators
their view after each action), the mover's once (it is the bot's).

The base engine is the ``jupai_net`` package of ``--base`` (default ``HEAD``), taken
with ``git archive`` into a temporary directory and imported there under the name
``jupai_base`` (the engine modules import each other relatively), so both engines run
in one process. Both play exactly the same games (same seeds; the engines give the same
outputs bit for bit, tests/test_engine_corpus.py). Runs are interleaved (base, new,
new, base, …) and timed with process CPU time; the script prints each engine's median
games/s and µs per move, the ratio of the medians, the median of the paired ratios and
the load average before and after. A last pass per engine splits the time of a move
into observation, legal_actions and apply (thread CPU time around each call, so that
pass is slower than the timed runs). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class Engine:
    """One engine version: its GameState, RuleSet, draw_setup and random_bot."""

    def __init__(self, name: str, package: str):
        self.name = name
        self.engine = importlib.import_module(f"{package}.engine")
        self.rules = importlib.import_module(f"{package}.rules")
        self.setup = importlib.import_module(f"{package}.setup")
        self.bots = importlib.import_module(f"{package}.bots")

    def games(self, players: int, seeds: range) -> list[tuple]:
        """The (rules, deck, setup) of each seeded game (built outside the timing)."""
        rules = self.rules.RuleSet(players=players)
        out = []
        for seed in seeds:
            rng = random.Random(seed)
            deck = list(range(53))
            rng.shuffle(deck)
            out.append((rules, deck, self.setup.draw_setup(rules, rng), seed))
        return out

    def bot(self, project_bot: bool) -> Callable[[dict[str, Any], list[Any], random.Random], Any]:
        """The random bot (module docstring): this engine's own, or the bench's draw."""
        return self.bots.random_bot if project_bot else _draw

    def run(self, games: list[tuple], every_viewer: bool, project_bot: bool = False) -> tuple[float, int]:
        """Play ``games`` in the full loop; returns (process CPU seconds, moves).
        ``every_viewer``: observe every seat and the spectator at every move."""
        new, bot = self.engine.GameState.new, self.bot(project_bot)
        moves = 0
        clock = time.process_time
        t0 = clock()
        for rules, deck, setup, seed in games:
            rng = random.Random(seed)
            state = new(rules, deck, setup)
            observe = state.observation
            others = range(-1, rules.players) if every_viewer else ()
            while not state.is_over:
                seat = state.to_move
                for viewer in others:  # the spectator and the other seats
                    if viewer != seat:
                        observe(None if viewer < 0 else viewer)
                state.apply(bot(observe(seat), state.legal_actions(seat), rng))
                moves += 1
        return clock() - t0, moves

    def split(self, games: list[tuple], every_viewer: bool, project_bot: bool = False) -> dict[str, float]:
        """µs per move spent in observation, legal_actions and apply."""
        new, bot = self.engine.GameState.new, self.bot(project_bot)
        clock = time.thread_time  # CPU time: a loaded machine's waits are not counted
        spent = {"observation": 0.0, "legal_actions": 0.0, "apply": 0.0}
        moves = 0
        for rules, deck, setup, seed in games:
            rng = random.Random(seed)
            state = new(rules, deck, setup)
            others = range(-1, rules.players) if every_viewer else ()
            while not state.is_over:
                seat = state.to_move
                t0 = clock()
                for viewer in others:
                    if viewer != seat:
                        state.observation(None if viewer < 0 else viewer)
                obs = state.observation(seat)
                t1 = clock()
                legal = state.legal_actions(seat)
                t2 = clock()
                action = bot(obs, legal, rng)
                t3 = clock()
                state.apply(action)
                t4 = clock()
                spent["observation"] += t1 - t0
                spent["legal_actions"] += t2 - t1
                spent["apply"] += t4 - t3
                moves += 1
        return {k: v / moves * 1e6 for k, v in spent.items()}


def _draw(obs: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """A uniformly random legal action, drawn with one C call (``--bot draw``)."""
    return legal[int(rng.random() * len(legal))]


def load_base(rev: str, tmp: str) -> ModuleType:
    """Extract ``jupai_net`` at git revision ``rev`` as package ``jupai_base`` in ``tmp``."""
    blob = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "jupai_net"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(tmp, filter="data")
    os.rename(Path(tmp) / "jupai_net", Path(tmp) / "jupai_base")
    sys.path.insert(0, tmp)
    return importlib.import_module("jupai_base")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", default="HEAD", help="git revision of the engine to compare with (default HEAD)")
    p.add_argument("--games", type=int, default=300, help="games per timed run (default 300)")
    p.add_argument("--runs", type=int, default=7, help="timed runs per engine (default 7)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--viewers", choices=("mover", "all"), default="mover",
                   help="observe the seat to move only (default), or every seat and the spectator too")
    p.add_argument("--bot", choices=("draw", "project"), default="draw",
                   help="the bench's own random draw (default) or each engine's bots.random_bot")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        load_base(args.base, tmp)
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.base], capture_output=True,
                             text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "jupai_net"], capture_output=True,
                               text=True).stdout.strip()
        engines = [Engine(f"base {rev}", "jupai_base"),
                   Engine("this checkout" + (" (uncommitted changes)" if dirty else ""), "jupai_net")]
        every = args.viewers == "all"
        project = args.bot == "project"
        seeds = range(1, args.games + 1)
        games = [e.games(args.players, seeds) for e in engines]
        load_before = os.getloadavg()
        for e, g in zip(engines, games):  # warm-up, and the same number of moves
            e.run(g[:20], every, project)
        rates: list[list[float]] = [[], []]
        per_move: list[list[float]] = [[], []]
        moves_seen = set()
        for r in range(args.runs):
            order = (0, 1) if r % 2 == 0 else (1, 0)
            for k in order:
                cpu, moves = engines[k].run(games[k], every, project)
                moves_seen.add(moves)
                rates[k].append(args.games / cpu)
                per_move[k].append(cpu / moves * 1e6)
        splits = [e.split(g[: max(20, args.games // 3)], every, project) for e, g in zip(engines, games)]
        load_after = os.getloadavg()
    viewers = "every seat's and the spectator's observation" if every else "the mover's observation"
    bot = "each engine's bots.random_bot" if project else "the bench's random draw"
    print(f"engine full loop: {args.players} players, random bots ({bot}), {viewers} + legal_actions + apply per move")
    print(f"{args.runs} interleaved runs per engine of {args.games} games "
          f"({min(moves_seen):,} moves per run{'' if len(moves_seen) == 1 else ', MOVES DIFFER'}), process CPU time")
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} (2 cores)")
    for e, rate, pm, sp in zip(engines, rates, per_move, splits):
        total = sum(sp.values())
        parts = ", ".join(f"{k} {v:.1f} µs ({v / total:.0%})" for k, v in sp.items())
        print(f"  {e.name:<40} {statistics.median(rate):8,.0f} games/s  {statistics.median(pm):6.1f} µs per move"
              f"  (min–max {min(rate):,.0f}–{max(rate):,.0f} games/s)")
        print(f"  {'':<40} split: {parts}")
    ratio = statistics.median(rates[1]) / statistics.median(rates[0])
    paired = statistics.median(n / o for n, o in zip(rates[1], rates[0]))
    print(f"new / base: {ratio:.2f}× games/s (ratio of medians); {paired:.2f}× (median of paired runs)")


if __name__ == "__main__":
    main()
