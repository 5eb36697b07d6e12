"""Dealer-blind tamper tests (specs/fairness.md B.9, "Deviations, when they are caught"):
each deviation of one participant is detected, with the culprit named, at the time the
spec promises — at once, at an opening, or at the audit after the game."""

from __future__ import annotations

import pytest

from jupai_net.fairness.blind import ORDER, BlindError, ParticipantSecrets, mul, table_participants
from jupai_net.fairness.blind_ledger import (
    HELLO,
    KEYS,
    RELOCK,
    SHUFFLE,
    BlindLedger,
    BlindParticipant,
    run_deal,
)
from jupai_net.fairness.primitives import HOST_SEAT

GID = bytes.fromhex("6a75706169000000000000000000b11d")
OTHER = bytes.fromhex("6a75706169000000000000000000beef")


def _start(players=3, size=53, proof_rounds=0, game_id=GID):
    """Participants and a ledger after the hellos."""
    pids = table_participants(players)
    people = [BlindParticipant(game_id, pid, size=size, proof_rounds=proof_rounds) for pid in pids]
    ledger = BlindLedger(game_id, pids, size=size, proof_rounds=proof_rounds)
    for p in people:
        ledger.receive(p.hello())
    return people, ledger


def _finish(people, ledger, *, start_shuffle=0, start_relock=0):
    for i, p in enumerate(people[start_shuffle:], start_shuffle):
        if ledger.phase == "shuffling":
            ledger.receive(p.shuffle(i, ledger.deck))
    for p in people[start_relock:]:
        ledger.receive(p.relock(ledger.deck))


def _open(people, ledger, position, seat):
    ledger.request(position, seat)
    for p in people:
        if p.pid != seat:
            ledger.receive(p.keys([(position, seat)]))
    return next(p for p in people if p.pid == seat).open(ledger, position)


def _reveal_seeds(people, ledger):
    for p in people:
        ledger.receive(p.seed())


def _bad_shuffle(p: BlindParticipant, deck, index=1):
    """Participant p's honest pass, then position 0 re-encrypted under another key:
    no longer a permutation of k·deck."""
    out = p.secrets.shuffle(deck)
    out[0] = mul(out[0], 5)
    return out


# ------------------------------------------------------------------ wrong shuffle pass


def test_wrong_shuffle_pass_is_caught_at_the_opening_and_named_by_the_audit():
    people, ledger = _start()
    ledger.receive(people[0].shuffle(0, ledger.deck))
    cheat = people[1]  # seat 0
    ledger.receive(cheat._send(SHUFFLE, deck=_bad_shuffle(cheat, ledger.deck), proof=None))  # accepted: no proofs
    _finish(people, ledger, start_shuffle=2)
    q, error = _first_failure(people, ledger)  # the tampered position: no card, culprit not known yet
    assert "does not open to a card" in error.reason and error.culprit is None
    with pytest.raises(BlindError, match="the deal stopped"):  # nothing opens any more
        _open(people, ledger, (q + 1) % 53, 1)
    _reveal_seeds(people, ledger)
    with pytest.raises(BlindError, match="shuffle pass of seat 0 is not the one its seed gives") as e:
        ledger.audit()
    assert e.value.culprit == 0


def _first_failure(people, ledger):
    """Open positions 0, 1, … to seat 1 until one fails: (position, BlindError)."""
    for q in range(53):
        try:
            _open(people, ledger, q, 1)
        except BlindError as e:
            return q, e
    raise AssertionError("every position opened")


def test_wrong_shuffle_pass_is_caught_at_once_with_proofs():
    people, ledger = _start(size=10, proof_rounds=16)
    ledger.receive(people[0].shuffle(0, ledger.deck))
    cheat = people[1]
    out = _bad_shuffle(cheat, ledger.deck)
    proof = cheat.secrets.prove(1, ledger.deck, out, 16)
    with pytest.raises(BlindError, match="not a re-encrypted permutation") as e:
        ledger.receive(cheat._send(SHUFFLE, deck=out, proof=proof))
    assert e.value.culprit == 0


