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
    (``argparse.ArgumentTypeError`` with one clear sentence otherwise)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds per move expected (e.g. 0.5), got {text!r}") from None
    if not (math.isfinite(value) and 0 < value <= 60):
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 60 seconds, got {text}")
    return value
