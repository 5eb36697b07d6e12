"""The verifier's fast paths (issue 10 aim 4, specs/performance.md § Verify) decide
exactly as the slow ones: the msgpack-bytes check before first_difference, the
iterative body-tree check, the host key object built once."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jupai_net.fairness import generate_signing_key, public_key_bytes
from jupai_net.fairness.keys import SMALL_ORDER_Y
from jupai_net.fairness.statements import (
    BAD_SIGNATURE,
    TAG_STATEMENT,
    StatementError,
    _plain,
    verify_signature,
)
from jupai_net.fairness.verify import first_difference, same_wire


def plain_reference(x, depth=0):
    """The recursive check the iterative ``_plain`` replaced."""
    if depth > 32:
        return False
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return True
    if isinstance(x, (list, tuple)):
        return all(plain_reference(y, depth + 1) for y in x)
    if isinstance(x, dict):
        return all(isinstance(k, str) and plain_reference(v, depth + 1) for k, v in x.items())
    return False


def nest(value, levels):
    for k in range(levels):
        value = [value] if k % 2 else {"k": value}
    return value


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3),
                    st.binary(max_size=3), st.just(object()), st.just({1, 2}))
trees = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=3), st.tuples(kids, kids),
    st.dictionaries(st.one_of(st.text(max_size=2), st.integers(0, 3), st.binary(max_size=1)), kids, max_size=3),
), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(trees)
def test_the_iterative_tree_check_decides_like_the_recursive_one(tree):
    assert _plain(tree) == plain_reference(tree)


@pytest.mark.parametrize("levels", [30, 31, 32, 33, 34])
@pytest.mark.parametrize("leaf", [1, [], {}, "x"])
def test_the_depth_limit_is_the_same(levels, leaf):
    tree = nest(leaf, levels)
    assert _plain(tree) == plain_reference(tree)
    assert _plain({"a": 1, 2: "b"}) is False  # a key that is not a string


@pytest.mark.parametrize("expected, found", [
    (True, 1), (1, 1.0), ("a", b"a"), ({"a": 1, "b": 2}, {"a": 1, "b": 3}), ([1, 2], [1, 2, 3]),
    ({"total": 7}, {"total": True}), ([{"x": [1, 0]}], [{"x": [1, False]}]),
])
def test_same_wire_is_strict_and_first_difference_still_names_the_place(expected, found):
    assert not same_wire(expected, found)
    assert first_difference(expected, found) is not None


def test_same_wire_accepts_equal_values_and_map_order_falls_back_to_the_diff():
    assert same_wire([{"a": 1, "b": [b"x", None]}], [{"a": 1, "b": [b"x", None]}])
    assert same_wire((1, 2), [1, 2])  # a replayed tuple is a decoded list
    assert not same_wire({"a": 1, "b": 2}, {"b": 2, "a": 1})  # other order: the recursive diff decides...
    assert first_difference({"a": 1, "b": 2}, {"b": 2, "a": 1}) is None  # ...and finds them equal, as before
    assert not same_wire(object(), object())  # not msgpack: never "the same"


def test_the_cached_host_key_still_refuses_bad_signatures_and_weak_keys():
    key = generate_signing_key()
    pub = public_key_bytes(key)
    body = b"\x81\xa1a\x01"
    sig = key.sign(TAG_STATEMENT + body)
    for _ in range(3):  # the key object is reused: every call decides alike
        verify_signature(pub, body, sig)
        with pytest.raises(StatementError, match=BAD_SIGNATURE):
            verify_signature(pub, body + b"\x00", sig)
        other = public_key_bytes(generate_signing_key())
        with pytest.raises(StatementError, match=BAD_SIGNATURE):
            verify_signature(other, body, sig)
        with pytest.raises(StatementError, match="small order"):
            verify_signature(SMALL_ORDER_Y[1], body, sig)
        with pytest.raises(StatementError, match="32 bytes"):
            verify_signature("not bytes", body, sig)
        with pytest.raises(StatementError, match="non-canonical"):
            verify_signature(pub, body, sig[:32] + b"\xff" * 32)


def _outcome(fn, data):
    try:
        return "ok", fn(data)
    except StatementError as exc:
        return "error", exc.reason


def _a_step_body():
    from jupai_net.fairness.statements import make_body, pack

    return pack(make_body("step", b"g" * 16, 1, 7, version=3, actor=2, action={"kind": "attack", "cards": [4, 9]},
                          events=[{"kind": "play", "seat": 2, "total": 11}], private=[[3, 4, b"s" * 32]], public=[]))


def _mutations(body: bytes):
    """Bodies a forger might try: every byte changed, cut short or lengthened, keys
    repeated, timestamps, bin keys, non-canonical integers, trailing bytes."""
    import msgpack

    yield body
    for i in range(len(body)):
        for b in (0x00, 0xC0, 0xD6, 0xFF, body[i] ^ 0x01):
            yield body[:i] + bytes([b]) + body[i + 1:]
    for cut in range(len(body)):
        yield body[:cut]
    yield body + b"\x00"
    ts = msgpack.packb(msgpack.Timestamp(1, 0), use_bin_type=True)
    yield body.replace(b"\xa5total\x0b", b"\xa5total" + ts)  # a timestamp in an event
    yield body.replace(b"\xa4kind\xa6attack", b"\xa4kind" + ts)  # a timestamp as the action's kind
    yield body.replace(b"\xa5actor\x02", b"\xa5actor\xcc\x02")  # an integer not in its shortest form
    yield body.replace(b"\xa5actor\x02", b"\xc4\x05actor\x02")  # a bin key
    yield body.replace(b"\xa7version\x03", b"\xa5actor\x02")  # the key 'actor' twice
    yield body.replace(b"\xa4seat\x02", b"\xa5total\x02")  # a key twice in a nested map


def test_decode_body_decides_and_words_every_forgery_like_the_checking_way():
    from jupai_net.fairness.statements import _decode_body_checking, decode_body

    body = _a_step_body()
    assert decode_body(body) == _decode_body_checking(body)
    seen = 0
    for forged in _mutations(body):
        assert _outcome(decode_body, forged) == _outcome(_decode_body_checking, forged), forged
        seen += 1
    assert seen > len(body) * 5


def test_made_kind_reads_the_host_own_bodies_and_nothing_else():
    from jupai_net.fairness.statements import KIND_FIELDS, KINDS, made_kind, make_body, pack

    for kind in KINDS:
        body = make_body(kind, b"g" * 16, None, 300, **{f: None for f in KIND_FIELDS[kind]})
        assert made_kind(pack(body)) == kind
    assert made_kind(pack({"kind": "step", "v": 1})) is None  # other field order: not a body made here
    assert made_kind(b"") is None
    assert made_kind(_a_step_body()[:9]) is None  # cut inside the kind


# ------------------------------------------------------------ round 2 (branch perfhv)

class _Map(dict):
    """A dict subclass: :meth:`Action.from_wire` then takes its long, field-by-field way."""


wire_values = st.one_of(st.none(), st.booleans(), st.integers(-2, 60), st.floats(allow_nan=False), st.text(max_size=6),
                        st.sampled_from(["attack", "defense", "pass", "answer", "rearm"]),
                        st.lists(st.one_of(st.integers(-1, 54), st.booleans(), st.floats(0, 3), st.lists(st.integers(0, 2), max_size=1)), max_size=4),
                        st.tuples(st.integers(0, 52)))


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"kind": st.sampled_from(["attack", "defense", "discard", "pass"]) | wire_values,
                              "target": st.none() | wire_values, "cards": st.lists(st.integers(0, 52), max_size=3) | wire_values,
                              "weapon": st.booleans() | wire_values, "recovered": st.just([]) | wire_values}),
       st.sampled_from([None, "kind", "extra"]))
def test_action_from_wire_fast_path_decides_like_the_long_way(data, change):
    from jupai_net.actions import Action

    if change == "kind":
        data = {k: v for k, v in data.items() if k != "kind"}
    elif change == "extra":
        data = {**data, "extra": 1}
    outcomes = []
    for form in (data, _Map(data)):
        try:
            outcomes.append(("ok", Action.from_wire(form)))
        except ValueError as exc:
            outcomes.append(("error", str(exc)))
    assert outcomes[0] == outcomes[1]
    if outcomes[0][0] == "ok":  # exact types kept: a card 1.0 or True never becomes an int
        a = outcomes[0][1]
        assert all(type(c) is int for c in a.cards + a.recovered) and type(a.weapon) is bool


def test_the_salts_with_one_extract_are_the_per_position_hkdf_salts():
    from jupai_net.fairness.primitives import card_salt, card_salts

    for g in range(3):
        game_id, host_seed = bytes([g]) * 16, bytes([200 - g]) * 32
        assert card_salts(game_id, host_seed) == tuple(card_salt(game_id, host_seed, k) for k in range(53))


def test_a_step_signed_with_its_maps_in_another_key_order_still_verifies_and_a_changed_one_does_not():
    """The replay first compares the whole signed step body with the replayed one
    (``_signed_as``); a body whose events list their keys in another order is not
    byte-equal and takes the field-by-field way, which finds them equal (as before), and
    a changed event value is still named."""
    from jupai_net.fairness import TAMPERED, VERIFIED, Transcript, decode_transcript, sign_statement, signing_key_from_bytes, verify_transcript
    from jupai_net.fairness.forge import relinked
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.fairness.statements import split_statement, unpack
    from jupai_net.rules import RuleSet

    key = signing_key_from_bytes(bytes(range(32)))
    t = decode_transcript(play_game(RuleSet(), rng_seed=5, key=key).transcript(0))
    bodies = [unpack(split_statement(r)[0]) for r in t.statements]
    i = next(n for n, b in enumerate(bodies) if b["kind"] == "step" and b["events"])
    statements = list(t.statements)

    b = bodies[i]
    b["events"] = [dict(reversed(list(e.items()))) for e in b["events"]]
    b["action"] = dict(reversed(list(b["action"].items())))
    statements[i] = sign_statement(key, b)
    statements = relinked(statements, key)  # the hash chain fitted to the re-signed body (§6.5)
    v = verify_transcript(Transcript(t.seat, t.seed, tuple(statements), t.host_gone).encode())
    assert v.status == VERIFIED, v.reason

    b["events"][0]["seat"] = (b["events"][0].get("seat", 0) + 1) % 4 if "seat" in b["events"][0] else 9
    b["events"][0].setdefault("seat", 9)
    statements[i] = sign_statement(key, b)
    statements = relinked(statements, key)
    v = verify_transcript(Transcript(t.seat, t.seed, tuple(statements), t.host_gone).encode())
    assert v.status == TAMPERED and v.message == i and "events[0]" in v.reason, v.reason
