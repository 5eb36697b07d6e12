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


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch):
    """Every test starts in an English locale (a developer's zh_CN locale would otherwise
    turn every command's text Chinese); tests of Chinese set --lang or LANG themselves."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
