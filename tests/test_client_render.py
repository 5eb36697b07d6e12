"""client/render.py: the text a player (or the host's spectator screen) sees, from
real engine observations (specs/client.md § What the player sees)."""

from __future__ import annotations

import random
import re

import pytest

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.client import render as R
from jupai_net.client.render import (
    describe_action,
    describe_event,
    log_lines,
    render_actions,
    render_hand,
    render_table,
    render_view,
    timer_text,
    to_text,
)
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet

from .engine_helpers import Cards, card, deal, play_random, setup_of


def flat(renderable, width=160) -> str:
    """Rendered text with runs of spaces squeezed (table layout does not matter)."""
    return re.sub(r"[ \t]+", " ", to_text(renderable, width=width))


@pytest.fixture
def attack_game():
    """Rules §6 example 1 on a 2-seat table: R = 6 (round card 6♥, R = rank), seat 0
    (landlord) has 10♠ and equipment 8♠/6♠, seat 1 (farmer) has 7♠ and 3♥/2♣."""
    rules = RuleSet(players=2, round_value="rank")
    hands = {0: [card(10), card(2), card(3), card(5), card(11)], 1: [card(7), card(12), card(13), card(1, 1), card(2, 1)]}
    return deal(rules, setup_of("LF"), hands=hands, equipment={0: (card(8), card(6)), 1: (card(3, 1), card(2, 2))},
                rounds=[card(6, 1)])


def test_attack_outcome_formula_in_both_languages(attack_game):
    st = attack_game
    st.apply(Action(A.ATTACK, 1, (card(10),), True))
    st.apply(Action(A.ANSWER, None, (card(7),), False))
    en = log_lines(st.observation(0))[-1]
    assert en == ("seat 0 (you) 10♠ + weapon: 6×10 + 8×6 = 108 (fine weapon, 1st use, face-up) "
                  "vs seat 1 7♠: 6×7 = 42 → seat 1 collects")
    spectator = log_lines(st.observation(None), names={0: "Ann", 1: "Bob"})[-1]
    assert spectator.startswith("seat 0 (Ann) 10♠ + weapon: 6×10 + 8×6 = 108")
    assert spectator.endswith("vs seat 1 (Bob) 7♠: 6×7 = 42 → seat 1 (Bob) collects")
    zh = log_lines(st.observation(1), lang="zh")[-1]
    assert zh == ("0号位 10♠ + 武器：6×10 + 8×6 = 108（精致武器，第1次使用，明置）"
                  "对 1号位（你）7♠：6×7 = 42 → 1号位（你）收牌")  # no space next to （）


def test_player_screen_shows_round_hand_equipment_and_counts(attack_game):
    st = attack_game
    st.apply(Action(A.ATTACK, 1, (card(10),), True))
    st.apply(Action(A.ANSWER, None, (card(7),), False))
    obs = st.observation(1)
    screen = flat(render_view(obs, legal=st.legal_actions(), seconds_left=23.2, names={0: "Ann"},
                              chat=[("Ann", "good luck")]))
    assert "Round 1/12 · round card 6♥ · attack round · R = 6 · seat 0 (Ann) leads" in screen
    assert "seat 1 (you) · Your identity: farmer (I=5)" in screen
    # hand sorted, the two collected cards marked recovered
    assert "A♥ 2♥ 7♠* 10♠* Q♠ K♠ * = recovered card" in screen
    assert "mass 3♥ + weapon 2♣ · simple weapon · 1 use left · face-down" in screen
    # seat 0's weapon was used once face-up: fine, 1 use left, public, lying face-down again (rules §7)
    assert re.search(r"seat 0 \(Ann\) · leads landlord \(I=14\) 4 6 — 8♠\+6♠ fine · 1 left · face-down", screen)
    assert re.search(r"▶ seat 1 \(you\) farmer \(I=5\) 6 8 7♠ \+ 10♠ 3♥\+2♣ simple · 1 left · face-down", screen)
    assert "stock 27 · round pile 11 · discard pile 0" in screen
    assert "Your turn ⏱ 24 s left" in screen
    assert "1. attack seat 0 (Ann) with A♥ (= 6×1 = 6)" in screen
    assert "12. attack seat 0 (Ann) with K♠ + weapon (= 6×13 + 3×2 = 84)" in screen
    assert "Type a number 1–12 and Enter" in screen
    assert "Ann: good luck" in screen


