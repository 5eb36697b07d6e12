"""Every command a person types shows a peer's strings literally (issue 12 review): the
names, table name, chat, notices, verdicts and file fields that a hostile host, player,
announcement or transcript file controls reach the screen as the text they are — rich
markup (``[red]``, ``[link=…]``, a ``[/]`` that closes a style) and rich's emoji codes
(``:skull:``) not interpreted, control characters (ESC, BEL, CR, C1, bidi overrides)
never written, and a long or wide name never widening a line past the terminal.

One test per command, run as a person runs it: ``jupai history``, ``jupai verify``
(a file and a folder), ``jupai replay``, ``jupai join`` and ``jupai watch`` against a
hostile host (on a pseudo-terminal), the ``jupai host`` console with a hostile player,
and ``jupai join`` with no address listing the tables an injected LAN announces."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from rich.cells import cell_len

from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.transcript import decode_transcript, encode_transcript
from jupai_net.rules import RuleSet

from .test_client_cli import Terminal, _env
from .test_net_support import HostileHost

JUPAI = [sys.executable, "-m", "jupai_net"]

#: What a peer may send over the wire (printable: the protocol refuses the rest).
MARKUP = ["[red]x[/red]", "[link=http://x]y[/link]", ":skull:", "[/]", "[bold]b"]
#: What a file or an announcement may also hold (nothing checks an unsigned field first).
CONTROLS = ["\x1b[2Jz", "\x1b]0;pwned\x07t", "\u202egnp.exe", "a\rb", "c\x9b1md", "e\u200bf", "g\x07h"]
WIDE = "表" * 24  # 48 cells: a name the protocol accepts
LONG = "W" * 190  # with the escape below: the 200 characters a meta field may hold

SGR = re.compile(r"\x1b\[[0-9;]*m")
BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def assert_clean(raw: str, *, screen: bool = False) -> None:
    """No control character reaches the terminal but line breaks and rich's own colours
    (``screen``: also the cursor moves and clears of a full-screen program, which a peer
    cannot send: the protocol refuses ESC); no bidi control, no zero-width space, no
    hyperlink, no emoji made from a code."""
    rest = SGR.sub("", raw)
    if screen:
        rest = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r", "", rest)
        rest = re.sub(r"\x1b[\[()]?[0-9;?]*\Z", "", rest)  # a read of the pty can end inside a sequence
    bad = [i for i, c in enumerate(rest)
           if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) <= 0x9F or c in BIDI or c == "\u200b"]
    assert not bad, f"control characters reached the terminal: {[rest[max(0, i - 20):i + 20] for i in bad[:5]]}"
    assert "\x1b]" not in raw, "an OSC sequence (title, hyperlink, clipboard) reached the terminal"
    assert "\U0001f480" not in raw, "':skull:' was turned into an emoji"


def flat(raw: str) -> str:
    """The text as a person reads it: colours dropped, white space folded."""
    return " ".join(SGR.sub("", raw).split())


def assert_literal(raw: str, *texts: str) -> None:
    """Each of ``texts`` is on the screen as written (white space and panel borders
    aside: rich folds a long value over several lines of a panel)."""
    said = "".join(re.sub(r"[\u2500-\u257f]", "", SGR.sub("", raw)).split())
    for text in texts:
        assert "".join(text.split()) in said, (text, flat(raw)[-3000:])


def assert_fits(raw: str, width: int) -> None:
    for line in SGR.sub("", raw).splitlines():
        assert cell_len(line) <= width, f"a line wider than the {width}-column terminal: {line!r}"


# ---------------------------------------------------------------- files: history, verify, replay
@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory) -> dict[str, Any]:
    """One honest game whose transcript's unsigned ``meta`` (table, address, names) and
    file name are hostile, in a folder of its own."""
    folder = tmp_path_factory.mktemp("hostile-files")
    game = play_game(RuleSet(players=3, rounds=2), rng_seed=3)
    t = decode_transcript(game.transcript(0))
    meta = {"saved": "2026-01-01T00:00:00", "table": "[bold]T[/] :skull: \x1b]0;x\x07 \u202eelbat",
            "address": "[link=http://x]a[/link]\x1b[2J", "names": ["me", "[red]x[/red] :skull:", LONG + "\x1b[2J"]}
    path = folder / "[red]x[red] :skull: \x1b[2J a\rb \u202egnp.jupai"
    path.write_bytes(encode_transcript(dataclasses.replace(t, meta=meta)))
    wide = tmp_path_factory.mktemp("wide-files") / "wide.jupai"  # the same game: a folder of its own
    wide_meta = {**meta, "names": ["me", WIDE + WIDE, "[/]" * 10], "table": WIDE}
    wide.write_bytes(encode_transcript(dataclasses.replace(decode_transcript(game.transcript(1)), meta=wide_meta)))
    return {"folder": folder, "file": path, "wide": wide}


def _run(argv: list[str], tmp_path, columns: int = 80, color: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": str(columns), "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
           "JUPAI_CONFIG_DIR": str(tmp_path)}
    env.pop("NO_COLOR", None)
    if color:  # rich writes as to a terminal: colours, panels
        env["FORCE_COLOR"] = "1"
    else:
        env.pop("FORCE_COLOR", None)
    proc = subprocess.run(JUPAI + argv, capture_output=True, text=True, timeout=60, env=env,
                          stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc


FILE_COMMANDS = {
    "history": lambda f: ["history", "--dir", str(f["folder"])],
    "verify": lambda f: ["verify", str(f["file"])],
    "verify-folder": lambda f: ["verify", str(f["folder"])],
    "replay": lambda f: ["replay", str(f["file"]), "--all"],
}


@pytest.mark.parametrize("color", [False, True], ids=["pipe", "color"])
@pytest.mark.parametrize("command", list(FILE_COMMANDS))
def test_file_commands_show_a_hostile_transcript_literally(hostile_files, tmp_path, command, color):
    proc = _run(FILE_COMMANDS[command](hostile_files), tmp_path, color=color)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    raw = proc.stdout + proc.stderr
    assert_clean(raw)
    if color:  # a pipe has no width: `jupai verify FILE | less` keeps a long path on one line
        assert_fits(proc.stdout, 80)
    if command in ("history", "replay"):  # the names and the table from meta
        assert_literal(raw, "[red]x[/red] :skull:")
    if command == "history":
        assert_literal(raw, "[bold]T[/] :skull:")
    if command.startswith("verify"):  # the file name
        assert_literal(raw, "[red]x[red] :skull:")


@pytest.fixture(scope="module")
def hostile_abandon(tmp_path_factory) -> Any:
    """A game the host abandoned with a reason of its own words holding an OSC sequence,
    a bidi override and a C1 control (signed: the verifier quotes it)."""
    from jupai_net.fairness.selfplay import deliver

    folder = tmp_path_factory.mktemp("hostile-abandon")
    game = play_game(RuleSet(players=3, rounds=2), rng_seed=1, max_steps=3, finish=False)
    deliver(game.dealer.abandon("\x1b]0;pwned\x07 [red]x[/red] :skull: \u202egnp \x9b1m"), game.witnesses)
    (folder / "g-seat0.jupai").write_bytes(game.transcript(0))
    return folder


@pytest.mark.parametrize("argv", [["history", "--json"], ["history"], ["verify", "--json"], ["verify"],
                                  ["replay", "--all", "--force"]], ids=" ".join)
def test_a_hosts_abandon_reason_reaches_no_screen_and_no_json_raw(hostile_abandon, tmp_path, argv):
    where = ["--dir", str(hostile_abandon)] if argv[0] == "history" else [str(hostile_abandon / "g-seat0.jupai")]
    proc = _run([argv[0], *where, *argv[1:]], tmp_path, color=True)
    assert proc.returncode in (0, 2, 3, 4, 5), proc.stderr
    raw = proc.stdout + proc.stderr
    assert_clean(raw)
    if argv[0] != "history" or "--json" in argv:  # the list's line has no room for the reason
        assert_literal(raw, "[red]x[/red] :skull:")


@pytest.mark.parametrize("command", ["history", "replay"])
def test_wide_names_from_a_file_keep_the_layout(hostile_files, tmp_path, command):
    argv = ["history", "--dir", str(hostile_files["wide"].parent)] if command == "history" else \
        ["replay", str(hostile_files["wide"]), "--all"]
    for columns in (40, 60, 80):
        proc = _run(argv, tmp_path, columns=columns, color=True)
        assert proc.returncode == 0, proc.stderr
        assert_clean(proc.stdout)
        assert_fits(proc.stdout, columns)
        assert "[/][/]" in flat(proc.stdout) or command == "history"


# ---------------------------------------------------------------- a hostile host: join and watch
def _wire(msg: Any) -> dict[str, Any]:
    """A message's wire map (a test then makes it what no message class would build)."""
    return msg.to_wire(seq=0)


