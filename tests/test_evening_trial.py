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
import time

import pytest

from jupai_net.client.resume import ResumeState

from .test_client_cli import ANSI, Terminal
from .test_net_play import JUPAI, env_for, start_host

CLEAR = "\x1b[2J"


def last_screen(term: Terminal) -> str:
    """What the terminal window shows at the end: the output after the last screen
    clear, colours removed, white space folded."""
    raw = term.raw.decode("utf-8", "replace")
    return " ".join(ANSI.sub("", raw[raw.rfind(CLEAR) + len(CLEAR):]).split())


# ------------------------------------------------------------------ 1. welcome back, once


@pytest.mark.parametrize("lang, dealer, welcome, stale, scheme", [
    ("en", "trusted", "Welcome back: you were seat 0", ("Your turn kept its deadline", "trusted dealer: the host"),
     "trusted dealer"),
    ("zh", "blind", "欢迎回来：你仍是0号位；牌局一直在等你", ("重连不会重置回合计时", "庄家盲发：主机看不到"), "庄家盲发"),
])
def test_after_a_rejoin_the_ending_screen_shows_only_the_ending(tmp_path, lang, dealer, welcome, stale, scheme):
    """`jupai join` in an 80×24 terminal, killed with SIGKILL mid-game, the same command
    again, both dealing schemes: the game says "welcome back" when the seat is back (at
    a dealer-blind table: the game waited, no bot played for it) and goes on to its
    end; the ending screen then shows only the ending — no welcome back again, no
    stale "N s left" of the turn after the rejoin, no notice of the game's start. Every
    screen of the player's own turn names the scheme in its header."""
    # a short turn time: a prompt the loop below misses (under load) is played by default
    # soon, so the game always reaches its end within the loop's time
    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--bot-delay", "0.2", "--rounds", "3",
                                  "--games", "2", "--dealer", dealer, "--turn-timeout", "12")
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "player"), COLUMNS="80", LINES="24",
               TERM="xterm-256color")
    command = ["join", addr, "--code", code, "--name", "Ann", "--lang", lang]
    procs: list = []
    try:
        first = Terminal(JUPAI + command, env, rows=24, cols=80)
        procs.append(first)
        first.expect(r"(Round|第) 1")
        resume = tmp_path / "player" / "sessions" / f"127.0.0.1-{addr.split(':')[1]}.resume"

        def dealt() -> bool:  # saved: the seat has a game to come back to
            try:
                return len(ResumeState.from_bytes(resume.read_bytes()).statements) >= 4
            except (OSError, ValueError):
                return False

        deadline = time.monotonic() + 20
        while not dealt():
            assert time.monotonic() < deadline, "the deal was never saved"
            first.read(0.05)
        first.proc.send_signal(signal.SIGKILL)
        first.wait(10)
        again = Terminal(JUPAI + command, env, rows=24, cols=80)
        procs.append(again)
        again.play_until(r"(s left|秒) >", r"(Ready for the next game|准备好下一局了吗)", timeout=90)
        again.read(0.3)
        assert welcome in again.text, again.text[-3000:]
        raw = again.raw.decode("utf-8", "replace")
        turns = [ANSI.sub("", part) for part in raw.split(CLEAR) if re.search(r"(s left|秒) >", ANSI.sub("", part))]
        assert turns and all(scheme in " ".join(turn.strip("\n").split("\n")[:2]) for turn in turns), turns[-1:]
        screen = last_screen(again)
        assert ("fairness: verified" if lang == "en" else "公平性：已验证") in screen, screen
        assert "Welcome back" not in screen and "欢迎回来" not in screen, screen
        for text in stale:
            assert text not in screen, screen
        again.type("q")
        assert again.wait(20) == 0, again.text[-3000:]
    finally:
        for p in procs:
            p.close()
        host.kill()
    assert os.path.exists(tmp_path / "player")


# ------------------------------------------------------------------ 6. Chinese name lists


