"""TLS helpers shared by the host and the client (specs/host.md § TLS and join codes).

The host uses a self-signed certificate (made once by :mod:`jupai_net.host.tls` and
kept in the user's config directory). Clients cannot validate it against a CA, so a
client connects with certificate checking switched off in :mod:`ssl` and checks the
certificate itself, by its SHA-256 fingerprint, right after the TLS handshake and
before sending a single byte of its own:

* the **fingerprint** is the lowercase hex SHA-256 of the certificate's DER bytes
  (64 characters, what SSH-style known-hosts pinning stores);
* the **join code** is the first 80 bits of that digest in Crockford base32, as four
  groups of 4 characters (``"7KQ2-MX9P-DA3F-R8TW"``), short enough to read out across
  a room, and about 2⁸⁰ hashes of work to forge;
* the certificate carries the host's statement key, so the pin binds it too
  (:mod:`jupai_net.fairness.pin`, which defines the fingerprint and the join code).

No cryptography is done here beyond :mod:`ssl` from the standard library.
"""

from __future__ import annotations

import ssl

from jupai_net.config import config_dir  # noqa: F401 - the one definition; host and client import it from here
from jupai_net.fairness.pin import (  # noqa: F401 - the client's names for them
    JOIN_CODE_CHARS,
    OldJoinCode,
    cert_fingerprint,
    code_matches,
    join_code,
    normalize_code,
)


def client_ssl_context() -> ssl.SSLContext:
    """A TLS 1.3 client context that accepts any certificate: the caller MUST check the
    peer certificate's fingerprint itself after the handshake (see
    :func:`peer_fingerprint`), as :func:`jupai_net.client.session.run_session` does."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def peer_certificate(ssl_object: object) -> bytes:
    """The DER bytes of the certificate the peer presented on a finished handshake
    (``ssl_object`` is an :class:`ssl.SSLObject`, or a ``trio.SSLStream``, which
    forwards ``getpeercert``). Raises ``ssl.SSLError`` when the peer sent none."""
    der = ssl_object.getpeercert(binary_form=True)  # type: ignore[attr-defined]
    if not der:
        raise ssl.SSLError("the host presented no certificate")
    return bytes(der)


def peer_fingerprint(ssl_object: object) -> str:
    """The fingerprint of the certificate the peer presented (see :func:`peer_certificate`)."""
    return cert_fingerprint(peer_certificate(ssl_object))
