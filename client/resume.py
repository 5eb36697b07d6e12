"""Resume state of a client session: what lets the same ``jupai join`` command take its
seat back after the client died (specs/client.md § Rejoin; specs/host.md § Reconnect).

One file per host address, ``<config dir>/sessions/<host>-<port>.resume``, readable
only by the user (mode 0600), replaced atomically (a temporary file in the same folder,
then :func:`os.replace`) after every change, and removed once the game is over and
its transcript saved. It is one msgpack map::

    {"format": "jupai-resume", "v": 1,
     "host": str, "port": int, "name": str, "seat": int | nil, "token": str | nil,
     "game_id": bin 16 | nil,          # the game the seed and statements belong to
     "seed": bin 32 | nil,             # this seat's seed FOR game_id, never for another
     "statements": [bin, ...],         # the signed statements of game_id, as received
     "own_actions": {state_id: action map},   # what this seat sent, by the state it answered
     "host_moves": [[version, why], ...],     # steps the host played for this seat
     "blind": bin | nil,               # dealer-blind game: this seat's participant for game_id
                                       # (BlindParticipant.save(): its seed and signing key)
     "fingerprint": str | nil,         # the host certificate's fingerprint (hex SHA-256) the
                                       # token was given by: another host at the address
                                       # (a new key) does not get it (optional key)
     "saved_at": float}                # time.time() of the write

The seed is kept together with its game id: a seed is only ever used for the game it
was made for (specs/fairness.md §1.1; issue: a seed revealed in one game must never
be sent for another).

While a session runs it holds an exclusive lock (``fcntl.flock``) on
``<file>.lock``, so a second client in the same config folder does not take the seat
away from a live one; the kernel releases the lock when the process dies (even by
SIGKILL). Pure file work; no network.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from .tls import config_dir

log = logging.getLogger("jupai.client")

FORMAT_NAME = "jupai-resume"
RESUME_VERSION = 1
#: Largest resume file read (bytes): a 6-seat game's statements are well under 1 MiB.
MAX_RESUME_BYTES = 16 << 20


@dataclass
class ResumeState:
    """Everything a new process needs to take a seat back and still verify the game.

    ``host``/``port``: the address joined; ``name``/``seat``: the seat's name and number
    (``seat`` ``None`` before the ``welcome``); ``token``: the session token of that
    ``welcome``; ``game_id``/``seed``: the running game and this seat's seed for it (both
    ``None`` in the lobby); ``statements``: the signed statements of ``game_id`` received
    so far, in order; ``own_actions``: state id → ``Action.to_wire()`` of every action
    this seat sent in ``game_id``; ``host_moves``: ``[version, why]`` of the steps the host
    played for this seat (``why``: ``"away"`` or ``"timeout"``); ``cut_short``: the
    seat's record of turns the host cut short (``SeatWitness.cut_short``, five whole
    numbers each, specs/fairness.md §9.3), so a restarted client keeps that evidence;
    ``fingerprint``: the certificate fingerprint (hex) of the host that gave the token
    (``None`` in a file of an older release): the token is offered to that host only
    (specs/client.md § Rejoin)."""

    host: str
    port: int
    name: str
    seat: int | None = None
    token: str | None = None
    game_id: bytes | None = None
    seed: bytes | None = None
    statements: list[bytes] = field(default_factory=list)
    own_actions: dict[int, dict[str, Any]] = field(default_factory=dict)
    host_moves: list[tuple[int, str]] = field(default_factory=list)
    #: A dealer-blind game's participant of this seat (``BlindParticipant.save()`` bytes,
    #: bound to ``game_id`` inside), or ``None`` (specs/fairness.md B.15.4).
    blind: bytes | None = None
    cut_short: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    fingerprint: str | None = None

    def blind_for(self, game_id: bytes) -> bytes | None:
        """The saved dealer-blind participant for ``game_id`` (``None`` for another game)."""
        if self.game_id is not None and self.blind is not None and self.game_id == game_id:
            return self.blind
        return None

    def seed_for(self, game_id: bytes) -> bytes | None:
        """This seat's seed for ``game_id``, or ``None`` when the saved seed belongs to
        another game (or there is none): a seed is never used for a second game."""
        if self.game_id is not None and self.seed is not None and self.game_id == game_id:
            return self.seed
        return None

    def to_bytes(self) -> bytes:
        """The file bytes (msgpack, see the module docstring)."""
        return msgpack.packb({
            "format": FORMAT_NAME, "v": RESUME_VERSION, "host": self.host, "port": self.port, "name": self.name,
            "seat": self.seat, "token": self.token, "game_id": self.game_id, "seed": self.seed,
            "statements": list(self.statements), "own_actions": {int(k): v for k, v in self.own_actions.items()},
            "host_moves": [list(m) for m in self.host_moves], "blind": self.blind, "saved_at": time.time(),
            "cut_short": [list(e) for e in self.cut_short], "fingerprint": self.fingerprint,
        }, use_bin_type=True)

    @classmethod
    def from_bytes(cls, data: bytes) -> "ResumeState":
        """Decode file bytes; raises ``ValueError`` naming what is wrong."""
        try:
            obj = msgpack.unpackb(data, raw=False, strict_map_key=False, max_bin_len=MAX_RESUME_BYTES)
        except Exception as exc:  # msgpack raises several types on damaged input
            raise ValueError(f"not a resume file ({type(exc).__name__})") from None
        if not isinstance(obj, dict) or obj.get("format") != FORMAT_NAME or obj.get("v") != RESUME_VERSION:
            raise ValueError("not a resume file of this version")

        def opt(key: str, kind: type | tuple[type, ...]) -> Any:
            value = obj.get(key)
            if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
                raise ValueError(f"resume field {key!r} has the wrong type")
            return value

        host, port, name = opt("host", str), opt("port", int), opt("name", str)
        if host is None or port is None or name is None:
            raise ValueError("resume file without host, port or name")
        game_id, seed = opt("game_id", bytes), opt("seed", bytes)
        if (game_id is not None and len(game_id) != 16) or (seed is not None and len(seed) != 32):
            raise ValueError("resume file with a bad game id or seed")
        if seed is not None and game_id is None:
            raise ValueError("resume file with a seed but no game id")
        stmts = obj.get("statements") or []
        if not isinstance(stmts, list) or not all(isinstance(s, bytes) for s in stmts):
            raise ValueError("resume 'statements' must be a list of byte strings")
        own = obj.get("own_actions") or {}
        if not isinstance(own, dict) or not all(isinstance(k, int) and isinstance(v, dict) for k, v in own.items()):
            raise ValueError("resume 'own_actions' must map state ids to actions")
        moves = obj.get("host_moves") or []
        if not isinstance(moves, list) or not all(
                isinstance(m, list) and len(m) == 2 and isinstance(m[0], int) and isinstance(m[1], str) for m in moves):
            raise ValueError("resume 'host_moves' must be [version, why] pairs")
        cut = obj.get("cut_short") or []
        if not isinstance(cut, list) or not all(
                isinstance(e, list) and len(e) == 5 and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                                                            for x in e) for e in cut):
            raise ValueError("resume 'cut_short' must be lists of five whole numbers")
        return cls(host, port, name, opt("seat", int), opt("token", str), game_id, seed, list(stmts), dict(own),
                   [(m[0], m[1]) for m in moves], opt("blind", bytes), [(e[0], e[1], e[2], e[3], e[4]) for e in cut],
                   opt("fingerprint", str))


def resume_path(host: str, port: int) -> Path:
    """``<config dir>/sessions/<host>-<port>.resume`` (the host name made file-safe)."""
    safe = "".join(c if c.isalnum() or c in ".-" else "_" for c in host)
    return config_dir() / "sessions" / f"{safe}-{port}.resume"


def save_resume(state: ResumeState) -> None:
    """Write ``state`` atomically (temporary file in the same folder, then rename),
    mode 0600, the folder 0700. An ``OSError`` is logged, never raised: a full disk
    must not stop the game (only a later rejoin would be lost)."""
    path = resume_path(state.host, state.port)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=".resume-", dir=path.parent)  # mkstemp: mode 0600
        with os.fdopen(fd, "wb") as fh:
            fh.write(state.to_bytes())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        log.warning("cannot save the resume state to %s: %s", path, exc)
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def load_resume(host: str, port: int) -> ResumeState | None:
    """The resume state saved for ``host``:``port``, or ``None`` (none, unreadable or
    damaged: a damaged file is logged and ignored, the player simply joins anew)."""
    return _read(resume_path(host, port))


def find_resume(token: str) -> ResumeState | None:
    """The resume state holding session ``token`` in any resume file (the same host may
    have been reached under another address), or ``None``."""
    folder = config_dir() / "sessions"
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.resume")):
        state = _read(path)
        if state is not None and state.token == token:
            return state
    return None


def _read(path: Path) -> ResumeState | None:
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_RESUME_BYTES + 1)
    except OSError:
        return None
    try:
        if len(data) > MAX_RESUME_BYTES:
            raise ValueError("too large")
        return ResumeState.from_bytes(data)
    except ValueError as exc:
        log.warning("ignoring the resume file %s: %s", path, exc)
        return None


def drop_resume(host: str, port: int) -> None:
    """Remove the resume file of ``host``:``port`` (no error if there is none)."""
    with contextlib.suppress(OSError):
        resume_path(host, port).unlink()


class ResumeLock:
    """An exclusive lock on ``<resume file>.lock`` held while a session runs.

    :meth:`acquire` returns ``None`` when another live client holds it (that client
    owns the seat: this one must neither read nor write the resume state). Without
    ``fcntl`` (Windows) every acquire succeeds."""

    def __init__(self, fd: int | None, path: Path | None = None):
        self._fd = fd
        self._path = path

    @classmethod
    def acquire(cls, host: str, port: int) -> "ResumeLock | None":
        """Take the lock without waiting; ``None`` if it is held by someone else."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on Unix
            return cls(None)
        path = resume_path(host, port).with_suffix(".lock")
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            log.warning("cannot open the lock file %s: %s", path, exc)
            return cls(None)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return cls(fd, path)

    def release(self, *, remove: bool = False) -> None:
        """Release the lock (closing the file releases it); ``remove``: also delete the
        lock file (when the resume state is gone too)."""
        if remove and self._fd is not None and self._path is not None:
            with contextlib.suppress(OSError):
                self._path.unlink()
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


__all__ = ["ResumeLock", "ResumeState", "drop_resume", "find_resume", "load_resume", "resume_path", "save_resume"]
