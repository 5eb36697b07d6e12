"""One test per cell of design/rules.md §6 and per weapon tier of §7, each a worked
example whose numbers are written in specs/rules.md (§ Worked examples)."""

from __future__ import annotations

import random

import pytest

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.engine import GameState, IllegalAction, rank_seats
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup

from .engine_helpers import Cards, deal, setup_of


def contest(state):
    return [e for e in state.events if e.kind == "contest"][-1].data


# ---------------------------------------------------------------- §6 attack
def test_attack_different_identity_smaller_total_collects():
    """Example 1: R=6; seat 0 plays 10 with mass 8 / weapon 6 → 6×10 + 8×6 = 108;
    seat 1 answers 7 → 6×7 = 42; seat 1 (smaller) collects both cards."""
    c = Cards()
    ten, seven = c(10), c(7)
    rules = RuleSet(round_value="rank")
    st = deal(rules, setup_of("LCFN"), hands={0: [ten], 1: [seven]},
              equipment={0: (c(8), c(6)), 1: (c(2), c(3))}, rounds=[c(6)])
    assert st.round_kind == "attack" and st.round_value == 6 and st.to_move == 0
    st.apply(Action(A.ATTACK, 1, (ten,), True))
    assert st.to_move == 1 and st.pending is not None
    st.apply(Action(A.ANSWER, cards=(seven,), weapon=False))
    d = contest(st)
    assert [s["formula"] for s in d["sides"]] == ["6×10 + 8×6 = 108", "6×7 = 42"]
    assert d["collector"] == 1 and d["result"] == "collect"
    assert {ten, seven} <= set(st.seats[1].hand) and st.seats[1].recovered == {ten, seven}
    assert ten not in st.seats[0].hand
    eq = st.seats[0].equipment
    assert eq.uses_left == 1 and eq.shown  # fine weapon (m=8): one use left, now public
    assert st.to_move == 1  # next actor


def test_attack_same_identity_formula():
    """Example 2 (farmers, I=5): R=6; 10 + weapon 8×6 → 5×10 + 6 + 8×6 = 104;
    answer 12 + weapon 3×9 → 5×12 + 6 + 3×9 = 93; the answerer collects; its simple
    weapon is spent and discarded."""
    c = Cards()
    ten, twelve, m3, w9 = c(10), c(12), c(3), c(9)
    rules = RuleSet(players=3, identities="FFN", round_value="rank")
    st = deal(rules, setup_of("FFN"), hands={0: [ten], 1: [twelve]},
              equipment={0: (c(8), c(6)), 1: (m3, w9)}, rounds=[c(6)])
    st.apply(Action(A.ATTACK, 1, (ten,), True))
    st.apply(Action(A.ANSWER, cards=(twelve,), weapon=True))
    d = contest(st)
    assert [s["formula"] for s in d["sides"]] == ["5×10 + 6 + 8×6 = 104", "5×12 + 6 + 3×9 = 93"]
    assert d["sides"][0]["same"] and d["sides"][1]["same"]
    assert d["collector"] == 1
    assert st.seats[1].equipment is None and {m3, w9} <= set(st.discard_pile)


def test_attack_tie_discards_both():
    """Example 3: R=6, 5 vs 5 → 30 = 30: both cards go to the discard pile."""
    c = Cards()
    a, b = c(5), c(5)
    st = deal(RuleSet(round_value="rank"), setup_of("LCFN"), hands={0: [a], 1: [b]}, rounds=[c(6)])
    st.apply(Action(A.ATTACK, 1, (a,), False))
    st.apply(Action(A.ANSWER, cards=(b,), weapon=False))
    d = contest(st)
    assert d["result"] == "tie" and d["collector"] is None
    assert {a, b} <= set(st.discard_pile)
    assert a not in st.seats[0].hand and b not in st.seats[1].hand


