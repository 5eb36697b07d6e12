"""The host's console as a person uses it (issue 12, trial 13; specs/host.md § Console):
a kicked player is told why in their own language."""

from __future__ import annotations

import signal

import trio

from .test_net_hardening import HostProcess, _one_line
from .test_net_play import Running, env_for


def test_a_kicked_player_is_told_in_their_own_language(tmp_path):
    """``kick 0`` at the host: a Chinese player reads the catalog's sentence, not the
    host's English words (screen 61), and exits 6; the error carries the seat as data."""
    host = HostProcess(tmp_path, "--seats", "3")
    procs = [host]
    try:
        join = Running(["join", host.addr, "--bot", "random", "--code", host.code, "--lang", "zh"],
                       env_for(tmp_path))
        procs.append(join)
        host.wait_for(r"took seat 0")
        mark = len(host.lines)
        host.type("kick 0")
        host.wait_for(r"notice the host removed random bot from seat 0", after=mark)
        assert join.finish(20) == 6
        out = _one_line(join.stderr)
        assert "主机把你请出了座位" in out, out
        assert "the host removed" not in out and "Traceback" not in join.stderr, out
        host.proc.send_signal(signal.SIGINT)
        assert host.finish(20) == 130
    finally:
        for p in procs:
            p.kill()


def test_the_kick_error_carries_the_seat():
    """The host's ``kicked`` error says the seat as data (``args``, protocol 7)."""
    import random

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from jupai_net.host.table import Close, Table, TableConfig
    from jupai_net.protocol.messages import Hello
    from jupai_net.rules import RuleSet

    table = Table(TableConfig(rules=RuleSet(players=3)), Ed25519PrivateKey.generate(), rng=random.Random(1))
    seat = table.admit(1, Hello(name="Ann"), 0.0)
    assert seat is not None
    table.drain()
    table.kick(seat, 1.0)
    (close,) = [e for e in table.drain() if isinstance(e, Close)]
    assert close.error is not None and close.error.code == "kicked" and close.error.args == {"seat": seat}


def test_start_fills_the_empty_seats_with_bots_and_the_game_begins(tmp_path):
    """Plain ``jupai host`` waits for people in every seat; with one person seated the
    lobby line says ``type start``, and ``start`` gives the empty seats to the host's
    bots: the game is played to its end (issue 12, trial 13: two friends at a 4-seat
    table waited forever). Before anyone sits down, ``start`` says why it cannot."""
    host = HostProcess(tmp_path, "--seats", "3", "--games", "1", "--rounds", "1", "--bot-delay", "0")
    procs = [host]
    try:
        host.wait_for(r"no bots yet \(type start")
        host.wait_for(r"commands\s+type `start` and Enter to fill the empty seats with bots")
        host.type("start")
        host.wait_for(r"cannot start yet: nobody is seated")
        join = Running(["join", host.addr, "--bot", "random", "--code", host.code], env_for(tmp_path))
        procs.append(join)
        host.wait_for(r"waiting for 2 more people — type start to fill with bots")
        mark = len(host.lines)
        host.type("start")
        host.wait_for(r"bots take seat 1, 2: the game starts when everyone seated is ready", after=mark)
        host.wait_for(r"game \w+ starts", after=mark)
        assert host.finish(60) == 0, host.text[-2000:]
        assert join.finish(30) == 0, join.text[-2000:] + join.stderr
        assert "Traceback" not in host.stderr + join.stderr
    finally:
        for p in procs:
            p.kill()


def test_start_is_said_in_chinese():
    """The console's answers come from the catalog in the run's language."""
    from jupai_net.host.cli import host_command, lobby_line
    from jupai_net.messages import use_lang
    from jupai_net.protocol.messages import PlayerInfo

    class Server:
        def __init__(self, fail: str | None = None):
            self.fail = fail

        def fill_with_bots(self):
            if self.fail:
                raise ValueError(self.fail)
            return [2, 3]

    with use_lang("zh"):
        assert host_command(Server(), "start") == "机器人坐上 2、3 号位：所有入座者准备好后开局"
        assert host_command(Server("nobody"), "开始").startswith("还不能开局：还没有人入座")
        assert host_command(Server("running"), "/start") == "无法开局：正在游戏中"
        line = lobby_line([PlayerInfo(0, "Ann", ready=True)], 4, "zh", start_hint=True).plain
        assert line.endswith("还差 3 名玩家 — 输入 start 由机器人补满"), line
    assert lobby_line([PlayerInfo(0, "Ann", ready=True)], 4, "en").plain.endswith("waiting for 3 people")


async def test_a_stop_as_a_blind_game_ends_lets_its_audit_finish(tmp_path, monkeypatch):
    """The host is stopped (Ctrl-C) the moment a dealer-blind game ends, its audit just
    begun: the game is not abandoned nor its audit cut short — the host waits for the
    seats' seeds (``audit_grace``), every seat verifies it and the host scores it as
    finished. Before, the audit was closed at once: the remote bots recorded
    "unverified: no seed from seat …" naming their own seats, and the host counted the
    game abandoned on its scoreboard but finished in its closing line (trial 13,
    screen 31)."""
    from jupai_net.fairness import VERIFIED
    from jupai_net.host.table import AUDITING, Table

    from .test_net_blind import blind_table

    original = Table._await_seeds
    servers, stopped = [], []

    def await_then_stop(self, reason, result, now):
        original(self, reason, result, now)
        if not stopped and reason == "finished" and self.phase == AUDITING and not self.blind.audited:
            stopped.append(True)
            servers[0].stop("the host was stopped")

    monkeypatch.setattr(Table, "_await_seeds", await_then_stop)
    with trio.fail_after(60):
        server, results = await blind_table(3, 1, tmp_path, hook=servers.append, games=None)
    assert stopped, "the host was never stopped during an audit"
    for r in results.values():
        assert r.status == "finished" and r.verdict.status == VERIFIED, r.verdict
        # the host scored it as finished, the series closed with it (its final scoreboard)
        assert r.series.game == 1 and r.series.abandoned == 0 and r.series.final, r.series
    assert server.tables[0].games_started == 1  # no game started while the host stopped


