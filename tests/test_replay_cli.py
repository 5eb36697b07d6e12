"""``jupai replay FILE``: a verified game step by step (specs/client.md § Replay)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from jupai_net.client.replay_screen import ReplayScreen
from jupai_net.client.render import card_text, to_text
from jupai_net.fairness import signing_key_from_bytes
from jupai_net.fairness.selfplay import deliver, play_game
from jupai_net.fairness.story import StoryError, read_game
from jupai_net.rules import RuleSet
from tests.test_client_cli import Terminal, _env

KEY = signing_key_from_bytes(bytes([8]) * 32)
FIXED = dict(game_id=bytes(range(16)), host_seed=bytes([1]) * 32, seat_seeds=[bytes([s + 2]) * 32 for s in range(3)])


@pytest.fixture(scope="module")
def game():
    return play_game(RuleSet(players=3, rounds=4), rng_seed=9, key=KEY, **FIXED)


@pytest.fixture(scope="module")
def files(game, tmp_path_factory):
    d = tmp_path_factory.mktemp("replay")
    good = game.transcript(1)
    paths = {"verified": d / "a game.jupai"}  # a space in the name, as on Windows home folders
    paths["verified"].write_bytes(good)
    b = bytearray(good)
    b[len(b) // 2] ^= 0x10
    paths["tampered"] = d / "tampered.jupai"
    paths["tampered"].write_bytes(bytes(b))
    unfinished = play_game(RuleSet(players=3, rounds=4), rng_seed=9, key=KEY, max_steps=2, **FIXED)
    deliver(unfinished.dealer.abandon("quit", reveal_seed=False), unfinished.witnesses)
    paths["suspicious"] = d / "suspicious.jupai"
    paths["suspicious"].write_bytes(unfinished.transcript(0))
    paths["garbage"] = d / "garbage.jupai"
    paths["garbage"].write_bytes(b"\x00\xffnot a transcript")
    return {k: str(v) for k, v in paths.items()}


def jupai(*argv, env=None, stdin=subprocess.DEVNULL):
    return subprocess.run([sys.executable, "-m", "jupai_net", *argv], capture_output=True, text=True,
                          env=env, stdin=stdin, timeout=60)


def test_story_matches_the_game(game):
    story = read_game(game.transcript(1))
    state = game.dealer.state
    assert story.verdict.status == "verified"
    assert story.seat == 1 and story.seats == 3
    assert len(story.steps) == len(state.history) == game.steps
    assert [s.action for s in story.steps] == [a.to_wire() for a in state.history]
    assert story.ranking == tuple(state.ranking) and story.winner == state.winner
    assert story.deck == game.dealer.deal.deck
    # the view after the last action is the seat's view of the finished game
    assert story.steps[-1].observation == state.observation(1)


def test_replay_all_prints_every_action_and_the_deck(files, game):
    proc = jupai("replay", files["verified"], "--all", env={**os.environ, "COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    numbered = re.findall(r"^\s*(\d+)\. ", out, re.M)
    assert sorted({int(n) for n in numbered}) == list(range(1, game.steps + 1))
    assert "=" in out  # formulas are shown (e.g. "2×7 = 14")
    deck = game.dealer.deal.deck
    flat = " ".join(out.split())
    for k in (0, 26, 52):
        assert f"{k}:{card_text(deck[k])}" in flat
    assert "verified" in out
    assert "Traceback" not in proc.stderr
    # the first screen names the scheme that dealt the game, as the last one does (issue 12)
    assert "trusted dealer" in " ".join(out.split("\n  1. ")[0].split()), out[:400]


def test_replay_in_chinese(files):
    proc = jupai("replay", files["verified"], "--all", "--lang", "zh")
    assert proc.returncode == 0
    assert "回放" in proc.stdout and "由种子生成的整副牌" in proc.stdout and "已验证" in proc.stdout
    assert "可信庄家" in proc.stdout.split("\n  1. ")[0], proc.stdout[:400]  # the scheme, from the first screen


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name, code", [("tampered", 3), ("suspicious", 4), ("garbage", 6)])
def test_replay_refuses_a_game_that_does_not_verify(files, name, code, lang):
    """The refusal is said on stderr, the sentence on one line (a pipe is not wrapped); in
    Chinese from the verdict's code, and a library's technical words (the msgpack error
    of a file that is not a transcript) follow on their own labelled line, never inside
    the sentence."""
    proc = jupai("replay", files[name], "--all", "--lang", lang)
    assert proc.returncode == code
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("jupai replay:") and "Traceback" not in proc.stderr
    if lang == "en" or name != "garbage":  # a reason the catalog says in Chinese: no detail line
        assert len(lines) == 1, lines
    else:
        assert len(lines) == 2 and lines[1].startswith("技术细节（英文）："), lines
        assert not any(w in lines[0] for w in ("signature", "msgpack", "not a")), lines[0]


def test_replay_force_shows_an_unverified_game(files):
    proc = jupai("replay", files["suspicious"], "--all", "--force")
    assert proc.returncode == 0
    assert "suspicious" in proc.stdout
    assert "never revealed its seed" in " ".join(proc.stdout.split())  # no deck without the host seed


def test_replay_missing_file_is_one_sentence(tmp_path):
    proc = jupai("replay", str(tmp_path / "nope.jupai"))
    assert proc.returncode == 6
    assert proc.stdout == "" and proc.stderr.startswith("jupai replay: cannot read ") and "Traceback" not in proc.stderr


def test_keys_move_between_frames(game):
    screen = ReplayScreen(read_game(game.transcript(1)))
    last = screen.last
    assert last == game.steps + 1
    assert screen.next_frame(0, "") == 1 and screen.next_frame(1, "n") == 2
    assert screen.next_frame(2, "p") == 1 and screen.next_frame(0, "p") == 0
    assert screen.next_frame(last, "n") == last
    assert screen.next_frame(3, "999") == last and screen.next_frame(3, "5") == 5
    assert screen.next_frame(3, "zz") == 3
    assert screen.next_frame(3, "q") is None
    # r goes to the first action of the next round: the one after a 'round' event
    r = screen.next_frame(0, "r")
    assert any(e["kind"] == "round" for e in screen.story.steps[r - 2].events)
    assert not any(e["kind"] == "round" for s in screen.story.steps[: r - 2] for e in s.events)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_frames_fit_the_width(game, width):
    screen = ReplayScreen(read_game(game.transcript(1)))
    for k in (0, 1, screen.last - 1, screen.last):
        text = to_text(screen.frame(k, width, 24), width=width)
        assert all(len(line) <= width for line in text.splitlines())
        assert "Replay" in text.splitlines()[0]


def test_replay_at_a_terminal(files, tmp_path, game):
    term = Terminal([sys.executable, "-m", "jupai_net", "replay", files["verified"]], _env(tmp_path, "r"),
                    rows=24, cols=80)
    try:
        term.expect(r"the deal")
        term.expect(r"trusted\s+dealer")  # the first screen's header names the scheme (issue 12)
        assert "The whole deck" not in term.text  # (not the last screen's verdict saying it)
        term.type("")
        term.expect(r"action 1 of \d+")
        term.type("3")
        term.expect(r"action 3 of \d+")
        term.type("p")
        term.expect(r"action 2 of \d+")
        term.type(str(game.steps + 1))
        term.expect(r"The whole deck as the seeds made it")
        term.type("q")
        assert term.wait() == 0
    finally:
        term.close()
    assert "Traceback" not in term.text


def test_unreadable_bytes_raise_story_error():
    with pytest.raises(StoryError):
        read_game(b"\x00\x01")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_frame_says_what_is_known_of_an_attack_with_a_face_down_weapon(game, lang):
    """The trial's replay read "total unknown" under an attack with a face-down weapon:
    a frame says what the cards come to and that a face-down weapon adds to it."""
    screen = ReplayScreen(read_game(game.transcript(2)), lang)
    frames = [to_text(screen.frame(k, 80, 23), width=80) for k in range(screen.last)]
    assert not any(word in f for f in frames for word in ("unknown", "not known", "未知"))
    part = {"en": "+ a face-down weapon", "zh": "+ 暗置的武器"}[lang]
    flat = [" ".join(f.split()) for f in frames]
    assert any(re.search(r"\d+×\d+( \+ \d+)? ?" + re.escape(part), f) for f in flat), frames


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replay_force_of_a_game_abandoned_before_any_action_says_so(lang):
    """Issue 12: `jupai replay --force` of a dealer-blind game abandoned before any action
    printed "the deal (0 actions follow)" and nothing under it; it says that the game was
    abandoned before any action, why the deal and the deck cannot be shown (a seat's
    seed is missing), and why the host stopped it."""
    from tests.test_history_cli import BLIND_ABANDONED

    proc = jupai("replay", "--force", "--lang", lang, BLIND_ABANDONED, env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "0 actions" not in out and "之后共 0 步" not in out
    words = {"en": ["the deal · the game was abandoned before any action", "The dealer-blind deal cannot be shown",
                    "The host stopped the game: Ann (seat 0) left the dealer-blind game (they chose to leave)",
                    "The deck cannot be shown: a dealer-blind deck is known only from every seat's seed"],
             "zh": ["发牌 · 对局在第一步之前就被放弃了", "无法显示庄家盲发的发牌", "主机中止了对局：Ann（0号位）离开了盲发牌对局（主动离开）",
                    "无法显示整副牌：庄家盲发的牌只能由每个座位的种子得出"]}[lang]
    for line in words:
        assert line in out, out
    assert "host never revealed its seed" not in out
