"""Deferred signatures (body version 3, specs/fairness.md §6.6, protocol version 6): the
vectors from the spec with hashlib and cryptography only, one signature per action at
the host, an empty signature refused wherever §6.6 does not allow it (a hostile host
that drops signatures), every changed byte caught, on the fast path and with every
signature, and at once by the seat's witness."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from jupai_net.fairness import SeatWitness, decode_transcript, verify_transcript
from jupai_net.fairness.chain_vectors import at_once
from jupai_net.fairness.forge import relinked
from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.statements import (pack, sign_packed, signing_key_from_bytes, split_statement, unpack,
                                            unsigned_packed)
from jupai_net.fairness.transcript import Transcript
from jupai_net.fairness.verify import FairnessViolation
from jupai_net.rules import RuleSet

from .test_fairness_chain import bodies_of as parts  # (body bytes, signature, body), with msgpack alone

ROOT = Path(__file__).resolve().parents[1]
V = json.loads((ROOT / "protocol" / "vectors" / "fairness.json").read_text())["deferred"]
KEY = signing_key_from_bytes(bytes([0x33] * 32))
TAG = b"jupai/v1/statement\x00"
CHAIN = b"jupai/v1/chain\x00"


def with_statements(data: bytes, statements, host_gone: str | None = None) -> bytes:
    t = decode_transcript(data)
    return Transcript(t.seat, t.seed, tuple(statements), host_gone if host_gone is not None else t.host_gone).encode()


# ------------------------------------------------------------------ the vectors, from the spec


def test_deferred_vector_from_the_spec():
    data = bytes.fromhex(V["file"])
    stmts = parts(data)
    assert {b["v"] for _, _, b in stmts} == {3}
    assert [i for i, (_, sig, _) in enumerate(stmts) if not sig] == V["unsigned"] != []
    key = Ed25519PublicKey.from_public_bytes(stmts[0][2]["host_key"])
    want = hashlib.sha256(CHAIN + bytes.fromhex(stmts[0][2]["game"].hex()) + bytes([0])).digest()
    for i, (body_bytes, sig, body) in enumerate(stmts):
        assert body["prev"] == want  # every link, signed or not
        want = hashlib.sha256(CHAIN + body_bytes).digest()
        if sig:  # every signature there is verifies; only steps go without
            key.verify(sig, TAG + body_bytes)
        else:
            assert body["kind"] == "step"
    assert stmts[-1][2]["kind"] == "end" and stmts[-1][1]
    assert V["verdict"] == "verified" == verify_transcript(data).status == verify_transcript(data, all_signatures=True).status


@pytest.mark.parametrize("name", [f["name"] for f in V["faults"]])
def test_deferred_fault_vector(name):
    f = next(f for f in V["faults"] if f["name"] == name)
    data = bytes.fromhex(f["file"])
    for v, want in ((verify_transcript(data), f["verdict"]),
                    (verify_transcript(data, all_signatures=True), f["all_signatures"])):
        assert {"status": v.status, "message": v.message, "kind": v.kind} == want
    assert at_once(data) == f["at_once"]
    assert f["verdict"] == f["all_signatures"]  # no middle signature to tell the two paths apart
    if name == "signed_step_unsigned":
        assert f["verdict"]["status"] == "verified"
    elif name == "cut_after_unsigned":
        assert f["verdict"]["status"] == "suspicious" and f["at_once"] is None
    else:
        assert f["verdict"]["status"] == "tampered" and f["at_once"] == f["verdict"]["message"]


# ------------------------------------------------------------------ the host signs one statement per action


@pytest.fixture(scope="module")
def game():
    return play_game(RuleSet(players=4, rounds=2), rng_seed=5, key=KEY, spectators=True, deferred=True)


def test_each_step_is_signed_for_the_seat_to_move_after_it_only(game):
    streams = {v: parts(game.transcript(v)) for v in (0, 1, 2, 3, None)}
    steps = {v: [(b, sig) for _, sig, b in s if b["kind"] == "step"] for v, s in streams.items()}
    n = len(steps[0])
    assert n > 4 and all(len(s) == n for s in steps.values())
    for k in range(n):
        signed = {v for v in range(4) if steps[v][k][1]}
        nxt = steps[0][k + 1][0]["actor"] if k + 1 < n else None
        assert signed == ({nxt} if nxt is not None else set()), k  # the seat asked next, nobody after the last
    for v in range(4):  # every other kind is signed, the game ends signed
        assert all(sig for _, sig, b in streams[v] if b["kind"] != "step") and streams[v][-1][2]["kind"] == "end"
        assert {b["v"] for _, _, b in streams[v]} == {3}
    assert {b["v"] for _, _, b in streams[None]} == {2} and all(sig for _, sig, _ in streams[None])
    for v in (0, 1, 2, 3, None):
        assert game.witnesses[v].verify().ok and verify_transcript(game.transcript(v)).ok


def test_a_changed_byte_in_any_statement_is_caught_both_ways(game):
    data = game.transcript(1)
    t = decode_transcript(data)
    for i, raw in enumerate(t.statements):
        body_bytes, sig = split_statement(raw)
        b = bytearray(body_bytes)
        b[len(b) // 2] ^= 0x01
        changed = pack([bytes(b), sig])  # the signature kept, or kept empty
        forged = with_statements(data, t.statements[:i] + (changed,) + t.statements[i + 1:])
        fast, full = verify_transcript(forged), verify_transcript(forged, all_signatures=True)
        # a signed statement is named itself; an unsigned one at the latest by the next link
        assert fast.status == full.status == "tampered", (i, fast.reason)
        assert i <= fast.message <= i + (0 if sig else 1) and fast.message == full.message, (i, fast.reason)


# ------------------------------------------------------------------ a hostile host that drops signatures


def test_an_unsigned_step_in_a_version_2_stream_is_tampered():
    """A host that drops the signature of a step in the chained stream of a version-5
    client: that client's witness stops the game at that statement."""
    sp = play_game(RuleSet(players=2, rounds=1, hand_size=2), rng_seed=2, key=KEY, spectators=False)
    data = sp.transcript(0)
    stmts = list(decode_transcript(data).statements)
    i = next(k for k, raw in enumerate(stmts) if unpack(split_statement(raw)[0])["kind"] == "step")
    forged = with_statements(data, stmts[:i] + [unsigned_packed(split_statement(stmts[i])[0])] + stmts[i + 1:])
    for v in (verify_transcript(forged), verify_transcript(forged, all_signatures=True)):
        assert (v.status, v.message, v.kind) == ("tampered", i, "step") and "carries no signature" in v.reason
    assert at_once(forged) == i


