"""Review: the engine under junk input. apply() answers anything that is not a legal
action with IllegalAction and leaves the state untouched; an action that only
*compares* equal to a legal one (1.0, True, weapon=1) is recorded in the engine's own
types, so the record replays; replay() of a malformed record raises ValueError or
IllegalAction, never another exception type; observation() refuses seats that are not
at the table."""

from __future__ import annotations

import copy
import random

import pytest

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.cards import CANONICAL_DECK
from jupai_net.engine import GameState, IllegalAction, replay
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup

from .engine_helpers import Cards, deal, setup_of


def new_game(seed: int = 3, **kw) -> GameState:
    rng = random.Random(seed)
    rules = RuleSet(**kw)
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    return GameState.new(rules, deck, draw_setup(rules, rng))


def snapshot(st: GameState):
    return (st.record(), [st.observation(s) for s in [None, *range(st.players)]],
            [e.to_wire(None) for e in st.events], st.card_places())


def _junk(a: Action) -> list[tuple[str, Action]]:
    return [
        ("cards as a list", a._replace(cards=list(a.cards))),
        ("target as a string", a._replace(target=str(a.target))),
        ("card id 99", a._replace(cards=(99,))),
        ("card id -1", a._replace(cards=(-1,))),
        ("card None", a._replace(cards=(None,))),
        ("cards None", a._replace(cards=None)),
        ("card as a string", a._replace(cards=("6",))),
        ("same card twice", a._replace(cards=a.cards * 2)),
        ("unknown kind", a._replace(kind="foo")),
        ("kind None", a._replace(kind=None)),
        ("kind not hashable", a._replace(kind=["attack"])),
        ("recovered as a string", a._replace(recovered="xx")),
        ("recovered None", a._replace(recovered=None)),
        ("weapon as a string", a._replace(weapon="yes")),
        ("huge target", a._replace(target=10**30)),
        ("negative target", a._replace(target=-1)),
        ("own seat as target", a._replace(target=0)),
    ]


@pytest.mark.parametrize("name", [n for n, _ in _junk(Action(A.DEFENSE, 1, (6,)))])
def test_junk_actions_raise_illegal_action_and_change_nothing(name):
    st = new_game()
    a = st.legal_actions()[0]
    junk = dict(_junk(a))[name]
    before = snapshot(st)
    with pytest.raises(IllegalAction) as info:
        st.apply(junk)
    assert info.value.reason
    assert snapshot(st) == before
    st.apply(a)  # and the game goes on


@pytest.mark.parametrize("thing", [None, 5, "attack", ("defense", 1, (6,), False, ()), {"kind": "pass"}])
def test_non_actions_are_illegal(thing):
    st = new_game()
    before = snapshot(st)
    with pytest.raises(IllegalAction, match="not an action"):
        st.apply(thing)
    assert snapshot(st) == before


@pytest.mark.parametrize("change", [
    {"target": 1.0}, {"target": True}, {"weapon": 0}, {"cards": "float"},
])
def test_equal_but_mistyped_action_is_recorded_in_the_engines_types(change):
    """Action(target=1.0) == Action(target=1), so it used to be accepted as is: the
    record then held 1.0/True and no longer replayed, and a float card id crashed the
    contest (TypeError inside apply, state half changed)."""
    st = new_game()
    a = st.legal_actions()[0]
    assert a.target == 1 and not a.weapon
    if change == {"cards": "float"}:
        mistyped = a._replace(cards=tuple(float(c) for c in a.cards))
    else:
        mistyped = a._replace(**change)
    assert mistyped == a
    st.apply(mistyped)
    stored = st.history[-1]
    assert type(stored.target) is int and type(stored.weapon) is bool
    assert all(type(c) is int for c in stored.cards)
    while not st.is_over:  # the contest resolves with int card ids
        st.apply(st.legal_actions()[0])
    assert replay(st.record()).record() == st.record()


