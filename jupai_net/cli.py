"""The ``jupai`` command line (argparse): one subcommand per job.

Subcommands register themselves: ``simulate`` (jupai_net.simulate), ``rules``
(show the rules in force), ``verify`` (jupai_net.fairness.cli), ``host``/``join``/
``play`` (jupai_net.host / jupai_net.client), each where it is installed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from . import __version__

#: Modules that provide ``register(subparsers)``, in help order.
SUBCOMMAND_MODULES = (
    "jupai_net.play",
    "jupai_net.host.cli",
    "jupai_net.client.cli",
    "jupai_net.fairness.cli",
    "jupai_net.replay_cli",
    "jupai_net.simulate",
    "jupai_net.rules_cli",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(prog="jupai", description="Play 剧牌 (Jupai) on a local network, fairly.")
    parser.add_argument("--version", action="version", version=f"jupai-net {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a real missing dependency, not a missing subcommand module
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``jupai`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BaseException as exc:  # noqa: B036 - Ctrl-C may arrive wrapped in trio's exception groups
        if not is_interrupt(exc):
            raise
        print("interrupted", file=sys.stderr)
        return 130


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