def test_the_host_screen_counts_a_game_whose_audit_failed_as_abandoned_and_says_nothing_of_a_new_series():
    """The host screen's closing line agrees with the series: a finished dealer-blind
    game whose audit failed is counted abandoned (the series scores it so); after a stop
    the players leaving start no new series ("the table stays open …" is not said)."""
    import io

    from rich.console import Console

    from jupai_net.host.cli import HostScreen

    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=80), lang="en")
    result = {"names": ["Ann", "Bob"], "ranking": [0, 1], "cards_left": [0, 3], "reason": "emptied", "winner": 0}
    screen(0, "end", {"result": result})
    screen(0, "audited", {"reason": "finished", "verified": False})
    screen.stopping(running=False, auditing=True)
    screen(0, "series-over", {"games": 1, "left": None})
    line = screen.closing(None, interrupted=True)
    text = out.getvalue()
    assert "could not be checked" in text and "waiting a few seconds for the players' seeds" in text, text
    assert "stays open" not in text and "series is over" not in text, text
    assert "0 games played, 1 abandoned" in line, line


#: The trial's machine (screens 02, 56): an IPv4 LAN address, a link-local IPv6 one, loopback.
def _trial_adapters():
    from types import SimpleNamespace as NS

    return [NS(name="lo", ips=[NS(ip="127.0.0.1"), NS(ip=("::1", 0, 0))]),
            NS(name="vh", ips=[NS(ip="10.77.0.1"), NS(ip=("fe80::9047:beff:fedc:55cb", 0, 2))])]


import pytest  # noqa: E402


@pytest.mark.parametrize("lang, width", [("en", 80), ("en", 60), ("zh", 80), ("zh", 60)])
def test_the_banner_lobby_and_commands_fit_24_rows_and_no_command_is_broken(monkeypatch, tmp_path, lang, width):
    """Plain ``jupai host`` on the trial's machine: the banner, the lobby line and the
    commands line take at most 24 rows (they took 27 at 80 and 31 at 60: the top
    scrolled off), the join and watch commands name the IPv4 address and are each one
    whole line (at zh 60 the IPv6 ones were split inside the join code), the other
    address is listed whole on one row (issue 12, trial 13)."""
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from jupai_net.host import announce
    from jupai_net.host.cli import HostScreen, commands_line, lobby_line
    from jupai_net.host.tls import load_identity
    from jupai_net.rules import RuleSet

    monkeypatch.setattr(announce, "get_adapters", _trial_adapters)
    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=width, color_system=None), lang=lang)
    rules = RuleSet()
    server = SimpleNamespace(port=47474, config=SimpleNamespace(
        bind="", table=SimpleNamespace(max_spectators=8, dealer="auto", rules=rules)))
    identity = load_identity(tmp_path)
    screen.banner(identity, server, rules, 0, "greedy", "root's table")
    screen.print(lobby_line([], rules.players, lang, start_hint=True))
    screen.print(commands_line(lang))
    rows = out.getvalue().splitlines()
    assert len(rows) <= 24, "\n".join(rows)
    assert all(len(row.rstrip()) <= width for row in rows if not row.startswith("jupai ")), "\n".join(rows)
    for verb in ("join", "watch"):
        command = f"jupai {verb} 10.77.0.1:47474 --code {identity.join_code}"
        assert sum(command in row for row in rows) == 1, "\n".join(rows)
        assert f"jupai {verb} [fe80" not in out.getvalue()
    assert any("[fe80::9047:beff:fedc:55cb%vh]" in row for row in rows), "\n".join(rows)
    assert any("kick N" in row for row in rows)  # the commands line keeps `kick N` whole


@pytest.mark.parametrize("lang, width", [("zh", 60), ("en", 80)])
def test_jupai_host_prints_at_most_24_rows_before_anyone_joins(tmp_path, lang, width):
    """Through the command (its console reading commands from a pipe, ``COLUMNS``
    columns): everything ``jupai host`` prints before anyone joins — the banner, the
    lobby line, the commands line — is at most 24 rows, so a 24-row terminal still
    shows the box's top."""
    import subprocess

    from .cli_helpers import JUPAI

    env = {**env_for(tmp_path), "COLUMNS": str(width), "LINES": "24"}
    proc = subprocess.Popen(JUPAI + ["host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--lang", lang],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        rows = []
        while not any("`help`" in row for row in rows):
            row = proc.stdout.readline()
            assert row, "".join(rows)
            rows.append(row)
        assert rows[0].startswith("╭─ jupai host") and len(rows) <= 24, "".join(rows)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_hosts_transcripts_record_its_lan_address_not_host():
    """``jupai history`` on the host showed ``address host:47474``: the transcripts
    now record the address the banner's commands name (trial 13, item 6)."""
    from types import SimpleNamespace as NS

    from jupai_net.host.server import transcript_address

    adapters = _trial_adapters()
    assert transcript_address("", 47474, adapters) == "10.77.0.1:47474"
    assert transcript_address("0.0.0.0", 47474, adapters) == "10.77.0.1:47474"
    assert transcript_address("192.0.2.5", 5, adapters) == "192.0.2.5:5"
    assert transcript_address("fe80::1%eth0", 5, adapters) == "[fe80::1%eth0]:5"
    assert transcript_address("", 47474, [NS(name="lo", ips=[NS(ip="127.0.0.1")])]) == "127.0.0.1:47474"
