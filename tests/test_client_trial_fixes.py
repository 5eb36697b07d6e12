"""Fixes from a new user's trial (specs/client.md): the attacker's total when you must
answer, help redraws, the lobby lists every seat, the spectator view is compact below
100 columns, the verdict in Chinese, the verify command as the user can run it."""

from __future__ import annotations

import random

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
    shown = weapon = 0
    for players, seed in ((3, 1), (4, 2), (5, 3), (6, 4), (4, 5), (4, 6)):
        for obs, contest in _pending_answers(players, seed):
            kind = obs["pending"]["contest"]
            total = R.pending_total(obs)
            text = R.pending_text(obs, lang="en")
            if kind == "discard":
                assert total is None
                continue
            if total is None:
                assert "its total is not known" in text
                continue
            assert contest is not None and contest["sides"][0]["total"] == total.total.value, (obs["pending"], contest)
            assert ": " + total.total.formula in text
            assert total.total.formula in R.pending_text(obs, lang="zh")
            shown += 1
            weapon += bool(obs["pending"].get("weapon"))
            screen = to_text(render_view(obs, legal=[], width=80, height=23), width=80)
            assert "= " + str(total.total.value) in screen
    assert shown > 20 and weapon > 0, (shown, weapon)


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
    assert "2/4 seats taken · waiting for 2 more players" in text
    for line in ("seat 0 (Ann)", "seat 1  (empty)", "seat 2 (Bob, you)", "seat 3  (empty)"):
        assert line in text
    zh = to_text(render_lobby(players, seat=2, total=4, lang="zh"), width=80)
    assert "还差 2 名玩家" in zh and "1号位  （空位）" in zh
    full = to_text(render_lobby([{"seat": s, "name": f"P{s}"} for s in range(3)], total=3), width=80)
    assert "waiting for" not in full and "(empty)" not in full
