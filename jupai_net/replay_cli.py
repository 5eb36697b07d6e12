"""``jupai replay FILE``: step through a saved game (specs/client.md § Replay).

The transcript is verified first (:func:`jupai_net.fairness.story.read_game`); one that
does not verify is refused with its verdict unless ``--force`` (a fair deal whose turns
the host cut short is not: it replays as signed). Then the game is shown
action by action as the seat saw it, each with its formula and outcome, on the same
screen a player sees (:func:`jupai_net.client.render.render_view`). Keys: Enter or
``n`` next action, ``p`` previous, ``r`` next round, a number jumps to that action,
``q`` quits, ``/log`` pages the game so far, ``?`` shows the help. At the end: the
ranking and the whole deck as the seeds made it.

Without a terminal on stdin (or with ``--all`` or ``--plain``) every action is printed once, in order.
Exit codes: 0 shown, 2 usage, 3–6 the verdict's exit code when refused.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .messages import add_lang_option, t

def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``replay`` subcommand to ``subparsers``; it sets ``func=run``."""
    p = subparsers.add_parser("replay", help=t("replay.help"), description=t("replay.description"),
                              epilog=t("replay.epilog"))
    p.add_argument("file", metavar="FILE", help=t("replay.opt.file"))
    p.add_argument("--force", action="store_true", help=t("replay.opt.force"))
    p.add_argument("--all", action="store_true", help=t("replay.opt.all"))
    p.add_argument("--plain", action="store_true", help=t("replay.opt.plain"))  # as jupai play/watch --plain
    add_lang_option(p)
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``jupai replay``; returns the exit code."""
    from .printable import literal_console

    from .client.i18n import t
    from .config import default_lang
    from .fairness.cli import read_bytes
    from .fairness.story import StoryError, read_game
    from .fairness.verify import VERIFIED

    from .client.cli import say_error
    from .fairness.cli import reason_text
    from .printable import printable

    lang = args.lang or default_lang()
    console = literal_console()
    err = literal_console(stderr=True)  # why it cannot replay: one sentence on stderr
    data, problem = read_bytes(args.file)
    try:
        if problem is not None:
            raise StoryError(problem)
        story = read_game(data)
    except StoryError as exc:
        verdict = exc.verdict
        if problem is not None:  # cannot read the file: said in the run's language
            say_error(err, t("replay.unreadable", lang, reason=reason_text(problem, lang)))
        else:
            say_error(err, t("replay.malformed", lang, file=printable(args.file), reason=reason_text(verdict, lang)))
            _say_detail(err, verdict, lang)
        return verdict.exit_code
    # a fair deal whose turns the host cut short (specs/fairness.md §9.3) replays as
    # signed: how the host played the seat is worth seeing, and the end says the verdict
    if story.verdict.status != VERIFIED and story.verdict.code != "turns_cut_short" and not args.force:
        say_error(err, t("replay.refused", lang, file=printable(args.file),
                         status=t(f"verdict.{story.verdict.status}", lang), reason=reason_text(story.verdict, lang)))
        _say_detail(err, story.verdict, lang)
        return story.verdict.exit_code
    interactive = not (args.all or args.plain) and sys.stdin.isatty() and sys.stdout.isatty()
    from .client.replay_screen import ReplayScreen

    screen = ReplayScreen(story, lang)
    if interactive:
        return screen.interact(console, input)
    screen.print_all(console)
    return 0


def _say_detail(err: Any, verdict: Any, lang: str) -> None:
    """The verifier's technical words on their own line, labelled, when the sentence
    before could not say them in ``lang`` (as ``jupai verify`` does: specs/client.md §
    Command line, Verdicts)."""
    from rich.text import Text

    from .fairness.cli import reason_detail

    detail = reason_detail(verdict, lang) if verdict is not None else None
    if detail:
        err.print(Text(t("replay.detail", lang, detail=detail), style="dim"), soft_wrap=not err.is_terminal)
