"""Review: tampering and edge cases the fairness tests did not cover, each with the
verdict that must name it (specs/fairness.md §8–§10)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading

import pytest

from jupai_net.fairness import (
    MALFORMED,
    TAMPERED,
    UNVERIFIED,
    VERIFIED,
    Transcript,
    decode_transcript,
    sign_statement,
    signing_key_from_bytes,
    verify_transcript,
)
from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.statements import TAG_STATEMENT, pack, split_statement, unpack
from jupai_net.rules import RuleSet

KEY = signing_key_from_bytes(bytes(range(32)))
RULES = RuleSet()
GAME = bytes.fromhex("c0" * 16)
SEEDS = [bytes([20 + s]) * 32 for s in range(RULES.players)]
HOST_SEED = bytes([77]) * 32


@pytest.fixture(scope="module")
def game():
    sp = play_game(RULES, rng_seed=11, key=KEY, game_id=GAME, host_seed=HOST_SEED, seat_seeds=SEEDS)
    assert sp.dealer.state.is_over
    return sp


@pytest.fixture(scope="module")
def t0(game) -> Transcript:
    return decode_transcript(game.transcript(0))


def body(raw: bytes) -> dict:
    return unpack(split_statement(raw)[0])


def resign(raw: bytes, mutate, *, check: bool = True) -> bytes:
    b = body(raw)
    mutate(b)
    if check:
        return sign_statement(KEY, b)
    bb = pack(b)  # a host that signs a body the library would refuse to sign
    return pack([bb, KEY.sign(TAG_STATEMENT + bb)])


def rebuild(t: Transcript, statements, **kw) -> bytes:
    """The transcript with ``statements`` as a host holding the key sends them: the hash
    chain's later links fitted again and re-signed (specs/fairness.md §6.5)."""
    from jupai_net.fairness.forge import relinked

    return Transcript(kw.get("seat", t.seat), kw.get("seed", t.seed), tuple(relinked(statements, KEY)), kw.get("host_gone", t.host_gone)).encode()


def first_step(t: Transcript) -> int:
    return next(i for i, r in enumerate(t.statements) if body(r)["kind"] == "step")


def test_a_statement_delivered_twice(t0):
    s = list(t0.statements)
    i = first_step(t0)
    v = verify_transcript(rebuild(t0, s[: i + 1] + [s[i]] + s[i + 1:]))
    assert v.status == TAMPERED and v.message == i + 1
    assert "out of order" in v.reason


def test_a_step_applied_twice_with_a_new_sequence_number(t0):
    """The host re-signs the same step as the next one: the state version gives it away."""
    s = list(t0.statements)
    i = first_step(t0)
    again = resign(s[i], lambda b: b.__setitem__("n", i + 1))
    rest = [resign(r, lambda b: b.__setitem__("n", b["n"] + 1)) for r in s[i + 1:]]
    v = verify_transcript(rebuild(t0, s[: i + 1] + [again] + rest))
    assert v.status == TAMPERED and (v.message, v.kind) == (i + 1, "step")
    assert "state version" in v.reason


def test_a_statement_cut_in_the_middle_of_its_msgpack(t0):
    s = list(t0.statements)
    i = first_step(t0)
    s[i] = s[i][: len(s[i]) // 2]
    v = verify_transcript(rebuild(t0, s))
    assert v.status == MALFORMED and v.message == i
    assert "cut short" in v.reason


def test_spectator_file_holding_a_seat_stream(t0):
    v = verify_transcript(rebuild(t0, t0.statements, seat=None, seed=None))
    assert v.status == TAMPERED and v.message == 0 and "addressed to seat 0" in v.reason


def test_seat_file_holding_the_spectator_stream(game):
    ts = decode_transcript(game.transcript(None))
    v = verify_transcript(rebuild(ts, ts.statements, seat=0, seed=SEEDS[0]))
    assert v.status == TAMPERED and v.message == 0 and "addressed to a spectator" in v.reason


def test_private_reveals_moved_to_the_public_list(t0):
    """Same openings, wrong scope: the verdict says so, at once (§8 step 6; it used to
    say the card 'should have been revealed to this seat and was not')."""
    s = list(t0.statements)

    def move(b):
        b["public"] = sorted(b["public"] + b["private"])
        b["private"] = []

    s[3] = resign(s[3], move)
    v = verify_transcript(rebuild(t0, s))
    assert v.status == TAMPERED and (v.message, v.kind) == (3, "deal")
    assert v.position == 0
    assert "position 0 was dealt to this seat face down, but is opened to everyone" in v.reason


@pytest.mark.parametrize("field, value", [("actor", True), ("version", True), ("n", True), ("to", False)])
def test_bools_where_the_schema_wants_ints(t0, field, value):
    s = list(t0.statements)
    i = first_step(t0)
    s[i] = resign(s[i], lambda b: b.__setitem__(field, value), check=False)
    v = verify_transcript(rebuild(t0, s))
    assert v.status == TAMPERED and v.message == i and field in v.reason


def test_transcript_stops_right_after_the_deal_is_unverified(t0):
    v = verify_transcript(rebuild(t0, t0.statements[:4]))
    assert v.status == UNVERIFIED and v.message == 3


def test_the_host_signs_the_engines_form_of_a_mistyped_action():
    """A host that passes Action(target=1.0) (equal to the legal action) used to sign
    target 1.0, which the verifier then rejects as 'not an action'."""

    def choose(state, rng):
        a = rng.choice(state.legal_actions())
        if a.target is not None:
            return a._replace(target=float(a.target), weapon=int(a.weapon))
        return a._replace(weapon=int(a.weapon))

    sp = play_game(RuleSet(players=2), rng_seed=3, key=KEY, choose=choose)
    for viewer in (0, 1, None):
        v = verify_transcript(sp.transcript(viewer))
        assert v.status == VERIFIED, v


# ------------------------------------------------------------------ jupai verify on odd paths
def _verify_cli(path: str, *extra: str, timeout: float = 20) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jupai_net", "verify", path, *extra],
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_verify_a_named_pipe_without_writer_does_not_hang(tmp_path):
    fifo = tmp_path / "game.jupai"
    os.mkfifo(fifo)
    r = _verify_cli(str(fifo), "--json", timeout=20)
    assert r.returncode == 6 and "Traceback" not in r.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_verify_reads_a_named_pipe_with_a_writer(tmp_path, game):
    fifo = tmp_path / "game.jupai"
    os.mkfifo(fifo)
    data = game.transcript(0)
    proc = subprocess.Popen([sys.executable, "-m", "jupai_net", "verify", str(fifo)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def write():
        with open(fifo, "wb") as fh:
            fh.write(data)

    t = threading.Thread(target=write)
    t.start()
    out, err = proc.communicate(timeout=30)
    t.join(timeout=10)
    assert proc.returncode == 0, (out, err)


@pytest.mark.parametrize("content", [b"", b"\x00", bytes(random.Random(1).randbytes(3000)), b"\xc1" * 10])
def test_verify_odd_files_never_traceback(tmp_path, content):
    f = tmp_path / "x.jupai"
    f.write_bytes(content)
    for extra in ((), ("--json",)):
        r = _verify_cli(str(f), *extra)
        assert r.returncode == 6 and "Traceback" not in r.stderr, r.stderr
