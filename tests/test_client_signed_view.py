"""The client's screen data is checked against the signed stream (issue 7 item 4):
:class:`~jupai_net.client.signed_view.SignedFacts` accepts every honest view of whole
random games (no false alarm, any rule variant), and names each kind of lie."""

from __future__ import annotations

import random

import pytest

from jupai_net.bots import get_bot
from jupai_net.client.signed_view import SignedFacts, replay_observations, same_action
from jupai_net.fairness import HostDealer, SeatWitness, generate_signing_key
from jupai_net.fairness.primitives import make_seed, seed_commitment
from jupai_net.rules import RuleSet

KEY = generate_signing_key()


def play(rules: RuleSet, rng: random.Random, on_state):
    """Deal a game with a seat witness and SignedFacts per seat; call
    ``on_state(dealer, witnesses, facts)`` after the deal and after every action."""
    P = rules.players
    dealer = HostDealer(rules, KEY)
    wit = {s: SeatWitness(s) for s in range(P)}
    facts = {s: SignedFacts(s) for s in range(P)}

    def deliver(out):
        for viewer, raws in out.items():
            for raw in raws:
                st = wit[viewer].receive(raw)
                facts[viewer].feed(st.kind, st)

    deliver(dealer.start())
    for s in range(P):
        deliver(dealer.commit(s, wit[s].commitment))
    for s in range(P):
        deliver(dealer.reveal(s, wit[s].seed_reveal()))
    on_state(dealer, wit, facts)
    bot = get_bot("random")
    while not dealer.state.is_over:
        state = dealer.state
        action = bot(state.observation(state.to_move), state.legal_actions(), rng)
        _, out = dealer.apply(action)
        deliver(out)
        on_state(dealer, wit, facts)
    deliver(dealer.finish())
    return dealer, wit, facts


VARIANTS = [
    RuleSet(players=2, rounds=4),
    RuleSet(players=4),
    RuleSet(players=3, hidden_identities=True, same_identity="matching-card"),
    RuleSet(players=6, rounds=6, random_specials=True, swap_prime_composite=True),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p")
def test_every_honest_view_of_random_games_passes(rules):
    checked = 0

    def on_state(dealer, wit, facts):
        nonlocal checked
        state = dealer.state
        for s in range(rules.players):
            obs = state.observation(s)
            opened = set(wit[s].revealed.values())
            assert facts[s].check_sync(state.version, obs, opened) is None, (s, state.version)
            checked += 1
        if not state.is_over:
            s = state.to_move
            assert facts[s].check_prompt(state.version, state.legal_actions(), state.observation(s)) is None

    for seed in range(3):
        play(rules, random.Random(seed), on_state)
    assert checked > 3 * rules.players * 10


def _one_game():
    views = {}

    def keep(dealer, wit, facts):
        views[dealer.state.version] = dealer.state.observation(0)

    dealer, wit, facts = play(RuleSet(players=3, rounds=4), random.Random(7), keep)
    return dealer, wit, facts, views


def en(why):
    """A check's reason (a code and its args) in English."""
    from jupai_net.messages.verdicts import verdict_sentence

    return verdict_sentence(why["code"], why["args"], "en")


def test_each_kind_of_lie_is_named():
    dealer, wit, facts, views = _one_game()
    f, opened = facts[0], set(wit[0].revealed.values())
    last = dealer.state.version
    obs = dict(views[last])
    assert f.check_sync(last, obs, opened) is None
    assert "signed statements are at state" in en(f.check_sync(last - 1, views[last - 1], opened))
    # a hand card swapped for one never opened to this seat
    hidden = next(c for c in range(53) if c not in opened)
    if obs["hand"]:
        lie = dict(obs, hand=[hidden] + list(obs["hand"][1:]))
        assert "never opened to this seat" in en(f.check_sync(last, lie, opened))
    # a card hidden from the hand (count changed to match would still break the log/players)
    if obs["hand"]:
        lie = dict(obs, hand=list(obs["hand"][1:]))
        assert "hand count" in en(f.check_sync(last, lie, opened))
    # the events on screen differ from the signed ones
    lie = dict(obs, log=list(obs["log"][:-1]))
    assert "signed events" in en(f.check_sync(last, lie, opened))
    # the deal view differs (another seat's identity shown as something else)
    f0 = SignedFacts(0)
    f0.version, f0.deal_observation, f0.events = 0, facts[0].deal_observation, list(facts[0].deal_observation["log"])
    deal = dict(views[0], round=views[0]["round"] + 1)
    assert "signed deal" in en(f0.check_sync(0, deal, opened))


def test_a_prompt_offering_cards_the_seat_does_not_hold_is_refused():
    from jupai_net.actions import Action

    dealer, wit, facts, views = _one_game()
    f = facts[0]
    obs = dict(views[dealer.state.version], to_move=0)
    fake = [Action("attack", 1, (next(c for c in range(53) if c not in obs["hand"]),))]
    assert "does not hold" in en(f.check_prompt(dealer.state.version, fake, obs))
    assert "signed statements are at state" in en(f.check_prompt(dealer.state.version + 1, fake, obs))
    assert "offers none" in en(f.check_prompt(dealer.state.version, [], obs))  # empty: dealer-blind prompts only


def test_the_replay_after_the_game_finds_a_false_view_the_checks_at_once_cannot():
    dealer, wit, facts, views = _one_game()
    actions = [a for _, _, a in facts[0].steps]
    deal = wit[0]._checker.derive()
    assert replay_observations(dealer.rules, deal.deck, deal.setup, actions, 0, views) is None
    v = max(views) // 2
    lie = dict(views[v], R=views[v]["R"] + 1)
    assert f"state {v}" in en(replay_observations(dealer.rules, deal.deck, deal.setup, actions, 0, {**views, v: lie}))


def test_same_action_ignores_the_engines_card_order_only():
    a = {"kind": "attack", "target": 1, "cards": [3, 9], "weapon": True, "recovered": []}
    assert same_action(a, dict(a, cards=[9, 3]))
    assert not same_action(a, dict(a, target=2))
    assert not same_action(a, dict(a, weapon=False))