def test_opponent_equipment_face_down_is_not_shown(attack_game):
    obs = attack_game.observation(0)
    screen = flat(render_view(obs))
    assert re.search(r"seat 1 farmer \(I=5\) 5 7 — face-down, not shown", screen)
    assert "3♥" not in screen and "2♣" not in screen  # seat 1's hidden equipment


def test_legal_actions_numbered_in_host_order(attack_game):
    st = attack_game
    legal = st.legal_actions()
    text = flat(render_actions(legal, st.observation(0)))
    for k, a in enumerate(legal, 1):
        assert f"{k}. {describe_action(a, st.observation(0))}" in text
    assert describe_action(Action(A.ATTACK, 1, (card(10),), True), st.observation(0)) == (
        "attack seat 1 with 10♠ + weapon (= 6×10 + 8×6 = 108)")
    assert describe_action(Action(A.ATTACK, 1, (card(10),), True), st.observation(0), lang="zh") == (
        "用 10♠ + 武器 进攻 1号位（= 6×10 + 8×6 = 108）")
    assert describe_action(Action(A.ATTACK, 1, (card(10),), True), st.observation(0), totals=False) == (
        "attack seat 1 with 10♠ + weapon")


def test_pending_contest_and_answers(attack_game):
    st = attack_game
    st.apply(Action(A.ATTACK, 1, (card(10),), True))
    obs = st.observation(1)
    screen = flat(render_view(obs, legal=st.legal_actions()))
    assert "⚔ seat 0 attacks seat 1 (you) with 10♠ + weapon: 6×10 + a face-down weapon; seat 1 (you) answers" in screen
    assert "Your turn: answer the attack of seat 0" in screen
    assert describe_action(Action(A.ANSWER, None, (card(7),), True), obs) == "answer with 7♠ + weapon (= 6×7 + 3×2 = 48)"
    assert describe_action(Action(A.ANSWER, None, (), False), obs) == "answer with no card (= 6×0 = 0)"
    assert "Waiting for seat 1" in flat(render_view(st.observation(0)))


def test_defense_contest_formula():
    c = Cards()
    a_card, d_card = c(5), c(9)
    rules = RuleSet(players=2)
    st = deal(rules, setup_of("LF"), hands={0: [a_card], 1: [d_card]}, equipment={0: (c(2), c(3)), 1: (c(6), c(4))},
              rounds=[c(3)])
    assert st.round_kind == "defense" and st.round_value == 1
    st.apply(Action(A.DEFENSE, 1, (a_card,)))
    assert describe_event(st.events[-1].to_wire(0), me=0) == "seat 0 (you) plays 5♠ against seat 1 (defense round)"
    st.apply(Action(A.ANSWER, None, (d_card,), True))
    line = log_lines(st.observation(None))[-1]
    assert line == ("seat 0 attack 5♠: 1 + 5 = 6 vs seat 1 defense 9♠ + weapon: 4 + 9 = 13 "
                    "(fine weapon, 1st use, face-up) → defense wins, attack invalid: seat 0 collects")


def test_plain_discard_event_and_supply_actions():
    c = Cards()
    ten = c(10)
    rules = RuleSet(players=2)
    mass, weapon = c(8), c(6)
    st = deal(rules, setup_of("LF"), hands={0: [ten]}, equipment={1: (mass, weapon)}, rounds=[c(9), c(4)])
    assert st.round_kind == "discard"
    assert describe_action(Action(A.DISCARD, 1, (ten,)), st.observation(0)) == (
        "discard seat 1's equipment with 10♠ (i 10 vs m ?)")  # seat 1's mass is face-down
    st.apply(Action(A.DISCARD, 1, (ten,)))
    line = describe_event(st.events[-1].to_wire(None))
    assert line == "seat 0 vs seat 1's mass with 10♠: i 10 > m 8 → seat 1's equipment 8♠ + 6♠ discarded"
    obs = st.observation(0)
    assert describe_action(Action(A.SUPPLY_RECOVERED, cards=(c(7),), recovered=(c(3), c(5))), obs) == (
        "supply: discard 7♠ and recovered 3♠ + 5♠")
    assert describe_action(Action(A.SUPPLY_EQUIPMENT), obs) == "supply: discard your equipment, draw a new pair"
    assert describe_action(Action(A.PASS), obs, lang="zh") == "跳过"
    assert describe_action(Action(A.DISCARD, None, (ten,)), obs) == "discard 10♠ (no opponent has equipment)"


