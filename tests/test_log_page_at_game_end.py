"""A seat's ``/log`` page when its game ends (specs/client.md § The game log): the end
closes the page and the final screen is drawn, as on a spectator's screen
(tests/test_watch_cli.py) — through `jupai join` on a pseudo-terminal."""

from __future__ import annotations

import re

from .test_client_cli import Terminal, _env
from .test_net_hardening import HostProcess
from .test_net_play import JUPAI
from .test_watch_cli import _expect_after, open_the_log


def test_the_games_end_closes_a_seats_log_page_and_shows_the_final_ranking(tmp_path):
    """Ann opens ``/log`` and types nothing more: her turns time out (the host plays
    them) and the game ends while the page is open. The final screen (``Final ranking``)
    must be drawn before the question about the next game — before, the page stayed on
    screen, the ranking was never shown, and the page (of a game that was over) stayed
    open into the next game."""
    host = HostProcess(tmp_path, "--seats", "2", "--bots", "1", "--rounds", "2", "--turn-timeout", "1", "--dealer", "trusted",
                       "--bot-delay", "0.05", "--games", "2", "--no-announce")
    env = _env(tmp_path, "config")
    env.update(COLUMNS="80", LINES="24", JUPAI_NO_MULTICAST="1")
    term = Terminal(JUPAI + ["join", host.addr, "--code", host.code, "--name", "Ann"], env, rows=24, cols=80)
    try:
        term.expect(r"Round 1/2", timeout=30)
        mark = open_the_log(term)
        _expect_after(term, mark, r"Ready for the next game\?", timeout=60)
        ending = term.text[mark:]
        ranking = ending.rfind("Game over · ")  # the final screen: the winner, then the ranking
        assert ranking >= 0 and re.search(r"\n\s*1\. seat \d", ending[ranking:]), ending[-2000:]
        assert "Game log · page" not in ending[ranking:], ending[-2000:]
        mark = len(term.text)
        term.type("")  # ready: the next game's table, not the old game's log page
        _expect_after(term, mark, r"Round 1/2", timeout=30)
        assert "Game log · page" not in term.text[mark:], term.text[mark:][-2000:]
        term.type("/quit")
        term.wait(15)
        assert "Traceback" not in term.text
    finally:
        term.close()
        host.kill()
