"""Test-wide fixtures: nothing a test does may touch the user's real config folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory, monkeypatch):
    """Point JUPAI_CONFIG_DIR (certificates, known hosts, transcripts, sessions) at a
    fresh temporary folder for every test, so runs never write into ~/.config/jupai."""
    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path_factory.mktemp("jupai-config")))
    # no test announces or browses the LAN on a real interface (multicast DNS): only the
    # network-namespace test turns it back on, inside namespaces it made itself
    monkeypatch.setenv("JUPAI_NO_MULTICAST", "1")