def test_missing_proof_is_named_at_once():
    people, ledger = _start(size=6, proof_rounds=8)
    with pytest.raises(BlindError, match="has no proof") as e:
        ledger.receive(people[0]._send(SHUFFLE, deck=people[0].secrets.shuffle(ledger.deck), proof=None))
    assert e.value.culprit == HOST_SEAT


# ------------------------------------------------------------------ duplicated / replaced card


def test_duplicated_card_under_the_pass_key_is_caught_at_once():
    """The first passer sees the plain card points: replacing card 1 by a second copy of
    card 0 under its own key repeats a value."""
    people, ledger = _start()
    host = people[0]
    out = host.secrets.shuffle(ledger.deck)
    j = out.index(mul(ledger.deck[1], host.secrets.pass_key))
    out[j] = mul(ledger.deck[0], host.secrets.pass_key)
    with pytest.raises(BlindError, match="repeats a value") as e:
        ledger.receive(host._send(SHUFFLE, deck=out, proof=None))
    assert e.value.culprit == HOST_SEAT


def test_replaced_card_under_another_key_is_caught_when_opened_and_named_by_the_audit():
    """The host replaces card 1 by card 0 under a different key (no repeated value). The
    replaced position does not open to a card; the audit names the host."""
    people, ledger = _start()
    host = people[0]
    out = host.secrets.shuffle(ledger.deck)
    j = out.index(mul(ledger.deck[1], host.secrets.pass_key))
    out[j] = mul(ledger.deck[0], host.secrets.pass_key * 3 % ORDER)
    ledger.receive(host._send(SHUFFLE, deck=out, proof=None))
    _finish(people, ledger, start_shuffle=1)
    q, error = _first_failure(people, ledger)
    assert "does not open to a card" in error.reason and error.culprit is None
    _reveal_seeds(people, ledger)
    with pytest.raises(BlindError, match="shuffle pass of the host") as e:
        ledger.audit()
    assert e.value.culprit == HOST_SEAT


def _relock_copying(people, ledger, cheater_index, src, dst):
    """All shuffles; then re-locks where people[cheater_index] locks position dst with
    position src's value (its keys, its commitments: a signed, well-formed message)."""
    _finish(people, ledger, start_relock=99)
    for i, p in enumerate(people):
        if i != cheater_index:
            ledger.receive(p.relock(ledger.deck))
            continue
        s = p.secrets
        out = s.relock(ledger.deck)
        out[dst] = mul(ledger.deck[src], s.lock_key(dst) * pow(s.pass_key, -1, ORDER) % ORDER)
        ledger.receive(p._send(RELOCK, deck=out, locks=s.lock_commitments()))


@pytest.mark.parametrize(
    "cheater, opens_as, named",
    [
        (0, "same card as position 2", "re-lock pass of the host"),
        (2, "position 3 does not open to a card", "re-lock pass of seat 1"),
    ],
)
def test_copied_position_in_a_relock_is_caught_when_opened_and_named_by_the_audit(cheater, opens_as, named):
    """A re-locker copies position 2's value to position 3. The first re-locker (the
    host) makes a duplicate: both open to the same card (each alone looks fine) and the
    seat that sees both notices. A later re-locker cannot even duplicate (the earlier
    per-position locks differ): position 3 opens to no card. Either way the audit names
    the re-locker."""
    people, ledger = _start()
    _relock_copying(people, ledger, cheater, 2, 3)
    assert _open(people, ledger, 2, 0) is not None
    with pytest.raises(BlindError, match=opens_as) as e:
        _open(people, ledger, 3, 0)
    assert e.value.culprit is None
    _reveal_seeds(people, ledger)
    with pytest.raises(BlindError, match=named) as e:
        ledger.audit()
    assert e.value.culprit == people[cheater].pid


# ------------------------------------------------------------------ key reveals


def test_wrong_key_reveal_is_named_at_once():
    people, ledger, _ = run_deal(GID, table_participants(3))
    ledger.request(7, 2)
    cheat = people[1]  # seat 0 reveals position 8's key as if it were 7's
    wrong = cheat.secrets.lock_key(8).to_bytes(32, "big")
    with pytest.raises(BlindError, match="does not match its commitment") as e:
        ledger.receive(cheat._send(KEYS, keys=[[7, 2, wrong]]))
    assert (e.value.culprit, e.value.position) == (0, 7)


