"""The bots' names and the ``--think`` option's type, for the command lines.

Kept apart from :mod:`jupai_net.bots` so that registering a subcommand (``jupai
--help``) imports neither the bots nor the engine's tables (specs/performance.md
§ Start-up). ``jupai_net.bots.BOTS`` has exactly these names (tests/test_startup.py).
"""

from __future__ import annotations

import argparse
import math

#: The bots a command line may name (``--opponents``, ``--bot``), sorted.
BOT_NAMES = ("expert", "greedy", "random")


def think_seconds(text: str) -> float:
    """``argparse`` type of ``--think S``: seconds per move, a number > 0 and ≤ 60
    (``argparse.ArgumentTypeError`` with one clear sentence in the run's language
    otherwise)."""
    from .messages import t

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(t("opt.think.not_number", got=repr(text))) from None
    if not (math.isfinite(value) and 0 < value <= 60):
        raise argparse.ArgumentTypeError(t("opt.think.range", got=text))
    return value


def seat_number(text: str) -> int:
    """``argparse`` type of ``jupai join --seat N``: a seat of the largest table, 0-5
    (seats are numbered from 0; a table has 2-6), checked before connecting;
    ``argparse.ArgumentTypeError`` with one sentence in the run's language otherwise
    (the host refuses a seat its table does not have)."""
    from .messages import t
    from .rules import MAX_PLAYERS

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(t("opt.seat.not_number", got=repr(text))) from None
    if not 0 <= value < MAX_PLAYERS:
        raise argparse.ArgumentTypeError(t("opt.seat.range", high=MAX_PLAYERS - 1, got=text))
    return value


def table_size(text: str) -> int:
    """``argparse`` type of ``--seats N`` (``--players``): the players at a table, 2-6
    (design/rules.md §1), checked while the command line is read, so the sentence names
    the flag, not the rule setting behind it; ``argparse.ArgumentTypeError`` with one
    sentence in the run's language otherwise."""
    from .messages import t
    from .rules import MAX_PLAYERS, MIN_PLAYERS

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(t("opt.seats.not_number", got=repr(text))) from None
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(t("opt.seats.range", low=MIN_PLAYERS, high=MAX_PLAYERS, got=text))
    return value