# ---------------------------------------------------------------- §6 defense
@pytest.mark.parametrize(
    "answer_rank, formula, result, collector",
    [
        (5, "10 + 5 = 15", "attack-valid", 1),  # 15 < 16: the defender collects
        (6, "10 + 6 = 16", "attack-valid", 1),  # tie: the attack is valid
        (8, "10 + 8 = 18", "attack-invalid", 0),  # 18 > 16: the attacker collects
    ],
)
def test_defense_different_identity(answer_rank, formula, result, collector):
    """Example 4: R=7 (prime → defense); attacker plays 9 → 7 + 9 = 16; defender has
    weapon 10 and must use it: 10 + i."""
    c = Cards()
    nine, ans = c(9), c(answer_rank)
    rules = RuleSet(round_value="rank")
    st = deal(rules, setup_of("LCFN"), hands={0: [nine], 1: [ans]},
              equipment={1: (c(2), c(10))}, rounds=[c(7)])
    assert st.round_kind == "defense"
    assert all(not a.weapon for a in st.legal_actions())  # the attacker never uses a weapon
    st.apply(Action(A.DEFENSE, 1, (nine,)))
    assert all(a.weapon for a in st.legal_actions())  # the defender must use its weapon
    st.apply(Action(A.ANSWER, cards=(ans,), weapon=True))
    d = contest(st)
    assert [s["formula"] for s in d["sides"]] == ["7 + 9 = 16", formula]
    assert d["result"] == result and d["collector"] == collector
    assert {nine, ans} <= set(st.seats[collector].hand)


@pytest.mark.parametrize("answer_rank, total, result", [(6, 29, "attack-valid"), (7, 31, "attack-invalid")])
def test_defense_same_identity(answer_rank, total, result):
    """Example 5 (farmers, I=5): R=7; attack (5 + 9) + (7 + 9) = 30; defense with
    weapon 10: (7 + i) + (10 + i)."""
    c = Cards()
    nine, ans = c(9), c(answer_rank)
    rules = RuleSet(players=3, identities="FFN", round_value="rank")
    st = deal(rules, setup_of("FFN"), hands={0: [nine], 1: [ans]},
              equipment={1: (c(2), c(10))}, rounds=[c(7)])
    st.apply(Action(A.DEFENSE, 1, (nine,)))
    st.apply(Action(A.ANSWER, cards=(ans,), weapon=True))
    d = contest(st)
    i = answer_rank
    assert d["sides"][0]["formula"] == "(5 + 9) + (7 + 9) = 30"
    assert d["sides"][1]["formula"] == f"(7 + {i}) + (10 + {i}) = {total}"
    assert d["result"] == result


def test_defense_unarmed_defender_has_no_weapon_term():
    c = Cards()
    nine, five = c(9), c(5)
    st = deal(RuleSet(round_value="rank"), setup_of("LCFN"), hands={0: [nine], 1: [five]}, rounds=[c(7)])
    st.seats[1].equipment = None
    st._legal_cache = None
    st.apply(Action(A.DEFENSE, 1, (nine,)))
    assert st.legal_actions() == [Action(A.ANSWER, cards=(a,), weapon=False) for a in st.seats[1].hand]
    st.apply(Action(A.ANSWER, cards=(five,)))
    assert contest(st)["sides"][1]["formula"] == "0 + 5 = 5"


# ---------------------------------------------------------------- §6 supply
def _supply_a_table():
    """Round 1 (attack, R=6) leaves seat 0 with recovered A, 2, 10, K and a 3; round 2
    is a supply round led by seat 1 (2 players)."""
    c = Cards()
    two, king, ten, ace, three = c(2), c(13), c(10), c(1), c(3)
    rules = RuleSet(players=2, round_value="rank")
    st = deal(rules, setup_of("LF"), hands={0: [two, three, ace], 1: [king, ten]}, rounds=[c(6), c(4)])
    st.apply(Action(A.ATTACK, 1, (two,)))
    st.apply(Action(A.ANSWER, cards=(king,)))  # 12 < 78: seat 0 collects 2, K
    st.apply(Action(A.ATTACK, 0, (ten,)))
    st.apply(Action(A.ANSWER, cards=(ace,)))  # 6 < 60: seat 0 collects 10, A
    assert st.seats[0].recovered == {two, king, ten, ace}
    assert st.round_kind == "supply" and st.to_move == 1
    st.apply(Action(A.PASS))
    return st, (two, king, ten, ace, three)


