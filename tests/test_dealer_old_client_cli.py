"""An older client (protocol version 3, which cannot deal blind) at a `jupai host`
started from the command line (issue 9, "Use"; specs/fairness.md B.15 item 5;
specs/host.md §2): ``--dealer blind`` refuses it with a clear message, to the client
and on the host's screen; the default ``--dealer auto`` seats it and deals that game
trusted, saying why on the host's screen."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from jupai_net.protocol import ErrorMessage, Hello, Ready, Start, Statement, Welcome

from .test_net_hardening import HostProcess
from .test_net_support import RawClient


def _port(host: HostProcess) -> int:
    return int(host.addr.rsplit(":", 1)[1])


def _said(host: HostProcess, pattern: str) -> str:
    """The host screen's text matching ``pattern``, its lines joined (a long line wraps)."""
    return " ".join(host.wait_for(pattern)[0].split())


async def test_an_old_client_is_refused_by_dealer_blind_and_served_trusted_by_default(tmp_path):
    argv = ("--seats", "2", "--bots", "1", "--no-announce")
    with ThreadPoolExecutor(2) as pool:  # (both hosts start at once: a host takes seconds to start)
        made = [pool.submit(HostProcess, tmp_path / "blind", *argv, "--dealer", "blind"),
                pool.submit(HostProcess, tmp_path / "auto", *argv)]
        blind, auto = (f.result() for f in made)
    try:
        # --dealer blind: an error the client can show, and the host's screen says why and what to do
        c = await RawClient.connect(_port(blind))
        await c.send(Hello("Old", version=3, min_version=1))
        err = await c.recv(timeout=20)
        assert isinstance(err, ErrorMessage) and err.code == "blind-unsupported", err
        assert "protocol version 4" in err.message and "update" in err.message, err.message
        said = _said(blind, r"refused Old: their jupai speaks protocol 3, and this table always deals blind[^\n]*\n?"
                            r"[^\n]*--dealer auto")
        assert "they must update jupai, or restart the host with --dealer auto" in said, said
        # the default (--dealer auto): seated, and the game deals trusted, the host's screen says why
        _said(auto, r"dealer-blind; a game with an older client is dealt trusted")
        c = await RawClient.connect(_port(auto))
        await c.send(Hello("Old", version=3, min_version=1))
        welcome = await c.recv_until(Welcome, timeout=20)
        assert welcome.version == 3 and welcome.seat == 0
        await c.send(Ready())
        assert (await c.recv_until(Start, timeout=20)).dealer == "trusted"
        kinds = [(await c.recv_until(Statement, timeout=20)).kind for _ in range(2)]
        assert kinds == ["start", "commitments"]  # Part A's seed commitments, not the blind hellos
        said = _said(auto, r"trusted this game: the client of Old \(seat 0, protocol 3\)[^\n]*\n?[^\n]*blind")
        assert "trusted this game: the client of Old (seat 0, protocol 3) cannot deal blind" in said, said
    finally:
        codes = [host.interrupt() for host in (blind, auto)]
    assert codes == [130, 130], (blind.stderr, auto.stderr)  # stopped by Ctrl-C
    assert "Traceback" not in blind.stderr + auto.stderr
