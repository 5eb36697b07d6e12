"""Test vectors of the rules a third-party verifier must follow exactly, and of every
kind of fault of issue 7, each with its expected verdict (specs/fairness.md §11).

:func:`build_extra_vectors` returns the sections ``setup_draws``, ``rules``,
``canonical``, ``weak_keys``, ``pin``, ``due_positions`` and ``faults`` that
:mod:`jupai_net.fairness.vectors` adds to ``protocol/vectors/fairness.json``. The
faults are forged transcripts of a tiny game (2 seats, 1 round, hand size 1, signed
by the vectors' test key): re-signed bodies, weak keys, wrong pins, aborts. Pure
and deterministic (Ed25519 signatures are deterministic; the certificate is signed
with Ed25519 and has fixed dates and serial).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.x509.oid import NameOID

from ..rules import RuleSet
from .keys import GROUP_L, key_weakness, signature_weakness
from .pin import cert_fingerprint, cert_join_code, cert_statement_key, normalize_code, statement_key_extension
from .primitives import LABEL_SETUP, Drbg, derive_deal, drbg_key
from .selfplay import play_game
from .statements import TAG_STATEMENT, pack, public_key_bytes, sign_statement, signing_key_from_bytes, split_statement, unpack
from .transcript import Transcript, decode_transcript
from .witness import SeatWitness

#: The tiny game of the fault vectors (one round: 3 steps).
TINY = RuleSet(players=2, rounds=1, hand_size=1)
#: A second test key (a forger's): never use it for a real game.
OTHER_KEY = bytes([0x6B] * 32)
#: The constant signature that verifies for every message under a small-order key.
CONSTANT_SIGNATURE = bytes([1]) + bytes(63)
SMALL_ORDER_KEY = bytes([1]) + bytes(31)
#: y = p + 1 (non-canonical encoding of the neutral point).
NON_CANONICAL_KEY = bytes([0xEE]) + bytes([0xFF] * 30) + bytes([0x7F])


def _hex(b: bytes) -> str:
    return bytes(b).hex()


class _Recorder:
    """A :class:`Drbg` that records every ``randrange`` call as ``[n, result]``."""

    def __init__(self, key: bytes):
        self.drbg = Drbg(key)
        self.draws: list[list[int]] = []

    def randrange(self, n: int) -> int:
        x = self.drbg.randrange(n)
        self.draws.append([n, x])
        return x


def setup_draws(game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes]) -> list[dict[str, Any]]:
    """§4.5: every draw of the setup stream, for three rule sets."""
    from ..setup import draw_setup

    out = []
    for rules in (RuleSet(), RuleSet(players=6, random_specials=True),
                  RuleSet(players=3, identities="LCF", random_specials=True, hidden_identities=True)):
        seeds = list(seat_seeds[: rules.players]) + [bytes([0x70 + s]) * 32 for s in range(len(seat_seeds), rules.players)]
        key = drbg_key(game_id, host_seed, seeds, LABEL_SETUP)
        rec = _Recorder(key)
        setup = draw_setup(rules, rec)
        assert setup == derive_deal(rules, game_id, host_seed, seeds).setup
        out.append({"rules": rules.to_wire(), "seat_seeds": [_hex(s) for s in seeds], "key": _hex(key),
                    "draws": rec.draws, "bytes_consumed": rec.drbg.consumed, "setup": setup.to_wire()})
    return out


def rules_cases() -> dict[str, Any]:
    """specs/rules.md §14.1: valid rule maps (as hosts write them) and invalid ones."""
    from ..wire_examples import INVALID_RULES

    return {"valid": [RuleSet().to_wire(), TINY.to_wire(), RuleSet(players=6, attack_number=2).to_wire(),
                      {"players": 3}],
            "invalid": [{"wire": w, "setting": s} for w, s in INVALID_RULES]}


#: (name, body bytes as hex, canonical?) — §6.1. ``81 a1 61 01`` is ``{"a": 1}``.
CANONICAL_CASES: tuple[tuple[str, str, bool], ...] = (
    ("map, fixint", "81a16101", True),
    ("int as uint 8", "81a161cc01", False),
    ("int as int 8", "81a161d001", False),
    ("negative fixint", "81a161ff", True),
    ("-1 as int 8", "81a161d0ff", False),
    ("-33 as int 8", "81a161d0df", True),
    ("255 as uint 8", "81a161ccff", True),
    ("256 as uint 16", "81a161cd0100", True),
    ("255 as uint 16", "81a161cd00ff", False),
    ("true", "81a161c3", True),
    ("float 64", "81a161cb3ff0000000000000", True),
    ("float 32", "81a161ca3f800000", False),
    ("duplicate key", "82a16101a16102", False),
    ("duplicate key, nested", "81a16182a16201a16202", False),
    ("same key at two depths", "82a16181a16101a16202", True),
    ("keys in another order", "82a16201a16102", True),
    ("str 8 for a short str", "81a161d90162", False),
    ("bin 8", "81a161c40162", True),
    ("bin 16 for a short bin", "81a161c5000162", False),
    ("map 16 for one entry", "de0001a16101", False),
    ("array 16 for one entry", "81a161dc000101", False),
    ("bin key", "81c4016101", False),
    ("int key", "810101", False),
    ("extension type", "81a161d40101", False),
    ("timestamp extension", "81a161d6ff00000000", False),
    ("invalid UTF-8", "81a161a1ff", False),
    ("trailing byte", "81a16101c0", False),
    ("cut short", "82a16101", False),
)


def canonical_cases() -> list[dict[str, Any]]:
    """§6.1 byte for byte: every case with whether it is canonical."""
    return [{"name": n, "bytes": h, "canonical": ok} for n, h, ok in CANONICAL_CASES]


def weak_key_cases() -> dict[str, Any]:
    """§6.3: host keys and signatures, refused or not."""
    good = public_key_bytes(signing_key_from_bytes(bytes([0x5A] * 32)))
    keys = [
        ("a real key", good),
        ("small order 1 (y = 1)", SMALL_ORDER_KEY),
        ("small order 1, sign bit set", bytes([1]) + bytes(30) + bytes([0x80])),
        ("small order 4 (y = 0)", bytes(32)),
        ("small order 8", bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")),
        ("small order 8", bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")),
        ("small order 2 (y = p - 1)", bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")),
        ("y = p", bytes.fromhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")),
        ("y = p + 1", NON_CANONICAL_KEY),
        ("y = 2^255 - 1", bytes([0xFF] * 31) + bytes([0x7F])),
    ]
    sig = signing_key_from_bytes(bytes([0x5A] * 32)).sign(TAG_STATEMENT + b"\x80")
    s = int.from_bytes(sig[32:], "little")
    sigs = [
        ("a real signature of the empty map", sig),
        ("S + L", sig[:32] + (s + GROUP_L).to_bytes(32, "little")),
        ("S = L", sig[:32] + GROUP_L.to_bytes(32, "little")),
        ("S = L - 1", sig[:32] + (GROUP_L - 1).to_bytes(32, "little")),
        ("R with y = p", bytes.fromhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f") + sig[32:]),
        ("the constant signature", CONSTANT_SIGNATURE),
    ]
    return {
        "keys": [{"name": n, "key": _hex(k), "refused": key_weakness(k) is not None} for n, k in keys],
        "signatures": [{"name": n, "signature": _hex(x), "refused": signature_weakness(x) is not None} for n, x in sigs],
        "signed_message": _hex(TAG_STATEMENT + b"\x80"),
    }


def vector_certificate(statement_key: bytes | None, *, serial: int = 1) -> bytes:
    """A deterministic self-signed certificate (Ed25519, fixed names, dates and serial)
    carrying ``statement_key`` in its extension (none when ``None``): DER bytes."""
    key = Ed25519PrivateKey.from_private_bytes(bytes([0x3C] * 32))
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "jupai test vector host")])
    builder = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
               .serial_number(serial)
               .not_valid_before(datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc))
               .not_valid_after(datetime.datetime(2036, 1, 1, tzinfo=datetime.timezone.utc))
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True))
    if statement_key is not None:
        builder = builder.add_extension(statement_key_extension(statement_key), critical=False)
    return builder.sign(key, None).public_bytes(serialization.Encoding.DER)


def pin_vector(statement_key: bytes) -> dict[str, Any]:
    """§3.5: a certificate, its fingerprint, join code and statement key; codes as typed."""
    der = vector_certificate(statement_key)
    code = cert_join_code(der)
    typed = [code.lower(), code.replace("-", " "), code.replace("-", "").replace("0", "O").replace("1", "I"),
             "7KQ2-MX9P-DA3F-R8TU", "7KQ2-MX9P-DA3F", "7KQ2M-X9PDA"]
    readings = []
    for t in typed:
        try:
            readings.append([t, normalize_code(t)])
        except ValueError:
            readings.append([t, None])
    bare = vector_certificate(None)
    return {"cert": _hex(der), "fingerprint": cert_fingerprint(der), "join_code": code,
            "statement_key": _hex(cert_statement_key(der)), "typed_codes": readings,
            "cert_without_key": _hex(bare), "cert_without_key_join_code": cert_join_code(bare)}


# --------------------------------------------------------------------------- forged transcripts


def _body(raw: bytes) -> dict[str, Any]:
    return unpack(split_statement(raw)[0])


def _resign(key: Ed25519PrivateKey, raw: bytes, mutate: Callable[[dict[str, Any]], None]) -> bytes:
    body = _body(raw)
    mutate(body)
    return sign_statement(key, body, check=False)


def _with(t: Transcript, statements: Sequence[bytes] | None = None, **kw: Any) -> bytes:
    fields = {f: getattr(t, f) for f in t.__dataclass_fields__}
    if statements is not None:
        fields["statements"] = tuple(statements)
    fields.update(kw)
    return Transcript(**fields).encode()


def _raw_signed(key: Ed25519PrivateKey, body_bytes: bytes) -> bytes:
    return pack([body_bytes, key.sign(TAG_STATEMENT + body_bytes)])


def fault_cases(game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes], key_bytes: bytes) -> list[dict[str, Any]]:
    """Every kind of fault of issue 7 (and the statuses of §9.2), as forged seat-0
    transcripts of the tiny game, each with its expected verdict."""
    key = signing_key_from_bytes(key_bytes)
    other = signing_key_from_bytes(OTHER_KEY)
    cert = vector_certificate(public_key_bytes(key))
    code = cert_join_code(cert)
    other_code = cert_join_code(vector_certificate(public_key_bytes(other)))

    def game(**kw: Any):
        return play_game(TINY, rng_seed=1, key=key, game_id=game_id, host_seed=host_seed,
                         seat_seeds=list(seat_seeds[:2]), spectators=False, chained=False, **kw)

    sp = game()
    honest = decode_transcript(sp.transcript(0))
    stmts = list(honest.statements)
    assert [_body(s)["kind"] for s in stmts] == ["start", "commitments", "seeds", "deal", "step", "step", "step", "end"]
    pinned = _with(honest, host_cert=cert)
    cases: list[dict[str, Any]] = []

    def case(name: str, item: str, what: str, data: bytes, expect: tuple[str, int | None, str | None], *,
             code_arg: str | None = None, at_once: int | None = None, host_code: str | None = None) -> None:
        status, message, kind = expect
        cases.append({"name": name, "issue_7": item, "what": what, "file": _hex(data), "code": code_arg,
                      "verdict": {"status": status, "message": message, "kind": kind, "host_code": host_code},
                      "at_once": at_once})

    case("honest", "-", "the honest game, with the certificate seat 0 pinned", pinned, ("verified", None, None),
         host_code=code)
    case("code_matches", "3", "jupai verify --code with the pinned host's code", pinned, ("verified", None, None),
         code_arg=code, host_code=code)
    case("code_of_another_host", "3", "jupai verify --code with another host's code", pinned, ("tampered", 0, "start"),
         code_arg=other_code, host_code=code)
    case("code_without_pinned_certificate", "3", "--code on a transcript that records no certificate",
         honest.encode(), ("unverified", None, None), code_arg=code)

    def everything_resigned(by: Ed25519PrivateKey, host_key: bytes, sig: bytes | None = None) -> list[bytes]:
        out = []
        for i, raw in enumerate(stmts):
            body = _body(raw)
            if i == 0:
                body["host_key"] = host_key
            body_bytes = pack(body)
            out.append(pack([body_bytes, sig if sig is not None else by.sign(TAG_STATEMENT + body_bytes)]))
        return out

    forged = everything_resigned(other, public_key_bytes(other))
    case("pinned_key_mismatch", "3", "every statement re-signed with another key; the pinned certificate names the "
         "real key", _with(honest, forged, host_cert=cert), ("tampered", 0, "start"), at_once=0)
    case("resigned_without_pin", "3", "the same re-signed file without a certificate: self-consistent, so it "
         "verifies (only the pin or --code shows the other key)", _with(honest, forged), ("verified", None, None))
    case("small_order_key_constant_signature", "3", "host key 01 00…00 (small order) and the constant signature "
         "01 00…00 ‖ 00…00 on every statement (it verifies in OpenSSL for any message)",
         _with(honest, everything_resigned(other, SMALL_ORDER_KEY, CONSTANT_SIGNATURE)), ("tampered", 0, "start"),
         at_once=0)
    case("non_canonical_key", "3", "host key with y = p + 1 (a non-canonical encoding) and the constant signature",
         _with(honest, everything_resigned(other, NON_CANONICAL_KEY, CONSTANT_SIGNATURE)), ("tampered", 0, "start"),
         at_once=0)
    body4, sig4 = split_statement(stmts[4])
    s = int.from_bytes(sig4[32:], "little")
    case("non_canonical_signature", "3", "statement 4's signature with S + L instead of S",
         _with(honest, stmts[:4] + [pack([body4, sig4[:32] + (s + GROUP_L).to_bytes(32, "little")])] + stmts[5:]),
         ("tampered", 4, None), at_once=4)
    b4 = _body(stmts[4])
    dup = bytes([body4[0] + 1]) + body4[1:] + pack("actor") + pack(1 - b4["actor"])
    assert body4[0] == 0x80 + len(b4)
    case("duplicate_key", "6", "statement 4 (a step) signed with a second 'actor' key (last-wins reads seat "
         f"{1 - b4['actor']}, first-wins seat {b4['actor']})", _with(honest, stmts[:4] + [_raw_signed(key, dup)] + stmts[5:]),
         ("tampered", 4, None), at_once=4)
    n_field = pack("n") + pack(4)
    assert body4.count(n_field) == 1
    wide = body4.replace(n_field, pack("n") + b"\xcc\x04")
    case("non_canonical_int", "6", "statement 4 signed with its 'n' written as uint 8 (cc 04) instead of fixint 04",
         _with(honest, stmts[:4] + [_raw_signed(key, wide)] + stmts[5:]), ("tampered", 4, None), at_once=4)
    case("signed_body_not_a_map", "status", "statement 4 is a valid signature over a body that is an array",
         _with(honest, stmts[:4] + [_raw_signed(key, pack([1, 2]))] + stmts[5:]), ("tampered", 4, None), at_once=4)
    case("start_body_unreadable", "status", "statement 0's body is not msgpack (nothing names a key)",
         _with(honest, [_raw_signed(key, b"\xc1")] + stmts[1:]), ("malformed", 0, None), at_once=0)
    case("statement_not_a_pair", "status", "statement 5 is not a msgpack [bin, bin(64)]",
         _with(honest, stmts[:5] + [pack([b"x"])] + stmts[6:]), ("malformed", 5, None), at_once=5)
    case("file_not_msgpack", "status", "the file is not msgpack", b"\xc1jupai", ("malformed", None, None))
    case("cut_after_commitments", "status", "the file stops after statement 1, no note", _with(honest, stmts[:2]),
         ("unverified", 1, "commitments"))

    # item 5: an opening of a position not due (seat 1's hand card, privately to seat 0)
    deal = derive_deal(TINY, game_id, host_seed, list(seat_seeds[:2]))
    other_hand = 2 * TINY.players + 1 * TINY.hand_size

    def leak(body: dict[str, Any]) -> None:
        body["private"] = sorted(body["private"] + [[other_hand, deal.deck[other_hand], deal.salts[other_hand]]])

    case("position_not_due", "5", f"the deal opens position {other_hand} (seat 1's hand) to seat 0 as well",
         _with(honest, stmts[:3] + [_resign(key, stmts[3], leak)] + stmts[4:]), ("tampered", 3, "deal"), at_once=3)

    # item 2: aborts once the deal is fixed
    for name, reveal in (("abandon_after_reveal", False), ("abandon_after_reveal_with_seed", True)):
        sp2 = game(max_steps=0, finish=False)
        out = sp2.dealer.abandon("the host closed the table", reveal_seed=reveal)
        for raw in out[0]:
            sp2.witnesses[0].receive(raw)
        case(name, "2", f"the host abandons right after the deal ({'with' if reveal else 'without'} its seed)",
             sp2.transcript(0), ("suspicious", 4, "abandon"))
    w = SeatWitness(0, seat_seeds[0])
    for raw in stmts[:2]:
        w.receive(raw)
    w.seed_reveal()  # sent: from here on the host may know the deck
    w.host_gone("connection lost")
    case("host_gone_after_seed_sent", "2", "the seat sent its seed, then the host vanished before the seeds "
         "statement", w.transcript(), ("suspicious", 1, "commitments"))
    w = SeatWitness(0, seat_seeds[0])
    w.receive(stmts[0])
    w.host_gone("connection lost")
    case("host_gone_before_seed_sent", "2", "the host vanished before the seat sent its seed", w.transcript(),
         ("unverified", 0, "start"))

    # item 1: a reused seed (game 2 played with game 1's revealed seed) shows only across two files
    game2 = bytes(game_id[:-1]) + bytes([game_id[-1] ^ 0xFF])
    sp3 = play_game(TINY, rng_seed=1, key=key, game_id=game2, host_seed=bytes([0x42]) * 32,
                    seat_seeds=list(seat_seeds[:2]), spectators=False, chained=False)
    case("seed_reuse_second_game", "1", "a second game (another game id) in which seat 0 used the seed it revealed "
         "in the first (the file 'honest'): alone it verifies; verified together with 'honest' (jupai verify of "
         "both files) each is suspicious", sp3.transcript(0), ("verified", None, None))
    cases[-1]["together_with"] = "honest"
    cases[-1]["together_status"] = ["suspicious", "suspicious"]

    return cases


def due_positions(data: bytes) -> list[dict[str, Any]]:
    """§5.4: the positions opened in every ``deal``/``step`` statement of a transcript."""
    out = []
    for i, raw in enumerate(decode_transcript(data).statements):
        body = _body(raw)
        if body["kind"] in ("deal", "step"):
            out.append({"message": i, "kind": body["kind"], "private": [r[0] for r in body["private"]],
                        "public": [r[0] for r in body["public"]]})
    return out


def build_extra_vectors(game_id: bytes, host_seed: bytes, seat_seeds: Sequence[bytes], key_bytes: bytes,
                        transcript: bytes) -> dict[str, Any]:
    """The sections this module adds to the vectors (see the module docstring)."""
    key = signing_key_from_bytes(key_bytes)
    return {
        "setup_draws": setup_draws(game_id, host_seed, seat_seeds),
        "rules": rules_cases(),
        "canonical": canonical_cases(),
        "weak_keys": weak_key_cases(),
        "pin": pin_vector(public_key_bytes(key)),
        "due_positions": due_positions(transcript),
        "faults": fault_cases(game_id, host_seed, seat_seeds, key_bytes),
    }


__all__ = ["build_extra_vectors", "vector_certificate"]
