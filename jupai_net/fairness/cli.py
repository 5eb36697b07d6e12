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

from ..printable import literal_console, printable, printable_tree
from .status import EXIT_CODES, MALFORMED, STATUSES, SUSPICIOUS, TAMPERED, UNVERIFIED, VERIFIED

if TYPE_CHECKING:  # the verifier (cryptography, the engine) loads only when a file is verified
    from .verify import Verdict

_STYLE = {VERIFIED: "bold green", TAMPERED: "bold red", SUSPICIOUS: "bold yellow", UNVERIFIED: "bold yellow", MALFORMED: "bold red"}


def reason_text(verdict: Verdict, lang: str | None = None) -> str:
    """The reason of ``verdict`` in ``lang`` (default: the run's language), said from
    its ``code`` and ``args`` (:func:`~jupai_net.messages.verdicts.verdict_sentence`;
    specs/fairness.md §9.1) and naming the scheme that dealt the game, as the English
    ``reason`` does. English is the verifier's own sentence; a verdict without a code
    (or with a code of a newer verifier) is said by its status in other languages, and
    :func:`reason_detail` then gives the verifier's English apart."""
    from ..messages import catalog, current_lang, t

    lang = lang or current_lang()
    if lang == "en":
        return verdict.reason
    said = _said(verdict, lang)
    if said is None:
        said = t(f"verdict.sentence.{verdict.status}", lang)
    scheme = (verdict.details or {}).get("scheme")
    if (isinstance(scheme, str) and f"verdict.scheme.{scheme}" in catalog()
            and verdict.reason.startswith(t(f"verdict.scheme.{scheme}", "en"))):  # named where the English names it
        words = t(f"verdict.scheme.{scheme}", lang)
        said = said if said.startswith(words) else words + t("colon", lang) + said
    return said


def _said(verdict: Verdict, lang: str) -> str | None:
    """The verdict's reason from its code in ``lang``; None without a code it knows."""
    from ..messages.verdicts import verdict_sentence

    code = getattr(verdict, "code", None)
    if not code:
        return None
    try:
        return verdict_sentence(code, getattr(verdict, "args", None) or {}, lang)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):  # a code or args of a newer verifier
        return None