def test_an_unsigned_version_1_statement_and_an_unsigned_start_are_tampered():
    sp = play_game(RuleSet(players=2, rounds=1, hand_size=2), rng_seed=2, key=KEY, spectators=False, chained=False)
    data = sp.transcript(0)
    stmts = list(decode_transcript(data).statements)
    last = len(stmts) - 1
    forged = with_statements(data, stmts[:last] + [unsigned_packed(split_statement(stmts[last])[0])])
    v = verify_transcript(forged)
    assert (v.status, v.message) == ("tampered", last) and "carries no signature" in v.reason
    d = play_game(RuleSet(players=2, rounds=1, hand_size=2), rng_seed=2, key=KEY, spectators=False, deferred=True)
    data = d.transcript(0)
    stmts = list(decode_transcript(data).statements)
    forged = with_statements(data, [unsigned_packed(split_statement(stmts[0])[0])] + stmts[1:])
    v = verify_transcript(forged)
    assert (v.status, v.message, v.kind) == ("tampered", 0, "start") and "carries no signature" in v.reason


def test_a_host_that_never_signs_again_leaves_an_unsigned_tail_the_game_unfinished():
    """The host signs nothing after some step (it stops signing, then vanishes): the
    fast path checks the last signature there is and the file is suspicious (host gone
    after the seeds), never verified. Statements after the last signature are nobody's
    evidence (anyone holding the file could write them): a false step or an ``end``
    appended unsigned neither finishes the game nor makes the file say the host
    tampered (a seat cannot frame the host); the verdict counts them. Only their form is
    checked: an unsigned ``end`` is tampered ("carries no signature")."""
    sp = play_game(RuleSet(players=2, rounds=2, hand_size=2), rng_seed=4, key=KEY, spectators=False, deferred=True)
    data = sp.transcript(0)
    stmts = list(decode_transcript(data).statements)
    unsigned = [i for i, raw in enumerate(stmts) if not split_statement(raw)[1]]
    cut = stmts[:unsigned[-1] + 1]
    honest = verify_transcript(with_statements(data, cut, host_gone="connection lost"))
    assert honest.status == "suspicious" and honest.details.get("unsigned_tail", 0) >= 1, honest

    def appended(body: dict) -> bytes:
        body["n"] = len(cut)
        body["prev"] = hashlib.sha256(CHAIN + split_statement(cut[-1])[0]).digest()
        return with_statements(data, cut + [unsigned_packed(pack(body))], host_gone="connection lost")

    step = unpack(split_statement(cut[-1])[0])
    step["version"] += 5  # a false step: were it signed, the checks of §8 would call it tampered
    v = verify_transcript(appended(step))
    assert (v.status, v.code) == (honest.status, honest.code), v  # the host is not framed
    assert v.details["unsigned_tail"] == honest.details["unsigned_tail"] + 1, v
    # the same false step with the host's signature is the host's: tampered
    signed = list(decode_transcript(appended(step)).statements)
    signed[-1] = sign_packed(KEY, split_statement(signed[-1])[0])
    v = verify_transcript(with_statements(data, signed, host_gone="connection lost"))
    assert (v.status, v.message) == ("tampered", len(cut)), v
    # an unsigned end is never allowed (§6.6): the record is not the host's there, and the
    # reason says so without claiming anything of the steps before it
    end = unpack(split_statement(stmts[-1])[0])
    v = verify_transcript(appended(end))
    assert (v.status, v.message, v.kind) == ("tampered", len(cut), "end") and "carries no signature" in v.reason


