"""SIGTERM to `jupai join` (specs/client.md § Keys: a stop signal leaves as Ctrl-C
does): the client says ``bye`` — a dealer-blind game, which nobody else can play for
the seat, ends at once — prints one sentence and exits 143, instead of dying without a
word and leaving the table waiting for the seat's grace."""

from __future__ import annotations

import signal

from .test_net_hardening import HostProcess
from .test_net_play import Running, env_for


def test_sigterm_leaves_the_table_like_ctrl_c(tmp_path):
    host = HostProcess(tmp_path, "--seats", "2", "--bots", "1", "--dealer", "blind", "--rounds", "3",
                       "--bot-delay", "0.3", "--turn-timeout", "60", "--no-announce")
    env = dict(env_for(tmp_path), JUPAI_NO_MULTICAST="1")
    join = Running(["join", host.addr, "--code", host.code, "--bot", "random", "--name", "Ann"], env)
    try:
        host.wait_for(r"game \w+ starts", timeout=60)
        mark = len(host.lines)
        join.proc.send_signal(signal.SIGTERM)
        assert join.finish(30) == 143, join.stderr
        assert "interrupted: left the table" in join.stderr and "Traceback" not in join.stderr, join.stderr
        # said bye: the host abandons the dealer-blind game at once (not after the 60 s turn)
        host.wait_for(r"game abandoned", timeout=15, after=mark)
    finally:
        join.proc.kill()
        host.kill()


def test_a_terminal_closed_in_the_lobby_still_leaves_the_table_with_a_bye(tmp_path):
    """The terminal's window closed in the lobby (its master side gone: every write
    fails with EIO, input ends) and SIGHUP came: the client leaves as after Ctrl-C —
    bye to the host, which frees the seat, exit 129. Before, the first line it wrote to
    the dead terminal (``input ended…``) raised OSError: a traceback nobody could read,
    exit 1, often no bye. (Mid-game a closed window keeps the seat instead:
    tests/test_leave_keeps_seat.py.)"""
    import os

    from .test_client_cli import Terminal
    from .test_net_play import JUPAI

    host = HostProcess(tmp_path, "--seats", "3", "--no-announce")
    env = dict(env_for(tmp_path), JUPAI_NO_MULTICAST="1", TERM="xterm", LINES="24")
    term = Terminal(JUPAI + ["join", host.addr, "--code", host.code, "--name", "Ann"], env, rows=24, cols=100)
    try:
        host.wait_for(r"Ann took seat 0", timeout=60)
        term.expect(r"Waiting for|waiting for", timeout=30)  # the lobby's screen is up
        mark = len(host.lines)
        os.close(term.master)  # the window closed (no reader thread uses the descriptor)
        term.master = os.open(os.devnull, os.O_RDONLY)  # for close() below
        term.proc.send_signal(signal.SIGHUP)
        assert term.proc.wait(30) == 129
        host.wait_for(r"Ann left seat 0", timeout=15, after=mark)
        assert not list((tmp_path / "config" / "sessions").glob("*.resume"))  # left on purpose: forgotten
    finally:
        term.close()
        host.kill()


def test_a_lost_terminal_silences_the_output_but_a_broken_pipe_still_stops_the_command():
    import errno

    import pytest

    from jupai_net.stdio import LostTerminalSafe

    class Dead:
        def __init__(self, exc):
            self.exc, self.written = exc, []

        def write(self, text):
            raise self.exc

        def flush(self):
            pass

        def isatty(self):
            return True

    gone = LostTerminalSafe(Dead(OSError(errno.EIO, "Input/output error")))
    assert gone.write("input ended") == len("input ended") and gone.lost and gone.isatty()
    gone.flush()
    with pytest.raises(BrokenPipeError):  # `jupai verify --json F | head`: exit 141 as before (stdio.is_broken_pipe)
        LostTerminalSafe(Dead(BrokenPipeError())).write("x")


def test_after_a_closed_terminal_ended_the_session_more_hangups_do_not_kill_the_report():
    """A closed window sends SIGHUP more than once (the test's, then the kernel's as the
    pty closes): once the session ended on the first, the client ignores the rest so
    its report ends with exit 129, not with death by signal (the flaky SIGHUP tests)."""
    import subprocess
    import sys

    code = ("import os, signal, sys\n"
            "from jupai_net.client import cli\n"
            "cli._ignore_hangups()\n"
            "os.kill(os.getpid(), signal.SIGHUP); os.kill(os.getpid(), signal.SIGHUP)\n"
            "print('report written'); sys.exit(129)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.returncode == 129 and done.stdout == "report written\n", (done.returncode, done.stderr)
