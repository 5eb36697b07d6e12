"""The table's default name in the run's language, the same in the banner, the LAN
announcement, the transcripts and ``--help`` (issue 12, trial of main: the Chinese
banner said ``root's table`` and the Chinese help ``<你的名字>'s table``)."""

from __future__ import annotations

import argparse

import pytest

from .cli_helpers import jupai
from .test_net_play import Running, env_for

NAMES = {"en": "Ann's table", "zh": "Ann 的牌桌"}
UNANNOUNCED = {"en": " (not announced on the LAN)", "zh": "（未在局域网公布）"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_banner_shows_the_default_name_in_the_hosts_language(tmp_path, lang):
    env = {**env_for(tmp_path), "LOGNAME": "Ann", "USER": "Ann"}
    host = Running(["host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--lang", lang], env)
    try:
        host.wait_for("大厅" if lang == "zh" else "lobby")
    finally:
        host.kill()
    assert NAMES[lang] + UNANNOUNCED[lang] in host.text, host.text
    assert ("'s table" in host.text) == (lang == "en")


@pytest.mark.parametrize("lang, default", [("en", "\"<your name>'s table\""), ("zh", "“<你的名字> 的牌桌”")])
def test_the_help_writes_the_default_name_as_the_banner_does(lang, default):
    out = jupai("host", "--help", "--lang", lang, env={"COLUMNS": "80"}).stdout
    assert default in " ".join(out.split()).replace("“ ", "“"), out


def test_the_announced_name_is_the_one_the_banner_shows(monkeypatch):
    from jupai_net.host.cli import host_table_name

    monkeypatch.setenv("LOGNAME", "Ann")
    for lang, name in NAMES.items():
        assert host_table_name(argparse.Namespace(table_name=None), lang) == name
    assert host_table_name(argparse.Namespace(table_name="Friday"), "zh") == "Friday"
