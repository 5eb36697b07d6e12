"""Provably fair dealing for 剧牌: commit–reveal seeds, a DRBG shuffle, per-position
card commitments, host-signed statements, transcripts and their verification
(specs/fairness.md).

Pure library: no IO, no sockets, no clock. The host uses :class:`HostDealer`, each
client a :class:`SeatWitness`; the protocol carries the signed statements as opaque
bytes; ``jupai verify FILE`` (:mod:`jupai_net.fairness.cli`) runs
:func:`verify_transcript` offline.

Names load lazily (PEP 562): ``import jupai_net.fairness`` is cheap, and
``from jupai_net.fairness import X`` imports only the module that defines ``X`` (so
``jupai --help`` does not load cryptography and the engine).
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public name -> the submodule that defines it.
_MODULES: dict[str, tuple[str, ...]] = {
    "dealer": (
        "DealerError", "HostDealer", "Outbox",
    ),
    "primitives": (
        "FAIRNESS_VERSION", "HOST_SEAT", "CardReveal", "Deal", "Drbg", "FairnessError", "card_commitment",
        "card_salt", "check_private_reveal", "check_public_reveal", "check_seed", "deck_commitments", "derive_deal",
        "derive_setup", "key_fingerprint", "make_game_id", "make_seed", "seed_commitment", "shuffle_deck",
    ),
    "statements": (
        "KINDS", "Statement", "StatementError", "decode_statement", "generate_signing_key", "join_statement",
        "peek_kind", "public_key_bytes", "sign_statement", "signing_key_from_bytes", "signing_key_to_bytes",
        "split_statement",
    ),
    "transcript": (
        "Transcript", "TranscriptError", "decode_transcript", "encode_transcript",
    ),
    "status": (
        "EXIT_CODES", "MALFORMED", "SUSPICIOUS", "TAMPERED", "UNVERIFIED", "VERIFIED",
    ),
    "verify": (
        "FairnessViolation", "GameChecker", "Verdict", "verify_many", "verify_transcript",
    ),
    "witness": (
        "SeatWitness", "WitnessError",
    ),
}
_SOURCE = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    """Import the submodule defining ``name`` on first use (PEP 562)."""
    module = _SOURCE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SOURCE))


__all__ = list(_SOURCE)
