"""Provably fair dealing for 剧牌: commit–reveal seeds, a DRBG shuffle, per-position
card commitments, host-signed statements, transcripts and their verification
(specs/fairness.md).

Pure library: no IO, no sockets, no clock. The host uses :class:`HostDealer`, each
client a :class:`SeatWitness`; the protocol carries the signed statements as opaque
bytes; ``jupai verify FILE`` (:mod:`jupai_net.fairness.cli`) runs
:func:`verify_transcript` offline.
"""

from .dealer import DealerError, HostDealer, Outbox
from .primitives import (
    FAIRNESS_VERSION,
    HOST_SEAT,
    CardReveal,
    Deal,
    Drbg,
    FairnessError,
    card_commitment,
    card_salt,
    check_private_reveal,
    check_public_reveal,
    check_seed,
    deck_commitments,
    derive_deal,
    derive_setup,
    key_fingerprint,
    make_game_id,
    make_seed,
    seed_commitment,
    shuffle_deck,
)
from .statements import (
    KINDS,
    Statement,
    StatementError,
    decode_statement,
    generate_signing_key,
    join_statement,
    peek_kind,
    public_key_bytes,
    sign_statement,
    signing_key_from_bytes,
    signing_key_to_bytes,
    split_statement,
)
from .transcript import Transcript, TranscriptError, decode_transcript, encode_transcript
from .verify import (
    EXIT_CODES,
    MALFORMED,
    SUSPICIOUS,
    TAMPERED,
    UNVERIFIED,
    VERIFIED,
    FairnessViolation,
    GameChecker,
    Verdict,
    verify_transcript,
)
from .witness import SeatWitness, WitnessError

__all__ = [
    "FAIRNESS_VERSION", "HOST_SEAT", "KINDS", "EXIT_CODES",
    "VERIFIED", "TAMPERED", "SUSPICIOUS", "UNVERIFIED", "MALFORMED",
    "HostDealer", "Outbox", "DealerError", "SeatWitness", "WitnessError",
    "Verdict", "FairnessViolation", "GameChecker", "verify_transcript",
    "Transcript", "TranscriptError", "encode_transcript", "decode_transcript",
    "Statement", "StatementError", "sign_statement", "decode_statement",
    "split_statement", "join_statement", "peek_kind",
    "generate_signing_key", "signing_key_from_bytes", "signing_key_to_bytes", "public_key_bytes",
    "FairnessError", "CardReveal", "Deal", "Drbg",
    "make_seed", "make_game_id", "seed_commitment", "check_seed",
    "shuffle_deck", "derive_setup", "derive_deal", "card_salt", "card_commitment", "deck_commitments",
    "check_private_reveal", "check_public_reveal", "key_fingerprint",
]