def test_last_round_cards_in_any_order_are_accepted_in_the_engines_order():
    c = Cards()
    st = deal(RuleSet(players=2, rounds=1, round_value="rank"), setup_of("LF"), rounds=[c(6)])
    legal = st.legal_actions()[0]
    shuffled = legal._replace(cards=tuple(reversed(legal.cards)))
    assert shuffled != legal
    st.apply(shuffled)
    assert st.history[-1] == legal


# ------------------------------------------------------------------ replay of malformed records
def _record():
    st = new_game()
    rng = random.Random(1)
    for _ in range(10):
        st.apply(rng.choice(st.legal_actions()))
    return st.record()


def _mutations():
    def setitem(path, value):
        def f(r):
            obj = r
            for k in path[:-1]:
                obj = obj[k]
            obj[path[-1]] = value
        return f

    def pop(key):
        return lambda r: r.pop(key)

    def deck_put(value):
        def f(r):
            r["deck"][r["deck"].index(1)] = value
        return f

    return {
        "no rules": pop("rules"),
        "no setup": pop("setup"),
        "no deck": pop("deck"),
        "no actions": pop("actions"),
        "actions an int": setitem(["actions"], 5),
        "actions None": setitem(["actions"], None),
        "actions a map": setitem(["actions"], {"a": 1}),
        "deck None": setitem(["deck"], None),
        "deck a string": setitem(["deck"], "abc"),
        "deck with a float": deck_put(1.0),
        "deck with True": deck_put(True),
        "deck with a string": deck_put("x"),
        "version True": setitem(["version"], True),
        "version 1.0": setitem(["version"], 1.0),
        "setup None": setitem(["setup"], None),
        "setup for 2 seats": setitem(["setup", "identities"], "LC"),
        "setup with 4 landlords": setitem(["setup", "identities"], "LLLL"),
        "setup not the rules' identities": setitem(["setup", "identities"], "NNNN"),
        "setup supply = discard": setitem(["setup", "supply_number"], 9),
        "setup coordinator rank 0": setitem(["setup", "coordinator_rank"], 0),
        "setup farmer rank composite": setitem(["setup", "farmer_rank"], 4),
        "setup supply not the rules'": setitem(["setup", "supply_number"], 6),
        "setup unknown field": setitem(["setup", "x"], 1),
        "rules None": setitem(["rules"], None),
        "rules players a string": setitem(["rules", "players"], "4"),
        "action a string": setitem(["actions", 0], "x"),
        "action target a float": setitem(["actions", 0, "target"], 1.0),
        "action card a float": setitem(["actions", 0, "cards"], [6.0]),
        "action duplicated": lambda r: r["actions"].insert(1, r["actions"][0]),
    }


@pytest.mark.parametrize("name", list(_mutations()))
def test_malformed_records_raise_value_error(name):
    r = copy.deepcopy(_record())
    _mutations()[name](r)
    with pytest.raises(ValueError):  # IllegalAction is a ValueError too
        replay(r)


@pytest.mark.parametrize("record", [None, [], "x", 1, {"version": 1}])
def test_not_a_record(record):
    with pytest.raises(ValueError):
        replay(record)


@pytest.mark.parametrize("seat", [-1, 4, 7, True, 1.0, "0"])
def test_observation_refuses_seats_not_at_the_table(seat):
    """observation(-1) used to return the last seat's hand."""
    st = new_game()
    with pytest.raises(ValueError, match="no seat"):
        st.observation(seat)
    with pytest.raises(ValueError, match="no seat"):
        st.known_cards(seat)


def test_clone_keeps_a_setup_that_does_not_fit_the_rules():
    """Tests deal hand-made setups; clone() must still copy them exactly."""
    c = Cards()
    st = deal(RuleSet(), setup_of("LCFN", supply=11, discard=1), rounds=[c(6)])
    assert st.clone().record() == st.record()
