"""The ``jupai`` command line (argparse): one subcommand per job.

Subcommands register themselves: ``simulate`` (jupai_net.simulate), ``rules``
(show the rules in force), ``verify`` (jupai_net.fairness.cli), ``host``/``join``/
``watch``/``play`` (jupai_net.host / jupai_net.client), each where it is installed.

Start-up stays fast (specs/performance.md § Start-up): importing this module loads no
subcommand; :func:`main` registers only the subcommand named on the command line
(all of them for ``jupai --help`` or an unknown word), and the subcommand modules
import trio, rich, the host and the client only inside the command that runs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Collection, Sequence
from typing import NoReturn

from . import __version__

#: Each subcommand -> the module whose ``register(subparsers)`` adds it, in help order.
SUBCOMMANDS = {
    "play": "jupai_net.play",
    "host": "jupai_net.host.cli",
    "join": "jupai_net.client.cli",
    "watch": "jupai_net.client.watch",
    "verify": "jupai_net.fairness.cli",
    "replay": "jupai_net.replay_cli",
    "history": "jupai_net.history",
    "config": "jupai_net.config",
    "simulate": "jupai_net.simulate_cli",
    "rules": "jupai_net.rules_cli",
}


class JupaiParser(argparse.ArgumentParser):
    """The parser of ``jupai`` and of each subcommand (argparse makes the subcommands'
    parsers of the same class, with ``prog`` = ``jupai COMMAND``).

    Help is wrapped by display width, examples kept as written (:mod:`jupai_net.helpformat`);
    a usage error is one line starting ``jupai COMMAND:``, then the usage, exit 2
    (specs/client.md § Command line)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _help_formatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: MESSAGE``, the usage and where the help is; exit 2."""
        from .messages import t

        self.exit(2, f"{self.prog}: {message}\n{self.format_usage()}{t('jupai.see_help', prog=self.prog)}\n")


def _help_formatter(prog: str) -> argparse.HelpFormatter:
    """The help layout, loaded only when help or a usage line is printed."""
    from .helpformat import HelpFormatter

    return HelpFormatter(prog)


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available subcommand, or only those named in
    ``commands`` (keys of :data:`SUBCOMMANDS`; their modules alone are imported).
    Texts are in the run's language (:func:`jupai_net.messages.current_lang`)."""
    from .messages import add_lang_option, t

    parser = JupaiParser(prog="jupai", description=t("jupai.description"), epilog=t("jupai.epilog"))
    parser.add_argument("--version", action="version", version=f"jupai-net {__version__}", help=t("jupai.version_help"))
    add_lang_option(parser, dest="global_lang")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title=t("jupai.commands"))
    parser.command_parsers = sub.choices  # type: ignore[attr-defined]
    for command, name in SUBCOMMANDS.items():
        if commands is not None and command not in commands:
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a real missing dependency, not a missing subcommand module
                raise
            continue
        module.register(sub)
        command_parser = sub.choices[command]
        if "--lang" not in command_parser._option_string_actions:  # every command speaks both languages
            add_lang_option(command_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``jupai`` console script; returns the exit code.

    Output never kills a command (:mod:`jupai_net.stdio`): characters a non-UTF-8
    stdout cannot show are written as ASCII stand-ins, and a reader that closed the
    pipe early ends the command quietly with exit 141; a terminal that went away (its
    window closed) silences the output, and the command goes on (``jupai join`` still
    says bye to the host and saves its transcript)."""
    from .stdio import EXIT_BROKEN_PIPE, is_broken_pipe, make_output_safe, silence_stdout, survive_lost_terminal

    make_output_safe()
    with survive_lost_terminal():
        try:
            code = _main(argv)
            sys.stdout.flush()  # a closed pipe shows here, not in Python's last flush at exit
            return code
        except BaseException as exc:  # noqa: B036 - also SystemExit and exception groups from trio
            if not is_broken_pipe(exc):
                raise
            silence_stdout()
            return EXIT_BROKEN_PIPE


def _main(argv: Sequence[str] | None) -> int:
    from .messages import resolve_lang, use_lang

    argv = sys.argv[1:] if argv is None else list(argv)
    with use_lang(resolve_lang(argv)):  # --help and argparse's errors are in it too
        return _run(argv)


def _run(argv: list[str]) -> int:
    from .messages import t

    parser = build_parser(requested(argv))
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, so the error starts "jupai COMMAND:"
        command_parser = parser.command_parsers.get(getattr(args, "command", None) or "", parser)
        command_parser.error(argparse._("unrecognized arguments: %s") % " ".join(extra))  # type: ignore[attr-defined]
    if getattr(args, "lang", None) is None and getattr(args, "global_lang", None):
        args.lang = args.global_lang  # jupai --lang zh join …: the command's own --lang (None) must not hide it
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from .configfile import ConfigError

    try:
        return int(args.func(args) or 0)
    except ConfigError as exc:  # the settings file (jupai config): one sentence, exit 2
        print(f"jupai {args.command}: {exc}", file=sys.stderr)
        return 2
    except BaseException as exc:  # noqa: B036 - Ctrl-C may arrive wrapped in trio's exception groups
        if not is_interrupt(exc):
            raise
        command = getattr(args, "command", None)
        print(t("jupai.interrupted", prog=f"jupai {command}" if command else "jupai"), file=sys.stderr)
        return 130


def requested(argv: Sequence[str]) -> list[str] | None:
    """``[command]`` when the first word of ``argv`` (after a ``--lang X``) names a
    subcommand (``jupai verify FILE`` → ``["verify"]``), else None: every subcommand is needed (``jupai --help``,
    no command, or a mistyped one that argparse reports with the list of commands)."""
    words = list(argv)
    while len(words) >= 2 and words[0] == "--lang" or words and words[0].startswith("--lang="):
        words = words[2:] if words[0] == "--lang" else words[1:]  # jupai --lang zh verify FILE
    if words and words[0] in SUBCOMMANDS:
        return [words[0]]
    return None


def is_interrupt(exc: BaseException) -> bool:
    """True for a ``KeyboardInterrupt`` (Ctrl-C), also when trio wraps it in a
    ``BaseExceptionGroup`` whose other members are only cancellations of its tasks."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, BaseExceptionGroup):
        import trio

        leaves = list(_leaves(exc))
        return any(isinstance(e, KeyboardInterrupt) for e in leaves) and all(
            isinstance(e, (KeyboardInterrupt, trio.Cancelled)) for e in leaves
        )
    return False


def _leaves(group: BaseExceptionGroup):
    for e in group.exceptions:
        if isinstance(e, BaseExceptionGroup):
            yield from _leaves(e)
        else:
            yield e


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
