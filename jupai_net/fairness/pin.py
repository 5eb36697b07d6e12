"""The host identity a player pins, and the statement key bound to it
(specs/fairness.md §3.5; specs/host.md § TLS and join codes).

A player pins the host's TLS certificate: its **fingerprint** (hex SHA-256 of the
certificate's DER bytes) in ``known_hosts``, and people compare its short form, the
**join code**. The certificate also carries the host's Ed25519 *statement key* (the
key that signs every fairness statement) in a non-critical X.509 extension, so pinning
the certificate pins the statement key too: a ``start`` statement whose ``host_key`` is
not the pinned certificate's key is refused before the seat commits to a seed, and
``jupai verify --code CODE`` can tie a transcript's key to the code a person read off
the host's screen.

* extension OID :data:`STATEMENT_KEY_OID` (``2.25.<UUID>``, an OID anyone may mint
  without registration, ITU-T X.667); its ``extnValue`` is the DER OCTET STRING of the
  raw 32-byte key: ``04 20 ‖ key``;
* join code: the first 80 bits of the fingerprint in Crockford base32, 16 characters
  in four groups of four (``"7KQ2-MX9P-DA3F-R8TW"``). Forging a certificate with a given
  code takes about 2⁸⁰ certificate hashes.

Pure: parsing with ``cryptography.x509``, hashing with :mod:`hashlib`.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # cryptography.x509 loads only when a certificate is read or made (fast `jupai verify`)
    from cryptography import x509

#: OID of the extension carrying the statement key (a UUID OID, fixed for scheme v1),
#: dotted; :data:`STATEMENT_KEY_OID` is the same as an ``x509.ObjectIdentifier``.
STATEMENT_KEY_DOTTED = "2.25.41355353823501647035547015905620552562"
#: Crockford base32 alphabet (no I, L, O, U: nothing to misread).
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of a join code, without dashes (5 bits each: 80 bits).
JOIN_CODE_CHARS = 16
JOIN_CODE_BITS = 5 * JOIN_CODE_CHARS
#: Characters per dash-separated group.
JOIN_CODE_GROUP = 4
#: Length of the join codes of jupai before the statement key was bound (50 bits).
OLD_JOIN_CODE_CHARS = 10
_DECODE = {c: c for c in CODE_ALPHABET} | {"O": "0", "I": "1", "L": "1"}


def __getattr__(name: str) -> Any:
    """:data:`STATEMENT_KEY_OID`, made when first asked for (PEP 562)."""
    if name == "STATEMENT_KEY_OID":
        from cryptography import x509

        return x509.ObjectIdentifier(STATEMENT_KEY_DOTTED)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class JoinCodeError(ValueError):
    """What a person typed is not a join code. ``key`` and ``values``: the sentence in
    the message catalog (``code.bad_chars``, ``code.length``, ``code.old``), so a
    command says it in the run's language (:meth:`text`); ``str()`` is the English."""

    def __init__(self, key: str, **values: Any) -> None:
        self.key, self.values = key, values
        super().__init__(self.text("en"))

    def text(self, lang: str | None = None) -> str:
        """The sentence in ``lang`` (default: the run's language)."""
        from ..messages import t

        return t(self.key, lang, **self.values)


class OldJoinCode(JoinCodeError):
    """A join code in the old 10-character form (``XXXXX-XXXXX``, before the host key was
    bound to it): the host now shows a 16-character code."""


def statement_key_extension(public_key: bytes) -> x509.UnrecognizedExtension:
    """The X.509 extension that carries the 32-byte statement key (non-critical when
    added to a certificate)."""
    from cryptography import x509

    if len(public_key) != 32:
        raise ValueError("an Ed25519 statement key is 32 bytes")
    return x509.UnrecognizedExtension(x509.ObjectIdentifier(STATEMENT_KEY_DOTTED), b"\x04\x20" + bytes(public_key))


def cert_fingerprint(der: bytes) -> str:
    """Lowercase hex SHA-256 of a certificate's DER bytes (64 characters)."""
    return hashlib.sha256(bytes(der)).hexdigest()


