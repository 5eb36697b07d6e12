"""The host's identity: a self-signed TLS certificate and an Ed25519 statement key,
made once with :mod:`cryptography` and kept in the user's config directory
(specs/host.md § TLS and join codes).

Files in :func:`jupai_net.client.tls.config_dir` (mode 0600 for private keys):

* ``host-cert.pem`` / ``host-key.pem`` — EC P-256 key and self-signed X.509
  certificate (10 years) for TLS 1.3; the certificate carries the statement key in an
  extension (:mod:`jupai_net.fairness.pin`), so the join code players pin binds both;
* ``host-signing.key`` — the raw 32-byte Ed25519 key that signs fairness statements,
  so the host key fingerprint players compare stays the same from game to game.

A certificate made by an older jupai (without the statement key, or naming another
key) is replaced once by one that carries the key: the join code changes then, and
:attr:`HostIdentity.replaced_code` keeps the old code so the host screen can say so.
"""

from __future__ import annotations

import datetime
import logging
import os
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.x509.oid import NameOID

from jupai_net.client.tls import cert_fingerprint, config_dir, join_code
from jupai_net.fairness import generate_signing_key, public_key_bytes, signing_key_from_bytes, signing_key_to_bytes
from jupai_net.fairness.pin import cert_statement_key, statement_key_extension

log = logging.getLogger("jupai.host")

CERT_FILE = "host-cert.pem"
KEY_FILE = "host-key.pem"
SIGNING_KEY_FILE = "host-signing.key"


@dataclass(frozen=True)
class HostIdentity:
    """Everything the host needs to prove who it is.

    ``cert_pem`` / ``key_pem``: the TLS certificate and its private key (PEM bytes);
    ``fingerprint``: hex SHA-256 of the certificate DER; ``join_code``: its short form
    (``"XXXX-XXXX-XXXX-XXXX"``, 80 bits: jupai_net.fairness.pin); ``signing_key``: the Ed25519 statement key; ``cert_path`` /
    ``key_path``: where the PEM files are (``None`` for an in-memory identity);
    ``replaced_code``: the join code of an older certificate this one replaced when it
    was loaded (it did not carry the statement key), else ``None``.
    """

    cert_pem: bytes
    key_pem: bytes
    fingerprint: str
    join_code: str
    signing_key: Ed25519PrivateKey
    cert_path: Path | None = None
    key_path: Path | None = None
    replaced_code: str | None = None

    def server_context(self) -> ssl.SSLContext:
        """A TLS 1.3 server context with this certificate (written to the config dir,
        or to a private temp file for an in-memory identity, since :mod:`ssl` loads
        certificates from files only)."""
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_3
        if self.cert_path is not None and self.key_path is not None:
            ctx.load_cert_chain(self.cert_path, self.key_path)
            return ctx
        import tempfile

        with tempfile.TemporaryDirectory(prefix="jupai-") as tmp:
            cert, key = Path(tmp, CERT_FILE), Path(tmp, KEY_FILE)
            cert.write_bytes(self.cert_pem)
            _write_private(key, self.key_pem)
            ctx.load_cert_chain(cert, key)
        return ctx


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def make_certificate(common_name: str | None = None, statement_key: bytes | None = None) -> tuple[bytes, bytes]:
    """A fresh EC P-256 key and a self-signed certificate for it, valid 10 years:
    ``(cert_pem, key_pem)``. ``common_name`` defaults to ``"jupai host <hostname>"``;
    ``statement_key`` (the raw 32-byte Ed25519 public key that signs statements) goes
    into the certificate's statement key extension (specs/fairness.md §3.5)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, (common_name or f"jupai host {socket.gethostname()}")[:64])])
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
    )
    if statement_key is not None:
        builder = builder.add_extension(statement_key_extension(statement_key), critical=False)
    cert = builder.sign(key, hashes.SHA256())
    cert_pem = cert.public_bytes(serialization.Encoding.PEM)
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return cert_pem, key_pem


def _fingerprint_of(cert_pem: bytes) -> str:
    cert = x509.load_pem_x509_certificate(cert_pem)
    return cert_fingerprint(cert.public_bytes(serialization.Encoding.DER))


def load_identity(directory: Path | str | None = None, *, create: bool = True) -> HostIdentity:
    """Load the host identity from ``directory`` (default :func:`config_dir`), making
    the certificate and the statement key the first time (``create``).

    Raises ``FileNotFoundError`` when they are missing and ``create`` is false, and
    ``ValueError`` when a file exists but cannot be read as what it should be.
    """
    d = Path(directory) if directory is not None else config_dir()
    cert_path, key_path, sign_path = d / CERT_FILE, d / KEY_FILE, d / SIGNING_KEY_FILE
    if not sign_path.exists():
        if not create:
            raise FileNotFoundError(f"no host statement key in {d}")
        d.mkdir(parents=True, exist_ok=True)
        _write_private(sign_path, signing_key_to_bytes(generate_signing_key()))
    raw = sign_path.read_bytes()
    if len(raw) != 32:
        raise ValueError(f"{sign_path} must hold a raw 32-byte Ed25519 key")
    signing_key = signing_key_from_bytes(raw)
    statement_key = public_key_bytes(signing_key)
    replaced: str | None = None
    if cert_path.exists() and key_path.exists():
        try:
            der = x509.load_pem_x509_certificate(cert_path.read_bytes()).public_bytes(serialization.Encoding.DER)
            carried = cert_statement_key(der)
        except ValueError as exc:
            raise ValueError(f"{cert_path} is not a PEM certificate: {exc}") from None
        if carried != statement_key:
            if not create:
                raise ValueError(f"{cert_path} does not carry the host statement key (made by an older jupai)")
            replaced = join_code(cert_fingerprint(der))
    if replaced is not None or not (cert_path.exists() and key_path.exists()):
        if not create:
            raise FileNotFoundError(f"no host certificate in {d}")
        d.mkdir(parents=True, exist_ok=True)
        cert_pem, key_pem = make_certificate(statement_key=statement_key)
        _write_private(key_path, key_pem)
        cert_path.write_bytes(cert_pem)
        if replaced is None:
            log.info("made a new host certificate in %s", d)
        else:
            log.warning("replaced the host certificate in %s by one that carries the statement key: "
                        "the join code changed (it was %s)", d, replaced)
    cert_pem, key_pem = cert_path.read_bytes(), key_path.read_bytes()
    try:
        fingerprint = _fingerprint_of(cert_pem)
    except ValueError as exc:
        raise ValueError(f"{cert_path} is not a PEM certificate: {exc}") from None
    return HostIdentity(cert_pem, key_pem, fingerprint, join_code(fingerprint), signing_key, cert_path, key_path,
                        replaced)


def ephemeral_identity() -> HostIdentity:
    """A fresh in-memory identity (nothing written to disk): for tests and benchmarks."""
    signing_key = generate_signing_key()
    cert_pem, key_pem = make_certificate("jupai test host", public_key_bytes(signing_key))
    fp = _fingerprint_of(cert_pem)
    return HostIdentity(cert_pem, key_pem, fp, join_code(fp), signing_key)


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses that other machines on the LAN can probably
    reach, best guess first (no packets are sent). Falls back to ``["127.0.0.1"]``."""
    found: list[str] = []
    try:  # the address of the default route's interface (UDP connect sends nothing)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = info[4][0]
            if addr not in found:
                found.append(addr)
    except OSError:
        pass
    found = [a for a in found if not a.startswith("127.")] or found
    return found or ["127.0.0.1"]
