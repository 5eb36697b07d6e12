"""``jupai rules [--rules FILE] [--players 2-6]``: show every rule setting in force (house
rules in full) and what they leave in the stock, in the run's language; a rules file
with mistakes gets all of them listed at once (:func:`rule_error_text`)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .messages import t
from .bot_options import table_size

if TYPE_CHECKING:  # the rules load when the command runs, not for `jupai --help`
    from .rules import RuleError, RuleSet


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``rules`` subcommand."""
    p = sub.add_parser("rules", help=t("rules.help"), description=t("rules.description"), epilog=t("rules.epilog"))
    p.add_argument("--rules", default=None, metavar="FILE", help=t("opt.rules_file"))
    p.add_argument("--players", "--seats", dest="players", type=table_size, default=None, metavar="2-6", help=t("opt.seats"))
    p.set_defaults(func=_run)


def rule_error_text(exc: RuleError, lang: str | None = None) -> str:
    """What is wrong with a rule setting or a rules file, in ``lang`` (default: the
    run's language): for a file, its name and every mistake on a line of its own,
    each key as the file writes it."""
    from .rules import RuleFileMistakes

    from .printable import printable

    # the file's keys, values and name are a person's text (a friend's house rules):
    # shown literally, never an escape sequence, a line break or a bidi override
    if isinstance(exc, RuleFileMistakes):
        head = t("rule.file_mistakes.one" if len(exc.mistakes) == 1 else "rule.file_mistakes.other", lang,
                 path=printable(exc.path), count=len(exc.mistakes))
        return head + "".join(f"\n  {printable(key)}: {printable(_detail(e, lang))}" for key, e in exc.mistakes)
    if exc.code is None:  # the file cannot be read (RuleFileError) or a peer's rules
        return printable(str(exc))
    return t("rule.setting", lang, setting=printable(exc.setting.replace("_", "-")), detail=printable(_detail(exc, lang)))


def problem_text(exc: Exception, lang: str | None = None) -> str:
    """A person's mistake in words: :func:`rule_error_text` for a :class:`RuleError`,
    else ``str(exc)``."""
    from .rules import RuleError

    return rule_error_text(exc, lang) if isinstance(exc, RuleError) else str(exc)


def _detail(exc: RuleError, lang: str | None) -> str:
    return t(f"rule.{exc.code}", lang, **exc.params) if exc.code else exc.detail


def render_rules(rules: RuleSet, lang: str | None = None):
    """A rich Table of every setting of ``rules`` (name, value, meaning) in ``lang``."""
    from rich.table import Table

    table = Table(title=t("rules.title", lang))
    table.add_column(t("rules.col.setting", lang))
    table.add_column(t("rules.col.value", lang))
    table.add_column(t("rules.col.meaning", lang), overflow="fold")
    for name, value, _ in rules.describe():
        if name == "stock":
            pairs = value // 2
            meaning = (t("rules.stock.none", lang) if not pairs else
                       t("rules.stock.one" if pairs == 1 else "rules.stock.other", lang, count=pairs))
        else:
            meaning = t(f"rules.meaning.{name}", lang)
        if name == "identities" and not rules.identities:
            value = t("rules.default_identities", lang, letters=rules.identity_letters)
        table.add_row(name, str(value).lower() if isinstance(value, bool) else str(value), meaning)
    return table


def _run(args: argparse.Namespace) -> int:
    from .printable import literal_console

    from .rules import RuleError, RuleSet, load_rules

    console = literal_console()
    try:
        if args.rules:
            rules = load_rules(args.rules, players=args.players)
        else:
            rules = RuleSet() if args.players is None else RuleSet(players=args.players)
    except RuleError as exc:
        print(f"jupai rules: {rule_error_text(exc)}", file=sys.stderr)
        return 2
    console.print(render_rules(rules))
    return 0
