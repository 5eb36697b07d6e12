"""Test vectors of the hash-chained statement streams (specs/fairness.md §6.5, §6.6, §11).

:func:`build_chain_vectors` returns the ``chain`` section that
:mod:`jupai_net.fairness.vectors` adds to ``protocol/vectors/fairness.json``: the chain
tag and the start link of each addressee, the small complete game of the
``transcript`` vector in the chained format (every statement's ``prev``), and forged
copies of it, one per way a stream can be broken, each with its verdict on the fast
path (the last signature and every link) and with every signature checked, and the
statement at which the seat's witness stops the game; and the ``deferred`` section: the
same game in version-3 bodies (steps signed only for the seat to move) with its forged
copies. Pure and deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..rules import RuleSet
from .forge import relinked
from .selfplay import play_game
from .statements import (CHAINED_BODY_VERSION, SPECTATOR_BYTE, TAG_CHAIN, chain_start, pack, sign_packed,
                         signing_key_from_bytes, split_statement, unsigned_packed, unpack)
from .transcript import Transcript, decode_transcript
from .verify import FairnessViolation, Verdict, verify_transcript
from .witness import SeatWitness

#: The small game of the ``transcript`` vector (2 seats, 2 rounds, hand size 2).
SMALL = RuleSet(players=2, rounds=2, hand_size=2)


def _hex(b: bytes) -> str:
    return bytes(b).hex()


def _where(v: Verdict) -> dict[str, Any]:
    return {"status": v.status, "message": v.message, "kind": v.kind}


def at_once(data: bytes) -> int | None:
    """The statement at which seat ``t.seat``'s witness refuses the stream, or None."""
    t = decode_transcript(data)
    w = SeatWitness(t.seat, t.seed)
    for i, raw in enumerate(t.statements):
        try:
            w.receive(raw)
        except FairnessViolation:  # the witness stops the game here
            return i
    return None


