"""Engine benchmark in instructions (issue 10 aim 1): the mover loop of
``bench/engine.py`` counted by ``valgrind --tool=callgrind``, for this checkout's engine
and a base revision's, as instructions per move and their ratio.

Run: ``python bench/engine_instructions.py [--base REV] [--games N]`` (needs
``valgrind``; ``apt-get install valgrind``).

Why: on a shared machine the CPU-time ratio of ``bench/engine.py`` swings with what
else runs (another process on the sibling hardware thread halves an interpreter's
throughput while its CPU time still counts), so the same two engines measured 1.5–2.2×
within an hour; the number of instructions a run executes does not depend on the load.
Each engine plays the same games as in ``bench/engine.py`` (same seeds, the bench's
random draw, the mover's observation + ``legal_actions`` + ``apply`` per move); a run
of a few games and a run of ``N`` more are counted, and their difference divided by
the moves in between, so interpreter start-up, imports and the deals' set-up outside
the loop cancel out. ``PYTHONHASHSEED=0``: string hashes (and so dict probes) are the
same in every run. Instructions are not time (a cache miss costs more than an add),
so this is printed beside, not instead of, ``bench/engine.py``'s figures.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRST = 5  # games played before the counted difference


def child(which: str, base: str, games: int) -> None:
    """Play ``games`` games (after 2 warm-up games) with one engine; print the moves."""
    sys.path.insert(0, str(HERE))
    import engine as bench  # bench/engine.py

    if which == "base":
        bench.load_base(base, tempfile.mkdtemp(prefix="jupai-base-"))
        eng = bench.Engine("base", "jupai_base")
    else:
        eng = bench.Engine("new", "jupai_net")
    played = eng.games(4, range(1, games + 3))
    eng.run(played[:2], False)
    _, moves = eng.run(played[2:], False)
    print(f"moves {moves}", file=sys.stderr)


def count(which: str, base: str, games: int) -> tuple[int, int]:
    """(instructions, moves) of one child run under callgrind."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
           "--child", which, "--base", base, "--games", str(games)]
    err = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stderr
    instructions = int(re.search(r"Collected : (\d+)", err).group(1))
    moves = int(re.search(r"^moves (\d+)$", err, re.M).group(1))
    return instructions, moves


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", default="91dd272", help="git revision of the engine to compare with (default 91dd272)")
    p.add_argument("--games", type=int, default=20, help="games counted (default 20)")
    p.add_argument("--child", choices=("base", "new"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.child, args.base, args.games)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    per_move = {}
    for which in ("base", "new"):
        few, few_moves = count(which, args.base, FIRST)
        many, many_moves = count(which, args.base, FIRST + args.games)
        per_move[which] = (many - few) / (many_moves - few_moves)
        print(f"  {which:<5} {per_move[which]:10,.0f} instructions per move "
              f"({many_moves - few_moves:,} moves counted, games {FIRST + 1}–{FIRST + args.games})")
    print(f"engine mover loop (bench/engine.py's, 4 players, the bench's random draw), base {args.base}: "
          f"base / new {per_move['base'] / per_move['new']:.2f}× instructions per move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
