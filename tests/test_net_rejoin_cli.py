"""Rejoin through the command a user types (issue 8 §1): `jupai join` killed with
SIGKILL mid-game, the same command run again takes the seat back, the game finishes
and the transcript verifies (specs/client.md § Rejoin)."""

from __future__ import annotations

import os
import signal
import time

from jupai_net.client.resume import ResumeState
from jupai_net.fairness import VERIFIED
from jupai_net.fairness.cli import read_and_verify
from jupai_net.fairness.transcript import decode_transcript

from .test_net_play import Running, env_for, start_host


def _wait(predicate, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_sigkill_mid_game_then_the_same_command_rejoins_and_verifies(tmp_path):
    host, addr, code = start_host(tmp_path, "--seats", "3", "--bots", "2", "--bot-delay", "0.4", "--rounds", "12",
                                  "--games", "1")
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "player"))  # the player's own config folder
    transcript = tmp_path / "ann.jupai"
    command = ["join", addr, "--bot", "random", "--code", code, "--name", "Ann", "--transcript", str(transcript)]
    resume = tmp_path / "player" / "sessions" / f"127.0.0.1-{addr.split(':')[1]}.resume"
    procs = [host]
    try:
        first = Running(command, env)
        procs.append(first)

        def dealt() -> bool:
            try:
                return len(ResumeState.from_bytes(resume.read_bytes()).statements) >= 4  # dealt
            except (OSError, ValueError):
                return False

        _wait(dealt)
        assert resume.stat().st_mode & 0o777 == 0o600
        saved = ResumeState.from_bytes(resume.read_bytes())
        assert saved.game_id is not None and saved.seed is not None and saved.seat == 0
        first.proc.send_signal(signal.SIGKILL)
        assert first.finish(10) == -signal.SIGKILL

        again = Running(command, env)  # the very same command, same config folder
        procs.append(again)
        assert again.finish(60) == 0, again.text[-3000:] + again.stderr
        out = " ".join(again.text.split())
        # a dealer-blind table (the default): nobody played for the seat, the game waited;
        # said once, when the seat is back, not again in the ending
        assert out.count("Welcome back: you are seat 0 again; the game waited for you.") == 1, out
        assert out.index("Welcome back") < out.index("game over")
        assert "fairness: verified" in out.lower() or "verified" in out
        assert read_and_verify(str(transcript)).status == VERIFIED
        data = decode_transcript(transcript.read_bytes())
        assert data.seed == saved.seed  # its own seed, for its own game
        assert not resume.exists()  # removed once the game is over and the transcript saved
    finally:
        for p in procs:
            p.kill()
    assert os.path.exists(transcript)