@pytest.mark.parametrize("lang, sep", [("en", ", "), ("zh", "、")])
def test_jupai_replay_lists_the_ranking_as_the_language_lists_names(tmp_path, lang, sep):
    """`jupai replay FILE --lang zh` (no terminal: every action, then the end): the
    ranking's seats are listed with 、 in Chinese (not "0号位, 1号位"), ", " in English."""
    import subprocess

    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    game = play_game(RuleSet(players=3, rounds=3), rng_seed=4)
    path = tmp_path / "g.jupai"
    path.write_bytes(game.transcript(0))
    done = subprocess.run(JUPAI + ["replay", str(path), "--lang", lang], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    ranking = re.search(r"(?:Ranking: |排名：)(.*)", done.stdout)
    assert ranking, done.stdout[-1500:]
    seat = r"seat \d(?: \(you\))?" if lang == "en" else r"\d号位(?:（你）)?"
    assert re.fullmatch(rf"{seat}{re.escape(sep)}{seat}{re.escape(sep)}{seat}", ranking[1].strip()), ranking[1]


def test_a_notice_listing_names_lists_them_in_the_screens_language():
    from jupai_net.client.session import NoticeLine
    from jupai_net.client.status_words import notice_text

    line = NoticeLine("series-mismatch", "…", 0.0, False, {"names": ("Alice", "小明")})
    assert "Alice、小明" in notice_text(line, "zh")
    assert "Alice, 小明" in notice_text(line, "en")


# ------------------------------------------------------------------ 8. jupai join --seat 9


@pytest.mark.parametrize("lang, said", [
    ("en", "jupai join: argument --seat: must be 0-5 (seats are numbered from 0), got 9"),
    ("zh", "jupai join: 参数 --seat：必须在 0-5 之间（座位从 0 开始编号），这里是 9"),
])
def test_join_with_a_seat_no_table_has_is_one_sentence_before_connecting(tmp_path, lang, said):
    import subprocess

    env = {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path), "JUPAI_NO_MULTICAST": "1", "COLUMNS": "200"}
    done = subprocess.run(JUPAI + ["join", "127.0.0.1:1", "--seat", "9", "--lang", lang], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=30, env=env)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == said, done.stderr
    assert "field" not in done.stderr and "Error" not in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""  # checked before connecting: no "Connecting to …"


@pytest.mark.parametrize("command, flag", [("host", "--seats/--players"), ("play", "--seats/--players"),
                                           ("simulate", "--seats/--players"), ("rules", "--seats/--players")])
@pytest.mark.parametrize("lang, value, said", [
    ("en", "9", "argument {flag}: must be 2-6, got 9"),
    ("zh", "1", "参数 {flag}：应为 2-6 人，这里是 1"),
    ("en", "x", "argument {flag}: a number of players expected (2-6), got 'x'"),
])
def test_a_table_size_no_table_has_names_the_flag(tmp_path, command, flag, lang, value, said):
    """``--seats 9`` is the person's flag: the sentence names it (was: "rule setting
    'players': must be 2-6"), in every command that takes it, before anything starts."""
    import subprocess

    env = {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path), "JUPAI_NO_MULTICAST": "1", "COLUMNS": "200"}
    done = subprocess.run(JUPAI + [command, flag.split("/")[0], value, "--lang", lang], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=30, env=env)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == f"jupai {command}: " + said.format(flag=flag), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


# 7 and 12, an abandoned game's reason and scoreboard in a Chinese spectator's words: in
# tests/test_series_cli.py::test_a_series_with_two_abandoned_games_counts_one_game_played
# (the same table, played on to its final scoreboard).


# ------------------------------------------------------------------ 10. Chinese help at 60 columns


