"""The dealer-blind vectors in protocol/vectors/blind.json (specs/fairness.md B.12),
checked by an independent reading of specs/fairness.md Part B that uses only hashlib,
msgpack and cryptography (no jupai_net.fairness code), and by the library itself."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgpack
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from jupai_net.fairness.blind_vectors import build_blind_vectors

PATH = Path(__file__).resolve().parents[1] / "protocol" / "vectors" / "blind.json"
V = json.loads(PATH.read_text())
GID = bytes.fromhex(V["inputs"]["game_id"])
PIDS = V["inputs"]["participants"]
SEEDS = [bytes.fromhex(s) for s in V["inputs"]["seeds"]]
N = V["inputs"]["size"]

# --- an independent reading of Part B ---------------------------------------------------

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def spec_mul(x: bytes, k: int) -> bytes:
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b"\x02" + x)
    return ec.derive_private_key(k, ec.SECP256R1()).exchange(ec.ECDH(), point)


def spec_card_point(c: int) -> tuple[int, bytes]:
    for counter in range(256):
        x = hashlib.sha256(b"jupai/v1/blind/card\x00" + bytes([c, counter])).digest()
        if int.from_bytes(x, "big") >= P:
            continue
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b"\x02" + x)
        except ValueError:
            continue
        return counter, x
    raise AssertionError


def spec_derive(pid: int, seed: bytes, label: bytes, length: int, gid: bytes = GID) -> bytes:
    return HKDF(hashes.SHA256(), length, salt=gid, info=b"jupai/v1/blind/derive\x00" + bytes([pid]) + label).derive(seed)


def spec_scalar(pid, seed, label, gid=GID) -> int:
    return int.from_bytes(spec_derive(pid, seed, label, 48, gid), "big") % (n - 1) + 1


def spec_perm(pid, seed, label, size, gid=GID) -> list[int]:
    enc = Cipher(algorithms.ChaCha20(spec_derive(pid, seed, label, 32, gid), bytes(16)), mode=None).encryptor()

    def randrange(m):
        if m == 1:
            return 0
        b = (m - 1).bit_length()
        while True:
            x = int.from_bytes(enc.update(bytes((b + 7) // 8)), "big") % (1 << b)
            if x < m:
                return x

    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        j = randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def points() -> list[bytes]:
    return [spec_card_point(c)[1] for c in range(N)]


# --- tests ---------------------------------------------------------------------------------


def test_vectors_file_is_current():
    assert build_blind_vectors() == V, "blind vectors changed: scheme blind v1 must not change (or regenerate on purpose)"


def test_card_points():
    for entry in V["card_points"]:
        counter, x = spec_card_point(entry["card"])
        assert (counter, x.hex()) == (entry["counter"], entry["x"])


def test_derived_secrets_and_commitments():
    for pid, seed, p in zip(PIDS, SEEDS, V["participants"]):
        assert p["pid"] == pid
        assert hashlib.sha256(b"jupai/v1/blind/seed\x00" + GID + bytes([pid]) + seed).hexdigest() == p["seed_commitment"]
        assert spec_scalar(pid, seed, b"pass-key").to_bytes(32, "big").hex() == p["pass_key"]
        assert spec_perm(pid, seed, b"pass-perm", N) == p["permutation"]
        for q in range(N):
            key = spec_scalar(pid, seed, b"lock" + bytes([q])).to_bytes(32, "big")
            assert key.hex() == p["lock_keys"][q]
            assert hashlib.sha256(b"jupai/v1/blind/lock\x00" + GID + bytes([pid, q]) + key).hexdigest() == p["lock_commitments"][q]


def test_every_deck_and_the_audited_deck():
    decks = [points()]
    for pid, seed in zip(PIDS, SEEDS):
        k, pi = spec_scalar(pid, seed, b"pass-key"), spec_perm(pid, seed, b"pass-perm", N)
        decks.append([spec_mul(decks[-1][pi[j]], k) for j in range(N)])
    for pid, seed in zip(PIDS, SEEDS):
        kinv = pow(spec_scalar(pid, seed, b"pass-key"), -1, n)
        decks.append([spec_mul(decks[-1][q], spec_scalar(pid, seed, b"lock" + bytes([q])) * kinv % n) for q in range(N)])
    assert [[x.hex() for x in d] for d in decks] == V["decks"]
    ids = {x: c for c, x in enumerate(points())}
    deck = []
    for q in range(N):
        prod = 1
        for pid, seed in zip(PIDS, SEEDS):
            prod = prod * spec_scalar(pid, seed, b"lock" + bytes([q])) % n
        deck.append(ids[spec_mul(decks[-1][q], pow(prod, -1, n))])
    assert deck == V["deck"] and sorted(deck) == list(range(N))
    for o in V["openings"]:
        assert deck[o["position"]] == o["card"]


def test_messages_are_signed_by_their_authors_and_carry_the_spec_fields():
    fields = {
        "hello": ["seed_commitment", "key"],
        "shuffle": ["deck", "proof"],
        "relock": ["deck", "locks"],
        "keys": ["keys"],
        "seed": ["seed"],
    }
    keys = {pid: Ed25519PublicKey.from_public_bytes(bytes.fromhex(k)) for pid, k in zip(PIDS, V["inputs"]["signing_keys_public"])}
    counts = {pid: 0 for pid in PIDS}
    kinds = []
    for raw in V["messages"]:
        body_bytes, sig = msgpack.unpackb(bytes.fromhex(raw), raw=False)
        body = msgpack.unpackb(body_bytes, raw=False)
        author = body["from"]
        keys[author].verify(sig, b"jupai/v1/blind/msg\x00" + body_bytes)  # raises if wrong
        assert list(body) == ["v", "kind", "game", "from", "n"] + fields[body["kind"]]
        assert (body["v"], body["game"], body["n"]) == (1, GID, counts[author])
        counts[author] += 1
        kinds.append(body["kind"])
        if body["kind"] in ("shuffle", "relock"):
            assert [x.hex() for x in body["deck"]] in V["decks"]
        if body["kind"] == "keys":
            for position, to, key in body["keys"]:
                commitment = hashlib.sha256(b"jupai/v1/blind/lock\x00" + GID + bytes([author, position]) + key).hexdigest()
                assert commitment == V["participants"][PIDS.index(author)]["lock_commitments"][position]
                assert to != author
    assert kinds == ["hello"] * 3 + ["shuffle"] * 3 + ["relock"] * 3 + ["keys"] * 5 + ["seed"] * 3


def test_shuffle_proof_checks_from_the_spec():
    pr = V["proof"]
    size, rounds, pid, a = pr["size"], pr["rounds"], pr["pid"], pr["index"]
    x_in = [bytes.fromhex(x) for x in pr["deck_in"]]
    y_out = [bytes.fromhex(x) for x in pr["deck_out"]]
    proof = bytes.fromhex(pr["proof"])
    assert x_in == points()[:size]
    assert len(proof) == 32 + rounds * (32 + size)
    c, body = proof[:32], proof[32:]
    shadows = []
    for j in range(rounds):
        chunk = body[j * (32 + size) : (j + 1) * (32 + size)]
        s, perm = int.from_bytes(chunk[:32], "big"), list(chunk[32:])
        if (c[j // 8] >> (7 - j % 8)) & 1 == 0:
            shadows.append([spec_mul(x_in[perm[t]], s) for t in range(size)])
        else:
            shadow = [b""] * size
            for t in range(size):
                shadow[perm[t]] = spec_mul(y_out[t], pow(s, -1, n))
            shadows.append(shadow)
    h = hashlib.sha256(b"jupai/v1/blind/proof\x00" + GID + bytes([pid, a, rounds, size]))
    for deck in [x_in, y_out] + shadows:
        h.update(b"".join(deck))
    assert h.digest() == c
    # the shadow secrets of an opened round come from the prover's seed (B.4)
    seed = bytes.fromhex(pr["seed"])
    j0 = next(j for j in range(rounds) if (c[j // 8] >> (7 - j % 8)) & 1 == 0)
    chunk = body[j0 * (32 + size) : (j0 + 1) * (32 + size)]
    assert int.from_bytes(chunk[:32], "big") == spec_scalar(pid, seed, b"shadow-key" + bytes([a, j0]))
    assert list(chunk[32:]) == spec_perm(pid, seed, b"shadow-perm" + bytes([a, j0]), size)


@pytest.mark.parametrize("flip", [40, 600])
def test_a_flipped_byte_in_a_message_is_refused(flip):
    from jupai_net.fairness.blind import BlindError
    from jupai_net.fairness.blind_ledger import BlindLedger

    ledger = BlindLedger(GID, PIDS)
    msgs = [bytes.fromhex(m) for m in V["messages"]]
    for m in msgs[:3]:
        ledger.receive(m)
    bad = bytearray(msgs[3])
    bad[flip] ^= 1
    with pytest.raises(BlindError):
        ledger.receive(bytes(bad))


# --- the deal as the protocol carries it (B.15.1, §6.2, B.7) --------------------------------


def test_the_deal_schedule_from_the_layout():
    """B.7 / §4.4: each seat's mass (2s) and weapon (2s+1) and its hand (after every
    equipment, seat by seat) open to it, then the first round card to everyone."""
    rules = V["schedule"]["rules"]
    players, hand = rules["players"], rules["hand_size"]
    want = []
    for s in range(players):
        want += [[2 * s, s], [2 * s + 1, s]] + [[2 * players + s * hand + i, s] for i in range(hand)]
    want.append([2 * players + players * hand, None])
    assert V["schedule"]["deal_openings"] == want


@pytest.mark.parametrize("kind, fields", [("hellos", ["hellos"]), ("blind", ["msg"])])
def test_the_hosts_signed_hellos_and_blind_statements(kind, fields):
    """§6.1–6.2: the statement is the host key's Ed25519 signature over
    "jupai/v1/statement\\0" ‖ body, the body canonical msgpack with v, kind, game, to, n
    then its fields; ``hellos`` carries every participant's hello in pass order, and
    the first ``blind`` the host's shuffle, its bytes exactly as their authors signed them."""
    st = V["statements"]
    entry = st[kind]
    body_bytes, sig = bytes.fromhex(entry["body_bytes"]), bytes.fromhex(entry["signature"])
    assert msgpack.packb([body_bytes, sig], use_bin_type=True).hex() == entry["wire"]
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(st["host_key"])).verify(sig, b"jupai/v1/statement\x00" + body_bytes)
    body = msgpack.unpackb(body_bytes, raw=False)
    assert msgpack.packb(body, use_bin_type=True) == body_bytes  # canonical (§6.1)
    assert list(body) == ["v", "kind", "game", "to", "n"] + fields
    assert (body["v"], body["kind"], body["game"], body["to"], body["n"]) == (1, kind, GID, st["to"], entry["index"])
    messages = [bytes.fromhex(m) for m in V["messages"]]
    if kind == "hellos":
        assert body["hellos"] == messages[:3]  # host, seat 0, seat 1: the hellos of the deal above
    else:
        assert body["msg"] == messages[3]  # the host's shuffle pass, the first message after the hellos
    # the statement is the transcript's statement of that index, byte for byte
    top = msgpack.unpackb(bytes.fromhex(V["transcript"]["file"]), raw=False)
    assert top["statements"][entry["index"]].hex() == entry["wire"]


