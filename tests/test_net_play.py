"""The commands end to end, in real processes: ``jupai play`` (bot demo and a person
typing numbers) and ``jupai host`` with two ``jupai join --bot`` clients
(specs/host.md §2, §11)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jupai_net.fairness import VERIFIED
from jupai_net.fairness.cli import read_and_verify

JUPAI = [sys.executable, "-m", "jupai_net"]


def env_for(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, JUPAI_CONFIG_DIR=str(tmp_path / "config"), COLUMNS="100", LANG="C.UTF-8",
                PYTHONIOENCODING="utf-8")


def test_play_bot_demo_finishes_and_verifies(tmp_path):
    out = subprocess.run(JUPAI + ["play", "--bot", "random", "--rounds", "4", "--transcript", str(tmp_path / "t.jupai")],
                         capture_output=True, text=True, timeout=60, env=env_for(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "final ranking" in out.stdout and "fairness: verified" in out.stdout
    assert read_and_verify(str(tmp_path / "t.jupai")).status == VERIFIED
    # the host identity was made once in the config dir
    assert (tmp_path / "config" / "host-cert.pem").exists()


def test_play_a_person_typing_numbers_finishes_a_game(tmp_path):
    """``--plain``: the numbered moves on stdout, a number per line on stdin."""
    lines = "".join("1\n" for _ in range(400))
    out = subprocess.run(JUPAI + ["play", "--plain", "--rounds", "3", "--bot-delay", "0", "--seats", "3"],
                         input=lines, capture_output=True, text=True, timeout=60, env=env_for(tmp_path))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    assert re.search(r"^\s+1\. ", out.stdout, re.M)  # the moves were offered, numbered
    assert "game over" in out.stdout and "fairness: verified" in out.stdout
    paths = list((tmp_path / "config" / "transcripts").glob("*.jupai"))
    assert len(paths) == 1 and read_and_verify(str(paths[0])).status == VERIFIED


def test_play_leaving_early_is_not_a_verified_game(tmp_path):
    out = subprocess.run(JUPAI + ["play", "--plain", "--rounds", "6"], input="/quit\n",
                         capture_output=True, text=True, timeout=60, env=env_for(tmp_path))
    assert out.returncode == 1
    assert "game not finished (left" in out.stdout


def test_host_and_two_joins_in_separate_processes(tmp_path):
    env = env_for(tmp_path)
    host = subprocess.Popen(JUPAI + ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "3", "--bots", "1",
                                     "--bot-delay", "0", "--rounds", "4", "--transcript-dir", str(tmp_path / "host")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert host.stdout is not None
        banner = ""
        deadline = time.monotonic() + 20
        while "host key" not in banner and time.monotonic() < deadline:
            banner += host.stdout.readline()
        addr = re.search(r"jupai join (127\.0\.0\.1:\d+) --code (\w{5}-\w{5})", banner)
        assert addr, banner
        joins = [
            subprocess.Popen(JUPAI + ["join", addr[1], "--bot", "random", "--code", addr[2], "--name", name,
                                      "--transcript", str(tmp_path / f"{name}.jupai")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            for name in ("alice", "bob")
        ]
        for j in joins:
            out, err = j.communicate(timeout=60)
            assert j.returncode == 0, out + err
        rest, _ = host.communicate(timeout=30)
    finally:
        if host.poll() is None:
            host.kill()
    assert host.returncode == 0
    assert "game over" in rest
    for name in ("alice", "bob"):
        assert read_and_verify(str(tmp_path / f"{name}.jupai")).status == VERIFIED
    host_copies = sorted((tmp_path / "host").glob("*.jupai"))
    assert len(host_copies) == 3 and all(read_and_verify(str(p)).status == VERIFIED for p in host_copies)


@pytest.mark.parametrize("argv, message", [
    (["host", "--seats", "4", "--bots", "4"], "bots must be 0..3"),
    (["host", "--seats", "9"], "players"),
    (["play", "--rules", "/nonexistent.toml"], "cannot read"),
])
def test_bad_arguments_exit_2_with_a_clear_message(argv, message, tmp_path):
    out = subprocess.run(JUPAI + argv, capture_output=True, text=True, timeout=30, env=env_for(tmp_path))
    assert out.returncode == 2 and message in out.stderr


def test_host_on_a_busy_port_exits_3(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run(JUPAI + ["host", "--bind", "127.0.0.1", "--port", str(port)],
                             capture_output=True, text=True, timeout=30, env=env_for(tmp_path))
    assert out.returncode == 3 and f"cannot listen on port {port}" in out.stderr
    assert "Traceback" not in out.stderr