def test_withheld_key_is_named_when_the_time_is_up():
    people, ledger, _ = run_deal(GID, table_participants(3))
    ledger.request(4, 0)
    for p in people:
        if p.pid not in (0, 2):  # seat 2 withholds
            ledger.receive(p.keys([(4, 0)]))
    assert ledger.owed(4, 0) == [2]
    with pytest.raises(BlindError, match="seat 2 withheld its lock key for position 4") as e:
        ledger.check_withheld(4, 0)
    assert e.value.culprit == 2
    with pytest.raises(BlindError) as e:  # the holder cannot open it either
        people[1].open(ledger, 4)
    assert e.value.culprit == 2


def test_key_revealed_to_the_wrong_seat_is_named_at_once():
    """Position 4 opens to seat 0; seat 1 reveals its key for it to seat 2 instead (the
    start of a leak to a friend)."""
    people, ledger, _ = run_deal(GID, table_participants(3))
    ledger.request(4, 0)
    cheat = people[2]
    with pytest.raises(BlindError, match="wrong seat") as e:
        ledger.receive(cheat._send(KEYS, keys=[[4, 2, cheat.secrets.lock_key(4).to_bytes(32, "big")]]))
    assert e.value.culprit == 1


def test_own_lock_revealed_privately_is_refused_and_named():
    """An honest client never reveals its own lock of a card opened to itself (the relay
    would see its card); a modified one is named at once."""
    people, ledger, _ = run_deal(GID, table_participants(3))
    cheat = people[2]
    ledger.request(5, 1)
    with pytest.raises(BlindError, match="never reveals its own lock"):
        cheat.keys([(5, 1)])
    with pytest.raises(BlindError, match="its own lock of position 5 privately") as e:
        ledger.receive(cheat._send(KEYS, keys=[[5, 1, cheat.secrets.lock_key(5).to_bytes(32, "big")]]))
    assert e.value.culprit == 1


# ------------------------------------------------------------------ replay from another game


def test_message_replayed_from_another_game_is_caught_at_once():
    """The relay replays seat 0's keys message of another game: its signature does not
    verify with this game's key of seat 0, so the relay (the host) is named."""
    people_a, ledger_a, _ = run_deal(OTHER, table_participants(3))
    ledger_a.request(4, 1)
    old = people_a[1].keys([(4, 1)])
    people, ledger, _ = run_deal(GID, table_participants(3))
    ledger.request(4, 1)
    with pytest.raises(BlindError, match="does not verify") as e:
        ledger.receive(old)
    assert e.value.culprit == HOST_SEAT


def test_participant_reusing_its_message_from_another_game_is_named_at_once():
    """A participant that reuses its signing key and sends its hello of another game."""
    key_holder = BlindParticipant(OTHER, 0)
    old_hello = key_holder.hello()
    ledger = BlindLedger(GID, table_participants(2))
    with pytest.raises(BlindError, match="belongs to another game") as e:
        ledger.receive(old_hello)
    assert e.value.culprit == 0


def test_key_from_another_game_does_not_open_the_commitment():
    people, ledger, _ = run_deal(GID, table_participants(2))
    ledger.request(3, 1)
    other = ParticipantSecrets(OTHER, 0, people[1].secrets.seed)  # same seed, other game
    with pytest.raises(BlindError, match="does not match its commitment") as e:
        ledger.receive(people[1]._send(KEYS, keys=[[3, 1, other.lock_key(3).to_bytes(32, "big")]]))
    assert e.value.culprit == 0


# ------------------------------------------------------------------ order, seeds, relay


def test_out_of_turn_pass_and_forged_message_are_named():
    people, ledger = _start()
    with pytest.raises(BlindError, match="it is the host's turn") as e:
        ledger.receive(people[2].shuffle(0, ledger.deck))
    assert e.value.culprit == 1
    people, ledger = _start()
    raw = bytearray(people[0].shuffle(0, ledger.deck))
    raw[-1] ^= 1  # altered on the way
    with pytest.raises(BlindError, match="does not verify") as e:
        ledger.receive(bytes(raw))
    assert e.value.culprit == HOST_SEAT


