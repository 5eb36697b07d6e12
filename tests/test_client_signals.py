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
