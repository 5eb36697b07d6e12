"""``jupai verify FILE… [--code CODE] [--json]``: check game transcripts offline
(specs/fairness.md §10).

Exit codes: 0 verified, 3 tampered, 4 suspicious, 5 unverified, 6 malformed /
truncated / unreadable file (2 stays argparse's usage error). Never a traceback for
a bad file.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from ..printable import printable, printable_tree
from .status import EXIT_CODES, MALFORMED, STATUSES, SUSPICIOUS, TAMPERED, UNVERIFIED, VERIFIED

if TYPE_CHECKING:  # the verifier (cryptography, the engine) loads only when a file is verified
    from .verify import Verdict

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
        "Exit 0 only for a fully verified game; 3 tampered, 4 suspicious, 5 unverified, 6 unreadable. "
        "With several files or a folder: one line per game, and the exit code of the worst verdict.",
        epilog="examples:\n  jupai verify ~/.config/jupai/transcripts/GAME-seat1.jupai\n"
        "  jupai verify ~/.config/jupai/transcripts/        # every game in the folder, one line each",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", nargs="+",
                   help="transcript file (.jupai) written by a seat, or a folder of them; several give one line per game")
    p.add_argument("--code", default=None, metavar="CODE",
                   help="the host's join code (from its screen): every game must be signed by that host's key")
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
    from .transcript import MAX_TRANSCRIPT_BYTES

    try:
        data = _read_at_most(path, MAX_TRANSCRIPT_BYTES + 1)
    except OSError as exc:
        return b"", f"cannot read {path}: {exc.strerror or exc}"
    if len(data) > MAX_TRANSCRIPT_BYTES:
        return b"", f"{path} is larger than {MAX_TRANSCRIPT_BYTES} bytes: not a transcript"
    return data, None


def read_and_verify(path: str, code: str | None = None) -> Verdict:
    """Read ``path`` and verify it (against the join ``code`` when given, which must be a
    valid code: ``ValueError`` otherwise); unreadable files give a ``malformed`` verdict."""
    from .pin import normalize_code
    from .verify import Verdict, verify_transcript

    if code is not None:
        normalize_code(code)
    data, problem = read_bytes(path)
    if problem is not None:
        return Verdict(MALFORMED, problem)
    return verify_transcript(data, code=code)


#: Order of the verdicts from worst to best: several files exit with the first found.
WORST_FIRST = (TAMPERED, MALFORMED, SUSPICIOUS, UNVERIFIED, VERIFIED)


def transcript_files(paths: list[str]) -> list[str]:
    """``paths`` with every folder replaced by the ``*.jupai`` files in it (sorted by
    name); files are kept as given, in order."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            out += sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".jupai"))
        else:
            out.append(path)
    return out


def worst(verdicts: list[Verdict]) -> Verdict | None:
    """The worst verdict of several (:data:`WORST_FIRST`), or None for none."""
    return min(verdicts, key=lambda v: WORST_FIRST.index(v.status), default=None)


def run(args: argparse.Namespace) -> int:
    """Run ``jupai verify``; returns the exit code of the verdict (the worst one for
    several files; 6 when a folder holds no transcript; 2 for a ``--code`` that is not
    a join code)."""
    code = getattr(args, "code", None)
    if code is not None:
        from .pin import normalize_code

        try:
            normalize_code(code)
        except ValueError as exc:
            print(f"jupai verify: --code: {exc}", file=sys.stderr)
            return 2
    files = args.file if isinstance(args.file, list) else [args.file]
    single = len(files) == 1 and not os.path.isdir(files[0])
    paths = transcript_files(files)
    if not paths:
        print(f"jupai verify: no transcript (*.jupai) in {', '.join(files)}", file=sys.stderr)
        return EXIT_CODES[MALFORMED]
    if single:
        verdicts = [read_and_verify(paths[0], code)]
    else:  # across files too: one seat seed in two games (specs/fairness.md §10)
        from .verify import Verdict, verify_many

        read = [read_bytes(path) for path in paths]
        checked = iter(verify_many([data for data, problem in read if problem is None], code=code))
        verdicts = [Verdict(MALFORMED, problem) if problem is not None else next(checked) for _, problem in read]
    if getattr(args, "json", False):
        outs = []
        for path, verdict in zip(paths, verdicts):
            out = verdict.to_json()
            out["file"] = path
            outs.append(out)
        # strings from the transcript (a host's reason, names) never carry a terminal escape
        import json

        print(json.dumps(printable_tree(outs[0] if single else outs), ensure_ascii=False, indent=2))
    elif single:
        render(verdicts[0], paths[0])
    else:
        render_lines(list(zip(paths, verdicts)))
    return worst(verdicts).exit_code  # type: ignore[union-attr]


