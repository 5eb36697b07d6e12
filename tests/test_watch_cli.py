"""`jupai watch` as a person types it (specs/client.md § Watch): the real command against
a real `jupai host` with bots, in a pipe (one line per event) and in a pseudo-terminal
(the table screen, en at 80×24 and zh at 60 columns), the cap's refusal, q and Ctrl-C."""

from __future__ import annotations

import contextlib
import io
import re
import signal
import subprocess
from collections.abc import Iterator

import pytest
from rich.cells import cell_len
from rich.console import Console

from jupai_net.client.render import height_of
from jupai_net.client.watch import WatchScreen
from jupai_net.fairness import VERIFIED
from jupai_net.fairness.cli import read_and_verify

from .test_client_cli import ANSI, Terminal, _env
from .test_net_hardening import HostProcess
from .test_net_play import JUPAI, Running, env_for

FORMULA = r"[\d)] = \d+"  # a move's total with its formula, e.g. 1×12 = 12 or (13 + 8) + (3 + 8) = 32


def _host(tmp_path, *argv: str) -> HostProcess:
    games = () if "--games" in argv else ("--games", "1")  # one game, then the host says bye to the watchers
    return HostProcess(tmp_path, "--seats", "3", "--bots", "2", "--no-announce", *games, *argv)


#: The spectator's keys line, by language.
KEYS = {"en": r"watching · q \+ Enter: leave", "zh": r"旁观中 · 输入 q 回车：离开"}


@contextlib.contextmanager
def _watching(tmp_path, lang: str, cols: int, rows: int, *host_argv: str) -> Iterator[tuple[HostProcess, Terminal]]:
    """``jupai watch`` in a ``cols``×``rows`` terminal (a ``lang`` locale) at a
    :func:`_host` table (``host_argv`` added): once the host has the spectator and its
    keys line is on screen, a ``jupai join --bot random`` takes the last seat and the
    game starts. Yields (host, terminal); closes and kills them all at the end."""
    host = _host(tmp_path, *host_argv)
    procs = [host]
    env = _env(tmp_path, "config", "zh_CN.UTF-8" if lang == "zh" else "en_US.UTF-8")
    env.update(COLUMNS=str(cols), LINES=str(rows), JUPAI_NO_MULTICAST="1")
    term = Terminal(JUPAI + ["watch", host.addr, "--code", host.code, "--name", "Wu"], env, rows=rows, cols=cols)
    try:
        host.wait_for(r"Wu is watching")
        term.expect(KEYS[lang])
        procs.append(Running(["join", host.addr, "--bot", "random", "--code", host.code], env_for(tmp_path)))
        yield host, term
    finally:
        term.close()
        for p in procs:
            p.kill()


def test_watch_in_a_pipe_prints_every_move_the_ending_and_exits_0(tmp_path):
    """stdout is a pipe: one line per event (formulas included), the ranking and the
    verdict; end of input does not stop the watcher; a second watcher over the cap is
    refused with the reason."""
    host = _host(tmp_path, "--max-spectators", "1", "--bot-delay", "0.05")
    procs = [host]
    try:
        env = env_for(tmp_path)
        watcher = subprocess.Popen(JUPAI + ["watch", host.addr, "--code", host.code, "--name", "Wu"],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=env)
        host.wait_for(r"Wu is watching \(1 spectator\)")
        second = subprocess.run(JUPAI + ["watch", host.addr, "--code", host.code, "--name", "Lu"],
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30, env=env)
        assert second.returncode == 6, second
        said = " ".join((second.stdout + second.stderr).split())
        assert ("jupai watch: the host refused: this table already has 1 spectator, the most it takes; "
                "try again when one leaves") in said
        join = Running(["join", host.addr, "--bot", "random", "--code", host.code], env)
        procs.append(join)
        out, err = watcher.communicate(timeout=60)
        assert watcher.returncode == 0, (out, err)
        assert "Traceback" not in out + err
        assert f"Watching {host.addr} as a spectator" in out
        assert re.search(r"Lobby: 3 of 3 seats taken: seat 0 \(random bot\)", out), out
        assert re.search(r"A game starts: seat 0 \(random bot\), seat 1 \(greedy bot 1\)", out), out
        assert re.search(FORMULA, out) and re.search(r"→ .*(collects|discarded|valid)", out), out
        assert re.search(r"Game over: seat \d \(.+\) wins", out), out
        assert "final ranking" in out and re.search(r"1\. seat \d \(.+\): \d+ cards? left", out), out
        assert "fairness: verified" in out
        # the host's bye after the series' last game is the normal end (issue 12)
        assert "The host closed the table after the last game." in out and "host was stopped" not in err, (out, err)
        path = re.search(r"(\S+-spectator\.jupai)", out)[1]
        assert read_and_verify(path).status == VERIFIED
        assert join.finish(30) == 0
    finally:
        for p in procs:
            p.kill()


