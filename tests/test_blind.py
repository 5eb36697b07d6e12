"""Dealer-blind dealing, the honest path (specs/fairness.md Part B):
card points, commutativity, whole deals of 2–6 players that open and audit, shuffle
proofs, and the uniformity of the blind deck."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupai_net.fairness.blind import (
    ORDER,
    BlindError,
    CardTable,
    ParticipantSecrets,
    card_point,
    check_shuffle_proof,
    initial_deck,
    is_point,
    mul,
    table_participants,
    unlock,
)
from jupai_net.fairness.blind_ledger import run_deal
from jupai_net.fairness.primitives import HOST_SEAT

GID = bytes(range(16))


def test_card_points_are_distinct_curve_points_from_the_labelled_hash():
    points = [card_point(c) for c in range(53)]
    assert len(set(points)) == 53
    for c, x in enumerate(points):
        assert is_point(x)
        # the first counter whose hash is a curve point (independent check of try-and-increment)
        ctr = next(i for i in range(256) if is_point(hashlib.sha256(b"jupai/v1/blind/card\x00" + bytes([c, i])).digest()))
        assert x == hashlib.sha256(b"jupai/v1/blind/card\x00" + bytes([c, ctr])).digest()
    # not i·G: card 1's point is not the generator's x
    g = ec.derive_private_key(1, ec.SECP256R1()).public_key().public_numbers().x.to_bytes(32, "big")
    assert g not in points


def test_scalar_multiplication_commutes_and_inverts():
    x = card_point(7)
    a, b = 0x1234567890ABCDEF, ORDER - 12345
    assert mul(mul(x, a), b) == mul(mul(x, b), a)
    assert unlock(mul(mul(x, a), b), [a, b]) == x
    with pytest.raises(BlindError):
        mul(x, 0)
    with pytest.raises(BlindError):
        mul(b"\xff" * 32, 3)  # above the field prime: not a point


def test_participants_host_first_then_seats():
    assert table_participants(4) == (HOST_SEAT, 0, 1, 2, 3)
    with pytest.raises(BlindError):
        table_participants(7)


def test_secrets_are_deterministic_per_seed_and_distinct_per_participant():
    seed = bytes(32)
    a, b, c = ParticipantSecrets(GID, 0, seed), ParticipantSecrets(GID, 0, seed), ParticipantSecrets(GID, 1, seed)
    assert (a.pass_key, a.permutation, a.lock_key(3)) == (b.pass_key, b.permutation, b.lock_key(3))
    assert a.pass_key != c.pass_key and a.lock_key(3) != c.lock_key(3)
    assert sorted(a.permutation) == list(range(53))


def _open_everything(people, ledger):
    """Open every position to each seat in turn (round robin), then make it public."""
    seats = [p for p in people if p.pid != HOST_SEAT]
    got = {}
    for q in range(ledger.size):
        holder = seats[q % len(seats)]
        ledger.request(q, holder.pid)
        for p in people:
            if p.pid != holder.pid:
                ledger.receive(p.keys([(q, holder.pid)]))
        got[q] = holder.open(ledger, q)
    return got


@pytest.mark.parametrize("players", [2, 6])
def test_full_deal_opens_every_card_once_and_audits(players):
    people, ledger, _ = run_deal(GID, table_participants(players))
    got = _open_everything(people, ledger)
    assert sorted(got.values()) == list(range(53))
    for p in people:
        ledger.receive(p.seed())
    assert ledger.audit() == [got[q] for q in range(53)]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), size=st.integers(2, 20), seed=st.binary(min_size=16, max_size=16))
def test_honest_blind_deals_always_verify(players, size, seed):
    people, ledger, _ = run_deal(seed, table_participants(players), size=size)
    # a public card: everyone's key, including the holder's
    ledger.request(0, None)
    for p in people:
        ledger.receive(p.keys([(0, None)]))
    public = ledger.open_public(0)
    for p in people:
        ledger.receive(p.seed())
    deck = ledger.audit()
    assert sorted(deck) == list(range(size))
    assert deck[0] == public


def test_shuffle_proofs_verify_for_honest_passes():
    people, ledger, _ = run_deal(GID, table_participants(2), size=8, proof_rounds=12)
    for i, p in enumerate(people):
        proof = p.secrets.prove(i, ledger.decks[i], ledger.decks[i + 1], 12)
        check_shuffle_proof(GID, p.pid, i, ledger.decks[i], ledger.decks[i + 1], proof, 12)
        with pytest.raises(BlindError):  # bound to its pass number
            check_shuffle_proof(GID, p.pid, i + 1, ledger.decks[i], ledger.decks[i + 1], proof, 12)


def test_opening_reveals_nothing_without_the_holders_key():
    """Everyone but the holder pools its keys: what remains is x(l_S·M), a point that
    is no card point (it would take the holder's lock to test a candidate)."""
    people, ledger, _ = run_deal(GID, table_participants(3))
    ledger.request(5, 1)
    others = [p for p in people if p.pid != 1]
    for p in others:
        ledger.receive(p.keys([(5, 1)]))
    pooled = unlock(ledger.deck[5], list(ledger.revealed[(5, 1)].values()))
    assert CardTable().card(pooled) is None
    holder = next(p for p in people if p.pid == 1)
    card = holder.open(ledger, 5)
    assert mul(card_point(card), holder.secrets.lock_key(5)) == pooled


def test_blind_deck_is_uniform_chi_square():
    """Position of each card of a 3-card deck over 360 blind deals (3 participants):
    χ² on 4 degrees of freedom under 18.47 (p = 0.001). Each deal goes through the real
    passes, re-locks and openings."""
    size, deals = 3, 360
    counts = [[0] * size for _ in range(size)]
    table = CardTable(size)
    for d in range(deals):
        gid = d.to_bytes(16, "big")
        parts = [ParticipantSecrets(gid, pid, hashlib.sha256(bytes([pid]) + gid).digest(), size=size) for pid in (HOST_SEAT, 0, 1)]
        deck = initial_deck(size)
        for p in parts:
            deck = p.shuffle(deck)
        for p in parts:
            deck = p.relock(deck)
        for q in range(size):
            counts[table.card(unlock(deck[q], [p.lock_key(q) for p in parts]))][q] += 1
    expected = deals / size
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert chi2 < 18.47, (chi2, counts)


@pytest.mark.parametrize("players", [2, 5])
def test_deal_openings_are_what_the_engine_shows_each_seat(players):
    """The public schedule of the deal (layout only) opens to each seat exactly the cards
    the rules engine, built from the audited blind deck, shows it at the start."""
    import random

    from jupai_net.engine import GameState
    from jupai_net.fairness.blind_schedule import deal_openings
    from jupai_net.rules import RuleSet
    from jupai_net.setup import draw_setup

    rules = RuleSet(players=players)
    people, ledger, _ = run_deal(GID, table_participants(players))
    openings = deal_openings(rules)
    by_pid = {p.pid: p for p in people}
    for q, to in openings:
        ledger.request(q, to)
    for p in people:
        ledger.receive(p.keys([(q, to) for q, to in openings if to != p.pid]))
    got = {(q, to): (ledger.open_public(q) if to is None else by_pid[to].open(ledger, q)) for q, to in openings}
    for p in people:
        ledger.receive(p.seed())
    state = GameState.new(rules, ledger.audit(), draw_setup(rules, random.Random(1)))
    public = {c for (q, to), c in got.items() if to is None}
    assert public == set(state.known_cards(None))
    for s in range(players):
        assert {c for (q, to), c in got.items() if to == s} | public == set(state.known_cards(s))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ledger_refuses_any_garbage_with_a_blind_error(data):
    """Bad input from the network: a mutated or made-up message (signed by a real
    participant key, so the checks after the signature run too) is a BlindError with a
    reason, never another exception."""
    import msgpack

    from jupai_net.fairness.blind_ledger import BlindLedger, sign_message

    people, deal_msgs, extra = _FUZZ
    raw = data.draw(st.sampled_from(deal_msgs + extra))
    mode = data.draw(st.sampled_from(["flip", "cut", "random", "body"]))
    if mode == "flip":
        i = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:i] + bytes([raw[i] ^ data.draw(st.integers(1, 255))]) + raw[i + 1 :]
    elif mode == "cut":
        raw = raw[: data.draw(st.integers(0, len(raw) - 1))]
    elif mode == "random":
        raw = data.draw(st.binary(max_size=200))
    else:
        leaf = st.one_of(st.none(), st.integers(-5, 300), st.binary(max_size=40), st.text(max_size=5))
        author = data.draw(st.sampled_from(people))
        kind = data.draw(st.sampled_from(["hello", "shuffle", "relock", "keys", "seed", "x"]))
        body = {"v": 1, "kind": kind, "game": GID, "from": author.pid, "n": author._n}
        for f in data.draw(st.lists(st.sampled_from(["seed_commitment", "key", "deck", "proof", "locks", "keys", "seed"]), max_size=3, unique=True)):
            body[f] = data.draw(st.one_of(leaf, st.lists(st.one_of(leaf, st.lists(leaf, max_size=3)), max_size=4)))
        raw = sign_message(author._key, body)
    fresh = BlindLedger(GID, [p.pid for p in people], size=6)
    for m in deal_msgs:
        fresh.receive(m)
    fresh.request(0, 0)
    with pytest.raises(BlindError) as e:
        fresh.receive(raw)
    assert e.value.reason


