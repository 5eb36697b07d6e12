"""client/known_hosts.py: trust on first use, refusal on change, explicit --code
accepted (specs/client.md § Pinning)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from jupai_net.client.known_hosts import (
    MATCH,
    NEW,
    REPINNED,
    HostKeyChanged,
    KnownHosts,
    KnownHostsError,
    WrongCode,
    codes_equal,
    config_dir,
    host_key,
)

FP1 = "3f9a0c11aa22bb33cc44dd55ee66ff7700112233445566778899aabbccddeeff"
FP2 = "0000111122223333444455556666777788889999aaaabbbbccccddddeeeeffff"


def test_config_dir_precedence(tmp_path):
    assert config_dir({"JUPAI_CONFIG_DIR": str(tmp_path / "x"), "XDG_CONFIG_HOME": "/xdg"}) == tmp_path / "x"
    assert config_dir({"XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"}) == Path("/xdg/jupai")
    assert config_dir({"HOME": "/home/u"}) == Path("/home/u/.config/jupai")


def test_default_path_follows_env(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    assert KnownHosts().path == tmp_path / "known_hosts"


def test_pin_on_first_use_then_match(tmp_path):
    kh = KnownHosts(tmp_path / "cfg" / "known_hosts")
    first = kh.check("127.0.0.20", 7777, FP1, code="K7Q2-MX4P")
    assert first.status == NEW and first.code == "K7Q2-MX4P"
    assert kh.get("127.0.0.20", 7777) == FP1
    assert (tmp_path / "cfg" / "known_hosts").read_text() == f"[127.0.0.20]:7777 {FP1} K7Q2-MX4P\n"
    assert stat.S_IMODE((tmp_path / "cfg" / "known_hosts").stat().st_mode) == 0o600
    again = KnownHosts(tmp_path / "cfg" / "known_hosts").check("127.0.0.20", 7777, FP1.upper(), code="K7Q2-MX4P")
    assert again.status == MATCH


def test_changed_key_is_refused_and_nothing_written(tmp_path):
    kh = KnownHosts(tmp_path / "known_hosts")
    kh.check("host.lan", 7777, FP1, code="AAAA-BBBB")
    before = kh.path.read_bytes()
    with pytest.raises(HostKeyChanged) as info:
        kh.check("HOST.lan", 7777, FP2, code="CCCC-DDDD")
    assert info.value.old == "AAAA-BBBB" and info.value.new == "CCCC-DDDD" and info.value.host == "[host.lan]:7777"
    assert kh.path.read_bytes() == before


def test_changed_key_accepted_with_explicit_matching_code(tmp_path):
    kh = KnownHosts(tmp_path / "known_hosts")
    kh.check("host.lan", 7777, FP1, code="AAAA-BBBB")
    result = kh.check("host.lan", 7777, FP2, code="CCCC-DDDD", explicit_code="ccccdddd")
    assert result.status == REPINNED
    assert kh.get("host.lan", 7777) == FP2
    assert kh.check("host.lan", 7777, FP2, code="CCCC-DDDD").status == MATCH


def test_explicit_code_must_match_what_the_host_presents(tmp_path):
    kh = KnownHosts(tmp_path / "known_hosts")
    with pytest.raises(WrongCode) as info:
        kh.check("host.lan", 7777, FP1, code="AAAA-BBBB", explicit_code="AAAA-BBBC")
    assert info.value.actual == "AAAA-BBBB"
    assert not kh.path.exists()  # a wrong code never pins
    assert kh.check("host.lan", 7777, FP1, code="AAAA-BBBB", explicit_code="aaaa bbbb").status == NEW


def test_ports_and_hosts_are_pinned_separately_and_other_lines_kept(tmp_path):
    path = tmp_path / "known_hosts"
    path.write_text("# my hosts\ngarbage line without brackets\n")
    kh = KnownHosts(path)
    kh.check("host.lan", 7777, FP1)
    kh.check("host.lan", 7778, FP2)
    kh.check("::1", 7777, FP2)
    assert kh.get("host.lan", 7777) == FP1 and kh.get("host.lan", 7778) == FP2
    assert kh.get("[::1]", 7777) == FP2
    text = path.read_text()
    assert text.startswith("# my hosts\ngarbage line without brackets\n")
    assert len(kh.entries()) == 3


def test_code_defaults_to_fingerprint(tmp_path):
    kh = KnownHosts(tmp_path / "known_hosts")
    kh.check("h", 1, FP1)
    with pytest.raises(HostKeyChanged) as info:
        kh.check("h", 1, FP2)
    assert info.value.old == FP1 and info.value.new == FP2


def test_helpers():
    assert host_key("[FE80::1]", 7777) == "[fe80::1]:7777"
    assert codes_equal("K7Q2-MX4P", "k7q2mx4p") and not codes_equal("K7Q2-MX4P", "K7Q2-MX4Q")


def test_unwritable_dir_gives_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    kh = KnownHosts(blocker / "sub" / "known_hosts")
    with pytest.raises(KnownHostsError, match=r"cannot (read|write) .*known_hosts"):
        kh.check("h", 1, FP1)


def test_malformed_fingerprint_refused(tmp_path):
    kh = KnownHosts(tmp_path / "known_hosts")
    with pytest.raises(KnownHostsError):
        kh.pin("h", 1, "bad value\nwith newline")
