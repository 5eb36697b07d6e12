"""BlindPlay (specs/fairness.md B.16.8): the host, every seat's client and a verifier
each drive their own game from one relayed stream of participant messages and claims,
with real keys; they request the same openings, every seat sees its own cards, the
verifier holds only public cards, and the audited deck replays the same game."""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from jupai_net.blind_game import fill_event, trusted_record
from jupai_net.bots import random_bot
from jupai_net.engine import IllegalAction, replay
from jupai_net.fairness.blind import HOST_SEAT, table_participants
from jupai_net.fairness.blind_actor import BlindActor
from jupai_net.fairness.blind_ledger import BlindLedger, run_deal
from jupai_net.fairness.blind_play import BlindPlay, blind_setup
from jupai_net.rules import RuleSet


class Program:
    def __init__(self, rules, ledger, people, viewer=None, bots=()):
        self.ledger = ledger
        self.actor = BlindActor(people) if people else None
        self.play = BlindPlay(rules, ledger, viewer=viewer, bots=bots, actor=self.actor)


def _table(rules, bots, game_id):
    pids = table_participants(rules.players)
    people, _, messages = run_deal(game_id, pids)
    by_pid = {p.pid: p for p in people}

    def ledger(own=None):
        led = BlindLedger(game_id, pids, relay=None, own=own)
        for m in messages:
            led.receive(m)
        return led

    host = Program(rules, ledger(), [by_pid[HOST_SEAT], *(by_pid[b] for b in sorted(bots))], bots=bots)
    seats = {s: Program(rules, ledger(by_pid[s]), [by_pid[s]], viewer=s) for s in range(rules.players) if s not in bots}
    verifier = Program(rules, ledger(), [])
    return host, seats, verifier


def _relay(programs):
    """Every program sends what it owes; every message goes to every ledger in one
    order, each program advancing after each."""
    while True:
        sent = [m for p in programs if p.actor is not None for m in p.actor.react(p.ledger)]
        if not sent:
            return
        for m in sent:
            for p in programs:
                p.ledger.receive(m)
                p.play.advance()


@st.composite
def tables(draw):
    """A table of 2–6 seats, some of them the host's bots, and a seed for the moves."""
    players = draw(st.integers(2, 6))
    bots = draw(st.frozensets(st.integers(0, players - 1), max_size=players - 1))
    return players, bots, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
@example(table=(6, frozenset({2}), 7))
def test_every_program_drives_the_same_game_from_one_stream(table):
    """Property (issue 9, "honest blind games of 2–6 players always verify"): an honest
    whole game of any table size, with or without host bots, from a real deal: every
    program plays the same game, the host and the verifier hold only what they may, the
    verifier's audit of the seeds gives a deck on which the trusted engine replays the
    game to the same ranking, and every seat's events."""
    players, bots, seed = table
    rules = RuleSet(players=players, rounds=3)
    rng = random.Random(seed)
    host, seats, verifier = _table(rules, bots, os.urandom(16))
    programs = [host, *seats.values(), verifier]
    assert all(p.play.setup == host.play.setup for p in programs)  # the setup from the locked deck
    assert host.play.setup == blind_setup(rules, host.ledger.game_id, host.ledger.deck)
    _relay(programs)
    assert all(p.play.idle for p in programs)
    while not host.play.game.state.is_over:
        seat = host.play.game.state.to_move
        owner = host if seat in bots else seats[seat]
        claim = owner.play.game.bot_action(random_bot, rng, seat)
        version = host.play.version
        for p in programs:
            p.play.on_claim(version, seat, claim)
        _relay(programs)
        for p in programs:
            assert p.play.idle and p.play.version == host.play.version
            assert not p.play.rejected
        state = host.play.game.state
        assert host.play.game.table.known() == set(state.public).union(*(state.seen[b] for b in bots))
        assert verifier.play.game.table.known() == set(state.public)
    seeds = [m for p in programs if p.actor is not None for m in p.actor.seeds(p.ledger)]
    for m in seeds:
        for p in programs:
            p.ledger.receive(m)
    deck = verifier.ledger.audit()
    trusted = replay(trusted_record(host.play.game.state.record(), deck))
    assert trusted.is_over and trusted.ranking == host.play.game.state.ranking
    for p in programs:
        assert p.play.game.state.record() == host.play.game.state.record()
        viewer = p.play.game.viewer
        if viewer is not None:
            got = [fill_event(e.to_wire(viewer), p.play.game.table) for e in p.play.game.state.events]
            assert got == [e.to_wire(viewer) for e in trusted.events]
