"""client/cli.py: `jupai join` argument handling and error reports, and the terminal
client driven as a person would, through a pseudo-terminal: `jupai play`, and
`jupai host` + `jupai join` (specs/client.md)."""

from __future__ import annotations

import fcntl
import io
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from rich.console import Console

from jupai_net.client import cli
from jupai_net.client.cli import parse_address, report
from jupai_net.client.known_hosts import KnownHosts
from jupai_net.client.session import SessionResult
from jupai_net.client.tls import join_code
from jupai_net.fairness.verify import Verdict

JUPAI = [sys.executable, "-m", "jupai_net"]
BORDERS = re.compile(r"[\u2500-\u257f]")  # rich's panel and table borders
# a new prompt for a move (one move: "Type 1"; several: "Type a number 1–N")
PROMPT = r"Type (?:a number 1–\d+|1\b)"
PROMPT_ZH = r"输入编号 1(?:–\d+)?"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\r")


# ------------------------------------------------------------------ arguments
@pytest.mark.parametrize(
    "text, expected",
    [
        ("127.0.0.20", ("127.0.0.20", cli.DEFAULT_PORT)),
        ("127.0.0.20:7777", ("127.0.0.20", 7777)),
        ("host.lan:1", ("host.lan", 1)),
        ("[fe80::1]:7777", ("fe80::1", 7777)),
        ("[::1]", ("::1", cli.DEFAULT_PORT)),
        ("::1", ("::1", cli.DEFAULT_PORT)),
    ],
)
def test_parse_address(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["", ":7777", "host:0", "host:65536", "host:x", "[::1", "[::1]7777", "[nothost]:1",
                                  "a b:1", "1:2:zz"])
def test_parse_address_rejects(text):
    with pytest.raises(ValueError):
        parse_address(text)


def test_default_port_is_the_hosts():
    from jupai_net.host.server import DEFAULT_PORT

    assert cli.DEFAULT_PORT == DEFAULT_PORT


# ------------------------------------------------------------------ reports
def _report(result, lang="en", check=None):
    out = io.StringIO()
    code = report(result, Console(file=out, width=200, color_system=None), lang, check, "127.0.0.5", 47474)
    return code, " ".join(out.getvalue().split())


def test_report_connection_refused():
    code, text = _report(SessionResult("host-gone", error=("connect-failed", "[Errno 111] Connection refused")))
    assert code == cli.EXIT_CONNECT
    assert text.startswith("jupai join: cannot connect to 127.0.0.5:47474: Connection refused. Is `jupai host` running there")


def test_report_version_mismatch_and_host_errors():
    code, text = _report(SessionResult("refused", error=("version-mismatch", "host speaks 2, client 1")), "zh")
    assert code == cli.EXIT_VERSION and text == "jupai join: 主机使用的协议版本不同：host speaks 2, client 1。请在双方更新 jupai-net。"
    code, text = _report(SessionResult("refused", error=("table-full", "no free seat at the table")))
    assert code == cli.EXIT_HOST and text == "jupai join: the host refused: no free seat at the table"
    code, text = _report(SessionResult("host-gone", error=("connection-lost", "the host closed the connection")))
    assert code == cli.EXIT_HOST
    assert text.startswith("jupai join: connection to the host lost: the host closed the connection. ✘ game not finished")


def test_report_finished_game_with_verdict_and_transcript(tmp_path):
    ok = Verdict("verified", "fair game")
    res = SessionResult("finished", verdict=ok, ranking=[1, 0], winner=1, names={0: "Ann", 1: "Bob"}, seat=0,
                        transcript_path=tmp_path / "g.jupai")
    code, text = _report(res)
    assert code == cli.EXIT_OK
    # who won and how (specs/rules.md § 8), then the places
    assert "game over · final ranking ━━ seat 1 (Bob) wins (played out every card) 1. seat 1 (Bob) 2. seat 0 (you)" in text
    assert "✔ fairness: verified — fair game" in text
    from jupai_net.client.render import verify_command
    assert f"Check it again any time with: {verify_command()} {tmp_path / 'g.jupai'}" in text
    bad = SessionResult("finished", verdict=Verdict("tampered", "card 7 does not match"), ranking=[0, 1], seat=0)
    code, text = _report(bad)
    assert code == cli.EXIT_UNVERIFIED and "✘ fairness: tampered — card 7 does not match" in text


