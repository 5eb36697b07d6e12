"""A supply round's moves say what each one does (specs/client.md § Your moves): with
no equipment, drawing a pair before acting (``rearm``) and drawing a pair as the
supply move itself are two different moves and read differently; a supply (a) move's
'up to k recovered cards' mark is written the language's way (full-width in Chinese)."""

from __future__ import annotations

import random

from jupai_net import actions as A
from jupai_net.client.move_words import describe_action, item_text
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet

from .engine_helpers import setup_of


def _prompts():
    """Observations and legal moves of a few seeded 4-player random games."""
    for seed in range(12):
        rng = random.Random(seed)
        deck = list(range(53))
        rng.shuffle(deck)
        st = GameState.new(RuleSet(players=4), deck, setup_of("LCFN"))
        while not st.is_over:
            legal = list(st.legal_actions())
            yield st.observation(st.to_move), legal
            st.apply(rng.choice(legal))


def test_drawing_before_acting_and_drawing_as_the_supply_move_read_differently():
    for obs, legal in _prompts():
        kinds = {a.kind: a for a in legal}
        rearm, draw = kinds.get(A.REARM), kinds.get(A.SUPPLY_EQUIPMENT)
        if rearm and draw and not obs["players"][obs["seat"]].get("equipment"):
            break
    else:
        raise AssertionError("no supply prompt with both draws in 12 games")
    for lang, then_act, as_move in (("en", "then still act", "as your move"), ("zh", "再照常行动", "作为本次行动")):
        a, b = describe_action(rearm, obs, lang=lang), describe_action(draw, obs, lang=lang)
        assert then_act in a and as_move not in a, a
        assert as_move in b and then_act not in b, b


def test_the_up_to_k_recovered_mark_follows_the_language():
    for obs, legal in _prompts():
        marked = [a for a in legal if a.kind == A.SUPPLY_RECOVERED and a.cards
                  and item_text(a, obs, "en", False).endswith(")")]
        if marked:
            break
    else:
        raise AssertionError("no supply (a) move with recovered cards to follow in 12 games")
    en, zh = item_text(marked[0], obs, "en", False), item_text(marked[0], obs, "zh", False)
    assert " (+" in en and en.endswith(")"), en
    assert "（+" in zh and zh.endswith("）") and "(" not in zh, zh