def render_lines(results: list[tuple[str, Verdict]], console: Any = None) -> None:
    """One line per game: status, file, reason (for several files or a folder)."""
    from rich.console import Console
    from rich.text import Text

    from rich.cells import cell_len, set_cell_size

    console = console or Console(file=sys.stdout, highlight=False)
    width = max(len(s) for s in STATUSES)
    folders = {os.path.dirname(path) for path, _ in results}
    if len(folders) == 1 and folders != {""}:  # one folder: say it once, then the file names
        console.print(Text(f"in {printable(folders.pop())}:"))
        shown = [os.path.basename(path) for path, _ in results]
    else:
        shown = [path for path, _ in results]
    for name, (_, verdict) in zip(shown, results):
        line = Text(verdict.status.ljust(width), style=_STYLE[verdict.status])
        line.append(f"  {printable(name)}")  # the name whole, so each file can be told apart
        room = console.width - cell_len(line.plain) - 2
        reason = printable(verdict.reason)
        if room > 8:  # the reason in the room left, cut short
            if cell_len(reason) > room:
                reason = set_cell_size(reason, room - 1) + "…"
            line.append("  " + reason, style="dim")
        console.print(line, soft_wrap=True)
    counts = {s: sum(v.status == s for _, v in results) for s in STATUSES}
    console.print(Text(", ".join(f"{n} {s}" for s, n in counts.items() if n) + f" ({len(results)} game{'' if len(results) == 1 else 's'})"))


def pin_text(verdict: Verdict) -> str:
    """One line saying whether the key that signed the game is the pinned host's."""
    checked = verdict.details.get("code")
    if verdict.host_code is not None:
        also = " and the code you gave" if checked == "matches" else ""
        return f"join code {verdict.host_code}: the host key matches the certificate this seat pinned{also}"
    if checked == "differs":
        return f"another host: its join code is {verdict.found}, not {verdict.expected}"
    return ("not recorded: nothing ties the host key to a join code; compare the host key with the one on the "
            "host's screen")


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

    def row(label: str, value: Text) -> None:
        table.add_row(Text(label), value)  # Text, not str: no markup or emoji parsing (rich's emoji table stays unloaded)

    # every value through printable(): a transcript is what a host sent, it may hold escapes
    row("file", Text(printable(path)))
    row("reason", Text(printable(verdict.reason)))
    if verdict.where():
        row("where", Text(printable(verdict.where())))
    if verdict.expected is not None or verdict.found is not None:
        row("expected", Text(printable(verdict.expected)))
        row("found", Text(printable(verdict.found)))
    if verdict.game_id:
        row("game", Text(printable(verdict.game_id)))
    if verdict.game_id is not None:
        row("seat", Text("spectator" if verdict.seat is None else str(verdict.seat)))
    if verdict.host_key:
        row("host key", Text(printable(verdict.host_key)))
    if verdict.game_id is not None:
        row("pinned host", Text(printable(pin_text(verdict))))
    if verdict.statements:
        row("statements", Text(str(verdict.statements)))
    row("exit code", Text(str(verdict.exit_code)))
    style = _STYLE[verdict.status]
    console.print(Panel(table, title=Text(_TITLE[verdict.status], style=style), border_style=style.split()[-1], expand=False))