def test_pinning_check_messages(tmp_path):
    fp1, fp2 = "ab" * 32, "cd" * 32
    out = io.StringIO()
    console = Console(file=out, width=300, color_system=None)
    kh = KnownHosts(tmp_path / "known_hosts")
    cli.PinningCheck(None, console, "en", kh)("h", 1, fp1)
    assert f"New host h:1: join code {join_code(fp1)} pinned in" in out.getvalue()
    cli.PinningCheck(None, console, "en", kh)("h", 1, fp1)
    assert f"join code {join_code(fp1)} matches the pinned one" in out.getvalue()
    check = cli.PinningCheck(None, console, "en", kh)
    with pytest.raises(Exception):
        check("h", 1, fp2)
    assert check.failure[0] == "changed"
    assert "@@@ WARNING: THE HOST'S JOIN CODE HAS CHANGED! @@@" in out.getvalue()
    assert f"join again with --code {join_code(fp2)}" in " ".join(out.getvalue().split())
    code, _ = _report(SessionResult("refused", error=("fingerprint", "changed")), check=check)
    assert code == cli.EXIT_REFUSED
    wrong = cli.PinningCheck("ZZZZ-ZZZZ-ZZZZ-ZZZZ", console, "en", kh)
    with pytest.raises(Exception):
        wrong("h", 1, fp1)
    code, text = _report(SessionResult("refused", error=("fingerprint", "x")), check=wrong)
    assert code == cli.EXIT_REFUSED and text.startswith(f"jupai join: the host's join code is {join_code(fp1)}, not ZZZZ-ZZZZ-ZZZZ-ZZZZ")


def test_join_usage_errors(tmp_path):
    env = {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path), "LANG": "en_US.UTF-8"}
    for args, message in (
        (["join", "host:99999"], "jupai join: 'host:99999' is not HOST[:PORT]"),
        (["join", "127.0.0.1", "--code", "not a code!"], "jupai join: --code: a join code"),
        (["join", "127.0.0.1", "--bot", "nobody"], "jupai join: unknown bot 'nobody'"),
    ):
        proc = subprocess.run(JUPAI + args, env=env, capture_output=True, text=True, timeout=20)
        assert proc.returncode == cli.EXIT_USAGE, proc
        assert message in " ".join(proc.stderr.split()), proc.stderr
        assert "Traceback" not in proc.stderr


def test_join_connection_refused_is_one_clear_line(tmp_path):
    import socket

    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path), "LANG": "en_US.UTF-8"}
    proc = subprocess.run(JUPAI + ["join", f"127.0.0.1:{port}", "--bot", "random"], env=env, capture_output=True,
                          text=True, timeout=20)
    assert proc.returncode == cli.EXIT_CONNECT
    # on stderr, one line even though it is longer than 80 columns (a pipe is not wrapped)
    assert proc.stderr == (f"jupai join: cannot connect to 127.0.0.1:{port}: Connection refused. "
                           "Is `jupai host` running there, and is the port open?\n")
    assert "Cannot connect" not in proc.stdout and "Traceback" not in proc.stdout + proc.stderr


