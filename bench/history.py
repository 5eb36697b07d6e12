"""``jupai history -n 2`` benchmark (issue 12): how long the list of the 2 newest games
takes in a folder of many saved games, reading every transcript (what ``jupai history``
did before: it read and verified every file, then showed 2) against reading only the
newest games' files (``collect(dirs, limit)``).

Run: ``python bench/history.py [--games 40] [--rounds 5] [--old-python OLD/.venv/bin/python]``.

The folder is written once: ``--games`` self-played 3-player games, each as a host
keeps them (``<game id>-seat<N>.jupai``, three files) and as a seat saves its own
(``<12 hex digits>-seat0.jupai``), with increasing file times. Then, interleaved for
``--rounds`` rounds:

- in process (CPU time, ``time.process_time``): ``collect(dirs)[:2]`` (every file read,
  as before) and ``collect(dirs, 2)`` (newest first, stops after 2 games) — the two must
  list the same two games;
- the command a person types (wall time of the whole process, start-up included):
  ``python -m jupai_net history -n 2 --dir …`` with this checkout, and with
  ``--old-python`` an older checkout's (its venv's Python).

It prints the medians, the ratios and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def make(folder: Path, games: int) -> list[Path]:
    """Write ``games`` games' transcripts into ``folder``/host-transcripts and
    ``folder``/transcripts (file times one minute apart, oldest first); returns the two dirs."""
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    host, mine = folder / "host-transcripts", folder / "transcripts"
    host.mkdir()
    mine.mkdir()
    for g in range(games):
        game = play_game(RuleSet(players=3, rounds=5), rng_seed=200 + g)
        gid = game.dealer.game_id.hex()
        when = 1_750_000_000 + 60 * g
        paths = [host / f"{gid}-seat{seat}.jupai" for seat in range(3)] + [mine / f"{gid[:12]}-seat0.jupai"]
        for path, seat in zip(paths, (0, 1, 2, 0)):
            path.write_bytes(game.transcript(seat))
            os.utime(path, (when, when))
    return [mine, host]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (options: ``--help``); prints the figures, returns the exit code."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=40, help="saved games in the folder (default 40)")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    p.add_argument("--old-python", default=None, metavar="PY", help="Python of an older checkout's venv")
    args = p.parse_args(argv)
    from jupai_net.history import collect

    folder = Path(tempfile.mkdtemp(prefix="jupai-history-bench-"))
    dirs = make(folder, args.games)
    every: list[float] = []
    newest: list[float] = []
    commands: dict[str, list[float]] = {"new": []}
    builds = {"new": sys.executable}
    if args.old_python:
        builds = {"old": args.old_python, **builds}
        commands = {"old": [], "new": []}
    for _ in range(args.rounds):
        t0 = time.process_time()
        all_read = collect(dirs)[:2]
        every.append(time.process_time() - t0)
        t0 = time.process_time()
        two = collect(dirs, 2)
        newest.append(time.process_time() - t0)
        if [e.game for e in all_read] != [e.game for e in two]:
            print(f"the two ways list different games: {all_read} {two}", file=sys.stderr)
            return 1
        for name, python in builds.items():
            argv_ = [python, "-m", "jupai_net", "history", "-n", "2"] + [a for d in dirs for a in ("--dir", str(d))]
            t0 = time.perf_counter()
            subprocess.run(argv_, check=True, capture_output=True, env={**os.environ, "COLUMNS": "120"},
                           cwd=folder)  # not a checkout: each Python imports its own build
            commands[name].append(time.perf_counter() - t0)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores; {args.games} "
          f"games ({4 * args.games} transcripts); {args.rounds} interleaved rounds; medians")
    e, n = statistics.median(every), statistics.median(newest)
    print(f"in process (CPU)   every file read, then 2: {e * 1000:8.1f} ms   newest 2 only: {n * 1000:7.1f} ms"
          f"   ratio {e / n:5.1f}×")
    line = f"jupai history -n 2 (wall)   new {statistics.median(commands['new']) * 1000:7.1f} ms"
    if "old" in commands:
        old = statistics.median(commands["old"])
        line += f"   old {old * 1000:7.1f} ms   old/new {old / statistics.median(commands['new']):4.1f}×"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
