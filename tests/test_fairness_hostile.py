"""The host as an attacker (issue 7): forged transcripts and a hostile table, each test
written first against the old code, where the attack won ("verified" or a vague
reason), then closed (specs/fairness.md §1, §6.3, §8, §9)."""

from __future__ import annotations


import json
import msgpack
import pytest

from jupai_net.fairness import (
    SUSPICIOUS,
    TAMPERED,
    UNVERIFIED,
    VERIFIED,
    FairnessViolation,
    SeatWitness,
    Transcript,
    WitnessError,
    decode_transcript,
    public_key_bytes,
    signing_key_from_bytes,
    verify_transcript,
)
from jupai_net.fairness.forge import relinked
from jupai_net.fairness.pin import cert_join_code
from jupai_net.fairness.keys import FIELD_P, GROUP_L, SMALL_ORDER_Y, key_weakness, signature_weakness
from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.statements import TAG_STATEMENT, pack, split_statement, unpack
from jupai_net.rules import RuleSet

from .cli_helpers import jupai

KEY = signing_key_from_bytes(bytes([41]) * 32)
RULES = RuleSet(players=3, rounds=3, hand_size=3)
GAME = bytes.fromhex("e7" * 16)
SEEDS = [bytes([60 + s]) * 32 for s in range(RULES.players)]
HOST_SEED = bytes([5]) * 32
NEUTRAL_KEY = bytes([1]) + bytes(31)  # the point of order 1: y = 1
CONSTANT_SIG = bytes([1]) + bytes(31) + bytes(32)  # R = neutral point, S = 0


@pytest.fixture(scope="module")
def game():
    sp = play_game(RULES, rng_seed=3, key=KEY, game_id=GAME, host_seed=HOST_SEED, seat_seeds=SEEDS)
    assert sp.dealer.state.is_over
    return sp


@pytest.fixture(scope="module")
def t0(game) -> Transcript:
    return decode_transcript(game.transcript(0))


def body(raw: bytes) -> dict:
    return unpack(split_statement(raw)[0])


def signed(body_bytes: bytes, key=KEY) -> bytes:
    """What a host that signs any bytes it likes would send."""
    return pack([body_bytes, key.sign(TAG_STATEMENT + body_bytes)])


def with_statements(t: Transcript, statements) -> bytes:
    return Transcript(t.seat, t.seed, tuple(statements), t.host_gone, t.left).encode()


def first_step(t: Transcript) -> int:
    return next(i for i, r in enumerate(t.statements) if body(r)["kind"] == "step")


# ------------------------------------------------------------------ weak keys, no private key at all


def forge_with_key(t: Transcript, host_key: bytes, sig: bytes) -> bytes:
    """The honest game's bodies, the start naming ``host_key``, every signature ``sig``."""
    out = []
    for i, raw in enumerate(t.statements):
        body_bytes, _ = split_statement(raw)
        if i == 0:
            b = unpack(body_bytes)
            b["host_key"] = host_key
            body_bytes = pack(b)
        out.append(pack([body_bytes, sig]))
    return with_statements(t, out)


@pytest.mark.parametrize("host_key", [NEUTRAL_KEY, (FIELD_P + 1).to_bytes(32, "little")],
                         ids=["small-order", "non-canonical-small-order"])
def test_a_small_order_key_with_a_constant_signature_is_refused(t0, host_key):
    """Old code: every statement 'verified' with the constant signature, so the whole
    game verified without any private key."""
    v = verify_transcript(forge_with_key(t0, host_key, CONSTANT_SIG))
    assert v.status == TAMPERED and v.message == 0 and v.kind == "start"
    assert "small order" in v.reason or "non-canonical" in v.reason


def test_a_non_canonical_signature_is_refused_with_its_reason(t0):
    """S + L verifies in a lax verifier; the verdict must say why it is refused."""
    i = first_step(t0)
    body_bytes, sig = split_statement(t0.statements[i])
    s = int.from_bytes(sig[32:], "little") + GROUP_L
    assert s < 2**256
    bad = pack([body_bytes, sig[:32] + s.to_bytes(32, "little")])
    statements = list(t0.statements)
    statements[i] = bad
    v = verify_transcript(with_statements(t0, statements), all_signatures=True)
    assert v.status == TAMPERED and v.message == i
    assert "non-canonical" in v.reason and "group order" in v.reason
    last = len(statements) - 1  # the fast path checks the last signature: there it is caught as well
    body_bytes, sig = split_statement(t0.statements[last])
    s = int.from_bytes(sig[32:], "little") + GROUP_L
    statements = list(t0.statements)
    statements[last] = pack([body_bytes, sig[:32] + s.to_bytes(32, "little")])
    v = verify_transcript(with_statements(t0, statements))
    assert v.status == TAMPERED and v.message == last and "non-canonical" in v.reason


