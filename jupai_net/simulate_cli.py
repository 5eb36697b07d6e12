"""``jupai simulate``: bots play many games, then a table of figures (the command line of
:mod:`jupai_net.simulate`; it loads the bots, the rules and the engine only when it runs,
so that ``jupai --help`` stays fast, specs/performance.md § Start-up)."""

from __future__ import annotations

import argparse
import sys

from .bot_options import BOT_NAMES, table_size, think_seconds


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` subcommand to the ``jupai`` CLI."""
    from .messages import t

    p = sub.add_parser("simulate", help=t("simulate.help"), description=t("simulate.description"),
                       epilog=t("simulate.epilog"))
    p.add_argument("--games", type=int, default=1000, metavar="N", help=t("simulate.opt.games"))
    p.add_argument("--seats", "--players", dest="players", type=table_size, default=None, metavar="2-6", help=t("opt.seats"))
    p.add_argument("--rounds", type=int, default=None, metavar="N", help=t("opt.rounds"))
    p.add_argument("--seed", type=int, default=None, metavar="N", help=t("simulate.opt.seed"))
    p.add_argument("--bot", default="random", metavar="NAME[,NAME…]", help=t("simulate.opt.bot", bots=", ".join(BOT_NAMES)))
    p.add_argument("--think", type=think_seconds, default=None, metavar="SECONDS", help=t("simulate.opt.think"))
    p.add_argument("--rules", default=None, metavar="FILE", help=t("opt.rules_file"))
    p.add_argument("--json", action="store_true", help=t("opt.json"))
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from .printable import literal_console
    from rich.progress import Progress
    from rich.table import Table

    from .rules import RuleError, RuleSet, load_rules
    from .simulate import parse_bots, simulate

    console = literal_console(stderr=args.json)
    try:
        overrides = {"players": args.players, "rounds": args.rounds}
        if args.rules:
            rules = load_rules(args.rules, **overrides)
        else:
            rules = RuleSet(**{k: v for k, v in overrides.items() if v is not None})
        if args.games < 1:
            from .messages import t as tr

            raise ValueError(tr("sim.bad_games"))
        names = parse_bots(args.bot, rules.players)
    except (RuleError, ValueError) as exc:
        from .rules_cli import problem_text

        print(f"jupai simulate: {problem_text(exc)}", file=sys.stderr)
        return 2
    from .messages import t as tr  # ``t`` is the table below
    from .messages import tn

    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(tn("count.games", args.games), total=args.games)
        stats = simulate(rules, args.games, args.seed, names, progress=lambda: bar.advance(task), think=args.think)
    s = stats.summary()
    if args.json:
        import json

        print(json.dumps({"rules": rules.to_wire(), "bot": args.bot, "think": args.think, "seed": args.seed, **s},
                         indent=2))
        return 0
    who = names[0] if len(set(names)) == 1 else ",".join(names)
    t = Table(title=tr("sim.title", games=tn("count.games", s["games"]), players=rules.players,
                         rounds=tn("count.rounds", rules.rounds), bot=who),
              caption=tr("sim.caption", share=f"{s['fair_share']:.1%}"))
    t.add_column(tr("sim.col.figure"))
    t.add_column(tr("sim.col.value"), justify="right")
    t.add_column(tr("sim.col.interval"), justify="right")
    w = s["wins"]
    mixed = len(set(names)) > 1
    for seat, r in enumerate(w["seat"]):
        t.add_row(tr("sim.win.seat", seat=seat) + (f" ({names[seat]})" if mixed else ""), *_cells(r))
    for k, r in enumerate(w["position"]):
        t.add_row(tr("sim.win.leader") if k == 0 else tr("sim.win.after", k=k), *_cells(r))
    for letter, r in w["identity"].items():
        t.add_row(tr("sim.win.identity", letter=letter, identity=tr(f"sim.identity.{letter}")), *_cells(r))
    if mixed:
        for name, r in w["bot"].items():
            t.add_row(tr("sim.win.bot", name=name), *_cells(r))
    for key in ("rounds", "actions"):
        d = s[key]
        t.add_row(tr(f"sim.length.{key}"), f"{d['mean']:.1f} / {d['p50']:.0f} / {d['p95']:.0f}", "")
    t.add_row(tr("sim.emptied"), f"{s['emptied_share']:.1%}", "")
    t.add_row(tr("sim.emptied_early"), f"{s['emptied_before_last_round_share']:.1%}", "")
    t.add_row(tr("sim.ranked"), f"{s['ranked_share']:.1%}", "")
    t.add_row(tr("sim.collected"), f"{s['collected_per_player']:.2f}", "")
    console.print(t)
    return 0


def _cells(r: dict[str, float]) -> tuple[str, str]:
    return f"{r['rate']:.1%}", f"{r['low']:.1%}-{r['high']:.1%}"
