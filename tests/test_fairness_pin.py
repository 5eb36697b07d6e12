"""The pinned host identity (specs/fairness.md §3.5, specs/host.md § TLS and join codes):
an 80-bit join code, a certificate that carries the statement key, stable across
restarts, and a clear way out of an old pin."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding
from rich.console import Console

from jupai_net.client import cli
from jupai_net.client.known_hosts import HostKeyChanged, KnownHosts
from jupai_net.fairness import public_key_bytes
from jupai_net.fairness.pin import (
    JOIN_CODE_BITS,
    OldJoinCode,
    cert_join_code,
    cert_statement_key,
    code_matches,
    join_code,
    normalize_code,
)
from jupai_net.host.tls import load_identity, make_certificate


def der(pem: bytes) -> bytes:
    return x509.load_pem_x509_certificate(pem).public_bytes(Encoding.DER)


def test_the_join_code_holds_80_bits_in_four_groups():
    assert JOIN_CODE_BITS >= 80
    fp = "f" * 64
    assert join_code(fp) == "ZZZZ-ZZZZ-ZZZZ-ZZZZ"
    assert join_code("0123456789abcdef0123" + "0" * 44) == join_code("0123456789abcdef0123" + "f" * 44)
    # every one of the first 80 bits changes the code; bit 81 does not
    base = int("0" * 64, 16)
    codes = {join_code(f"{base | (1 << (255 - b)):064x}") for b in range(80)}
    assert len(codes) == 80
    assert join_code(f"{1 << (255 - 80):064x}") == join_code("0" * 64)
    code = join_code("ab" * 32)
    assert normalize_code(code.lower().replace("-", " ")) == code and code_matches(code.replace("0", "O"), "ab" * 32)


def test_an_old_code_is_named_as_such():
    with pytest.raises(OldJoinCode, match="old-style join code"):
        normalize_code("7KQ2M-X9PDA")
    with pytest.raises(ValueError, match="16 characters"):
        normalize_code("7KQ2-MX9P-DA3F")


def test_the_certificate_carries_the_statement_key(tmp_path):
    ident = load_identity(tmp_path)
    key = public_key_bytes(ident.signing_key)
    assert cert_statement_key(der(ident.cert_pem)) == key
    assert cert_join_code(der(ident.cert_pem)) == ident.join_code and ident.replaced_code is None
    again = load_identity(tmp_path)  # a restart: same certificate, same code
    assert (again.join_code, again.cert_pem) == (ident.join_code, ident.cert_pem)


def test_an_old_certificate_is_replaced_once_and_says_so(tmp_path):
    first = load_identity(tmp_path)
    old_pem, old_key_pem = make_certificate("old host")  # an older jupai: no statement key in it
    (tmp_path / "host-cert.pem").write_bytes(old_pem)
    (tmp_path / "host-key.pem").write_bytes(old_key_pem)
    old_code = cert_join_code(der(old_pem))
    new = load_identity(tmp_path)
    assert new.replaced_code == old_code and new.join_code != old_code
    assert cert_statement_key(der(new.cert_pem)) == public_key_bytes(first.signing_key)
    assert load_identity(tmp_path).replaced_code is None  # stable from then on
    assert load_identity(tmp_path).join_code == new.join_code


def test_an_old_pin_gets_a_clear_message(tmp_path):
    kh = KnownHosts(tmp_path / "known_hosts")
    (tmp_path / "known_hosts").write_text("[h]:1 " + "ab" * 32 + " 7KQ2M-X9PDA\n")
    out = io.StringIO()
    check = cli.PinningCheck(None, Console(file=out, width=300, color_system=None), "en", kh)
    with pytest.raises(HostKeyChanged) as exc:
        check("h", 1, "cd" * 32)
    assert exc.value.old_format
    text = " ".join(out.getvalue().split())
    assert "pinned by an older jupai with the short join code 7KQ2M-X9PDA" in text
    assert f"join again with --code {join_code('cd' * 32)}" in text
    # with the new code the old pin is replaced
    cli.PinningCheck(join_code("cd" * 32), Console(file=io.StringIO()), "en", kh)("h", 1, "cd" * 32)
    assert kh.get("h", 1) == "cd" * 32


def test_jupai_join_with_an_old_code_says_so(tmp_path):
    env = {**os.environ, "JUPAI_CONFIG_DIR": str(tmp_path), "LANG": "en_US.UTF-8", "COLUMNS": "300"}
    r = subprocess.run([sys.executable, "-m", "jupai_net", "join", "127.0.0.1:1", "--code", "7KQ2M-X9PDA"],
                       capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == cli.EXIT_USAGE
    assert "old-style join code" in " ".join((r.stdout + r.stderr).split()) and "Traceback" not in r.stderr


def test_statement_key_is_read_once_per_certificate_and_junk_is_refused_every_time(tmp_path):
    """A client reads its host's certificate when it connects; each game's witness asks
    again and gets the same key without parsing (issue 9 figures). Junk is never kept."""
    from jupai_net.fairness import pin

    ident = load_identity(tmp_path)
    cert = der(ident.cert_pem)
    key = cert_statement_key(cert)
    assert key == public_key_bytes(ident.signing_key)
    assert pin._STATEMENT_KEYS[cert] == key and cert_statement_key(bytearray(cert)) == key
    for _ in range(2):
        with pytest.raises(ValueError):
            cert_statement_key(b"not a certificate")
    assert b"not a certificate" not in pin._STATEMENT_KEYS
