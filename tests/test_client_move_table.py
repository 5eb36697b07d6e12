"""The list of moves never cuts a move number or a column (specs/client.md § Your
moves): every kind of move the engine offers, at 40, 60, 80 and 120 columns, with
long ASCII and wide CJK names, in every layout; and the grid's totals come with the
rules they follow."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.cells import cell_len
from rich.console import Console

from jupai_net import actions as A
from jupai_net import formulas
from jupai_net.client import render as R
from jupai_net.client.render import MOVE_LAYOUTS, render_actions, to_text
from jupai_net.engine import GameState
from jupai_net.rules import RuleSet

from .engine_helpers import setup_of

ASCII = {s: f"Bartholomew-Alexandria {'ABCDEF'[s]}" for s in range(6)}
CJK = {s: f"诸葛亮孔明丞相大人{'甲乙丙丁戊己'[s]}" for s in range(6)}
IDS = {2: "LF", 3: "LFF", 4: "LCFN", 5: "LCFFN", 6: "LCCFFN"}
RULES = [
    RuleSet(players=4),
    RuleSet(players=6, round_value="rank"),
    RuleSet(players=4, hidden_identities=True),
    RuleSet(players=5, same_identity="matching-card"),
    RuleSet(players=3, round_value="rank", hand_size=9),
]


def variant(a: A.Action, obs) -> str:
    """The kind of a move, finer than ``actions.KINDS``: with or without the weapon,
    a discard without target, a supply (a) intent card or a recovered card, an answer
    to each kind of contest (or with no card left), a pass that ends a supply (a)."""
    if a.kind == A.ANSWER:
        contest = (obs.get("pending") or {}).get("contest")
        return f"answer-{contest}" + ("-nocard" if not a.cards else "") + ("+W" if a.weapon else "")
    if a.kind == A.DISCARD and a.target is None:
        return "discard-notarget"
    if a.kind == A.SUPPLY_RECOVERED:
        return "supply-a-recovered" if not a.cards else "supply-a"
    if a.kind == A.PASS and isinstance(obs.get("supply"), dict):
        return "supply-a-stop"
    return a.kind + ("+W" if a.weapon else "")


#: Every kind of move of actions.KINDS, and their variants, that the screen must show.
REQUIRED = {"attack", "attack+W", "defense", "discard", "discard-notarget", "supply-a", "supply-a-recovered",
            "supply-a-stop", "supply-equipment", "pass", "answer-attack", "answer-attack+W", "answer-defense",
            "answer-defense+W", "answer-discard", "rearm"}


def prompts():
    """One prompt (observation, legal moves) for each variant, the one with the most
    moves among the first random games that show it."""
    found: dict[str, tuple[dict, list]] = {}
    for k, rules in enumerate(RULES):
        for seed in range(4):
            rng = random.Random(seed * 7 + k)
            deck = list(range(53))
            rng.shuffle(deck)
            ids = list(IDS[rules.players])
            rng.shuffle(ids)
            st = GameState.new(rules, deck, setup_of("".join(ids)))
            while not st.is_over:
                seat = st.to_move
                legal = list(st.legal_actions())
                obs = st.observation(seat)
                for v in {variant(a, obs) for a in legal}:
                    if v not in found or len(found[v][1]) < len(legal):
                        found[v] = (obs, legal)
                st.apply(rng.choice(legal))
    return found


PROMPTS = prompts()


def test_every_kind_of_move_is_covered():
    assert set(A.KINDS) <= {v.split("-")[0].split("+")[0] if not v.startswith("supply") else
                            ("supply-recovered" if v.startswith("supply-a") else v) for v in PROMPTS} | {A.PASS}
    assert REQUIRED <= set(PROMPTS), sorted(REQUIRED - set(PROMPTS))


def numbers_on_screen(renderable, width: int) -> tuple[list[int], list[str]]:
    """The move numbers as drawn (bold runs of digits alone, ``12.``/``12)`` marks
    stripped) and the plain lines, at ``width`` columns."""
    console = Console(file=io.StringIO(), width=width, force_terminal=True, color_system="standard",
                      legacy_windows=False, highlight=False, emoji=False)
    lines = console.render_lines(renderable, console.options, pad=False)
    numbers, plain = [], []
    for line in lines:
        plain.append("".join(seg.text for seg in line))
        for seg in line:
            # a move number is drawn alone in bold: "12. " / "12)" before its move, "12" in a grid cell
            m = re.fullmatch(r"\s*(\d+)[.)]?\s*", seg.text)
            if m and seg.style is not None and seg.style.bold:
                numbers.append(int(m.group(1)))
    return numbers, plain


@pytest.mark.parametrize("names, lang", [(ASCII, "en"), (CJK, "zh")], ids=["ascii-en", "cjk-zh"])
@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_every_move_number_is_on_screen_exactly_as_typed(width, names, lang):
    """Each kind of move, each layout the screen may use at that width: the numbers
    1..n each appear once, whole, and no line is wider than the terminal."""
    compact = width < R.COMPACT_WIDTH
    layouts = [lay for lay in MOVE_LAYOUTS if lay != "columns" or not compact]
    for kind, (obs, legal) in sorted(PROMPTS.items()):
        for layout in layouts:
            moves = render_actions(legal, obs, names, lang, layout, compact=compact)
            numbers, lines = numbers_on_screen(moves, width)
            where = f"{kind} {lang} {layout} at {width}:\n" + "\n".join(lines)
            assert sorted(numbers) == list(range(1, len(legal) + 1)), where
            assert all(cell_len(line.rstrip()) <= width for line in lines), where
            assert not re.search(r"\d…", "\n".join(lines)), where


def test_the_grid_falls_back_to_the_list_when_it_cannot_fit():
    """A 6-card attack at 5 targets with the weapon (60 moves) is a grid at 80 columns
    (names cut short in the row labels), and a numbered list at 40."""
    obs, legal = max((p for v, p in PROMPTS.items() if v.startswith("attack")), key=lambda p: len(p[1]))
    assert len(legal) >= 30
    wide = to_text(render_actions(legal, obs, ASCII, "en", "matrix", compact=True), width=80)
    assert "your total" in wide.split("\n")[1]  # the grid: totals under the card columns
    narrow = to_text(render_actions(legal, obs, ASCII, "en", "matrix", compact=True), width=40)
    assert re.search(r"^\s*1\) ", narrow, re.M) and "=N your total" in narrow  # the tight list, its legend


@pytest.mark.parametrize("R_, i, weapon, same, I", [(3, 10, (8, 6), False, 0), (1, 7, None, True, 11),
                                                    (6, 0, (2, 13), True, 5)])
def test_the_rules_are_the_totals_formulas_with_i(R_, i, weapon, same, I):
    """formulas.*_rule is the formula of the matching Total with the intent written i."""
    def check(rule: str, total) -> None:
        assert rule.replace("i", str(i)) + f" = {total.value}" == total.formula

    check(formulas.attack_rule(R_, weapon, same, I), formulas.attack_total(R_, i, weapon, same, I))
    check(formulas.defense_attack_rule(R_, same, I), formulas.defense_attack_strength(R_, i, same, I))
    check(formulas.defense_rule(R_, 9, same), formulas.defense_strength(R_, i, 9, same))


def test_grid_totals_are_labelled_with_their_rule():
    """The rule a group's totals follow (i replaced by the card's rank) gives each of
    its moves' totals, and the grid's totals row is labelled with it."""
    from jupai_net.cards import rank
    from jupai_net.client.move_words import group_rule

    checked = 0
    for v, (obs, legal) in PROMPTS.items():
        if v not in ("attack", "defense", "answer-attack", "answer-defense"):
            continue
        group = [a for a in legal if a.target == legal[0].target and a.kind == legal[0].kind]
        rule = group_rule([(R.cards_text(a.cards, "en", "+"), a) for a in group], obs)
        if rule is None or "same identity" in rule:
            continue
        plain, _, with_weapon = rule.partition(" · +W: ")
        for a in group:
            i = sum(rank(c) for c in a.cards)
            formula = (with_weapon if a.weapon else plain).replace("×", "*").replace("i", str(i))
            assert eval(formula) == R.own_total(a, obs).total.value, (rule, a)  # noqa: S307
            checked += 1
        text = to_text(render_actions(legal, obs, None, "en", "matrix", compact=True), width=120)
        if len(group) > 1 and "your total" in text:
            assert f"your total: {rule}" in text or f"your total here: {rule}" in text, text
    assert checked > 20


def test_a_grid_that_fits_a_width_fits_every_wider_one():
    """A wider terminal never loses the grid: the row of a target whose totals differ
    (``your total here``, here a coordinator attacking another) took its rule into
    its label when the label fitted without its two-space indent, and the grid was
    then refused at exactly 80 and 81 columns (the trial's 6-seat screen fell back to
    a 24-line list)."""
    from jupai_net.client.screen_moves import move_matrix
    from jupai_net.client.total_words import action_fields

    from .test_client_polish_screen import BOTS, screens

    checked = 0
    for st, seat, _history in screens(6, 3, every=2):
        if st.is_over or len(st.legal_actions(seat)) < 40:
            continue
        obs = st.observation(seat)
        legal = [action_fields(a) for a in st.legal_actions(seat)]
        fits = [move_matrix(legal, obs, BOTS, "en", w) is not None for w in range(40, 100)]
        assert fits == sorted(fits), fits  # once it fits, it fits at every wider width
        checked += any(fits) and not fits[0]
    assert checked >= 1
