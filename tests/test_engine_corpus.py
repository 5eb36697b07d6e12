"""The engine's outputs are locked by a recorded corpus of 200 games (issue 10): every
observation of every seat and the spectator, the legal actions, the events as each
viewer sees them, and the final record, hashed per step (tests/engine_corpus.py).
A speed-up that changes one bit anywhere fails here, naming the game and the step."""

from __future__ import annotations

import pytest

from . import engine_corpus

CORPUS = engine_corpus.load()


def test_corpus_covers_every_table_size_variant_and_bot():
    games = CORPUS["games"]
    assert len(games) == engine_corpus.GAMES
    assert {g["players"] for g in games} == {2, 3, 4, 5, 6}
    assert {g["bot"] for g in games} == {"random", "greedy"}
    assert len({str(sorted(g["rules"].items())) for g in games}) == len(engine_corpus.VARIANTS)
    assert sum(g["steps"] for g in games) > 5000


@pytest.mark.parametrize("chunk", range(4))
def test_engine_replays_the_corpus_bit_for_bit(chunk):
    for k, stored in enumerate(CORPUS["games"]):
        if k % 4 != chunk:
            continue
        assert {key: stored[key] for key in ("players", "rules", "bot", "seed")} == engine_corpus.game_spec(k)
        got = engine_corpus.play(k)
        if got["hashes"] != stored["hashes"]:
            step = next((n for n in range(0, max(len(got["hashes"]), len(stored["hashes"])), 8)
                         if got["hashes"][n:n + 8] != stored["hashes"][n:n + 8]))
            pytest.fail(f"corpus game {k} ({stored['players']} players, {stored['rules']}, {stored['bot']}): "
                        f"the engine's output differs from step {step // 8} on")
        assert got == {key: stored[key] for key in ("steps", "hashes", "final")}, f"corpus game {k}: final state differs"


def test_a_changed_output_is_caught():
    """The check is not vacuous: one different observation changes the game's hashes."""
    from jupai_net import engine

    class Shifted(engine.GameState):
        def observation(self, seat):
            obs = super().observation(seat)
            if self.version == 3:
                obs = {**obs, "stock": obs["stock"] + 1}
            return obs

    class Patched:
        GameState = Shifted

    got = engine_corpus.play(0, engine=Patched)
    stored = CORPUS["games"][0]
    assert got["hashes"][:24] == stored["hashes"][:24] and got["hashes"][24:32] != stored["hashes"][24:32]


def test_cached_observation_parts_equal_fresh_ones():
    """Observation parts are cached (per version, per seat until an action changes the
    seat, event wire forms per viewer) and shared: whichever viewers ask and when
    (every one at every step, only some, none for several steps, twice in a row), every
    observation equals one from a twin state whose caches were never used; and an
    observation handed out earlier is never changed by later actions."""
    import copy
    import random

    from jupai_net.engine import GameState
    from jupai_net.rules import RuleSet
    from jupai_net.setup import draw_setup

    for k in range(12):
        spec = engine_corpus.game_spec(k * 7)
        rules = RuleSet(players=spec["players"], **spec["rules"])
        rng = random.Random(k)
        deck = list(range(53))
        rng.shuffle(deck)
        state = GameState.new(rules, deck, draw_setup(rules, rng))
        viewers = [None, *range(rules.players)]
        kept: list[tuple[dict, dict]] = []
        while not state.is_over:
            if k < 4:
                asked = viewers  # every viewer at every step (the host)
            else:
                asked = [v for v in viewers if rng.random() < 0.3] * rng.choice((1, 1, 2))  # some, sometimes twice
            if asked:
                twin = GameState.new(rules, deck, state.setup)  # the same actions, caches never used
                for action in state.history:
                    twin.apply(action)
                for viewer in asked:
                    obs = state.observation(viewer)
                    assert obs == twin.observation(viewer)
                    if rng.random() < 0.05:
                        kept.append((obs, copy.deepcopy(obs)))
            state.apply(rng.choice(state.legal_actions()))
        for obs, snapshot in kept:
            assert obs == snapshot


def test_engine_events_equal_constructed_ones_for_every_viewer():
    """The engine makes its events without Event's constructor (GameState._emit; an
    event with no private part leaves its per-viewer cache unset): each one equals
    the Event built from its kind, data and private parts, gives the same wire form
    to every viewer (its own private part merged in for that seat only), and survives
    a deep copy."""
    import copy
    import random

    from jupai_net.engine import Event, GameState
    from jupai_net.rules import RuleSet
    from jupai_net.setup import draw_setup

    for players, rules_kw in ((4, {}), (3, {"hidden_identities": True})):
        rules = RuleSet(players=players, **rules_kw)
        rng = random.Random(players)
        deck = list(range(53))
        rng.shuffle(deck)
        state = GameState.new(rules, deck, draw_setup(rules, rng))
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        assert any(e.private for e in state.events) and any(not e.private for e in state.events)
        for event in state.events:
            built = Event(event.kind, event.data, event.private)
            assert event == built and copy.deepcopy(event) == event
            for viewer in (None, *range(players)):
                wire = event.to_wire(viewer)
                assert wire == built.to_wire(viewer) == copy.deepcopy(event).to_wire(viewer)
                private = (event.private or {}).get(viewer, {})
                assert wire == {"kind": event.kind, **event.data, **private}
