"""Start-up benchmark (issue 10 aim 2): process CPU time of ``jupai --help``,
``jupai verify --help`` and ``jupai verify FILE``, against ``python -c pass``.

Run: ``python bench/startup.py [--runs 15] [--old OLD_JUPAI]``.

Each command runs as a child process; its CPU time (user + system) is read with
``resource.getrusage(RUSAGE_CHILDREN)`` around the run. ``--old`` names the ``jupai``
script of another checkout (e.g. a git worktree of an older commit with its own venv):
old and new then run interleaved (old, new, old, new, ...) so both see the same load,
and the table gives medians and the ratio old/new. The transcript each build verifies
is one 4-player game (seed 7) played by that build's :mod:`jupai_net.fairness.selfplay`. Aims: both ``--help``
≤ 0.15 s, ``verify FILE`` ≤ 0.25 s. ``verify FILE`` runs twice: with its output
discarded (not a terminal: the plain verdict, no rich) and with a pseudo-terminal as
stdout at 80 columns (``(tty)``: rich's panel), the way a person sees it.
"""

from __future__ import annotations

import argparse
import os
import pty
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

AIMS = {"--help": 0.15, "verify --help": 0.15, "verify FILE": 0.25, "verify FILE (tty)": 0.25}


def child_cpu(cmd: list[str], env: dict[str, str], tty: bool = False) -> float:
    """CPU seconds (user + system) used by running ``cmd`` to its end (output discarded;
    ``tty``: its stdout is a pseudo-terminal, as at a person's terminal)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    if tty:
        master, slave = pty.openpty()
        proc = subprocess.Popen(cmd, stdout=slave, stderr=subprocess.DEVNULL, env={**env, "COLUMNS": "80"})
        os.close(slave)
        try:
            while os.read(master, 65536):  # drained, so the child never waits on a full terminal
                pass
        except OSError:  # EIO: the child closed the terminal
            pass
        os.close(master)
        proc.wait()
    else:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


_SELFPLAY = """
import sys
from pathlib import Path
from jupai_net.fairness.selfplay import play_game
from jupai_net.rules import RuleSet
Path(sys.argv[1]).write_bytes(play_game(RuleSet(), rng_seed=7).transcript(0))
"""


def make_transcript(folder: Path, python: str = sys.executable) -> Path:
    """One finished 4-player game's transcript (seat 0) written to ``folder`` by the
    self-play of the build whose interpreter is ``python`` (an older verifier may
    refuse a newer format), run from ``folder`` so that no checkout's source folder
    is on its path."""
    path = folder / "game.jupai"
    subprocess.run([python, "-c", _SELFPLAY, str(path)], cwd=folder, check=True)
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=15, help="runs of each command per build (default 15)")
    p.add_argument("--new", default=str(Path(sys.executable).with_name("jupai")),
                   help="the jupai script under test (default: next to this Python)")
    p.add_argument("--old", default=None, help="jupai script of the old build, run interleaved with --new")
    args = p.parse_args(argv)

    builds = {"new": args.new} if args.old is None else {"old": args.old, "new": args.new}
    transcripts = {name: make_transcript(Path(tempfile.mkdtemp(prefix=f"jupai-startup-{name}-")),
                                         str(Path(script).with_name("python")))
                   for name, script in builds.items()}
    commands = {"--help": ["--help"], "verify --help": ["verify", "--help"], "verify FILE": ["verify", "FILE"],
                "verify FILE (tty)": ["verify", "FILE"]}

    def argv_of(name: str, argv_: list[str]) -> list[str]:
        return [str(transcripts[name]) if a == "FILE" else a for a in argv_]

    for name, script in builds.items():  # both must work before anything is timed
        proc = subprocess.run([script, "verify", str(transcripts[name])], capture_output=True, check=False)
        if proc.returncode != 0:
            print(f"{name} build {script}: `jupai verify` exits {proc.returncode}", file=sys.stderr)
            return 1

    # Two ways Python may find the code: as this machine runs it (PYTHONDONTWRITEBYTECODE=1 and an
    # editable install: the project's modules compile from source at every start), and as a wheel
    # install runs it (bytecode cached; here in a private PYTHONPYCACHEPREFIX, warmed up first).
    as_found = dict(os.environ)
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cached["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="jupai-pycache-")
    modes = {"as found": as_found, "bytecode": cached}
    for name, script in builds.items():
        for label, argv_ in commands.items():
            child_cpu([script, *argv_of(name, argv_)], cached, "tty" in label)

    samples: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(args.runs):
        for mode, env in modes.items():
            samples.setdefault((mode, "python -c pass", "anchor"), []).append(child_cpu([sys.executable, "-c", "pass"], env))
            for label, argv_ in commands.items():
                for name, script in builds.items():  # interleaved: old, new, old, new ...
                    samples.setdefault((mode, label, name), []).append(
                        child_cpu([script, *argv_of(name, argv_)], env, "tty" in label))

    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (after the runs); {os.cpu_count()} cores; "
          f"{args.runs} runs each, interleaved; process CPU (user + system), medians")
    print(f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r} here; 'as found' runs with it, "
          "'bytecode' with cached .pyc files (as after a wheel install)")
    for mode in modes:
        print(f"{mode}:")
        print(f"  python -c pass           {statistics.median(samples[(mode, 'python -c pass', 'anchor')]):6.3f} s   (anchor)")
        for label in commands:
            new = statistics.median(samples[(mode, label, "new")])
            line = f"  jupai {label:<18} {new:6.3f} s"
            if "old" in builds:
                old = statistics.median(samples[(mode, label, "old")])
                line += f"   old {old:6.3f} s   old/new {old / new:4.2f}×"
            line += f"   aim ≤ {AIMS[label]:.2f} s: {'met' if new <= AIMS[label] else 'NOT met'}"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
