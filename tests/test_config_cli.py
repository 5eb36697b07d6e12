"""``config.toml`` and ``jupai config`` (specs/client.md § Settings), through the commands."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest


def jupai(tmp_path, *argv, lang="en_US.UTF-8"):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(JUPAI_CONFIG_DIR=str(tmp_path), LANG=lang, COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "jupai_net", *argv], capture_output=True, text=True, timeout=120,
                          env=env, stdin=subprocess.DEVNULL)


def test_show_init_and_refuse_to_overwrite(tmp_path):
    shown = jupai(tmp_path, "config")
    assert shown.returncode == 0
    assert f"settings file: {tmp_path / 'config.toml'} (none yet" in shown.stdout
    assert "opponents  greedy  [default]" in shown.stdout
    made = jupai(tmp_path, "config", "--init")
    assert made.returncode == 0 and (tmp_path / "config.toml").read_text().startswith("# jupai settings")
    assert jupai(tmp_path, "config").returncode == 0  # the template, all commented out, is valid
    again = jupai(tmp_path, "config", "--init")
    assert again.returncode == 2 and "exists already" in again.stderr


def test_every_problem_at_once_with_the_nearest_key(tmp_path):
    (tmp_path / "config.toml").write_text('nmae = "x"\nlang = "fr"\nopponents = 3\n', encoding="utf-8")
    for argv in (["config"], ["history"], ["join", "127.0.0.1:1"], ["play", "--bot", "random"]):
        proc = jupai(tmp_path, *argv)
        assert proc.returncode == 2, (argv, proc.stdout, proc.stderr)
        err = " ".join(proc.stderr.split())
        assert err.startswith(f"jupai {argv[0]}: ")
        assert "unknown setting 'nmae' (did you mean 'name'?)" in err
        assert "lang must be \"zh\" or \"en\", not 'fr'" in err and "opponents must be a string" in err
        assert "Traceback" not in err


@pytest.mark.parametrize("content, message", [
    ("name = \"宝宝\"\n".encode("gbk"), "is not UTF-8 (it looks like GBK): save it as UTF-8"),
    (b"name = ", "is not valid TOML"),
    ('name = "a\\tb"\n'.encode(), "cannot be a name at a table"),
    (b'host = "box:99999"\n', "is not HOST[:PORT]"),
])
def test_bad_files_are_one_sentence(tmp_path, content, message):
    (tmp_path / "config.toml").write_bytes(content)
    proc = jupai(tmp_path, "config")
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_settings_are_used_and_flags_win(tmp_path):
    (tmp_path / "config.toml").write_text('name = "宝宝"\nlang = "zh"\nopponents = "random"\n', encoding="utf-8")
    shown = jupai(tmp_path, "config")
    assert "name       宝宝  [设置文件]" in shown.stdout  # the settings' lang drives jupai config too
    hist = jupai(tmp_path, "history")
    assert "还没有保存的对局" in hist.stdout  # lang from the settings
    assert "No saved game yet" in jupai(tmp_path, "history", "--lang", "en").stdout  # the flag wins
    game = jupai(tmp_path, "play", "--bot", "random", "--seats", "2", "--rounds", "3", "--plain")
    assert game.returncode in (0, 1), game.stderr
    # the name and the opponents from the settings (a bot's name in the run's language, zh)
    assert "宝宝" in game.stdout and "随机机器人" in game.stdout
    # the saved transcript keeps the names (unsigned meta): history and replay show them
    hist = jupai(tmp_path, "history", "--json")
    (entry,) = json.loads(hist.stdout)
    assert entry["players"][0] == "宝宝" and entry["players"][1].startswith("random bot")
    # jupai play names its table after the player, in the run's language; the address apart
    assert entry["table"] == "宝宝 的牌桌" and entry["address"].startswith("127.0.0.1:")
    assert entry["status"] == "verified"
    replay = jupai(tmp_path, "replay", entry["file"], "--all", "--lang", "en")
    assert replay.returncode == 0 and "(random bot" in replay.stdout  # the others by name


@pytest.mark.parametrize("argv, line", [
    (["config", "--lang", "zh"], "  lang       zh  [命令行：--lang；设置文件中为 en] — "),
    (["--lang", "zh", "config"], "  lang       zh  [命令行：--lang；设置文件中为 en] — "),
    (["config", "--lang", "en"], "  lang       en  [command line: --lang] — "),
])
def test_config_shows_the_language_in_force_for_that_command_line(tmp_path, argv, line):
    """Issue 12 (trial of main): ``jupai config --lang zh`` said ``lang en [默认]``."""
    (tmp_path / "config.toml").write_text('lang = "en"\n', encoding="utf-8")
    proc = jupai(tmp_path, *argv)
    assert proc.returncode == 0, proc.stderr
    (shown,) = [x for x in proc.stdout.splitlines() if x.startswith("  lang ")]
    assert shown.startswith(line), shown


def test_config_lang_flag_without_a_file_says_command_line(tmp_path):
    proc = jupai(tmp_path, "config", "--lang", "zh")
    (shown,) = [x for x in proc.stdout.splitlines() if x.startswith("  lang ")]
    assert shown.startswith("  lang       zh  [命令行：--lang] — "), shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_60_column_terminal_gets_whole_words(tmp_path, lang):
    """``jupai config`` on a 60-column terminal broke lines mid-word ('(jupai jo|in'):
    every line fits, every word of the one-line-per-setting output (into a pipe) is
    whole on the terminal, and continuation lines start under the text."""
    from jupai_net.helpformat import cells

    from .pty_helpers import PtyJupai

    (tmp_path / "config.toml").write_text('name = "宝宝"\n', encoding="utf-8")
    piped = jupai(tmp_path, "config", "--lang", lang)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(JUPAI_CONFIG_DIR=str(tmp_path), LANG="C.UTF-8")
    term = PtyJupai(["config", "--lang", lang], env, columns=60)
    try:
        assert term.finish() == 0
    finally:
        term.kill()
    lines = [line for line in term.text.splitlines() if line.strip()]
    assert len(lines) > len(piped.stdout.splitlines()), term.text  # it did wrap
    assert all(cells(line) <= 60 or " " not in line for line in lines), term.text  # a long path stays whole
    assert " ".join(term.text.split()).replace(" ", "") == " ".join(piped.stdout.split()).replace(" ", "")
    latin = {w for w in piped.stdout.split() if w.isascii()}  # a Chinese run may break between characters
    assert latin and latin <= set(term.text.split()), latin - set(term.text.split())
    key_lines = [i for i, line in enumerate(lines) if re.match(r"  (name|lang|opponents|host) ", line)]
    more = [line for i, line in enumerate(lines) if i > key_lines[0] and i not in key_lines]
    assert more and all(line.startswith(" " * 13) and line[13] != " " for line in more), term.text
