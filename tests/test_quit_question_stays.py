"""``Leave? [y/N]`` stays on screen until it is answered (issue 12, trial13 screens 15
and 57): asked at her turn in a dealer-blind game with another person at the table, the
turn timer's once-a-second redraw of the prompt line drew over the question (en showed
no question, zh left ``⏱ 剩余 10 秒 > N]``) and the screen drawn after the time-out
dropped it. Now the question is the prompt until answered (``⏱ 27 s left Leave? [y/N]``),
drawn again under every redraw — through ``jupai join`` on a 60×24 terminal."""

from __future__ import annotations

import re

import pytest

from .pty_helpers import PtyJupai
from .test_net_hardening import HostProcess
from .test_net_play import env_for

#: the timer's in-place rewrite of the prompt line: save the cursor, line start, …, restore
_TICK = re.compile(r"\x1b7\r(.*?)\x1b8", re.S)
_ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
QUESTION = {"en": "Leave? [y/N]", "zh": "确定离开吗？[y/N]"}
WHY = {"en": r"Leaving ends this game for everyone: the deal is\s+dealer-blind, so nobody else can play your cards\.",
       # broken where the line is full, the last line never one character (`牌。` alone)
       "zh": r"离开会让所有人的这一局结束：这局是庄家盲发，没有人能替你\s*出\s*牌。"}
LEFT = {"en": "s left", "zh": "秒"}


def _join(tmp_path, host, name: str, lang: str, seat: int, columns: int = 60) -> PtyJupai:
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / name))
    return PtyJupai(["join", host.addr, "--code", host.code, "--name", name, "--lang", lang, "--seat", str(seat)],
                    env, rows=24, columns=columns)


@pytest.mark.parametrize("lang", ["zh"])  # the code is the same in English (screen 57)
def test_the_leave_question_outlives_the_timer_and_the_time_out(tmp_path, lang):
    """Ann (``lang``) types /quit at her timed turn: the question's reason and the
    question are shown; every tick of the timer rewrites the question's line with the
    question on it; the time-out (the client's default move) and the screens after it keep the
    question under the table; ``y`` then leaves."""
    host = HostProcess(tmp_path, "--no-announce", "--dealer", "blind", "--seats", "3", "--bots", "1",
                       "--bot-delay", "0", "--rounds", "2", "--turn-timeout", "3", "--games", "1")
    ann = bob = None
    try:
        ann, bob = _join(tmp_path, host, "Ann", lang, 0), _join(tmp_path, host, "Bob", "en", 1, 100)
        ann.wait_for(LEFT[lang] + r" > ", timeout=40)  # her turn, with its timer
        raw_at = len(ann._raw)
        seen = ann.mark()
        ann.type("/quit\r")
        ann.wait_for(WHY[lang] + r"\s*⏱[^>]*" + re.escape(QUESTION[lang]), after=seen)
        # nobody answered: the turn timed out (the client played its default move) and the
        # screen drawn after it asks again — the question alone on its line, without the timer
        ann.wait_for(r"(?m)^" + re.escape(QUESTION[lang]), after=seen, timeout=20)
        raw = bytes(ann._raw[raw_at:]).decode("utf-8", "replace")
        ticks = [_ESC.sub("", m[1]) for m in _TICK.finditer(raw.split("/quit", 1)[-1])]
        assert ticks, raw[-2000:]  # the timer ticked while the question waited
        assert all(QUESTION[lang] in tick for tick in ticks), ticks
        # a redraw (the screen cleared) after the question shows it again, with its reason
        screens = raw.split("/quit", 1)[-1].split("\x1b[2J")
        for screen in screens[1:]:
            assert QUESTION[lang] in _ESC.sub("", screen), screen[-1500:]
        assert " > N]" not in ann.text and "> N]" not in ann.text
        seen = ann.mark()
        ann.type("y\r")
        ann.wait_for({"en": r"Leaving the table: the host ends this game for everyone\.",
                      "zh": r"正在离开牌桌：主机将结束所有人的这一局。"}[lang], after=seen)
        code = ann.finish(30)
    finally:
        for p in (ann, bob):
            if p is not None:
                p.kill()
        host.kill()
    assert code == 1, ann.text[-2000:]  # left during the game: unverified
    assert "Traceback" not in ann.text
