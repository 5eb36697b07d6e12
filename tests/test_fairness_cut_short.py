"""Turns cut short (specs/fairness.md §9.3): the tolerance, and what ``jupai verify``
does with a seat's own record of time-outs the host announced early (the transcript's
``cut_short``): only entries naming a signed step of this seat whose times say cut
short count, a fair deal with any is *suspicious*, a list of the wrong shape makes the
file malformed."""

from __future__ import annotations

import dataclasses

import pytest

from jupai_net.fairness import verify_transcript
from jupai_net.fairness.cut_short import is_cut_short, tolerance_ms
from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.statements import decode_body, split_statement
from jupai_net.fairness.transcript import decode_transcript
from jupai_net.messages.verdicts import verdict_sentence
from jupai_net.rules import RuleSet

SEAT = 0


@pytest.fixture(scope="module")
def played():
    return play_game(RuleSet(players=3, rounds=3), rng_seed=4, game_id=bytes([4]) * 16, host_seed=bytes([4]) * 32,
                     seat_seeds=[bytes([20 + k]) * 32 for k in range(3)])


@pytest.fixture(scope="module")
def game(played):
    t = decode_transcript(played.transcript(SEAT))
    steps = {}
    for i, raw in enumerate(t.statements):
        body = decode_body(split_statement(raw)[0])
        if body["kind"] == "step":
            steps[body["version"]] = (i, body["actor"])
    return t, steps


def with_entries(t, entries, **kw):
    return dataclasses.replace(t, cut_short=tuple(entries), **kw).encode()


def test_the_tolerance_is_one_second_and_a_tenth_of_the_turn():
    assert tolerance_ms(30_000) == 4_000 and tolerance_ms(5_000) == 1_500 and tolerance_ms(0) == 1_000
    assert is_cut_short(30_000, 25_999) and not is_cut_short(30_000, 26_000)
    assert not is_cut_short(400, 0)  # a turn shorter than the tolerance is never cut short


def test_a_fair_deal_with_a_turn_cut_short_is_suspicious_and_names_the_step(game):
    t, steps = game
    mine = [v for v, (_, actor) in sorted(steps.items()) if actor == SEAT]
    assert verify_transcript(t.encode()).status == "verified"
    entries = [(v, 30_000, 1_700_000_000_000, 1_700_000_000_050, 50) for v in mine[:2]]
    v = verify_transcript(with_entries(t, entries))
    assert (v.status, v.code, v.args["count"]) == ("suspicious", "turns_cut_short", 2), v
    assert v.message == steps[mine[0]][0] and v.kind == "step" and v.exit_code == 4
    assert [e["step"] for e in v.details["cut_short"]] == mine[:2]
    assert v.details["cut_short"][0] == {"step": mine[0], "timeout_ms": 30_000, "prompt_heard_ms": 1_700_000_000_000,
                                         "timeout_heard_ms": 1_700_000_000_050, "after_ms": 50}
    assert not v.details.get("abort_after_reveal")  # the deal is fair: no redeal warning
    assert v.reason.startswith("trusted dealer: fair deal, but the host cut this seat's turns short: 2 of ")
    assert verdict_sentence(v.code, v.args, "zh").startswith("发牌公平，但主机缩短了本座位的回合")


def test_entries_that_prove_nothing_do_not_count(game, played):
    """A time-out within the tolerance, a step of another seat, a step not in the
    signed stream, a step twice, and any entry in a spectator's copy: the game stays
    verified (a file cannot make an on-time time-out count)."""
    t, steps = game
    mine = next(v for v, (_, actor) in sorted(steps.items()) if actor == SEAT)
    other = next(v for v, (_, actor) in sorted(steps.items()) if actor != SEAT)
    entries = [(mine, 30_000, 0, 0, 26_500), (other, 30_000, 0, 0, 0), (max(steps) + 5, 30_000, 0, 0, 0)]
    assert verify_transcript(with_entries(t, entries)).status == "verified"
    twice = verify_transcript(with_entries(t, [(mine, 30_000, 0, 0, 0), (mine, 30_000, 0, 0, 10)]))
    assert twice.args["count"] == 1
    spectator = decode_transcript(played.transcript(None))
    assert verify_transcript(with_entries(spectator, [(mine, 30_000, 0, 0, 0)])).status == "verified"


@pytest.mark.parametrize("bad", [[[1, 2, 3, 4]], [[1, 2, 3, 4, -5]], [[1, 2, 3, 4, True]], [[1, 2, 3, 4, "5"]],
                                 "x", [1]])
