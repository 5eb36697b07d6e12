"""The host's goodbye as a person meets it (issue 12): Ctrl-C on `jupai host` gives every
client and every spectator one line saying so, in the client's language — through the
real commands, `jupai join` and `jupai watch` against a real `jupai host`."""

from __future__ import annotations

import signal
import subprocess

import pytest

from .test_net_hardening import HostProcess
from .test_net_play import JUPAI, env_for

GOODBYE = {"en": "the host closed the connection: the host was stopped",
           "zh": "主机关闭了连接：主机已停止"}


def _client(host: HostProcess, env: dict[str, str], *argv: str) -> subprocess.Popen:
    return subprocess.Popen(JUPAI + [*argv, host.addr, "--code", host.code], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_player_in_the_lobby_reads_the_hosts_goodbye_in_its_language(tmp_path, lang):
    host = HostProcess(tmp_path, "--seats", "3", "--bots", "1", "--no-announce")
    try:
        join = _client(host, env_for(tmp_path), "join", "--bot", "random", "--lang", lang)
        host.wait_for(r"joined|入座|seat 0")
        host.proc.send_signal(signal.SIGINT)
        out, err = join.communicate(timeout=30)
    finally:
        host.kill()
    assert "Traceback" not in out + err
    assert f"jupai join: {GOODBYE[lang]}" in err.splitlines(), err
    if lang == "zh":
        assert "host was stopped" not in out + err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_spectator_reads_the_goodbye_when_the_host_stops_mid_game(tmp_path, lang):
    """The game is abandoned (its ending is shown), then the host says bye: the spectator
    says so too, in its language, as a player would (it used to end without a word)."""
    host = HostProcess(tmp_path, "--seats", "2", "--bots", "1", "--no-announce", "--bot-delay", "0.3")
    env = env_for(tmp_path)
    try:
        watch = _client(host, env, "watch", "--name", "Wu", "--lang", lang)
        host.wait_for(r"Wu is watching")
        join = _client(host, env, "join", "--bot", "random")
        host.wait_for(r"Round 2: ", timeout=30)
        host.proc.send_signal(signal.SIGINT)
        out, err = watch.communicate(timeout=30)
        join.communicate(timeout=30)
    finally:
        host.kill()
    assert "Traceback" not in out + err
    assert err.splitlines()[-1] == f"jupai watch: {GOODBYE[lang]}", (out, err)