def test_the_chinese_help_at_60_columns_wraps_between_characters(tmp_path):
    """`jupai play --lang zh` in a 60×24 terminal, `?`: a Chinese sentence of the help
    wraps where the line is full (between characters), not at an ASCII space inside it
    ("最先没有任何牌（手牌 +" then "装备）者获胜…" on the next line)."""
    env = dict(env_for(tmp_path), COLUMNS="60", LINES="24", TERM="xterm-256color")
    term = Terminal(JUPAI + ["play", "--lang", "zh", "--seats", "2", "--bot-delay", "0", "--name", "Ann"], env,
                    rows=24, cols=60)
    try:
        term.expect(r"秒 >|> ", timeout=30)
        term.type("?")
        term.expect(r"回车：返回牌桌")
        raw = term.raw.decode("utf-8", "replace")
        rows = [row.rstrip(" │") for row in ANSI.sub("", raw[raw.rfind(CLEAR):]).splitlines()]
        assert any("最先没有任何牌（手牌 + 装备）者获胜" in row for row in rows), "\n".join(rows)
        assert not any(row.endswith((" +", "（手牌 +")) for row in rows), "\n".join(rows)
    finally:
        term.close()


# ------------------------------------------------------------------ 11. the host console at 60 columns


@pytest.mark.parametrize("lang, bot_seat", [("en", "3 greedy bot 3 (bot) ✓"), ("zh", "3 贪心机器人 3（机器人） ✓")])
def test_the_host_consoles_lobby_line_breaks_between_seats_at_60_columns(tmp_path, lang, bot_seat):
    """`jupai host` in a 60-column terminal: the lobby line is broken between seats
    (never "· 3" at a line's end and the bot's name on the next), no line is wider than
    the terminal, and bot names are in the console's language."""
    from rich.cells import cell_len

    env = dict(env_for(tmp_path), COLUMNS="60", LINES="24", TERM="xterm-256color", JUPAI_NO_MULTICAST="1")
    term = Terminal(JUPAI + ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "4", "--bots", "1",
                             "--lang", lang], env, rows=24, cols=60)
    try:
        term.expect("还差 3 名玩家" if lang == "zh" else "waiting for 3 people")
        rows = [row.rstrip() for row in term.text.splitlines()]
        assert any(bot_seat in row for row in rows), "\n".join(rows)
        assert not any(re.search(r"· \d$", row) for row in rows), "\n".join(rows)
        assert all(cell_len(row) <= 60 for row in rows), "\n".join(rows)
    finally:
        term.close()


def test_the_chinese_ending_at_60_columns_wraps_where_the_line_is_full(tmp_path):
    """`jupai play --lang zh` in a 60-column terminal, to its end: the verdict sentence
    fills its lines (wrapped between characters), not broken at the ASCII spaces
    around "53" or after "—" with half a line left empty."""
    from rich.cells import cell_len

    env = dict(env_for(tmp_path), COLUMNS="60", LINES="24", TERM="xterm-256color")
    term = Terminal(JUPAI + ["play", "--lang", "zh", "--bot", "random", "--seats", "2", "--rounds", "2",
                             "--bot-delay", "0"], env, rows=24, cols=60)
    try:
        assert term.wait(60) == 0, term.text[-2000:]
        rows = [row.rstrip() for row in term.text.splitlines()]
        first = next(k for k, row in enumerate(rows) if "公平性：已验证" in row)
        assert cell_len(rows[first]) >= 56 and cell_len(rows[first + 1]) >= 56, "\n".join(rows[first:first + 4])
    finally:
        term.close()


def test_the_chinese_host_console_names_the_host_bots_in_chinese_and_wraps_at_60_columns():
    """The host console in Chinese: a game's end line names the bots as every Chinese
    screen does (贪心机器人 2, not "greedy bot 2") and wraps where the line is full."""
    import io

    from rich.cells import cell_len
    from rich.console import Console

    from jupai_net.host.cli import HostScreen

    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=60, color_system=None), lang="zh")
    screen("t", "start", {"names": ["Ann", "greedy bot 1", "greedy bot 2"], "game_id": b"\x01" * 16,
                          "host_key": "k"})
    screen("t", "end", {"result": {"names": ["Ann", "greedy bot 1", "greedy bot 2"], "ranking": [1, 2, 0],
                                   "winner": 1, "cards_left": [9, 0, 4], "reason": "emptied"}})
    text = out.getvalue()
    assert "第1名 贪心机器人 1（剩 0 张）" in text and "greedy bot" not in text, text
    rows = text.splitlines()
    over = next(k for k, row in enumerate(rows) if row.startswith("游戏结束"))
    assert rows[over] == "游戏结束：贪心机器人 1 获胜（出完了所有牌）", text  # who won (specs/rules.md § 8)
    # the places under it, broken between places only (not at the space in "剩 0 张"), each line filled
    assert rows[over + 1:over + 3] == ["第1名 贪心机器人 1（剩 0 张），", "第2名 贪心机器人 2（剩 4 张），第3名 Ann（剩 9 张）"], text
    assert all(cell_len(row) <= 60 for row in rows), text


