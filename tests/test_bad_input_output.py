"""Standard output a person points somewhere odd, through the commands they type (issue
8 §3): a stdout that is not UTF-8 (``PYTHONIOENCODING=gbk``/``cp1252``), a reader that
closes the pipe early (``| head -c 5``), and a transcript path with a space in the
"check it again" command (jupai_net.stdio, client.render.shell_quote)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from jupai_net.fairness import VERIFIED
from jupai_net.fairness.cli import read_and_verify
from jupai_net.stdio import EXIT_BROKEN_PIPE, ascii_mark

JUPAI = [sys.executable, "-m", "jupai_net"]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path / "config"), "COLUMNS": "100", "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8", **extra}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tuple[Path, str]:
    """``jupai play`` with a bot in the player's seat: the transcript (in a folder whose
    name has a space, as Windows user names do) and what the command printed."""
    tmp = tmp_path_factory.mktemp("game")
    path = tmp / "Ann Lee" / "game one.jupai"
    out = subprocess.run(JUPAI + ["play", "--bot", "random", "--rounds", "2", "--seats", "2", "--transcript",
                                  str(path)], capture_output=True, text=True, timeout=60, env=_env(tmp))
    assert out.returncode == 0, out.stderr
    return path, out.stdout


@pytest.fixture(scope="module")
def transcript(game) -> Path:
    return game[0]


@pytest.mark.parametrize("encoding, lang, verified", [("gbk", "zh", "v 公平性：已验证"),
                                                      ("cp1252", "en", "v fairness: verified")])
def test_play_plain_on_a_non_utf8_stdout_finishes_with_ascii_marks(encoding, lang, verified, tmp_path):
    path = tmp_path / "t.jupai"
    out = subprocess.run(JUPAI + ["play", "--plain", "--lang", lang, "--rounds", "2", "--seats", "2",
                                  "--bot-delay", "0", "--transcript", str(path)],
                         input=b"1\n" * 200, capture_output=True, timeout=60, env=_env(tmp_path, PYTHONIOENCODING=encoding))
    err = out.stderr.decode(encoding)
    text = out.stdout.decode(encoding)  # every byte written is valid in the encoding
    assert out.returncode == 0, err
    assert "Traceback" not in err and "UnicodeEncodeError" not in err
    assert verified in text  # ✔ → v; Chinese kept where the encoding has it (GBK)
    assert "♠" not in text and any(f"{r}{s}" in text for r in "A23456789JQK" for s in "shdc")  # 7♣ → 7c
    assert read_and_verify(str(path)).status == VERIFIED


@pytest.mark.parametrize("encoding, json", [("gbk", False), ("cp1252", True)])
def test_verify_on_a_non_utf8_stdout(encoding, json, transcript, tmp_path):
    out = subprocess.run(JUPAI + ["verify", str(transcript)] + (["--json"] if json else []), capture_output=True,
                         timeout=60, env=_env(tmp_path, PYTHONIOENCODING=encoding))
    assert out.returncode == 0, out.stderr.decode(encoding)
    assert b"Traceback" not in out.stderr
    assert ("verified" if json else "VERIFIED") in out.stdout.decode(encoding)


def test_ascii_marks():
    assert [ascii_mark(c) for c in "✔♠♥⚔é中"] == ["v", "s", "h", "!", "e", "?"]


def _closed_pipe_run(argv: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    """Run ``jupai ARGV`` with stdout a pipe whose reader is already gone."""
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run(JUPAI + argv, stdout=w, stderr=subprocess.PIPE, text=True, timeout=60,
                              env=_env(tmp_path), stdin=subprocess.DEVNULL)
    finally:
        os.close(w)


@pytest.mark.parametrize("argv", [
    ["verify", "--json", "{t}"],
    ["verify", "{t}"],
    ["rules"],
    ["simulate", "--games", "3", "--json"],
    ["play", "--bot", "random", "--rounds", "2", "--seats", "2"],
], ids=lambda a: " ".join(a))
def test_a_pipe_closed_early_ends_quietly(argv, transcript, tmp_path):
    out = _closed_pipe_run([a.replace("{t}", str(transcript)) for a in argv], tmp_path)
    assert out.returncode == EXIT_BROKEN_PIPE, out.stderr
    assert "Error" not in out.stderr and "Exception" not in out.stderr, out.stderr  # no traceback


def test_head_c_5_through_a_shell(transcript, tmp_path):
    """What the person types: ``jupai verify --json FILE | head -c 5``."""
    cmd = f"{shlex.join(JUPAI)} verify --json {shlex.quote(str(transcript))} | head -c 5"
    out = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert out.stdout == "{\n  \""
    assert out.stderr == ""


def test_the_check_again_command_works_when_pasted_with_a_space_in_the_path(game, tmp_path):
    path, stdout = game
    lines = stdout.splitlines()
    start = [k for k, line in enumerate(lines) if "Check it again" in line][0] + 1
    command = lines[start].strip()
    if command.endswith(" \\"):  # wider than the terminal: cut after verify, the path on the next line
        command += "\n" + lines[start + 1]
    assert shlex.quote(str(path)) in command
    pasted = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert pasted.returncode == 0, (command, pasted.stdout, pasted.stderr)
    assert "VERIFIED" in pasted.stdout
