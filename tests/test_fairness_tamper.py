"""Every kind of tampering is caught, with the right status and a precise reason
(specs/fairness.md §9, issue 3)."""

from __future__ import annotations

import random

import msgpack
import pytest

from jupai_net.fairness import dealer as dealer_mod
from jupai_net.fairness import (
    MALFORMED,
    SUSPICIOUS,
    TAMPERED,
    UNVERIFIED,
    VERIFIED,
    Deal,
    FairnessViolation,
    Transcript,
    decode_transcript,
    derive_deal,
    sign_statement,
    signing_key_from_bytes,
    verify_transcript,
)
from jupai_net.fairness.forge import relinked
from jupai_net.fairness.selfplay import deliver, play_game
from jupai_net.fairness.statements import split_statement, unpack
from jupai_net.cards import card_name
from jupai_net.rules import RuleSet
from jupai_net.setup import hand_positions, stock_start

KEY = signing_key_from_bytes(bytes(range(32)))
RULES = RuleSet()
GAME_A = bytes.fromhex("a0" * 16)
GAME_B = bytes.fromhex("b0" * 16)
SEEDS = [bytes([10 + s]) * 32 for s in range(RULES.players)]
HOST_SEED = bytes([99]) * 32


def honest(game_id: bytes = GAME_A, rng_seed: int = 5, **kw):
    return play_game(RULES, rng_seed=rng_seed, key=KEY, game_id=game_id, host_seed=HOST_SEED, seat_seeds=SEEDS, **kw)


@pytest.fixture(scope="module")
def game():
    sp = honest()
    assert sp.dealer.state.is_over
    return sp


@pytest.fixture(scope="module")
def t0(game) -> Transcript:
    return decode_transcript(game.transcript(0))


def body(raw: bytes) -> dict:
    return unpack(split_statement(raw)[0])


def resign(raw: bytes, mutate) -> bytes:
    b = body(raw)
    mutate(b)
    return sign_statement(KEY, b)


def rebuild(t: Transcript, statements=None, **kw) -> bytes:
    """The transcript with ``statements``, as a hostile host holding the key sends them:
    every later link of the hash chain fitted again and re-signed (specs/fairness.md §6.5)."""
    statements = relinked(statements if statements is not None else t.statements, KEY)
    return Transcript(kw.get("seat", t.seat), kw.get("seed", t.seed), tuple(statements), kw.get("host_gone", t.host_gone)).encode()


def replaced(t: Transcript, i: int, new: bytes) -> bytes:
    s = list(t.statements)
    s[i] = new
    return rebuild(t, s)


def kinds(t: Transcript) -> list[str]:
    return [body(r)["kind"] for r in t.statements]


def first_index(t: Transcript, pred) -> int:
    for i, raw in enumerate(t.statements):
        if pred(body(raw)):
            return i
    raise AssertionError("no such statement")


# ------------------------------------------------------------------ honest baseline


def test_honest_transcripts_verify_for_every_viewer(game):
    for viewer in list(range(RULES.players)) + [None]:
        v = verify_transcript(game.transcript(viewer))
        assert v.status == VERIFIED, v
        assert v.exit_code == 0 and v.ok
        assert v.seat == viewer and v.game_id == GAME_A.hex()


def test_layout_of_a_seat_stream(t0):
    k = kinds(t0)
    assert k[:4] == ["start", "commitments", "seeds", "deal"]
    assert k[-1] == "end" and set(k[4:-1]) == {"step"}


# ------------------------------------------------------------------ cards swapped


def test_two_cards_swapped_by_the_host_is_caught_at_the_right_position(monkeypatch):
    a, b = hand_positions(RULES, 0)[0], hand_positions(RULES, 1)[0]

    def cheating(rules, game_id, host_seed, seeds):
        d = derive_deal(rules, game_id, host_seed, seeds)
        deck = list(d.deck)
        deck[a], deck[b] = deck[b], deck[a]
        return Deal(tuple(deck), d.setup, d.salts)

    monkeypatch.setattr(dealer_mod, "derive_deal", cheating)
    sp = honest()  # every reveal matches the (dishonest) commitments, so nothing is seen during play
    assert all(w.violation is None for w in sp.witnesses.values())
    real = derive_deal(RULES, GAME_A, HOST_SEED, SEEDS).deck
    v = verify_transcript(sp.transcript(0))
    assert v.status == TAMPERED and v.exit_code == 3
    assert (v.message, v.kind, v.position) == (3, "deal", a)
    assert v.expected == f"{card_name(real[a])} (id {real[a]})"
    assert v.found == f"{card_name(real[b])} (id {real[b]})"
    assert f"commitment to position {a} is for {card_name(real[b])}" in v.reason


