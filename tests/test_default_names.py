"""The player's default name and the table's default name come from one rule
(jupai_net.config.default_name; specs/host.md § 2), also with ``USER`` and ``LOGNAME``
unset (issue 12, trial of main: the player was ``player`` but the table ``root's table``)."""

from __future__ import annotations

import json
import os
import pwd
import subprocess

import pytest

from .cli_helpers import JUPAI, jupai
from .test_net_play import Running

#: the account of this process's user id: what a person logged in as expects to be called
ACCOUNT = pwd.getpwuid(os.getuid()).pw_name


def bare_env(tmp_path) -> dict[str, str]:
    """The environment of ``env -u USER -u LOGNAME`` (and no LNAME/USERNAME either),
    with a config folder of the test's own."""
    env = {k: v for k, v in os.environ.items() if k not in ("USER", "LOGNAME", "LNAME", "USERNAME")}
    return {**env, "JUPAI_CONFIG_DIR": str(tmp_path / "config"), "COLUMNS": "100", "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8"}


@pytest.mark.parametrize("lang, table", [("en", f"{ACCOUNT}'s table"), ("zh", f"{ACCOUNT} 的牌桌")])
def test_jupai_host_names_its_table_after_the_account_without_user_or_logname(tmp_path, lang, table):
    host = Running(["host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--lang", lang], bare_env(tmp_path))
    try:
        host.wait_for("大厅" if lang == "zh" else "lobby")
    finally:
        host.kill()
    assert table in host.text, host.text
    assert "player's table" not in host.text and "player 的牌桌" not in host.text


def test_jupai_play_seats_the_player_and_names_the_table_by_the_same_rule(tmp_path):
    env = bare_env(tmp_path)
    out = subprocess.run(JUPAI + ["play", "--bot", "random", "--seats", "2", "--rounds", "2", "--transcript",
                                  str(tmp_path / "games" / "t.jupai")], capture_output=True, text=True, timeout=60,
                         env=env)
    assert out.returncode == 0, out.stderr
    assert f"{ACCOUNT} (you)" in out.stdout, out.stdout  # the scoreboard names the player
    games = json.loads(jupai("history", "--dir", str(tmp_path / "games"), "--json", env=env).stdout)
    assert [(g["table"], g["players"][0]) for g in games] == [(f"{ACCOUNT}'s table", ACCOUNT)]


def test_the_settings_name_names_the_player_and_the_hosts_table(tmp_path):
    env = bare_env(tmp_path)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('name = "小明"\n', encoding="utf-8")
    host = Running(["host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--lang", "zh"], env)
    try:
        host.wait_for("大厅")
    finally:
        host.kill()
    assert "小明 的牌桌" in host.text, host.text
    name_line = next(line for line in jupai("config", "--lang", "en", env=env).stdout.splitlines()
                     if line.split()[:1] == ["name"])
    assert "小明" in name_line and "[default]" not in name_line, name_line