def test_hidden_identities_spectator_and_own():
    rules = RuleSet(players=4, hidden_identities=True)
    st = GameState.new(rules, list(range(53)), setup_of("LCFN"))
    spectator = flat(render_table(st.observation(None)))
    # the landlord leads round 1, so only its role is shown (specs/rules.md §9.13)
    assert spectator.count("hidden") == 3
    assert "landlord (I=14)" in spectator and "narrator (I=" not in spectator and "farmer (I=" not in spectator
    mine = flat(render_view(st.observation(2)))
    assert "Your identity: farmer (I=5)" in mine and mine.count("hidden") == 2


def test_spectator_view_shows_no_hand_card():
    rng = random.Random(7)
    deck = list(range(53))
    rng.shuffle(deck)
    st = GameState.new(RuleSet(players=4), deck, setup_of("LCFN"))
    text = to_text(render_table(st.observation(None), names=["Ann", "Bob", "Cy", "Di"]), width=160)
    assert "spectator view" in text and "Your hand" not in text
    visible = {R.card_text(st.round_card)}
    for s in range(4):
        for c in st.observation(s)["hand"]:
            if R.card_text(c) not in visible:
                assert R.card_text(c) not in text, f"hand card {R.card_text(c)} of seat {s} leaked"
    assert "seat 3 (Di)" in text and text.count("face-down, not shown") == 4


def test_game_over_ranking():
    rng = random.Random(11)
    st = GameState.new(RuleSet(players=3), list(range(53)), setup_of("LFF"))
    play_random(st, rng)
    obs = st.observation(0)
    screen = flat(render_view(obs))
    assert "Final ranking" in screen and "Game over" in screen
    order = [int(m) for m in re.findall(r"\d\. seat (\d)", screen)]
    assert order == obs["result"]["ranking"]


def test_timer_text():
    assert timer_text(None) is None
    assert timer_text(23.2).plain == "⏱ 24 s left"
    assert timer_text(5, "zh").plain == "⏱ 剩余 5 秒"
    assert timer_text(5).style == "bold red" and timer_text(30).style == "bold"
    assert timer_text(0).plain == "⏱ time is up"


def test_chat_and_notice_forms():
    assert R.chat_line_text({"seat": 1, "name": "Bob", "text": "hi"}) == "Bob: hi"
    assert R.chat_line_text(("Bob", "hi"), "zh") == "Bob：hi"
    assert R.chat_line_text({"name": None, "text": "welcome"}) == "host: welcome"
    assert R.notice_text(("turn-timeout", "seat 2")) == "A turn timed out; the default move was played. seat 2"
    assert R.notice_text({"code": "something-new", "text": "hello"}) == "hello"


