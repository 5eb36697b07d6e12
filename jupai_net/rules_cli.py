"""``jupai rules [--rules FILE] [--seats 2-6]``: show every rule setting in force (house
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
    p.add_argument("--seats", "--players", dest="players", type=table_size, default=None, metavar="2-6", help=t("opt.seats"))
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


def rules_rows(rules: RuleSet, lang: str | None = None) -> list[tuple[str, str, str]]:
    """Every setting of ``rules`` as ``(name, value, meaning)`` strings in ``lang``."""
    rows = []
    for name, value, _ in rules.describe():
        if name == "stock":
            pairs = value // 2
            meaning = (t("rules.stock.none", lang) if not pairs else
                       t("rules.stock.one" if pairs == 1 else "rules.stock.other", lang, count=pairs))
        else:
            meaning = t(f"rules.meaning.{name}", lang)
        if name == "identities" and not rules.identities:
            value = t("rules.default_identities", lang, letters=rules.identity_letters)
        rows.append((name, str(value).lower() if isinstance(value, bool) else str(value), meaning))
    return rows


def render_rules(rules: RuleSet, lang: str | None = None):
    """Every setting of ``rules`` (name, value, meaning) in ``lang``, laid out for the
    width the console offers when printed: a rich Table whose setting names are never
    cut nor wrapped (``swap-prime-composite``: the meaning wraps instead, Chinese
    between characters), or, on a terminal too narrow for that table with a meaning
    column of at least 16 cells (about 60 columns), one block a setting: ``name =
    value`` on its line, the meaning wrapped under it, indented (specs/client.md §
    Command line)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from .client.layout import AtWidth, Wrapped, wrap_text

    rows = rules_rows(rules, lang)
    names = [t("rules.col.setting", lang), *(name for name, _, _ in rows)]
    values = [t("rules.col.value", lang), *(value for _, value, _ in rows)]

    def table() -> Table:
        out = Table(title=t("rules.title", lang))
        out.add_column(names[0], no_wrap=True)  # a key is typed into a rules file: whole
        out.add_column(values[0])
        out.add_column(t("rules.col.meaning", lang))
        for name, value, meaning in rows:
            out.add_row(Text(name), Text(value), Wrapped(meaning))
        return out

    def blocks(width: int) -> Group:
        parts: list = [Text(t("rules.title", lang), style="italic")]
        for name, value, meaning in rows:
            line = Text(name, style="bold")
            line.append(" = " + value)
            parts.append(line)
            wrapped = wrap_text(Text(meaning), max(8, width - 4))  # no padding spaces at the lines' ends
            parts.extend(Text("    ") + part for part in wrapped.split("\n"))
        return Group(*parts)

    from rich.cells import cell_len

    # the table's borders and padding: 4 rules and 2 cells a column; the value column
    # wraps at its spaces, the meaning gets the rest
    def fits(width: int) -> bool:
        longest_word = max(cell_len(word) for value in values for word in value.split())
        return width - 10 - max(map(cell_len, names)) - longest_word >= 16

    return AtWidth(lambda width: table() if fits(width) else blocks(width))


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