def test_the_transcript_of_a_blind_deal_verifies_as_the_vector_says():
    """A seat's transcript of the deal (abandoned after it, every seed revealed): its own
    hello commits to the transcript's seed (B.9), every participant message is the deal
    above, and jupai verify's library gives the vector's verdict, naming the scheme; one
    flipped byte makes it tampered."""
    from jupai_net.fairness import verify_transcript

    t = V["transcript"]
    data = bytes.fromhex(t["file"])
    top = msgpack.unpackb(data, raw=False)
    assert top["seed"] == SEEDS[1] and top["seat"] == t["seat"] == 0
    inner = []
    for raw in top["statements"]:
        body = msgpack.unpackb(msgpack.unpackb(raw, raw=False)[0], raw=False)
        if body["kind"] == "blind":
            inner.append(body["msg"])
    assert inner[:6] == [bytes.fromhex(m) for m in V["messages"][3:9]]  # the passes of the deal above
    verdict = verify_transcript(data)
    assert (verdict.status, verdict.details.get("scheme"), verdict.message) == (t["verdict"], t["scheme"], t["message"])
    flipped = bytearray(data)
    flipped[t["tampered_flip_byte"]] ^= 1
    assert verify_transcript(bytes(flipped)).status == t["tampered_verdict"] == "tampered"
