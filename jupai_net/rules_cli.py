"""``jupai rules [--rules FILE] [--players P]``: show every rule setting in force (house
rules in full) and what they leave in the stock."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rules load when the command runs, not for `jupai --help`
    from .rules import RuleSet


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``rules`` subcommand."""
    p = sub.add_parser("rules", help="show the rule settings in force (defaults or a TOML file)")
    p.add_argument("--rules", default=None, help="TOML file of house rules")
    p.add_argument("--players", type=int, default=None, metavar="P",
                   help="table size 2–6 (default 4, or the rules file's)")
    p.set_defaults(func=_run)


def render_rules(rules: RuleSet):
    """A rich Table of every setting of ``rules`` (name, value, meaning)."""
    from rich.table import Table

    t = Table(title="rules in force")
    t.add_column("setting")
    t.add_column("value")
    t.add_column("meaning")
    for name, value, meaning in rules.describe():
        t.add_row(name, str(value).lower() if isinstance(value, bool) else str(value), meaning)
    return t


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from .rules import RuleError, RuleSet, load_rules

    console = Console()
    try:
        if args.rules:
            rules = load_rules(args.rules, players=args.players)
        else:
            rules = RuleSet() if args.players is None else RuleSet(players=args.players)
    except RuleError as exc:
        print(f"jupai rules: {exc}", file=sys.stderr)
        return 2
    console.print(render_rules(rules))
    return 0
