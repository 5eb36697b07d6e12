"""Finding a table on the LAN (specs/protocol.md § Discovery, specs/client.md § Finding
a table): the announcement's fields, the host's announcer and the client's browser
against an injected in-memory transport, and `jupai join` choosing a table.

No test here sends multicast: the transport is a fake, and the suite sets
$JUPAI_NO_MULTICAST (tests/conftest.py). The real announce → browse → join test runs
inside network namespaces it makes itself (tests/test_discovery_netns.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from types import SimpleNamespace

import pytest

from jupai_net.client.discover import NoTable, browse, choose_table, is_address, table_lines
from jupai_net.host.announce import Announcer, lan_addresses, should_announce
from jupai_net.protocol.discovery import (
    SERVICE_TYPE,
    DiscoveryError,
    TableAd,
    clean_name,
    code_prefix,
    find_table,
    instance_name,
    table_from_service,
    txt_properties,
)

AD = TableAd("Ann's table", ("127.0.0.1",), 47474, 4, 2, 2, "lobby", "WYSM3")


# ------------------------------------------------------------------ the announcement
def test_txt_round_trip():
    props = {k.encode(): v.encode() for k, v in txt_properties(AD).items()}
    assert table_from_service(instance_name(AD.name), ["127.0.0.1"], 47474, props) == AD
    assert instance_name("Ann's table") == "Ann's table._jupai._tcp.local."


@pytest.mark.parametrize("change, why", [
    ({b"seats": b"7"}, "seats"),
    ({b"free": b"5"}, "free"),
    ({b"free": b"-1"}, "free"),
    ({b"v": b"x"}, "'v'"),
    ({b"state": b"over"}, "state"),
    ({b"code": b"\x1b]52;c;aGk=\x07"}, "code"),
    ({b"code": b"\xff"}, "UTF-8"),
    ({b"seats": None}, "missing"),
])
def test_bad_txt_fields_are_refused(change, why):
    props = {k.encode(): v.encode() for k, v in txt_properties(AD).items()}
    props.update(change)
    with pytest.raises(DiscoveryError, match=why):
        table_from_service("t", ["127.0.0.1"], 1, props)


def test_bad_addresses_and_ports_are_refused():
    props = txt_properties(AD)
    with pytest.raises(DiscoveryError, match="IPv4"):
        table_from_service("t", ["::1"], 1, props)
    with pytest.raises(DiscoveryError, match="not an IP"):
        table_from_service("t", ["example"], 1, props)
    with pytest.raises(DiscoveryError, match="port"):
        table_from_service("t", ["127.0.0.1"], 70000, props)


def test_table_names_are_printable_and_short():
    assert clean_name("  Ann\x1b[2J's\t table \u202e ") == "Ann[2J's table"
    assert len(clean_name("宝" * 60).encode()) <= 63
    with pytest.raises(DiscoveryError):
        clean_name("\x00\x07 ")
    hostile = table_from_service("\x1b]0;pwned\x07Evil._jupai._tcp.local.", ["127.0.0.1"], 1, txt_properties(AD))
    assert "\x1b" not in hostile.name and "\x07" not in hostile.name


def test_find_table_by_name_or_unique_prefix():
    tables = [AD, TableAd("Annex", ("127.0.0.2",), 1, 2, 1, 2), TableAd("宝宝的牌桌", ("127.0.0.3",), 1, 2, 1, 2)]
    assert find_table(tables, "ann's  TABLE") is AD
    assert find_table(tables, "宝宝") is tables[2]
    assert find_table(tables, "ann") is None  # two tables start with it
    assert find_table(tables, "bob") is None
    assert code_prefix("WYSM3-PCJCC-ABCDE") == "WYSM3"


# ------------------------------------------------------------------ an in-memory LAN
class FakeLan:
    """A multicast DNS 'network' in memory: announcers register services, browsers get
    Added/Updated/Removed callbacks and resolve TXT records."""

    def __init__(self):
        self.services = {}
        self.browsers = []
        self.closed = 0

    def zeroconf(self):
        lan = self

        class Zc:
            def register_service(self, info, allow_name_change=False):
                lan.services[info.name] = info
                lan._tell(info.name, "Added")

            def update_service(self, info):
                lan.services[info.name] = info
                lan._tell(info.name, "Updated")

            def unregister_service(self, info):
                lan.services.pop(info.name, None)
                lan._tell(info.name, "Removed")

            def get_service_info(self, type_, name, timeout=0):
                info = lan.services.get(name)
                if info is None:
                    return None
                return SimpleNamespace(parsed_addresses=info.parsed_addresses, port=info.port,
                                       properties=info.properties)

            def close(self):
                lan.closed += 1

        return Zc()

    def browser(self, zc, type_, handlers):
        assert type_ == SERVICE_TYPE
        b = SimpleNamespace(zc=zc, handlers=handlers, cancel=lambda: None)
        self.browsers.append(b)
        for name in list(self.services):
            for h in handlers:
                h(zc, type_, name, SimpleNamespace(name="Added"))
        return b

    def _tell(self, name, kind):
        for b in self.browsers:
            for h in b.handlers:
                h(b.zc, SERVICE_TYPE, name, SimpleNamespace(name=kind))

    def find(self, seconds=0.2, **kw):
        return browse(seconds, zeroconf_factory=self.zeroconf, browser_factory=self.browser, **kw)


def test_announce_update_and_withdraw():
    lan = FakeLan()
    ann = Announcer(AD, zeroconf_factory=lan.zeroconf)
    assert ann.start()
    assert lan.find() == [AD]
    ann.update(free=0, state="playing")
    (seen,) = lan.find()
    assert (seen.free, seen.state) == (0, "playing")
    ann.close()
    ann.close()  # idempotent
    assert lan.find() == [] and lan.closed >= 1


def test_an_announcer_that_cannot_start_is_not_fatal():
    def broken():
        raise OSError("no multicast route")

    ann = Announcer(AD, zeroconf_factory=broken)
    assert ann.start() is False
    ann.update(free=1)
    ann.close()


def test_browse_skips_bad_announcements_and_stops_early():
    lan = FakeLan()
    Announcer(AD, zeroconf_factory=lan.zeroconf).start()
    bad = Announcer(TableAd("Bad", ("127.0.0.2",), 2, 4, 1, 2), zeroconf_factory=lan.zeroconf)
    bad.start()
    lan.services[instance_name("Bad")].properties[b"seats"] = b"99"
    ticks = iter(range(1000))
    found = browse(3600, until=lambda ts: any(t.name == AD.name for t in ts), zeroconf_factory=lan.zeroconf,
                   browser_factory=lan.browser, clock=lambda: next(ticks))
    assert found == [AD]  # the bad one skipped; returned long before an hour


def _two_tables():
    lan = FakeLan()
    for ad in (AD, TableAd("宝宝的牌桌", ("127.0.0.3",), 47475, 2, 1, 2, "playing", "ABCDE")):
        Announcer(ad, zeroconf_factory=lan.zeroconf).start()
    return lan


def test_choose_by_name_and_by_number():
    lan = _two_tables()
    said = []
    assert choose_table("宝宝", "zh", say=said.append, read=None, find=lan.find).port == 47475
    answers = iter(["9", "x", "1"])
    said.clear()
    ad = choose_table(None, "en", say=said.append, read=lambda prompt: next(answers), find=lan.find)
    assert ad == AD
    assert any(line.startswith("1. Ann's table — 127.0.0.1:47474 · 2 of 4 seats free · waiting for players") for line in said)
    assert sum("Type a number 1-2, or q." in line for line in said) == 2


@pytest.mark.parametrize("name, read, tables, message", [
    ("bob", None, True, "No table called 'bob'"),
    (None, None, True, "Several tables"),
    (None, None, False, "No table found on the LAN"),
    (None, lambda p: "q", True, "No table chosen"),
])
def test_no_table_chosen_says_why(name, read, tables, message):
    lan = _two_tables() if tables else FakeLan()
    with pytest.raises(NoTable, match=message):
        choose_table(name, "en", say=lambda line: None, read=read, find=lan.find)


def test_a_single_table_is_taken_without_asking():
    lan = FakeLan()
    Announcer(AD, zeroconf_factory=lan.zeroconf).start()
    assert choose_table(None, "en", say=lambda line: None, read=None, find=lan.find) == AD


def test_table_lines_in_chinese():
    (line,) = table_lines([AD], "zh")
    assert "空位 2/4" in line and "等待玩家" in line


@pytest.mark.parametrize("lang, full, running", [("en", "· full ·", "· game running ·"),
                                                 ("zh", "· 已满 ·", "· 对局进行中 ·")])
def test_a_full_table_reads_full_and_a_running_one_has_no_seat_count(lang, full, running):
    """Issue 12: not "0/2 seats free · waiting for players"."""
    from dataclasses import replace

    (line,) = table_lines([replace(AD, free=0)], lang)
    assert full in line and "0" not in line.split("—")[1].split("·")[1], line
    (line,) = table_lines([replace(AD, free=0, state="playing")], lang)
    assert running in line and "0" not in line.split("—")[1].split("·")[1], line


@pytest.mark.parametrize("watch, lang, asked", [
    (False, "en", "Join which table? [1, q to quit] "), (True, "en", "Watch which table? [1, q to quit] "),
    (False, "zh", "加入哪一桌？[1，q 退出] "), (True, "zh", "旁观哪一桌？[1，q 退出] ")])
def test_the_picker_asks_for_one_table_without_a_range(watch, lang, asked):
    lan = FakeLan()
    Announcer(AD, zeroconf_factory=lan.zeroconf).start()
    prompts, said = [], []
    answers = iter(["2", "1"])

    def read(prompt):
        prompts.append(prompt)
        return next(answers)

    assert choose_table(None, lang, say=said.append, read=read, find=lan.find, watch=watch) == AD
    assert prompts == [asked, asked]
    assert said[-1] == ("请输入 1，或 q。" if lang == "zh" else "Type 1, or q.")


# ------------------------------------------------------------------ who announces, what is dialled
def test_should_announce():
    assert should_announce("", environ={})
    assert should_announce("0.0.0.0", environ={})
    assert not should_announce("127.0.0.1", environ={})
    assert not should_announce("::1", environ={})
    assert not should_announce("", no_announce=True, environ={})
    assert not should_announce("", environ={"JUPAI_NO_MULTICAST": "1"})


def test_addresses_are_dialled_and_names_are_looked_up():
    never = lambda host: False  # noqa: E731
    assert is_address("127.0.0.1:4000", never) and is_address("[::1]:4000", never)
    assert is_address("localhost", never) and is_address("box.local", never)
    assert is_address("gamebox", lambda host: True)
    assert not is_address("gamebox", never)
    assert not is_address("Ann's table", never)


def test_lan_addresses_lists_every_interface():
    ip = lambda a: SimpleNamespace(ip=a)  # noqa: E731
    adapters = [SimpleNamespace(ips=[ip("127.0.0.1"), ip(("::1", 0, 0))]),
                SimpleNamespace(ips=[ip("192.0.2.10"), ip("169.254.3.4")]),
                SimpleNamespace(ips=[ip("198.51.100.7")])]
    assert lan_addresses(adapters) == ["192.0.2.10", "198.51.100.7"]
    assert lan_addresses([SimpleNamespace(ips=[ip("127.0.0.1")])]) == []


def test_jupai_join_without_multicast_says_so():
    """Through the command: no address and no multicast (as in this test suite)."""
    proc = subprocess.run([sys.executable, "-m", "jupai_net", "join", "--bot", "random"], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 3
    assert "Cannot look for tables on the LAN" in proc.stderr and "jupai join HOST[:PORT]" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("found", [["192.0.2.10", "198.51.100.7"], []])
def test_host_banner_lists_every_address_or_warns(monkeypatch, tmp_path, found):
    import io

    from rich.console import Console

    from jupai_net.host import announce
    from jupai_net.host.cli import HostScreen
    from jupai_net.host.tls import load_identity
    from jupai_net.rules import RuleSet

    adapters = [SimpleNamespace(name="lo", ips=[SimpleNamespace(ip="127.0.0.1")]),
                SimpleNamespace(name="eth0", ips=[SimpleNamespace(ip=a) for a in found])]
    monkeypatch.setattr(announce, "get_adapters", lambda: adapters)
    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=120, color_system=None))
    server = SimpleNamespace(port=4242, config=SimpleNamespace(bind="", table=SimpleNamespace(max_spectators=8)))
    identity = load_identity()
    CODE = identity.join_code
    screen.banner(identity, server, RuleSet(), 1, "greedy", "Ann's table")
    text = out.getvalue()
    for addr in found or ["127.0.0.1"]:
        assert re.search(rf"join with +jupai join {addr}:4242 --code {CODE}", text), text
        assert re.search(rf"watch with +jupai watch {addr}:4242 --code {CODE}", text), text
    assert "up to 8 spectators at once" in text
    assert "table name   Ann's table" in text
    assert ("no LAN address" in text) == (not found)
    assert ("announced on the LAN" in text) == bool(found)  # never claimed without a LAN address
    assert ("not announced: this machine has no LAN address" in text) == (not found)


#: A machine on a dual-stack LAN: IPv4, IPv6 global and unique-local, link-local, loopback.
DUAL_STACK = [SimpleNamespace(name="lo", ips=[SimpleNamespace(ip="127.0.0.1"), SimpleNamespace(ip=("::1", 0, 0))]),
              SimpleNamespace(name="eth0", ips=[SimpleNamespace(ip="192.0.2.10"), SimpleNamespace(ip="169.254.3.4"),
                                                 SimpleNamespace(ip=("2001:db8::10", 0, 0)),
                                                 SimpleNamespace(ip=("fe80::1", 0, 2))]),
              SimpleNamespace(name="wg0", ips=[SimpleNamespace(ip=("fd12:3456::7", 0, 0))])]


def test_listen_addresses_lists_ipv6_too_and_says_which_is_loopback():
    from jupai_net.host.announce import Listening, listen_addresses

    assert listen_addresses(DUAL_STACK) == [
        Listening("192.0.2.10", "lan"), Listening("2001:db8::10", "lan"), Listening("fd12:3456::7", "lan"),
        Listening("169.254.3.4", "link-local"), Listening("fe80::1%eth0", "link-local"),
        Listening("127.0.0.1", "loopback"), Listening("::1", "loopback")]
    assert [e.address for e in listen_addresses(DUAL_STACK, "6") if e.scope == "lan"] == ["2001:db8::10", "fd12:3456::7"]
    assert lan_addresses(DUAL_STACK) == ["192.0.2.10"]  # the LAN announcement stays IPv4


def test_a_link_local_address_is_scoped_by_number_on_windows(monkeypatch):
    """Windows: ifaddr's adapter name is a GUID (``{4D36E972-…}``), which no address
    parser takes after ``%``; the interface's number (the scope id) is what works."""
    from jupai_net.host import announce

    monkeypatch.setattr(announce, "_SCOPE_BY_NUMBER", True)
    adapters = [SimpleNamespace(name="{4D36E972-E325-11CE-BFC1-08002BE10318}",
                                ips=[SimpleNamespace(ip=("fe80::1", 0, 12)), SimpleNamespace(ip=("fe80::2", 0, 0))])]
    assert [e.address for e in announce.listen_addresses(adapters)] == ["fe80::1%12", "fe80::2"]


