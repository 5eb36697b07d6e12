"""Standard output that never kills a command (specs/client.md § Bad input):
an output encoding that cannot show a character, and a pipe closed early.

* :func:`make_output_safe` — on a stdout/stderr that is not UTF-8 (``PYTHONIOENCODING=gbk``,
  a zh_CN.GBK terminal, Windows with redirected output in cp1252) every character
  the encoding cannot show is written as an ASCII stand-in (:data:`ASCII_MARKS`:
  ``✓`` → ``v``, ``♠`` → ``s``, ``⚔`` → ``!``; else its ASCII decomposition, else
  ``?``) instead of raising ``UnicodeEncodeError``. Characters the encoding has (Chinese
  in GBK) are written as they are.
* :func:`is_broken_pipe` / :func:`silence_stdout` — ``jupai verify --json F | head -c 5``:
  the command stops quietly with :data:`EXIT_BROKEN_PIPE`, no ``BrokenPipeError``
  traceback (also when the error comes wrapped in trio's exception groups, or as
  rich's ``SystemExit`` after it).
"""

from __future__ import annotations

import codecs
import os
import sys
import unicodedata

#: Exit code after the reader of standard output went away (128 + SIGPIPE, as a
#: program killed by the signal).
EXIT_BROKEN_PIPE = 141

#: ASCII stand-ins for the marks jupai prints, used only where the output encoding
#: cannot show the mark itself. Suits as in poker notation (``10h``, ``Ks``).
ASCII_MARKS: dict[str, str] = {
    "✓": "v", "✔": "v", "✗": "x", "✘": "x", "♠": "s", "♥": "h", "♦": "d", "♣": "c",
    "⏱": "", "⚔": "!", "»": ">>", "«": "<<", "·": "-", "×": "x", "—": "-", "–": "-",
    "…": "...", "▶": ">", "→": "->", "←": "<-", "━": "=", "─": "-", "│": "|", "•": "*",
    "“": '"', "”": '"', "‘": "'", "’": "'", "≥": ">=", "≤": "<=", "≠": "!=", "−": "-",
    "★": "*", "☆": "*", "⚠": "!",
}

ERROR_HANDLER = "jupai-ascii"


def ascii_mark(ch: str) -> str:
    """The ASCII stand-in of one character (see :data:`ASCII_MARKS`)."""
    mark = ASCII_MARKS.get(ch)
    if mark is not None:
        return mark
    plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
    return plain if plain.isprintable() and plain else "?"


def _ascii_marks(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return "".join(ascii_mark(c) for c in err.object[err.start:err.end]), err.end


codecs.register_error(ERROR_HANDLER, _ascii_marks)


def make_output_safe(streams: tuple[object, ...] | None = None) -> None:
    """Make ``sys.stdout`` and ``sys.stderr`` (or ``streams``) write unencodable
    characters as ASCII stand-ins when their encoding is not a UTF one. Streams that
    cannot be reconfigured (not a ``TextIOWrapper``) are left alone."""
    for stream in streams if streams is not None else (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        reconfigure = getattr(stream, "reconfigure", None)
        if not encoding or reconfigure is None:
            continue
        try:
            if codecs.lookup(encoding).name.startswith("utf"):
                continue
            reconfigure(errors=ERROR_HANDLER)
        except (LookupError, ValueError, OSError):
            continue


def is_broken_pipe(exc: BaseException) -> bool:
    """True for a ``BrokenPipeError``, rich's ``SystemExit`` raised while handling one
    (``Console.on_broken_pipe``), or an exception group holding one of them."""
    if isinstance(exc, BrokenPipeError):
        return True
    if isinstance(exc, SystemExit):
        return isinstance(exc.__context__, BrokenPipeError)
    if isinstance(exc, BaseExceptionGroup):
        return any(is_broken_pipe(e) for e in exc.exceptions)
    return False


def silence_stdout() -> None:
    """Point standard output at the null device, so that Python's last flush at exit
    does not fail again on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
