"""Hash-chained statement streams (specs/fairness.md §6.5, issue 10 aim 4): the vectors
from the spec with hashlib and cryptography only, every way to break a stream named at
the same statement on the fast path and with every signature, old transcripts read as
before, and ``jupai verify --all-signatures`` through the command."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from jupai_net.fairness import HostDealer, SeatWitness, decode_transcript, verify_transcript
from jupai_net.fairness.chain_vectors import at_once
from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.statements import chain_link, signing_key_from_bytes, split_statement, unpack
from jupai_net.fairness.transcript import Transcript
from jupai_net.fairness.verify import FairnessViolation
from jupai_net.rules import RuleSet

ROOT = Path(__file__).resolve().parents[1]
V = json.loads((ROOT / "protocol" / "vectors" / "fairness.json").read_text())["chain"]
DATA = Path(__file__).resolve().parent / "data"
KEY = signing_key_from_bytes(bytes([0x21] * 32))


def bodies_of(data: bytes) -> list[tuple[bytes, bytes, dict]]:
    """(body bytes, signature, body) of every statement, read with msgpack alone."""
    out = []
    for raw in msgpack.unpackb(data, raw=False)["statements"]:
        body_bytes, sig = msgpack.unpackb(raw, raw=False)
        out.append((body_bytes, sig, msgpack.unpackb(body_bytes, raw=False)))
    return out


# ------------------------------------------------------------------ the vectors, from the spec


def test_chain_vectors_from_the_spec():
    tag = b"jupai/v1/chain\x00"
    assert bytes.fromhex(V["tag"]) == tag and V["spectator_byte"] == 0xFE
    gid = bytes.fromhex(V["game_id"])
    for start in V["starts"]:
        to = 0xFE if start["to"] is None else start["to"]
        assert hashlib.sha256(tag + gid + bytes([to])).hexdigest() == start["prev"]
    data = bytes.fromhex(V["transcript"]["file"])
    stmts = bodies_of(data)
    assert [b["v"] for _, _, b in stmts] == [2] * len(stmts)
    assert [list(b)[:6] for _, _, b in stmts] == [["v", "kind", "game", "to", "n", "prev"]] * len(stmts)
    want = hashlib.sha256(tag + gid + bytes([0])).digest()
    for i, (body_bytes, _, body) in enumerate(stmts):
        assert body["prev"] == want and body["prev"].hex() == V["transcript"]["prev"][i]
        want = hashlib.sha256(tag + body_bytes).digest()
    # the last signature, over the statement tag and its body, with the start's host key
    body_bytes, sig, _ = stmts[-1]
    Ed25519PublicKey.from_public_bytes(stmts[0][2]["host_key"]).verify(sig, b"jupai/v1/statement\x00" + body_bytes)
    assert V["transcript"]["verdict"] == "verified" == verify_transcript(data).status


@pytest.mark.parametrize("name", [f["name"] for f in V["faults"]])
def test_chain_fault_vector(name):
    """Each broken stream: the verdict of the fast path, of --all-signatures, and the
    statement at which the seat's witness stops the game."""
    f = next(f for f in V["faults"] if f["name"] == name)
    data = bytes.fromhex(f["file"])
    for v, want in ((verify_transcript(data), f["verdict"]), (verify_transcript(data, all_signatures=True), f["all_signatures"])):
        assert {"status": v.status, "message": v.message, "kind": v.kind} == want
    assert at_once(data) == f["at_once"]
    if name != "middle_signature_broken":  # the same statement named both ways
        assert f["verdict"] == f["all_signatures"] and f["verdict"]["status"] == "tampered"
        assert f["at_once"] == f["verdict"]["message"]
    else:  # the body is intact: the chain authenticates it; every signature names it
        assert f["verdict"]["status"] == "verified" and f["all_signatures"]["status"] == "tampered"


def test_every_way_of_breaking_a_stream_has_a_vector():
    assert {f["name"] for f in V["faults"]} >= {"body_byte_changed", "dropped", "swapped", "duplicated",
                                                 "from_another_stream", "from_another_game", "wrong_prev_signed",
                                                 "mixed_formats", "middle_signature_broken", "last_signature_broken"}


# ------------------------------------------------------------------ the same statement named, anywhere


@pytest.fixture(scope="module")
def small() -> bytes:
    return play_game(RuleSet(players=2, rounds=2, hand_size=2), rng_seed=3, key=KEY, spectators=False).transcript(0)


