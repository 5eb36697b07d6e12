"""The host's fast paths (issue 10 aim 3, specs/performance.md § Host): messages and
statements the host builds from its own state skip the re-checks, give the same bytes,
and whatever a peer receives is still checked in full."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jupai_net.cards import CANONICAL_DECK
from jupai_net.engine import GameState
from jupai_net.fairness import HostDealer, decode_statement, generate_signing_key, make_seed, seed_commitment
from jupai_net.fairness.statements import StatementError, make_body, public_key_bytes, sign_statement
from jupai_net.protocol import FieldError, Prompt, RemoteProtocolError, Statement, Sync
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup

from .test_protocol_support import HOST_SAMPLES, pair


def a_state() -> GameState:
    rng = random.Random(5)
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    rules = RuleSet()
    return GameState.new(rules, deck, draw_setup(rules, rng))


def test_trusted_messages_equal_checked_ones_on_the_wire():
    state = a_state()
    seat = state.to_move
    pairs = [
        (Sync(state.version, state.observation(seat)), Sync.trusted(state.version, state.observation(seat))),
        (Prompt(state.version, tuple(state.legal_actions()), 5000, "attack"),
         Prompt.trusted(state.version, tuple(state.legal_actions()), 5000, "attack")),
        (Statement("step", b"body", b"s" * 64), Statement.trusted("step", b"body", b"s" * 64)),
    ]
    for checked, trusted in pairs:
        assert trusted == checked
        assert trusted.to_wire(seq=3) == checked.to_wire(seq=3)
    for msg in HOST_SAMPLES.values():  # every kind of host message, also through the cached wire plan
        fields = {f.name: getattr(msg, f.name) for f in dataclasses.fields(msg) if f.name != "seq"}
        assert type(msg).trusted(**fields).to_wire(seq=1) == msg.to_wire(seq=1)


def test_a_trusted_message_skips_the_checks_but_the_peer_still_refuses_it():
    bad = Sync.trusted(1, {"observation": float("nan")})  # the constructor refuses a non-finite number
    with pytest.raises(FieldError):
        Sync(1, {"observation": float("nan")})
    client, host = pair("game")
    client.receive_data(host.send(bad))  # the host does not check its own message again...
    with pytest.raises(RemoteProtocolError, match="observation"):
        client.next_event()  # ...but the client checks everything it receives


def test_checks_are_back_on_after_a_trusted_build_fails():
    with pytest.raises(TypeError):
        Sync.trusted(1)  # missing observation: the build fails inside trusted()
    with pytest.raises(FieldError):
        Sync(1, {"x": float("inf")})  # the next ordinary build checks again


def test_the_dealer_signs_its_own_bodies_unchecked_with_the_same_bytes():
    key = generate_signing_key()
    body = make_body("abandon", b"g" * 16, 0, 3, reason="test", host_seed=None)
    assert sign_statement(key, body, check=False) == sign_statement(key, body)  # Ed25519 is deterministic
    with pytest.raises(StatementError):
        sign_statement(key, {**body, "reason": 5})  # the checked path still refuses a bad body
    # a whole dealt game: every statement the dealer signed unchecked decodes and checks on arrival
    rules = RuleSet(players=2, rounds=2)
    dealer = HostDealer(rules, key)
    seeds = [make_seed(), make_seed()]
    outboxes = [dealer.start()]
    for seat, seed in enumerate(seeds):
        outboxes.append(dealer.commit(seat, seed_commitment(dealer.game_id, seat, seed)) or {})
    for seat, seed in enumerate(seeds):
        outboxes.append(dealer.reveal(seat, seed) or {})
    count = 0
    for out in outboxes:
        for raws in out.values():
            for raw in raws:
                assert decode_statement(raw, dealer.host_key).body["game"] == dealer.game_id  # signature and body checked
                count += 1
    assert count >= 6


def _play_dealer(dealer: HostDealer, seeds: list[bytes], *, unwatch_at: int | None = None,
                 watch_at: int | None = None) -> list[bytes]:
    """Deal and play a whole game on ``dealer`` (first legal action each turn); nobody
    watches the public stream from step ``unwatch_at`` until step ``watch_at``. Returns
    the public statements in the order a spectator gets them."""
    public: list[bytes] = []

    def take(out: dict) -> None:
        public.extend(out.get(None, []))

    if unwatch_at == 0:
        dealer.unwatched()
    take(dealer.start())
    for seat, seed in enumerate(seeds):
        take(dealer.commit(seat, seed_commitment(dealer.game_id, seat, seed)))
    for seat, seed in enumerate(seeds):
        take(dealer.reveal(seat, seed))
    step = 0
    while not dealer.state.is_over:
        step += 1
        if step == unwatch_at:
            dealer.unwatched()
        if step == watch_at:
            public.extend(dealer.watched())
        take(dealer.apply(dealer.state.legal_actions()[0])[1])
    if watch_at is not None and step < watch_at:
        public.extend(dealer.watched())  # a short game (random seeds): the spectator comes at its end
    take(dealer.finish())
    return public


def test_the_public_stream_signed_once_someone_watches_is_the_same_bytes():
    key = generate_signing_key()
    rules = RuleSet(players=2, rounds=2)
    seeds = [make_seed(), make_seed()]
    fixed = {"game_id": b"G" * 16, "host_seed": b"H" * 32}
    eager = _play_dealer(HostDealer(rules, key, spectators=True, **fixed), seeds)
    assert [decode_statement(raw, public_key_bytes(key)).body["n"] for raw in eager] == list(range(len(eager)))
    # unwatched from the start, watched from step 3: nothing public is signed meanwhile,
    # then the kept statements come signed, byte for byte what an eager dealer sends
    lazy = HostDealer(rules, key, spectators=True, **fixed)
    lazy.unwatched()
    assert lazy.start().get(None) is None
    assert _play_dealer(HostDealer(rules, key, spectators=True, **fixed), seeds, unwatch_at=0, watch_at=3) == eager
    # watched, then nobody, then someone again: the same stream
    assert _play_dealer(HostDealer(rules, key, spectators=True, **fixed), seeds, unwatch_at=2, watch_at=5) == eager
    # never watched: nothing public leaves the dealer, the seats' streams are unchanged
    assert _play_dealer(HostDealer(rules, key, spectators=True, **fixed), seeds, unwatch_at=0) == []
    # without a public stream the switch does nothing
    plain = HostDealer(rules, key, **fixed)
    plain.unwatched()
    assert plain.watched() == [] and None not in plain.start()


def test_a_prompt_lists_each_legal_action_as_its_own_wire_map_through_the_cache():
    """The wire maps of the legal actions are made once per action object
    (``messages._action_wire``): whole games of prompts encode as ``to_wire`` of each
    action would, also after the cache starts again, and an equal action built with
    other types (target ``True``) is never served another action's map."""
    from jupai_net.actions import Action
    from protocol import messages

    rng = random.Random(8)
    state = a_state()
    saved = messages._ACTION_WIRE_MAX
    messages._ACTION_WIRE_MAX = 40  # the cache starts again many times in one game
    try:
        while not state.is_over:
            legal = tuple(state.legal_actions())
            wire = Prompt.trusted(state.version, legal).to_wire(seq=1)["legal"]
            assert wire == [a.to_wire() for a in legal]
            assert [[type(x) for x in w.values()] for w in wire] == [[type(x) for x in a.to_wire().values()] for a in legal]
            state.apply(legal[rng.randrange(len(legal))])
    finally:
        messages._ACTION_WIRE_MAX = saved
    canonical = Action("attack", 1, (3,), False, ())
    odd = Action("attack", True, (3,), False, ())
    assert canonical == odd
    assert messages._plain((canonical, odd)) == [canonical.to_wire(), odd.to_wire()]
    assert messages._plain((canonical, odd))[1]["target"] is True


