"""Test vectors of the fairness scheme (specs/fairness.md §11).

:func:`build_vectors` computes, from fixed inputs, every encoding a third-party
verifier must reproduce: seed commitments, DRBG keys and streams, rejection-sampled
integers, the deck order and setup, salts and card commitments, one signed statement
and a small complete transcript (with a tampered copy), in the version-1 body format,
and the hash-chained format's vectors (``chain``, :mod:`.chain_vectors`). All bytes
are lowercase hex.

``python -m jupai_net.fairness.vectors [--write]`` prints them, or rewrites
``protocol/vectors/fairness.json``. The cryptographic vectors never change within
scheme version 1; the transcript vector also depends on the rules engine (its events
and views) and is regenerated when the engine's output changes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..cards import DECK_SIZE
from ..rules import RuleSet
from .primitives import (
    HOST_SEAT,
    LABEL_DECK,
    LABEL_SETUP,
    Drbg,
    card_commitment,
    derive_deal,
    drbg_key,
    seed_commitment,
)
from .chain_vectors import build_chain_vectors
from .fault_vectors import build_extra_vectors
from .selfplay import play_game
from .statements import make_body, public_key_bytes, sign_statement, signing_key_from_bytes, split_statement
from .verify import verify_transcript

GAME_ID = bytes.fromhex("6a75706169000000000000000000c0de")
HOST_SEED = bytes(range(32))
SEAT_SEEDS = [bytes([0x10 * (s + 1) + i % 16 for i in range(32)]) for s in range(4)]
SIGNING_KEY = bytes([0x5A] * 32)  # a test key: never use it for a real game
#: The game id of the ``chain`` vector's statement from another game.
OTHER_GAME_ID = bytes.fromhex("6a75706169000000000000000000c0df")
VECTOR_PATH = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "fairness.json"


def _hex(b: bytes) -> str:
    return bytes(b).hex()


def build_vectors() -> dict[str, Any]:
    """All vectors as a JSON-ready dict (see module docstring)."""
    rules = RuleSet()
    v: dict[str, Any] = {
        "scheme": "jupai fairness v1",
        "spec": "specs/fairness.md",
        "inputs": {
            "game_id": _hex(GAME_ID),
            "host_seed": _hex(HOST_SEED),
            "seat_seeds": [_hex(s) for s in SEAT_SEEDS],
            "rules": rules.to_wire(),
        },
    }
    v["seed_commitments"] = [
        {"seat": seat, "seed": _hex(seed), "commitment": _hex(seed_commitment(GAME_ID, seat, seed))}
        for seat, seed in [(HOST_SEAT, HOST_SEED)] + list(enumerate(SEAT_SEEDS))
    ]
    drbg = {}
    for label in (LABEL_DECK, LABEL_SETUP):
        key = drbg_key(GAME_ID, HOST_SEED, SEAT_SEEDS, label)
        drbg[label] = {"key": _hex(key), "stream_first_96": _hex(Drbg(key).read(96))}
    v["drbg"] = drbg
    rng = Drbg(bytes.fromhex(drbg[LABEL_DECK]["key"]))
    ns = [1, 2, 3, 5, 7, 13, 53, 256, 257, 1000, 65537]
    v["randrange"] = {
        "key": drbg[LABEL_DECK]["key"],
        "n": ns,
        "results": [rng.randrange(n) for n in ns],
        "bytes_consumed": rng.consumed,
    }
    deal = derive_deal(rules, GAME_ID, HOST_SEED, SEAT_SEEDS)
    v["deck"] = list(deal.deck)
    v["setup"] = deal.setup.to_wire()
    v["positions"] = [
        {"k": k, "card": deal.deck[k], "salt": _hex(deal.salts[k]), "commitment": _hex(card_commitment(GAME_ID, k, deal.deck[k], deal.salts[k]))}
        for k in range(DECK_SIZE)
    ]
    key = signing_key_from_bytes(SIGNING_KEY)
    body = make_body("commitments", GAME_ID, 0, 1, commitments=[bytes.fromhex(c["commitment"]) for c in v["seed_commitments"][1:]])
    wire = sign_statement(key, body)
    body_bytes, sig = split_statement(wire)
    v["statement"] = {
        "signing_key_private": _hex(SIGNING_KEY),
        "host_key": _hex(public_key_bytes(key)),
        "body_bytes": _hex(body_bytes),
        "signature": _hex(sig),
        "wire": _hex(wire),
    }
    small = RuleSet(players=2, rounds=2, hand_size=2)
    sp = play_game(small, rng_seed=1, key=key, game_id=GAME_ID, host_seed=HOST_SEED, seat_seeds=SEAT_SEEDS[:2], spectators=False,
                   chained=False)  # version-1 bodies: the chained game is the ``chain`` vector
    data = sp.transcript(0)
    verdict = verify_transcript(data)
    tampered = bytearray(data)
    tampered[len(tampered) // 2] ^= 0x01
    tv = verify_transcript(bytes(tampered))
    v["transcript"] = {
        "rules": small.to_wire(),
        "seat": 0,
        "bot_rng_seed": 1,
        "statements": len(sp.witnesses[0]._raw),
        "file": _hex(data),
        "verdict": verdict.status,
        "tampered_flip_byte": len(tampered) // 2,
        "tampered_verdict": tv.status,
        "tampered_message": tv.message,
    }
    v.update(build_extra_vectors(GAME_ID, HOST_SEED, SEAT_SEEDS, SIGNING_KEY, data))
    v.update(build_chain_vectors(GAME_ID, HOST_SEED, SEAT_SEEDS, SIGNING_KEY, OTHER_GAME_ID))
    return v


def print_or_write(vectors: dict[str, Any], path: Path, argv: list[str] | None) -> int:
    """Print ``vectors`` as JSON, or with ``--write`` in ``argv`` (default: ``sys.argv``)
    rewrite ``path``. Returns the exit code 0."""
    argv = sys.argv[1:] if argv is None else argv
    text = json.dumps(vectors, indent=1) + "\n"
    if "--write" in argv:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {path}")
    else:
        sys.stdout.write(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Print the vectors as JSON, or with ``--write`` rewrite ``protocol/vectors/fairness.json``."""
    return print_or_write(build_vectors(), VECTOR_PATH, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
