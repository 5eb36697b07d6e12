"""The commands end to end, in real processes: ``jupai play`` (bot demo and a person
typing numbers) and ``jupai host`` with two ``jupai join --bot`` clients
(specs/host.md §2, §11)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jupai_net.fairness import VERIFIED
from jupai_net.fairness.cli import read_and_verify

JUPAI = [sys.executable, "-m", "jupai_net"]


def env_for(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, JUPAI_CONFIG_DIR=str(tmp_path / "config"), COLUMNS="100", LANG="C.UTF-8",
                PYTHONIOENCODING="utf-8")


def test_play_bot_demo_finishes_and_verifies(tmp_path):
    out = subprocess.run(JUPAI + ["play", "--bot", "random", "--rounds", "4", "--transcript", str(tmp_path / "t.jupai")],
                         capture_output=True, text=True, timeout=60, env=env_for(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "final ranking" in out.stdout and "fairness: verified" in out.stdout
    # dealt blind by default (--dealer auto: the bots are the host's, its client speaks
    # protocol 4), said before the game and in the verdict (issue 9)
    flat = " ".join(out.stdout.split())
    assert "dealer-blind: this host cannot see the players' cards" in flat and "verified — dealer-blind: fair game" in flat
    verdict = read_and_verify(str(tmp_path / "t.jupai"))
    assert verdict.status == VERIFIED and verdict.details["scheme"] == "dealer-blind"
    again = subprocess.run(JUPAI + ["verify", str(tmp_path / "t.jupai")], capture_output=True, text=True, timeout=60,
                           env=env_for(tmp_path))
    assert again.returncode == 0 and "dealer-blind: fair game" in " ".join(again.stdout.split()), again
    # the host identity was made once in the config dir
    assert (tmp_path / "config" / "host-cert.pem").exists()


def test_play_a_person_typing_numbers_finishes_a_game(tmp_path):
    """``--plain``: the numbered moves on stdout, a number per line on stdin."""
    lines = "".join("1\n" for _ in range(400))
    out = subprocess.run(JUPAI + ["play", "--plain", "--rounds", "3", "--bot-delay", "0", "--seats", "3"],
                         input=lines, capture_output=True, text=True, timeout=60, env=env_for(tmp_path))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    assert re.search(r"^\s+1\. ", out.stdout, re.M)  # the moves were offered, numbered
    assert "game over" in out.stdout and "fairness: verified" in out.stdout
    paths = list((tmp_path / "config" / "transcripts").glob("*.jupai"))
    assert len(paths) == 1 and read_and_verify(str(paths[0])).status == VERIFIED


def test_play_leaving_early_is_not_a_verified_game(tmp_path):
    out = subprocess.run(JUPAI + ["play", "--plain", "--rounds", "6"], input="/quit\n",
                         capture_output=True, text=True, timeout=60, env=env_for(tmp_path))
    assert out.returncode == 1
    assert "game not finished (left" in out.stdout


def test_host_and_two_joins_in_separate_processes(tmp_path):
    env = env_for(tmp_path)
    host = subprocess.Popen(JUPAI + ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "3", "--bots", "1",
                                     "--bot-delay", "0", "--rounds", "4", "--games", "1", "--transcript-dir", str(tmp_path / "host")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert host.stdout is not None
        banner = ""
        deadline = time.monotonic() + 20
        while "host key" not in banner and time.monotonic() < deadline:
            banner += host.stdout.readline()
        addr = re.search(r"jupai join (127\.0\.0\.1:\d+) --code (\w{4}(?:-\w{4}){3})", banner)
        assert addr, banner
        assert "2 seats for people, 1 greedy bot" in banner
        joins = [
            subprocess.Popen(JUPAI + ["join", addr[1], "--bot", "random", "--code", addr[2], "--name", name,
                                      "--transcript", str(tmp_path / f"{name}.jupai")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            for name in ("alice", "bob")
        ]
        for j in joins:
            out, err = j.communicate(timeout=60)
            assert j.returncode == 0, out + err
        rest, _ = host.communicate(timeout=30)
    finally:
        if host.poll() is None:
            host.kill()
    assert host.returncode == 0
    assert "game over" in rest
    # after the last game: one closing line (who won, where the transcripts are), no lobby lines
    after = rest[rest.index("game over"):]
    assert "lobby" not in after and "notice" not in after
    closing = " ".join(after.split())
    assert re.search(r"host closed: 1 game played; \S.* \(seat \d\) wins \((played out every card|ranked first after "
                     r"the last round)\)\.", closing), closing
    assert f"Every seat's transcript is in {tmp_path / 'host'}" in closing
    for name in ("alice", "bob"):
        assert read_and_verify(str(tmp_path / f"{name}.jupai")).status == VERIFIED
    host_copies = sorted((tmp_path / "host").glob("*.jupai"))
    assert len(host_copies) == 3 and all(read_and_verify(str(p)).status == VERIFIED for p in host_copies)


@pytest.mark.parametrize("argv, message", [
    (["host", "--seats", "4", "--bots", "4"], "--bots must be 0-3"),
    (["host", "--seats", "9"], "players"),
    (["play", "--rules", "/nonexistent.toml"], "cannot read"),
    (["host", "--max-spectators", "65"], "jupai host: --max-spectators must be 0-64, got 65"),
    (["host", "--max-spectators", "-1"], "jupai host: --max-spectators must be 0-64, got -1"),
    (["host", "--games", "-1"], "jupai host: --games must be 0 (until stopped) or more, got -1"),
    (["play", "--games", "-2"], "jupai play: --games must be 0 (until you leave) or more, got -2"),
])
def test_bad_arguments_exit_2_with_a_clear_message(argv, message, tmp_path):
    out = subprocess.run(JUPAI + argv, capture_output=True, text=True, timeout=30, env=env_for(tmp_path))
    assert out.returncode == 2 and message in out.stderr


def test_host_on_a_busy_port_exits_3(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run(JUPAI + ["host", "--bind", "127.0.0.1", "--port", str(port)],
                             capture_output=True, text=True, timeout=30, env=env_for(tmp_path))
    assert out.returncode == 3 and f"cannot listen on port {port}" in out.stderr
    assert "Traceback" not in out.stderr


class Running:
    """A ``jupai`` process whose stdout is read line by line in a thread."""

    def __init__(self, argv: list[str], env: dict[str, str]):
        import threading

        self.proc = subprocess.Popen(JUPAI + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        self.stderr = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def wait_for(self, pattern: str, timeout: float = 20.0, *, after: int = 0) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, "".join(self.lines[after:]))
            if found:
                return found
            if self.proc.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} not in output:\n{self.text[-3000:]}\n{self.stderr_now()}")

    def interrupt(self, timeout: float = 15.0) -> int:
        import signal

        self.proc.send_signal(signal.SIGINT)
        return self.finish(timeout)

    def finish(self, timeout: float = 30.0) -> int:
        code = self.proc.wait(timeout=timeout)
        self._reader.join(timeout=5)
        self.stderr = self.stderr_now()
        return code

    def stderr_now(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return ""
        return self.stderr or self.proc.stderr.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def start_host(tmp_path: Path, *argv: str) -> tuple[Running, str, str]:
    host = Running(["host", "--bind", "127.0.0.1", "--port", "0", *argv], env_for(tmp_path))
    # (a start-up on a loaded machine may take over 20 s)
    found = host.wait_for(r"jupai join (127\.0\.0\.1:\d+) --code (\w{4}(?:-\w{4}){3})", timeout=60)
    return host, found[1], found[2]


def test_ctrl_c_in_the_lobby_leaves_politely_and_ctrl_c_at_the_host_says_bye(tmp_path):
    """Ctrl-C in `jupai join` (lobby): bye, the host frees the seat, exit 130, no
    traceback. Ctrl-C at `jupai host`: every client gets bye, one closing line, exit
    130, no traceback. The lobby lists every seat, empty ones too."""
    host, addr, code = start_host(tmp_path, "--seats", "3", "--bots", "1")
    procs = [host]
    try:
        host.wait_for(r"lobby 1 of 3 seats taken · 0 \(empty\) · 1 \(empty\) · 2 greedy bot 2 \(bot\) ✓")
        first = Running(["join", addr, "--bot", "random", "--code", code], env_for(tmp_path))
        procs.append(first)
        mark = len(host.lines)
        host.wait_for(r"notice random bot \(a bot\) took seat 0", after=mark)
        host.wait_for(r"lobby 2 of 3 seats taken · 0 random bot \(bot\) ✓ · 1 \(empty\)", after=mark)
        mark = len(host.lines)
        assert first.interrupt() == 130
        assert "Traceback" not in first.stderr + first.text
        assert "You left the table before a game began." in first.text  # no game to report on
        host.wait_for(r"lobby 1 of 3 seats taken · 0 \(empty\) · 1 \(empty\)", after=mark)  # the bye freed the seat
        second = Running(["join", addr, "--bot", "random", "--code", code], env_for(tmp_path))
        procs.append(second)
        host.wait_for(r"took seat 0", after=mark)
        assert host.interrupt() == 130
        assert "Traceback" not in host.stderr and "host stopped with Ctrl-C: 0 games played." in host.text
        assert "stopping: no game is running" in host.text  # nothing to abandon in the lobby
        assert host.stderr.strip() == ""  # no raw log lines on the host's terminal
        assert second.finish(15) == 6  # told by the host's bye, not by a timeout
        assert "jupai join: the host closed the connection" in second.stderr and "Traceback" not in second.stderr
    finally:
        for p in procs:
            p.kill()


def test_ctrl_c_mid_game_the_player_left_and_the_host_abandons_cleanly(tmp_path):
    """Ctrl-C in `jupai join` mid-game: unverified because the player left (never
    'suspicious' about the host), and `jupai verify` on the saved file agrees. Ctrl-C at
    the host mid-game: the game is abandoned with the reason, transcripts saved."""
    # the trusted scheme's outcomes (a host that abandons after the seeds is suspicious);
    # a dealer-blind abandon is tested in tests/test_net_blind.py
    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--bot-delay", "1", "--rounds", "12",
                                  "--opponents", "random", "--transcript-dir", str(tmp_path / "host"),
                                  "--dealer", "trusted")
    procs = [host]
    try:
        mine = tmp_path / "mine.jupai"
        join = Running(["join", addr, "--bot", "random", "--code", code, "--transcript", str(mine)], env_for(tmp_path))
        procs.append(join)
        host.wait_for(r"game \w+ starts")
        host.wait_for(r"Round 1/12")  # the spectator table: the seeds are revealed, the cards dealt
        assert join.interrupt() == 130
        out = " ".join(join.text.split())
        assert "Traceback" not in join.stderr
        assert "left the table before the end" in out
        assert "fairness: unverified" in out and "this seat left the game before the end" in out
        assert "SUSPICIOUS" not in out and "host stopped" not in out
        verify = subprocess.run(JUPAI + ["verify", str(mine)], capture_output=True, text=True, timeout=30,
                                env=env_for(tmp_path))
        assert verify.returncode == 5 and "this seat left the game" in " ".join(verify.stdout.split())
        assert host.interrupt() == 130
        text = " ".join(host.text.split())
        assert "stopping: abandoning the running game and telling the players why" in text
        assert "game abandoned: the host was stopped" in text
        # one clear closing sentence: no nested reasons, no "played" for the abandoned game
        assert "host stopped with Ctrl-C: 0 games played, 1 abandoned. Every seat's transcript is in" in text
        assert "Traceback" not in host.stderr and "WARNING" not in host.stderr + host.text
        assert "abandoned" in (tmp_path / "config" / "host.log").read_text()  # the log went to the file
        assert "random bot 1" in text  # --opponents random named the host bot
        copies = sorted((tmp_path / "host").glob("*.jupai"))
        assert len(copies) == 2 and {read_and_verify(str(p)).status for p in copies} == {"suspicious"}
    finally:
        for p in procs:
            p.kill()


def test_host_opponents_option_matches_play_and_bot_is_a_deprecated_alias(tmp_path, capsys):
    from jupai_net.cli import build_parser
    from jupai_net.client.tls import config_dir
    from jupai_net.host.cli import build_config

    parser = build_parser()
    assert build_config(parser.parse_args(["host", "--bots", "1", "--opponents", "random"])).table.bot == "random"
    config = build_config(parser.parse_args(["host", "--bots", "1"]))
    assert config.table.bot == "greedy"
    assert config.transcript_dir == config_dir() / "host-transcripts"  # the host keeps its transcripts by default
    assert build_config(parser.parse_args(["host", "--bots", "1", "--bot", "random"])).table.bot == "random"
    assert "--bot is deprecated here, use --opponents" in capsys.readouterr().err
    capsys.readouterr()
    # --opponents without --bots: the bots take every seat but one
    assert build_config(parser.parse_args(["host", "--seats", "3", "--opponents", "greedy"])).table.bots == 2
    assert build_config(parser.parse_args(["host", "--seats", "4", "--bots", "2"])).table.bots == 2
    assert build_config(parser.parse_args(["host", "--seats", "3"])).table.bots == 0
    assert capsys.readouterr().err == ""
    assert build_config(parser.parse_args(["host", "--seats", "3", "--bots", "0", "--opponents", "random"])).table.bots == 0
    assert "--opponents random has no effect with --bots 0" in capsys.readouterr().err
    help_text = subprocess.run(JUPAI + ["host", "--help"], capture_output=True, text=True, timeout=30,
                               env=env_for(tmp_path)).stdout
    assert "--opponents NAME" in help_text and "--bot " not in help_text
    assert "every seat but one" in " ".join(help_text.split())


def test_host_says_how_many_seats_wait_for_people():
    from jupai_net.host.cli import seats_line

    assert seats_line(3, 1, "greedy") == "2 seats for people, 1 greedy bot"
    assert seats_line(4, 2, "random") == "2 seats for people, 2 random bots"
    assert seats_line(2, 1, "greedy") == "1 seat for people, 1 greedy bot"
    assert seats_line(3, 0, "greedy").startswith("3 seats for people, no bots yet (type start")