@pytest.mark.parametrize("lang, cols, rows", [("en", 80, 24), ("zh", 60, 24)])
def test_watch_on_a_terminal_shows_the_live_table_and_the_ending(tmp_path, lang, cols, rows):
    rows_n = rows
    with _watching(tmp_path, lang, cols, rows, "--bot-delay", "0.1") as (host, term):
        term.expect(FORMULA, timeout=30)
        term.expect(r"游戏结束" if lang == "zh" else r"Game over", timeout=60)
        assert term.wait(30) == 0
        flat = term.flat
        assert ("公平性：已验证" if lang == "zh" else "fairness: verified") in flat, flat[-2000:]
        assert "-spectator.jupai" in flat and "Traceback" not in term.text
        closed = "最后一局结束后，主机关闭了牌桌。" if lang == "zh" else "The host closed the table after the last game."
        assert closed in flat and "host was stopped" not in flat and "主机已停止" not in flat, flat[-2000:]
        assert re.search(r"(seat \d|\d号位).* ?(wins|获胜)", flat), flat[-2000:]
        assert re.search(r"第1名 \d号位" if lang == "zh" else r"1\. seat \d", flat), flat[-2000:]  # the ranking
        # no hand and no moves: a spectator is never asked
        assert not re.search(r"Your moves|你的行动|Your hand|你的手牌", term.text)
        # the last screen tells who did what: its outcomes name every seat, or, when three
        # named outcomes fit at no squeeze level (the most squeezed screen, specs/client.md
        # § Fitting the screen), they name seats by number and the players table on the
        # same screen gives each of those numbers its name (the ending does not take the
        # names away from a spectator, issue 12)
        raw = term.raw.decode("utf-8", "replace")
        screen = ANSI.sub("", raw[raw.rfind("\x1b[2J"):]).splitlines()
        last = " ".join(" ".join(screen).split())
        outcomes = re.search(r"(最近结果|Last outcomes)(.*?)(游戏结束|Game over)", last)
        assert outcomes and re.search(r"(seat \d|\d号位)", outcomes[2]), last
        # (the round's header line, "seat 2 leads" / "2号位 先手", may come between them
        # on a squeezed screen: it names the seat alone)
        named = re.sub(r"seat \d leads|\d号位 ?先手", "", outcomes[2])
        # (a Chinese line may wrap between "0号位" and its "（name）": the joined screen has a space there)
        bare = {int(a or b) for a, b in re.findall(r"seat (\d)(?! \(| …)|(\d)号位(?! ?（| …)", named)}
        title = next(k for k, row in enumerate(screen) if re.match(r"\s*(最近结果|Last outcomes)", row))
        table = {int(m[1]) for row in screen[:title] if (m := re.match(r"\s*(\d) +[^\s\d]", row))}
        assert bare <= table, last  # each seat named by number has its row (number, name) above
        # the verify command (longer than the terminal here: a pytest folder) is cut after
        # `verify` with a shell continuation, as on a player's end screen (issue 12); at
        # 60×24 the ending screen has no row for it (specs/client.md § Watch): the
        # transcript's path is there, whole, and the round's header stays on top
        rows = [row.rstrip() for row in ANSI.sub("", raw[raw.rfind("\x1b[2J"):]).splitlines()]
        cut = [k for k, row in enumerate(rows) if row.endswith(" verify \\")]
        if cols >= 80 and cut:
            assert rows[cut[0] + 1].strip().endswith("-spectator.jupai"), rows
        elif cols >= 80:  # it gives way only to a full screen (three long outcomes, a long ranking)
            assert len([row for row in rows if row]) >= rows_n - 3, rows
        assert any(row.startswith("  ") and row.endswith("-spectator.jupai") for row in rows), rows
        assert rows[0].startswith("第 " if lang == "zh" else "Round "), rows


