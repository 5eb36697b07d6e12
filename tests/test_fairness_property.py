"""Property: for random seeds, rules and play, honest transcripts always verify
(specs/fairness.md §9)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupai_net.fairness import VERIFIED, derive_deal, signing_key_from_bytes, verify_transcript
from jupai_net.fairness.selfplay import play_game
from jupai_net.rules import RuleSet

seed32 = st.binary(min_size=32, max_size=32)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    rounds=st.integers(1, 8),
    game_id=st.binary(min_size=16, max_size=16),
    host_seed=seed32,
    seat_seeds=st.lists(seed32, min_size=6, max_size=6),
    key=seed32,
    rng_seed=st.integers(0, 2**32),
    random_specials=st.booleans(),
    hidden=st.booleans(),
)
def test_honest_transcripts_always_verify(players, rounds, game_id, host_seed, seat_seeds, key, rng_seed, random_specials, hidden):
    rules = RuleSet(players=players, rounds=rounds, random_specials=random_specials, hidden_identities=hidden)
    sp = play_game(
        rules,
        rng_seed=rng_seed,
        key=signing_key_from_bytes(key),
        game_id=game_id,
        host_seed=host_seed,
        seat_seeds=seat_seeds[:players],
    )
    assert sp.dealer.deal == derive_deal(rules, game_id, host_seed, seat_seeds[:players])
    for viewer in list(range(players)) + [None]:
        v = verify_transcript(sp.transcript(viewer))
        assert v.status == VERIFIED, v


@settings(max_examples=40, deadline=None)
@given(host_seed=seed32, seat_seeds=st.lists(seed32, min_size=2, max_size=6), game_id=st.binary(min_size=16, max_size=16))
def test_deal_is_always_a_permutation(host_seed, seat_seeds, game_id):
    rules = RuleSet(players=len(seat_seeds), rounds=1)
    deal = derive_deal(rules, game_id, host_seed, seat_seeds)
    assert sorted(deal.deck) == list(range(53)) and len(set(deal.salts)) == 53