def test_a_cut_short_list_of_the_wrong_shape_makes_the_file_malformed(game, bad):
    from jupai_net.fairness.statements import pack, unpack

    t, _ = game
    obj = unpack(t.encode(), max_len=1 << 26)
    obj["cut_short"] = bad
    v = verify_transcript(pack(obj))
    assert v.status == "malformed" and "cut_short" in v.reason, v


def test_the_record_round_trips_and_an_empty_one_is_not_written(game):
    t, steps = game
    entry = (min(steps), 5_000, 1, 2, 3)
    assert decode_transcript(with_entries(t, [entry])).cut_short == (entry,)
    assert with_entries(t, []) == t.encode() and b"cut_short" not in t.encode()


def test_a_restarted_client_keeps_its_record_of_turns_cut_short():
    """The resume file carries the record (a client restarted mid-game still has the
    evidence); one written before the key existed loads with none."""
    import msgpack

    from jupai_net.client.resume import ResumeState

    saved = ResumeState("127.0.0.1", 4000, "Ann", 0, "tok", bytes(16), bytes(32), cut_short=[(5, 30_000, 1, 2, 3)])
    assert ResumeState.from_bytes(saved.to_bytes()).cut_short == [(5, 30_000, 1, 2, 3)]
    old = msgpack.unpackb(saved.to_bytes(), raw=False, strict_map_key=False)
    del old["cut_short"]
    assert ResumeState.from_bytes(msgpack.packb(old, use_bin_type=True)).cut_short == []
    old["cut_short"] = [[5, 30_000, 1, 2]]
    with pytest.raises(ValueError, match="cut_short"):
        ResumeState.from_bytes(msgpack.packb(old, use_bin_type=True))


class _Quiet:
    async def choose(self, view):  # pragma: no cover - never asked here
        raise AssertionError

    def on_update(self, view) -> None:
        pass


class _Witness:
    """Keeps what the session records as evidence."""

    def __init__(self):
        self.cut: list[tuple[int, ...]] = []

    def turn_cut_short(self, *entry):
        self.cut.append(entry)


async def test_a_time_out_after_a_rejoins_catch_up_is_a_warning_and_not_evidence():
    """The session's rule (``_Session._timed_out``): a time-out heard 0.1 s into a 30 s
    turn is recorded (``turn-cut-short``) when the prompt came on an up-to-date
    connection, and only warned about (``early-timeout``) when it came in the catch-up
    after a rejoin (read late); one heard 27 s in (within 1 s + 3 s) is neither."""
    import ssl

    import trio

    from jupai_net.client.session import _Session

    s = _Session("127.0.0.1", 9, "Ann", _Quiet(), seat=None, lang="en", check=None, token=None,
                 ssl_context=ssl.create_default_context(), transcript_path=None, wire_tap=None, reconnect_for=30,
                 connect_timeout=5, save_resume=False)
    s.witness = _Witness()
    now = trio.current_time()
    for version, fresh, after in ((8, False, 0.1), (12, True, 0.1), (16, True, 27.0)):
        s.prompt_deadlines[version - 1] = (now + 30, 30.0)
        s.prompt_heard[version - 1] = (now, 30_000, fresh, 1_700_000_000_000)
        s.heard_at = now + after
        s.unexplained = (version, {"code": "applied_unsent", "args": {}})
        s._timed_out()
        assert s.unexplained is None
    assert [n.code for n in s.view.notices] == ["early-timeout", "turn-cut-short"]
    ((step, timeout_ms, prompt_heard, _, after_ms),) = s.witness.cut
    assert (step, timeout_ms, prompt_heard, after_ms) == (12, 30_000, 1_700_000_000_000, 100)
    assert [v for v, _ in s.host_moves] == [8, 12, 16]


def test_jupai_replay_shows_a_fair_deal_with_turns_cut_short_without_force(game, tmp_path):
    """The deal and every outcome check out: ``jupai replay`` shows the game (exit 0)
    and its end says the verdict; another suspicious game still needs ``--force``."""
    import os
    import subprocess
    import sys

    t, steps = game
    mine = next(v for v, (_, actor) in sorted(steps.items()) if actor == SEAT)
    path = tmp_path / "cut.jupai"
    path.write_bytes(with_entries(t, [(mine, 30_000, 0, 0, 0)]))
    done = subprocess.run([sys.executable, "-m", "jupai_net", "replay", str(path), "--all", "--lang", "en"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "fair deal, but the host cut this seat's turns short" in " ".join(done.stdout.split()), done.stdout[-2000:]
