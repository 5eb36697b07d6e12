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
