"""RuleSet validation, TOML house rules, setup draws and the round-type map (rules.md §1, §2)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from jupai_net.cli import main
from jupai_net.engine import round_type
from jupai_net.rules import DEFAULT_IDENTITIES, RuleError, RuleSet, load_rules
from jupai_net.setup import draw_setup

from .engine_helpers import Cards, deal, setup_of


@pytest.mark.parametrize(
    "kwargs, setting",
    [
        ({"players": 7}, "players"),
        ({"players": 1}, "players"),
        ({"rounds": 0}, "rounds"),
        ({"players": 6, "rounds": 12}, "rounds"),
        ({"supply_number": 9}, "discard_number"),
        ({"supply_number": 15}, "supply_number"),
        ({"round_value": "dice"}, "round_value"),
        ({"same_identity": "both"}, "same_identity"),
        ({"identities": "LCF"}, "identities"),
        ({"identities": "LLFN"}, "identities"),
        ({"identities": "LXFN"}, "identities"),
        ({"hidden_identities": "yes"}, "hidden_identities"),
        ({"players": "4"}, "players"),
    ],
)
def test_bad_settings_name_the_setting(kwargs, setting):
    with pytest.raises(RuleError) as info:
        RuleSet(**kwargs)
    assert info.value.setting == setting
    assert setting in str(info.value)


def test_default_rounds_fit_every_table():
    assert RuleSet().rounds == 12
    assert RuleSet(players=6).rounds == 11  # 53 − 6×7 = 11


def test_toml_house_rules_load_and_show_back(tmp_path, capsys):
    f = tmp_path / "house.toml"
    f.write_text('[rules]\nplayers = 5\nrounds = 9\nswap-prime-composite = true\nround-value = "rank"\n'
                 'same-identity = "matching-card"\n', encoding="utf-8")
    rules = load_rules(f)
    assert (rules.players, rules.rounds, rules.swap_prime_composite, rules.round_value, rules.same_identity) == (
        5, 9, True, "rank", "matching-card")
    shown = dict((name, value) for name, value, _ in rules.describe())
    assert shown["identities"] == "LCFFN (default)" and shown["swap-prime-composite"] is True
    assert main(["rules", "--rules", str(f)]) == 0
    out = capsys.readouterr().out
    assert "swap-prime-composite" in out and "matching-card" in out and "LCFFN" in out


@pytest.mark.parametrize(
    "text, setting",
    [("players = 9\n", "players"), ("colour = 'red'\n", "colour"), ("players = [\n", "file")],
)
def test_bad_rules_file_names_the_setting(tmp_path, capsys, text, setting):
    f = tmp_path / "bad.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_rules(f)
    assert info.value.setting == setting
    assert main(["rules", "--rules", str(f)]) == 2
    assert setting in capsys.readouterr().err  # errors go to stderr


def test_missing_rules_file(tmp_path):
    with pytest.raises(RuleError, match="cannot read"):
        load_rules(tmp_path / "nope.toml")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_identity_sets_by_table_size_are_dealt_at_random(players):
    rules = RuleSet(players=players)
    rng = random.Random(players)
    seats_of_landlord = Counter()
    for _ in range(600):
        setup = draw_setup(rules, rng)
        assert sorted(setup.identities) == sorted(DEFAULT_IDENTITIES[players])
        assert setup.coordinator_rank in (4, 6, 8, 9, 10, 12) and setup.farmer_rank in (2, 3, 5, 7, 11, 13)
        assert (setup.supply_number, setup.discard_number) == (4, 9)
        seats_of_landlord[setup.identities.index("L")] += 1
    assert set(seats_of_landlord) == set(range(players))  # every seat can be the landlord
    assert min(seats_of_landlord.values()) > 600 / players / 2


def test_random_specials_are_distinct_ranks():
    rules = RuleSet(random_specials=True)
    rng = random.Random(1)
    pairs = {(s.supply_number, s.discard_number) for s in (draw_setup(rules, rng) for _ in range(2000))}
    assert all(a != b and 1 <= a <= 14 and 1 <= b <= 14 for a, b in pairs)
    assert len(pairs) > 100


def test_identity_values():
    s = setup_of("LCFN", coordinator=8, farmer=11)
    assert [s.identity_value(k) for k in range(4)] == [14, 8, 11, 0]


@pytest.mark.parametrize(
    "r, default, swapped",
    [(1, "attack", "defense"), (2, "defense", "attack"), (4, "supply", "supply"), (6, "attack", "defense"),
     (7, "defense", "attack"), (9, "discard", "discard"), (13, "defense", "attack"), (14, "attack", "defense")],
)
def test_round_type_map(r, default, swapped):
    setup = setup_of("LCFN")
    assert round_type(r, setup, RuleSet()) == default
    assert round_type(r, setup, RuleSet(swap_prime_composite=True)) == swapped


def test_random_special_numbers_drive_the_map():
    setup = setup_of("LCFN", supply=11, discard=1)
    assert round_type(11, setup, RuleSet()) == "supply"
    assert round_type(1, setup, RuleSet()) == "discard"
    assert round_type(4, setup, RuleSet()) == "attack"


def test_attack_number_house_rule_reads_2_as_an_attack_round(tmp_path, capsys):
    """specs/rules.md §2: '2 代表的积数为进攻回合' read literally (attack-number = 2): a 2
    makes an attack round although 2 is prime; the other primes stay defense rounds."""
    setup = setup_of("LCFN")
    literal = RuleSet(attack_number=2)
    assert round_type(2, setup, RuleSet()) == "defense"  # the default, category reading
    assert [round_type(r, setup, literal) for r in (2, 3, 7, 4, 9, 6)] == [
        "attack", "defense", "defense", "supply", "discard", "attack"]
    c = Cards()
    st = deal(literal, setup_of("LCFN"), rounds=[c(2)])
    assert st.round_kind == "attack" and st.observation(None)["round_type"] == "attack"
    f = tmp_path / "literal.toml"
    f.write_text("attack-number = 2\n", encoding="utf-8")
    assert load_rules(f).attack_number == 2
    assert main(["rules", "--rules", str(f)]) == 0
    out = capsys.readouterr().out
    assert "attack-number" in out and "│ 2 " in out


@pytest.mark.parametrize("kwargs", [{"attack_number": 15}, {"attack_number": 4}, {"attack_number": -1},
                                    {"attack_number": True}])
def test_bad_attack_number(kwargs):
    with pytest.raises(RuleError) as info:
        RuleSet(**kwargs)
    assert info.value.setting == "attack_number"


def test_attack_number_is_on_the_wire_only_when_set():
    """Records of games without the house rule keep their bytes (rules.LATER_SETTINGS)."""
    assert "attack_number" not in RuleSet().to_wire()
    wire = RuleSet(attack_number=2).to_wire()
    assert wire["attack_number"] == 2 and RuleSet.from_wire(wire) == RuleSet(attack_number=2)
    assert RuleSet.from_wire(RuleSet().to_wire()) == RuleSet()


def test_round_value_ordinal_or_rank_and_lead_passes_clockwise():
    c = Cards()
    pile = [c(6), c(8), c(10)]
    ordinal = deal(RuleSet(), setup_of("NLCF"), rounds=pile)
    by_rank = deal(RuleSet(round_value="rank"), setup_of("NLCF"), rounds=pile)
    assert (ordinal.round_value, by_rank.round_value) == (1, 6)
    assert ordinal.leader == 1  # round 1 is led by the landlord
    for _ in range(4):
        seat = ordinal.to_move
        ordinal.apply(ordinal.legal_actions()[0])
        ordinal.apply(ordinal.legal_actions()[0])
        assert seat is not None
    assert ordinal.round_no == 2 and ordinal.round_value == 2 and ordinal.leader == 2


def test_matching_card_house_rule_picks_each_sides_formula():
    """Coordinator (I=6) plays a 6: same-identity formula 6×6 + 8 = 44; the farmer
    (I=5) answers a 5: 5×5 + 8 = 33; with a 7 it would be 8×7 = 56."""
    c = Cards()
    six, five = c(6), c(5)
    rules = RuleSet(identities="CFNN", same_identity="matching-card", round_value="rank")
    st = deal(rules, setup_of("CFNN"), hands={0: [six], 1: [five]}, rounds=[c(8)])
    from jupai_net.actions import Action
    st.apply(Action("attack", 1, (six,)))
    st.apply(Action("answer", cards=(five,)))
    d = [e for e in st.events if e.kind == "contest"][-1].data
    assert [s["formula"] for s in d["sides"]] == ["6×6 + 8 = 44", "5×5 + 8 = 33"]


def test_hidden_identities_show_once_used():
    c = Cards()
    ten, twelve = c(10), c(12)
    rules = RuleSet(players=3, identities="FFN", hidden_identities=True, round_value="rank")
    st = deal(rules, setup_of("FFN"), hands={0: [ten], 1: [twelve]}, rounds=[c(6)])
    obs = st.observation(2)
    assert [p["identity"] for p in obs["players"]] == [None, None, "N"]
    assert st.observation(0)["players"][0]["identity"] == "F"
    from jupai_net.actions import Action
    st.apply(Action("attack", 1, (ten,)))
    st.apply(Action("answer", cards=(twelve,)))
    assert [p["identity"] for p in st.observation(2)["players"]] == ["F", "F", "N"]


def test_jupai_rules_says_a_6_player_game_has_no_stock():
    """specs/rules.md §3, §11: with the default N = 11 a 6-player table deals every card
    but the round pile; `jupai rules --seats 6` says no equipment can be drawn."""
    import subprocess
    import sys

    assert RuleSet(players=6).stock_size == 0 and RuleSet().stock_size == 13
    assert RuleSet(players=6, rounds=9).stock_size == 2
    run = subprocess.run([sys.executable, "-m", "jupai_net", "rules", "--players", "6"],
                         capture_output=True, text=True, env={"COLUMNS": "200", "PATH": ""}, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "no new equipment can be drawn in this game" in run.stdout and "LCCFFN" in run.stdout
    four = subprocess.run([sys.executable, "-m", "jupai_net", "rules"], capture_output=True, text=True,
                          env={"COLUMNS": "200", "PATH": ""}, timeout=60)
    assert "6 new pairs" in four.stdout
    bad = subprocess.run([sys.executable, "-m", "jupai_net", "rules", "--players", "9"], capture_output=True,
                         text=True, env={"COLUMNS": "200", "PATH": ""}, timeout=60)
    assert bad.returncode == 2 and "must be 2-6, got 9" in bad.stderr and "Traceback" not in bad.stderr
