"""Property tests over random rule sets, table sizes and bot games (issue 2)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupai_net.bots import greedy_bot, random_bot
from jupai_net.cards import CANONICAL_DECK, DECK_SIZE
from jupai_net.engine import GameState, replay
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup


@st.composite
def rule_sets(draw):
    players = draw(st.integers(2, 6))
    hand_size = draw(st.integers(1, 6))
    most = DECK_SIZE - players * (2 + hand_size)
    return RuleSet(
        players=players,
        hand_size=hand_size,
        rounds=draw(st.integers(1, min(most, 16))),
        swap_prime_composite=draw(st.booleans()),
        random_specials=draw(st.booleans()),
        round_value=draw(st.sampled_from(["ordinal", "rank"])),
        same_identity=draw(st.sampled_from(["shared-role", "matching-card"])),
        hidden_identities=draw(st.booleans()),
    )


def new_game(rules: RuleSet, seed: int) -> tuple[GameState, random.Random]:
    rng = random.Random(seed)
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    return GameState.new(rules, deck, draw_setup(rules, rng)), rng


def check_conservation(state: GameState) -> None:
    places = state.card_places()
    every = [c for cards in places.values() for c in cards]
    assert sorted(every) == list(CANONICAL_DECK), {k: v for k, v in places.items() if v}


GAME = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GAME
@given(rules=rule_sets(), seed=st.integers(0, 2**32), greedy=st.booleans())
def test_bot_games_keep_every_invariant(rules, seed, greedy):
    """No card created or lost; the seat to move always has a legal action; the
    game ends within its rounds; the record replays to the same state."""
    state, rng = new_game(rules, seed)
    bot = greedy_bot if greedy else random_bot
    steps = 0
    check_conservation(state)
    while not state.is_over:
        seat = state.to_move
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} has no legal action"
        assert all(state.legal_actions(s) == [] for s in range(rules.players) if s != seat)
        state.apply(bot(state.observation(seat), legal, rng), seat=seat)
        check_conservation(state)
        assert state.round_no <= rules.rounds
        steps += 1
        assert steps <= rules.rounds * rules.players * 3  # act + answer (+ rearm) per seat per round
    assert sorted(state.ranking) == list(range(rules.players))
    again = replay(state.record())
    assert again.record() == state.record()
    assert all(again.observation(s) == state.observation(s) for s in [None, *range(rules.players)])
    assert [e.to_wire(None) for e in again.events] == [e.to_wire(None) for e in state.events]


@GAME
@given(rules=rule_sets(), seed=st.integers(0, 2**32), cut=st.floats(0, 1), viewer=st.integers(0, 5),
       spectator=st.booleans())
def test_observation_ignores_cards_the_seat_cannot_see(rules, seed, cut, viewer, spectator):
    """Swap cards the viewer has never seen (in other hands, face-down equipment, the
    stock, the round pile): replaying the same actions gives the viewer the same
    observation at every step."""
    seat = None if spectator else viewer % rules.players
    state, rng = new_game(rules, seed)
    full = []
    probe = state.clone()
    while not probe.is_over:
        a = random_bot(probe.observation(probe.to_move), probe.legal_actions(), rng)
        probe.apply(a)
        full.append(a)
    actions = full[: int(len(full) * cut)]
    for a in actions:
        state.apply(a)
    hidden = sorted(set(CANONICAL_DECK) - state.known_cards(seat))
    if len(hidden) < 2:
        return
    perm = list(hidden)
    rng.shuffle(perm)
    swap = dict(zip(hidden, perm))
    other_deck = [swap.get(c, c) for c in state.deck]
    other = GameState.new(rules, other_deck, state.setup)
    twin = GameState.new(rules, state.deck, state.setup)
    assert other.observation(seat) == twin.observation(seat)
    for a in actions:
        other.apply(a)
        twin.apply(a)
        assert other.observation(seat) == twin.observation(seat)
    assert [e.to_wire(seat) for e in other.events] == [e.to_wire(seat) for e in twin.events]


def test_a_real_leak_is_caught_by_the_invariance_check():
    """The check above can fail: a seat's own hand is not hidden from itself, so
    swapping one of its cards with a hidden card changes its observation."""
    rules = RuleSet()
    state, _ = new_game(rules, 3)
    mine = state.seats[0].hand[0]
    hidden = sorted(set(CANONICAL_DECK) - state.known_cards(0))[0]
    deck = [hidden if c == mine else mine if c == hidden else c for c in state.deck]
    assert GameState.new(rules, deck, state.setup).observation(0) != state.observation(0)