@pytest.mark.parametrize("lang, width", [("en", 120), ("en", 60), ("zh", 60), ("zh", 80)])
def test_host_banner_lists_every_address_it_listens_on(monkeypatch, tmp_path, lang, width):
    """The host listens on 0.0.0.0 and [::] (dual stack): the join and watch commands
    name its IPv4 LAN address, and every other address it answers on (IPv6 in brackets,
    link-local with its %interface, said to be link-local) is listed on one ``also on``
    row, each address whole; loopback is not listed when the LAN can join (the banner
    must fit 24 rows, issue 12, trial 13), in en and zh."""
    import io

    from rich.console import Console

    from jupai_net.host import announce
    from jupai_net.host.cli import HostScreen
    from jupai_net.host.tls import load_identity
    from jupai_net.messages import t
    from jupai_net.rules import RuleSet

    monkeypatch.setattr(announce, "get_adapters", lambda: DUAL_STACK)
    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=width, color_system=None), lang=lang)
    server = SimpleNamespace(port=4242, config=SimpleNamespace(bind="", table=SimpleNamespace(max_spectators=8)))
    identity = load_identity(tmp_path)
    screen.banner(identity, server, RuleSet(), 1, "greedy", "Ann's table")
    text = out.getvalue()
    flat = " ".join(text.replace("│", " ").split())
    for verb in ("join", "watch"):
        assert f"jupai {verb} 192.0.2.10:4242 --code {identity.join_code}" in text, text
        assert f"jupai {verb} [" not in text and f"jupai {verb} 169.254" not in text, text
    for addr in ("169.254.3.4", "[2001:db8::10]", "[fd12:3456::7]", "[fe80::1%eth0]"):
        assert any(addr in line for line in text.splitlines()), text  # whole, on one row
    assert t("host.label.also", lang) in text
    assert "[fe80::1%eth0]" + t("host.banner.link_local_short", lang) in text, text
    assert "127.0.0.1" not in text and "[::1]" not in text, text
    assert t("host.banner.announced", lang).strip().replace(" ", "") in flat.replace(" ", "")