def test_card_swapped_after_the_deal_is_caught_at_once(t0, game):
    i = 3
    k = hand_positions(RULES, 0)[0]
    other = game.dealer.deal.deck[hand_positions(RULES, 1)[0]]

    def mutate(b):
        for r in b["private"]:
            if r[0] == k:
                r[1] = other

    data = replaced(t0, i, resign(t0.statements[i], mutate))
    v = verify_transcript(data)
    assert v.status == TAMPERED and (v.message, v.position) == (3, k)
    assert "private reveal of position" in v.reason and "does not match the commitment" in v.reason


# ------------------------------------------------------------------ salts and commitments


def test_one_salt_changed_is_caught_at_once_by_the_witness(t0):
    k = hand_positions(RULES, 0)[2]

    def mutate(b):
        for r in b["private"]:
            if r[0] == k:
                r[2] = bytes([r[2][0] ^ 1]) + r[2][1:]

    bad = resign(t0.statements[3], mutate)
    from jupai_net.fairness import SeatWitness

    w = SeatWitness(0, t0.seed)
    for raw in t0.statements[:3]:
        w.receive(raw)
    with pytest.raises(FairnessViolation) as exc:
        w.receive(bad)
    assert exc.value.verdict.position == k and exc.value.verdict.message == 3
    with pytest.raises(FairnessViolation):  # stays failed
        w.receive(t0.statements[4])
    v = verify_transcript(w.transcript())
    assert v.status == TAMPERED and (v.message, v.position) == (3, k)
    assert "changed salt" in v.reason


def test_commitment_changed_for_an_unseen_position_is_caught_after_the_seed_reveal(t0, game):
    seen = set(game.witnesses[0].revealed)
    k = next(p for p in range(53) if p not in seen)

    def mutate(b):
        b["commitments"][k] = bytes(32)

    data = replaced(t0, 3, resign(t0.statements[3], mutate))
    v = verify_transcript(data)
    assert v.status == TAMPERED and (v.message, v.kind, v.position) == (3, "deal", k)
    assert "no card with this position's salt" in v.reason


def test_commitment_changed_for_a_seen_position_is_caught_at_once(t0):
    k = hand_positions(RULES, 0)[1]

    def mutate(b):
        b["commitments"][k] = bytes(32)

    v = verify_transcript(replaced(t0, 3, resign(t0.statements[3], mutate)))
    assert v.status == TAMPERED and (v.message, v.position) == (3, k)
    assert "does not match the commitment" in v.reason


def test_salt_of_an_unrevealed_position_swapped_with_a_valid_card_commitment(t0, game):
    # the host commits position k with a salt not derived from its seed: caught at the end
    from jupai_net.fairness import card_commitment

    seen = set(game.witnesses[0].revealed)
    k = next(p for p in range(53) if p not in seen)
    card = game.dealer.deal.deck[k]

    def mutate(b):
        b["commitments"][k] = card_commitment(GAME_A, k, card, bytes(32))

    v = verify_transcript(replaced(t0, 3, resign(t0.statements[3], mutate)))
    assert v.status == TAMPERED and v.position == k and "no card with this position's salt" in v.reason


# ------------------------------------------------------------------ seeds


def test_host_seed_changed_in_the_end_statement(t0):
    last = len(t0.statements) - 1

    def mutate(b):
        b["host_seed"] = bytes([1]) * 32

    v = verify_transcript(replaced(t0, last, resign(t0.statements[last], mutate)))
    assert v.status == TAMPERED and (v.message, v.kind) == (last, "end")
    assert "host seed does not match its commitment" in v.reason


def test_a_seat_seed_changed_in_the_seeds_statement(t0):
    def mutate(b):
        b["seeds"][2] = bytes([7]) * 32

    v = verify_transcript(replaced(t0, 2, resign(t0.statements[2], mutate)))
    assert v.status == TAMPERED and (v.message, v.kind) == (2, "seeds")
    assert "seat 2 seed does not match its commitment" in v.reason


