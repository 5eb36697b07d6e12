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
    "simulate": "jupai_net.simulate",
    "rules": "jupai_net.rules_cli",
}


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available subcommand, or only those named in
    ``commands`` (keys of :data:`SUBCOMMANDS`; their modules alone are imported)."""
    parser = argparse.ArgumentParser(prog="jupai", description="Play 剧牌 (Jupai) on a local network, fairly.")
    parser.add_argument("--version", action="version", version=f"jupai-net {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``jupai`` console script; returns the exit code.

    Output never kills a command (:mod:`jupai_net.stdio`): characters a non-UTF-8
    stdout cannot show are written as ASCII stand-ins, and a reader that closed the
    pipe early ends the command quietly with exit 141."""
    from .stdio import EXIT_BROKEN_PIPE, is_broken_pipe, make_output_safe, silence_stdout

    make_output_safe()
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
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(requested(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from .config import ConfigError

    try:
        return int(args.func(args) or 0)
    except ConfigError as exc:  # the settings file (jupai config): one sentence, exit 2
        print(f"jupai {args.command}: {exc}", file=sys.stderr)
        return 2
    except BaseException as exc:  # noqa: B036 - Ctrl-C may arrive wrapped in trio's exception groups
        if not is_interrupt(exc):
            raise
        print("interrupted", file=sys.stderr)
        return 130


def requested(argv: Sequence[str]) -> list[str] | None:
    """``[command]`` when the first word of ``argv`` names a subcommand (``jupai verify
    FILE`` → ``["verify"]``), else None: every subcommand is needed (``jupai --help``,
    no command, or a mistyped one that argparse reports with the list of commands)."""
    if argv and argv[0] in SUBCOMMANDS:
        return [argv[0]]
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
