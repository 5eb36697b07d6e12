"""The protocol carries what the rules engine produces: every observation of every seat
(sync), every legal-action list (prompt) and every chosen action (action) of real
games fit the limits and come back equal."""

from __future__ import annotations

import random

import pytest

from jupai_net.cards import CANONICAL_DECK
from jupai_net.engine import GameState
from jupai_net.protocol import NEED_DATA, ActionMessage, Prompt, Start, Sync
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup

from .test_protocol_support import GAME_ID, pair


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_random_game_travels_intact(players):
    rng = random.Random(players)
    rules = RuleSet(players=players)
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    state = GameState.new(rules, deck, draw_setup(rules, rng))
    c, h = pair("lobby")
    c.receive_data(h.send(Start(GAME_ID, rules)))
    assert c.next_event() == Start(GAME_ID, rules)
    largest = 0
    while not state.is_over:
        seat = state.to_move
        for viewer in [*range(players), None]:
            sent = Sync(state.version, state.observation(viewer))
            data = h.send(sent)
            largest = max(largest, len(data))
            c.receive_data(data)
            assert c.next_event() == sent
        legal = state.legal_actions(seat)
        prompt = Prompt(state.version, legal, timeout_ms=30_000, pending="move")
        c.receive_data(h.send(prompt))
        got = c.next_event()
        assert got == prompt and list(got.legal) == legal
        choice = rng.choice(got.legal)
        h.receive_data(c.send(ActionMessage(c.game_id, got.state_id, choice)))
        act = h.next_event()
        assert h.next_event() is NEED_DATA
        assert act.state_id == state.version and act.action == choice
        state.apply(act.action)
    assert largest < 64 * 1024  # far below the 256 KiB frame limit