def test_own_seed_in_the_file_changed(t0):
    v = verify_transcript(rebuild(t0, seed=bytes(32)))
    assert v.status == TAMPERED and v.message == 1
    assert "commitment announced for seat 0 is not this seat's" in v.reason


def test_host_substitutes_this_seats_commitment_is_caught_at_once(t0):
    def mutate(b):
        b["commitments"][0] = bytes(32)

    from jupai_net.fairness import SeatWitness, WitnessError

    w = SeatWitness(0, t0.seed)
    w.receive(t0.statements[0])
    with pytest.raises(FairnessViolation):
        w.receive(resign(t0.statements[1], mutate))
    with pytest.raises(WitnessError):
        w.seed_reveal()  # never reveal the seed to a host that broke the protocol


# ------------------------------------------------------------------ replay across games


def test_commitment_and_seed_replayed_from_another_game(t0):
    other = decode_transcript(honest(game_id=GAME_B).transcript(0))
    c_other = body(other.statements[1])["commitments"][2]
    s_other = body(other.statements[2])["seeds"][2]
    # a dishonest host reuses seat 2's commitment and seed from game B in game A
    st = list(t0.statements)
    st[1] = resign(st[1], lambda b: b["commitments"].__setitem__(2, c_other))
    st[2] = resign(st[2], lambda b: b["seeds"].__setitem__(2, s_other))
    v = verify_transcript(rebuild(t0, st))
    assert v.status == TAMPERED and (v.message, v.kind) == (2, "seeds")
    assert "seat 2 seed does not match its commitment" in v.reason and "another game" in v.reason


def test_signed_statement_spliced_from_another_game(t0):
    other = decode_transcript(honest(game_id=GAME_B).transcript(0))
    v = verify_transcript(replaced(t0, 3, other.statements[3]))  # same key, same seat, same index
    assert v.status == TAMPERED and v.message == 3
    assert "belongs to another game" in v.reason
    assert v.expected == GAME_A.hex() and v.found == GAME_B.hex()


def test_statement_addressed_to_another_seat(game, t0):
    t1 = decode_transcript(game.transcript(1))
    v = verify_transcript(replaced(t0, 3, t1.statements[3]))
    assert v.status == TAMPERED and v.message == 3
    assert "addressed to seat 1" in v.reason


# ------------------------------------------------------------------ announced outcomes


def test_announced_outcome_altered(t0):
    i = first_index(t0, lambda b: b["kind"] == "step" and any(e["kind"] == "contest" for e in b["events"]))
    j = next(n for n, e in enumerate(body(t0.statements[i])["events"]) if e["kind"] == "contest")

    def mutate(b):
        b["events"][j]["sides"][0]["total"] += 1

    v = verify_transcript(replaced(t0, i, resign(t0.statements[i], mutate)))
    assert v.status == TAMPERED and (v.message, v.kind) == (i, "step")
    assert f"events[{j}].sides[0].total" in v.reason
    assert v.found == v.expected + 1


def test_announced_ranking_altered(t0):
    last = len(t0.statements) - 1
    v = verify_transcript(replaced(t0, last, resign(t0.statements[last], lambda b: b["ranking"].reverse())))
    assert v.status == TAMPERED and v.message == last and "ranking" in v.reason


def test_announced_actor_altered(t0):
    def mutate(b):
        b["actor"] = (b["actor"] + 1) % RULES.players

    v = verify_transcript(replaced(t0, 5, resign(t0.statements[5], mutate)))
    assert v.status == TAMPERED and v.message == 5 and "is to move" in v.reason


def test_illegal_action_announced(t0):
    def mutate(b):
        b["action"] = {"kind": "answer", "target": None, "cards": [], "weapon": False, "recovered": []}

    i = first_index(t0, lambda b: b["kind"] == "step" and b["action"]["kind"] != "answer")
    v = verify_transcript(replaced(t0, i, resign(t0.statements[i], mutate)))
    assert v.status == TAMPERED and v.message == i and "illegal in the replayed game" in v.reason


def test_initial_view_altered(t0):
    def mutate(b):
        b["observation"]["hand"] = list(reversed(b["observation"]["hand"]))

    v = verify_transcript(replaced(t0, 3, resign(t0.statements[3], mutate)))
    assert v.status == TAMPERED and v.message == 3 and "initial view" in v.reason and "'hand" in v.reason


