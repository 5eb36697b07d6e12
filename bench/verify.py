"""Verify benchmark (issue 10 aim 4): CPU time of ``verify_transcript`` in process, on
full 4-player transcripts, this checkout against an older one, interleaved.

Run: ``python bench/verify.py [--games 10] [--rounds 5] [--old-python OLD/.venv/bin/python]``.

The transcripts (seat 0 of ``--games`` self-played games, seeds 100, 101, …) are
written once per build by that build's own self-play (an older build may not accept a
newer format, e.g. the statement key in the host certificate). Each round runs one
child process per build (old, new, old, new, …): the child imports its build's
verifier, verifies every transcript once untimed (warm-up),
then times each transcript ``--repeat`` times with ``time.process_time`` and prints
the per-transcript median and the median time per statement (time over the
statements the transcript holds). The table gives the median over rounds, the ratio old/new
and the load average. Both builds must say ``verified`` for every transcript.

``--instructions`` (needs ``valgrind``) also counts, with ``valgrind --tool=callgrind``,
the instructions per statement of each build: one child verifies every transcript once,
another twice; the difference over the statements of one pass is the steady state
(imports and first-use caches cancel out), whatever the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def make(folder: str, games: int) -> None:
    """Write seat 0's transcript of ``games`` self-played 4-player games to ``folder``."""
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    for g in range(games):
        (Path(folder) / f"g{g}.jupai").write_bytes(play_game(RuleSet(), rng_seed=100 + g).transcript(0))


def child(paths: list[str], repeat: int) -> None:
    """Time this interpreter's ``verify_transcript`` on ``paths``; print one JSON line."""
    from jupai_net.fairness import verify_transcript

    datas = [Path(p).read_bytes() for p in paths]
    verdicts = [verify_transcript(d) for d in datas]  # warm-up, and the verdicts
    times = []
    for data in datas:
        samples = []
        for _ in range(repeat):
            t0 = time.process_time()
            verify_transcript(data)
            samples.append(time.process_time() - t0)
        times.append(statistics.median(samples))
    print(json.dumps({"statuses": [v.status for v in verdicts], "median": statistics.median(times),
                      "per_statement": statistics.median(t / v.statements for t, v in zip(times, verdicts)),
                      "statements": sum(v.statements for v in verdicts)}))


def passes(paths: list[str], n: int) -> None:
    """Verify every transcript ``n`` times (under callgrind); the statements of one pass on stderr."""
    from jupai_net.fairness import verify_transcript

    datas = [Path(p).read_bytes() for p in paths]
    total = 0
    for _ in range(n):
        total = sum(verify_transcript(d).statements for d in datas)
    print(f"statements {total}", file=sys.stderr)


def instructions(python: str, paths: list[str]) -> float:
    """Instructions per statement of ``python``'s verifier (two callgrind runs, 1 and 2 passes)."""
    counts = []
    for n in (1, 2):
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, os.path.abspath(__file__),
               "--passes", str(n), "--child", *paths]
        err = subprocess.run(cmd, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"}).stderr
        counts.append((int(re.search(r"Collected : (\d+)", err).group(1)), int(re.search(r"^statements (\d+)$", err, re.M).group(1))))
    (one, statements), (two, _) = counts
    return (two - one) / statements


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=10, help="transcripts (default 10)")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds per build (default 5)")
    p.add_argument("--repeat", type=int, default=5, help="timed verifications of each transcript per round")
    p.add_argument("--old-python", default=None, metavar="PY", help="Python of an older checkout's venv")
    p.add_argument("--instructions", action="store_true", help="also count instructions per statement (valgrind)")
    p.add_argument("--passes", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--child", nargs="+", default=None, help=argparse.SUPPRESS)
    p.add_argument("--make", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child and args.passes is not None:
        passes(args.child, args.passes)
        return 0
    if args.child:
        child(args.child, args.repeat)
        return 0

    if args.make:
        make(args.make, args.games)
        return 0
    builds = {"new": sys.executable} if args.old_python is None else {"old": args.old_python, "new": sys.executable}
    paths: dict[str, list[str]] = {}
    for name, python in builds.items():
        folder = tempfile.mkdtemp(prefix=f"jupai-verify-bench-{name}-")
        subprocess.run([python, os.path.abspath(__file__), "--games", str(args.games), "--make", folder], check=True)
        paths[name] = [str(Path(folder) / f"g{g}.jupai") for g in range(args.games)]
    medians: dict[str, list[float]] = {name: [] for name in builds}
    per_statement: dict[str, list[float]] = {name: [] for name in builds}
    statements: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, python in builds.items():
            out = subprocess.run([python, os.path.abspath(__file__), "--repeat", str(args.repeat), "--child",
                                  *paths[name]],
                                 capture_output=True, text=True, check=True).stdout
            res = json.loads(out.strip().splitlines()[-1])
            if set(res["statuses"]) != {"verified"}:
                print(f"{name} build: verdicts {res['statuses']}", file=sys.stderr)
                return 1
            medians[name].append(res["median"])
            per_statement[name].append(res["per_statement"])
            statements[name] = res["statements"]
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores; {args.games} "
          f"4-player transcripts, {args.rounds} interleaved rounds × {args.repeat} runs each; process CPU, medians")
    print(f"statements in the transcripts: {', '.join(f'{name} {n}' for name, n in statements.items())} (each build "
          "plays its own games: the rules changed their lengths)")
    new = statistics.median(medians["new"])
    line = f"verify_transcript   new {new * 1000:7.2f} ms"
    if "old" in medians:
        old = statistics.median(medians["old"])
        line += f"   old {old * 1000:7.2f} ms   old/new {old / new:4.2f}×  (per transcript)"
    print(line)
    new = statistics.median(per_statement["new"])
    line = f"per statement       new {new * 1e6:7.1f} µs"
    if "old" in per_statement:
        old = statistics.median(per_statement["old"])
        line += f"   old {old * 1e6:7.1f} µs   old/new {old / new:4.2f}×   aim ≥ 2×: {'met' if old / new >= 2 else 'NOT met'}"
    print(line)
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
            return 1
        counted = {name: instructions(python, paths[name]) for name, python in builds.items()}
        line = f"instructions/stmt   new {counted['new'] / 1000:7.0f} k"
        if "old" in counted:
            line += f"   old {counted['old'] / 1000:7.0f} k   old/new {counted['old'] / counted['new']:4.2f}×  (callgrind)"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