def test_changed_or_withheld_seed_is_named_at_the_audit():
    people, ledger, _ = run_deal(GID, table_participants(2))
    ledger.receive(people[0].seed())
    with pytest.raises(BlindError, match="seat 0 did not reveal its seed") as e:
        ledger.audit()
    assert e.value.culprit == 0
    with pytest.raises(BlindError, match="does not open its commitment") as e:
        ledger.receive(people[1]._send("seed", seed=bytes(32)))
    assert e.value.culprit == 0


def test_hello_twice_and_garbage_are_refused_without_a_crash():
    people, ledger = _start(players=2)
    for junk in (b"", b"\x91\x01", b"\x92\xc4\x00\xc4\x00", people[0].hello()):
        with pytest.raises(BlindError):
            ledger.receive(junk)
    assert ledger.phase == "shuffling"
    assert HELLO  # the hello kind name is exported


def test_value_off_the_curve_in_a_pass_is_named_at_once():
    """A pass deck with a value that is no curve point (an invalid-curve probe) is
    refused when it arrives, naming its author."""
    people, ledger = _start(players=2)
    host = people[0]
    out = host.secrets.shuffle(ledger.deck)
    out[9] = b"\xff" * 32
    with pytest.raises(BlindError, match="off the curve at position 9") as e:
        ledger.receive(host._send(SHUFFLE, deck=out, proof=None))
    assert (e.value.culprit, e.value.position) == (HOST_SEAT, 9)


def test_empty_keys_message_is_refused():
    people, ledger, _ = run_deal(GID, table_participants(2), size=6)
    with pytest.raises(BlindError, match="non-empty") as e:
        ledger.receive(people[1]._send(KEYS, keys=[]))
    assert e.value.culprit == 0


def test_relay_replacing_a_seats_hello_is_named_by_that_seat_at_once():
    """The host replaces seat 1's hello with one of its own making (its key, its seed),
    to speak for seat 1 towards everyone else. Seat 1's ledger sees its hello changed
    and names the host before any pass."""
    pids = table_participants(2)
    real = BlindParticipant(GID, 1)
    fake = BlindParticipant(GID, 1)  # made by the host
    seat1 = BlindLedger(GID, pids, own=real)
    seat1.receive(BlindParticipant(GID, HOST_SEAT).hello())
    with pytest.raises(BlindError, match="not the one it sent") as e:
        seat1.receive(fake.hello())
    assert e.value.culprit == HOST_SEAT
    honest = BlindLedger(GID, pids, own=real)
    honest.receive(real.hello())  # its own hello, unchanged: accepted
    assert 1 in honest.keys


def test_first_failure_stops_the_deal_but_seeds_still_audit():
    """After a wrong key (named at once) nothing more is taken but the seeds, even from
    the culprit whose refused message used up a sequence number; the audit then runs."""
    people, ledger, _ = run_deal(GID, table_participants(2), size=8)
    ledger.request(2, 1)
    cheat = people[1]
    with pytest.raises(BlindError, match="does not match its commitment"):
        ledger.receive(cheat._send(KEYS, keys=[[2, 1, cheat.secrets.lock_key(3).to_bytes(32, "big")]]))
    assert ledger.failure is not None and ledger.failure.culprit == 0
    with pytest.raises(BlindError, match="the deal stopped") as e:
        ledger.receive(people[0].keys([(2, 1)]))
    assert e.value.culprit == 0
    with pytest.raises(BlindError, match="the deal stopped"):
        ledger.request(5, 0)
    _reveal_seeds(people, ledger)
    assert sorted(ledger.audit()) == list(range(8))


def test_opening_that_was_never_requested_is_refused_without_blaming_anyone():
    people, ledger, _ = run_deal(GID, table_participants(2), size=6)
    with pytest.raises(BlindError, match="not being opened to seat 0") as e:
        people[1].open(ledger, 4)
    assert e.value.culprit is None and ledger.failure is None
