"""Fairness primitives, statements, transcripts and the dealer/witness flow
(specs/fairness.md §3–§8)."""

from __future__ import annotations

import hashlib
import random

import pytest

from jupai_net.actions import Action
from jupai_net.cards import DECK_SIZE
from jupai_net.engine import IllegalAction
from jupai_net.fairness import (
    HOST_SEAT,
    CardReveal,
    DealerError,
    Drbg,
    FairnessError,
    HostDealer,
    SeatWitness,
    StatementError,
    Transcript,
    TranscriptError,
    VERIFIED,
    WitnessError,
    card_commitment,
    card_salt,
    check_private_reveal,
    check_public_reveal,
    check_seed,
    decode_statement,
    decode_transcript,
    deck_commitments,
    derive_deal,
    key_fingerprint,
    make_game_id,
    make_seed,
    public_key_bytes,
    seed_commitment,
    sign_statement,
    signing_key_from_bytes,
    signing_key_to_bytes,
    generate_signing_key,
    verify_transcript,
)
from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.statements import make_body, split_statement
from jupai_net.rules import RuleSet
from jupai_net.setup import hand_positions

GID = bytes(range(16))
KEY = signing_key_from_bytes(bytes([3]) * 32)


# ------------------------------------------------------------------ seeds and commitments


def test_seeds_and_game_ids_come_from_the_os_csprng(monkeypatch):
    import secrets

    assert len(make_seed()) == 32 and len(make_game_id()) == 16
    assert make_seed() != make_seed()
    calls = []
    monkeypatch.setattr(secrets, "token_bytes", lambda n: calls.append(n) or bytes(n))
    assert make_seed() == bytes(32) and calls == [32]


def test_fairness_code_never_uses_the_random_module():
    import pathlib

    import jupai_net.fairness as pkg

    root = pathlib.Path(pkg.__file__).parent
    for path in root.glob("*.py"):
        if path.name == "selfplay.py":  # bots pick actions there, never cards
            continue
        text = path.read_text()
        assert "import random" not in text and "from random" not in text, path.name


def test_seed_commitment_encoding_byte_for_byte():
    seed = bytes([7]) * 32
    want = hashlib.sha256(b"jupai/v1/seed\x00" + GID + bytes([2]) + seed).digest()
    assert seed_commitment(GID, 2, seed) == want
    host = hashlib.sha256(b"jupai/v1/seed\x00" + GID + b"\xff" + seed).digest()
    assert seed_commitment(GID, HOST_SEAT, seed) == host
    check_seed(GID, 2, seed, want)
    with pytest.raises(FairnessError, match="seat 2 seed does not match"):
        check_seed(GID, 2, bytes(32), want)
    with pytest.raises(FairnessError):
        check_seed(GID, 3, seed, want)  # bound to the seat
    with pytest.raises(FairnessError):
        check_seed(bytes(16), 2, seed, want)  # bound to the game
    with pytest.raises(FairnessError, match="32 bytes"):
        check_seed(GID, 2, b"short", want)
    for bad in ((b"x", 0, seed), (GID, 6, seed), (GID, True, seed), (GID, 0, b"x" * 31)):
        with pytest.raises(FairnessError):
            seed_commitment(*bad)


def test_card_commitment_encoding_byte_for_byte():
    salt = card_salt(GID, bytes([5]) * 32, 17)
    assert len(salt) == 32 and salt != card_salt(GID, bytes([5]) * 32, 18)
    want = hashlib.sha256(b"jupai/v1/card\x00" + GID + bytes([17, 40]) + salt).digest()
    assert card_commitment(GID, 17, 40, salt) == want
    for bad in ((GID, 53, 0, salt), (GID, 0, 53, salt), (GID, 0, 0, b"s"), (GID, -1, 0, salt)):
        with pytest.raises(FairnessError):
            card_commitment(*bad)
    with pytest.raises(FairnessError):
        deck_commitments(GID, [0, 1], [salt, salt])