@pytest.mark.parametrize("action, ok", [
    (("attack", 1, (3, 4), False, ()), True),
    (("answer", None, (), False, ()), True),
    (("attack", True, (3,), False, ()), False),  # a bool target
    (("attack", 1.0, (3,), False, ()), False),
    (("attack", 1, (3.0,), False, ()), False),  # a float card
    (("attack", 1, (53,), False, ()), False),
    (("attack", 1, (3,), 1, ()), False),  # weapon 1 for true
    (("fly", 1, (3,), False, ()), False),
    (("attack", 1, [3, 4], False, ()), True),  # a list of cards: the long way, which takes it
])
def test_an_action_field_is_checked_as_before_with_the_exact_types_fast_path(action, ok):
    from jupai_net.actions import Action
    from jupai_net.protocol import ActionMessage

    a = Action(*action)
    assert a.exact() == (ok and type(a.cards) is tuple)
    if ok:
        ActionMessage(b"g" * 16, 3, a)
    else:
        with pytest.raises(FieldError):
            ActionMessage(b"g" * 16, 3, a)


def test_a_serving_host_collects_its_young_generation_less_often():
    """``tune_gc`` (called once the host listens): start-up objects frozen, a young
    generation of HOST_GC_YOUNG; run in a fresh interpreter (it is process-wide)."""
    import subprocess
    import sys

    code = ("import gc; from jupai_net.host.server import tune_gc, HOST_GC_YOUNG; tune_gc(); tune_gc(); "
            "assert gc.get_threshold()[0] == HOST_GC_YOUNG and gc.get_freeze_count() > 1000; print('ok')")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "ok\n"


