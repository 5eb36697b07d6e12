"""The end of input leaves the table cleanly (issue 12, fresh-user trial: Ctrl-D or a
closed pipe at a prompt was taken for a lost connection, and the host kept the others
waiting for the seat to come back). The client says one sentence and says ``bye``; the
host takes that as the person leaving: a dealer-blind game, which nobody else can play
for it, is abandoned at once, and at a trusted table the bot plays the seat at once
(specs/host.md § 5, specs/client.md § Keys) — through ``jupai join`` with its stdin
closed at the move prompt."""

from __future__ import annotations

import subprocess
import time

import pytest

from .cli_helpers import JUPAI
from .test_net_hardening import HostProcess
from .test_net_play import env_for


@pytest.mark.parametrize("dealer", ["blind", "trusted"])
def test_stdin_closed_at_the_move_prompt_leaves_the_table_at_once(tmp_path, dealer):
    host = HostProcess(tmp_path, "--seats", "2", "--bots", "1", "--no-announce", "--bot-delay", "0.2",
                       "--rounds", "2", "--games", "1", "--dealer", dealer, "--turn-timeout", "60")
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "ann"))
    join = subprocess.Popen(JUPAI + ["join", host.addr, "--code", host.code, "--name", "Ann"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert join.stdin is not None and join.stdout is not None
        join.stdin.write("\n")  # past the trust-on-first-use warning
        join.stdin.flush()
        seen = ""
        while "Your turn" not in seen:
            line = join.stdout.readline()
            assert line, seen[-2000:]
            seen += line
        mark = len(host.lines)
        closed_at = time.monotonic()
        join.stdin.close()  # the end of input, at the move prompt
        # it exits by itself (wait raises on a time-out), unverified: it left during the
        # game (specs/client.md § jupai join)
        code = join.wait(30)
        out, err = seen + join.stdout.read(), join.stderr.read() if join.stderr else ""
        if dealer == "blind":
            host.wait_for(r"game abandoned: Ann \(seat 0\) left the dealer-blind game", after=mark, timeout=10)
        else:
            host.wait_for(r"Ann left seat 0; a bot plays for them", after=mark, timeout=10)
        told = time.monotonic() - closed_at
        if dealer == "trusted":  # the bot plays the seat to the end of the game
            host.wait_for(r"game over \(emptied\)|game over", after=mark, timeout=30)
    finally:
        join.kill()
        host.kill()
    said = "".join(host.lines[mark:])
    assert "disconnected" not in said and "waits for them" not in said, said
    assert told < 8  # not the turn's 60 s and the 15 s grace of a seat that may come back
    assert "Traceback" not in out + err
    assert out.count("Input closed: leaving the table") == 1, out[-2000:]
    assert code == 1, out[-2000:] + err
    assert "left the table before the end" in out
