"""`jupai play --plain` after a turn timed out (specs/client.md § Plain output): the
next line the person types is read by the next question, not lost — through the
command on a pseudo-terminal."""

from __future__ import annotations

import re
import time

from .test_client_cli import Terminal, _env
from .test_net_play import JUPAI

PROMPT = r"Type (?:a number 1–\d+|1) and Enter"


def test_a_line_typed_after_a_timed_out_turn_is_not_lost(tmp_path):
    """Ann lets her first turn time out (the host plays it), then types ``?`` at her
    next turn: the help is printed. Before, the read of the timed-out turn went on in a
    thread that nobody waited for any more, took that line and dropped it: the help
    (or a move, or Enter at "ready for the next game?") had to be typed twice."""
    env = _env(tmp_path, "config")
    env.update(COLUMNS="100", LINES="40", JUPAI_NO_MULTICAST="1")
    term = Terminal(JUPAI + ["play", "--plain", "--seats", "2", "--rounds", "3", "--turn-timeout", "1.5",
                             "--dealer", "trusted", "--bot-delay", "0.05", "--name", "Ann"], env, rows=40, cols=100)
    try:
        term.expect(PROMPT, timeout=30)
        asked = len(re.findall(PROMPT, term.text))
        end = time.monotonic() + 30  # nothing typed: the turn times out, the next one comes
        while len(re.findall(PROMPT, term.text)) <= asked:
            assert time.monotonic() < end and term.read() is not False, term.text[-2000:]
        time.sleep(0.3)
        term.read()
        mark = len(term.text)
        term.type("?")
        end = time.monotonic() + 10
        while "how to play" not in term.text[mark:]:
            assert time.monotonic() < end, "the line typed after the time-out was lost:\n" + term.text[-2000:]
            term.read()
        term.type("/quit")
        term.wait(15)
        assert "Traceback" not in term.text
    finally:
        term.close()
