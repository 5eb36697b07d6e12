"""Review: the engine against an independent reading of design/rules.md, over random
games in every house-rule combination: round-type map, R, every formula of §6 (each
round type × same/different identity × matching-card), collectors, weapon uses and
faces (§7), the last round (§8), and that every card id a seat is shown is one it may
know (so the fairness layer opens it)."""

from __future__ import annotations

import random

import pytest

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.cards import CANONICAL_DECK, rank
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup

from .engine_helpers import Cards, deal, setup_of

PRIMES = {2, 3, 5, 7, 11, 13}
USES = {"simple": 1, "fine": 2, "advanced": 3}


def random_rules(rng: random.Random) -> RuleSet:
    players = rng.randint(2, 6)
    return RuleSet(
        players=players,
        round_value=rng.choice(["ordinal", "rank"]),
        same_identity=rng.choice(["shared-role", "matching-card"]),
        swap_prime_composite=rng.random() < 0.5,
        random_specials=rng.random() < 0.5,
        hidden_identities=rng.random() < 0.3,
        rounds=rng.randint(1, min(12, 53 - players * 7)),
    )


def new_game(seed: int) -> tuple[GameState, random.Random]:
    rng = random.Random(seed)
    rules = random_rules(rng)
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    return GameState.new(rules, deck, draw_setup(rules, rng)), rng


def identity_value(setup, seat: int) -> int:
    return {"L": 14, "C": setup.coordinator_rank, "F": setup.farmer_rank, "N": 0}[setup.identities[seat]]


def expected_round(card_rank: int, setup, rules) -> str:
    if card_rank == setup.supply_number:
        return "supply"
    if card_rank == setup.discard_number:
        return "discard"
    prime = card_rank in PRIMES
    if rules.swap_prime_composite:
        return "attack" if prime else "defense"
    return "defense" if prime else "attack"


def check_contest(d: dict, st: GameState, before: list) -> None:
    """Recompute a contest from design/rules.md §6 with the equipment as it was."""
    setup, rules = st.setup, st.rules
    a, t, R = d["actor"], d["target"], d["R"]
    ca, cd = d["sides"][0]["cards"], d["sides"][1]["cards"]
    ia, idd = sum(map(rank, ca)), sum(map(rank, cd))

    def same(s, o, cards):
        if rules.same_identity == "matching-card":
            return any(rank(c) == identity_value(setup, s) for c in cards)
        return setup.identities[s] == setup.identities[o]

    sa, sd = same(a, t, ca), same(t, a, cd)
    wa = before[a] if d["sides"][0]["weapon"] else None
    wd = before[t] if d["sides"][1]["weapon"] else None
    Ia, Id = identity_value(setup, a), identity_value(setup, t)
    if d["contest"] == "attack":
        ta = (Ia * ia + R if sa else R * ia) + (wa[0] * wa[1] if wa else 0)
        td = (Id * idd + R if sd else R * idd) + (wd[0] * wd[1] if wd else 0)
        collector = None if ta == td else (a if ta < td else t)
    elif d["contest"] == "defense":
        assert d["sides"][0]["weapon"] is None, "the defense attacker never uses a weapon"
        assert (d["sides"][1]["weapon"] is not None) == (before[t] is not None), "the defender must use its weapon"
        w = before[t][1] if before[t] else 0
        ta = (Ia + ia) + (R + ia) if sa else R + ia
        td = (R + idd) + (w + idd) if sd else w + idd
        collector = a if td > ta else t
    else:
        assert d["sides"][1]["weapon"] is None
        ta = Ia * ia + R + (wa[0] * wa[1] if wa else 0)
        td = idd
        collector = t if ta > td else None
    got = (d["sides"][0]["total"], d["sides"][1]["total"], d["collector"])
    assert got == (ta, td, collector), (d, (ta, td, collector))
    for side in d["sides"]:
        assert side["formula"].endswith(f"= {side['total']}")


def check_weapon_use(use: dict) -> None:
    uses = USES[use["quality"]]
    assert 1 <= use["use"] <= uses
    assert use["spent"] == (use["use"] == uses)
    assert use["face"] == ("down" if use["quality"] == "advanced" and use["use"] == 2 else "up")


