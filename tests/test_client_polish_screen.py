"""The screen a first player sees (specs/client.md § What the player sees): an 80×24
terminal shows everything that matters, the outcomes since the player's last turn
are kept (own ones marked), equipment and counts read as English (one use / two
uses), the rearm note follows the round, the help explains the game."""

from __future__ import annotations

import random
import re

import pytest
from rich.cells import cell_len
from jupai_net.client import render as R
from jupai_net.client.i18n import MESSAGES, t, tn
from jupai_net.client.render import (
    display_name,
    equipment_text,
    render_actions,
    render_help,
    render_lobby,
    render_view,
    seat_label,
    to_text,
)

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet

from .engine_helpers import card, deal, setup_of

IDS = {2: "LF", 3: "LFF", 4: "LCFN", 5: "LCFFN", 6: "LCCFFN"}
BOTS = {s: f"greedy bot {s}" for s in range(6)}


def screens(players: int, seed: int, every: int = 1, **rules):
    """(state, seat, its event history) at every ``every``-th prompt of a random game."""
    rng = random.Random(seed)
    deck = list(range(53))
    rng.shuffle(deck)
    ids = list(IDS[players])
    rng.shuffle(ids)
    st = GameState.new(RuleSet(players=players, **rules), deck, setup_of("".join(ids)))
    history: dict[int, list] = {s: [e.to_wire(s) for e in st.events] for s in range(players)}
    k = 0
    while not st.is_over:
        seat = st.to_move
        if k % every == 0:
            yield st, seat, history[seat]
        k += 1
        events = st.apply(rng.choice(st.legal_actions()))
        for s in range(players):
            history[s].extend(e.to_wire(s) for e in events)
    yield st, 0, history[0]


def outcome_rows(lines: list[str], obs, lang: str, history=()) -> list[int]:
    """The indexes of the rows under the outcomes' title that show outcomes of
    ``history`` (an outcome wrapped over several rows counts each row)."""
    titles = (t("log.since", lang), t("log.title", lang))
    start = next((k for k, line in enumerate(lines) if line.startswith(titles)), None)
    if start is None:
        return []
    me = obs.get("seat")
    forms = {re.sub(r"\s+", "", f) for e in R.merged_events(history) for names in (BOTS, None)
             for f in (R.describe_event(e, names, me, lang, True),) if f}
    rows, acc = [], ""
    for k in range(start + 1, len(lines)):
        row = re.sub(r"\s+", "", lines[k].removeprefix(R.MINE_MARK))
        if acc and row and any(f.startswith(acc + row) for f in forms):  # the same outcome, wrapped
            acc += row
        elif row and any(f.startswith(row) for f in forms):
            acc = row
        else:
            break
        rows.append(k)
    return rows