def test_every_small_order_point_is_blocklisted():
    """An independent computation (Edwards arithmetic, test-only): the 8-torsion of
    Ed25519 has exactly the five y values of the blocklist."""
    p = FIELD_P
    d = -121665 * pow(121666, p - 2, p) % p

    def add(a, b):
        (x1, y1), (x2, y2) = a, b
        t = d * x1 * x2 * y1 * y2
        return ((x1 * y2 + x2 * y1) * pow(1 + t, p - 2, p) % p, (y1 * y2 + x1 * x2) * pow(1 - t, p - 2, p) % p)

    def mul(n, pt):
        r = (0, 1)
        while n:
            if n & 1:
                r = add(r, pt)
            pt, n = add(pt, pt), n >> 1
        return r

    ys = set()  # y values of L·Q for points Q on the curve: every point of the 8-torsion
    for candidate in range(2, 60):
        x2 = (candidate * candidate - 1) * pow(d * candidate * candidate + 1, p - 2, p) % p
        x = pow(x2, (p + 3) // 8, p)
        if (x * x - x2) % p:
            x = x * pow(2, (p - 1) // 4, p) % p
        if (x * x - x2) % p:
            continue
        torsion = mul(GROUP_L, (x, candidate))
        q = torsion
        for _ in range(8):
            ys.add(q[1])
            q = add(q, torsion)
        if len(ys) == 5:
            break
    assert {v.to_bytes(32, "little") for v in ys} == set(SMALL_ORDER_Y)
    for enc in SMALL_ORDER_Y:
        assert key_weakness(enc) and key_weakness(enc[:31] + bytes([enc[31] | 0x80]))
    assert key_weakness(bytes(KEY.public_key().public_bytes_raw())) is None
    assert signature_weakness(KEY.sign(b"x")) is None


# ------------------------------------------------------------------ canonical bodies


def test_a_body_with_a_duplicate_key_is_refused(t0):
    """Old code: the last value won and the game verified; a verifier that keeps the
    first value would read the same signed bytes as another action."""
    i = first_step(t0)
    b = body(t0.statements[i])
    packer = msgpack.Packer(use_bin_type=True)
    pairs = list(b.items())
    at = [k for k, _ in pairs].index("actor")
    pairs.insert(at, ("actor", (b["actor"] + 1) % RULES.players))  # first value: another seat
    statements = list(t0.statements)
    statements[i] = signed(packer.pack_map_pairs(pairs))
    v = verify_transcript(with_statements(t0, statements))
    assert v.status == TAMPERED and v.message == i
    assert "repeats the key 'actor'" in v.reason and "signed by the host but malformed" in v.reason


def test_a_body_that_does_not_re_encode_to_its_bytes_is_refused(t0):
    """The sequence number as a 32-bit integer instead of its one-byte form: same value,
    other bytes. Old code: verified."""
    i = first_step(t0)
    b = body(t0.statements[i])
    assert 0 <= b["n"] < 128
    good = pack(b)
    fixint = pack("n") + pack(b["n"])
    assert good.count(fixint) == 1
    bad = good.replace(fixint, pack("n") + b"\xce" + b["n"].to_bytes(4, "big"))
    statements = list(t0.statements)
    statements[i] = signed(bad)
    v = verify_transcript(with_statements(t0, statements))
    assert v.status == TAMPERED and v.message == i and "not canonical" in v.reason


def test_an_honest_game_still_verifies(game):
    for viewer in (0, 1, 2, None):
        assert verify_transcript(game.transcript(viewer)).status == VERIFIED


def test_jupai_verify_refuses_a_keyless_forgery(t0, tmp_path):
    path = tmp_path / "forged.jupai"
    path.write_bytes(forge_with_key(t0, NEUTRAL_KEY, CONSTANT_SIG))
    r = jupai("verify", str(path))
    assert r.returncode == 3, r.stdout + r.stderr
    assert "TAMPERED" in r.stdout and "small order" in r.stdout and "Traceback" not in r.stderr


# ------------------------------------------------------------------ the statement key is the pinned host's


def cert_for(key) -> bytes:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding

    from jupai_net.host.tls import make_certificate

    pem, _ = make_certificate("test host", public_key_bytes(key))
    return x509.load_pem_x509_certificate(pem).public_bytes(Encoding.DER)


OTHER = signing_key_from_bytes(bytes([42]) * 32)


@pytest.fixture(scope="module")
def certs():
    return {"host": cert_for(KEY), "other": cert_for(OTHER)}


def resigned(t: Transcript, key, host_cert: bytes | None) -> bytes:
    """Every statement signed again by ``key`` (the start naming it): a self-consistent
    transcript of the same game under another key."""
    out = []
    for i, raw in enumerate(t.statements):
        b = body(raw)
        if i == 0:
            b["host_key"] = public_key_bytes(key)
        out.append(signed(pack(b), key))
    out = relinked(out, key)  # the forger fits the hash chain to the new start (specs/fairness.md §6.5)
    return Transcript(t.seat, t.seed, tuple(out), t.host_gone, t.left, host_cert).encode()


def test_a_transcript_re_signed_with_another_key_is_caught_by_the_pin(t0, certs):
    """Old code: verified (the key was whatever the start statement named)."""
    assert verify_transcript(resigned(t0, KEY, certs["host"])).status == VERIFIED  # the honest key
    v = verify_transcript(resigned(t0, OTHER, certs["host"]))
    assert v.status == TAMPERED and (v.message, v.kind) == (0, "start")
    assert "another key re-signed them" in v.reason and cert_join_code(certs["host"]) in v.reason


def test_verify_code_ties_the_key_to_the_host_a_person_names(t0, certs):
    code = cert_join_code(certs["host"])
    honest = verify_transcript(resigned(t0, KEY, certs["host"]), code=code.lower().replace("-", " "))
    assert honest.status == VERIFIED and honest.host_code == code and honest.details["code"] == "matches"
    # the forger also swaps in a certificate of its own: self-consistent, but not the host's code
    forged = resigned(t0, OTHER, certs["other"])
    assert verify_transcript(forged).host_code == cert_join_code(certs["other"])
    v = verify_transcript(forged, code=code)
    assert v.status == TAMPERED and v.expected == code and v.found == cert_join_code(certs["other"])
    # ... or drops the certificate: nothing ties the key to the code, so never "verified"
    v = verify_transcript(resigned(t0, OTHER, None), code=code)
    assert v.status == UNVERIFIED and "records no pinned host certificate" in v.reason


def test_the_witness_refuses_another_key_before_it_commits(game, certs):
    """Live: the start statement signed by a key the pinned certificate does not carry
    is refused at once, so the seat never sends its seed commitment."""
    start = game.log[0][1]
    w = SeatWitness(0, SEEDS[0], host_cert=certs["other"])
    with pytest.raises(FairnessViolation) as exc:
        w.receive(start)
    assert exc.value.verdict.status == TAMPERED and "another key re-signed them" in exc.value.verdict.reason
    with pytest.raises(WitnessError):
        w.seed_reveal()
    ok = SeatWitness(0, SEEDS[0], host_cert=certs["host"])
    ok.receive(start)
    assert ok.commitment and decode_transcript(ok.transcript()).host_cert == certs["host"]


def test_jupai_verify_code_through_the_command(t0, certs, tmp_path):
    path = tmp_path / "game.jupai"
    path.write_bytes(resigned(t0, OTHER, certs["other"]))
    code = cert_join_code(certs["host"])
    r = jupai("verify", str(path), "--code", code)
    assert r.returncode == 3 and f"not of the host with join code {code}" in r.stdout, r.stdout + r.stderr
    r = jupai("verify", str(path), "--code", "12345-ABCDE")
    assert r.returncode == 2 and "old-style join code" in r.stderr and "Traceback" not in r.stderr
    r = jupai("verify", str(path))
    assert r.returncode == 0 and cert_join_code(certs["other"]) in r.stdout


async def test_a_host_that_signs_with_a_key_its_certificate_does_not_carry_gets_no_commitment():
    """A hostile table over real TLS: the certificate (what the player pins) carries one
    key, the statements are signed with another. The client stops at the start
    statement with 'tampered' and never sends its seed commitment."""
    import dataclasses

    import trio

    from jupai_net.client.bot import BotPlayer
    from jupai_net.client.session import run_session
    from jupai_net.host.server import HostServer

    from .test_net_support import IDENTITY, host_config, pin

    hostile = dataclasses.replace(IDENTITY, signing_key=OTHER)
    async with trio.open_nursery() as nursery:
        server = HostServer(host_config(2, bots=1), hostile)
        await nursery.start(server.serve)
        with trio.fail_after(20):
            r = await run_session("127.0.0.1", server.port, name="victim", player=BotPlayer(), check_fingerprint=pin,
                                  save_resume=False, transcript_path=None)
        dealer = server.tables[0].dealer
        assert dealer is not None and dealer.seat_seeds() == [None, None]
        assert dealer._commitments[r.seat] is None  # the seat never committed to a seed
        nursery.cancel_scope.cancel()
    assert r.verdict is not None and r.verdict.status == TAMPERED
    assert "another key re-signed them" in r.verdict.reason


def test_jupai_verify_says_a_weak_key_in_chinese(t0, tmp_path):
    """`jupai verify --lang zh` of a forgery signed with a small-order key: the reason
    why the key is refused is said in Chinese from its code (it was English words in a
    "技术细节（英文）" line), and `--json` carries the code and args."""
    path = tmp_path / "forged.jupai"
    path.write_bytes(forge_with_key(t0, NEUTRAL_KEY, CONSTANT_SIG))
    r = jupai("--lang", "zh", "verify", str(path))
    assert r.returncode == 3, r.stdout + r.stderr
    assert "主机密钥是一个小阶的 Ed25519 点" in r.stdout, r.stdout
    assert "small order" not in r.stdout and "技术细节" not in r.stdout, r.stdout
    data = json.loads(jupai("verify", "--json", str(path)).stdout)
    said = json.dumps(data["args"])  # the statement's problem, and nested in it why the key is refused
    assert '"signature_refused_why"' in said and '"key_small_order"' in said, said
    assert "small order" in data["reason"]