def reason_detail(verdict: Verdict, lang: str | None = None) -> str | None:
    """The verifier's technical words that :func:`reason_text` leaves out in ``lang``
    (not English), or None: a library's message (``detail`` args, e.g. a msgpack error)
    or, for a verdict it could not say, the whole English reason. Shown apart, labelled
    as the technical detail, never inside a Chinese sentence."""
    from ..messages import current_lang
    from ..messages.verdicts import technical_details

    if (lang or current_lang()) == "en" or not verdict.reason:
        return None
    if _said(verdict, lang or current_lang()) is None:
        return verdict.reason
    return "; ".join(technical_details(getattr(verdict, "args", None) or {})) or None


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``verify`` subcommand to an argparse ``subparsers`` object
    (``parser.add_subparsers()``); it sets ``func=run``. Returns the sub-parser."""
    from ..messages import t

    p = subparsers.add_parser("verify", help=t("verify.help"), description=t("verify.description"),
                              epilog=t("verify.epilog"))
    p.add_argument("file", metavar="FILE", nargs="+", help=t("verify.opt.file"))
    p.add_argument("--code", default=None, metavar="CODE", help=t("verify.opt.code"))
    p.add_argument("--json", action="store_true", help=t("verify.opt.json"))
    p.add_argument("--all-signatures", action="store_true", help=t("verify.opt.all_signatures"))
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


def read_bytes(path: str) -> tuple[bytes, Verdict | None]:
    """The bytes of transcript file ``path`` and ``None``, or ``(b"", verdict)`` (the
    *malformed* verdict) when it cannot be read or is larger than any transcript
    (``MAX_TRANSCRIPT_BYTES``)."""
    import errno

    from .transcript import MAX_TRANSCRIPT_BYTES
    from .verify import problem_verdict

    try:
        data = _read_at_most(path, MAX_TRANSCRIPT_BYTES + 1)
    except OSError as exc:
        why = {errno.ENOENT: "missing", errno.EACCES: "denied", errno.EISDIR: "folder",
               errno.ENOTDIR: "missing"}.get(exc.errno or 0)
        if why:
            return b"", problem_verdict(MALFORMED, "cannot_read", {"path": path, "file_why": why})
        return b"", problem_verdict(MALFORMED, "cannot_read_other", {"path": path, "detail": exc.strerror or str(exc)})
    if len(data) > MAX_TRANSCRIPT_BYTES:
        return b"", problem_verdict(MALFORMED, "too_large", {"path": path, "limit": MAX_TRANSCRIPT_BYTES})
    return data, None


def read_and_verify(path: str, code: str | None = None, *, all_signatures: bool = False) -> Verdict:
    """Read ``path`` and verify it (against the join ``code`` when given, which must be a
    valid code: ``ValueError`` otherwise; ``all_signatures``: every statement's signature,
    specs/fairness.md §10); unreadable files give a ``malformed`` verdict."""
    from .pin import normalize_code
    from .verify import verify_transcript

    if code is not None:
        normalize_code(code)
    data, problem = read_bytes(path)
    if problem is not None:
        return problem
    return verify_transcript(data, code=code, all_signatures=all_signatures)


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
    from ..messages import t

    code = getattr(args, "code", None)
    every = bool(getattr(args, "all_signatures", False))
    if code is not None:
        from .pin import normalize_code

        try:
            normalize_code(code)
        except ValueError as exc:  # a JoinCodeError: said in the run's language
            print(f"jupai verify: --code: {exc.text() if hasattr(exc, 'text') else exc}", file=sys.stderr)
            return 2
    files = args.file if isinstance(args.file, list) else [args.file]
    single = len(files) == 1 and not os.path.isdir(files[0])
    paths = transcript_files(files)
    if not paths:
        print(f"jupai verify: {t('verify.none', files=', '.join(files))}", file=sys.stderr)
        return EXIT_CODES[MALFORMED]
    if single and not os.path.lexists(paths[0]):  # a mistyped name: the person's error, in one sentence
        print(f"jupai verify: {t('verify.missing', file=printable(paths[0]))}", file=sys.stderr)
        return EXIT_CODES[MALFORMED]
    if single:
        verdicts = [read_and_verify(paths[0], code, all_signatures=every)]
    else:  # across files too: one seat seed in two games (specs/fairness.md §10)
        from .verify import verify_many

        read = [read_bytes(path) for path in paths]
        checked = iter(verify_many([data for data, problem in read if problem is None], code=code,
                                       all_signatures=every))
        verdicts = [problem if problem is not None else next(checked) for _, problem in read]
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
    """One line per game (for several files or a folder): status (the worst of the
    game's transcripts), game id, the file (or how many transcripts of which seats),
    reason (of the worst transcript, with its seat). Unreadable files are a line each.
    Then a count line: the games per status, and how many transcripts."""
    from rich.text import Text

    from rich.cells import cell_len

    from ..messages import t, tn

    console = console or literal_console(file=sys.stdout)
    word = {s: _status_word(s) for s in STATUSES}
    width = max(cell_len(w) for w in word.values())
    folders = {os.path.dirname(path) for path, _ in results}
    if len(folders) == 1 and folders != {""}:  # one folder: say it once, then the file names
        console.print(Text(t("verify.in_folder", folder=printable(folders.pop()))))
        names = [os.path.basename(path) for path, _ in results]
    else:
        names = [path for path, _ in results]
    games: dict[Any, list[int]] = {}  # game id (or the file, when unreadable) -> its transcripts, in file order
    for i, (_, verdict) in enumerate(results):
        games.setdefault(verdict.game_id if verdict.game_id is not None else ("file", i), []).append(i)
    statuses = []
    for game, idx in games.items():
        worst_i = min(idx, key=lambda i: WORST_FIRST.index(results[i][1].status))
        verdict = results[worst_i][1]
        statuses.append(verdict.status)
        status = word[verdict.status]
        line = Text(status + " " * (width - cell_len(status)), style=_STYLE[verdict.status])
        line.append("  " + (game[:8] if isinstance(game, str) else "—" * 8))
        if len(idx) == 1:
            line.append(f"  {printable(names[idx[0]])}")  # the name whole, so each file can be told apart
        else:
            seats = sorted({results[i][1].seat for i in idx}, key=lambda s: -1 if s is None else s)
            line.append("  " + tn("verify.transcripts", len(idx), seats=", ".join(
                t("verify.spectator") if s is None else str(s) for s in seats)))
        reason = printable(reason_text(verdict))
        if len(idx) > 1 and verdict.status != VERIFIED and "disagrees_at" not in verdict.details:
            reason = t("verify.of_seat", seat=t("verify.spectator") if verdict.seat is None else verdict.seat,
                       reason=reason)
        if cell_len(line.plain) + 2 + cell_len(reason) <= console.width:  # the reason fits beside the file
            line.append("  " + reason, style="dim")
            console.print(line, soft_wrap=True)
            continue
        console.print(line, soft_wrap=True)  # else on the lines below, wrapped, never cut
        for part in reason_lines(reason, console.width, indent=width + 12):
            console.print(Text(part, style="dim"), soft_wrap=True)
    counts = {s: statuses.count(s) for s in STATUSES}
    total = (tn("verify.games", len(games)) if len(games) == len(results)
             else t("verify.games_files", games=tn("verify.n_games", len(games)),
                    files=tn("verify.n_transcripts", len(results))))
    console.print(Text(t("verify.count_sep").join(t("verify.count", n=n, status=word[s]) for s, n in counts.items() if n)
                       + total))


def reason_lines(reason: str, width: int, indent: int) -> list[str]:
    """``reason`` as lines of at most ``width`` terminal cells under a game's line of
    ``jupai verify FOLDER``: indented by ``indent`` spaces (4 when that leaves fewer than
    30 cells), broken between words (between characters in Chinese, and inside a word
    longer than a line), never cut: the lines hold every character of ``reason``."""
    from ..linebreak import break_points

    width = max(width, 10)
    if width - indent < 30:
        indent = min(4, width // 4)
    cuts = [0, *break_points(reason, width - indent), len(reason)]
    return [" " * indent + reason[a:b].strip() for a, b in zip(cuts, cuts[1:]) if reason[a:b].strip()]


def _status_word(status: str) -> str:
    """``status`` as ``jupai verify`` prints it: the word itself in English (``verified``),
    its translation in Chinese (``已验证``)."""
    from ..messages import current_lang, t

    return status if current_lang() != "zh" else t(f"verdict.{status}")


def pin_text(verdict: Verdict) -> str:
    """One line saying whether the key that signed the game is the pinned host's."""
    from ..messages import t

    checked = verdict.details.get("code")
    if verdict.host_code is not None:
        key = "verify.pin.matches_both" if checked == "matches" else "verify.pin.matches"
        return t(key, code=verdict.host_code)
    if checked == "differs":
        return t("verify.pin.differs", found=verdict.found, expected=verdict.expected)
    return t("verify.pin.none")


def verdict_rows(verdict: Verdict, path: str) -> list[tuple[str, str]]:
    """The rows of ``jupai verify FILE``'s verdict, ``(label, value)`` in the run's
    language: file, reason, the technical detail, where, expected/found, game, seat,
    host key, pinned host, statements, the unsigned statements after the last signature
    that were ignored (specs/fairness.md §6.6), exit code (those that apply). Every value is
    :func:`printable`: a transcript is what a host sent, it may hold escapes."""
    from ..messages import t

    rows = [(t("verify.row.file"), printable(path)), (t("verify.row.reason"), printable(reason_text(verdict)))]
    detail = reason_detail(verdict)
    if detail:
        rows.append((t("verdict.detail"), printable(detail)))
    from ..messages import current_lang

    if verdict.where():
        rows.append((t("verify.row.where"), printable(verdict.where(current_lang()))))
    if verdict.expected is not None or verdict.found is not None:
        rows.append((t("verify.row.expected"), printable(verdict.expected)))
        rows.append((t("verify.row.found"), printable(verdict.found)))
    if verdict.game_id:
        rows.append((t("verify.row.game"), printable(verdict.game_id)))
    if verdict.game_id is not None:
        rows.append((t("verify.row.seat"), t("verify.spectator") if verdict.seat is None else str(verdict.seat)))
    if verdict.host_key:
        rows.append((t("verify.row.host_key"), printable(verdict.host_key)))
    if verdict.game_id is not None:
        rows.append((t("verify.row.pinned"), printable(pin_text(verdict))))
    if verdict.statements:
        rows.append((t("verify.row.statements"), str(verdict.statements)))
    cut = verdict.details.get("cut_short")
    if isinstance(cut, list) and cut:  # this seat's own record of turns cut short (§9.3)
        said = [t("verify.cut_short_entry", step=e.get("step"), after=f"{e.get('after_ms', 0) / 1000:.1f}",
                  turn=f"{e.get('timeout_ms', 0) / 1000:g}") for e in cut if isinstance(e, dict)]
        rows.append((t("verify.row.cut_short"), t("verify.cut_short_sep").join(said)))
    tail = verdict.details.get("unsigned_tail")
    if isinstance(tail, int) and tail > 0:  # checked only for their form: nobody's evidence (§6.6)
        from ..messages import tn

        rows.append((t("verify.row.unsigned"), tn("verify.unsigned_tail", tail)))
    rows.append((t("verify.row.exit"), str(verdict.exit_code)))
    return rows


def plain_output() -> bool:
    """Whether ``jupai verify FILE`` prints its verdict as plain lines (:func:`render_plain`):
    when stdout is not a terminal (a pipe, a file), unless the environment asks for a
    terminal's output anyway (``FORCE_COLOR``, ``TTY_COMPATIBLE=1``, as rich reads them)."""
    if os.environ.get("FORCE_COLOR") or os.environ.get("TTY_COMPATIBLE") == "1":
        return False
    try:
        return not sys.stdout.isatty()
    except (AttributeError, ValueError):  # no stdout, or a closed one
        return True


def verdict_title(verdict: Verdict) -> str:
    """The title of ``jupai verify FILE``'s verdict in the run's language: the
    status's (``VERIFIED — fair game``), or the code's own when the catalog has one
    (``SUSPICIOUS — fair deal, but the host cut your turns short``, specs/fairness.md §9.3)."""
    from ..messages import t

    # a fixed set, not a catalog look-up: the whole catalog loads the client's texts,
    # which `jupai verify` does not need (specs/performance.md § Start-up)
    return t(f"verify.title.{verdict.code}" if verdict.code in TITLED_CODES else f"verify.title.{verdict.status}")


#: Verdict codes with a title of their own (``verify.title.CODE``).
TITLED_CODES = frozenset({"turns_cut_short"})


def render_plain(verdict: Verdict, path: str) -> None:
    """Print a verdict as plain text (specs/fairness.md §10): the title line, then one
    line per row, the labels padded to one column by display width; no box, no colour,
    no wrapping (each row one line, for grep and scripts). Does not import rich."""
    from ..helpformat import cells
    from ..messages import t

    rows = verdict_rows(verdict, path)
    width = max(cells(label) for label, _ in rows) + 2
    lines = [verdict_title(verdict)]
    lines += [label + " " * (width - cells(label)) + value for label, value in rows]
    print("\n".join(lines))


def render(verdict: Verdict, path: str, console: Any = None) -> None:
    """Print a verdict for people: at a terminal (or to ``console``) a rich panel with
    the status as its title and :func:`verdict_rows` in two columns; else
    :func:`render_plain`, without loading rich (specs/performance.md § Start-up)."""
    if console is None and plain_output():
        render_plain(verdict, path)
        return
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from ..messages import t

    console = console or literal_console(file=sys.stdout)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim", no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in verdict_rows(verdict, path):
        # Text, not str: no markup or emoji parsing (rich's emoji table stays unloaded)
        table.add_row(Text(label), Text(value, overflow="fold"))
    style = _STYLE[verdict.status]
    title = Text(verdict_title(verdict), style=style)
    console.print(Panel(table, title=title, border_style=style.split()[-1], expand=False))