def test_reveal_withheld(t0):
    k = hand_positions(RULES, 0)[4]

    def mutate(b):
        b["private"] = [r for r in b["private"] if r[0] != k]

    v = verify_transcript(replaced(t0, 3, resign(t0.statements[3], mutate)))
    assert v.status == TAMPERED and (v.message, v.position) == (3, k)
    assert "was dealt to this seat and was not opened to it" in v.reason  # at once (§8 step 6)


def test_card_of_another_seat_leaked_to_this_seat(t0, game):
    d = game.dealer.deal
    public = game.dealer.state.known_cards(None) | game.dealer.state.known_cards(0)
    # a card of seat 1's hand or equipment, or else of the stock, never shown to seat 0
    k = next(p for p in [2, 3, *hand_positions(RULES, 1), *range(stock_start(RULES), 53)] if d.deck[p] not in public)

    def mutate(b):
        b["private"] = sorted(b["private"] + [[k, d.deck[k], d.salts[k]]])

    v = verify_transcript(replaced(t0, 3, resign(t0.statements[3], mutate)))
    assert v.status == TAMPERED and (v.message, v.position) == (3, k)
    assert "not this seat's: it may not be shown to this seat" in v.reason  # at once (§8 step 6)


def test_duplicate_card_in_the_deck_commitments(t0, game):
    # the host commits two positions to the same card and reveals both: caught at once
    d = game.dealer.deal
    a, b_ = hand_positions(RULES, 0)[0], hand_positions(RULES, 0)[1]
    from jupai_net.fairness import card_commitment

    def mutate(b):
        b["commitments"][b_] = card_commitment(GAME_A, b_, d.deck[a], d.salts[b_])
        for r in b["private"]:
            if r[0] == b_:
                r[1] = d.deck[a]

    v = verify_transcript(replaced(t0, 3, resign(t0.statements[3], mutate)))
    assert v.status == TAMPERED and v.position == b_ and "not a permutation" in v.reason


# ------------------------------------------------------------------ order, signatures, bytes


def test_messages_reordered(t0):
    st = list(t0.statements)
    st[5], st[6] = st[6], st[5]
    v = verify_transcript(rebuild(t0, st))
    assert v.status == TAMPERED and v.message == 5
    assert "out of order" in v.reason and (v.expected, v.found) == (5, 6)


def test_message_dropped_in_the_middle(t0):
    st = list(t0.statements)
    del st[7]
    v = verify_transcript(rebuild(t0, st))
    assert v.status == TAMPERED and v.message == 7 and "out of order" in v.reason


def test_start_not_first(t0):
    st = list(t0.statements)
    st[0], st[1] = st[1], st[0]
    v = verify_transcript(rebuild(t0, st))
    assert v.status == TAMPERED and v.message == 0 and "must be the 'start' statement" in v.reason


def test_signature_broken(t0):
    raw = t0.statements[4]
    bad = raw[:-40] + bytes([raw[-40] ^ 0x40]) + raw[-39:]  # a bit of S's low half: S stays below L
    v = verify_transcript(replaced(t0, 4, bad), all_signatures=True)
    assert v.status == TAMPERED and v.message == 4 and "signature does not verify" in v.reason
    # by default the last signature vouches for the unchanged body through the hash chain (§6.5)
    assert verify_transcript(replaced(t0, 4, bad)).status == VERIFIED