def _fuzz_setup():
    people, ledger, msgs = run_deal(GID, table_participants(2), size=6)
    ledger.request(0, 0)
    return people, msgs, [people[0].keys([(0, 0)]), people[1].seed()]


_FUZZ = _fuzz_setup()


def test_participant_resumes_from_its_saved_state_after_a_lost_connection():
    """A seat's client saves its blind state; a new process resumes it and its next key
    message is accepted (same keys, next sequence number). Junk is refused clearly."""
    from jupai_net.fairness.blind_ledger import BlindParticipant

    people, ledger, _ = run_deal(GID, table_participants(2), size=8)
    saved = people[1].save()
    back = BlindParticipant.resume(saved)
    ledger.request(3, 1)
    ledger.receive(back.keys([(3, 1)]))
    ledger.receive(people[0].keys([(3, 1)]))
    assert people[2].open(ledger, 3) in range(8)
    for junk in (b"", b"\x90", saved[:-3], b"\x97" + b"\xc0" * 7):
        with pytest.raises(BlindError, match="not a saved blind participant"):
            BlindParticipant.resume(junk)


def test_card_counters_table_is_what_the_search_finds():
    """The 53 counters the scheme ships (CARD_COUNTERS, B.3) are the ones try-and-increment
    finds, and a card id beyond them (a bigger test deck) is still searched."""
    from jupai_net.fairness.blind import CARD_COUNTERS, hash_to_curve, search_card_point

    assert len(CARD_COUNTERS) == 53
    for c in range(53):
        assert hash_to_curve(c) == search_card_point(c) and search_card_point(c)[0] == CARD_COUNTERS[c]
    assert hash_to_curve(200) == search_card_point(200) and is_point(hash_to_curve(200)[1])