def _expect_after(term: Terminal, mark: int, pattern: str, timeout: float = 15.0) -> None:
    """Wait until ``pattern`` is written after position ``mark`` of the output."""
    import time

    end = time.monotonic() + timeout
    while not re.search(pattern, term.text[mark:]):
        assert time.monotonic() < end, f"{pattern!r} not written again; output:\n{term.text[mark:][-2000:]}"
        term.read()


def open_the_log(term: Terminal) -> int:
    """Type ``/log`` (English) and wait for its first page; returns where the output
    was then (what comes after: the page's fate)."""
    mark = len(term.text)
    term.type("/log")
    _expect_after(term, mark, r"Game log · page 1/")
    return len(term.text)


def test_watch_leaves_with_q_and_with_ctrl_c_exit_0(tmp_path):
    host = _host(tmp_path)
    env = _env(tmp_path, "config")
    env.update(COLUMNS="80", LINES="24", JUPAI_NO_MULTICAST="1")
    first = Terminal(JUPAI + ["watch", host.addr, "--code", host.code, "--name", "Wu"], env, rows=24, cols=80)
    second = Terminal(JUPAI + ["watch", host.addr, "--code", host.code, "--name", "Lu"], env, rows=24, cols=80)
    try:
        host.wait_for(r"Wu is watching")
        host.wait_for(r"Lu is watching")
        first.expect(r"watching · q \+ Enter: leave")
        first.type("hello")
        first.expect(r"A spectator only watches: q \+ Enter leaves")
        first.type("?")
        first.expect(r"Enter: back to the table")
        first.expect(r"R×i")  # the help: the rules with their formulas
        mark = len(first.text)
        first.type("")  # Enter: the table again
        _expect_after(first, mark, r"watching · q \+ Enter: leave")
        first.type("q")
        assert first.wait(15) == 0
        assert "You stopped watching." in first.flat
        host.wait_for(r"Wu stopped watching")
        second.expect(r"watching · q \+ Enter: leave")
        second.proc.send_signal(signal.SIGINT)
        assert second.wait(15) == 0
        assert "You stopped watching." in second.flat and "Traceback" not in second.text
        host.wait_for(r"Lu stopped watching")
    finally:
        first.close()
        second.close()
        host.kill()


