"""Fixes from a new user's trial (specs/client.md): the attacker's total when you must
answer, help redraws, the lobby lists every seat, the spectator view is compact below
100 columns, the verdict in Chinese, the verify command as the user can run it."""

from __future__ import annotations

import random
import re

from jupai_net.client import render as R
from jupai_net.client.render import render_view, to_text

from jupai_net.engine import GameState
from jupai_net.rules import RuleSet

from .engine_helpers import setup_of

IDS = {3: "LFF", 4: "LCFN", 5: "LCFFN", 6: "LCCFFN"}


def _pending_answers(players: int, seed: int):
    """(observation of the seat that must answer, the contest event that follows)."""
    rng = random.Random(seed)
    deck = list(range(53))
    rng.shuffle(deck)
    ids = list(IDS[players])
    rng.shuffle(ids)
    st = GameState.new(RuleSet(players=players), deck, setup_of("".join(ids)))
    while not st.is_over:
        seat = st.to_move
        obs = st.observation(seat) if st.pending is not None else None
        events = st.apply(rng.choice(st.legal_actions()))
        if obs is not None:
            contest = next((e.to_wire(seat) for e in events if e.to_wire(seat).get("kind") == "contest"), None)
            yield obs, contest


def test_the_attackers_total_is_shown_when_you_must_answer():
    """Real engine games: the total shown for the pending attack is the one the engine
    then gives the attacker's side (or the screen says it cannot be known)."""
    shown = weapon = unknown = 0
    for players, seed in ((3, 1), (4, 2), (5, 3), (6, 4), (4, 5), (4, 6)):
        for obs, contest in _pending_answers(players, seed):
            kind = obs["pending"]["contest"]
            total = R.pending_total(obs)
            text = R.pending_text(obs, lang="en")
            if kind == "discard":
                assert total is None
                continue
            if total is None:  # what is known: the cards' part when only the weapon is face-down, else nothing
                weapon_hidden = obs["pending"].get("weapon") and kind == "attack"
                part = re.search(r": (\S+×\d+|\d+×\d+ \+ \d+) \+ a face-down weapon;", text)
                assert bool(part) == bool(weapon_hidden) or (not part and "total" not in text), text
                assert "=" not in text.split(";")[0] and "unknown" not in text and "not known" not in text, text
                unknown += 1
                continue
            assert contest is not None and contest["sides"][0]["total"] == total.total.value, (obs["pending"], contest)
            assert ": " + total.total.formula in text
            assert total.total.formula in R.pending_text(obs, lang="zh")
            shown += 1
            weapon += bool(obs["pending"].get("weapon"))
            screen = to_text(render_view(obs, legal=[], width=80, height=23), width=80)
            assert "= " + str(total.total.value) in screen
    assert shown > 20 and weapon > 0 and unknown > 0, (shown, weapon, unknown)


async def test_after_help_the_moves_are_shown_again_and_enter_redraws_the_table():
    import os

    import trio

    from jupai_net.actions import Action
    from jupai_net import actions as A

    from .engine_helpers import card
    from .test_client_ui import View, game, make_player

    st = game()
    legal = st.legal_actions()
    player, w, out = make_player([])
    view = View(st.observation(0), legal, names={1: "Bob"})
    player.on_update(view)
    chosen = []

    async def choose():
        chosen.append(await player.choose(view))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.input_loop)
        nursery.start_soon(choose)
        await trio.sleep(0.2)
        before_help = len(out.getvalue())
        os.write(w, b"?\n")
        await trio.sleep(0.3)
        after_help = len(out.getvalue())
        os.write(w, b"\n")
        await trio.sleep(0.3)
        after_enter = len(out.getvalue())
        os.write(w, b"8\n")
        with trio.fail_after(5):
            while not chosen:
                await trio.sleep(0.05)
        action = chosen[0]
        os.write(w, b"/quit\n")
        with trio.fail_after(5):
            await player.quit_requested.wait()
    os.close(w)
    assert action == legal[7] == Action(A.ATTACK, 1, (card(10),), True)
    text = out.getvalue()
    helped = text[before_help:after_help]
    assert "how to play" in helped and "Enter: back to the table" in helped
    assert "10♠ + weapon" in helped[helped.index("how to play"):]  # the moves under the help
    assert after_enter > after_help and "Your turn" in text[after_help:after_enter + 1]  # Enter: the table again


