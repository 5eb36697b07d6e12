"""The expert bot (issue 11): it deals hidden cards consistently with what its seat
has seen, never plays an illegal move, keeps to its budget and is reproducible."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from jupai_net.bots import get_bot, greedy_bot
from jupai_net.cards import CANONICAL_DECK
from jupai_net.engine import GameState
from jupai_net.expert import PLAYOUTS_PER_SECOND, ExpertBot, determinize, infer_rules
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup


def _deal(rules: RuleSet, rng: random.Random) -> GameState:
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    return GameState.new(rules, deck, draw_setup(rules, rng))


RULES = [
    RuleSet(players=2),
    RuleSet(players=3),
    RuleSet(players=4),
    RuleSet(players=5, hidden_identities=True),
    RuleSet(players=6),
    RuleSet(players=4, same_identity="matching-card", round_value="rank"),
    RuleSet(players=4, swap_prime_composite=True, random_specials=True, hidden_identities=True),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.same_identity}-{r.round_value}")
def test_a_determinized_state_looks_the_same_to_the_seat(rules):
    """Every position of greedy games: the dealt-out state gives the seat the same
    observation (bar the log) and the same legal moves as the real one, while the
    cards it cannot see are dealt anew."""
    rng = random.Random(rules.players * 7 + rules.hidden_identities)
    differs = 0
    positions = 0
    for _ in range(4):
        state = _deal(rules, rng)
        while not state.is_over:
            seat = state.to_move
            obs = state.observation(seat)
            twin = determinize(obs, rules, rng)
            again = twin.observation(seat)
            assert {k: v for k, v in again.items() if k not in ("log", "version")} == \
                {k: v for k, v in obs.items() if k not in ("log", "version")}
            assert twin.legal_actions() == state.legal_actions()
            others = [t for t in range(rules.players) if t != seat]
            differs += any(twin.seats[t].hand != state.seats[t].hand for t in others)
            positions += 1
            state.apply(greedy_bot(obs, state.legal_actions(), rng))
    assert differs > positions // 2  # the hidden hands really are dealt again


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_rules_read_off_an_observation(rules):
    """Without the RuleSet the bot reads it off the observation: the settings that
    change play agree (the prime/composite swap and R's reading at attack/defense rounds)."""
    rng = random.Random(3)
    state = _deal(rules, rng)
    while not state.is_over:
        obs = state.observation(state.to_move)
        got = infer_rules(obs)
        assert (got.players, got.rounds, got.same_identity) == (rules.players, rules.rounds, rules.same_identity)
        assert sorted(got.identity_letters) == sorted(rules.identity_letters)
        if obs["round_type"] in ("attack", "defense"):
            assert got.swap_prime_composite == rules.swap_prime_composite
        if obs["R"] != obs["round"]:
            assert got.round_value == "rank"
        state.apply(greedy_bot(obs, state.legal_actions(), rng))


@pytest.mark.parametrize("rules", [RuleSet(players=4), RuleSet(players=3, hidden_identities=True),
                                   RuleSet(players=6, same_identity="matching-card")], ids=lambda r: f"{r.players}p")
def test_expert_games_have_only_legal_moves(rules):
    """Fixed-seed games with the expert in two seats against greedy bots (small
    budget, rules not told): every move it picks is one of the legal moves, and the
    games finish."""
    rng = random.Random(11)
    bot = ExpertBot(0.5, playouts=8, clock=None)
    searched = 0
    for game in range(2):
        state = _deal(rules, rng)
        experts = {game, game + 1}
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_actions(seat)
            if seat not in experts:
                state.apply(greedy_bot(state.observation(seat), legal, rng))
                continue
            action = bot(state.observation(seat), legal, rng)
            assert action in legal
            state.apply(action, seat)
            assert bot.last.playouts in (0, 8)
            searched += bot.last.playouts > 0
        assert len(state.ranking) == rules.players
    assert searched > 0


class FakeClock:
    """A clock that moves on ``step`` seconds each time it is read."""

    def __init__(self, step: float):
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def _searched_position(rules: RuleSet, seed: int) -> GameState:
    """A position where the seat to move has several moves."""
    rng = random.Random(seed)
    state = _deal(rules, rng)
    while len(state.legal_actions()) < 4:
        state.apply(greedy_bot(state.observation(state.to_move), state.legal_actions(), rng))
    return state


def test_the_clock_budget_stops_the_search():
    """think = 0.5 s on a clock that moves 0.1 s per read: about 5 playouts, far
    below the playout budget, and the time spent is what the clock says."""
    state = _searched_position(RuleSet(), 5)
    clock = FakeClock(0.1)
    bot = ExpertBot(0.5, playouts=1000, clock=clock)
    bot(state.observation(state.to_move), state.legal_actions(), random.Random(1))
    assert 1 <= bot.last.playouts <= 5
    assert bot.last.seconds <= 0.5 + 2 * clock.step


def test_the_playout_budget_is_exact_and_reproducible():
    state = _searched_position(RuleSet(players=5), 8)
    obs, legal = state.observation(state.to_move), state.legal_actions()
    picks = []
    for _ in range(2):
        bot = ExpertBot(0.1, playouts=40, clock=None)
        picks.append(bot(obs, legal, random.Random(99)))
        assert bot.last.playouts == 40
        assert sum(v for _, v, _ in bot.last.moves) == 40
    assert picks[0] == picks[1]
    assert ExpertBot(0.2, clock=None).playouts == round(0.2 * PLAYOUTS_PER_SECOND)


def test_one_legal_move_needs_no_search():
    state = _searched_position(RuleSet(), 2)
    legal = state.legal_actions()[:1]
    bot = ExpertBot(0.5, clock=FakeClock(1.0))
    assert bot(state.observation(state.to_move), legal, random.Random(0)) == legal[0]
    assert bot.last.playouts == 0


@pytest.mark.parametrize("think", [0, -1, float("nan"), float("inf")])
def test_a_bad_budget_is_refused(think):
    with pytest.raises(ValueError, match="think"):
        ExpertBot(think)


def test_get_bot_builds_an_expert_with_its_settings():
    assert get_bot("expert") is get_bot("expert")
    bot = get_bot("expert", think=0.2, clock=None)
    assert isinstance(bot, ExpertBot) and bot.playouts == round(0.2 * PLAYOUTS_PER_SECOND) and bot.clock is None
    assert get_bot("greedy", think=0.2) is greedy_bot


# ------------------------------------------------------------------ the commands people type
JUPAI = [sys.executable, "-m", "jupai_net"]


def _env(tmp_path) -> dict[str, str]:
    return dict(os.environ, JUPAI_CONFIG_DIR=str(tmp_path / "config"), COLUMNS="100", LANG="C.UTF-8",
                PYTHONIOENCODING="utf-8")


def test_play_against_expert_opponents_with_an_expert_in_your_seat(tmp_path):
    """``jupai play --opponents expert --bot expert --think S``: the host's expert bots
    and the client's expert bot finish a verified game."""
    out = subprocess.run(JUPAI + ["play", "--opponents", "expert", "--bot", "expert", "--think", "0.02", "--seats", "3",
                                  "--rounds", "3", "--bot-delay", "0", "--transcript", str(tmp_path / "t.jupai")],
                         capture_output=True, text=True, timeout=120, env=_env(tmp_path))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    assert "final ranking" in out.stdout and "fairness: verified" in out.stdout


def test_simulate_mixed_bots_from_the_command_line(tmp_path):
    """``jupai simulate --bot expert,greedy,greedy``: a reproducible run whose wins add
    up by seat, by position after the leader and by bot."""
    argv = JUPAI + ["simulate", "--players", "3", "--games", "4", "--seed", "3", "--bot", "expert,greedy,greedy",
                    "--think", "0.02", "--json"]
    runs = [subprocess.run(argv, capture_output=True, text=True, timeout=120, env=_env(tmp_path)) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    d = json.loads(runs[0].stdout)
    assert d == json.loads(runs[1].stdout)
    assert d["bots"] == ["expert", "greedy", "greedy"] and d["think"] == 0.02
    assert abs(sum(d["win_rate_by_position"]) - 1) < 1e-9 and abs(sum(d["win_rate_by_seat"]) - 1) < 1e-9
    assert d["wins"]["bot"]["expert"]["games"] == 4 and d["wins"]["bot"]["greedy"]["games"] == 8
    assert d["win_rate_by_bot"]["expert"] == d["win_rate_by_seat"][0]
    text = subprocess.run(argv[:-1], capture_output=True, text=True, timeout=120, env=_env(tmp_path)).stdout
    assert "win rate the leader of round 1" in text and "win rate per expert seat" in text


@pytest.mark.parametrize("argv, message", [
    (["simulate", "--bot", "expert,nobody,greedy,greedy"], "unknown bot 'nobody'"),
    (["simulate", "--bot", "expert,greedy"], "names 2 bots for 4 seats"),
    (["simulate", "--think", "0"], "must be more than 0"),
    (["play", "--think", "soon"], "seconds per move expected"),
    (["host", "--think", "-1"], "must be more than 0"),
    (["join", "127.0.0.1", "--bot", "expert", "--think", "nan"], "must be more than 0"),
])
def test_bad_bot_choices_exit_2_with_one_sentence(argv, message, tmp_path):
    out = subprocess.run(JUPAI + argv, capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert out.returncode == 2
    assert message in " ".join((out.stdout + out.stderr).split())
    assert "Traceback" not in out.stdout + out.stderr


def test_simulate_counts_wins_by_position_after_the_leader_and_by_bot():
    """Each win lands at the winner's distance from the leader of round 1 (the
    landlord), and the mixed bots are counted per seat-game."""
    from jupai_net.simulate import SimulationStats, play_game

    rules = RuleSet(players=3)
    rng = random.Random(5)
    stats = SimulationStats(3, bots=["greedy", "random", "random"])
    expected = [0, 0, 0]
    for _ in range(12):
        state = play_game(rules, [greedy_bot, get_bot("random"), get_bot("random")], rng)
        assert state.setup.identities[state.first_leader] == "L"
        expected[(state.ranking[0] - state.first_leader) % 3] += 1
        stats.add(state)
    assert stats.wins_by_position == expected and sum(expected) == 12
    s = stats.summary()
    assert s["wins"]["bot"]["random"]["games"] == 24 and s["wins"]["bot"]["greedy"]["games"] == 12
    assert s["win_rate_by_bot"]["greedy"] == stats.wins_by_seat[0] / 12
    for r in s["wins"]["position"]:
        assert r["low"] <= r["rate"] <= r["high"]
