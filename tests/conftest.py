"""Test-wide fixtures: nothing a test does may touch the user's real config folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory, monkeypatch):
    """Point JUPAI_CONFIG_DIR (certificates, known hosts, transcripts, sessions) at a
    fresh temporary folder for every test, so runs never write into ~/.config/jupai."""
    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path_factory.mktemp("jupai-config")))
