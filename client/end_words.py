"""How a game ended, in words, for every command that ends one (``jupai play``,
``jupai join``): ranking, fairness verdict, transcript path and the command to check it
again (specs/client.md § The end of a game). No rich renderables (only ``rich.cells`` to
measure a line), no IO except reading sys.argv, PATH and HOME for :func:`verify_command`
and :func:`home_path`."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len

from jupai_net.printable import printable

from .i18n import MESSAGES, t
from .card_words import seat_label
from .status_words import ranking_rows
from .win_words import game_win_text


def game_end_lines(result: Any, lang: str = "en", with_ranking: bool = True,
                   width: int | None = None, *, reason: bool = True,
                   command: bool = True) -> list[tuple[str, str, bool]]:
    """How a game ended, as lines ``(text, style, keep_whole)`` for ``jupai play`` and
    ``jupai join`` alike: who won and how (:func:`.win_words.game_win_text`), the final
    ranking (with cards left and recovered cards when known) or why the game did not finish, the fairness verdict, and where the
    transcript is with the command to check it again. ``keep_whole`` lines (a file
    path, a command) must be printed without wrapping so they can be copied. The path
    is shown from ``~`` when it is in the home folder; with ``width`` (terminal
    columns) a ``jupai verify`` command longer than a line is cut after ``verify``
    with a shell line continuation (`` \\``), the path on the next line, so it still
    pastes as one command. For a screen short of rows (a spectator's at 40×23):
    ``reason=False`` says the verdict without its reason (``✔ fairness: verified``;
    ``jupai verify`` gives it), ``command=False`` leaves out the ``jupai verify``
    command (the path stays).

    ``result`` is a :class:`jupai_net.client.session.SessionResult` (or any object with
    its fields)."""
    lines: list[tuple[str, str, bool]] = []
    status = getattr(result, "status", "")
    ranking = list(getattr(result, "ranking", None) or [])
    me = getattr(result, "seat", None)
    end = getattr(result, "result", None) or {}
    names: Any = getattr(result, "names", None) or {}
    if not names and end.get("names"):
        names = {s: n for s, n in enumerate(end["names"]) if n}
    view = getattr(result, "view", None)
    obs = getattr(view, "observation", None) or {}
    players = {p.get("seat"): p for p in obs.get("players") or ()}
    cards_left = end.get("cards_left") or ({s: p.get("cards_left") for s, p in players.items()} or None)
    recovered = {s: len(p.get("recovered") or []) for s, p in players.items()} or None
    if ranking and not with_ranking:  # the final screen above already shows the ranking
        pass
    elif ranking:
        lines.append((t("end.ranking", lang), "bold", False))
        won = game_win_text(ranking, end.get("winner", getattr(result, "winner", None)),
                            lambda s: seat_label(s, names, me, lang), lang)
        if won is not None:  # who won and how, by the one rule (specs/rules.md § 8)
            lines.append(("  " + won, "bold green", False))
        for row in ranking_rows(ranking, names, me, lang, cards_left, recovered):
            lines.append(("  " + row, "", False))
    elif status != "finished":
        error = getattr(result, "error", None)
        why = t(f"end.status.{status}", lang) if f"end.status.{status}" in MESSAGES else status
        if error and error[1]:  # the host's reason: from its code and args in lang, else as written
            from jupai_net.messages.notices import end_reason

            said = end_reason(end, lang) if end.get("reason") else end_reason({"reason": str(error[1])}, lang)
            why += t("colon", lang) + said
        lines.append((t("end.unfinished", lang, why=why), "bold yellow", False))
    verdict = getattr(result, "verdict", None)
    if verdict is not None:
        word = t(f"verdict.{verdict.status}", lang) if f"verdict.{verdict.status}" in MESSAGES else verdict.status
        from jupai_net.fairness.cli import reason_detail, reason_text

        style = "bold green" if verdict.ok else "bold red"
        if not reason:
            lines.append((t("end.verdict_ok_brief" if verdict.ok else "end.verdict_bad_brief", lang, status=word),
                          style, False))
        else:
            lines.append((t("end.verdict_ok" if verdict.ok else "end.verdict_bad", lang, status=word,
                            reason=printable(reason_text(verdict, lang))), style, False))
        detail = reason_detail(verdict, lang) if reason else None
        if detail:  # a technical failure the catalog has no words for: the verifier's own, apart
            lines.append((f"  {t('verdict.detail', lang)}{t('colon', lang)}{printable(detail)}", "dim", False))
        if (getattr(verdict, "details", None) or {}).get("abort_after_reveal"):
            lines.append((t("end.abort_after_reveal", lang), "bold red", False))
    path = getattr(result, "transcript_path", None)
    if path is not None:
        lines.append((t("end.transcript", lang), "", False))
        lines.append((f"  {home_path(path)}", "bold", True))
    if path is not None and command:
        lines.append((t("end.verify", lang), "", False))
        run, argument = verify_command(), shell_path(path)
        if width is not None and cell_len(f"  {run} {argument}") > width:
            lines.append((f"  {run} \\", "bold", True))
            lines.append((f"    {argument}", "bold", True))
        else:
            lines.append((f"  {run} {argument}", "bold", True))
    return lines


def home_path(path: Any) -> str:
    """``path`` as text, from ``~`` when it is in the home folder
    (``~/.config/jupai/transcripts/674d463e2a68-seat0.jupai``)."""
    import os

    text = str(path)
    home = os.path.expanduser("~")
    if home not in ("", "~", "/") and text.startswith(home.rstrip(os.sep) + os.sep):
        return "~" + text[len(home.rstrip(os.sep)):]
    return text


def shell_path(path: Any) -> str:
    """``path`` for the user's shell: ``~/`` unquoted (so the shell expands it) and the
    rest quoted (:func:`shell_quote`); a path outside home quoted whole."""
    text = home_path(path)
    if text.startswith("~/"):
        return "~/" + shell_quote(text[2:])
    return shell_quote(str(path))


def verify_command() -> str:
    """How the user can run ``jupai verify`` from the shell: ``jupai verify`` when the
    ``jupai`` on PATH is the running program, else the running ``jupai`` script by its
    absolute path, else ``python -m jupai_net verify`` with this interpreter."""
    import os
    import shutil
    import sys

    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    found = shutil.which("jupai")
    if found and argv0 and os.path.realpath(found) == os.path.realpath(shutil.which(argv0) or argv0):
        return "jupai verify"
    if argv0 and os.path.basename(argv0) == "jupai" and os.path.exists(argv0):
        return shell_quote(os.path.abspath(argv0)) + " verify"
    return shell_quote(sys.executable) + " -m jupai_net verify"


def shell_quote(arg: str) -> str:
    """``arg`` quoted for the user's shell, so a command with it works when pasted:
    POSIX shells get :func:`shlex.quote` (``'/home/Ann Lee/t.jupai'``), Windows
    ``cmd``/PowerShell double quotes (:func:`subprocess.list2cmdline`)."""
    import os

    if os.name == "nt":  # pragma: no cover - tested on POSIX
        import subprocess

        return subprocess.list2cmdline([arg])
    import shlex

    return shlex.quote(arg)