def test_supply_a_discards_intent_and_any_recovered():
    """Example 6 (2 players): with recovered A, 2, 10, K, seat 0 discards a 3 (v = 3),
    then chooses K, 10 and A one at a time (it keeps the 2); after the third its
    allowance is used up and the turn ends."""
    st, (two, king, ten, ace, three) = _supply_a_table()
    legal = st.legal_actions()
    assert Action(A.SUPPLY_RECOVERED, cards=(three,)) in legal
    assert not any(a.recovered for a in legal)  # the recovered cards follow one at a time
    before = len(st.seats[0].hand)
    st.apply(Action(A.SUPPLY_RECOVERED, cards=(three,)))
    assert st.to_move == 0 and st.supplying is not None and st.supplying.left == 3
    assert st.observation(1)["supply"] == {"seat": 0, "cards": [three], "v": 3, "recovered": [], "left": 3}
    assert set(st.legal_actions()) == {Action(A.SUPPLY_RECOVERED, recovered=(r,)) for r in (two, king, ten, ace)} | {
        Action(A.PASS)}
    for r in (king, ten):
        st.apply(Action(A.SUPPLY_RECOVERED, recovered=(r,)))
        assert st.to_move == 0
    assert st.observation(0)["supply"]["left"] == 1
    st.apply(Action(A.SUPPLY_RECOVERED, recovered=(ace,)))
    assert st.supplying is None and st.observation(0)["supply"] is None and st.round_no == 3  # v used up
    assert len(st.seats[0].hand) == before - 4
    assert st.seats[0].recovered == {two}
    assert {three, king, ten, ace} <= set(st.discard_pile)
    steps = [e.data for e in st.events if e.kind == "supply"]
    assert [(d["cards"], d["recovered"]) for d in steps] == [([three], []), ([], [king]), ([], [ten]), ([], [ace])]


def test_supply_a_stops_on_pass_or_when_no_recovered_card_is_left():
    st, (two, king, ten, ace, three) = _supply_a_table()
    st.apply(Action(A.SUPPLY_RECOVERED, cards=(king,)))  # v = 13, the intent card is itself recovered
    assert st.supplying.left == 13
    with pytest.raises(IllegalAction, match="finish supply"):
        st.apply(Action(A.SUPPLY_EQUIPMENT))
    with pytest.raises(IllegalAction, match="only recovered"):
        st.apply(Action(A.SUPPLY_RECOVERED, recovered=(three,)))
    st.apply(Action(A.SUPPLY_RECOVERED, recovered=(ten,)))
    st.apply(Action(A.PASS))
    assert st.round_no == 3 and st.supplying is None
    assert st.seats[0].recovered == {two, ace}
    assert st.events[-2].kind == "pass" and st.events[-2].data["option"] == "a"
    st2, (two, king, ten, ace, three) = _supply_a_table()
    st2.apply(Action(A.SUPPLY_RECOVERED, cards=(king,)))
    for r in (two, ten, ace):
        st2.apply(Action(A.SUPPLY_RECOVERED, recovered=(r,)))
    assert st2.supplying is None and st2.round_no == 3 and not st2.seats[0].recovered and three in st2.seats[0].hand


def test_supply_a_in_one_action_is_not_legal():
    st, (two, king, ten, ace, three) = _supply_a_table()
    with pytest.raises(IllegalAction, match="one at a time"):
        st.apply(Action(A.SUPPLY_RECOVERED, cards=(three,), recovered=(ace,)))


def test_supply_b_face_down_for_different_identities():
    c = Cards()
    old = (c(8), c(6))
    stock = [c(11), c(12)]
    st = deal(RuleSet(round_value="rank"), setup_of("LCFN"), equipment={0: old}, rounds=[c(4)], stock=stock)
    st.apply(Action(A.SUPPLY_EQUIPMENT))
    eq = st.seats[0].equipment
    assert (eq.mass, eq.weapon) == tuple(stock) and not eq.shown
    assert set(old) <= set(st.discard_pile)
    other = st.observation(1)["players"][0]["equipment"]
    assert other["mass"] is None and other["weapon"] is None
    assert st.observation(0)["players"][0]["equipment"]["mass"] == stock[0]


def test_supply_b_face_up_for_same_identity():
    c = Cards()
    stock = [c(11), c(12)]
    st = deal(RuleSet(players=3, identities="FFN"), setup_of("FFN"), rounds=[c(4)], stock=stock)
    st.apply(Action(A.SUPPLY_EQUIPMENT))
    assert st.seats[0].equipment.shown
    assert st.observation(2)["players"][0]["equipment"]["mass"] == stock[0]


