"""Files a person wrote, read through the commands they type (issue 8 §3): a house-rules
file saved as GBK (the default of Chinese editors on Windows), UTF-16 or Latin-1 gets
one sentence naming the file and exit 2 from every command that reads it; a UTF-8
byte order mark is fine (jupai_net.textfile)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from jupai_net.textfile import TextFileError, guess_encoding, read_text_file

JUPAI = [sys.executable, "-m", "jupai_net"]

RULES = "# 房规：三人局，八轮\nplayers = 3\nrounds = 8\n"

#: Every command that takes --rules FILE (argv after the file).
RULES_COMMANDS = {
    "rules": ["rules", "--rules"],
    "simulate": ["simulate", "--games", "2", "--rules"],
    "host": ["host", "--port", "0", "--bind", "127.0.0.1", "--rules"],
    "play": ["play", "--bot", "random", "--rules"],
}


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, JUPAI_CONFIG_DIR=str(tmp_path / "config"), COLUMNS="80", LANG="C.UTF-8",
                PYTHONIOENCODING="utf-8")


def _run(argv: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(JUPAI + argv, capture_output=True, text=True, timeout=30, env=_env(tmp_path),
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("command", sorted(RULES_COMMANDS))
def test_a_gbk_rules_file_is_named_with_its_encoding(command, tmp_path):
    path = tmp_path / "房规 gbk.toml"
    path.write_bytes(RULES.encode("gbk"))
    out = _run(RULES_COMMANDS[command] + [str(path)], tmp_path)
    assert out.returncode == 2, out
    assert f"{path} is not UTF-8 (it looks like GBK): save it as UTF-8" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    assert out.stderr.count("\n") == 1  # one sentence


@pytest.mark.parametrize("data, expected", [
    (RULES.encode("utf-16"), "(it looks like UTF-16)"),
    (b"players = 3\n# caf\xe9\n", "(byte 0xe9 at offset 17 is not UTF-8)"),
])
def test_other_encodings_get_the_same_kind_of_sentence(data, expected, tmp_path):
    path = tmp_path / "house.toml"
    path.write_bytes(data)
    out = _run(["rules", "--rules", str(path)], tmp_path)
    assert out.returncode == 2
    assert f"{path} is not UTF-8 {expected}: save it as UTF-8" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_utf8_file_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + RULES.encode())
    out = _run(["rules", "--rules", str(path)], tmp_path)
    assert out.returncode == 0, out.stderr
    assert "LFF" in out.stdout  # the default identities of a 3-player table


def test_guess_encoding():
    assert guess_encoding("房规：三人局".encode("gbk")) == "GBK"
    assert guess_encoding("房規：三人局，八輪".encode("gb18030")) == "GBK"  # traditional characters, GBK only
    assert guess_encoding("héllo wörld".encode("latin-1")) is None
    assert guess_encoding("x".encode("utf-16")) == "UTF-16"


def test_read_text_file_errors(tmp_path):
    assert read_text_file(tmp_path / "none", missing_ok=True) is None
    with pytest.raises(TextFileError, match="cannot read .*none"):
        read_text_file(tmp_path / "none")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(TextFileError, match="larger than 100 bytes"):
        read_text_file(big, limit=100)


def test_a_gbk_known_hosts_file_is_a_clear_sentence(tmp_path):
    from jupai_net.client.known_hosts import KnownHosts, KnownHostsError

    path = tmp_path / "known_hosts"
    path.write_bytes("# 我的主机\n".encode("gbk"))
    with pytest.raises(KnownHostsError, match="is not UTF-8 \\(it looks like GBK\\): save it as UTF-8"):
        KnownHosts(path).entries()