def _welcome_frames(seat: int | None) -> list[dict[str, Any]]:
    from jupai_net.protocol import ChatRelay, Lobby, Notice, PlayerInfo, Welcome

    players = (PlayerInfo(0, "Ann"), PlayerInfo(1, "[red]x[/red]"), PlayerInfo(2, "[link=http://x]y[/link]"),
               PlayerInfo(3, WIDE))
    if seat is None:
        players = (PlayerInfo(0, ":skull:"),) + players[1:]
    return [
        _wire(Welcome(seat, "t" * 32, RuleSet(players=4), players, table="[bold]T[/] :skull:")),
        _wire(Lobby(players)),
        _wire(ChatRelay(1, "[red]x[/red]", "[bold red]host[/] says [link=http://x]click[/link] :skull: " + "表" * 40)),
        _wire(Notice("player-joined", "[/] took a seat :skull:", {"name": "[/] :skull:", "seat": 2})),
    ]


@pytest.mark.parametrize("command", ["join", "watch"])
def test_join_and_watch_show_a_hostile_hosts_strings_literally(tmp_path, command):
    host = HostileHost(_welcome_frames(0 if command == "join" else None))
    argv = JUPAI + [command, f"127.0.0.1:{host.port}", "--name", "Ann", "--code", host.identity.join_code]
    term = Terminal(argv, _env(tmp_path, "c"), rows=24, cols=80)
    try:
        term.expect(r"(?s)host\W+says")
        term.expect(r"took")
        time.sleep(0.3)  # the screen settles
    finally:
        host.close()
        term.proc.kill()
        term.proc.wait(10)
    raw = term.raw.decode("utf-8", "replace")
    assert_clean(raw, screen=True)
    said = term.flat
    for text in ("[red]x[/red]", "[bold red]host[/] says", "[/] :skull:"):
        assert text in said, (text, said[-3000:])
    assert "Traceback" not in said