def test_every_sync_of_whole_games_encodes_as_the_plain_encoding():
    """``Sync.encode`` packs the observation's shared ``log`` and ``players`` entries
    once per entry object: every seat's and the spectator's sync after every action of
    whole games is byte for byte ``encode_frame(to_wire)`` (the engine must not change
    a shared entry in place: this test catches it)."""
    from jupai_net.protocol import encode_frame
    from jupai_net.protocol.limits import MAX_FRAME

    for g in range(3):
        rng = random.Random(100 + g)
        deck = list(CANONICAL_DECK)
        rng.shuffle(deck)
        rules = RuleSet(players=3 + g)
        state = GameState.new(rules, deck, draw_setup(rules, rng))
        seq = 0
        while True:
            for viewer in [*range(rules.players), None]:
                msg = Sync.trusted(state.version, state.observation(viewer))
                seq += 1
                assert msg.encode(seq, MAX_FRAME) == encode_frame(msg.to_wire(seq=seq), MAX_FRAME)
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "log", "players", "b" * 20, "c"]),
                       st.recursive(st.none() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=3) | st.binary(max_size=3),
                                    lambda kids: st.lists(kids, max_size=20) | st.dictionaries(st.text(max_size=2), kids, max_size=18),
                                    max_leaves=40)))
def test_the_shared_packer_gives_msgpacks_bytes_for_any_map(value):
    import msgpack

    from jupai_net.protocol.framing import SharedPacker

    packer = SharedPacker(frozenset({"log", "players"}), size=2)
    for _ in range(3):  # again: from the cache
        assert packer.pack_map(value) == msgpack.packb(value, use_bin_type=True)


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[a-z][a-z0-9_.-]{0,31}", fullmatch=True), st.binary(min_size=1, max_size=70_000),
       st.binary(max_size=256), st.integers(0, 2**32))
def test_a_statement_encodes_as_the_plain_encoding(kind, body, sig, seq):
    """``Statement.encode`` (one msgpack call, sent to every seat after every action) is
    byte for byte ``encode_frame(to_wire)``, for every size class of body and signature."""
    from jupai_net.protocol import Statement, encode_frame
    from jupai_net.protocol.limits import MAX_FRAME

    msg = Statement.trusted(kind, body, sig)
    assert msg.encode(seq, MAX_FRAME) == encode_frame(msg.to_wire(seq=seq), MAX_FRAME)
