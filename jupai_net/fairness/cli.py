"""``jupai verify FILE [--json]``: check a game transcript offline (specs/fairness.md §10).

Exit codes: 0 verified, 3 tampered, 4 suspicious, 5 unverified, 6 malformed /
truncated / unreadable file (2 stays argparse's usage error). Never a traceback for
a bad file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from .transcript import MAX_TRANSCRIPT_BYTES
from .verify import MALFORMED, SUSPICIOUS, TAMPERED, UNVERIFIED, VERIFIED, Verdict, verify_transcript

_STYLE = {VERIFIED: "bold green", TAMPERED: "bold red", SUSPICIOUS: "bold yellow", UNVERIFIED: "bold yellow", MALFORMED: "bold red"}
_TITLE = {
    VERIFIED: "VERIFIED — fair game",
    TAMPERED: "TAMPERED — the transcript does not match",
    SUSPICIOUS: "SUSPICIOUS — the host abandoned the game",
    UNVERIFIED: "UNVERIFIED — the game cannot be checked",
    MALFORMED: "MALFORMED — not a readable transcript",
}


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``verify`` subcommand to an argparse ``subparsers`` object
    (``parser.add_subparsers()``); it sets ``func=run``. Returns the sub-parser."""
    p = subparsers.add_parser(
        "verify",
        help="check a game transcript: fair deal, no swapped card, every outcome replayed",
        description="Verify a game transcript saved by a seat: host signatures, seed commitments, "
        "deck commitments, every card seen, and a replay of the whole game with the rules engine. "
        "Exit 0 only for a fully verified game; 3 tampered, 4 suspicious, 5 unverified, 6 unreadable.",
    )
    p.add_argument("file", metavar="FILE", help="transcript file (.jupai) written by the client")
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    p.set_defaults(func=run)
    return p


def _read_at_most(path: str, limit: int) -> bytes:
    """Up to ``limit`` bytes of ``path``. A named pipe with no writer reads as empty
    instead of blocking forever (it is opened non-blocking, then read blocking, so a
    pipe that has a writer, e.g. ``<(cat game.jupai)``, is read in full)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit)
    finally:
        os.close(fd)


def read_bytes(path: str) -> tuple[bytes, str | None]:
    """The bytes of transcript file ``path`` and ``None``, or ``(b"", reason)`` when it
    cannot be read or is larger than any transcript (``MAX_TRANSCRIPT_BYTES``)."""
    try:
        data = _read_at_most(path, MAX_TRANSCRIPT_BYTES + 1)
    except OSError as exc:
        return b"", f"cannot read {path}: {exc.strerror or exc}"
    if len(data) > MAX_TRANSCRIPT_BYTES:
        return b"", f"{path} is larger than {MAX_TRANSCRIPT_BYTES} bytes: not a transcript"
    return data, None


def read_and_verify(path: str) -> Verdict:
    """Read ``path`` and verify it; unreadable files give a ``malformed`` verdict."""
    data, problem = read_bytes(path)
    if problem is not None:
        return Verdict(MALFORMED, problem)
    return verify_transcript(data)


def run(args: argparse.Namespace) -> int:
    """Run ``jupai verify``; returns the exit code of the verdict."""
    verdict = read_and_verify(args.file)
    if getattr(args, "json", False):
        out = verdict.to_json()
        out["file"] = args.file
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        render(verdict, args.file)
    return verdict.exit_code


def render(verdict: Verdict, path: str, console: Any = None) -> None:
    """Print a verdict for people with rich: status line, reason, where it fails and
    expected vs found."""
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    console = console or Console(file=sys.stdout, highlight=False)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim")
    table.add_column()
    table.add_row("file", Text(path))
    table.add_row("reason", Text(verdict.reason))
    if verdict.where():
        table.add_row("where", Text(verdict.where()))
    if verdict.expected is not None or verdict.found is not None:
        table.add_row("expected", Text(str(verdict.expected)))
        table.add_row("found", Text(str(verdict.found)))
    if verdict.game_id:
        table.add_row("game", Text(verdict.game_id))
    if verdict.game_id is not None:
        table.add_row("seat", Text("spectator" if verdict.seat is None else str(verdict.seat)))
    if verdict.host_key:
        table.add_row("host key", Text(verdict.host_key))
    if verdict.statements:
        table.add_row("statements", Text(str(verdict.statements)))
    table.add_row("exit code", Text(str(verdict.exit_code)))
    style = _STYLE[verdict.status]
    console.print(Panel(table, title=Text(_TITLE[verdict.status], style=style), border_style=style.split()[-1], expand=False))