def test_face_up_draw_lies_face_up_until_its_first_use():
    """§7: a pair drawn face-up (same identity, supply (b)) lies face-up; its first use
    puts it face-down, still known to everyone; a dealt pair lies face-down, unknown."""
    c = Cards()
    stock = [c(6), c(12)]  # fine weapon: 2 uses
    seven, two = c(7), c(2)
    rules = RuleSet(players=3, identities="FFN", round_value="rank")
    st = deal(rules, setup_of("FFN"), hands={0: [seven], 1: [two]}, rounds=[c(4), c(8)], stock=stock)
    dealt = st.observation(2)["players"][1]["equipment"]
    assert dealt["face_up"] is False and dealt["shown"] is False and dealt["mass"] is None
    st.apply(Action(A.SUPPLY_EQUIPMENT))
    drawn = st.observation(2)["players"][0]["equipment"]
    assert drawn["face_up"] is True and drawn["shown"] is True and drawn["mass"] == stock[0]
    st.apply(Action(A.PASS))
    st.apply(Action(A.PASS))
    assert st.round_kind == "attack" and st.to_move == 1
    st.apply(Action(A.ATTACK, 0, (two,)))
    st.apply(Action(A.ANSWER, cards=(seven,), weapon=True))
    after = st.observation(2)["players"][0]["equipment"]
    assert after["face_up"] is False and after["shown"] is True and after["uses_left"] == 1


def test_supply_c_pass_changes_nothing():
    c = Cards()
    st = deal(RuleSet(), setup_of("LCFN"), rounds=[c(4)])
    hand = list(st.seats[0].hand)
    st.apply(Action(A.PASS))
    assert st.seats[0].hand == hand and st.to_move == 1


# ---------------------------------------------------------------- §6 discard
@pytest.mark.parametrize("intent, success", [(10, True), (8, False)])
def test_discard_different_identity(intent, success):
    """Example 7: target mass 8; intent 10 > 8 discards its equipment, 8 = 8 fails.
    The intent card is discarded either way."""
    c = Cards()
    card_ = c(intent)
    m, w = c(8), c(6)
    st = deal(RuleSet(players=2), setup_of("LF"), hands={0: [card_]}, equipment={1: (m, w)}, rounds=[c(9)])
    assert st.round_kind == "discard"
    st.apply(Action(A.DISCARD, 1, (card_,)))
    ev = [e for e in st.events if e.kind == "discard"][-1].data
    assert ev["success"] is success
    assert ev["formula"] == (f"i {intent} > m 8" if success else "i 8 = m 8")
    assert card_ in st.discard_pile
    assert (st.seats[1].equipment is None) is success
    assert m in st.known_cards(None)  # the mass was shown for the comparison


@pytest.mark.parametrize("intent, response, success", [(3, 7, True), (1, 7, False)])
def test_discard_same_identity(intent, response, success):
    """Example 8 (farmers, I=5, ordinal R=1): attack first: 5×i + 1 vs the response
    card: 5×3 + 1 = 16 > 7 → the target collects the 3 and discards its equipment;
    5×1 + 1 = 6 < 7 → the actor's card is discarded. The target keeps its card."""
    c = Cards()
    card_, resp = c(intent), c(response)
    m, w = c(8), c(6)
    st = deal(RuleSet(players=3, identities="FFN"), setup_of("FFN"), hands={0: [card_], 1: [resp]},
              equipment={1: (m, w)}, rounds=[c(9)])
    st.apply(Action(A.DISCARD, 1, (card_,)))
    assert st.to_move == 1
    st.apply(Action(A.ANSWER, cards=(resp,)))
    d = contest(st)
    assert d["sides"][0]["formula"] == f"5×{intent} + 1 = {5 * intent + 1}"
    assert d["result"] == ("success" if success else "fail")
    assert resp in st.seats[1].hand
    if success:
        assert card_ in st.seats[1].hand and st.seats[1].equipment is None and {m, w} <= set(st.discard_pile)
    else:
        assert card_ in st.discard_pile and st.seats[1].equipment is not None


