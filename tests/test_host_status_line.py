"""The host console's status line says where the game is while one runs (issue 12,
trial of main: it said ``lobby 3 of 3 seats taken`` during a game; specs/host.md § 8)."""

from __future__ import annotations

import re

import pytest

from jupai_net.host.cli import game_status

from .test_net_play import Running, env_for, start_host


@pytest.mark.parametrize("lang, line", [
    ("en", r"game 1 of 2, round \d+/6 · 0 random bot \(bot\) \(away\) · 1 greedy bot 1 \(bot\)"),
    ("zh", r"第 1/2 局，第 \d+/6 回合 · 0 随机机器人（机器人）（离线） · 1 贪心机器人 1（机器人）"),
])
def test_a_player_who_drops_mid_game_gets_a_game_status_line(tmp_path, lang, line):
    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--rounds", "6", "--games", "2",
                                  "--bot-delay", "0.5", "--no-announce", "--lang", lang)
    procs = [host]
    try:
        join = Running(["join", addr, "--bot", "random", "--code", code], env_for(tmp_path))
        procs.append(join)
        mark = len(host.lines)
        host.wait_for(r"game \w+ starts" if lang == "en" else r"对局 \w+ 开始", after=mark)
        host.wait_for(r"Round 1:|第 1 回合：", after=mark)  # inside the game
        join.proc.kill()  # gone without a goodbye: away
        found = host.wait_for(line, after=mark)
        assert ("lobby" if lang == "en" else "大厅") not in host.text[host.text.index(found.group(0)) - 40:]
        assert "✓" not in found.group(0)
    finally:
        for p in procs:
            p.kill()


def test_game_status_words():
    assert game_status({"phase": "seeding", "game": 3, "games": None, "round": 0, "rounds": 8}, "en") == "game 3: dealing"
    assert game_status({"phase": "playing", "game": 2, "games": 3, "round": 4, "rounds": 8}, "zh") == "第 2/3 局，第 4/8 回合"
    assert game_status({"phase": "auditing", "game": 1, "games": 1, "round": 8, "rounds": 8}, "en") == \
        "game 1 of 1: checking the deal"
