"""Forging a hostile host's statement streams, for tests and test vectors.

A hostile host holds the statement key: when it changes one statement of a chained
stream (specs/fairness.md §6.5) it also signs every later statement again with the
links that fit, so that only the change itself can be caught. :func:`relinked` does
that to a list of wire statements. Never used by the host or a client.
"""

from __future__ import annotations

from collections.abc import Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from .statements import (CHAIN_BODY_VERSIONS, chain_link, chain_start, pack, sign_packed, split_statement,
                         unpack, unsigned_packed)


def relinked(statements: Sequence[bytes], key: Ed25519PrivateKey, start: int = 1) -> list[bytes]:
    """``statements`` (wire bytes of one stream) with every chained body from index
    ``start`` on given the ``prev`` that the body before it calls for (statement 0: the
    stream's start, :func:`~.statements.chain_start`), and re-signed by ``key`` where
    that changed its ``prev`` (left unsigned if it came unsigned, specs/fairness.md
    §6.6); every other statement is kept byte for byte (version-1
    bodies, and statements that cannot be decoded, among them)."""
    out = list(statements)
    before: bytes | None = None
    if start > 0:
        try:
            before = split_statement(out[start - 1])[0]
        except ValueError:
            before = None
    for i in range(start, len(out)):
        try:
            body_bytes, sig = split_statement(out[i])
            body = unpack(body_bytes)
        except ValueError:
            before = None
            continue
        if isinstance(body, dict) and body.get("v") in CHAIN_BODY_VERSIONS and "prev" in body:
            want = (chain_start(body.get("game", b""), body.get("to")) if i == 0
                    else chain_link(before) if before is not None else body["prev"])
            if body["prev"] != want:
                body["prev"] = want
                body_bytes = pack(body)
                out[i] = sign_packed(key, body_bytes) if sig else unsigned_packed(body_bytes)
        before = body_bytes
    return out