@pytest.mark.parametrize("block", range(4))
def test_random_games_follow_an_independent_reading_of_the_rules(block):
    for seed in range(block * 80, block * 80 + 80):
        st, rng = new_game(seed)
        rules, setup = st.rules, st.setup
        while not st.is_over:
            card = st.round_card
            assert st.round_kind == expected_round(rank(card), setup, rules)
            assert st.round_value == (st.round_no if rules.round_value == "ordinal" else rank(card))
            first = setup.identities.index("L") if "L" in setup.identities else 0
            assert st.leader == (first + st.round_no - 1) % rules.players
            legal = st.legal_actions()
            if st.last_round:
                me = st.to_move
                hand = tuple(st.seats[me].hand)
                for x in legal:
                    if x.kind in (A.ATTACK, A.DEFENSE, A.DISCARD, A.ANSWER, A.SUPPLY_RECOVERED):
                        assert x.cards == hand, "the last round plays every hand card"
                    if x.kind in (A.ATTACK,) or (x.kind == A.ANSWER and st.pending.contest != "discard"):
                        assert x.weapon == (st.seats[me].equipment is not None)
            before = [(s.equipment.m, s.equipment.w) if s.equipment else None for s in st.seats]
            for e in st.apply(rng.choice(legal)):
                if e.kind == "contest":
                    check_contest(e.data, st, before)
                    for side in e.data["sides"]:
                        if side["weapon"]:
                            check_weapon_use(side["weapon"])
        assert sorted(st.ranking) == list(range(rules.players))


CARD_FIELDS = {"hand", "equipment", "cards", "mass", "weapon", "discarded", "recovered", "card",
               "round_card", "discard_pile"}


def _card_ids(x, out: set, key=None) -> None:
    if isinstance(x, dict):
        for k, v in x.items():
            _card_ids(v, out, k)
    elif isinstance(x, list):
        for v in x:
            _card_ids(v, out, key)
    elif type(x) is int and key in CARD_FIELDS:
        out.add(x)


@pytest.mark.parametrize("block", range(2))
def test_every_card_a_seat_is_shown_is_one_it_may_know(block):
    """Any card id in a seat's observation or events is in known_cards(seat), which is
    what the fairness layer opens to it: nothing is shown without its opening."""
    for seed in range(block * 120, block * 120 + 120):
        st, rng = new_game(seed)
        seen_events = 0
        while True:
            for v in [None, *range(st.players)]:
                shown: set[int] = set()
                for e in st.events[seen_events:]:
                    if e.kind != "end":  # its 'recovered' are counts
                        _card_ids(e.to_wire(v), shown)
                obs = st.observation(v)
                _card_ids({k: obs[k] for k in obs if k != "log"}, shown)
                assert shown <= st.known_cards(v), (v, shown - st.known_cards(v))
            seen_events = len(st.events)
            if st.is_over:
                break
            st.apply(rng.choice(st.legal_actions()))


def test_rearm_waits_a_full_round_after_a_plain_discard_too():
    """§9.5: equipment lost to a discard (not spent) also waits one full round: lost in
    round 1, no draw in round 2, a draw in round 3."""
    c = Cards()
    ten = c(10)
    rules = RuleSet(players=2, hand_size=6)
    st = deal(rules, setup_of("LF"), hands={0: [ten]}, equipment={0: (c(13), c(6)), 1: (c(8), c(6))},
              rounds=[c(9), c(6), c(8)])
    st.apply(Action(A.DISCARD, 1, (ten,)))
    assert st.seats[1].equipment is None and st.seats[1].lost_round == 1
    seen = {}
    while st.round_no <= 3 and not st.is_over:
        if st.to_move == 1 and st.pending is None:
            seen[st.round_no] = Action(A.REARM) in st.legal_actions(1)
        st.apply(next(x for x in st.legal_actions() if x.kind != A.REARM))
    assert seen == {1: False, 2: False, 3: True}


@pytest.mark.parametrize("players, hand_size", [(6, 7), (6, 10), (5, 9)])
def test_a_hand_size_that_leaves_no_round_pile_names_hand_size(players, hand_size):
    """It used to blame 'rounds' with 'at most -19 rounds fit'."""
    from jupai_net.rules import RuleError

    with pytest.raises(RuleError) as info:
        RuleSet(players=players, hand_size=hand_size)
    assert info.value.setting == "hand_size" and "at most -" not in str(info.value)
