"""Every move shows the total it comes to for the player making it (specs/client.md §
Your moves): computed from the observation with jupai_net.formulas, and equal to the
total the engine then writes in the contest (or the plain discard's ``i``)."""

from __future__ import annotations

import random
import re

import pytest
from jupai_net.client.render import describe_action, own_total

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet

from .engine_helpers import card, deal, setup_of

TOTAL = re.compile(r"= (\d+)(?=\)|）|;|；)")
PLAIN = re.compile(r"i (\d+) (?:[<>=]|vs|对) m (\d+|\?)")
SHOWN_KINDS = (A.ATTACK, A.DEFENSE, A.ANSWER)


def shown_totals(text: str) -> tuple[set[int], tuple[int, str] | None]:
    """The totals a move's description shows, and its plain-discard ``(i, m)`` if any."""
    plain = PLAIN.search(text)
    return {int(x) for x in TOTAL.findall(text)}, (int(plain.group(1)), plain.group(2)) if plain else None


def test_the_users_example_answer_with_weapon():
    """'answer with 3♠ + weapon' says it comes to 6×3 + 1×8 = 26, and the contest agrees."""
    rules = RuleSet(players=2, round_value="rank")
    st = deal(rules, setup_of("LF"), hands={0: [card(10)], 1: [card(3)]},
              equipment={0: (card(2), card(4)), 1: (card(1), card(8))}, rounds=[card(6, 1)])
    st.apply(Action(A.ATTACK, 1, (card(10),), False))
    obs = st.observation(1)
    answer = Action(A.ANSWER, None, (card(3),), True)
    assert describe_action(answer, obs) == "answer with 3♠ + weapon (= 6×3 + 1×8 = 26)"
    assert describe_action(answer, obs, lang="zh") == "用 3♠ + 武器 应战（= 6×3 + 1×8 = 26）"
    contest = st.apply(answer)[-1].to_wire(1)
    assert contest["kind"] == "contest" and contest["sides"][1]["total"] == 26


def test_plain_discard_shows_i_against_the_visible_mass():
    rules = RuleSet(players=2)
    st = deal(rules, setup_of("LF"), hands={0: [card(10), card(7)], 1: [card(2)]},
              equipment={0: (card(5), card(6)), 1: (card(8), card(3))}, rounds=[card(9), card(9, 1)])
    obs = st.observation(0)
    assert describe_action(Action(A.DISCARD, 1, (card(10),)), obs) == (
        "discard seat 1's equipment with 10♠ (i 10 vs m ?)")
    # once seat 1's mass is public (here: shown for another discard), the outcome is known
    players = [dict(p) for p in obs["players"]]
    players[1] = {**players[1], "equipment": {**players[1]["equipment"], "mass": card(8)}}
    seen = {**obs, "players": players}
    assert describe_action(Action(A.DISCARD, 1, (card(10),)), seen) == (
        "discard seat 1's equipment with 10♠ (i 10 > m 8: discards it)")
    assert describe_action(Action(A.DISCARD, 1, (card(7),)), seen) == (
        "discard seat 1's equipment with 7♠ (i 7 < m 8: fails)")
    assert describe_action(Action(A.DISCARD, 1, (card(7),)), seen, lang="zh") == (
        "用 7♠ 丢弃 1号位的装备（i 7 < m 8：失败）")


RULES = [
    RuleSet(players=2),
    RuleSet(players=3, round_value="rank"),
    RuleSet(players=4, same_identity="matching-card"),
    RuleSet(players=4, hidden_identities=True),
    RuleSet(players=5, round_value="rank", swap_prime_composite=True),
    RuleSet(players=6, same_identity="matching-card", hidden_identities=True),
    RuleSet(players=6, random_specials=True),
]
IDS = {2: "LF", 3: "LFF", 4: "LCFN", 5: "LCFFN", 6: "LCCFFN"}


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.same_identity}-hidden{r.hidden_identities}")
def test_every_shown_total_is_the_engines_total(rules):
    """Whole random games: at every decision every attack, defense, discard and answer
    shows a total; the chosen move's total is the one the engine writes in the contest
    it starts or answers (one total unless the target's role is hidden from the seat)."""
    checked = {"actor": 0, "answer": 0, "plain": 0}
    for seed in range(40):  # at least 6 games, more until a plain discard was seen
        if seed >= 6 and checked["plain"] > 0:
            break
        rng = random.Random(seed * 31 + rules.players)
        deck = list(range(53))
        rng.shuffle(deck)
        ids = list(IDS[rules.players])
        rng.shuffle(ids)
        st = GameState.new(rules, deck, setup_of("".join(ids), supply=rng.choice([4, 12]), discard=9))
        expected_actor: tuple[int, set[int]] | None = None
        while not st.is_over:
            seat = st.to_move
            obs = st.observation(seat)
            legal = st.legal_actions()
            for a in legal:
                text = describe_action(a, obs)
                totals, plain = shown_totals(text)
                if a.kind in SHOWN_KINDS or (a.kind == A.DISCARD and a.target is not None):
                    assert totals or plain, text
                    assert own_total(a, obs) is not None
                else:
                    assert not totals and not plain and own_total(a, obs) is None, text
            action = legal[rng.randrange(len(legal))]
            text = describe_action(action, obs)
            totals, plain = shown_totals(text)
            hidden = own_total(action, obs).alt is not None if own_total(action, obs) else False
            if not hidden and action.kind != A.DISCARD:
                assert len(totals) <= 1, text
            events = [e.to_wire(seat) for e in st.apply(action)]
            for e in events:
                if e["kind"] == "contest":
                    if action.kind == A.ANSWER:
                        assert e["sides"][1]["total"] in totals, (text, e)
                        checked["answer"] += 1
                        assert expected_actor is not None and expected_actor[0] == e["actor"]
                        assert e["sides"][0]["total"] in expected_actor[1], (expected_actor, e)
                        checked["actor"] += 1
                        expected_actor = None
                elif e["kind"] == "discard" and e.get("target") is not None:
                    i, m = (int(x) for x in re.match(r"i (\d+) [<>=] m (\d+)", e["formula"]).groups())
                    assert plain is not None and plain[0] == i, (text, e)
                    assert plain[1] in ("?", str(m)), (text, e)
                    checked["plain"] += 1
                elif e["kind"] == "play":
                    expected_actor = (seat, totals)
    assert checked["actor"] > 20 and checked["answer"] > 20 and checked["plain"] > 0, checked