@pytest.mark.parametrize("lang, cols, rows", [("en", 80, 14), ("zh", 60, 14)])
def test_a_spectator_pages_the_game_log_with_slash_log(tmp_path, lang, cols, rows):
    """``/log`` through ``jupai watch`` on a terminal: the public game so far, paged
    as a player's (``Game log · page 1/N``, from the deal on, each outcome with its
    formula; Enter: the next page; q: back to the table); the page stays while the
    bots play on (the table is not redrawn over it). Before this, a spectator's
    ``/log`` got "A spectator only watches: …"."""
    # the game goes on for a while after round 3 (a game's end closes the page: a short
    # deck that ends it while the log is paged is told apart below); a second game
    # keeps the table open
    keys = KEYS[lang]
    page = r"本局记录 · 第 (\d+)/(\d+) 页" if lang == "zh" else r"Game log · page (\d+)/(\d+)"
    with _watching(tmp_path, lang, cols, rows, "--bot-delay", "0.7", "--games", "2") as (host, term):
        # three rounds played: more than a page of log whatever the deal (11 rows a page on
        # 14; the deal's line, 3 round lines, 9 one-line moves and the 4th round's line are
        # 14 rows at least; after two rounds a deal of one-line moves fitted one page)
        term.expect(r"(第 4/\d+ 回合|Round 4/)", timeout=30)
        mark = len(term.text)
        term.type("/log")
        _expect_after(term, mark, page)
        footer = "回车：下一页 · q：返回牌桌" if lang == "zh" else "Enter: next page · q: back to the table"
        _expect_after(term, mark, re.escape(footer))  # the page is written whole (the footer last)
        first = re.search(page, term.text[mark:])
        assert first[1] == "1" and int(first[2]) >= 2, term.text[mark:]
        shown = page_one = term.text[mark:]
        assert ("已向 3 名玩家发牌" if lang == "zh" else "Cards dealt to 3 players") in shown, shown
        mark = len(term.text)
        import time

        end = time.monotonic() + 1.2  # the bots play on (0.7 s a move): the page stays
        while time.monotonic() < end:
            term.read()
        over = "游戏结束" if lang == "zh" else "Game over"
        if over in term.text[mark:]:  # the game ended meanwhile: its ending closed the page (as it should)
            _expect_after(term, mark, keys)
            term.type("q")
            assert term.wait(15) == 0
            return
        assert not re.search(keys, term.text[mark:]), term.text[mark:]
        term.type("")  # Enter: page 2
        _expect_after(term, mark, page)
        assert re.search(page, term.text[mark:])[1] == "2", term.text[mark:]
        # outcomes with their formulas (on page 1 or 2: a round may be all supplies)
        assert re.search(FORMULA, " ".join((page_one + term.text[mark:]).split())), term.text[mark:]
        mark = len(term.text)
        term.type("q")  # back to the table
        _expect_after(term, mark, keys)
        term.type("q")
        assert term.wait(15) == 0
        assert "Traceback" not in term.text


def test_the_games_end_closes_the_spectators_log_page_and_shows_the_ending(tmp_path):
    """A spectator reading ``/log`` when the game ends sees the ending at once: the
    page closes itself and the final screen (``Game over`` and the ranking, then the
    verdict and the transcript) is drawn — before, the page stayed until ``q`` and the
    next game's start (or the host's goodbye) came first, so the ending was never on
    screen. A short game (3 rounds) and a second one, so the table stays open."""
    with _watching(tmp_path, "en", 80, 24, "--bot-delay", "0.15", "--games", "2", "--rounds", "3") as (host, term):
        term.expect(r"Round 1/3", timeout=30)
        mark = open_the_log(term)
        # nothing typed: the game ends and its ending replaces the page
        _expect_after(term, mark, r"Game over", timeout=60)
        _expect_after(term, mark, r"fairness: verified", timeout=30)
        assert "Transcript saved to" in " ".join(term.text[mark:].split()), term.text[mark:][-2000:]
        term.type("q")
        assert term.wait(15) == 0
        assert "Traceback" not in term.text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_plain_watch_prints_the_game_log_on_slash_log(lang):
    """``jupai watch --plain``: ``/log`` prints the public game so far, one line per
    event with its formulas, the same lines as a player's ``--plain`` ``/log``
    (:meth:`PlainPlayer.log_pages`; all at once into a pipe); no hint for it."""
    from jupai_net.client import render as R
    from jupai_net.client.watch import PlainWatcher
    from jupai_net.play import PlainPlayer

    out = io.StringIO()
    watcher = PlainWatcher(lang, "127.0.0.1", 4747, out=out)
    view = _spectator_view(30)
    view.seat = None
    watcher.view = view
    watcher.handle_line("/log")
    text = out.getvalue()
    assert "A spectator only" not in text and "旁观者只能观看" not in text
    expected = [line for page in PlainPlayer(io.StringIO(), lang).log_pages(view) for line in page]
    assert text.splitlines() == expected
    contests = [e for e in R.merged_events(view.events) if e.get("kind") == "contest"]
    assert contests and all(side["formula"] in text for e in contests for side in e["sides"]), text