def test_signed_bytes_edited_without_the_key(t0):
    raw = bytearray(t0.statements[3])
    raw[len(raw) // 2] ^= 0x01  # inside the body: a card id, a salt or a commitment
    v = verify_transcript(replaced(t0, 3, bytes(raw)))
    assert v.status == TAMPERED and v.message == 3 and "signature does not verify" in v.reason


def test_signed_by_another_key(t0):
    other = signing_key_from_bytes(bytes(32))
    v = verify_transcript(replaced(t0, 4, sign_statement(other, body(t0.statements[4]))), all_signatures=True)
    assert v.status == TAMPERED and v.message == 4 and "signature" in v.reason


def test_start_statement_with_a_wrong_self_signature(t0):
    raw = t0.statements[0]
    v = verify_transcript(replaced(t0, 0, raw[:-1] + bytes([raw[-1] ^ 1])), all_signatures=True)
    assert v.status == TAMPERED and v.message == 0 and "signature" in v.reason


@pytest.mark.parametrize("frac", [0.0, 0.001, 0.3, 0.5, 0.999])
def test_file_cut_short(game, frac):
    data = game.transcript(0)
    cut = data[: int(len(data) * frac)] if frac else b""
    v = verify_transcript(cut)
    assert v.status == MALFORMED and v.exit_code == 6
    assert v.details.get("truncated") is True
    assert "cut short" in v.reason or "empty" in v.reason


def test_file_cut_short_at_a_statement_boundary_is_unverified_not_fair(t0):
    v = verify_transcript(rebuild(t0, t0.statements[:-1]))
    assert v.status == UNVERIFIED and v.exit_code == 5 and "never revealed its seed" in v.reason


def test_garbage_bytes():
    rng = random.Random(1)
    for n in (1, 7, 100, 5000):
        v = verify_transcript(bytes(rng.randrange(256) for _ in range(n)))
        assert v.status == MALFORMED
    assert verify_transcript(msgpack.packb([1, 2, 3])).status == MALFORMED
    assert verify_transcript(msgpack.packb({"format": "jupai-transcript", "v": 99})).status == MALFORMED
    v = verify_transcript(msgpack.packb({"format": "jupai-transcript", "v": 1}))
    assert v.status == MALFORMED and "missing" in v.reason


def test_garbage_appended(game):
    v = verify_transcript(game.transcript(0) + b"\x00junk")
    assert v.status == MALFORMED and "extra data" in v.reason


def test_garbage_statement(t0):
    v = verify_transcript(replaced(t0, 6, b"\xc1garbage"))
    assert v.status == MALFORMED and v.message == 6
    v = verify_transcript(replaced(t0, 6, msgpack.packb(["x", "y"])))
    assert v.status == MALFORMED and v.message == 6


def test_random_byte_flips_never_verify_and_never_raise(game):
    data = game.transcript(2)
    rng = random.Random(7)
    seen = set()
    for _ in range(80):
        b = bytearray(data)
        for _ in range(rng.choice((1, 1, 3))):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        v = verify_transcript(bytes(b), all_signatures=True)  # a flipped middle signature: tests/test_fairness_chain.py
        assert v.status != VERIFIED
        seen.add(v.status)
    assert TAMPERED in seen and MALFORMED in seen


# ------------------------------------------------------------------ unfinished games


def test_game_never_finished_is_unverified():
    sp = honest(max_steps=6)
    v = verify_transcript(sp.transcript(0))
    assert v.status == UNVERIFIED and "never revealed its seed" in v.reason


def test_abandoned_after_the_seed_reveals_without_the_host_seed_is_suspicious():
    sp = honest(max_steps=6)
    deliver(sp.dealer.abandon("host quit", reveal_seed=False), sp.witnesses)
    v = verify_transcript(sp.transcript(1))
    assert v.status == SUSPICIOUS and v.exit_code == 4
    assert "alone could know the deck" in v.reason and "did not reveal its seed" in v.reason


def test_abandoned_with_the_host_seed_is_still_suspicious_but_checked():
    sp = honest(max_steps=6)
    deliver(sp.dealer.abandon("player left"), sp.witnesses)
    v = verify_transcript(sp.transcript(1))
    assert v.status == SUSPICIOUS and "check out" in v.reason


def test_abandoned_with_the_host_seed_after_a_swap_is_tampered(monkeypatch):
    def cheating(rules, game_id, host_seed, seeds):
        d = derive_deal(rules, game_id, host_seed, seeds)
        deck = list(d.deck)
        deck[40], deck[41] = deck[41], deck[40]
        return Deal(tuple(deck), d.setup, d.salts)

    monkeypatch.setattr(dealer_mod, "derive_deal", cheating)
    sp = honest(max_steps=3)
    deliver(sp.dealer.abandon("oops"), sp.witnesses)
    v = verify_transcript(sp.transcript(0))
    assert v.status == TAMPERED and v.position == 40


def test_abandoned_before_the_seed_reveals_is_unverified():
    from jupai_net.fairness import HostDealer, SeatWitness

    d = HostDealer(RULES, KEY)
    ws = {s: SeatWitness(s) for s in range(RULES.players)}
    deliver(d.start(), ws)
    deliver(d.commit(0, ws[0].commitment), ws)
    deliver(d.abandon("not enough players"), ws)
    v = ws[0].verify()
    assert v.status == UNVERIFIED and "before the seeds were revealed" in v.reason
    assert verify_transcript(ws[0].transcript()).status == UNVERIFIED


def test_host_gone_after_the_seed_reveals_is_suspicious():
    sp = honest(max_steps=4)
    sp.witnesses[0].host_gone("connection lost")
    v = verify_transcript(sp.transcript(0))
    assert v.status == SUSPICIOUS and "connection lost" in v.reason


def test_statement_after_the_end(t0):
    v = verify_transcript(rebuild(t0, list(t0.statements) + [resign(t0.statements[-1], lambda b: b.__setitem__("n", len(t0.statements)))]))
    assert v.status == TAMPERED and v.message == len(t0.statements) and "cannot follow" in v.reason


def _random_value(rng: random.Random, depth: int = 0):
    choices = [
        lambda: None,
        lambda: True,
        lambda: rng.randrange(-3, 60),
        lambda: "x" * rng.randrange(3),
        lambda: bytes(rng.choice([0, 16, 32, 64])),
        lambda: 2**64 - 1,
        lambda: 1.5,
        lambda: [_random_value(rng, depth + 1) for _ in range(rng.randrange(3))],
        lambda: {"kind": _random_value(rng, depth + 1), "a": _random_value(rng, depth + 1)},
    ]
    return choices[rng.randrange(len(choices) if depth < 2 else 7)]()


def _mutate(rng: random.Random, obj, depth: int = 0):
    if isinstance(obj, (dict, list)) and obj:
        key = rng.choice(list(obj)) if isinstance(obj, dict) else rng.randrange(len(obj))
        obj[key] = _random_value(rng) if rng.random() < 0.5 or depth > 3 else _mutate(rng, obj[key], depth + 1)
        return obj
    return _random_value(rng)


def test_host_signed_garbage_fields_never_crash_and_never_verify(t0):
    # The host key signs bodies with random values in random fields (check_body bypassed).
    from jupai_net.fairness.statements import TAG_STATEMENT, pack

    rng = random.Random(11)
    statuses = set()
    for _ in range(120):
        st = list(t0.statements)
        i = rng.randrange(len(st))
        original = body(st[i])
        mutated = _mutate(rng, body(st[i]))
        if mutated == original:
            continue
        raw_body = pack(mutated)
        st[i] = pack([raw_body, KEY.sign(TAG_STATEMENT + raw_body)])
        data = rebuild(t0, st)
        if data == rebuild(t0):
            continue  # only 'prev' changed, and the forger fitted it again
        v = verify_transcript(data)
        assert v.status in (TAMPERED, MALFORMED), (i, v)
        assert "could not be checked" not in v.reason
        statuses.add(v.status)
    assert TAMPERED in statuses


@pytest.mark.parametrize("rewrite", ["short", "cards_reordered", "weapon_as_int"])
def test_action_not_in_the_engines_recorded_form(t0, rewrite):
    """A signed action the engine would accept but that is not the form it records
    (fields left out, another card order, 1 for true) is tampered: a verifier that
    compares the action bytes must not reach another verdict (specs/fairness.md §6.4)."""
    def pick(b):
        a = b["action"]
        if rewrite == "short":
            return a["kind"] == "pass"
        if rewrite == "cards_reordered":
            return len(a["cards"]) > 1
        return a["weapon"] is True

    def mutate(b):
        a = b["action"]
        if rewrite == "short":
            b["action"] = {"kind": "pass"}
        elif rewrite == "cards_reordered":
            a["cards"] = list(reversed(a["cards"]))
        else:
            a["weapon"] = 1

    if rewrite == "cards_reordered":  # the last round plays every hand card
        t0 = decode_transcript(play_game(RuleSet(players=2, rounds=2, hand_size=3), rng_seed=3, key=KEY).transcript(0))
    i = first_index(t0, lambda b: b["kind"] == "step" and pick(b))
    v = verify_transcript(replaced(t0, i, resign(t0.statements[i], mutate)))
    assert v.status == TAMPERED and v.message == i, v.reason


def test_transcript_file_with_a_repeated_key_is_malformed(t0):
    """Two 'seat' keys in the file: one reader takes the first, another the last;
    the file is refused instead (specs/fairness.md §7)."""
    data = rebuild(t0)
    assert data[0] == 0x86  # fixmap of the 6 keys
    forged = bytes([0x87]) + data[1:] + msgpack.packb("seat") + msgpack.packb(1)
    v = verify_transcript(forged)
    assert v.status == MALFORMED and "repeats the key" in v.reason and v.message is None