def test_discard_without_legal_target():
    """Both players lose their equipment in round 1; in round 2 (discard again) seat 1
    has no target: it may discard one intent card or pass."""
    c = Cards()
    a, b = c(13), c(13)
    st = deal(RuleSet(players=2), setup_of("LF"), hands={0: [a], 1: [b]},
              equipment={0: (c(2), c(3)), 1: (c(2), c(3))}, rounds=[c(9), c(9)])
    st.apply(Action(A.DISCARD, 1, (a,)))
    st.apply(Action(A.DISCARD, 0, (b,)))
    assert st.round_no == 2 and st.to_move == 1
    legal = st.legal_actions()
    assert Action(A.PASS) in legal
    assert {x.kind for x in legal} == {A.DISCARD, A.PASS}
    assert all(x.target is None for x in legal if x.kind == A.DISCARD)
    card_ = st.seats[1].hand[0]
    st.apply(Action(A.DISCARD, None, (card_,)))
    assert card_ in st.discard_pile


# ---------------------------------------------------------------- §7 weapons
def _weapon_game(mass_rank: int):
    c = Cards()
    m, w = c(mass_rank), c(5)
    hand0 = [c(13), c(13), c(13), c(12)]
    hand1 = [c(1), c(1), c(1), c(2)]
    rules = RuleSet(players=2, hand_size=8, round_value="rank")
    st = deal(rules, setup_of("LF"), hands={0: hand0, 1: hand1}, equipment={0: (m, w)},
              rounds=[c(6), c(8), c(10), c(12), c(6)])
    return st, (m, w), hand0, hand1


def _attack_round(st, card0, card1):
    """Seat 0 attacks with its weapon; seat 1 answers; then seat 1 attacks back and
    seat 0 answers without weapon (whoever leads)."""
    for _ in range(2):
        if st.to_move == 0:
            st.apply(Action(A.ATTACK, 1, (card0,), True))
            st.apply(Action(A.ANSWER, cards=(card1,)))
        else:
            mine = st.seats[1].hand[-1]
            st.apply(Action(A.ATTACK, 0, (mine,)))
            st.apply(Action(A.ANSWER, cards=(st.seats[0].hand[0],)))


@pytest.mark.parametrize(
    "mass_rank, quality, uses, faces",
    [(3, "simple", 1, ["up"]), (6, "fine", 2, ["up", "up"]), (10, "advanced", 3, ["up", "down", "up"])],
)
def test_weapon_tiers(mass_rank, quality, uses, faces):
    """Example 9: a weapon of mass m has 1 (m ≤ 4), 2 (5–8) or 3 (≥ 9) uses; the
    advanced weapon's 2nd use is face-down; the last use discards mass and weapon."""
    st, (m, w), hand0, hand1 = _weapon_game(mass_rank)
    assert st.seats[0].equipment.quality == quality and st.seats[0].equipment.uses_left == uses
    seen = []
    for k in range(uses):
        _attack_round(st, hand0[k], hand1[k])
        use = [s["weapon"] for e in st.events if e.kind == "contest" for s in e.data["sides"]
               if s["seat"] == 0 and s["weapon"]][-1]
        seen.append(use["face"])
        assert use["use"] == k + 1
        if k < uses - 1:
            assert st.seats[0].equipment.uses_left == uses - k - 1
            # after a use the pair lies face-down again, its cards known to all (§7)
            for viewer in (None, 0, 1):
                view = st.observation(viewer)["players"][0]["equipment"]
                assert view["face_up"] is False and view["shown"] is True
                assert (view["mass"], view["weapon"]) == (m, w)
    assert seen == faces
    assert st.seats[0].equipment is None and {m, w} <= set(st.discard_pile)


def test_rearm_waits_one_full_round():
    """A simple weapon spent in round 1: no draw in round 2, a draw allowed in round 3."""
    st, _, hand0, hand1 = _weapon_game(3)
    _attack_round(st, hand0[0], hand1[0])
    assert st.round_no == 2 and st.seats[0].equipment is None
    while st.to_move != 0:
        st.apply(Action(A.ATTACK, 0, (st.seats[1].hand[-1],)))
        st.apply(Action(A.ANSWER, cards=(st.seats[0].hand[0],)))
    assert Action(A.REARM) not in st.legal_actions()
    with pytest.raises(IllegalAction, match="full round"):
        st.apply(Action(A.REARM))
    _attack_round_without_weapon(st)
    assert st.round_no == 3
    while st.to_move != 0:
        st.apply(Action(A.ATTACK, 0, (st.seats[1].hand[-1],)))
        st.apply(Action(A.ANSWER, cards=(st.seats[0].hand[0],)))
    assert Action(A.REARM) in st.legal_actions()
    top = st.stock[:2]
    st.apply(Action(A.REARM))
    assert (st.seats[0].equipment.mass, st.seats[0].equipment.weapon) == tuple(top)
    assert st.to_move == 0 and Action(A.REARM) not in st.legal_actions()  # then it acts