def _spectator_view(steps: int | None):
    """A spectator view of a 4-player game (a real ``observation(None)``) after
    ``steps`` actions (None: at the end, with the ranking)."""
    from types import SimpleNamespace

    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    # fixed seeds: with random ones the deck differs per run, and some decks end the
    # game within 12 actions (the "mid-game" view was then a finished game)
    game = play_game(RuleSet(players=4, rounds=6), rng_seed=5, max_steps=steps, game_id=b"\x07" * 16,
                     host_seed=b"\x01" * 32, seat_seeds=[bytes([2 + s]) * 32 for s in range(4)])
    obs = game.dealer.state.observation(None)
    assert (obs.get("result") is None) == (steps is not None)  # mid-game is mid-game
    names = {s: n for s, n in enumerate(["Ann", "张伟伟", "greedy bot 2", "Bob"])}
    return SimpleNamespace(observation=obs, chat=(), notices=(), names=names, events=tuple(obs.get("log") or ()),
                           players=(), phase="playing", host="127.0.0.1", port=1, join_code="", rules=None)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("cols, rows", [(80, 24), (60, 24)])
@pytest.mark.parametrize("steps", [12, None])
def test_the_watch_screen_fits_the_terminal(lang, cols, rows, steps):
    """Mid-game and at the end, at 80×24 and 60 columns: the whole screen fits with the
    keys line under it (one line left for the cursor), and shows no hand."""
    from jupai_net.client.render import to_text

    console = Console(file=io.StringIO(), width=cols, height=rows, force_terminal=True, color_system=None)
    screen = WatchScreen(lang=lang, console=console)
    view = _spectator_view(steps)
    rendered = screen.screen(view)
    assert height_of(rendered, cols) <= rows - 1
    text = to_text(rendered, cols)
    last = [line.strip() for line in text.rstrip().splitlines()[-2:]]  # the keys line (two rows at 60 columns)
    keys = last[1] if last[1].startswith(("旁观中", "watching · q")) else " ".join(last)
    assert keys.startswith("旁观中" if lang == "zh" else "watching · q"), text
    assert keys.endswith("/log：本局记录" if lang == "zh" else "/log: the game so far"), text
    assert max(cell_len(line.rstrip()) for line in text.splitlines()) <= cols
    if steps is None:
        assert ("游戏结束" if lang == "zh" else "Game over") in text


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("cols, rows", [(80, 24), (60, 24)])
def test_the_watch_screen_shows_the_series_scoreboard_at_a_games_end(lang, cols, rows):
    """After a game of a series the spectator's screen has the scoreboard under the
    ranking (and keeps fitting the terminal); mid-game it does not take room."""
    from jupai_net.client.render import to_text
    from jupai_net.protocol import Series, SeriesStanding

    board = Series(b"\x03" * 16, 2, 3, False, (SeriesStanding("Ann", 5, 1, 2, 3), SeriesStanding("Bob", 3, 1, 2, 0),
                                                SeriesStanding("张伟伟", 2, 0, 2, 2),
                                                SeriesStanding("greedy bot 2", 2, 0, 2, 1)))
    console = Console(file=io.StringIO(), width=cols, height=rows, force_terminal=True, color_system=None)
    screen = WatchScreen(lang=lang, console=console)
    title = "━━ 积分榜 · 第 2/3 局后 ━━" if lang == "zh" else "━━ scoreboard · after game 2 of 3 ━━"
    end = _spectator_view(None)
    end.series = board
    rendered = screen.screen(end)
    text = to_text(rendered, cols)
    assert height_of(rendered, cols) <= rows - 1, text
    assert title in text and ("5 分" if lang == "zh" else "5 pts") in text, text
    assert ("游戏结束" if lang == "zh" else "Game over") in text
    middle = _spectator_view(12)
    middle.series = board
    assert title not in to_text(screen.screen(middle), cols)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("cols, rows", [(80, 24), (60, 24)])
