"""The host's console as a person uses it (issue 12, trial 13; specs/host.md § Console):
a kicked player is told why in their own language."""

from __future__ import annotations

import signal

from .test_net_hardening import HostProcess, _one_line
from .test_net_play import Running, env_for


def test_a_kicked_player_is_told_in_their_own_language(tmp_path):
    """``kick 0`` at the host: a Chinese player reads the catalog's sentence, not the
    host's English words (screen 61), and exits 6; the error carries the seat as data."""
    host = HostProcess(tmp_path, "--seats", "3")
    procs = [host]
    try:
        join = Running(["join", host.addr, "--bot", "random", "--code", host.code, "--lang", "zh"],
                       env_for(tmp_path))
        procs.append(join)
        host.wait_for(r"took seat 0")
        mark = len(host.lines)
        host.type("kick 0")
        host.wait_for(r"kicked: the host removed random bot from seat 0", after=mark)
        assert join.finish(20) == 6
        out = _one_line(join.stderr)
        assert "主机把你请出了座位" in out, out
        assert "the host removed" not in out and "Traceback" not in join.stderr, out
        host.proc.send_signal(signal.SIGINT)
        assert host.finish(20) == 130
    finally:
        for p in procs:
            p.kill()


def test_the_kick_error_carries_the_seat():
    """The host's ``kicked`` error says the seat as data (``args``, protocol 7)."""
    import random

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from jupai_net.host.table import Close, Table, TableConfig
    from jupai_net.protocol.messages import Hello
    from jupai_net.rules import RuleSet

    table = Table(TableConfig(rules=RuleSet(players=3)), Ed25519PrivateKey.generate(), rng=random.Random(1))
    seat = table.admit(1, Hello(name="Ann"), 0.0)
    assert seat is not None
    table.drain()
    table.kick(seat, 1.0)
    (close,) = [e for e in table.drain() if isinstance(e, Close)]
    assert close.error is not None and close.error.code == "kicked" and close.error.args == {"seat": seat}
