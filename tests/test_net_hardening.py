"""Network and host robustness (issue 8): signals at the host, what the host logs for
refused and dropped connections, what a client says when the connection breaks
(specs/host.md §2, §6, §7, §9, §10)."""

from __future__ import annotations

import logging
import os
import pty
import re
import select
import signal
import subprocess
import time

import pytest
import trio

from jupai_net.fairness.cli import read_and_verify

from .test_net_play import JUPAI, Running, env_for, start_host
from .test_net_support import RawClient, host_config, start_host as start_server


def _one_line(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ signals at the host


def test_sigterm_mid_game_abandons_saves_transcripts_and_names_the_signal(tmp_path):
    """SIGTERM (systemd, `kill`) ends `jupai host` like Ctrl-C: the game is abandoned with
    a signed reason, the transcripts are saved, the client is told at once; the closing
    line says SIGTERM, not Ctrl-C; exit 128+15."""
    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--bot-delay", "1", "--rounds", "12",
                                  "--transcript-dir", str(tmp_path / "host"))
    procs = [host]
    try:
        join = Running(["join", addr, "--bot", "random", "--code", code], env_for(tmp_path))
        procs.append(join)
        host.wait_for(r"Round 1/12")
        host.proc.send_signal(signal.SIGTERM)
        assert host.finish(20) == 128 + signal.SIGTERM
        text = _one_line(host.text)
        assert "host stopped by SIGTERM: 0 games played, 1 abandoned." in text, text
        assert "Ctrl-C" not in text.split("stopping:")[-1].split("(")[0]
        assert "game abandoned: the host was stopped (SIGTERM)" in text
        assert "Traceback" not in host.stderr
        copies = sorted((tmp_path / "host").glob("*.jupai"))
        assert len(copies) == 2
        assert join.finish(20) == 1  # abandoned: unverified, told at once (not after a reconnect timeout)
        out = _one_line(join.text)
        assert "the host was stopped (SIGTERM)" in out, out
        assert "SSL" not in out + join.stderr and "Traceback" not in join.stderr
    finally:
        for p in procs:
            p.kill()


def test_sighup_with_the_terminal_gone_still_abandons_cleanly(tmp_path):
    """Closing the host's terminal (SSH session, window): SIGHUP, and the terminal no
    longer takes output. The host still abandons the game, saves the transcripts, tells
    the client, logs why, and exits 128+1 without a traceback."""
    env = env_for(tmp_path)
    master, slave = pty.openpty()
    host = subprocess.Popen(JUPAI + ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "2", "--bots", "1",
                                     "--bot-delay", "1", "--rounds", "12", "--transcript-dir", str(tmp_path / "host")],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    join = None
    try:
        seen = b""
        deadline = time.monotonic() + 20
        found = None
        while time.monotonic() < deadline and not (found and b"Round 1/12" in seen):
            if select.select([master], [], [], 0.1)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
            text = re.sub(r"\x1b\[[0-9;]*m", "", seen.decode(errors="replace"))
            found = found or re.search(r"jupai join (127\.0\.0\.1:\d+) --code (\w{5}-\w{5})", text)
            if found and join is None:
                join = Running(["join", found[1], "--bot", "random", "--code", found[2]], env)
        assert join is not None and b"Round 1/12" in seen, seen[-2000:]
        os.close(master)  # the terminal window is gone
        master = -1
        host.send_signal(signal.SIGHUP)
        assert host.wait(20) == 128 + signal.SIGHUP
        log_text = (tmp_path / "config" / "host.log").read_text()
        assert "host stopped by SIGHUP" in log_text
        assert "abandoned: the host was stopped (its terminal was closed)" in log_text
        assert "Traceback" not in log_text and "ERROR" not in log_text
        copies = sorted((tmp_path / "host").glob("*.jupai"))
        assert len(copies) == 2 and all(read_and_verify(str(p)).status == "suspicious" for p in copies)
        assert join.finish(20) == 1
        out = _one_line(join.text)
        assert "the host was stopped (its terminal was closed)" in out, out
        assert "SSL" not in out + join.stderr
    finally:
        if master >= 0:
            os.close(master)
        if host.poll() is None:
            host.kill()
            host.wait()
        if join is not None:
            join.kill()


def test_a_host_that_dies_is_connection_lost_never_openssl_text(tmp_path):
    """`kill -9` of the host: the client says "Connection to the host lost", not
    `[SSL: UNEXPECTED_EOF_WHILE_READING]`; exit 6."""
    host, addr, code = start_host(tmp_path, "--seats", "3")
    procs = [host]
    try:
        join = Running(["join", addr, "--bot", "random", "--code", code], env_for(tmp_path))
        procs.append(join)
        host.wait_for(r"took seat 0")
        host.kill()
        assert join.finish(20) == 6
        out = _one_line(join.text)
        assert "Connection to the host lost: the connection broke without a goodbye from the host." in out, out
        assert "SSL" not in out + join.stderr and "Traceback" not in join.stderr
    finally:
        for p in procs:
            p.kill()


# ------------------------------------------------------------------ what the host logs


def test_a_wrong_join_code_is_one_warning_line_in_host_log(tmp_path):
    host, addr, code = start_host(tmp_path, "--seats", "2")
    try:
        wrong = "00000-00000" if code != "00000-00000" else "11111-11111"
        for _ in range(3):
            out = subprocess.run(JUPAI + ["join", addr, "--code", wrong, "--bot", "random"], env=env_for(tmp_path),
                                 capture_output=True, text=True, timeout=30)
            assert out.returncode == 4, out.stdout + out.stderr
        deadline = time.monotonic() + 10
        log_path = tmp_path / "config" / "host.log"
        while time.monotonic() < deadline and (not log_path.exists() or log_path.read_text().count("\n") < 3):
            time.sleep(0.05)
        lines = log_path.read_text().splitlines()
        assert len(lines) == 3, lines
        assert all(" WARNING " in line and "the client refused this host before its hello" in line
                   and "host-refused" in line for line in lines), lines
    finally:
        host.kill()


async def test_a_disconnect_before_hello_is_info_connection_lost(caplog):
    caplog.set_level(logging.INFO, logger="jupai.host")
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, host_config(2, games=None))
        for _ in range(3):
            raw = await RawClient.connect(server.port)
            await raw.aclose()
        with trio.fail_after(5):
            while sum("connection lost before the hello" in r.getMessage() for r in caplog.records) < 3:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert server.stats["internal_errors"] == 0
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert "Traceback" not in caplog.text


def test_host_log_is_rotated(tmp_path, monkeypatch):
    from jupai_net.host import cli as host_cli

    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    try:
        host_cli.setup_logging(0)
        added = [h for h in root.handlers if h not in before]
        line = "x" * 1000
        for _ in range(5000):  # ~5 MB of warnings
            logging.getLogger("jupai.host").warning(line)
    finally:
        for h in added:
            h.close()
            root.removeHandler(h)
        root.setLevel(level)
    sizes = {p.name: p.stat().st_size for p in tmp_path.glob("host.log*")}
    assert set(sizes) == {"host.log", "host.log.1", "host.log.2", "host.log.3"}, sizes
    assert all(size <= host_cli.LOG_MAX_BYTES for size in sizes.values()), sizes
