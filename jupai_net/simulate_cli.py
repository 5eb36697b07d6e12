"""``jupai simulate``: bots play many games, then a table of figures (the command line of
:mod:`jupai_net.simulate`; it loads the bots, the rules and the engine only when it runs,
so that ``jupai --help`` stays fast, specs/performance.md § Start-up)."""

from __future__ import annotations

import argparse
import sys

from .bot_options import BOT_NAMES, think_seconds


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` subcommand to the ``jupai`` CLI."""
    p = sub.add_parser(
        "simulate",
        help="let bots play many games and show statistics",
        description="Bots play N games of 剧牌 against each other (no network); then a table of win rates "
        "per seat, per position after the leader of round 1, per identity and per bot (each with its 95%% "
        "interval), game length and how games were decided (--json for figures).",
    )
    p.add_argument("--games", type=int, default=1000, metavar="N", help="number of games (default 1000)")
    p.add_argument("--players", type=int, default=None, metavar="P",
                   help="table size 2–6 (default 4, or the rules file's)")
    p.add_argument("--rounds", type=int, default=None, metavar="N", help="number of rounds (default 12)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="seed for a reproducible run")
    p.add_argument("--bot", default="random", metavar="NAME[,NAME…]",
                   help=f"bot in every seat, or one per seat separated by commas, e.g. expert,greedy,greedy,greedy "
                   f"({', '.join(BOT_NAMES)}; default: random)")
    p.add_argument("--think", type=think_seconds, default=None, metavar="S",
                   help="seconds per move for expert bots, counted as playouts so a seed reproduces (default 0.5)")
    p.add_argument("--rules", default=None, metavar="FILE", help="TOML file of house rules")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from .rules import RuleError, RuleSet, load_rules
    from .simulate import parse_bots, simulate

    console = Console(stderr=args.json)
    try:
        overrides = {"players": args.players, "rounds": args.rounds}
        if args.rules:
            rules = load_rules(args.rules, **overrides)
        else:
            rules = RuleSet(**{k: v for k, v in overrides.items() if v is not None})
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        names = parse_bots(args.bot, rules.players)
    except (RuleError, ValueError) as exc:
        print(f"jupai simulate: {exc}", file=sys.stderr)
        return 2
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(f"{args.games} games", total=args.games)
        stats = simulate(rules, args.games, args.seed, names, progress=lambda: bar.advance(task), think=args.think)
    s = stats.summary()
    if args.json:
        import json

        print(json.dumps({"rules": rules.to_wire(), "bot": args.bot, "think": args.think, "seed": args.seed, **s},
                         indent=2))
        return 0
    who = names[0] if len(set(names)) == 1 else ",".join(names)
    t = Table(title=f"{s['games']} games · {rules.players} players · {rules.rounds} rounds · bot {who}",
              caption=f"fair share {s['fair_share']:.1%}; intervals: 95% Wilson")
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_column("95% interval", justify="right")
    w = s["wins"]
    mixed = len(set(names)) > 1
    for seat, r in enumerate(w["seat"]):
        t.add_row(f"win rate seat {seat}" + (f" ({names[seat]})" if mixed else ""), *_cells(r))
    for k, r in enumerate(w["position"]):
        where = "the leader of round 1" if k == 0 else f"{k} after the leader"
        t.add_row(f"win rate {where}", *_cells(r))
    for letter, r in w["identity"].items():
        t.add_row(f"win rate {letter} ({_IDENT[letter]})", *_cells(r))
    if mixed:
        for name, r in w["bot"].items():
            t.add_row(f"win rate per {name} seat", *_cells(r))
    for key in ("rounds", "actions"):
        d = s[key]
        t.add_row(f"game length ({key}) mean / p50 / p95", f"{d['mean']:.1f} / {d['p50']:.0f} / {d['p95']:.0f}", "")
    t.add_row("won by emptying a hand", f"{s['emptied_share']:.1%}", "")
    t.add_row("  … of which before the last round", f"{s['emptied_before_last_round_share']:.1%}", "")
    t.add_row("ranked after the last round", f"{s['ranked_share']:.1%}", "")
    t.add_row("cards collected per player per game", f"{s['collected_per_player']:.2f}", "")
    console.print(t)
    return 0


def _cells(r: dict[str, float]) -> tuple[str, str]:
    return f"{r['rate']:.1%}", f"{r['low']:.1%}–{r['high']:.1%}"


_IDENT = {"L": "landlord", "C": "coordinator", "F": "farmer", "N": "narrator"}