def test_private_and_public_reveal_checks_name_the_reason():
    host = bytes([5]) * 32
    deal = derive_deal(RuleSet(), GID, host, [bytes([s]) * 32 for s in range(4)])
    cs = deck_commitments(GID, deal.deck, deal.salts)
    good = CardReveal(9, deal.deck[9], deal.salts[9])
    check_private_reveal(GID, cs, good, seat=0, addressed_to=0)
    check_public_reveal(GID, cs, good)
    with pytest.raises(FairnessError, match="addressed to seat 1") as e:
        check_private_reveal(GID, cs, good, seat=0, addressed_to=1)
    assert e.value.position == 9
    swapped = CardReveal(9, deal.deck[10], deal.salts[9])
    with pytest.raises(FairnessError, match="position 9 .* does not match the commitment") as e:
        check_public_reveal(GID, cs, swapped)
    assert e.value.position == 9 and e.value.expected == cs[9].hex()
    with pytest.raises(FairnessError, match="changed salt"):
        check_private_reveal(GID, cs, CardReveal(9, deal.deck[9], bytes(32)), seat=0, addressed_to=0)
    with pytest.raises(FairnessError):
        CardReveal.from_wire([1, 2])
    assert CardReveal.from_wire(good.to_wire()) == good


def test_drbg_rejection_sampling():
    d = Drbg(bytes(32))
    assert d.randrange(1) == 0 and d.consumed == 0  # n == 1 reads nothing
    assert all(0 <= d.randrange(53) < 53 for _ in range(500))
    with pytest.raises(ValueError):
        d.randrange(0)
    with pytest.raises(ValueError):
        d.randrange(True)
    big = d.randrange(2**70)
    assert 0 <= big < 2**70
    # determinism and independence of labels
    a = Drbg.for_label(GID, bytes(32), [bytes(32)], "deck").read(64)
    b = Drbg.for_label(GID, bytes(32), [bytes(32)], "deck").read(64)
    c = Drbg.for_label(GID, bytes(32), [bytes(32)], "setup").read(64)
    assert a == b and a != c


def test_drbg_stream_is_chacha20_rfc8439():
    # RFC 8439 Appendix A.1, test vector #1: all-zero key and nonce, block counter 0.
    want = bytes.fromhex(
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
    )
    assert Drbg(bytes(32)).read(64) == want
    # chunked reads give the same stream, across the internal buffer boundary
    key = bytes(range(32))
    whole = Drbg(key).read(600)
    d2 = Drbg(key)
    assert b"".join(d2.read(n) for n in (1, 2, 3, 250, 44, 300)) == whole
    assert d2.consumed == 600


def test_deal_is_deterministic_and_setup_is_drawn_from_the_drbg():
    rules = RuleSet(random_specials=True)
    seeds = [bytes([s]) * 32 for s in range(4)]
    d1 = derive_deal(rules, GID, bytes(32), seeds)
    d2 = derive_deal(rules, GID, bytes(32), seeds)
    assert d1 == d2 and sorted(d1.deck) == list(range(DECK_SIZE))
    assert sorted(d1.setup.identities) == sorted("LCFN")
    setups = {derive_deal(rules, GID, bytes([h]) * 32, seeds).setup for h in range(30)}
    assert len(setups) > 10
    assert len({s.supply_number for s in setups}) > 3


def test_key_fingerprint_and_key_bytes():
    k = generate_signing_key()
    raw = signing_key_to_bytes(k)
    assert public_key_bytes(signing_key_from_bytes(raw)) == public_key_bytes(k)
    fp = key_fingerprint(public_key_bytes(k))
    assert len(fp) == 24 and fp.count("-") == 4
    assert fp != key_fingerprint(public_key_bytes(KEY))


# ------------------------------------------------------------------ statements