def test_join_refuses_control_characters_from_a_host_without_writing_them(tmp_path):
    """A name with ESC or a bidi override breaks the protocol's printable rule: the frame
    is refused, and the refusal does not write the character either."""
    frames = _welcome_frames(0)
    frames[1]["players"][1]["name"] = "\x1b]0;pwned\x07\u202eX"
    host = HostileHost(frames)
    r, w = os.pipe()  # a person who types nothing
    later = threading.Timer(10, host.close)  # a client that took the frame would wait for the host
    later.start()
    try:
        proc = subprocess.run(JUPAI + ["join", f"127.0.0.1:{host.port}", "--name", "Ann", "--code",
                                       host.identity.join_code],
                              capture_output=True, text=True, timeout=30, stdin=r,
                              env={**_env(tmp_path, "c"), "PYTHONIOENCODING": "utf-8"})
    finally:
        later.cancel()
        host.close()
        os.close(r)
        os.close(w)
    assert proc.returncode == 6, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert_clean(proc.stdout + proc.stderr)


# ---------------------------------------------------------------- the host console
def test_the_host_console_shows_a_hostile_players_strings_literally(tmp_path):
    import trio

    from jupai_net.protocol import Chat, ErrorMessage, Hello

    from .test_net_hardening import HostProcess
    from .test_net_support import RawClient

    host = HostProcess(tmp_path, "--seats", "3", "--no-announce", "--table", "T")
    try:
        port = int(host.addr.rsplit(":", 1)[1])

        async def hostile() -> Any:
            raw = await RawClient.connect(port)
            await raw.send(Hello("[red]x[/red] :skull:"))
            await raw.recv(10)
            await raw.send(Chat("[link=http://x]y[/link] [/] :skull: " + "表" * 60))
            await raw.aclose()
            bad = await RawClient.connect(port)
            await bad.send_raw(__import__("jupai_net.protocol.framing", fromlist=["x"]).encode_frame(
                {**Hello("z").to_wire(seq=0), "name": "\x1b]0;pwned\x07\u202eq"}))
            msg = await bad.recv(10)
            await bad.aclose()
            return msg

        refused = trio.run(hostile)
        assert isinstance(refused, ErrorMessage)
        host.wait_for(r"\[link=http://x\]y\[/link\] \[/\] :skull:")
        host.wait_for(r"seat 0 is free|left")
    finally:
        host.kill()
    raw = "\n".join(host.lines) + host.stderr
    assert_clean(raw)
    assert_literal(raw, "[red]x[/red] :skull:", "[link=http://x]y[/link] [/] :skull:")
    assert_fits("\n".join(host.lines), 100)