# ------------------------------------------------------------------ a blind game waits for a seat that left


def _stop(procs: list) -> None:
    """Close every terminal and kill every other process a test started."""
    for p in procs:
        if isinstance(p, Terminal):
            p.close()
        else:
            p.kill()


def _a_move_that_plays_a_card(text: str, lang: str) -> str:
    """The number of a move on the latest prompt of ``text`` that plays a card: 1,
    unless the list says ``1. pass`` (then the first listed move that is not a pass);
    a grid of moves (an attack: one number per card and target) holds no pass."""
    prompt = ANSI.sub("", text).rsplit("Your turn" if lang == "en" else "轮到你", 1)[-1]
    listed = {m.group(1): m.group(2) for m in re.finditer(r"(?:^|\s)(\d+)[.)]\s+(\S+)", prompt)}
    if listed.get("1") not in ("pass", "跳过"):
        return "1"
    for number, first_word in listed.items():
        if first_word not in ("pass", "跳过"):
            return number
    raise AssertionError(f"no move that plays a card on the prompt:\n{prompt}")


@pytest.mark.parametrize("lang, key", [
    ("en", r"Waiting\s+for\s+the\s+key\s+of\s+seat\s+1\s+\(Bob\)\s+·\s+the\s+game\s+ends\s+in\s+\d+\s+s\s+without\s+them"),
    ("zh", r"等待\s*1号位（Bob）\s*的密钥\s*·\s*\d+\s*秒内不回来，牌局就会结束"),
])
def test_a_blind_game_says_it_waits_for_the_key_of_a_seat_that_left(tmp_path, lang, key):
    """A dealer-blind table; Bob's client dies (SIGKILL) after the deal. Ann, in an 80×24
    terminal, plays her move: its cards need Bob's key, and her screen says the game
    waits for it, and how long before the host abandons the game unless Bob comes back
    (the host's ``blind-wait`` notice) — not "Your turn" with no move to type (her move
    was sent)."""
    from .test_net_hardening import HostProcess
    from .test_net_play import Running

    host = HostProcess(tmp_path, "--seats", "3", "--bots", "1", "--dealer", "blind", "--rounds", "3",
                       "--bot-delay", "0.2", "--no-announce")
    env = dict(env_for(tmp_path), JUPAI_NO_MULTICAST="1", COLUMNS="80", LINES="24", TERM="xterm-256color")
    procs: list = [host]
    try:
        ann = Terminal(JUPAI + ["join", host.addr, "--code", host.code, "--name", "Ann", "--seat", "0",
                                "--lang", lang], dict(env, JUPAI_CONFIG_DIR=str(tmp_path / "ann")), rows=24, cols=80)
        procs.append(ann)
        host.wait_for(r"Ann took seat 0")
        bob = Running(["join", host.addr, "--code", host.code, "--bot", "random", "--name", "Bob", "--seat", "1"],
                      dict(env, JUPAI_CONFIG_DIR=str(tmp_path / "bob")))
        procs.append(bob)
        ann.expect(r"(s left|秒) >", timeout=30)  # Ann's turn: Bob's client dies now
        bob.proc.send_signal(signal.SIGKILL)
        host.wait_for(r"Bob \(seat 1\) disconnected", timeout=20)
        # a move that plays a card: making it public needs every participant's key,
        # Bob's too (specs/fairness.md B.7); a pass needs none (then the game waits for
        # Bob's move instead, a different line: the deck decides whether 1 is a pass)
        ann.type(_a_move_that_plays_a_card(ann.text, lang))
        ann.expect(key, timeout=20)
        raw = ann.raw.decode("utf-8", "replace")
        screens = [" ".join(ANSI.sub("", part).split()) for part in raw.split(CLEAR)]
        screen = next(s for s in reversed(screens) if re.search(key, s))
        your_turn = "Your turn" if lang == "en" else "轮到你"
        assert your_turn not in screen, screen  # her move was sent: the game waits, not for her
    finally:
        _stop(procs)


