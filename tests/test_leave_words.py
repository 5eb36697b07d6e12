"""Small words a new-user trial found wrong (issue 12, trial13 screens 32, 59/60 and the
spectator's pin box), each through the command a person types: the English refusal of a
seat while a game runs gives the hint the Chinese one gives (wait, or ``jupai watch``);
a spectator trusting a host on first use is told to *watch* again with ``--code``; the
verdict after the host went away says why in words, not ``session ended: host-gone``;
a person who left a dealer-blind game is "they", not "it"; the pinned code's match is
said once however often the session connects."""

from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import replace

from .pty_helpers import PtyJupai
from .test_net_hardening import HostProcess
from .test_net_play import Running, env_for


def test_a_seat_refused_while_a_game_runs_is_told_what_to_do_in_english(tmp_path):
    """Ann (a bot client) and the host's bot play; Bob's ``jupai join`` is refused with
    the hint: wait for the game's end, or watch it."""
    host = HostProcess(tmp_path, "--no-announce", "--seats", "2", "--bots", "1", "--bot-delay", "0.5",
                       "--rounds", "6", "--games", "1")
    ann = None
    try:
        ann = Running(["join", host.addr, "--code", host.code, "--bot", "random", "--name", "Ann"],
                      dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "ann")))
        host.wait_for(r"game \S+ started|round 1|Round 1", timeout=30)
        bob = subprocess.run([sys.executable, "-m", "jupai_net", "join", host.addr, "--code", host.code,
                              "--name", "Bob"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=60, env=dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "bob")))
    finally:
        if ann is not None and ann.proc.poll() is None:
            ann.proc.kill()
        host.kill()
    said = " ".join(bob.stderr.split())
    assert "a game is running at this table and you hold no seat in it; join after it, or watch it " \
           "(jupai watch)" in said, bob.stderr
    assert bob.returncode != 0 and "Traceback" not in bob.stderr


def test_a_spectator_trusting_a_host_on_first_use_is_told_to_watch_again(tmp_path):
    """``jupai watch`` without ``--code``: the held warning says to watch again with
    ``--code`` (it said "join again"), in English and Chinese (the words, not a run)."""
    from jupai_net.client.cli import first_use_text

    host = HostProcess(tmp_path, "--no-announce", "--seats", "2")
    wu = None
    try:
        env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "wu"), JUPAI_NO_MULTICAST="1")
        wu = PtyJupai(["watch", host.addr, "--name", "Wu"], env, rows=24, columns=80)
        wu.wait_for(r"watch\s+again\s+with\s+--code\s+CODE", timeout=30)
        wu.type("q\r")
        wu.finish(20)
    finally:
        if wu is not None:
            wu.kill()
        host.kill()
    assert "join again" not in wu.text and "Traceback" not in wu.text
    assert "重新旁观" in first_use_text("zh", "h:1", "C", watch=True)
    assert "重新加入" not in first_use_text("zh", "h:1", "C", watch=True)


def _stopped_blind_transcript(tmp_path, note: str):
    from jupai_net.fairness.statements import generate_signing_key
    from jupai_net.fairness.transcript import decode_transcript, encode_transcript
    from jupai_net.host.blind import play_blind_deal
    from jupai_net.rules import RuleSet

    blind = play_blind_deal(RuleSet(players=2), generate_signing_key(), reason="the host was stopped")[0]
    cut = decode_transcript(blind)
    path = tmp_path / "stopped.jupai"
    path.write_bytes(encode_transcript(replace(cut, statements=cut.statements[:len(cut.statements) // 2],
                                               host_gone=note)))
    return path


def test_the_verdict_after_the_host_went_away_says_why_in_words(tmp_path):
    """The seat's note ``session ended: host-gone`` (the host killed mid-game, screens 59
    and 60) reads ``the host stopped: the connection to the host was lost`` in ``jupai
    verify``, in English as in Chinese, not the session's status code."""
    path = _stopped_blind_transcript(tmp_path, "session ended: host-gone")
    env = dict(env_for(tmp_path), COLUMNS="200")
    for lang, words in (("en", "(the host stopped: the connection to the host was lost)"),
                        ("zh", "（主机停止了：与主机的连接断开）")):
        out = subprocess.run([sys.executable, "-m", "jupai_net", "verify", "--lang", lang, str(path)],
                             capture_output=True, text=True, timeout=60, env=env).stdout
        flat = " ".join(out.split()) if lang == "en" else "".join(out.split())
        assert words in flat, out
        assert "host-gone" not in out and "session ended" not in out and "会话结束" not in out, out


def test_a_person_who_left_is_they_not_it():
    """The host's abandon sentence (signed English) and its Chinese say "their" / "其";
    an older host's "its cards" in a transcript is said in today's words."""
    from jupai_net.messages.notices import abandon_sentence, reason_sentence

    args = {"who": [["Ann", 0]], "why": "left"}
    en = abandon_sentence("blind-left", args, "en")
    assert en == "Ann (seat 0) left the dealer-blind game (they chose to leave); nobody else can play their cards"
    assert abandon_sentence("blind-left", args, "zh").endswith("没有人能替其出牌")
    late = abandon_sentence("blind-turn-late", {"who": [["Ann", 0]], "seconds": 30}, "en")
    assert "its" not in late.split() and "their turn time" in late
    old = en.replace("their cards", "its cards")
    assert reason_sentence(old, "en") == en and reason_sentence(old, "zh").endswith("没有人能替其出牌")


def test_the_pinned_codes_match_is_said_once_per_host_and_code(tmp_path):
    """A session that connects twice to the same host (a refused rejoin joins afresh, a
    table found by its name, a reconnect) says "matches the pinned one" once."""
    from rich.console import Console

    from jupai_net.client.cli import PinningCheck
    from jupai_net.client.known_hosts import KnownHosts

    out = io.StringIO()
    known = KnownHosts(tmp_path / "known_hosts")
    check = PinningCheck(None, Console(file=out, width=200), "en", known_hosts=known)
    fp = "ab" * 32
    for _ in range(3):
        check("h", 1, fp)
    text = out.getvalue()
    assert text.count("pinned in") == 1 and "matches the pinned one" not in text
    again = PinningCheck(None, Console(file=out, width=200), "en", known_hosts=known)
    for _ in range(2):
        again("h", 1, fp)
    assert out.getvalue().count("matches the pinned one") == 1