def test_a_body_byte_changed_anywhere_is_named_at_that_statement_both_ways(small):
    t = decode_transcript(small)
    for i, raw in enumerate(t.statements):
        body_bytes, _ = split_statement(raw)
        b = bytearray(raw)
        b[raw.index(body_bytes) + len(body_bytes) // 2] ^= 0x01  # a byte in the middle of the signed body
        data = Transcript(t.seat, t.seed, t.statements[:i] + (bytes(b),) + t.statements[i + 1:], t.host_gone).encode()
        fast, full = verify_transcript(data), verify_transcript(data, all_signatures=True)
        assert fast.status == "tampered" and fast.message == i, (i, fast.reason)
        assert (fast.status, fast.message, fast.kind, fast.reason) == (full.status, full.message, full.kind, full.reason)


def test_the_fast_path_checks_one_signature_of_a_chained_stream(small, monkeypatch):
    from jupai_net.fairness import verify as verify_mod

    calls = []
    real = verify_mod.verify_signature
    monkeypatch.setattr(verify_mod, "verify_signature", lambda *a: calls.append(1) or real(*a))
    assert verify_transcript(small).status == "verified" and len(calls) == 1
    calls.clear()
    assert verify_transcript(small, all_signatures=True).status == "verified"
    assert len(calls) == len(decode_transcript(small).statements)


# ------------------------------------------------------------------ every stream, and the old format


def test_every_stream_is_chained_and_a_dealer_may_leave_some_out():
    sp = play_game(RuleSet(players=3, rounds=1, hand_size=2), rng_seed=2, key=KEY, spectators=True)
    for viewer in (0, 1, 2, None):
        stmts = bodies_of(sp.transcript(viewer))
        assert all(b["v"] == 2 for _, _, b in stmts) and verify_transcript(sp.transcript(viewer)).ok
        assert all(b["prev"] == chain_link(stmts[i - 1][0]) for i, (_, _, b) in enumerate(stmts) if i)
    mixed = play_game(RuleSet(players=2, rounds=1, hand_size=1), rng_seed=2, key=KEY, spectators=True, chained={1})
    assert [{b["v"] for _, _, b in bodies_of(mixed.transcript(v))} for v in (0, 1, None)] == [{1}, {2}, {1}]
    assert all(verify_transcript(mixed.transcript(v)).ok for v in (0, 1, None))


@pytest.mark.parametrize("name", ["transcript-v1-seat1.jupai", "transcript-v1-spectator.jupai"])
def test_a_transcript_saved_before_the_chain_verifies_as_before(name):
    """Saved by 9723238 (version-1 bodies): every signature is checked on either path,
    so a broken middle signature is still tampered by default."""
    data = (DATA / name).read_bytes()
    assert {b["v"] for _, _, b in bodies_of(data)} == {1}
    assert verify_transcript(data).status == verify_transcript(data, all_signatures=True).status == "verified"
    t = decode_transcript(data)
    raw = t.statements[5]
    bad = raw[:-40] + bytes([raw[-40] ^ 0x40]) + raw[-39:]
    forged = Transcript(t.seat, t.seed, t.statements[:5] + (bad,) + t.statements[6:], t.host_gone).encode()
    v = verify_transcript(forged)
    assert v.status == "tampered" and v.message == 5 and "signature does not verify" in v.reason


def test_the_witness_refuses_a_wrong_link_at_once():
    """A hostile dealer whose seat-0 stream skips a link: the seat stops at that statement."""
    d = HostDealer(RuleSet(players=2, rounds=1, hand_size=1), KEY)
    w = SeatWitness(0)
    w.receive(d.start()[0][0])
    d._prev[0] = bytes(32)  # the host forgets the link to what it sent
    out = d.commit(0, w.commitment)
    out = d.commit(1, bytes(32))
    with pytest.raises(FairnessViolation) as e:
        w.receive(out[0][0])
    assert e.value.verdict.message == 1 and "is not chained to statement #0" in e.value.verdict.reason


def test_jupai_verify_all_signatures_through_the_command(small, tmp_path):
    t = decode_transcript(small)
    raw = t.statements[3]
    bad = raw[:-40] + bytes([raw[-40] ^ 0x40]) + raw[-39:]
    path = tmp_path / "g.jupai"
    path.write_bytes(Transcript(t.seat, t.seed, t.statements[:3] + (bad,) + t.statements[4:], t.host_gone).encode())
    cmd = [sys.executable, "-m", "jupai_net", "verify", str(path)]
    assert subprocess.run(cmd, capture_output=True, text=True).returncode == 0
    r = subprocess.run(cmd + ["--all-signatures"], capture_output=True, text=True)
    assert r.returncode == 3 and "statement #3" in r.stdout and "signature does not verify" in r.stdout