def _attack_round_without_weapon(st):
    start = st.round_no
    while st.round_no == start:
        me = st.to_move
        st.apply(Action(A.ATTACK, 1 - me, (st.seats[me].hand[-1],)))
        st.apply(Action(A.ANSWER, cards=(st.seats[1 - me].hand[0],)))


# ---------------------------------------------------------------- §8 end
def test_last_round_plays_all_cards_and_weapon():
    c = Cards()
    rules = RuleSet(players=2, rounds=1, round_value="rank")
    st = deal(rules, setup_of("LF"), rounds=[c(6)])
    assert st.last_round
    legal = st.legal_actions()
    assert legal == [Action(A.ATTACK, 1, tuple(st.seats[0].hand), True)]
    st.apply(legal[0])
    assert st.legal_actions() == [Action(A.ANSWER, cards=tuple(st.seats[1].hand), weapon=True)]
    with pytest.raises(IllegalAction, match="all hand cards"):
        st.apply(Action(A.ANSWER, cards=(st.seats[1].hand[0],), weapon=True))


def test_immediate_win_on_zero_cards_mid_round():
    """Seat 0 (1 card, simple weapon) attacks with K + weapon: 6×13 + 2×5 = 88 vs 6×1:
    seat 1 collects, seat 0 has no card left and wins at once."""
    c = Cards()
    king, ace = c(13), c(1)
    rules = RuleSet(players=2, hand_size=1, round_value="rank")
    st = deal(rules, setup_of("LF"), hands={0: [king], 1: [ace]}, equipment={0: (c(2), c(5))}, rounds=[c(6)])
    st.apply(Action(A.ATTACK, 1, (king,), True))
    st.apply(Action(A.ANSWER, cards=(ace,)))
    assert st.is_over and st.winner == 0 and st.ranking == [0, 1] and st.to_move is None
    assert st.events[-1].data["reason"] == "emptied"
    with pytest.raises(IllegalAction, match="over"):
        st.apply(Action(A.PASS))


def test_ranking_tie_breaks():
    """Fewer cards first, then fewer recovered cards, then lower seat."""
    assert rank_seats([5, 3, 3, 3], [0, 2, 1, 1], None) == [2, 3, 1, 0]
    assert rank_seats([0, 3, 1], [0, 0, 0], 0) == [0, 2, 1]


def test_last_round_supply_discards_the_whole_hand():
    """specs/rules.md §9.16: a last-round supply round leaves one choice to a player with
    hand cards, supply (a) with its whole hand (no pass, no new equipment); then the
    ranking decides (everyone keeps its equipment: 2 cards each, ties by seat)."""
    c = Cards()
    st = deal(RuleSet(players=3, rounds=1), setup_of("LFF"), rounds=[c(4)])
    for seat in range(3):
        hand = tuple(st.seats[seat].hand)
        assert st.legal_actions() == [Action(A.SUPPLY_RECOVERED, cards=hand)]
        with pytest.raises(IllegalAction, match="must play all your hand cards"):
            st.apply(Action(A.PASS))
        st.apply(Action(A.SUPPLY_RECOVERED, cards=hand))
        assert st.seats[seat].hand == [] and st.supplying is None
    assert st.is_over and st.winner is None and st.ranking == [0, 1, 2]
    assert st.events[-1].data["reason"] == "last-round"


def test_last_round_discard_without_target_discards_the_whole_hand():
    """§9.16: no opponent has equipment in a last-round discard round: the actor
    discards its whole hand (no pass)."""
    c = Cards()
    st = deal(RuleSet(players=2, rounds=1), setup_of("LF"), rounds=[c(9)])
    st.seats[1].equipment = None  # seat 1's equipment is gone
    st._legal_cache = None
    hand = tuple(st.seats[0].hand)
    assert st.legal_actions() == [Action(A.DISCARD, None, hand)]
    st.apply(Action(A.DISCARD, None, hand))
    assert st.seats[0].hand == []