# ------------------------------------------------------------------ a person at a terminal
class Terminal:
    """A program on a pseudo-terminal (rows × cols); :meth:`expect` reads its screen
    output (ANSI codes removed) until a pattern appears."""

    def __init__(self, argv, env, rows=60, cols=140):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                                     start_new_session=True)
        os.close(slave)
        self.raw = b""

    def read(self, timeout=0.1) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.raw += data
        return True

    @property
    def text(self) -> str:
        """Everything written so far, ANSI codes removed."""
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    @property
    def flat(self) -> str:
        """:attr:`text` with panel borders dropped and all white space folded to one
        space, so a line that rich wrapped at the terminal's width reads as one."""
        return " ".join(BORDERS.sub(" ", self.text).split())

    def expect(self, pattern, timeout=15.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.text)
            if m:
                return m
            if not self.read() and self.proc.poll() is not None:
                break
        raise AssertionError(f"{pattern!r} not on screen; last output:\n{self.text[-3000:]}")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def play_until(self, prompt_hint: str, end_pattern: str, answers=("1",), timeout=30.0) -> int:
        """Answer every prompt (each new match of the regex ``prompt_hint`` on screen)
        by typing the next of ``answers`` (the last one repeats) until ``end_pattern``
        appears; returns how many prompts were answered."""
        end = time.monotonic() + timeout
        answered = 0
        while time.monotonic() < end:
            if re.search(end_pattern, self.text):
                return answered
            if len(re.findall(prompt_hint, self.text)) > answered:
                self.type(answers[min(answered, len(answers) - 1)])
                answered += 1
            if not self.read() and self.proc.poll() is not None:
                break
        raise AssertionError(f"{end_pattern!r} never appeared; last output:\n{self.text[-3000:]}")

    def wait(self, timeout=15.0) -> int:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self.read()
        while self.read(0.05):
            if self.proc.poll() is not None and not select.select([self.master], [], [], 0)[0]:
                break
        return self.proc.wait(timeout=max(0.1, end - time.monotonic()))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def _env(tmp_path: Path, name: str, lang: str = "en_US.UTF-8") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(JUPAI_CONFIG_DIR=str(tmp_path / name), LANG=lang, TERM="xterm-256color", COLUMNS="140", LINES="60")
    return env


def test_jupai_play_typed_by_a_person(tmp_path):
    """`jupai play`: the table appears, the person types numbers (a wrong one first),
    the outcomes show their formulas, the game ends verified with a transcript."""
    transcript = tmp_path / "me.jupai"
    term = Terminal(JUPAI + ["play", "--seats", "2", "--rounds", "3", "--bot-delay", "0", "--name", "Ann",
                             "--transcript", str(transcript)], _env(tmp_path, "cfg"))
    try:
        term.expect(r"Your moves")
        term.expect(r"Type a number 1–\d+ and Enter")
        term.type("99")
        term.expect(r"There is no move 99: type a number 1–\d+")
        term.type("/chat hello table")
        term.expect(r"Ann: hello table")
        answered = term.play_until(PROMPT, r"fairness: verified")
        assert answered >= 1
        term.expect(r"Play again\? \[Enter\] / q to leave")  # the table stays (specs/host.md § 3a)
        term.type("q")
        term.expect(r"You left the table after game 1\.")
        assert term.wait() == 0
    finally:
        term.close()
    screen = term.flat
    assert "seat 0 (you)" in screen and "Your identity:" in screen and "Round 1/3" in screen
    # outcome lines show formulas and the result (read with rich's wrapping undone)
    assert re.search(r"= \d+ .{0,400}?→", screen), screen[-3000:]
    assert re.search(r"\d+×\d+|\d+ \+ \d+ = \d+|i \d+ [<>=] m \d+", screen)
    assert "Final ranking" in screen
    assert transcript.exists()