def test_the_witness_checks_an_unsigned_step_at_once():
    """A deferred step whose content is false (a re-linked changed version) stops the
    seat's game the moment it arrives, before any signature covers it."""
    sp = play_game(RuleSet(players=2, rounds=2, hand_size=2), rng_seed=4, key=KEY, spectators=False, deferred=True)
    stmts = list(decode_transcript(sp.transcript(0)).statements)
    i = next(k for k, raw in enumerate(stmts) if not split_statement(raw)[1])
    body = unpack(split_statement(stmts[i])[0])
    body["version"] += 1
    forged = relinked(stmts[:i] + [unsigned_packed(pack(body))] + stmts[i + 1:], KEY, i + 1)
    w = SeatWitness(0, decode_transcript(sp.transcript(0)).seed)
    for k, raw in enumerate(forged):
        if k == i:
            with pytest.raises(FairnessViolation) as e:
                w.receive(raw)
            assert e.value.verdict.message == i and e.value.verdict.status == "tampered"
            break
        w.receive(raw)


def test_jupai_verify_says_it_ignored_the_unsigned_tail_and_an_unsigned_end_is_tampered(tmp_path):
    """Through the command (specs/fairness.md §6.6): `jupai verify FILE` on a finished
    game with two unsigned steps appended after its signed end verifies and says it
    ignored 2 unsigned statements (en, zh); the same file with an unsigned `end`
    appended is tampered, "carries no signature", exit code 3."""
    import subprocess
    import sys

    sp = play_game(RuleSet(players=2, rounds=2, hand_size=2), rng_seed=4, key=KEY, spectators=False, deferred=True)
    data = sp.transcript(0)
    stmts = list(decode_transcript(data).statements)
    step = unpack(split_statement(next(raw for raw in reversed(stmts) if not split_statement(raw)[1]))[0])

    def appended(*bodies: dict) -> bytes:
        extra = [unsigned_packed(pack({**body, "n": len(stmts) + k})) for k, body in enumerate(bodies)]
        return with_statements(data, stmts + extra)

    (tmp_path / "tail.jupai").write_bytes(appended(step, step))
    (tmp_path / "end.jupai").write_bytes(appended(unpack(split_statement(stmts[-1])[0])))

    def verify(name: str, lang: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "jupai_net", "verify", "--lang", lang, str(tmp_path / name)],
                              capture_output=True, text=True, timeout=60)

    out = verify("tail.jupai", "en")
    assert out.returncode == 0 and out.stdout.startswith("VERIFIED"), out.stdout + out.stderr
    assert ("unsigned     2 statements after the last signature ignored: they carry no signature, so anyone "
            "holding the file could have written them") in out.stdout, out.stdout
    out = verify("tail.jupai", "zh")
    assert out.returncode == 0 and "忽略了最后一个签名之后的 2 条声明" in out.stdout, out.stdout
    out = verify("end.jupai", "en")
    assert out.returncode == 3 and out.stdout.startswith("TAMPERED"), out.stdout + out.stderr
    assert f"statement #{len(stmts)} (end) carries no signature" in out.stdout, out.stdout
    assert "Traceback" not in out.stderr