@pytest.mark.parametrize("bind", ["", "::"])
def test_an_ipv6_only_lan_is_not_said_to_have_no_lan_address(monkeypatch, tmp_path, bind):
    """A machine whose only LAN address is IPv6 (or a host on ``--bind ::``, which trio
    listens on IPv6 only): the banner lists the IPv6 join commands, so it must not say
    "this machine has no LAN address, only reachable on this machine" (nor warn so); the
    table is not announced (the announcement carries IPv4 addresses only) and the banner
    says why. ``--bind ::`` announced the IPv4 addresses, where nothing answered."""
    import io

    from rich.console import Console

    from jupai_net.host import announce
    from jupai_net.host.cli import HostScreen, reachable_addresses
    from jupai_net.host.tls import load_identity
    from jupai_net.rules import RuleSet

    adapters = DUAL_STACK if bind == "::" else [
        SimpleNamespace(name="lo", ips=[SimpleNamespace(ip="127.0.0.1"), SimpleNamespace(ip=("::1", 0, 0))]),
        SimpleNamespace(name="eth0", ips=[SimpleNamespace(ip=("2001:db8::10", 0, 0))])]
    monkeypatch.setattr(announce, "get_adapters", lambda: adapters)
    assert reachable_addresses(bind) == []  # nothing for the IPv4 announcement
    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=140, color_system=None))
    server = SimpleNamespace(port=4242, config=SimpleNamespace(bind=bind, table=SimpleNamespace(max_spectators=8)))
    identity = load_identity(tmp_path)
    screen.banner(identity, server, RuleSet(), 1, "greedy", "Ann's table")
    text = " ".join(out.getvalue().replace("│", " ").split())
    assert f"jupai join [2001:db8::10]:4242 --code {identity.join_code}" in text, text
    assert "192.0.2.10" not in text and "no LAN address" not in text, text
    assert "not announced: the LAN announcement carries IPv4 addresses and this host answers on none" in text, text
