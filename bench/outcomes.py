"""The outcomes' sweep (issue 12: "Outcomes since your last turn are always visible
(at least the last 3 lines, at any move-list length, in 4- and 6-player games)";
specs/client.md § Fitting the screen): every prompt of seat 0 (``--all``: of every
seat, each on its own screen) in seeded games whose
every move is a random choice (seeds 1 and 3, 4 and 6 seats), rendered as the client
draws it at 40×23, 60×24 and 80×24 (the last row kept for the prompt), in English
and Chinese. For each group it counts the prompts whose screen shows fewer than three
outcomes whole (fewer than the game has had, if under three), the screens taller or
wider than the terminal, and the screens where a legal move's number cannot be found
(on screen, on the first page or another one Enter turns to) or whose turn it is is
not said (``unreach``; ``paged``: the prompts whose moves come in pages).

Run: ``python bench/outcomes.py [--widths 40,60,80] [--langs en,zh] [--seeds 1,3]
[--players 4,6] [--all] [--timer SECONDS] [--show N]``. ``--timer``: a turn timer on the
status line (it then needs its own line at 40 columns); ``--show``: print the first
N failing screens. Rendering at 40 columns costs about a second a screen: the whole
sweep is some 1,000 screens (several minutes on one core)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.outcome_screens import as_text, check_prompt, prompts  # noqa: E402

SIZES = {40: 23, 60: 24, 80: 24}  # the terminal's rows at each width (the trial's terminals)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--widths", default="40,60,80")
    p.add_argument("--langs", default="en,zh")
    p.add_argument("--seeds", default="1,3")
    p.add_argument("--players", default="4,6")
    p.add_argument("--timer", type=float, default=None)
    p.add_argument("--show", type=int, default=0)
    p.add_argument("--all", action="store_true", help="every seat's prompts, not seat 0's only")
    a = p.parse_args(argv)
    widths = [int(w) for w in a.widths.split(",")]
    shown = 0
    print(f"{'seats':>5} {'width':>5} {'lang':>4} {'prompts':>7} {'<3 out':>6} {'unfit':>5} {'unreach':>7} "
          f"{'paged':>5} {'min out':>7} {'s/screen':>8}")
    for players in (int(x) for x in a.players.split(",")):
        views = [v for seed in a.seeds.split(",") for v in prompts(players, int(seed), None if a.all else 0)]
        for width in widths:
            for lang in a.langs.split(","):
                short = unfit = unreach = many = 0
                least = 99
                t0 = time.process_time()
                for obs, legal, history in views:
                    c = check_prompt(obs, legal, history, lang, width, SIZES.get(width, 24) - 1,
                                     seconds_left=a.timer)
                    short += c.shown < c.need
                    unfit += not c.fits
                    unreach += bool(c.missing) or not c.status
                    many += c.pages > 1
                    least = min(least, c.shown)
                    if not c.ok and shown < a.show:
                        shown += 1
                        print(f"--- {players} seats {width} {lang}: {c.shown}/{c.need} outcomes, "
                              f"{len(c.lines)} rows, missing {sorted(c.missing)}\n{as_text(c)}\n---")
                each = (time.process_time() - t0) / max(1, len(views))
                print(f"{players:>5} {width:>5} {lang:>4} {len(views):>7} {short:>6} {unfit:>5} {unreach:>7} "
                      f"{many:>5} {least:>7} {each:>8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