# ---------------------------------------------------------------- tables heard on the LAN
FAKE_LAN = r'''
import json, os, sys, types
services = json.loads(sys.argv[1])
class Info:
    def __init__(self, s):
        self.port, self.properties, self._s = s["port"], s["txt"], s
    def parsed_addresses(self):
        return self._s["addresses"]
class Zeroconf:
    def __init__(self, **kw): pass
    def get_service_info(self, type_, name, timeout=0):
        return next((Info(s) for s in services if s["name"] == name), None)
    def close(self): pass
class ServiceBrowser:
    def __init__(self, zc, type_, handlers):
        for s in services:
            for h in handlers:
                h(zc, type_, s["name"], types.SimpleNamespace(name="Added"))
    def cancel(self): pass
fake = types.ModuleType("zeroconf")
fake.IPVersion, fake.Zeroconf, fake.ServiceBrowser = types.SimpleNamespace(V4Only=4), Zeroconf, ServiceBrowser
sys.modules["zeroconf"] = fake  # the injected transport: nothing is sent on any interface
os.environ.pop("JUPAI_NO_MULTICAST", None)
from jupai_net.cli import main
sys.exit(main(sys.argv[2:]))
'''


@pytest.mark.parametrize("columns", [80, 40])
def test_join_without_an_address_lists_hostile_announcements_literally(tmp_path, columns):
    def ad(name: str, port: int, code: str = "ABCDE") -> dict[str, Any]:
        return {"name": f"{name}._jupai._tcp.local.", "addresses": ["127.0.0.1"], "port": port,
                "txt": {"v": "5", "seats": "4", "free": "2", "state": "lobby", "code": code}}

    services = [ad("[red]x[/red] :skull: \u202egnp", 1), ad("[link=http://x]y[/link] a\rb\x1b[2J", 2),
                ad(WIDE + "\x07", 3), ad("bad code", 4, "[b]:skull:")]
    env = {**os.environ, "COLUMNS": str(columns), "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
           "JUPAI_CONFIG_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", FAKE_LAN, json.dumps(services), "join"], capture_output=True,
                          text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    raw = proc.stdout + proc.stderr
    assert proc.returncode == 3, raw  # several tables and nobody to pick one: name one
    assert "Traceback" not in raw
    assert_clean(raw)
    assert_literal(proc.stdout, "[red]x[/red] :skull:", "[link=http://x]y[/link]")
    assert_fits(proc.stdout, columns)


# ---------------------------------------------------------------- a friend's house-rules file
HOSTILE_RULES = '''"[red]x[/red] :skull: \\u202e\\u001b[2J" = 1
round-value = "[bold]b :skull:\\u009b"
[rules]
"a\\rb" = 2
'''


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("command", [["rules"], ["host", "--no-announce", "--port", "0", "--bind", "127.0.0.1"],
                                     ["play", "--bot", "random"]], ids=lambda c: c[0])
def test_a_house_rules_files_keys_and_name_are_shown_literally(tmp_path, command, lang):
    """Every mistake of a hostile rules file is listed (specs/rules.md § 8b) with its keys
    as the file writes them — markup literal, an ESC, CR or bidi override replaced: the
    key ``"\\u001b[2J"`` cleared the screen of whoever checked the file."""
    path = tmp_path / "house \x1b]0;t\x07 [red].toml"
    path.write_text(HOSTILE_RULES, encoding="utf-8")
    proc = _run([*command, "--rules", str(path), "--lang", lang], tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    raw = proc.stdout + proc.stderr
    assert_clean(raw)
    assert_literal(raw, "[red]x[/red] :skull:", "[bold]b :skull:", "house")
    assert f"jupai {command[0]}:" in raw


@pytest.mark.parametrize("command", [["history", "--dir"], ["verify"], ["replay"]], ids=lambda c: c[0])
def test_a_path_a_person_typed_is_shown_printable(tmp_path, command):
    """A path that does not exist, holding ESC and a bidi override (pasted from
    somewhere): the one sentence that says so writes neither."""
    proc = _run([*command, str(tmp_path / "x\x1b[2J\u202ey")], tmp_path)
    assert proc.returncode != 0
    assert_clean(proc.stdout + proc.stderr)
    assert_literal(proc.stderr, "[2J")
