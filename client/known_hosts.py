"""SSH-style pinning of a host's key fingerprint / join code (specs/client.md § Pinning).

The first time a client joins ``HOST:PORT`` it records the host's fingerprint in a
``known_hosts`` file in the config dir (trust on first use). Later joins must present
the same fingerprint; a different one is refused with a loud warning
(:class:`HostKeyChanged`) unless the user passed the new join code explicitly with
``--code``, which re-pins. A ``--code`` that does not match what the host presents
is always refused (:class:`WrongCode`).

Config dir: ``$JUPAI_CONFIG_DIR`` if set (tests), else ``$XDG_CONFIG_HOME/jupai``, else
``~/.config/jupai``. File format, one host per line (``#`` starts a comment)::

    [192.168.1.20]:7777 3f9a…e1 K7Q2-MX4P

i.e. the host key ``[host]:port``, the pinned fingerprint, and (optionally) the join
code shown to people. Only file IO here, no network.
"""

from __future__ import annotations

import hmac
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..config import config_dir  # noqa: F401 - where it used to live; callers import it from here too

FILE_NAME = "known_hosts"
#: Characters of the join codes older versions pinned (before codes bound the statement key).
OLD_CODE_CHARS = 10
NEW, MATCH, REPINNED = "new", "match", "repinned"


class KnownHostsError(Exception):
    """The known hosts file cannot be read or written (``str(exc)`` says why)."""


class WrongCode(Exception):
    """The join code given with ``--code`` is not the one the host presents."""

    def __init__(self, expected: str, actual: str):
        super().__init__(f"the host presents join code {actual}, not {expected}")
        self.expected = expected
        self.actual = actual


class HostKeyChanged(Exception):
    """The host presents a fingerprint other than the pinned one (possible impostor).
    ``old_format`` is True when the pin was made by an older jupai (a 10-character join
    code, before codes vouched for the host's signing key): the host's certificate was
    replaced by one that carries its signing key, so the code changed."""

    def __init__(self, host: str, old: str, new: str, path: Path, *, old_format: bool = False):
        what = "an old-style pin " if old_format else ""
        super().__init__(f"host {host}: pinned {what}{old} in {path}, now presents {new}")
        self.host = host
        self.old = old
        self.new = new
        self.path = path
        self.old_format = old_format


@dataclass(frozen=True, slots=True)
class PinResult:
    """Outcome of an accepted check: ``status`` is ``new`` (pinned now), ``match``
    (same as pinned) or ``repinned`` (changed, accepted because of ``--code``)."""

    status: str
    host: str
    code: str
    path: Path


def host_key(host: str, port: int) -> str:
    """The file's key for a host: ``[host]:port`` (lower case, IPv6 brackets stripped first)."""
    h = host.strip().lower()
    if h.startswith("[") and h.endswith("]"):
        h = h[1:-1]
    return f"[{h}]:{int(port)}"


def normalize_code(code: str) -> str:
    """A code or fingerprint in canonical form for comparing: lower case, without
    spaces, dashes, colons or dots (``K7Q2-MX4P`` == ``k7q2mx4p``)."""
    return re.sub(r"[\s:.\-]", "", code).lower()


def codes_equal(a: str, b: str) -> bool:
    """True when two codes/fingerprints are the same after :func:`normalize_code`."""
    return hmac.compare_digest(normalize_code(a).encode(), normalize_code(b).encode())


_VALUE_RE = re.compile(r"^[A-Za-z0-9+/=_:.\-]{1,200}$")


class KnownHosts:
    """The known hosts file at ``path`` (default: ``config_dir()/known_hosts``)."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else config_dir() / FILE_NAME

    def _lines(self) -> list[str]:
        from jupai_net.textfile import TextFileError, read_text_file

        try:
            return (read_text_file(self.path, missing_ok=True) or "").splitlines()
        except TextFileError as exc:
            raise KnownHostsError(str(exc)) from None

    def entries(self) -> dict[str, tuple[str, str | None]]:
        """Every pinned host: key → (fingerprint, join code or None). Malformed lines are skipped."""
        out: dict[str, tuple[str, str | None]] = {}
        for line in self._lines():
            parts = line.split("#", 1)[0].split()
            if len(parts) in (2, 3) and parts[0].startswith("[") and all(_VALUE_RE.match(p) for p in parts[1:]):
                out[parts[0]] = (parts[1], parts[2] if len(parts) == 3 else None)
        return out

    def get(self, host: str, port: int) -> str | None:
        """The pinned fingerprint of ``host:port``, or None if it was never pinned."""
        entry = self.entries().get(host_key(host, port))
        return entry[0] if entry else None

    def pin(self, host: str, port: int, fingerprint: str, code: str | None = None) -> None:
        """Record (or replace) the fingerprint of ``host:port``; other lines are kept.
        Written atomically, readable by the user only. Raises :class:`KnownHostsError`."""
        for value in (fingerprint, code):
            if value is not None and not _VALUE_RE.match(value):
                raise KnownHostsError(f"refusing to pin a malformed code {value[:40]!r}")
        key = host_key(host, port)
        lines = [line for line in self._lines() if line.split("#", 1)[0].split()[:1] != [key]]
        lines.append(" ".join([key, fingerprint] + ([code] if code else [])))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".known_hosts.", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write("\n".join(lines) + "\n")
                os.chmod(tmp, 0o600)
                os.replace(tmp, self.path)
            except BaseException:
                if os.path.exists(tmp):
                    os.unlink(tmp)
                raise
        except OSError as exc:
            raise KnownHostsError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def check(self, host: str, port: int, fingerprint: str, *, code: str | None = None,
              explicit_code: str | None = None) -> PinResult:
        """Check what the host presents: its ``fingerprint`` and the ``code`` shown to
        people (defaults to the fingerprint). ``explicit_code`` is the user's ``--code``.

        * ``explicit_code`` given and not equal to ``code`` → :class:`WrongCode`;
        * never pinned → pinned now, ``new``;
        * same fingerprint as pinned → ``match``;
        * different, with a matching ``explicit_code`` → re-pinned, ``repinned``;
        * different otherwise → :class:`HostKeyChanged` (nothing written).
        """
        shown = code if code is not None else fingerprint
        if explicit_code is not None and not codes_equal(explicit_code, shown):
            raise WrongCode(explicit_code, shown)
        key = host_key(host, port)
        entry = self.entries().get(key)
        if entry is None:
            self.pin(host, port, fingerprint, code)
            return PinResult(NEW, key, shown, self.path)
        old_fp, old_code = entry
        if codes_equal(old_fp, fingerprint):
            return PinResult(MATCH, key, shown, self.path)
        if explicit_code is not None:
            self.pin(host, port, fingerprint, code)
            return PinResult(REPINNED, key, shown, self.path)
        old_format = old_code is not None and len(normalize_code(old_code)) == OLD_CODE_CHARS
        raise HostKeyChanged(key, old_code or old_fp, shown, self.path, old_format=old_format)
