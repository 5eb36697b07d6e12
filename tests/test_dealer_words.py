"""The dealing scheme on the command line and on the screens (issue 9, "Use"):
``--dealer auto|trusted|blind`` (default auto) of ``jupai host`` and ``jupai play``
reaches the table,
a dealer-blind table with the hidden-identities house rule is refused with one
sentence and exit 2, and the host screen, every seat and every spectator say which
scheme deals, in English and Chinese, within 60 columns."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from rich.cells import cell_len
from rich.console import Console

from jupai_net.cli import build_parser
from jupai_net.client.session import DEALER_NOTICES, NoticeLine, dealer_notice
from jupai_net.client.status_words import notice_text
from jupai_net.host import cli as host_cli
from jupai_net.messages import t
from jupai_net.protocol.limits import DEALERS
from jupai_net.rules import RuleSet


def _jupai(*args: str, tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path), "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "jupai_net", *args], capture_output=True, text=True, env=env,
                          timeout=60, cwd=tmp_path)


def test_the_command_line_knows_the_tables_choices():
    from jupai_net.host.table import DEALER_CHOICES

    assert host_cli.DEALERS == DEALER_CHOICES
    assert set(DEALERS) < set(DEALER_CHOICES)  # the wire names the schemes; auto picks one per game


@pytest.mark.parametrize("argv, dealer", [(["host"], "auto"), (["host", "--dealer", "blind"], "blind"),
                                          (["host", "--dealer", "trusted"], "trusted"),
                                          (["host", "--dealer", "auto"], "auto")])
def test_the_flag_reaches_the_table(argv, dealer):
    args = build_parser(["host"]).parse_args(argv)
    assert host_cli.build_config(args).table.dealer == dealer


def test_play_passes_the_flag_to_its_table(monkeypatch):
    """``jupai play --dealer blind`` builds a dealer-blind table (the host is started
    with it: checked on the config the play command hands to its HostServer)."""
    import trio

    from jupai_net import play
    from jupai_net.host import server as host_server

    seen = {}

    class Stop(Exception):
        pass

    def fake_server(config, *a, **kw):
        seen["dealer"] = config.table.dealer
        raise Stop

    monkeypatch.setattr(host_server, "HostServer", fake_server)
    args = build_parser(["play"]).parse_args(["play", "--dealer", "blind", "--bot", "random", "--seats", "2"])
    with pytest.raises(Stop):
        trio.run(play.play, args, RuleSet(players=2))
    assert seen == {"dealer": "blind"}


@pytest.mark.parametrize("command", ["host", "play"])
@pytest.mark.parametrize("lang, words", [("en", "cannot be used with the hidden-identities house rule"),
                                         ("zh", "不能与隐藏身份房规同时使用")])
def test_a_blind_table_with_hidden_identities_is_refused_in_one_sentence(command, lang, words, tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text("hidden-identities = true\n")
    done = _jupai(command, "--dealer", "blind", "--rules", str(rules), "--lang", lang, "--port", "0",
                  tmp_path=tmp_path) if command == "host" else \
        _jupai(command, "--dealer", "blind", "--rules", str(rules), "--lang", lang, tmp_path=tmp_path)
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"jupai {command}: ") and words in lines[0], done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_the_library_refuses_it_too():
    from jupai_net.host.table import TableConfig

    with pytest.raises(ValueError, match="hidden-identities"):
        TableConfig(rules=RuleSet(hidden_identities=True), dealer="blind")
    assert TableConfig(rules=RuleSet(hidden_identities=True)).dealer == "trusted"
    assert TableConfig(rules=RuleSet(hidden_identities=True), dealer="auto").dealer == "auto"  # deals trusted


@pytest.mark.parametrize("lang, example", [("en", "# always blind; no older clients"),
                                           ("zh", "# 每局盲发；拒绝旧版客户端")])
def test_help_explains_the_flag_with_an_example(lang, example, tmp_path):
    done = _jupai("--lang", lang, "host", "--help", tmp_path=tmp_path)
    assert done.returncode == 0
    assert "--dealer {auto,trusted,blind}" in done.stdout and "jupai host --dealer blind" in done.stdout
    assert example in done.stdout
    assert ("auto (default" if lang == "en" else "auto（默认") in " ".join(done.stdout.split())
    played = _jupai("--lang", lang, "play", "--help", tmp_path=tmp_path)
    assert "--dealer {auto,trusted,blind}" in played.stdout and "jupai play --dealer trusted" in played.stdout


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_seat_and_spectator_is_told_the_scheme_within_60_columns(lang):
    said = {}
    for (dealer, watching), (code, text) in DEALER_NOTICES.items():
        line = NoticeLine(code, text, 0.0, False, None)
        said[(dealer, watching)] = words = notice_text(line, lang)
        assert cell_len(words) <= 60, words
    if lang == "en":
        assert said[("blind", False)] == "dealer-blind: the host cannot see your cards"
        assert said[("blind", True)] == "dealer-blind: the host cannot see the players' cards"
        assert said[("trusted", False)] == said[("trusted", True)] == "trusted dealer: the host can see every hand"
    else:
        assert said[("blind", False)] == "庄家盲发：主机看不到你的牌"
        assert said[("blind", True)] == "庄家盲发：主机看不到玩家的牌"
        assert said[("trusted", False)] == "可信庄家：主机能看到每一手牌"
    # a scheme this client does not know is said as the one that lets the host see
    assert dealer_notice("future", watching=False) == DEALER_NOTICES[("trusted", False)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("dealer", ["trusted", "blind"])
def test_the_host_screen_says_the_scheme_in_its_banner_and_at_each_start(lang, dealer, monkeypatch, tmp_path):
    from jupai_net.host import announce
    from jupai_net.host.tls import load_identity

    monkeypatch.setattr(announce, "get_adapters", lambda: [SimpleNamespace(name="lo", ips=[SimpleNamespace(ip="127.0.0.1")])])
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    out = io.StringIO()
    screen = host_cli.HostScreen(Console(file=out, width=100, color_system=None), lang=lang)
    server = SimpleNamespace(port=4242, config=SimpleNamespace(bind="", table=SimpleNamespace(max_spectators=0,
                                                                                            dealer=dealer)))
    screen.banner(load_identity(tmp_path), server, RuleSet(), 1, "greedy")
    words = t(f"host.dealer.{dealer}", lang)
    assert cell_len(words) <= 60
    assert words in out.getvalue()
    screen(0, "start", {"names": ["Ann", "Bob"], "game_id": bytes(16), "host_key": "ab12", "dealer": dealer})
    assert out.getvalue().rstrip().splitlines()[-1] == words
    expected = {"blind": ("cannot see", "看不到"), "trusted": ("can see every hand", "能看到每一手牌")}[dealer]
    assert expected[lang == "zh"] in words


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("hidden", [False, True])
def test_the_banner_says_auto_meaningfully_and_a_trusted_game_names_the_old_client(lang, hidden, monkeypatch,
                                                                                    tmp_path):
    """``--dealer auto`` (the default): the banner says "dealer-blind when every client
    can", or, with the hidden-identities house rule, the trusted line and why; a game
    that deals trusted because of an old client names it under its start line."""
    from jupai_net.host import announce
    from jupai_net.host.tls import load_identity

    monkeypatch.setattr(announce, "get_adapters", lambda: [SimpleNamespace(name="lo", ips=[SimpleNamespace(ip="127.0.0.1")])])
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    out = io.StringIO()
    screen = host_cli.HostScreen(Console(file=out, width=100, color_system=None), lang=lang)
    rules = RuleSet(hidden_identities=hidden)
    server = SimpleNamespace(port=4242, config=SimpleNamespace(bind="", table=SimpleNamespace(
        max_spectators=0, dealer="auto", rules=rules)))
    screen.banner(load_identity(tmp_path), server, rules, 1, "greedy")
    text = " ".join(out.getvalue().replace("│", " ").split())  # the box's rows, joined
    if hidden:
        assert t("host.dealer.auto_hidden", lang) in text
        assert ("hidden-identities house rule needs it" if lang == "en" else "隐藏身份房规需要可信庄家") in text
    else:
        assert t("host.dealer.auto", lang) in text
        assert ("dealer-blind; a game with an older client is dealt trusted" if lang == "en" else "庄家盲发；有旧版客户端的局由可信庄家发牌") in text
    why = {"code": "old-client", "seats": [{"seat": 2, "name": "[b]Old[/b]", "version": 3}]}
    screen(0, "start", {"names": ["Ann", "Bob", "[b]Old[/b]"], "game_id": bytes(16), "host_key": "ab12",
                        "dealer": "trusted", "why": why})
    last = out.getvalue().rstrip().splitlines()[-1]
    assert last == t("host.dealer.why_old_client", lang,
                     who=t("host.dealer.old_client", lang, name="[b]Old[/b]", seat=2, version=3))
    assert "[b]Old[/b]" in last  # a peer's name shows as typed, never as markup
    screen(0, "start", {"names": ["Ann", "Bob"], "game_id": bytes(16), "host_key": "ab12", "dealer": "trusted",
                        "why": {"code": "hidden-identities", "seats": []}})
    assert out.getvalue().rstrip().splitlines()[-1] == t("host.dealer.why_hidden", lang)


@pytest.mark.parametrize("command", ["host", "play"])
def test_the_default_auto_takes_a_hidden_identities_rules_file(command, tmp_path):
    """``--dealer auto`` (the default) with the hidden-identities house rule is not
    refused, as ``--dealer blind`` is: the table deals trusted (tests/test_dealer_auto.py)."""
    rules = tmp_path / "house.toml"
    rules.write_text("hidden-identities = true\n")
    args = build_parser([command]).parse_args([command, "--rules", str(rules)])
    assert args.dealer == "auto"
    assert host_cli.dealer_problem(args.dealer, RuleSet(hidden_identities=True)) is None
    if command == "host":
        assert host_cli.build_config(args).table.dealer == "auto"
