"""Review: hidden information. Under the hidden-identities house rule nothing a seat
receives (observation, legal actions, event log) may tell it an identity that has not
been shown; and the cards of the invariance check must include every seat's view."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.cards import CANONICAL_DECK, rank
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet
from jupai_net.setup import Setup, draw_setup, round_pile_positions

from .engine_helpers import Cards, deal, setup_of


def contest(state):
    return [e for e in state.events if e.kind == "contest"][-1]


def test_discard_choices_do_not_tell_who_shares_my_role():
    """Hidden identities, shared-role reading, a discard round: seat 0 (farmer) used to
    be offered its weapon only against the other farmer, so its legal actions named
    that seat's hidden role. Now every target whose role it cannot know gets the same
    choices."""
    c = Cards()
    pile = [c(9)]
    rules = RuleSet(identities="FCFN", hidden_identities=True)
    a = deal(rules, setup_of("FCFN"), rounds=pile)
    b = deal(rules, setup_of("FFCN"), rounds=pile)  # the other farmer sits elsewhere
    assert a.observation(0) == b.observation(0)
    assert a.legal_actions(0) == b.legal_actions(0)
    assert {(x.target, x.weapon) for x in a.legal_actions(0)} == {(t, w) for t in (1, 2, 3) for w in (False, True)}


def test_weapon_named_in_a_plain_discard_is_not_used():
    """Against a target of another role the discard is plain (i vs m): a weapon flag
    chosen without knowing that does nothing."""
    c = Cards()
    ten = c(10)
    rules = RuleSet(identities="FCFN", hidden_identities=True)
    st = deal(rules, setup_of("FCFN"), hands={0: [ten]}, equipment={0: (c(6), c(5)), 1: (c(8), c(7))}, rounds=[c(9)])
    uses = st.seats[0].equipment.uses_left
    st.apply(Action(A.DISCARD, 1, (ten,), True))
    ev = [e for e in st.events if e.kind == "discard"][-1].data
    assert ev["formula"] == "i 10 > m 8" and ev["success"]
    assert st.seats[0].equipment.uses_left == uses and not st.seats[0].equipment.shown
    assert st.observation(1)["players"][0]["identity"] is None


def test_known_roles_still_decide_the_choices():
    """Once the target's role is shown the actor knows it: no weapon choice against a
    known other role (as without the house rule)."""
    c = Cards()
    rules = RuleSet(identities="FCFN", hidden_identities=True)
    st = deal(rules, setup_of("FCFN"), rounds=[c(9)])
    st.seats[1].identity_shown = True
    st._legal_cache = None
    assert {x.weapon for x in st.legal_actions(0) if x.target == 1} == {False}
    assert {x.weapon for x in st.legal_actions(0) if x.target == 2} == {False, True}


def test_matching_card_discard_answer_does_not_tell_the_targets_identity():
    """matching-card + hidden identities: the target of a same-identity discard answers
    with a card and keeps it; its side has no formula. The log used to mark that side
    'same' when the card had its identity's rank, naming its identity to everyone."""
    c = Cards()
    six, five, nine = c(6), c(5), c(9)
    rules = RuleSet(identities="CFNN", hidden_identities=True, same_identity="matching-card")
    views = []
    for ids in ("CFNN", "CNNF"):  # seat 1 is the farmer (I=5) or a narrator
        st = deal(rules, setup_of(ids), hands={0: [six], 1: [five]}, rounds=[nine])
        st.apply(Action(A.DISCARD, 1, (six,)))
        st.apply(Action(A.ANSWER, cards=(five,)))
        views.append((st.observation(2), [e.to_wire(2) for e in st.events]))
        assert st.observation(2)["players"][1]["identity"] is None
    assert views[0] == views[1]


def test_shared_role_discard_contest_shows_both_identities():
    """specs/rules.md §9.13: both sides of a same-identity contest are shown; for a
    same-identity discard only the actor was, though the log said 'same' for both."""
    c = Cards()
    three, seven = c(3), c(7)
    rules = RuleSet(players=3, identities="FFN", hidden_identities=True)
    st = deal(rules, setup_of("FFN"), hands={0: [three], 1: [seven]}, equipment={1: (c(8), c(6))}, rounds=[c(9)])
    st.apply(Action(A.DISCARD, 1, (three,)))
    st.apply(Action(A.ANSWER, cards=(seven,)))
    d = contest(st).data
    assert d["sides"][0]["same"] and d["sides"][1]["same"]
    assert [p["identity"] for p in st.observation(2)["players"]] == ["F", "F", "N"]
    assert d["identities"] == ["F", "F", None]


# ------------------------------------------------------------------ property: identity swaps
@st.composite
def hidden_rules(draw):
    players = draw(st.integers(3, 6))
    return RuleSet(
        players=players,
        hidden_identities=True,
        same_identity=draw(st.sampled_from(["shared-role", "matching-card"])),
        round_value=draw(st.sampled_from(["ordinal", "rank"])),
        random_specials=draw(st.booleans()),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=hidden_rules(), seed=st.integers(0, 2**32), viewer=st.integers(0, 5), discard_first=st.booleans())
def test_swapping_hidden_identities_changes_nothing_the_seat_sees_until_it_is_shown(rules, seed, viewer, discard_first):
    """Two games that differ only in the identities of seats the viewer cannot know:
    as long as the viewer's observations agree, so do its legal actions."""
    viewer %= rules.players
    rng = random.Random(seed)
    setup = draw_setup(rules, rng)
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    if discard_first:  # discard rounds are where roles decide the choices
        top = round_pile_positions(rules)[0]
        k = next(k for k, c in enumerate(deck) if rank(c) == setup.discard_number)
        deck[top], deck[k] = deck[k], deck[top]
    a = GameState.new(rules, deck, setup)
    unknown = [s for s, p in enumerate(a.observation(viewer)["players"])
               if p["identity"] is None and setup.identities[s] != "L"]  # the landlord leads round 1
    if len(unknown) < 2:
        return
    ids = list(setup.identities)
    moved = [ids[s] for s in unknown]
    moved = moved[1:] + moved[:1]
    for s, letter in zip(unknown, moved):
        ids[s] = letter
    b = GameState.new(rules, deck, Setup(tuple(ids), setup.coordinator_rank, setup.farmer_rank,
                                         setup.supply_number, setup.discard_number))
    while not a.is_over and not b.is_over and a.observation(viewer) == b.observation(viewer):
        if a.to_move == viewer:
            assert a.legal_actions(viewer) == b.legal_actions(viewer)
        action = rng.choice(a.legal_actions())
        if action not in b.legal_actions():
            assert a.to_move != viewer
            return
        a.apply(action)
        b.apply(action)
