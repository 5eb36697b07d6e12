"""Names and arguments a person types (issue 8 §3): a ``--name`` the protocol refuses is
said with the rule before connecting (exit 2, no ExceptionGroup traceback); ordinary
emoji names, ZWJ sequences included, are accepted; with stdin not a terminal, a
connection error is said first (no "Input closed" before it)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from jupai_net.printable import is_printable, printable, printable_tree
from jupai_net.protocol.errors import FieldError, RemoteProtocolError
from jupai_net.protocol.messages import Chat, End, Hello, Sync, name_problem

NAME_RULE = ("a name is 1..24 characters a person can read (letters, digits, punctuation, spaces, emoji), "
             "with no tab, line break or control character and no space at either end")

JUPAI = [sys.executable, "-m", "jupai_net"]

EMOJI_NAMES = ["👨‍👩‍👧", "🏳️‍🌈 Ann", "👩🏽‍💻", "❤️‍🔥", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Hamish", "می‌خواهم", "张伟"]
BAD_NAMES = {
    "empty": ("", "the name is empty"),
    "25 characters": ("x" * 25, "the name has 25 characters"),
    "a tab": ("Ann\tLee", "the name holds \\t (a control character)"),
    "an escape": ("Ann\x1b[2J", "the name holds \\x1b (a control character)"),
    "a bidi override": ("Ann\u202eeL", "the name holds \\u202e (right-to-left override)"),
    "a trailing joiner": ("Ann\u200d", "the name holds \\u200d (zero width joiner)"),
    "a space at the end": ("Ann ", "the name starts or ends with a space"),
}


@pytest.mark.parametrize("name", EMOJI_NAMES)
def test_emoji_names_with_joiners_are_printable_to_a_person(name):
    assert is_printable(name) and name_problem(name) is None
    assert Hello(name).name == name
    assert Chat(f"hi from {name}").text == f"hi from {name}"


@pytest.mark.parametrize("case", sorted(BAD_NAMES))
def test_names_the_protocol_refuses_say_why(case):
    name, why = BAD_NAMES[case]
    assert name_problem(name) == why
    with pytest.raises(FieldError):
        Hello(name)


@pytest.mark.parametrize("text", ["\x1b]0;pwned\x07", "\x1b]52;c;cm0gLXJmIH4=\x07", "\x1b[2J", "a\u202eb", "x\x9by",
                                  "line\nbreak", "\x7f"])
def test_a_string_the_host_sends_at_any_depth_must_be_printable(text):
    """sync.observation and end.result are checked to every leaf (keys too): the
    ASCII fast path no longer lets ESC through."""
    deep = {"log": [{"kind": "contest", "sides": [{"formula": text}]}]}
    for bad in (deep, {"players": [{text: 1}]}):
        with pytest.raises(RemoteProtocolError) as info:
            Sync.from_wire({"type": "sync", "seq": 0, "state_id": 1, "observation": bad})
        assert info.value.code == "bad-field"
        assert not any(c in info.value.message for c in ("\x1b", "\n", "\u202e", "\x9b", "\x7f"))
        with pytest.raises(RemoteProtocolError):
            End.from_wire({"type": "end", "seq": 0, "reason": "finished", "result": bad})
    assert Sync(1, {"log": [{"formula": "6×10 + 8×6 = 108", "names": ["张伟", "👨‍👩‍👧"]}]})


def test_an_unknown_key_is_quoted_with_repr():
    with pytest.raises(RemoteProtocolError) as info:
        Hello.from_wire({"type": "hello", "seq": 0, "name": "a", "lang": "en", "seat": None, "token": None,
                         "version": 2, "min_version": 1, "\x1b[2J\nERROR forged": 1})
    assert "\x1b" not in str(info.value) and "\n" not in str(info.value)
    assert "'\\x1b[2J\\nERROR forged'" in str(info.value)


def test_printable_replaces_what_a_terminal_would_act_on():
    assert printable("a\x1b]52;c;x\x07b") == "a\ufffd]52;c;x\ufffdb"
    assert printable("👨‍👩‍👧") == "👨‍👩‍👧"
    tree = {"ok": ["fine", 1, b"\x1b"], "k\x1b": ("v\x9b",)}
    assert printable_tree(tree) == {"ok": ["fine", 1, b"\x1b"], "k\ufffd": ("v\ufffd",)}
    clean = {"a": ["b", {"c": "d"}]}
    assert printable_tree(clean) is clean


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path / "config"), "COLUMNS": "200", "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8"}


@pytest.fixture
def closed_port():
    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("command, case", [("join", "empty"), ("join", "a tab"), ("play", "25 characters"),
                                           ("play", "an escape")])
def test_a_bad_name_is_refused_before_connecting(command, case, tmp_path, closed_port):
    name, why = BAD_NAMES[case]
    argv = ["join", f"127.0.0.1:{closed_port}", "--name", name] if command == "join" else ["play", "--name", name]
    out = subprocess.run(JUPAI + argv, capture_output=True, text=True, timeout=30, env=_env(tmp_path),
                         stdin=subprocess.DEVNULL)
    said = " ".join((out.stdout + out.stderr).split())
    assert out.returncode == 2, said
    assert f"{why}: {NAME_RULE}" in said
    assert "Traceback" not in said and "Connecting" not in said and "Cannot connect" not in said
    assert "\x1b[2J" not in out.stdout + out.stderr  # the name is shown escaped


def test_a_seat_the_protocol_refuses_is_a_usage_error(tmp_path, closed_port):
    out = subprocess.run(JUPAI + ["join", f"127.0.0.1:{closed_port}", "--seat", "9"], capture_output=True, text=True,
                         timeout=30, env=_env(tmp_path), stdin=subprocess.DEVNULL)
    assert out.returncode == 2
    assert "seat" in out.stderr and "seat" not in out.stdout and "Traceback" not in out.stdout + out.stderr


def test_an_emoji_name_plays_a_game(tmp_path):
    out = subprocess.run(JUPAI + ["play", "--bot", "random", "--rounds", "2", "--seats", "2", "--name", "👨‍👩‍👧 Ann",
                                  "--transcript", str(tmp_path / "t.jupai")],
                         capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "fairness: verified" in out.stdout


def test_stdin_not_a_terminal_says_the_connection_error_first(tmp_path, closed_port):
    out = subprocess.run(JUPAI + ["join", f"127.0.0.1:{closed_port}", "--name", "Ann"], capture_output=True,
                         text=True, timeout=30, env=_env(tmp_path), stdin=subprocess.DEVNULL)
    assert out.returncode == 3
    lines = [line for line in out.stdout.splitlines() if line.strip()]
    assert lines == [f"Connecting to 127.0.0.1:{closed_port} …"]  # the error is on stderr, alone
    assert out.stderr.startswith(f"jupai join: cannot connect to 127.0.0.1:{closed_port}")
    assert "Input closed" not in out.stdout + out.stderr


def test_chat_typed_with_emoji_joiners_is_sent_and_escapes_are_refused():
    from jupai_net.client.session import SessionControl

    control = SessionControl()
    control.say("hi 👨‍👩‍👧 🏳️‍🌈")
    assert control._chat_recv.receive_nowait() == "hi 👨‍👩‍👧 🏳️‍🌈"
    with pytest.raises(ValueError, match="printable"):
        control.say("hi \x1b]0;x\x07")
