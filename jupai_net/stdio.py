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
* :func:`survive_lost_terminal` — the terminal went away under a running command (its
  window closed, an ssh session dropped: every write fails with ``EIO``): the first
  write that fails points the stream at the null device and the command goes on
  quietly, so that ``jupai join`` still says ``bye`` to the host and saves its
  transcript instead of dying with a traceback nobody can read (specs/client.md § `jupai join`).
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
import unicodedata
from collections.abc import Iterator
from typing import Any

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


class LostTerminalSafe:
    """A text stream (``sys.stdout``, ``sys.stderr``) whose writes survive the terminal
    going away: a ``write`` or ``flush`` that fails with an ``OSError`` other than
    ``BrokenPipeError`` (a closed terminal: ``EIO``) points the stream's file
    descriptor at the null device (:func:`_to_null`) and reports the text as written;
    every later write goes there. A broken pipe still raises (:func:`is_broken_pipe`:
    the command stops with exit 141). Everything else is the wrapped stream's
    (``isatty``, ``fileno``, ``encoding``, ``buffer``…)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        #: True once a write failed (the terminal is gone)
        self.lost = False

    def write(self, text: str) -> int:
        """Write ``text``; its length, also when the terminal is gone."""
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError:
            self._lose()
            return len(text)

    def flush(self) -> None:
        """Flush the wrapped stream (nothing when the terminal is gone)."""
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError:
            self._lose()

    def _lose(self) -> None:
        self.lost = True
        _to_null(self._stream)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _to_null(stream: Any) -> None:
    """Point ``stream``'s file descriptor at the null device (nothing for a stream
    without one), so that its pending bytes and every later write go nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    try:
        stream.flush()  # the bytes the failed write left in the buffer: to the null device now
    except (OSError, ValueError):
        pass


@contextlib.contextmanager
def survive_lost_terminal() -> Iterator[None]:
    """Within the block, ``sys.stdout`` and ``sys.stderr`` are :class:`LostTerminalSafe`
    (the streams as they were are restored after it)."""
    saved = sys.stdout, sys.stderr
    if saved[0] is not None and not isinstance(saved[0], LostTerminalSafe):
        sys.stdout = LostTerminalSafe(saved[0])  # type: ignore[assignment]
    if saved[1] is not None and not isinstance(saved[1], LostTerminalSafe):
        sys.stderr = LostTerminalSafe(saved[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