def test_jupai_host_and_join_in_chinese(tmp_path):
    """`jupai host` on a free port; a wrong --code is refused before anything is
    pinned; then `jupai join` in Chinese pins the code — the warning stays on screen
    until Enter although that join fills the table — plays by typed numbers and ends
    with the fairness verdict and the transcript path."""
    host_env = _env(tmp_path, "host")
    host = subprocess.Popen(JUPAI + ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "2", "--bots", "1",
                                     "--rounds", "3", "--bot-delay", "0", "--turn-timeout", "0", "--games", "1"],
                            env=host_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    term = None
    try:
        banner = ""
        end = time.monotonic() + 20
        while "join with" not in banner and time.monotonic() < end:
            banner += host.stdout.readline()
        m = re.search(r"jupai join 127\.0\.0\.1:(\d+) --code ([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3})", banner)
        assert m, banner
        port, code = m.group(1), m.group(2)
        client_env = _env(tmp_path, "client", "zh_CN.UTF-8")
        wrong = "0000-0000-0000-0000" if code != "0000-0000-0000-0000" else "1111-1111-1111-1111"
        proc = subprocess.run(JUPAI + ["join", f"127.0.0.1:{port}", "--code", wrong, "--bot", "random"],
                              env=client_env, capture_output=True, text=True, timeout=20)
        assert proc.returncode == cli.EXIT_REFUSED
        assert proc.stderr.startswith(f"jupai join: 主机的加入码是 {code}，不是 {wrong}：拒绝加入"), proc.stderr
        assert not (tmp_path / "client" / "known_hosts").exists()

        transcript = tmp_path / "seat.jupai"
        term = Terminal(JUPAI + ["join", f"127.0.0.1:{port}", "--name", "小明", "--transcript", str(transcript)],
                        client_env)
        term.expect(rf"新主机 127\.0\.0\.1:{port}：加入码 {code} 已记录到")
        # this join fills the table and the game starts at once, but the trust-on-first-use
        # warning stays alone on screen until Enter (the game screen does not replace it)
        term.expect(r"按回车键进入牌桌")
        end = time.monotonic() + 3
        while time.monotonic() < end:
            term.read()
        last = ANSI.sub("", term.raw.decode("utf-8", "replace").rsplit("\x1b[2J", 1)[-1])
        assert "按回车键进入牌桌" in last and "请核对主机的加入码" in last and code in " ".join(last.split())
        assert "可选行动" not in term.text and "第 1/3 回合" not in term.text
        term.type("")
        term.expect(r"可选行动")
        term.play_until(PROMPT_ZH, r"✔ 公平性：已验证")
        term.expect(r"对局记录已保存到")
        assert term.wait() == 0
        screen = term.flat
        assert "0号位（你） · 你的身份：" in screen and "第 1/3 回合" in screen
        assert re.search(r"= \d+ .{0,400}?→", screen), screen[-3000:]
        assert "seat.jupai" in screen
        # `jupai host` deals blind by default (--dealer auto): said at the start and in the verdict
        assert "庄家盲发：主机看不到你的牌" in screen and "已验证 — 庄家盲发：公平的对局" in screen
        assert transcript.exists()
        pinned = (tmp_path / "client" / "known_hosts").read_text()
        assert pinned.startswith(f"[127.0.0.1]:{port} ") and pinned.strip().endswith(code)
        verify = subprocess.run(JUPAI + ["verify", str(transcript)], capture_output=True, text=True, timeout=30)
        assert verify.returncode == 0, verify.stdout
        assert "dealer-blind: fair game" in " ".join(verify.stdout.split()), verify.stdout
    finally:
        if term is not None:
            term.close()
        host.kill()
        host.wait()


# ------------------------------------------------------------------ a misbehaving host
async def _fake_host(identity, behaviour, task_status):
    """A TLS listener on 127.0.0.1 that, per connection, reads the hello and then
    ``behaviour``: ``"version"`` answers an error ``version-mismatch``, ``"close"``
    just hangs up."""
    import trio

    from jupai_net.protocol import ErrorMessage, HostConnection

    async def handle(stream):
        tls = trio.SSLStream(stream, identity.server_context(), server_side=True)
        try:
            await tls.do_handshake()
            conn = HostConnection()
            conn.receive_data(await tls.receive_some(65536))
            conn.next_event()
            if behaviour == "version":
                await tls.send_all(conn.send(ErrorMessage("version-mismatch", "this host speaks protocol version 9 only")))
        except (trio.BrokenResourceError, OSError):
            pass
        finally:
            await trio.aclose_forcefully(tls)

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    task_status.started(listeners[0].socket.getsockname()[1])
    await trio.serve_listeners(handle, listeners)


@pytest.mark.parametrize("behaviour, exit_code, message", [
    ("version", cli.EXIT_VERSION, "the host speaks another protocol version: this host speaks protocol version 9 only. "
                                  "Update jupai-net on both sides."),
    ("close", cli.EXIT_HOST, "connection to the host lost: the connection broke without a goodbye from the host."),
])
async def test_join_against_a_misbehaving_host(tmp_path, monkeypatch, behaviour, exit_code, message):
    import argparse

    import trio

    from jupai_net.host.tls import ephemeral_identity

    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    identity = ephemeral_identity()
    out = io.StringIO()
    console = Console(file=out, width=300, color_system=None)
    args = argparse.Namespace(bot="random", transcript=None, seat=None)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(_fake_host, identity, behaviour)
        with trio.fail_after(10):
            code = await cli.join("127.0.0.1", port, "tester", identity.join_code, args, "en", console)
        nursery.cancel_scope.cancel()
    text = " ".join(out.getvalue().split())
    assert code == exit_code, text
    assert message in text
    assert f"New host 127.0.0.1:{port}: join code {identity.join_code} pinned" in text