#: The last certificates read by :func:`cert_statement_key` (DER → key): a client reads
#: its pinned host's once, when it connects, not again at every game's ``start``.
_STATEMENT_KEYS: dict[bytes, bytes | None] = {}
_STATEMENT_KEYS_KEPT = 8


def cert_statement_key(der: Any) -> bytes | None:
    """The 32-byte statement key the certificate ``der`` (DER bytes) carries, or
    ``None`` when it carries none. Raises ``ValueError`` when ``der`` is not a
    certificate, the extension is not an OCTET STRING of 32 bytes, or an extension
    appears twice (specs/fairness.md §3.5). The result for the last few certificates
    is kept (a pure function of the bytes), so a client that reads its host's at
    connect time pays nothing at the game's start (issue 9, figures)."""
    if not isinstance(der, (bytes, bytearray)):
        raise ValueError("a certificate is DER bytes")
    der = bytes(der)
    if der in _STATEMENT_KEYS:
        return _STATEMENT_KEYS[der]
    key = _read_statement_key(der)
    if len(_STATEMENT_KEYS) >= _STATEMENT_KEYS_KEPT:
        _STATEMENT_KEYS.pop(next(iter(_STATEMENT_KEYS)))
    _STATEMENT_KEYS[der] = key
    return key


def _read_statement_key(der: bytes) -> bytes | None:
    from cryptography import x509

    cert = x509.load_der_x509_certificate(der)
    try:
        ext = cert.extensions.get_extension_for_oid(x509.ObjectIdentifier(STATEMENT_KEY_DOTTED))
    except x509.ExtensionNotFound:
        return None
    except x509.DuplicateExtension as exc:  # not a ValueError: would escape the caller
        raise ValueError(f"the certificate repeats an extension ({exc.oid.dotted_string})") from None
    value = ext.value.value if isinstance(ext.value, x509.UnrecognizedExtension) else b""
    if len(value) != 34 or value[:2] != b"\x04\x20":
        raise ValueError("the certificate's statement key extension is not a 32-byte OCTET STRING")
    return value[2:]


def _group(chars: str) -> str:
    return "-".join(chars[i : i + JOIN_CODE_GROUP] for i in range(0, len(chars), JOIN_CODE_GROUP))


def join_code(fingerprint: str) -> str:
    """The join code of a certificate fingerprint (see :func:`cert_fingerprint`): its
    first 80 bits in Crockford base32, ``"XXXX-XXXX-XXXX-XXXX"``. Raises ``ValueError``
    if ``fingerprint`` is not 64 hex characters."""
    if len(fingerprint) != 64:
        raise ValueError("a certificate fingerprint is 64 hex characters")
    bits = int(fingerprint[: JOIN_CODE_BITS // 4], 16)
    return _group("".join(CODE_ALPHABET[(bits >> (5 * i)) & 31] for i in reversed(range(JOIN_CODE_CHARS))))


def cert_join_code(der: bytes) -> str:
    """The join code of a certificate given as DER bytes."""
    return join_code(cert_fingerprint(der))


def normalize_code(code: str) -> str:
    """A join code as typed (any case, spaces or dashes, O/I/L for 0/1/1) in its
    canonical ``"XXXX-XXXX-XXXX-XXXX"`` form. Raises :class:`OldJoinCode` for a
    10-character code of an older jupai, :class:`JoinCodeError` (a ``ValueError``) for
    anything else that is not a join code."""
    raw = [c for c in str(code).upper() if c not in " -_"]
    try:
        chars = [_DECODE[c] for c in raw]
    except KeyError as exc:
        raise JoinCodeError("code.bad_chars", alphabet=CODE_ALPHABET, got=repr(exc.args[0])) from None
    if len(chars) == OLD_JOIN_CODE_CHARS:
        raise OldJoinCode("code.old", code=code.strip(), chars=JOIN_CODE_CHARS)
    if len(chars) != JOIN_CODE_CHARS:
        raise JoinCodeError("code.length", chars=JOIN_CODE_CHARS, got=len(chars))
    return _group("".join(chars))


def code_matches(code: str, fingerprint: str) -> bool:
    """True when the typed join ``code`` is the join code of ``fingerprint`` (False for
    a code that cannot be parsed)."""
    try:
        return normalize_code(code) == join_code(fingerprint)
    except ValueError:
        return False