def test_the_lobby_lists_every_seat_and_how_many_players_are_missing():
    from jupai_net.client.render import render_lobby

    players = [{"seat": 0, "name": "Ann", "ready": True}, None, {"seat": 2, "name": "Bob"}, None]
    text = to_text(render_lobby(players, seat=2, total=4), width=80)
    assert "2 of 4 seats taken · waiting for 2 more players" in text
    for line in ("seat 0 (Ann)", "seat 1  (empty)", "seat 2 (Bob, you)", "seat 3  (empty)"):
        assert line in text
    zh = to_text(render_lobby(players, seat=2, total=4, lang="zh"), width=80)
    assert "还差 2 名玩家" in zh and "1号位  （空位）" in zh
    full = to_text(render_lobby([{"seat": s, "name": f"P{s}"} for s in range(3)], total=3), width=80)
    assert "waiting for" not in full and "(empty)" not in full


def test_the_host_spectator_view_is_compact_below_100_columns():
    from jupai_net.client.render import render_table

    for players, seed in ((4, 1), (6, 3)):
        for obs, _ in _pending_answers(players, seed):
            public = dict(obs, seat=None)
            narrow = to_text(render_table(public), width=80)
            assert "…" not in narrow and "╭" not in narrow, narrow  # no panels, nothing cut
            for p in obs["players"]:
                ident = R.identity_text(p.get("identity"), p.get("identity_value"), "en", short=True)
                assert any(line.startswith(("▶", " ")) and f" {p['seat']} " in line[:4] and ident in line
                           for line in narrow.split("\n")), (ident, narrow)
            wide = to_text(render_table(public), width=120)
            assert "╭" in wide
            break


def test_the_verify_command_is_one_the_user_can_run(monkeypatch, tmp_path):
    import shutil
    import sys

    from jupai_net.client.render import verify_command

    script = tmp_path / "venv" / "bin" / "jupai"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "argv", [str(script), "play"])
    monkeypatch.setattr(shutil, "which", lambda name: None)  # jupai is not on PATH
    assert verify_command() == f"{script} verify"
    monkeypatch.setattr(shutil, "which", lambda name: str(script))  # it is, and it is this program
    assert verify_command() == "jupai verify"
    monkeypatch.setattr(sys, "argv", ["/somewhere/jupai_net/__main__.py"])
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert verify_command() == f"{sys.executable} -m jupai_net verify"


def test_ctrl_c_in_jupai_play_prints_the_same_ending_as_quit(tmp_path):
    """Rich mode (not --plain): Ctrl-C leaves the table as /quit does — the ending with
    the verdict (unverified: you left) and the transcript path — then exits 130."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), COLUMNS="100")
    proc = subprocess.Popen([sys.executable, "-m", "jupai_net", "play", "--seats", "2", "--bot-delay", "0.5",
                             "--lang", "en"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 30
        while "Round 1/" not in "".join(lines) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "Round 1/" in "".join(lines), "".join(lines)[-2000:]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130
        reader.join(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = " ".join("".join(lines).split())
    err = proc.stderr.read()
    assert "Traceback" not in err + out
    assert "left the table before the end" in out
    assert "fairness: unverified" in out
    assert "Transcript saved to:" in out and " verify " in out


def test_after_the_final_screen_the_ending_does_not_repeat_the_ranking():
    import io

    from rich.console import Console

    from jupai_net.client.session import SessionResult
    from jupai_net.client.ui import print_game_end
    from jupai_net.fairness import Verdict

    res = SessionResult("finished", verdict=Verdict("verified", "fair game"), ranking=[1, 0], seat=0)
    for ranking, count in ((True, 1), (False, 0)):
        out = io.StringIO()
        print_game_end(Console(file=out, width=80), res, "en", ranking=ranking)
        assert out.getvalue().count("final ranking") == count and "fairness: verified" in out.getvalue()


def test_the_fairness_verdict_reads_in_chinese_with_the_detail_apart():
    from jupai_net.client.i18n import t
    from jupai_net.client.render import game_end_lines
    from jupai_net.client.session import SessionResult
    from jupai_net.fairness import Verdict

    for status in ("verified", "tampered", "unverified", "suspicious", "malformed"):
        res = SessionResult("finished", verdict=Verdict(status, "technical detail"), ranking=[0], seat=0)
        zh = " ".join(text for text, _, _ in game_end_lines(res, "zh"))
        sentence = t(f"verdict.sentence.{status}", "zh")
        assert sentence and not any("a" <= c <= "z" for c in sentence)
        # the verdict line is all Chinese; the verifier's words follow apart, labelled (specs/client.md)
        assert sentence in zh and f"{sentence}（technical detail）" not in zh and "技术细节（英文）：technical detail" in zh
        en = " ".join(text for text, _, _ in game_end_lines(res, "en"))
        assert "— technical detail" in en
    assert "say" not in t("help.keys", "zh") and "说 文字" in t("help.keys", "zh")