def build_chain_vectors(game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes], key_bytes: bytes,
                        other_game_id: bytes) -> dict[str, Any]:
    """The ``chain`` vectors (see the module docstring)."""
    key = signing_key_from_bytes(key_bytes)

    def game(gid: bytes):
        return play_game(SMALL, rng_seed=1, key=key, game_id=gid, host_seed=host_seed, seat_seeds=list(seat_seeds[:2]),
                         spectators=False)

    sp = game(game_id)
    data = sp.transcript(0)
    t = decode_transcript(data)
    stmts = list(t.statements)
    bodies = [unpack(split_statement(raw)[0]) for raw in stmts]
    seat1 = list(decode_transcript(sp.transcript(1)).statements)
    other = list(decode_transcript(game(other_game_id).transcript(0)).statements)
    step = next(i for i, b in enumerate(bodies) if b["kind"] == "step")  # a statement in the middle
    last = len(stmts) - 1
    faults: list[dict[str, Any]] = []

    def with_statements(statements: Sequence[bytes]) -> bytes:
        return Transcript(t.seat, t.seed, tuple(statements), t.host_gone).encode()

    def fault(name: str, what: str, statements: Sequence[bytes]) -> None:
        forged = with_statements(statements)
        faults.append({"name": name, "what": what, "file": _hex(forged),
                       "verdict": _where(verify_transcript(forged)),
                       "all_signatures": _where(verify_transcript(forged, all_signatures=True)),
                       "at_once": at_once(forged)})

    def flipped(raw: bytes, offset: int) -> bytes:
        b = bytearray(raw)
        b[offset] ^= 0x01
        return bytes(b)

    def host_signed(i: int, mutate: Callable[[dict[str, Any]], None]) -> list[bytes]:
        body = unpack(split_statement(stmts[i])[0])
        mutate(body)
        out = list(stmts)
        out[i] = sign_packed(key, pack(body))
        return out

    def plain(body: dict[str, Any]) -> None:
        del body["prev"]
        body["v"] = 1

    def wrong_prev(body: dict[str, Any]) -> None:
        body["prev"] = bytes(32)

    fault("body_byte_changed", "one byte of a middle statement's body changed, without the key",
          stmts[:step] + [flipped(stmts[step], len(stmts[step]) // 3)] + stmts[step + 1:])
    fault("middle_signature_broken", "a bit of a middle statement's signature (S stays below L): the body is "
          "intact, so the chain still authenticates it; only --all-signatures names it",
          stmts[:step] + [flipped(stmts[step], len(stmts[step]) - 40)] + stmts[step + 1:])
    fault("last_signature_broken", "a bit of the last statement's signature",
          stmts[:last] + [flipped(stmts[last], len(stmts[last]) - 40)])
    fault("dropped", "a middle statement left out", stmts[:step] + stmts[step + 1:])
    fault("swapped", "two statements in each other's place",
          stmts[:step] + [stmts[step + 1], stmts[step]] + stmts[step + 2:])
    fault("duplicated", "a middle statement delivered twice", stmts[:step + 1] + stmts[step:])
    fault("from_another_stream", "seat 1's statement in place of seat 0's", stmts[:step] + [seat1[step]] + stmts[step + 1:])
    fault("from_another_game", "the same statement of another game (same key, seeds and moves)",
          stmts[:step] + [other[step]] + stmts[step + 1:])
    fault("wrong_prev_signed", "the host signs a statement whose prev is not the chain's (the later links fitted)",
          relinked(host_signed(step, wrong_prev), key, step + 1))
    fault("mixed_formats", "the host signs a middle statement as a version-1 body (the later links fitted)",
          relinked(host_signed(step, plain), key, step + 1))
    fault("relinked_body_change", "the host changes a middle step's body and fits every later link: the chain "
          "holds, the replay names the change",
          relinked(host_signed(step, lambda b: b.__setitem__("version", b["version"] + 1)), key, step + 1))
    return {
        "deferred": _deferred_vectors(key, game_id, host_seed, seat_seeds),
        "chain": {
            "tag": _hex(TAG_CHAIN),
            "spectator_byte": SPECTATOR_BYTE,
            "game_id": _hex(game_id),
            "starts": [{"to": to, "prev": _hex(chain_start(game_id, to))} for to in (0, 1, 2, 3, None)],
            "transcript": {
                "rules": SMALL.to_wire(),
                "seat": 0,
                "bot_rng_seed": 1,
                "file": _hex(data),
                "prev": [_hex(b["prev"]) for b in bodies],
                "verdict": verify_transcript(data).status,
            },
            "faults": faults,
        }
    }


def _deferred_vectors(key: Any, game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes]) -> dict[str, Any]:
    """The ``deferred`` vectors (specs/fairness.md §6.6, §11): the ``transcript`` game
    with every seat's stream in version-3 bodies, seat 0's file, which statements carry
    no signature, and forged copies with their verdicts both ways and ``at_once``."""
    sp = play_game(SMALL, rng_seed=1, key=key, game_id=game_id, host_seed=host_seed, seat_seeds=list(seat_seeds[:2]),
                   spectators=False, deferred=True)
    data = sp.transcript(0)
    t = decode_transcript(data)
    stmts = list(t.statements)
    parts = [split_statement(raw) for raw in stmts]
    bodies = [unpack(b) for b, _ in parts]
    unsigned = [i for i, (_, sig) in enumerate(parts) if not sig]
    signed_steps = [i for i, b in enumerate(bodies) if b["kind"] == "step" and parts[i][1]]
    deal = next(i for i, b in enumerate(bodies) if b["kind"] == "deal")
    last = len(stmts) - 1
    faults: list[dict[str, Any]] = []

    def fault(name: str, what: str, statements: Sequence[bytes], host_gone: str | None = None) -> None:
        forged = Transcript(t.seat, t.seed, tuple(statements), host_gone).encode()
        faults.append({"name": name, "what": what, "file": _hex(forged),
                       "verdict": _where(verify_transcript(forged)),
                       "all_signatures": _where(verify_transcript(forged, all_signatures=True)),
                       "at_once": at_once(forged)})

    def replaced(i: int, raw: bytes) -> list[bytes]:
        return stmts[:i] + [raw] + stmts[i + 1:]

    def as_version_2(body: dict[str, Any]) -> None:
        body["v"] = CHAINED_BODY_VERSION

    u = unsigned[0]
    changed = bytearray(parts[u][0])
    changed[len(changed) // 2] ^= 0x01
    fault("unsigned_body_changed", "one byte of an unsigned step's body changed: the next link names it",
          replaced(u, unsigned_packed(bytes(changed))))
    fault("end_unsigned", "the end statement's signature removed", replaced(last, unsigned_packed(parts[last][0])))
    fault("deal_unsigned", "the deal statement's signature removed", replaced(deal, unsigned_packed(parts[deal][0])))
    s = signed_steps[0]
    fault("signed_step_unsigned", "a signed step's signature removed: a version-3 step may go unsigned, the next "
          "signed statement authenticates it (verified)", replaced(s, unsigned_packed(parts[s][0])))
    body = dict(bodies[u])
    as_version_2(body)
    fault("mixed_formats", "the host signs a step of the stream as a version-2 body (the later links fitted)",
          relinked(replaced(u, sign_packed(key, pack(body))), key, u + 1))
    fault("cut_after_unsigned", "the file ends after an unsigned step (the host gone): the last signed statement's "
          "signature is checked; the game is unfinished", stmts[:u + 1], host_gone="connection lost")
    return {
        "rules": SMALL.to_wire(),
        "seat": 0,
        "bot_rng_seed": 1,
        "file": _hex(data),
        "unsigned": unsigned,
        "verdict": verify_transcript(data).status,
        "faults": faults,
    }
