"""The real thing: `jupai host` announces its table with multicast DNS and `jupai join`
finds it by name and with no address, across a link between two network namespaces
that this test makes itself (`ip netns add` + a veth pair) and removes afterwards.

Multicast never leaves these namespaces. Skipped, with the reason, where namespaces
cannot be made (not root, no iproute2, a container without the capability)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid

import pytest

# A private /24 that exists only on the veth pair inside the test's own namespaces.
HOST_ADDR, PLAYER_ADDR = "10.231.7.1", "10.231.7.2"


def _ip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)


@pytest.fixture
def namespaces():
    if shutil.which("ip") is None:
        pytest.skip("iproute2 (`ip`) is not installed: cannot make network namespaces")
    tag = uuid.uuid4().hex[:6]
    host_ns, player_ns = f"jt-h-{tag}", f"jt-p-{tag}"
    made = _ip("netns", "add", host_ns)
    if made.returncode != 0:
        pytest.skip(f"cannot make a network namespace here: {made.stderr.strip()}")
    try:
        steps = [
            ("netns", "add", player_ns),
            ("link", "add", f"jt-a-{tag}", "type", "veth", "peer", "name", f"jt-b-{tag}"),
            ("link", "set", f"jt-a-{tag}", "netns", host_ns),
            ("link", "set", f"jt-b-{tag}", "netns", player_ns),
            ("-n", host_ns, "addr", "add", f"{HOST_ADDR}/24", "dev", f"jt-a-{tag}"),
            ("-n", player_ns, "addr", "add", f"{PLAYER_ADDR}/24", "dev", f"jt-b-{tag}"),
            ("-n", host_ns, "link", "set", "lo", "up"),
            ("-n", player_ns, "link", "set", "lo", "up"),
            ("-n", host_ns, "link", "set", f"jt-a-{tag}", "up"),
            ("-n", player_ns, "link", "set", f"jt-b-{tag}", "up"),
        ]
        for step in steps:
            r = _ip(*step)
            if r.returncode != 0:
                pytest.skip(f"cannot set up the namespaces ({' '.join(step)}): {r.stderr.strip()}")
        yield host_ns, player_ns
    finally:
        _ip("netns", "del", player_ns)
        _ip("netns", "del", host_ns)


def _env(tmp_path, who):
    env = {k: v for k, v in os.environ.items() if k != "JUPAI_NO_MULTICAST"}  # multicast on, in the namespaces only
    env.update(JUPAI_CONFIG_DIR=str(tmp_path / who), COLUMNS="200", LANG="en_US.UTF-8")
    return env


def _in(ns, *argv):
    return ["ip", "netns", "exec", ns, sys.executable, "-m", "jupai_net", *argv]


def _host(tmp_path, ns, name):
    proc = subprocess.Popen(_in(ns, "host", "--port", "0", "--seats", "2", "--bots", "1", "--rounds", "3",
                                "--bot-delay", "0.05", "--table-name", name, "--games", "1"),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_env(tmp_path, "host"))
    lines = []
    end = time.monotonic() + 30
    while time.monotonic() < end:
        line = proc.stdout.readline()
        lines.append(line)
        if "lobby" in line:
            return proc, "".join(lines)
    proc.kill()
    raise AssertionError("the host never showed its lobby:\n" + "".join(lines))


def _join(tmp_path, ns, *argv):
    return subprocess.run(_in(ns, "join", *argv, "--bot", "random"), capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env=_env(tmp_path, "player"))


@pytest.mark.parametrize("how", ["by name", "no address"])
def test_announce_browse_join_across_a_link(namespaces, tmp_path, how):
    host_ns, player_ns = namespaces
    host, banner = _host(tmp_path, host_ns, "Ann's table")
    try:
        assert HOST_ADDR in banner and "table name   Ann's table" in banner
        proc = _join(tmp_path, player_ns, *(["ann's TABLE"] if how == "by name" else []))
        out = " ".join(proc.stdout.split())
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert re.search(rf"Joining 'Ann's table' at {re.escape(HOST_ADDR)}:\d+", out)
        assert "fairness: verified" in out
        assert host.wait(timeout=60) == 0
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


def test_jupai_watch_with_no_address_lists_the_table_and_asks_which_to_watch(namespaces, tmp_path):
    """Issue 12: the LAN list counts seats as every screen does ("1 of 2 seats free"),
    and `jupai watch` on a terminal asks "Watch which table? [1, q to quit]" (not
    "Join which table? [1-1, …]"), in English and in Chinese; q leaves with one
    sentence, exit 3."""
    from .test_client_cli import Terminal

    host_ns, player_ns = namespaces
    host, _ = _host(tmp_path, host_ns, "Ann's table")
    try:
        for lang, listed, asked, left in (
                ("en", r"1\. Ann's table — {addr}:\d+ · 1 of 2 seats free · waiting for players · code \w+",
                 "Watch which table? [1, q to quit]", "No table chosen."),
                ("zh", r"1\. Ann's table — {addr}:\d+ · 空位 1/2 · 等待玩家 · 加入码 \w+", "旁观哪一桌？[1，q 退出]",
                 "没有选择牌桌")):
            term = Terminal(_in(player_ns, "watch", "--lang", lang), _env(tmp_path, "watcher"), rows=24, cols=80)
            try:
                term.expect(listed.format(addr=re.escape(HOST_ADDR)))
                term.expect(re.escape(asked))
                assert "1-1" not in term.text and "Join which" not in term.text and "加入哪" not in term.text
                term.type("q")
                assert term.wait(20) == 3
                assert left in term.text
            finally:
                term.close()
    finally:
        host.kill()
        host.wait()


@pytest.fixture
def lonely_namespace():
    """A network namespace with the loopback interface only: a machine with no LAN."""
    if shutil.which("ip") is None:
        pytest.skip("iproute2 (`ip`) is not installed: cannot make network namespaces")
    ns = f"jt-l-{uuid.uuid4().hex[:6]}"
    made = _ip("netns", "add", ns)
    if made.returncode != 0:
        pytest.skip(f"cannot make a network namespace here: {made.stderr.strip()}")
    try:
        up = _ip("-n", ns, "link", "set", "lo", "up")
        if up.returncode != 0:
            pytest.skip(f"cannot set up the namespace: {up.stderr.strip()}")
        yield ns
    finally:
        _ip("netns", "del", ns)


@pytest.mark.parametrize("lang, cols, watch_label, not_announced", [
    ("en", 80, "watch with", "(not announced: this machine has no LAN address, the table is only reachable on "
                             "this machine)"),
    # (at 60 columns the commands are below the box, which says so: 见框下方)
    ("zh", 60, "见框下方", "（未在局域网公布：本机没有局域网地址，只能在本机上连到这张牌桌）"),
])
def test_the_banner_gives_a_copyable_watch_command_and_claims_no_announcement_without_a_lan(
        lonely_namespace, tmp_path, lang, cols, watch_label, not_announced):
    """Issue 12: `jupai host` on a machine with no LAN address (a namespace with only
    loopback) does not say "announced on the LAN"; the watch line is a command to copy
    (`jupai watch HOST:PORT --code CODE`, on one line), as the join line is."""
    from .test_client_cli import Terminal

    env = dict(_env(tmp_path, "host"), COLUMNS=str(cols), LINES="24", LANG="zh_CN.UTF-8" if lang == "zh" else
               "en_US.UTF-8", TERM="xterm-256color")
    term = Terminal(_in(lonely_namespace, "host", "--port", "0", "--seats", "2", "--table-name", "Ann's table"),
                    env, rows=24, cols=cols)
    try:
        join = term.expect(r"jupai join 127\.0\.0\.1:(\d+) --code (\w{4}(?:-\w{4}){3})")
        term.expect(r"(lobby|大厅) ")
        lines = [line.strip(" │") for line in term.text.splitlines()]
        watch = f"jupai watch 127.0.0.1:{join[1]} --code {join[2]}"
        assert any(line.endswith(watch) for line in lines), term.text  # whole, on one line
        assert watch_label in term.text
        assert not_announced in " ".join(term.flat.split()) or not_announced in term.flat.replace(" ", ""), term.text
        assert "announced on the LAN:" not in term.text and "已在局域网公布" not in term.text
    finally:
        term.close()
