"""Ed25519 key and signature hygiene the ``cryptography`` library does not do for us
(specs/fairness.md §6.3).

OpenSSL (behind ``cryptography``) verifies RFC 8032 signatures but accepts public
keys of small order and non-canonical encodings of them: with the key
``01 00 … 00`` (the neutral point) the constant signature ``01 00 … 00 ‖ 00 … 00``
verifies for EVERY message, so a "signed" transcript could be made with no private
key at all. The usual defence (libsodium's, and the one specified here) is:

* a public key is refused when its 255-bit ``y`` coordinate is not below
  ``p = 2^255 − 19`` (a non-canonical encoding), or when ``y`` (sign bit ignored) is
  one of the five ``y`` values of the points of order 1, 2, 4 and 8
  (:data:`SMALL_ORDER_Y`, a fixed blocklist);
* a signature ``R ‖ S`` is refused when ``S ≥ L`` (the group order) or when ``R``'s
  ``y`` is not below ``p`` (non-canonical encodings that let one message carry
  several signatures).

Only integer comparisons on the encodings: no curve arithmetic is done here (the
blocklist is checked against an independent computation in the tests).
"""

from __future__ import annotations

from typing import Any

#: The field prime of Curve25519 / Ed25519.
FIELD_P = 2**255 - 19
#: The order ``L`` of the Ed25519 base point (RFC 8032 §5.1).
GROUP_L = 2**252 + 27742317777372353535851937790883648493
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64

#: Little-endian ``y`` encodings (sign bit cleared) of the Ed25519 points of small
#: order: order 4 (y = 0), order 1 (y = 1), the two of order 8, order 2 (y = p − 1).
#: The other small-order encodings (y = p, y = p + 1) are non-canonical and refused
#: by the ``y < p`` rule.
SMALL_ORDER_Y: tuple[bytes, ...] = tuple(
    bytes.fromhex(h)
    for h in (
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    )
)


class WeakKeyError(ValueError):
    """A public key or signature that must not be trusted; ``str(exc)`` says why in
    one sentence."""


class Weakness(str):
    """Why a key or signature is refused: the English sentence itself (a ``str``, as
    these functions always returned), with the reason's ``code`` and ``args``
    (``verdict.reason.CODE`` in :mod:`jupai_net.messages.verdicts`), so that a verdict
    says it in the reader's language (specs/fairness.md §9.1)."""

    code: str
    args: dict[str, Any]

    def __new__(cls, text: str, *, code: str, **args: Any) -> "Weakness":
        out = super().__new__(cls, text)
        out.code, out.args = code, args
        return out


def _y(encoding: bytes) -> int:
    return int.from_bytes(encoding, "little") & ((1 << 255) - 1)


def key_weakness(public_key: Any) -> Weakness | None:
    """Why the raw Ed25519 public key ``public_key`` must be refused, or ``None`` for a
    key that passes: not 32 bytes, a non-canonical encoding (y ≥ p) or a point of
    small order (:data:`SMALL_ORDER_Y`). specs/fairness.md §6.3."""
    if not isinstance(public_key, (bytes, bytearray)) or len(public_key) != PUBLIC_KEY_BYTES:
        return Weakness(f"an Ed25519 public key is {PUBLIC_KEY_BYTES} bytes", code="key_size", size=PUBLIC_KEY_BYTES)
    key = bytes(public_key)
    if _y(key) >= FIELD_P:
        return Weakness("the host key is a non-canonical Ed25519 encoding (y ≥ 2^255 − 19)", code="key_non_canonical")
    if key[:31] + bytes([key[31] & 0x7F]) in SMALL_ORDER_Y:
        return Weakness("the host key is an Ed25519 point of small order: with it a constant signature "
                        "verifies for any message, so nothing it signs proves anything", code="key_small_order")
    return None


def signature_weakness(signature: Any) -> Weakness | None:
    """Why the 64-byte Ed25519 signature ``R ‖ S`` must be refused as non-canonical, or
    ``None``: not 64 bytes, ``S ≥ L`` or ``R`` with ``y ≥ p``. specs/fairness.md §6.3."""
    if not isinstance(signature, (bytes, bytearray)) or len(signature) != SIGNATURE_BYTES:
        return Weakness(f"an Ed25519 signature is {SIGNATURE_BYTES} bytes", code="signature_size",
                        size=SIGNATURE_BYTES)
    sig = bytes(signature)
    if int.from_bytes(sig[32:], "little") >= GROUP_L:
        return Weakness("the signature is non-canonical (its S is not below the group order L)",
                        code="signature_s_not_canonical")
    if _y(sig[:32]) >= FIELD_P:
        return Weakness("the signature is non-canonical (its R is not a canonical point encoding)",
                        code="signature_r_not_canonical")
    return None


def check_public_key(public_key: Any) -> bytes:
    """``public_key`` as bytes when it passes :func:`key_weakness`; raises
    :class:`WeakKeyError` otherwise."""
    why = key_weakness(public_key)
    if why:
        raise WeakKeyError(why)
    return bytes(public_key)
