"""The last defects of a fresh user's trial of the evening (issue 12), each checked
through the command a user types, in English and in Chinese: a rejoin says welcome back
once, spectators and players read the same outcome words, the LAN list and the table
picker, the host banner, Chinese name lists, abandon reasons in the client's language,
`jupai join --seat 9`, the spectator's verify command, help and the host console at 60
columns, the scoreboard after an abandoned game."""

from __future__ import annotations

import os
import re
import signal

import pytest

from .test_client_cli import ANSI, Terminal
from .test_net_play import JUPAI, env_for, start_host

CLEAR = "\x1b[2J"


def last_screen(term: Terminal) -> str:
    """What the terminal window shows at the end: the output after the last screen
    clear, colours removed, white space folded."""
    raw = term.raw.decode("utf-8", "replace")
    return " ".join(ANSI.sub("", raw[raw.rfind(CLEAR) + len(CLEAR):]).split())


# ------------------------------------------------------------------ 1. welcome back, once


@pytest.mark.parametrize("lang, welcome", [("en", "Welcome back: you were seat 0"), ("zh", "欢迎回来")])
def test_a_rejoin_says_welcome_back_once_on_the_last_screen(tmp_path, lang, welcome):
    """`jupai join` in an 80×24 terminal, killed with SIGKILL mid-game, the same command
    again: the game goes on and ends; the window then says "welcome back" once (the
    final game screen kept it among its notices and the ending repeated it: twice)."""
    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--bot-delay", "0.2", "--rounds", "3",
                                  "--games", "1")
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "player"), COLUMNS="80", LINES="24",
               TERM="xterm-256color")
    command = ["join", addr, "--code", code, "--name", "Ann", "--lang", lang]
    procs: list = []
    try:
        first = Terminal(JUPAI + command, env, rows=24, cols=80)
        procs.append(first)
        first.expect(r"(Round|第) 1")  # dealt: the seat has a game to come back to
        first.proc.send_signal(signal.SIGKILL)
        first.wait(10)
        again = Terminal(JUPAI + command, env, rows=24, cols=80)
        procs.append(again)
        again.play_until(r"(s left|秒) >", r"EXIT|(final scoreboard|最终积分榜)", timeout=60)
        assert again.wait(20) == 0, again.text[-3000:]
        assert welcome in again.text
        screen = last_screen(again)
        assert screen.count(welcome) == 1, screen
    finally:
        for p in procs:
            p.close()
        host.kill()
    assert os.path.exists(tmp_path / "player")
