"""``jupai host`` as a person meets it (issue 12 leftovers 4, 5; specs/host.md § 2):
at 60 and 80 columns, en and zh, the join command, the join code, the host key and the
certificate fingerprint's groups are never broken across lines or box borders, so a
person can copy the command whole; and Ctrl-C before any game finished shows no
scoreboard, only that no game finished."""

from __future__ import annotations

import re

import pytest

from .test_net_play import Running, env_for

BORDERS = "│╭╮╰╯"


@pytest.mark.parametrize("width, lang", [(60, "en"), (60, "zh"), (80, "en"), (80, "zh")])
def test_the_join_command_and_the_codes_are_whole_at_60_and_80_columns(tmp_path, width, lang):
    env = {**env_for(tmp_path), "COLUMNS": str(width)}
    host = Running(["host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--lang", lang], env)
    try:
        host.wait_for("大厅" if lang == "zh" else "lobby")  # the line under the banner
        assert host.interrupt() == 130
    finally:
        host.kill()
    lines = host.text.splitlines()
    banner = lines[:next(i for i, line in enumerate(lines) if line.startswith(("lobby", "大厅")))]
    assert all(len(line) <= width for line in banner if line.startswith(tuple(BORDERS))), banner
    command = next(line for line in banner if "jupai join 127.0.0.1:" in line)
    m = re.search(r"jupai join 127\.0\.0\.1:\d+ --code [0-9A-Z]{4}(-[0-9A-Z]{4}){3}", command)
    assert m, banner
    if width == 60:  # too long for a row of the box: on its own line after it, nothing else on it
        assert command == m.group(0), banner
        assert ("见框下方" if lang == "zh" else "below the box") in "\n".join(banner)
    else:  # it fits in the box beside its label
        assert command.startswith("│") and ("加入命令" if lang == "zh" else "join with") in command
    code = m.group(0).rsplit(" ", 1)[1]
    assert sum(code in line for line in banner) >= 2  # the code row and the command
    assert any(re.search(r"[0-9a-f]{4}(-[0-9a-f]{4}){4}", line) for line in banner)  # the host key, whole
    groups = [g for line in banner for g in re.findall(r"\b[0-9a-f]{16}\b", line)]
    assert len(groups) == 4, banner  # the certificate fingerprint: 4 whole groups of 16


def test_ctrl_c_before_any_game_finished_shows_no_scoreboard(tmp_path):
    """Ctrl-C at the host while the first game runs: the host (English) and the client
    (Chinese) say that no game finished instead of a "final scoreboard · 1 game" with
    every player at 0 points (issue 12 leftovers 5)."""
    from .test_net_play import start_host

    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--bot-delay", "0.3", "--no-announce")
    procs = [host]
    try:
        join = Running(["join", addr, "--bot", "random", "--code", code, "--lang", "zh"], env_for(tmp_path))
        procs.append(join)
        host.wait_for(r"game \w+ starts")
        assert host.interrupt() == 130
        join.finish(20)
        assert "No game finished, so there is no scoreboard." in host.text, host.text
        assert "没有完成的对局，所以没有积分榜。" in join.text, join.text
        # the host's own stop words are said in the client's language too (ending, verdict)
        assert "主机已停止" in join.text and "the host was stopped" not in join.text + join.stderr, join.text
        for text in (host.text, join.text):
            assert "scoreboard ·" not in text and "积分榜 ·" not in text and "(not in it)" not in text
        assert "Traceback" not in host.stderr + join.stderr
    finally:
        for p in procs:
            p.kill()
