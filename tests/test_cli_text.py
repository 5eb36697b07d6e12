"""The command line as a person meets it (issue 12 § Command line, specs/client.md §
Command line), through the real command: every --help has a description and
examples in both languages, usage errors start with ``jupai COMMAND:`` and exit 2,
and a house-rules file with several mistakes gets all of them at once."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from jupai_net.cli import SUBCOMMANDS


def jupai(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jupai_net", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=60)


THREE_MISTAKES = """\
players = 4
suply-number = 4          # a typo of supply-number
round-value = "rnak"      # ordinal or rank
hand-size = 30            # 1-10
"""


@pytest.mark.parametrize("command", [["rules"], ["host", "--no-announce"], ["simulate", "--games", "2"]])
def test_a_rules_file_with_three_mistakes_reports_all_of_them(tmp_path, command):
    path = tmp_path / "house.toml"
    path.write_text(THREE_MISTAKES, encoding="utf-8")
    proc = jupai(*command, "--rules", str(path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == f"jupai {command[0]}: {path} has 3 mistakes:"
    assert lines[1:] == ["  suply-number: unknown setting (did you mean 'supply-number'?)",
                         "  round-value: must be one of ordinal, rank, got 'rnak'",
                         "  hand-size: must be 1-10, got 30"]


def test_rules_file_mistakes_in_chinese_keep_the_files_keys(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(THREE_MISTAKES.replace("hand-size", "hand_size"), encoding="utf-8")
    proc = jupai("rules", "--rules", str(path), "--lang", "zh")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [f"jupai rules: {path} 有 3 处错误：",
                                        "  suply-number: 没有这项设置（是不是“supply-number”？）",
                                        "  round-value: 必须是 ordinal, rank 之一，这里是 'rnak'",
                                        "  hand_size: 必须在 1-10 之间，这里是 30"]


def test_a_mistake_of_the_settings_together_names_the_files_key(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("players = 6\nrounds = 30\n", encoding="utf-8")
    proc = jupai("rules", "--rules", str(path))
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[1].startswith("  rounds: at most 11 rounds fit a 6-player table")


def test_a_good_rules_file_shows_the_rules_in_chinese(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('round-value = "rank"\n', encoding="utf-8")
    proc = jupai("rules", "--rules", str(path), "--lang", "zh")
    assert proc.returncode == 0, proc.stderr
    assert "生效的规则" in proc.stdout and "rank" in proc.stdout and "含义" in proc.stdout