def test_statement_roundtrip_and_signature():
    body = make_body("commitments", GID, 1, 1, commitments=[bytes(32)] * 4)
    raw = sign_statement(KEY, body)
    st = decode_statement(raw, public_key_bytes(KEY))
    assert st.kind == "commitments" and st.to == 1 and st.n == 1 and st.game_id == GID
    assert st["commitments"] == [bytes(32)] * 4
    with pytest.raises(StatementError) as e:
        decode_statement(raw, public_key_bytes(generate_signing_key()))
    assert e.value.signature
    with pytest.raises(StatementError, match="first statement must be 'start'"):
        decode_statement(raw, None)
    with pytest.raises(StatementError, match="cut short"):
        split_statement(raw[:-3])
    # the wire protocol may carry body and signature as two fields
    from jupai_net.fairness import join_statement, peek_kind

    assert join_statement(*split_statement(raw)) == raw
    assert peek_kind(raw) == "commitments"
    with pytest.raises(StatementError):
        peek_kind(join_statement(b"\x92\x01\x02", bytes(64)))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"v": 4}, "version"),
        ({"kind": "bogus"}, "unknown statement kind"),
        ({"game": b"x"}, "'game'"),
        ({"to": 9}, "'to'"),
        ({"n": -1}, "'n'"),
        ({"extra": 1}, "unknown field"),
        ({"commitments": [b"x"]}, "'commitments'"),
    ],
)
def test_statement_schema_errors_name_the_field(change, message):
    body = make_body("commitments", GID, 0, 1, commitments=[bytes(32)] * 4)
    body.update(change)
    with pytest.raises(StatementError, match=message):
        sign_statement(KEY, body)


def test_statement_missing_field():
    body = make_body("end", GID, 0, 9, host_seed=bytes(32), ranking=[0, 1], winner=None)
    del body["winner"]
    with pytest.raises(StatementError, match="lacks field"):
        sign_statement(KEY, body)


# ------------------------------------------------------------------ transcript file


def test_transcript_roundtrip_and_errors():
    t = Transcript(2, bytes(32), (b"a", b"b"), None)
    assert decode_transcript(t.encode()) == t
    assert decode_transcript(Transcript(None, None, (), "gone").encode()).host_gone == "gone"
    for bad in (
        Transcript(2, None, (), None),
        Transcript(9, bytes(32), (), None),
        Transcript(1, b"x", (), None),
    ):
        with pytest.raises(TranscriptError):
            decode_transcript(bad.encode())
    with pytest.raises(TranscriptError) as e:
        decode_transcript(t.encode()[:-1])
    assert e.value.truncated
    with pytest.raises(TranscriptError):
        decode_transcript("text")  # type: ignore[arg-type]


# ------------------------------------------------------------------ dealer and witness flow


def test_full_game_flow_with_bots_and_spectator():
    sp = play_game(RuleSet(), rng_seed=1, key=KEY)
    d = sp.dealer
    assert d.phase == "ended" and d.state.is_over
    for viewer, w in sp.witnesses.items():
        assert w.finished and w.violation is None
        assert w.verify().status == VERIFIED
        assert w.fingerprint == d.fingerprint
    # each seat was shown exactly the cards the engine let it know, checked against commitments
    for s in range(4):
        shown = sp.witnesses[s].revealed
        assert set(shown.values()) == set(d.state.known_cards(s))
        assert all(d.deal.deck[k] == c for k, c in shown.items())
        for k in hand_positions(d.rules, s):
            assert k in shown
        for other in range(4):
            if other != s:
                hidden = set(hand_positions(d.rules, other)) - set(shown)
                assert all(d.deal.deck[k] not in d.state.known_cards(s) for k in hidden)
    assert set(sp.witnesses[None].revealed.values()) == set(d.state.known_cards(None))


def test_every_card_named_in_an_action_is_public_after_it():
    # The step statement carries the action to every viewer, so its cards must be public.
    sp = play_game(RuleSet(), rng_seed=2, key=KEY, spectators=False)
    state = sp.dealer.state
    for a in state.history:
        assert set(a.cards) | set(a.recovered) <= state.known_cards(None)


