"""The client's redraw cost (issue 12, specs/performance.md § Client): CPU time of one
``render_view`` + printing it (what a redraw costs, the terminal write aside) for a
corpus of table screens at 40, 60 and 80 columns by 23 rows, en and zh.

Run: ``python bench/render.py [--rounds 5] [--old OLD_PYTHON] [--cold] [--digest]``.

The corpus: every prompt of two random 6-seat games and one 4-seat game (seeds fixed,
the engine's own deal), the worst of them (a 6-seat attack round's 50 moves) alone
as ``attack6``; names as the bots' (``greedy bot 1``). Each view is drawn as the client
draws it: ``render_view(..., width, height=23)`` printed on a rich console of that
width (into memory). Figures are CPU milliseconds per redraw (``time.process_time``),
the median over the views of a group and the rounds. The client keeps the measured
lines of parts from one redraw to the next (``client.layout.lines_of``); ``--cold``
drops them before each redraw (the cost of the first redraw after a change). Group
``again``: the ``attack6`` screen (en) drawn a second time right after the first, as when
a chat line or a page turned back redraws the same prompt.

``--old`` names the Python of another checkout (a git worktree of an older commit
with its own venv): this script then runs in a child process of each build in turn,
old, new, old, new … (``--rounds`` pairs), so both see the same load, and the table
gives the medians of each and the ratio old/new. ``--digest`` prints a SHA-256 of
every screen of the corpus with its styles (one line per view) instead of timing, to
check that two builds draw the same bytes (a cache must not change a screen).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import random
import statistics
import subprocess
import sys
import time

WIDTHS = (40, 60, 80)
LANGS = ("en", "zh")
HEIGHT = 23
IDS = {4: "LCFN", 6: "LCCFFN"}
NAMES = {s: f"greedy bot {s}" for s in range(6)}
GAMES = ((6, 3), (6, 4), (4, 1))


def corpus(every: int = 3) -> list[tuple[str, dict, list, list]]:
    """``(group, observation, legal moves, event history)`` for every ``every``-th
    prompt of the games of :data:`GAMES` (random moves, seeded), the longest move
    list of the first game also as group ``attack6``."""
    from jupai_net.engine import GameState, Setup
    from jupai_net.rules import RuleSet

    out = []
    for players, seed in GAMES:
        rng = random.Random(seed)
        deck = list(range(53))
        rng.shuffle(deck)
        ids = list(IDS[players])
        rng.shuffle(ids)
        st = GameState.new(RuleSet(players=players), deck, Setup(tuple(ids), 6, 5, 4, 9))
        history = {s: [e.to_wire(s) for e in st.events] for s in range(players)}
        k = 0
        while not st.is_over:
            seat = st.to_move
            if k % every == 0:
                out.append((f"game{players}", st.observation(seat), st.legal_actions(seat), list(history[seat])))
            k += 1
            events = st.apply(rng.choice(st.legal_actions()))
            for s in range(players):
                history[s].extend(e.to_wire(s) for e in events)
    worst = max((v for v in out if v[0] == "game6"), key=lambda v: len(v[2]))
    return [("attack6", *worst[1:]), *out]


def draw(obs: dict, legal: list, history: list, width: int, lang: str, styles: bool = False) -> str:
    """One redraw: the screen built for ``width`` × :data:`HEIGHT` and printed; its
    text (``styles``: with the terminal's style codes)."""
    from rich.console import Console

    from jupai_net.client.render import render_view

    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False, emoji=False, record=True)
    console.print(render_view(obs, legal=legal, names=NAMES, events=history, lang=lang, width=width,
                              height=HEIGHT, dealer="blind"))
    return console.export_text(styles=styles)


def forget() -> None:
    """Drop what the client keeps between redraws (the measured lines of parts,
    ``layout._LINES``, in builds that have it): each redraw then costs what the first
    one after a change costs."""
    from jupai_net.client import layout

    getattr(layout, "_LINES", {}).clear()


def child(rounds: int, digest: bool, cold: bool = False) -> None:
    """Time (or digest) every view of the corpus; JSON on stdout. ``cold``: nothing kept
    from a redraw to the next (:func:`forget` before each)."""
    views = corpus()
    if digest:
        for group, obs, legal, history in views:
            for width in WIDTHS:
                for lang in LANGS:
                    text = draw(obs, legal, history, width, lang, styles=True)
                    print(group, width, lang, hashlib.sha256(text.encode()).hexdigest()[:16])
        return
    times: dict[str, list[float]] = {}
    draw(*views[0][1:], 80, "en")  # imports and catalogs loaded before timing
    for _ in range(rounds):
        for group, obs, legal, history in views:
            for width in WIDTHS:
                for lang in LANGS:
                    if cold:
                        forget()
                    t0 = time.process_time()
                    draw(obs, legal, history, width, lang)
                    times.setdefault(f"{group} {width}", []).append(time.process_time() - t0)
        for width in WIDTHS:  # the same screen drawn again (a chat line, a page turned back), all it kept
            obs, legal, history = views[0][1:]
            draw(obs, legal, history, width, "en")
            t0 = time.process_time()
            draw(obs, legal, history, width, "en")
            times.setdefault(f"again {width}", []).append(time.process_time() - t0)
    print(json.dumps(times))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="pairs of runs (old, new) or rounds over the corpus")
    ap.add_argument("--old", default=None, help="the Python of another checkout, run interleaved with this one")
    ap.add_argument("--digest", action="store_true", help="a hash of every screen instead of times")
    ap.add_argument("--cold", action="store_true", help="nothing kept from one redraw to the next")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child or args.digest:
        child(1 if args.child else 0, args.digest, args.cold)
        return
    builds = {"new": sys.executable, **({"old": args.old} if args.old else {})}
    times: dict[str, dict[str, list[float]]] = {b: {} for b in builds}
    for _ in range(args.rounds):
        for build in sorted(builds, reverse=True):  # old first, then new
            out = subprocess.run([builds[build], __file__, "--child", *(["--cold"] if args.cold else [])],
                                 capture_output=True, text=True, check=True)
            for key, values in json.loads(out.stdout).items():
                times[build].setdefault(key, []).extend(values)
    keys = sorted(times["new"], key=lambda k: (k.split()[0], int(k.split()[1])))
    head = f"{'views':<12} {'redraws':>7} " + " ".join(f"{b + ' ms':>9}" for b in sorted(builds, reverse=True))
    print(head + ("   old/new" if args.old else ""))
    for key in keys:
        med = {b: statistics.median(times[b][key]) * 1000 for b in builds}
        row = f"{key:<12} {len(times['new'][key]):>7} " + " ".join(f"{med[b]:>9.1f}" for b in sorted(builds, reverse=True))
        print(row + (f"   {med['old'] / med['new']:.2f}x" if args.old else ""))


if __name__ == "__main__":
    main()