def test_the_spectators_help_lists_only_what_a_spectator_can_do_and_fits(lang, cols, rows):
    """``?`` on the watch screen: the spectator's own keys (leave, help, the game log,
    back), no move numbers or chat, the title and the back line on an 80×24 (60×24) screen."""
    out = io.StringIO()
    console = Console(file=out, width=cols, height=rows, force_terminal=True, color_system=None)
    screen = WatchScreen(lang=lang, console=console)
    screen.handle_line("?")
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) <= rows - 1 and max(cell_len(line) for line in lines) <= cols, text
    flat = " ".join(" ".join(line.replace("│", " ").split()) for line in lines)
    if lang == "en":
        assert "Help · how to play" in flat and "you are watching: q + Enter: leave" in flat
        assert "Enter: back to the table" in lines[-1]
    else:
        assert "帮助 · 玩法" in flat and "你在旁观：输入 q 回车：离开" in flat and "回车：返回牌桌" in lines[-1]
    assert ("/log：本局记录" if lang == "zh" else "/log: the game so far") in flat
    for player_key in ("/chat", "1, 2, 3", "1、2、3", "/quit"):
        assert player_key not in flat, player_key


def test_the_spectators_first_use_warning_is_held_once_per_note_not_per_python_object():
    """The spectator screen holds each trust-on-first-use note (``host-pinned``) once,
    keyed by the note itself (its text and time), not by ``id()`` of the object: a copy
    of a note already read is not held again, and a new note is held even when its
    object got the id of one already held and freed (CPython reuses a freed object's
    address at once; keyed by ``id`` the new warning was silently skipped)."""
    from types import SimpleNamespace

    from jupai_net.client.session import NoticeLine

    out = io.StringIO()
    console = Console(file=out, width=80, height=24, force_terminal=True, color_system=None)
    screen = WatchScreen(lang="en", console=console)

    def lobby(*notices):
        return SimpleNamespace(observation=None, notices=notices, chat=(), players=(), phase="lobby", change="notice",
                               host="127.0.0.1", port=1, join_code="", rules=None, next_dealer=None, dealer=None,
                               table="")

    def shown() -> str:
        text = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue()).split())
        out.truncate(0), out.seek(0)
        return text

    first = NoticeLine("host-pinned", "Pinned the first host: compare FIRST-CODE.", 1.0)
    screen.on_update(lobby(first))
    assert "FIRST-CODE" in shown()
    screen.handle_line("")  # read: the lobby
    assert "Press Enter to go on" not in shown()
    screen.on_update(lobby(NoticeLine("host-pinned", first.text, first.at)))  # the same note, another object
    assert "Press Enter to go on" not in shown() and screen.warning_read
    screen.on_update(lobby())
    old = id(first)
    del first
    second = NoticeLine("host-pinned", "Pinned another host: compare SECOND-CODE.", 2.0)
    reused = id(second) == old  # (almost always on CPython: the case id() keys got wrong)
    screen.on_update(lobby(second))
    text = shown()
    assert "SECOND-CODE" in text and "Press Enter to go on" in text, (reused, text)


def test_watch_bad_input_is_one_sentence_and_an_exit_code(tmp_path):
    import os
    import socket

    env = {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path), "LANG": "en_US.UTF-8", "JUPAI_NO_MULTICAST": "1"}
    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for args, code, message in (
        (["watch", "host:99999"], 2, "jupai watch: 'host:99999' is not HOST[:PORT]"),
        (["watch", "127.0.0.1", "--code", "not a code!"], 2, "--code: a join code"),
        (["watch", "127.0.0.1", "--name", "a\tb"], 2, "jupai watch: --name 'a\\tb': the name holds \\t (a control character)"),
        (["watch", "Ann's table"], 3, "Cannot look for tables on the LAN: multicast DNS is turned off"),
        (["watch", f"127.0.0.1:{port}"], 3, f"cannot connect to 127.0.0.1:{port}"),
    ):
        proc = subprocess.run(JUPAI + args, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=30)
        said = " ".join((proc.stdout + proc.stderr).split())
        assert proc.returncode == code, (args, proc)
        errors = proc.stderr.splitlines()
        assert len(errors) == 1 and errors[0].startswith("jupai watch: ") and message in errors[0], (args, proc)
        assert "jupai watch:" not in proc.stdout and "[!]" not in proc.stdout, (args, proc.stdout)
        assert "Traceback" not in said
