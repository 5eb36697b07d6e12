"""TLS helpers shared by the host and the client (specs/host.md § TLS and join codes).

The host uses a self-signed certificate (made once by :mod:`jupai_net.host.tls` and
kept in the user's config directory). Clients cannot validate it against a CA, so a
client connects with certificate checking switched off in :mod:`ssl` and checks the
certificate itself, by its SHA-256 fingerprint, right after the TLS handshake and
before sending a single byte of its own:

* the **fingerprint** is the lowercase hex SHA-256 of the certificate's DER bytes
  (64 characters, what SSH-style known-hosts pinning stores);
* the **join code** is the first 50 bits of that digest in Crockford base32, as two
  groups of 5 characters (``"7KQ2M-X9PDA"``), short enough to read out across a room.

No cryptography is done here beyond :mod:`hashlib` and :mod:`ssl` from the standard
library.
"""

from __future__ import annotations

import hashlib
import os
import ssl
from pathlib import Path

#: Crockford base32 alphabet (no I, L, O, U: nothing to misread).
_B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of a join code, without the dash.
JOIN_CODE_CHARS = 10
_DECODE = {c: c for c in _B32} | {"O": "0", "I": "1", "L": "1"}


def config_dir() -> Path:
    """The user's jupai config directory (not created here).

    ``$JUPAI_CONFIG_DIR`` if set (tests point it at a temporary directory), else
    ``$XDG_CONFIG_HOME/jupai``, else ``~/.config/jupai``.
    """
    env = os.environ.get("JUPAI_CONFIG_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = Path(xdg) if xdg else Path.home() / ".config"
    return base / "jupai"


def cert_fingerprint(der: bytes) -> str:
    """Lowercase hex SHA-256 of a certificate's DER bytes (64 characters)."""
    return hashlib.sha256(der).hexdigest()


def join_code(fingerprint: str) -> str:
    """The short join code of a certificate fingerprint (hex SHA-256, see
    :func:`cert_fingerprint`): its first 50 bits in Crockford base32, ``"XXXXX-XXXXX"``.

    Raises ``ValueError`` if ``fingerprint`` is not 64 hex characters.
    """
    if len(fingerprint) != 64:
        raise ValueError("a certificate fingerprint is 64 hex characters")
    bits = int(fingerprint[:13], 16) >> 2  # 52 bits -> 50
    chars = [_B32[(bits >> (5 * i)) & 31] for i in reversed(range(JOIN_CODE_CHARS))]
    return "".join(chars[:5]) + "-" + "".join(chars[5:])


def normalize_code(code: str) -> str:
    """A join code as typed (any case, spaces or dashes, O/I/L for 0/1/1) in its
    canonical ``"XXXXX-XXXXX"`` form. Raises ``ValueError`` when it cannot be one."""
    raw = [c for c in code.upper() if c not in " -_"]
    try:
        chars = [_DECODE[c] for c in raw]
    except KeyError as exc:
        raise ValueError(f"a join code has only the characters {_B32} (and dashes), got {exc.args[0]!r}") from None
    if len(chars) != JOIN_CODE_CHARS:
        raise ValueError(f"a join code has {JOIN_CODE_CHARS} characters, got {len(chars)}")
    return "".join(chars[:5]) + "-" + "".join(chars[5:])


def code_matches(code: str, fingerprint: str) -> bool:
    """True when the typed join ``code`` is the join code of ``fingerprint``
    (False for a code that cannot be parsed)."""
    try:
        return normalize_code(code) == join_code(fingerprint)
    except ValueError:
        return False


def client_ssl_context() -> ssl.SSLContext:
    """A TLS 1.3 client context that accepts any certificate: the caller MUST check the
    peer certificate's fingerprint itself after the handshake (see
    :func:`peer_fingerprint`), as :func:`jupai_net.client.session.run_session` does."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def peer_fingerprint(ssl_object: object) -> str:
    """The fingerprint of the certificate the peer presented on a finished handshake
    (``ssl_object`` is an :class:`ssl.SSLObject`, or a ``trio.SSLStream``, which
    forwards ``getpeercert``). Raises ``ssl.SSLError`` when the peer sent none."""
    der = ssl_object.getpeercert(binary_form=True)  # type: ignore[attr-defined]
    if not der:
        raise ssl.SSLError("the host presented no certificate")
    return cert_fingerprint(der)