def test_hand_marks_only_recovered():
    obs = {"seat": 0, "hand": [0, 4, 52], "players": [{"seat": 0, "recovered": [4]}]}
    assert render_hand(obs).plain == "A♠  2♠*  JK    * = recovered card"
    assert render_hand({"seat": 0, "hand": [52], "players": []}, "zh").plain == "小王"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_event_and_action_of_random_games_is_described(lang):
    """Whole random games in every table size: every log event and every legal action
    has words (no missing key, no raw placeholder), and every screen renders."""
    for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (4, 6)):
        rng = random.Random(seed)
        deck = list(range(53))
        rng.shuffle(deck)
        rules = RuleSet(players=players, hidden_identities=seed == 6, same_identity="matching-card" if seed == 3 else "shared-role")
        ids = {2: "LF", 3: "LFF", 4: "LCFN", 5: "LCFFN", 6: "LCCFFN"}[players]
        st = GameState.new(rules, deck, setup_of(ids))
        kinds = set()
        while not st.is_over:
            seat = st.to_move
            obs = st.observation(seat)
            legal = st.legal_actions()
            for a in legal:
                text = describe_action(a, obs, lang=lang)
                assert text and "{" not in text
            st.apply(legal[rng.randrange(len(legal))])
        for seat in [None, *range(players)]:
            for e in st.events:
                wire = e.to_wire(seat)
                text = describe_event(wire, me=seat, lang=lang)
                assert text and "{" not in text, wire
                kinds.add(wire["kind"])
            to_text(render_view(st.observation(seat), lang=lang))
        assert {"deal", "round", "end"} <= kinds


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_supply_a_steps_read_as_one_supply(lang):
    """Supply (a) in steps (specs/rules.md §9.3): the moves after the intent card offer
    each recovered card and a way to stop; the log shows the whole supply as one line."""
    c = Cards()
    two, king, ten, ace, three = c(2), c(13), c(10), c(1), c(3)
    st = deal(RuleSet(players=2, round_value="rank"), setup_of("LF"),
              hands={0: [two, three, ace], 1: [king, ten]}, rounds=[c(6), c(4)])
    st.apply(Action(A.ATTACK, 1, (two,)))
    st.apply(Action(A.ANSWER, cards=(king,)))
    st.apply(Action(A.ATTACK, 0, (ten,)))
    st.apply(Action(A.ANSWER, cards=(ace,)))
    st.apply(Action(A.PASS))
    history = [e.to_wire(0) for e in st.events]
    st.apply(Action(A.SUPPLY_RECOVERED, cards=(three,)))
    obs = st.observation(0)
    legal = st.legal_actions()
    words = [describe_action(a, obs, lang=lang) for a in legal]
    if lang == "en":
        assert "supply: discard recovered K♠ too" in words
        assert words[-1] == "keep your other recovered cards (end the supply)"
        assert R.pending_text(obs) == "seat 0 (you) supplies: discarded 3♠ (v = 3) and may discard up to 3 more recovered cards"
        menu = to_text(render_actions(legal, obs, layout="matrix", compact=True), width=80).split("\n")
        # one grid row: the recovered cards on top, the move numbers under them
        assert menu[0].split() == ["A♠", "2♠", "10♠", "K♠"]
        assert menu[1].split()[-4:] == ["1", "2", "3", "4"]
        assert menu[1].startswith("supply: discard one more recovered card (up to 3 more) ")
        assert menu[2] == " 5. keep your other recovered cards (end the supply)"
        tight = to_text(render_actions(legal, obs, layout="tight", compact=True), width=80)
        assert "supply: discard one more recovered card (up to 3 more):" in tight
    else:
        assert "补给：再丢弃回收的牌 K♠" in words and words[-1] == "保留其余回收的牌（结束补给）"
    events = list(st.events[len(history):])
    events += st.apply(Action(A.SUPPLY_RECOVERED, recovered=(king,)))
    events += st.apply(Action(A.PASS))
    wire = [e.to_wire(0) for e in events]
    lines = [line for line in (describe_event(e, None, 0, lang) for e in R.merged_events(wire)) if line]
    want = {"en": "seat 0 (you) supplies: discards 3♠ and recovered K♠",
            "zh": "0号位（你）补给：丢弃 3♠ 和回收的牌 K♠"}[lang]
    assert lines[0] == want, lines
    alone = [describe_event(e, None, 0, "en") for e in wire]
    if lang == "en":
        assert "seat 0 (you) supplies: discards recovered K♠ too" in alone
        assert "seat 0 (you) keeps its other recovered cards" in alone


@pytest.mark.parametrize("lang, short_word, long_word", [("en", "seen", "face-down, shown to all"),
                                                        ("zh", "已亮", "暗置，已向所有人亮出")])
def test_an_equipment_whose_cards_were_shown_to_all_says_shown_not_down(lang, short_word, long_word):
    """A face-down pair whose cards every player has seen (``shown``: public knowledge)
    is labelled as what the viewer sees — shown — in the players table and in words."""
    from jupai_net.client.i18n import t

    eq = {"mass": 29, "weapon": 26, "uses_left": 1, "quality": "fine", "face_up": False, "shown": True}
    assert R.equipment_text(eq, lang, compact=True).endswith(short_word)
    assert R.equipment_text(eq, lang, short=True).endswith(long_word)
    hidden = {**eq, "shown": False}  # the owner's own face-down pair, that only it sees
    assert R.equipment_text(hidden, lang, compact=True).endswith(t("face.down_short", lang))
    rng = random.Random(3)
    deck = list(range(53))
    rng.shuffle(deck)
    st = GameState.new(RuleSet(players=4), deck, setup_of("LCFN"))
    while True:
        obs = st.observation(0)
        shown = [p for p in obs["players"] if p["seat"] != 0 and p.get("equipment")
                 and p["equipment"].get("shown") and not p["equipment"]["face_up"]]
        if shown:
            break
        st.apply(rng.choice(st.legal_actions()))
    text = to_text(render_view(obs, legal=st.legal_actions() if st.to_move == 0 else [], lang=lang, width=60,
                               height=200), width=60)
    row = next(line for line in text.split("\n") if line.lstrip("▶ ").startswith(f"{shown[0]['seat']} "))
    assert short_word in row and t("face.down_short", lang) not in row.split("·")[-1], row
