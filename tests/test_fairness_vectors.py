"""The test vectors in protocol/vectors/fairness.json (specs/fairness.md §11), checked by
an independent re-implementation written from the spec with hashlib and cryptography
only, and by the library itself."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgpack
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from jupai_net.fairness import verify_transcript
from jupai_net.fairness.vectors import build_vectors
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup

PATH = Path(__file__).resolve().parents[1] / "protocol" / "vectors" / "fairness.json"
V = json.loads(PATH.read_text())
GID = bytes.fromhex(V["inputs"]["game_id"])
HOST = bytes.fromhex(V["inputs"]["host_seed"])
SEATS = [bytes.fromhex(s) for s in V["inputs"]["seat_seeds"]]


# --- an independent reading of the spec -------------------------------------------


def spec_drbg_key(label: str) -> bytes:
    return HKDF(hashes.SHA256(), 32, salt=GID, info=b"jupai/v1/drbg\x00" + label.encode()).derive(HOST + b"".join(SEATS))


class SpecStream:
    def __init__(self, key: bytes):
        self.enc = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor()
        self.used = 0

    def take(self, n: int) -> bytes:
        self.used += n
        return self.enc.update(bytes(n))  # the keystream, byte by byte in order

    def randrange(self, n: int) -> int:
        if n == 1:
            return 0
        b = (n - 1).bit_length()
        while True:
            x = int.from_bytes(self.take((b + 7) // 8), "big") % (1 << b)
            if x < n:
                return x


def spec_shuffle(rng: SpecStream) -> list[int]:
    deck = list(range(53))
    for i in range(52, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# --- tests ------------------------------------------------------------------------------


def test_vectors_file_is_current():
    built = build_vectors()
    stored = dict(V)
    assert {k: v for k, v in built.items() if k != "transcript"} == {k: v for k, v in stored.items() if k != "transcript"}, (
        "cryptographic vectors changed: the fairness scheme v1 must not change"
    )
    assert built["transcript"] == stored["transcript"], (
        "the transcript vector changed (engine output?): regenerate with `python -m jupai_net.fairness.vectors --write`"
    )


def test_seed_commitments():
    for c in V["seed_commitments"]:
        seed = bytes.fromhex(c["seed"])
        want = hashlib.sha256(b"jupai/v1/seed\x00" + GID + bytes([c["seat"]]) + seed).hexdigest()
        assert c["commitment"] == want
    assert V["seed_commitments"][0]["seat"] == 0xFF


def test_drbg_keys_and_streams():
    for label, d in V["drbg"].items():
        key = spec_drbg_key(label)
        assert d["key"] == key.hex()
        assert d["stream_first_96"] == SpecStream(key).take(96).hex()


def test_rejection_sampling():
    r = V["randrange"]
    s = SpecStream(bytes.fromhex(r["key"]))
    assert [s.randrange(n) for n in r["n"]] == r["results"]
    assert s.used == r["bytes_consumed"]


def test_deck_and_setup():
    assert spec_shuffle(SpecStream(spec_drbg_key("deck"))) == V["deck"]
    setup = draw_setup(RuleSet.from_wire(V["inputs"]["rules"]), SpecStream(spec_drbg_key("setup")))
    assert setup.to_wire() == V["setup"]


def test_salts_and_card_commitments():
    for p in V["positions"]:
        k = p["k"]
        salt = HKDF(hashes.SHA256(), 32, salt=GID, info=b"jupai/v1/salt\x00" + bytes([k])).derive(HOST)
        assert p["salt"] == salt.hex() and p["card"] == V["deck"][k]
        want = hashlib.sha256(b"jupai/v1/card\x00" + GID + bytes([k, p["card"]]) + salt).hexdigest()
        assert p["commitment"] == want


def test_signed_statement():
    s = V["statement"]
    body_bytes, sig = bytes.fromhex(s["body_bytes"]), bytes.fromhex(s["signature"])
    assert msgpack.packb([body_bytes, sig], use_bin_type=True).hex() == s["wire"]
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(s["host_key"])).verify(sig, b"jupai/v1/statement\x00" + body_bytes)
    body = msgpack.unpackb(body_bytes, raw=False)
    assert list(body) == ["v", "kind", "game", "to", "n", "commitments"]
    assert body["v"] == 1 and body["game"] == GID and body["commitments"][0].hex() == V["seed_commitments"][1]["commitment"]


def test_small_complete_transcript():
    t = V["transcript"]
    data = bytes.fromhex(t["file"])
    top = msgpack.unpackb(data, raw=False)
    assert list(top) == ["format", "v", "seat", "seed", "statements", "host_gone"]
    assert top["format"] == "jupai-transcript" and len(top["statements"]) == t["statements"]
    assert verify_transcript(data).status == t["verdict"] == "verified"
    bad = bytearray(data)
    bad[t["tampered_flip_byte"]] ^= 1
    v = verify_transcript(bytes(bad))
    assert (v.status, v.message) == (t["tampered_verdict"], t["tampered_message"]) == ("tampered", t["tampered_message"])


@pytest.mark.parametrize("n", [1, 100, 1000])
def test_transcript_vector_prefixes_are_malformed(n):
    assert verify_transcript(bytes.fromhex(V["transcript"]["file"])[:n]).status == "malformed"