@pytest.mark.parametrize("players, seed", [(4, 1), (5, 2), (6, 3), (6, 4), (3, 5)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_80x24_terminal_shows_hand_seats_and_every_move(players, seed, lang):
    """At 80 columns and 23 lines (the 24th is the prompt) the whole screen fits: the
    hand and equipment, every seat's row with its full identity, the numbered moves
    and the input hint; nothing but a player's name is cut with an ellipsis (an
    outcome is whole, wrapped)."""
    checked = 0
    for st, seat, history in screens(players, seed, every=3):
        obs = st.observation(seat)
        legal = st.legal_actions(seat)
        text = to_text(render_view(obs, legal=legal, names=BOTS, events=history, lang=lang, width=80, height=23),
                       width=80)
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= 23, text
        assert all(cell_len(line.rstrip()) <= 80 for line in lines)
        outcomes = set(outcome_rows(lines, obs, lang, history))
        # only a player's name in its row (on a squeezed screen) is cut short; never
        # an outcome, a move, an identity, the hand
        players = {k for k, line in enumerate(lines) if re.match(r"[▶ ] \d ", line)}
        cut = [line for k, line in enumerate(lines) if "…" in line
               and not (k in players and "…" in line.split("  ")[1])]
        assert not cut, text
        if not st.is_over:  # once over, the ranking replaces the own hand
            hand = next(line for line in lines if line.startswith(t("hand.title_short", lang)))
            for c in obs["hand"]:
                assert R.card_text(c, lang) in hand
        for p in obs["players"]:
            row = next((line for line in lines if re.match(rf"[▶ ] {p['seat']} ", line)), None)
            assert row is not None, text
            ident = R.identity_text(p["identity"], p["identity_value"], lang, short=True)
            assert ident in row, (ident, row)
        if legal:
            n = len(legal)
            hint = t("legal.prompt_one_short" if n == 1 else "legal.prompt_short", lang, n=n)
            if hint not in text:  # squeezed: the shortest hint, after the status on its line
                hint = t("legal.prompt_one_tiny" if n == 1 else "legal.prompt_tiny", lang, n=n)
            assert hint in text
            moves = "\n".join(lines[max(outcomes, default=0) + 1:])  # under the outcomes
            more = re.search(t("legal.more", lang, ranges=r"([\d–, 、]+)"), text)
            if more:  # a page of the moves: the others' numbers named, the last one among them
                assert re.findall(r"\d+", more[1])[-1] == str(n), text
            else:
                assert re.search(rf"(?<![\d–]){n}(?!\d)", moves.split(hint)[0]), text
            checked += 1
    assert checked > 5


def test_the_attack_round_table_of_moves_at_80_columns():
    """36 attack moves (3 targets × 6 cards × with/without weapon) take 5 lines: the
    cards on top, the total each comes to with the rule it follows, one row of move
    numbers per target."""
    rules = RuleSet(players=4, round_value="rank", hand_size=6)
    hands = {0: [card(2), card(3), card(3, 1), card(9), card(9, 1), card(12)]}
    st = deal(rules, setup_of("LCFN"), hands=hands, equipment={0: (card(4, 1), card(8))}, rounds=[card(6, 1)])
    obs = st.observation(0)
    legal = st.legal_actions()
    assert len(legal) == 36
    text = to_text(render_actions(legal, obs, BOTS, layout="matrix", compact=True), width=80)
    lines = text.rstrip("\n").split("\n")
    assert len(lines) == 6
    assert lines[0].split() == ["2♠", "+W", "3♠", "+W", "3♥", "+W", "9♠", "+W", "9♥", "+W", "Q♠", "+W"]
    # the totals row says the rule they follow (i: the card's rank), then each total
    assert lines[1].split() == ["your", "total:", "6×i", "·", "+W:", "6×i", "+", "4×8",
                                "12", "44", "18", "50", "18", "50", "54", "86", "54", "86", "72", "104"]
    assert lines[2].split()[-12:] == [str(k) for k in range(1, 13)]
    assert lines[2].startswith("attack seat 1 (greedy bot 1)")
    assert lines[4].split()[-1] == "36"
    assert lines[5] == "Type a number 1–36 and Enter · ? help · +W = with your weapon"
    # the totals row is each move's own total
    for k, a in enumerate(legal[:12]):
        assert R.own_total(a, obs).total.value == int(lines[1].split()[8 + k])


def test_outcomes_since_my_last_turn_are_kept_and_mine_stand_out():
    """More than 5 outcomes happen between two turns of seat 0 at a 6-seat table: all
    of them are listed (up to 10), from seat 0's own contest on, which is marked; with
    more than 10, the newest 10 are listed under "(N earlier lines not shown)"."""
    found, trimmed = [], 0
    for seed in (2, 27):
        for st, seat, history in screens(6, seed):
            if seat != 0 or st.pending is not None or st.is_over:
                continue
            obs = st.observation(0)
            shown, since, hidden = R.recent_window(history, 0)
            merged = R.merged_events(history)
            mine = [k for k, e in enumerate(merged) if R.acted(e, 0)]
            if not mine or len(merged) - mine[-1] < 6:
                continue
            n = len(merged) - mine[-1]
            assert shown == merged[-min(R.LOG_LIMIT, n):]  # always the newest
            assert hidden == max(0, n - R.LOG_LIMIT) and since == (not hidden)
            text = to_text(render_view(obs, legal=st.legal_actions(), names=BOTS, events=history), width=200)
            if hidden:
                trimmed += 1
                assert f"({hidden} earlier line" in text and "Last outcomes" in text
                body = text.split("not shown)")[1].split("Your turn")[0]
            else:
                assert R.involves(shown[0], 0)
                assert "Since your last turn" in text
                marked = [line for line in text.split("\n") if "» " in line]
                assert marked and "seat 0 (you)" in marked[0]
                body = text.split("Since your last turn")[1].split("Your turn")[0]
            assert len([x for x in body.split("\n") if x.strip("│ ")]) >= 6
            found.append(len(shown))
    assert found and max(found) == R.LOG_LIMIT, found


def test_recent_events_keep_the_newest_when_trimmed_and_say_so():
    """Trimming never prefers the viewer's old outcomes over newer ones (the newest,
    decisive move must show); the trimmed count is said."""
    events = [{"kind": "play", "actor": 0, "target": 1, "contest": "attack", "cards": [1], "weapon": False}]
    events += [{"kind": "pass", "seat": 1 + k % 3, "round_type": "supply"} for k in range(14)]
    events.insert(1, {"kind": "supply", "seat": 0, "option": "a", "cards": [5], "recovered": []})
    shown, since, hidden = R.recent_window(events, 0, limit=10)
    assert shown == events[-10:] and hidden == 5 and not since
    assert R.recent_events(events, 0, limit=10) == (events[-10:], False)
    obs = {"seat": 0, "log": events, "players": []}
    for lang, words in (("en", "(5 earlier lines not shown)"), ("zh", "前面还有 5 行未显示")):
        text = to_text(R.render_log(obs, lang=lang, limit=10), width=80)
        assert words in text


def shown(event, seat, text, lang="en", names=BOTS) -> bool:
    """``event`` is on the screen ``text`` whole, with its formula (wrapped over rows,
    never cut with ``…``: screen.SQUEEZE) and the seats' ``names`` (the same words on
    every screen)."""
    flat = re.sub(r"\s+", "", text)
    return re.sub(r"\s+", "", R.describe_event(event, names, seat, lang, True)) in flat


# one game a test: xdist spreads the five over its workers (they took 21 s in one)
@pytest.mark.parametrize("players, seed", [(4, 1), (5, 2), (6, 3), (6, 4), (3, 5)])
def test_80x24_shows_the_move_that_won_and_the_game_over_screen_shows_the_last_contest(players, seed):
    """Real engine games: at every prompt of 80×24 the newest outcome is on screen, and
    the final screen shows the game's last contest."""
    from jupai_net.client.render import describe_event
    checked = 0
    for st, seat, history in screens(players, seed):
        merged = R.merged_events(history)
        obs = st.observation(seat)
        legal = [] if st.is_over else st.legal_actions()
        text = to_text(render_view(obs, legal=legal, names=BOTS, events=history, width=80, height=23), width=80)
        flat = re.sub(r"\s+", "", text)
        newest = [e for e in merged if describe_event(e, BOTS, seat, "en", True) and e.get("kind") != "end"]
        if obs.get("pending") or not ("Last outcomes" in text or "Since your last turn" in text):
            continue  # the play waiting for its answer shows as the pending contest
        assert shown(newest[-1], seat, text), text
        if st.is_over:
            contest = [e for e in merged if e.get("kind") == "contest"][-1]
            assert shown(contest, seat, text), text
            assert text.count("Game over") == 1 and "Game over: " not in text  # said once
            checked += 1
    assert checked == 1  # the game's end was checked


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_singular_and_plural(lang):
    eq = {"mass": card(8), "weapon": card(6), "quality": "fine", "uses_left": 1, "face_up": False}
    one = equipment_text(eq, lang)
    two = equipment_text({**eq, "uses_left": 2}, lang)
    if lang == "en":
        assert "· 1 use left ·" in one and "· 2 uses left ·" in two and "(s)" not in one + two
    else:
        assert "剩 1 次" in one and "剩 2 次" in two
    rows = R.ranking_rows([1, 0, 2], {1: "Bob"}, 0, lang, cards_left=[1, 0, 5], recovered=[1, 0, 2])
    if lang == "en":
        assert rows == ["1. seat 1 (Bob): 0 cards left, 0 recovered", "2. seat 0 (you): 1 card left, 1 recovered",
                        "3. seat 2: 5 cards left, 2 recovered"]
    assert not any("(s)" in text for key in MESSAGES for text in MESSAGES[key])
    assert tn("uses_left", 1, lang) != tn("uses_left", 3, lang).replace("3", "1") or lang == "zh"


def test_a_single_move_says_type_1():
    rules = RuleSet(players=2, rounds=1)
    st = deal(rules, setup_of("LF"), rounds=[card(6, 1)])
    legal = st.legal_actions()
    assert len(legal) == 1  # the last round: all cards at the only opponent, weapon used
    text = to_text(render_actions(legal, st.observation(0)), width=120)
    assert "Type 1 and Enter" in text and "1–1" not in text
    assert "输入编号 1 后回车" in to_text(render_actions(legal, st.observation(0), lang="zh"), width=120)


def _obs_without_equipment(rearm_from: int, round_no: int, stock: int, round_type: str = "attack"):
    st = GameState.new(RuleSet(players=2), list(range(53)), setup_of("LF"))
    obs = st.observation(0)
    players = [dict(p) for p in obs["players"]]
    players[0].update(equipment=None, rearm_from=rearm_from)
    return {**obs, "players": players, "round": round_no, "stock": stock, "round_type": round_type}


def test_in_a_supply_round_the_note_says_a_pair_may_be_drawn_now():
    """A supply round's move (b) draws a pair whatever the wait (specs/rules.md § 7): the
    note does not say 'from round 3' beside a 'supply: draw an equipment pair' move (the
    trial's screen said both)."""
    obs = _obs_without_equipment(3, 2, 10, round_type="supply")
    text = " ".join(to_text(render_view(obs), width=200).split())
    assert "Your equipment no equipment · may draw a new pair from the stock on your turn" in text, text
    assert "round 3" not in text


@pytest.mark.parametrize("rearm_from, round_no, stock, expected", [
    (3, 2, 10, "no equipment · may draw a new pair from round 3"),
    (3, 3, 10, "no equipment · may draw a new pair from the stock on your turn"),
    (3, 5, 10, "no equipment · may draw a new pair from the stock on your turn"),
    (3, 5, 1, "no equipment"),
    (3, 2, 1, "no equipment"),
    (20, 5, 10, "no equipment"),  # that round never comes
])
def test_rearm_note_follows_the_round_and_the_stock(rearm_from, round_no, stock, expected):
    obs = _obs_without_equipment(rearm_from, round_no, stock)
    text = " ".join(to_text(render_view(obs), width=200).split())
    assert f"Your equipment {expected}" in text
    assert ("round 3" in text) == ("round 3" in expected)


def test_lobby_names_your_seat_once():
    from jupai_net.protocol import PlayerInfo

    players = [PlayerInfo(0, "you", ready=True), PlayerInfo(1, "greedy bot 1", ready=True, bot=True)]
    text = " ".join(to_text(render_lobby(players, seat=0), width=120).split())
    assert "seat 0 (you) ready" in text and "(you) you" not in text
    zh = " ".join(to_text(render_lobby(players, seat=0, lang="zh"), width=120).split())
    assert "0号位（你） 已准备" in zh and "1号位（贪心机器人 1） 机器人 · 已准备" in zh
    named = " ".join(to_text(render_lobby([PlayerInfo(2, "Cy")], seat=2), width=120).split())
    assert "seat 2 (Cy, you)" in named


def test_bot_names_and_your_chat_name_in_chinese():
    assert display_name("greedy bot 1", "zh") == "贪心机器人 1"
    assert display_name("random bot 3", "zh") == "随机机器人 3"
    assert display_name("random bot", "zh") == "随机机器人"
    assert display_name("greedy bot 1", "en") == "greedy bot 1"
    assert display_name("Robot 1", "zh") == "Robot 1"
    assert seat_label(2, {2: "greedy bot 2"}, lang="zh") == "2号位（贪心机器人 2）"
    assert R.chat_line_text({"seat": 0, "name": "you", "text": "hi"}, "zh", me=0) == "你：hi"
    assert R.chat_line_text({"seat": 0, "name": "Ann", "text": "hi"}, "zh", me=0) == "Ann：hi"
    assert R.chat_line_text({"seat": 1, "name": "greedy bot 1", "text": "gg"}, "zh", me=0) == "贪心机器人 1：gg"


@pytest.mark.parametrize("lang, words", [
    ("en", ["attack", "defense", "supply", "discard", "R×i (+ m×w)", "I×i + R (+ m×w)", "R + i vs w + i",
            "i > m", "no cards left (hand + equipment) wins", "recovered", "1, 2 or 3 uses", "last round", "/quit"]),
    ("zh", ["进攻", "防守", "补给", "丢弃", "R×i（+ m×w）", "I×i + R（+ m×w）", "R + i 对 w + i", "i>m",
            "最先没有任何牌", "回收的牌", "1、2或3次", "最后一回合", "/quit"]),
])
def test_help_is_a_short_how_to_play(lang, words):
    text = to_text(render_help(lang), width=80)
    flat = " ".join(text.replace("│", " ").split())
    for word in words:
        assert word in flat, word
    assert 12 <= len(text.strip().split("\n")) <= 23  # more than the keys, and it fits an 80×24 terminal


def test_compact_screen_shows_one_line_status_for_an_answer():
    rules = RuleSet(players=2, round_value="rank")
    st = deal(rules, setup_of("LF"), hands={0: [card(10)], 1: [card(3)]},
              equipment={0: (card(2), card(4)), 1: (card(1), card(8))}, rounds=[card(6, 1)])
    st.apply(Action(A.ATTACK, 1, (card(10),), True))
    text = to_text(render_view(st.observation(1), legal=st.legal_actions(), width=80, height=23), width=80)
    assert "Your turn: answer the attack of seat 0 ⚔ 10♠ + weapon" in text
    assert "answer with 3♠ + weapon (= 6×3 + 1×8 = 26)" in text
    assert "plays" not in text and text.count("10♠ + weapon") == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_move_layout_numbers_every_move(lang):
    """Every layout, for the moves of every kind in random games: each move number
    1..n is on screen exactly where a number goes, and every text exists in ``lang``."""
    layouts = R.MOVE_LAYOUTS
    seen_kinds = set()
    for players, seed in ((2, 7), (4, 8), (6, 9)):
        for st, seat, _ in screens(players, seed, every=2, same_identity="matching-card" if seed == 8 else "shared-role"):
            legal = st.legal_actions(seat)
            if not legal:
                continue
            obs = st.observation(seat)
            seen_kinds |= {a.kind for a in legal}
            for layout in layouts:
                text = to_text(render_actions(legal, obs, BOTS, lang, layout, compact=layout != "columns"), width=100)
                assert "{" not in text
                numbers = set(re.findall(r"(?<![\d=×+/–<>im])(\d+)(?=[.)]? |\)|$)", text, re.M))
                assert {str(k) for k in range(1, len(legal) + 1)} <= numbers, (layout, text)
    assert {A.ATTACK, A.DEFENSE, A.DISCARD, A.ANSWER, A.SUPPLY_RECOVERED, A.SUPPLY_EQUIPMENT, A.PASS} <= seen_kinds