# ------------------------------------------------------------------ a player who leaves a blind game on purpose


def test_ctrl_c_in_a_blind_game_ends_it_at_once_instead_of_waiting_for_a_return(tmp_path):
    """Ann presses Ctrl-C mid-way through a dealer-blind game: her client says ``bye
    quit`` (she left on purpose), and nobody else can play her cards or send her keys,
    so the host abandons the game at once (``blind-left``, why ``left``): the others do
    not wait out her grace (75 s) for a player who is not coming back."""
    from .test_net_hardening import HostProcess
    from .test_net_play import Running

    host = HostProcess(tmp_path, "--seats", "3", "--bots", "1", "--dealer", "blind", "--rounds", "3",
                       "--bot-delay", "0.2", "--no-announce")
    env = dict(env_for(tmp_path), JUPAI_NO_MULTICAST="1", COLUMNS="80", LINES="24", TERM="xterm-256color")
    procs: list = [host]
    try:
        ann = Terminal(JUPAI + ["join", host.addr, "--code", host.code, "--name", "Ann", "--seat", "0"],
                       dict(env, JUPAI_CONFIG_DIR=str(tmp_path / "ann")), rows=24, cols=80)
        procs.append(ann)
        host.wait_for(r"Ann took seat 0")
        bob = Running(["join", host.addr, "--code", host.code, "--bot", "random", "--name", "Bob", "--seat", "1"],
                      dict(env, JUPAI_CONFIG_DIR=str(tmp_path / "bob")))
        procs.append(bob)
        ann.expect(r"s left >", timeout=30)  # the game is on
        ann.proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        host.wait_for(r"game abandoned", timeout=20)
        assert time.monotonic() - start < 15  # at once, not after the seat's grace
        assert "waits for them to come back" not in host.text, host.text[-2000:]
        assert re.search(r"Ann \(seat 0\) left the dealer-blind game \(they chose to leave\)", host.text), \
            host.text[-2000:]
    finally:
        _stop(procs)


@pytest.mark.parametrize("lang, said", [("en", "You left the table before a game began."),
                                        ("zh", "你在牌局开始前离开了牌桌。")])
def test_ctrl_c_in_the_lobby_before_any_game_reports_no_game(tmp_path, lang, said):
    """Ctrl-C in the lobby before the first game: one sentence that the player left
    before a game began — not an ending "game not finished" for a game that never was."""
    from .test_net_hardening import HostProcess

    host = HostProcess(tmp_path, "--seats", "3", "--no-announce")
    env = dict(env_for(tmp_path), JUPAI_NO_MULTICAST="1", COLUMNS="80", LINES="24", TERM="xterm-256color")
    ann = Terminal(JUPAI + ["join", host.addr, "--code", host.code, "--name", "Ann", "--lang", lang],
                   dict(env, JUPAI_CONFIG_DIR=str(tmp_path / "ann")), rows=24, cols=80)
    try:
        host.wait_for(r"Ann took seat 0")
        ann.expect(re.escape(host.code), timeout=15)  # the lobby is on screen
        ann.proc.send_signal(signal.SIGINT)
        assert ann.proc.wait(timeout=15) == 130
        while ann.read():  # everything it wrote before it exited
            pass
        flat = " ".join(ann.text.split())
        assert said in flat, flat[-1500:]
        assert "not finished" not in flat and "未完成" not in flat and "未结束" not in flat, flat[-1500:]
    finally:
        ann.close()
        host.kill()
