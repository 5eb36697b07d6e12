"""Test vectors of the dealer-blind scheme (specs/fairness.md B.12).

:func:`build_blind_vectors` computes, from fixed inputs, everything a third party must
reproduce: the card points, each participant's derived secrets and commitments, every
deck of a 2-seat deal (3 participants, 53 cards), two openings, every signed message of
the deal in order, one small shuffle proof, and the deal as the protocol carries it: the
schedule of the deal's openings, the host's signed ``hellos`` and ``blind`` statements,
and a seat's whole transcript with its verdict. All bytes are lowercase hex.

``python -m jupai_net.fairness.blind_vectors [--write]`` prints them, or rewrites
``protocol/vectors/blind.json``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .blind import (
    CardTable,
    ParticipantSecrets,
    hash_to_curve,
    initial_deck,
    scalar_bytes,
    table_participants,
)
from .blind_ledger import run_deal
from .statements import public_key_bytes, signing_key_from_bytes
from .vectors import print_or_write

GAME_ID = bytes.fromhex("6a757061692f626c696e640000000b1d")
#: Seeds of the host (0xFF), seat 0 and seat 1.
SEEDS = [bytes([0xA0 + i] * 32) for i in range(3)]
#: Per-game Ed25519 keys of the same three (test keys: never use them for a game).
SIGNING_KEYS = [bytes([0x5B + i] * 32) for i in range(3)]
PROOF_SIZE, PROOF_ROUNDS = 5, 8
#: The host's statement key and seed in the ``statements`` and ``transcript`` vectors (test values).
HOST_SIGNING_KEY = bytes([0x5A] * 32)
HOST_SEED = bytes(range(32))
ABANDON_REASON = "the dealer-blind deal is done"
VECTOR_PATH = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "blind.json"


def _hex(b: bytes) -> str:
    return bytes(b).hex()


def build_blind_vectors() -> dict[str, Any]:
    """All blind vectors as a JSON-ready dict (see the module docstring)."""
    pids = table_participants(2)
    keys = [signing_key_from_bytes(k) for k in SIGNING_KEYS]
    people, ledger, messages = run_deal(GAME_ID, pids, seeds=SEEDS, signing_keys=keys)
    v: dict[str, Any] = {
        "scheme": "jupai dealer-blind v1",
        "spec": "specs/fairness.md, Dealer-blind scheme",
        "inputs": {
            "game_id": _hex(GAME_ID),
            "participants": list(pids),
            "seeds": [_hex(s) for s in SEEDS],
            "signing_keys_private": [_hex(k) for k in SIGNING_KEYS],
            "signing_keys_public": [_hex(public_key_bytes(k)) for k in keys],
            "size": 53,
        },
        "card_points": [{"card": c, "counter": hash_to_curve(c)[0], "x": _hex(hash_to_curve(c)[1])} for c in range(53)],
    }
    v["participants"] = [
        {
            "pid": p.pid,
            "seed_commitment": _hex(p.secrets.commitment),
            "pass_key": _hex(scalar_bytes(p.secrets.pass_key)),
            "permutation": list(p.secrets.permutation),
            "lock_keys": [_hex(scalar_bytes(k)) for k in p.secrets.lock_keys()],
            "lock_commitments": [_hex(c) for c in p.secrets.lock_commitments()],
        }
        for p in people
    ]
    v["decks"] = [[_hex(x) for x in deck] for deck in ledger.decks]
    # opening position 0 to seat 0, and position 20 to everyone
    ledger.request(0, 0)
    ledger.request(20, None)
    keys_msgs = [p.keys([(0, 0)]) for p in people if p.pid != 0]
    keys_msgs += [p.keys([(20, None)]) for p in people]
    for m in keys_msgs:
        ledger.receive(m)
    private_card = people[1].open(ledger, 0)
    public_card = ledger.open_public(20)
    seed_msgs = [p.seed() for p in people]
    for m in seed_msgs:
        ledger.receive(m)
    v["openings"] = [
        {"position": 0, "to": 0, "card": private_card},
        {"position": 20, "to": None, "card": public_card},
    ]
    v["deck"] = ledger.audit()
    v["messages"] = [_hex(m) for m in messages + keys_msgs + seed_msgs]
    small = ParticipantSecrets(GAME_ID, 0, SEEDS[1], size=PROOF_SIZE)
    deck_in = initial_deck(PROOF_SIZE)
    deck_out = small.shuffle(deck_in)
    v["proof"] = {
        "pid": 0,
        "index": 0,
        "rounds": PROOF_ROUNDS,
        "size": PROOF_SIZE,
        "seed": _hex(SEEDS[1]),
        "deck_in": [_hex(x) for x in deck_in],
        "deck_out": [_hex(x) for x in deck_out],
        "proof": _hex(small.prove(0, deck_in, deck_out, PROOF_ROUNDS)),
    }
    assert sorted(v["deck"]) == list(range(53)) and CardTable().size == 53
    v.update(_wire_vectors(pids, people))
    return v


def _wire_vectors(pids: tuple[int, ...], people: list) -> dict[str, Any]:
    """The deal as the protocol carries it (specs/fairness.md B.15.1): the public
    schedule of the deal's openings, the host's signed ``hellos`` and ``blind``
    statements as seat 0 receives them, and seat 0's whole transcript of the deal
    (abandoned after it, seeds revealed) with its verdict, and the verdict of the same
    file with one byte flipped."""
    from jupai_net.host.blind import play_blind_deal

    from ..rules import RuleSet
    from .blind_ledger import BlindParticipant
    from .blind_schedule import deal_openings
    from .statements import split_statement, unpack
    from .verify import verify_transcript

    rules = RuleSet(players=2)
    fresh = [BlindParticipant(GAME_ID, pid, seed=seed, signing_key=signing_key_from_bytes(k))
             for pid, seed, k in zip(pids, SEEDS, SIGNING_KEYS)]
    host_key = signing_key_from_bytes(HOST_SIGNING_KEY)
    files = play_blind_deal(rules, host_key, game_id=GAME_ID, host_seed=HOST_SEED, participants=fresh, reason=ABANDON_REASON,
                            chained=False)  # the version-1 bodies these vectors were made with
    data = files[0]
    statements = unpack(data)["statements"]
    kinds = [unpack(split_statement(raw)[0])["kind"] for raw in statements]

    def statement(i: int) -> dict[str, Any]:
        body_bytes, sig = split_statement(statements[i])
        return {"index": i, "body_bytes": _hex(body_bytes), "signature": _hex(sig), "wire": _hex(statements[i])}

    verdict = verify_transcript(data)
    tampered = bytearray(data)
    tampered[len(tampered) // 2] ^= 0x01
    tv = verify_transcript(bytes(tampered))
    return {
        "schedule": {"rules": rules.to_wire(), "deal_openings": [[q, to] for q, to in deal_openings(rules)]},
        "statements": {
            "host_signing_key_private": _hex(HOST_SIGNING_KEY),
            "host_key": _hex(public_key_bytes(host_key)),
            "host_seed": _hex(HOST_SEED),
            "to": 0,
            "hellos": statement(kinds.index("hellos")),
            "blind": statement(kinds.index("blind")),
        },
        "transcript": {
            "rules": rules.to_wire(),
            "seat": 0,
            "reason": ABANDON_REASON,
            "kinds": kinds,
            "file": _hex(data),
            "verdict": verdict.status,
            "scheme": verdict.details.get("scheme"),
            "message": verdict.message,
            "tampered_flip_byte": len(tampered) // 2,
            "tampered_verdict": tv.status,
        },
    }


def main(argv: list[str] | None = None) -> int:
    """Print the vectors as JSON, or with ``--write`` rewrite ``protocol/vectors/blind.json``."""
    return print_or_write(build_blind_vectors(), VECTOR_PATH, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