def test_work_done_ahead_sends_the_same_bytes():
    """What a program computes while it waits (the first shuffle during the hellos, the
    re-lock's keys and commitments, the decks' points the ledger keeps) changes no byte
    of any message: a participant that did it all ahead and one that did nothing ahead,
    same seed and signing key, send identical passes, and the ledger accepts them."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from jupai_net.fairness.blind_actor import BlindActor
    from jupai_net.fairness.blind_ledger import BlindLedger, BlindParticipant

    pids = table_participants(2)
    keys = [Ed25519PrivateKey.generate() for _ in pids]
    seeds = [bytes([i + 1]) * 32 for i in range(len(pids))]

    def people():
        return [BlindParticipant(GID, pid, seed=s, signing_key=k) for pid, s, k in zip(pids, seeds, keys)]

    eager, lazy = people(), people()
    actors = [BlindActor([p]) for p in eager]
    ledger, plain = BlindLedger(GID, pids), BlindLedger(GID, pids)
    hellos = [p.hello() for p in eager]
    assert hellos == [p.hello() for p in lazy]
    ledger.receive(hellos[0])
    actors[0].ahead(ledger)  # the host's shuffle before the last hello
    assert eager[0].secrets._shuffled is not None
    ledger.receive(hellos[1])
    ledger.receive(hellos[2])
    for h in hellos:
        plain.receive(h)
    while ledger.phase != "dealt":
        sent = [m for a in actors for m in a.react(ledger)]
        assert len(sent) == 1
        turn = len(plain.decks) - 1
        who = lazy[turn % len(pids)]
        expected = who.shuffle(turn, plain.deck) if turn < len(pids) else who.relock(plain.deck)
        assert sent[0] == expected
        ledger.receive(sent[0])
        plain.receive(expected)
        for a in actors:
            a.prepare(ledger)
    assert ledger.decks == plain.decks