def test_last_round_with_an_empty_hand_may_pass_or_draw():
    c = Cards()
    st = deal(RuleSet(players=2, rounds=1), setup_of("LF"), rounds=[c(4)])
    st.seats[0].hand = []  # nothing left to play
    st._legal_cache = None
    assert st.legal_actions() == [Action(A.SUPPLY_EQUIPMENT), Action(A.PASS)]


def test_every_player_plays_all_its_hand_cards_in_the_last_round():
    """Random games over every round type: in the last round each actor's round action
    (and each answer) takes its whole hand whenever it has cards (seed rule 6)."""
    for seed in range(60):
        rng = random.Random(seed)
        rules = RuleSet(players=2 + seed % 5, rounds=1 + seed % 4)
        deck = list(range(53))
        rng.shuffle(deck)
        st = GameState.new(rules, deck, draw_setup(rules, rng))
        while not st.is_over:
            legal = st.legal_actions()
            if st.last_round:
                hand = tuple(st.seats[st.to_move].hand)
                for a in legal:
                    if a.kind == A.REARM:
                        continue
                    if hand:
                        assert a.kind != A.PASS and a.kind != A.SUPPLY_EQUIPMENT, (seed, a)
                        assert a.cards == hand, (seed, a)
            st.apply(rng.choice(legal))


# ---------------------------------------------------------------- illegal actions
def test_illegal_actions_say_why_and_change_nothing():
    c = Cards()
    ten = c(10)
    st = deal(RuleSet(round_value="rank"), setup_of("LCFN"), hands={1: [ten]}, rounds=[c(6)])
    before = st.record(), st.observation(None)
    cases = [
        (Action(A.ATTACK, 1, (ten,)), "not in your hand"),
        (Action(A.DEFENSE, 1, (st.seats[0].hand[0],)), "attack round"),
        (Action(A.ATTACK, 0, (st.seats[0].hand[0],)), "opponent"),
        (Action(A.ANSWER, cards=(st.seats[0].hand[0],)), "nothing to answer"),
        (Action(A.PASS), "cannot pass"),
        (Action(A.REARM), "still have equipment"),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalAction, match=reason):
            st.apply(action)
    with pytest.raises(IllegalAction, match="not your turn"):
        st.apply(st.legal_actions()[0], seat=2)
    assert (st.record(), st.observation(None)) == before


def test_cards_in_play_still_count_until_the_contest_resolves():
    """While seat 0's attack waits for the answer its card is on the table, not gone:
    it still counts in its cards left (so nobody looks as if it had already won)."""
    c = Cards()
    ten, seven = c(10), c(7)
    st = deal(RuleSet(round_value="rank"), setup_of("LCFN"), hands={0: [ten], 1: [seven]}, rounds=[c(6)])
    assert st.cards_left(0) == 7
    st.apply(Action(A.ATTACK, 1, (ten,)))
    assert len(st.seats[0].hand) == 4 and st.cards_left(0) == 7
    assert st.observation(2)["players"][0]["cards_left"] == 7
    st.apply(Action(A.ANSWER, cards=(seven,)))
    assert st.cards_left(0) == 6  # 6×10 = 60 > 6×7 = 42: seat 1 collects, seat 0 shed its card


def test_formulas_write_numbers_beyond_the_written_table():
    """The totals' formulas write their numbers from a table made at import
    (formulas._Decimal); numbers past it (a last-round play of many cards) and
    negative ones are written as str() writes them."""
    from jupai_net.formulas import attack_total, defense_attack_strength, defense_strength

    assert attack_total(12, 300, (14, 13), True, 14) == (4394, "14×300 + 12 + 14×13 = 4394")
    assert attack_total(3, 600, None, False) == (1800, "3×600 = 1800")
    assert attack_total(2, 511, None, False) == (1022, "2×511 = 1022")
    assert defense_attack_strength(1, 512, True, 14) == (1039, "(14 + 512) + (1 + 512) = 1039")
    assert defense_strength(-1, 5, 0, False) == (5, "0 + 5 = 5")
    assert defense_strength(-1, 5, 0, True) == (9, "(-1 + 5) + (0 + 5) = 9")
