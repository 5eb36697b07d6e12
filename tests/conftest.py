"""Test-wide fixtures: nothing a test does may touch the user's real config folder."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest


def _bytecode_cache_for_this_run() -> None:
    """With ``PYTHONDONTWRITEBYTECODE`` set (as on the development machine and in CI),
    every ``jupai`` subprocess a test starts compiled the whole package from source again
    (about 0.3 s of CPU each, hundreds of subprocesses a run) and every xdist worker
    rewrote every test module's asserts again. Bytecode goes instead to a private folder
    for this run (``PYTHONPYCACHEPREFIX``; nothing is written into the source tree),
    removed at the end. Runs once, in the process that starts the run: the xdist workers
    and the subprocesses inherit the environment. A prefix the user set is kept, as is
    ``PYTHONDONTWRITEBYTECODE`` then."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    folder = tempfile.mkdtemp(prefix="jupai-tests-pycache-")
    atexit.register(shutil.rmtree, folder, True)
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    del os.environ["PYTHONDONTWRITEBYTECODE"]


_bytecode_cache_for_this_run()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (pyproject's addopts) starts two workers per core, not one: much of
    the suite waits rather than computes — on ``jupai`` subprocesses and their TLS
    handshakes, bots' delays, turn and idle time-outs — so one worker per core left the
    cores idle (CI at load 1–2: 380 s of wall time on 2 cores; the whole suite needs
    about 490 s of CPU, under 2 × 380). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides
    when set (None here: xdist's own rule reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return 2 * cores


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory, monkeypatch):
    """Point JUPAI_CONFIG_DIR (certificates, known hosts, transcripts, sessions) at a
    fresh temporary folder for every test, so runs never write into ~/.config/jupai."""
    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path_factory.mktemp("jupai-config")))
    # no test announces or browses the LAN on a real interface (multicast DNS): only the
    # network-namespace test turns it back on, inside namespaces it made itself
    monkeypatch.setenv("JUPAI_NO_MULTICAST", "1")


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch):
    """Every test starts in an English locale (a developer's zh_CN locale would otherwise
    turn every command's text Chinese); tests of Chinese set --lang or LANG themselves."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