def test_dealer_calls_out_of_order_and_bad_inputs():
    rules = RuleSet(players=2)
    d = HostDealer(rules, KEY)
    with pytest.raises(DealerError):
        d.commit(0, bytes(32))
    d.start()
    with pytest.raises(DealerError):
        d.start()
    with pytest.raises(DealerError, match="32 bytes"):
        d.commit(0, b"x")
    with pytest.raises(DealerError, match="no seat"):
        d.commit(2, bytes(32))
    w0, w1 = SeatWitness(0), SeatWitness(1)
    assert d.commit(0, seed_commitment(d.game_id, 0, w0.seed)) == {}
    with pytest.raises(DealerError, match="already committed"):
        d.commit(0, bytes(32))
    with pytest.raises(DealerError):
        d.reveal(0, w0.seed)
    out = d.commit(1, seed_commitment(d.game_id, 1, w1.seed))
    assert [len(out[v]) for v in (0, 1)] == [1, 1]
    with pytest.raises(DealerError, match="does not match"):
        d.reveal(0, w1.seed)
    assert d.reveal(0, w0.seed) == {}
    with pytest.raises(DealerError, match="already revealed"):
        d.reveal(0, w0.seed)
    with pytest.raises(DealerError):
        d.finish()  # not dealt yet
    out = d.reveal(1, w1.seed)
    assert [len(out[v]) for v in (0, 1)] == [2, 2]  # seeds + deal
    with pytest.raises(DealerError, match="not over"):
        d.finish()
    n_before = dict(d._n)
    with pytest.raises(IllegalAction):
        d.apply(Action("answer"))
    assert d._n == n_before  # nothing emitted for an illegal action


def test_bots_only_table():
    rules = RuleSet(players=3)
    d = HostDealer(rules, KEY)
    d.start()
    assert d.commit_bot(0) == {} and d.commit_bot(1) == {}
    out = d.commit_bot(2)
    assert [len(out[s]) for s in range(3)] == [3, 3, 3]  # commitments, seeds, deal
    assert d.phase == "playing"


def test_witness_refuses_to_reveal_early_and_spectators_have_no_seed():
    d = HostDealer(RuleSet(players=2), KEY, spectators=True)
    w, spec = SeatWitness(0), SeatWitness(None)
    with pytest.raises(WitnessError):
        w.commitment
    out = d.start()
    w.receive(out[0][0])
    spec.receive(out[None][0])
    assert w.commitment == seed_commitment(d.game_id, 0, w.seed)
    with pytest.raises(WitnessError, match="after the 'commitments'"):
        w.seed_reveal()
    with pytest.raises(WitnessError):
        spec.commitment
    with pytest.raises(WitnessError):
        spec.seed_reveal()
    assert w.rules == RuleSet(players=2) and w.host_key == d.host_key


def test_dealer_statement_streams_are_sequenced_per_viewer():
    sp = play_game(RuleSet(players=2, rounds=2), rng_seed=3, key=KEY)
    per_viewer: dict = {}
    for viewer, raw in sp.log:
        body = decode_statement(raw, sp.dealer.host_key).body
        assert body["to"] == viewer
        per_viewer.setdefault(viewer, []).append(body["n"])
    for ns in per_viewer.values():
        assert ns == list(range(len(ns)))


def test_random_rules_games_verify():
    rng = random.Random(4)
    for players in (2, 3, 5, 6):
        rules = RuleSet(players=players, rounds=rng.randint(1, 6), hidden_identities=rng.random() < 0.5,
                        random_specials=rng.random() < 0.5, same_identity=rng.choice(["shared-role", "matching-card"]))
        sp = play_game(rules, rng_seed=players, key=KEY)
        for viewer in list(range(players)) + [None]:
            assert verify_transcript(sp.transcript(viewer)).status == VERIFIED
