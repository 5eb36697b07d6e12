"""The in-game screens of an evening at one table, through the commands a person types
(specs/client.md § Staying at the table, § Watch, § Pinning the host): a spectator
sees each game's fairness verdict as the players do, the notices of a finished game
make way when the next starts, and the trust-on-first-use warning holds the seat (not
ready: no game, no turn timer) until Enter and is not repeated at the end."""

from __future__ import annotations

import re
import time
from types import SimpleNamespace

from .test_client_cli import ANSI, Terminal, _env
from .test_net_hardening import HostProcess
from .test_net_play import JUPAI

CLEAR = "\x1b[2J"  # what rich's console.clear() writes first


def _screens(term: Terminal) -> list[str]:
    """The screens a program drew, one per clear, ANSI codes removed."""
    return [ANSI.sub("", part) for part in term.raw.decode("utf-8", "replace").split(CLEAR)]


def _terminal(tmp_path, name: str, *argv: str, rows: int = 24, cols: int = 80) -> Terminal:
    env = _env(tmp_path, name)
    env.update(COLUMNS=str(cols), LINES=str(rows), JUPAI_NO_MULTICAST="1")
    return Terminal(JUPAI + list(argv), env, rows=rows, cols=cols)


def test_a_spectator_sees_each_games_verdict_and_the_next_game_drops_the_old_notices(tmp_path):
    """Host `--games 2`; a person who lets the turn timer run out (time-out notices) and
    a spectator. Between the games the spectator's screen has game 1's verdict, its
    transcript and the scoreboard; game 2's first screen has none of game 1's time-out
    notices; at the end the last verdict is on screen once (not printed again)."""
    # the host's time-out notices are the trusted dealer's (at a dealer-blind table the
    # seat's own client plays its default move: tests/test_net_blind.py)
    host = HostProcess(tmp_path, "--seats", "2", "--bots", "1", "--games", "2", "--rounds", "1",
                       "--turn-timeout", "1", "--bot-delay", "0.05", "--no-announce", "--dealer", "trusted")
    watcher = _terminal(tmp_path, "w", "watch", host.addr, "--code", host.code, "--name", "Wu", rows=40)
    player = None
    try:
        host.wait_for(r"Wu is watching")
        player = _terminal(tmp_path, "p", "join", host.addr, "--code", host.code, "--name", "Ann", rows=40)
        player.expect(r"Ready for the next game\?", timeout=60)  # it never typed a move: the host played for it
        player.type("")
        assert watcher.wait(60) == 0, watcher.text[-3000:]
        screens = _screens(watcher)
        ended = [k for k, s in enumerate(screens) if "fairness: verified" in s]
        assert ended, watcher.text[-3000:]
        first = screens[ended[0]]
        assert "Game over" in first and "-spectator.jupai" in first and "after game 1 of 2" in first, first
        assert re.search(r"ran out of time \(1 s\)", " ".join("".join(screens[:ended[0] + 1]).split()))
        second = next(s for s in screens[ended[0] + 1:] if "Round 1/1" in s and "Game over" not in s)
        assert "Cards dealt" in second and "ran out of time" not in second, second
        last = screens[-1]
        assert last.count("fairness: verified") == 1 and last.count("final scoreboard") == 1, last
        assert "Traceback" not in watcher.text
        assert player.wait(30) == 0, player.text[-4000:]
    finally:
        watcher.close()
        if player is not None:
            player.close()
        host.kill()


def test_the_first_use_warning_keeps_the_seat_unready_until_enter_and_is_said_once(tmp_path):
    """`jupai join` without --code at a table this join fills: the warning stays alone
    on screen, the seat is not ready (the host starts no game, no turn timer runs);
    after Enter the game starts, and the warning is not printed again at the end."""
    host = HostProcess(tmp_path, "--seats", "2", "--bots", "1", "--games", "1", "--rounds", "1",
                       "--turn-timeout", "1", "--bot-delay", "0.05", "--no-announce")
    term = _terminal(tmp_path, "p", "join", host.addr, "--name", "Ann")
    try:
        term.expect(r"Press Enter to go on to the table")
        host.wait_for(r"Ann took seat 0")
        deadline = time.monotonic() + 2.5  # longer than a turn: a running timer would have fired
        while time.monotonic() < deadline:
            term.read()
        assert not any(re.search(r"game \w+ starts", line) for line in host.lines), host.lines
        assert "s left" not in term.text and "Round 1/" not in term.text
        mark = len(term.text)
        term.type("")
        host.wait_for(r"game \w+ starts")
        assert term.wait(60) == 0, term.text[-3000:]
        after = " ".join(term.text[mark:].split())
        assert "Round 1/1" in after and "fairness: verified" in after, after[-2000:]
        assert "pinned WITHOUT a check" not in after, after[-2000:]
    finally:
        term.close()
        host.kill()


def test_the_plain_watcher_prints_each_games_verdict_when_it_is_checked():
    """`jupai watch --plain`: the verdict and the transcript path come as lines right
    when the game's public record is checked (not only at the very end)."""
    import io

    from jupai_net.client.watch import PlainWatcher
    from jupai_net.fairness import Verdict

    out = io.StringIO()
    watcher = PlainWatcher("en", "127.0.0.1", 1, out=out)
    verdict = Verdict("verified", "fair game: all checked")
    watcher.on_update(SimpleNamespace(change="verdict", verdict=verdict, result={"ranking": [0, 1]}, names={},
                                      game_id=b"\x01" * 16, transcript_path="/tmp/t-spectator.jupai",
                                      observation=None, events=(), notices=(), chat=()))
    said = out.getvalue()
    assert "fairness: verified — fair game: all checked" in said and "/tmp/t-spectator.jupai" in said, said
    assert watcher.ending_shown == b"\x01" * 16
