"""Running ``jupai`` on a pseudo-terminal, as a person at a terminal does, for the
tests (no tests here): what it prints is read in a thread and searched without the
terminal's escape sequences."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import termios
import threading
import time

from .cli_helpers import JUPAI

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\r")


class PtyJupai:
    """``jupai ARGV…`` with stdin, stdout and stderr on a pty of ``rows``×``columns``
    (its own session, so a signal reaches only it). :attr:`text`: everything printed so
    far, escape sequences removed."""

    def __init__(self, argv: list[str], env: dict[str, str], rows: int = 24, columns: int = 80):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**env, "TERM": "xterm", "COLUMNS": str(columns), "LINES": str(rows)}
        self.proc = subprocess.Popen(JUPAI + argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     close_fds=True, start_new_session=True)
        os.close(slave)
        self.master = master
        self._raw = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self._raw += data

    @property
    def text(self) -> str:
        return _ESCAPES.sub("", bytes(self._raw).decode("utf-8", "replace"))

    def mark(self) -> int:
        """A position in :attr:`text` for :meth:`wait_for` ``after``."""
        return len(self.text)

    def wait_for(self, pattern: str, timeout: float = 20.0, *, after: int = 0) -> re.Match:
        """The first match of ``pattern`` in the text printed after ``after``; fails
        after ``timeout`` seconds or when the program ended without printing it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.text[after:])
            if found:
                return found
            if self.proc.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} not on the terminal:\n{self.text[-3000:]}")

    def type(self, text: str) -> None:
        """Type ``text`` (``\\r`` for Enter, ``\\x04`` for Ctrl-D)."""
        os.write(self.master, text.encode())

    def signal(self, signum: int) -> None:
        self.proc.send_signal(signum)

    def finish(self, timeout: float = 30.0) -> int:
        code = self.proc.wait(timeout=timeout)
        self._reader.join(timeout=5)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=5)
        try:
            os.close(self.master)
        except OSError:
            pass
