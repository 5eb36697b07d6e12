"""A whole dealer-blind game in memory with real keys (issue 9; specs/fairness.md B.6,
B.7, B.16): layers 1–5 together, as the host and the clients will drive them.

Each program — the host (its own participant and its bots') and every seat's client
(its participant) — keeps its own :class:`BlindLedger` over every relayed message and
its own :class:`BlindGame`. The openings come from the game's schedule (``due``,
``openings_for``), the keys from each program's :class:`BlindActor`, the cards from the
ledger alone (``open_public``, a seat's own unlock): no oracle and no deck. Each seat's
client chooses its moves itself (the default bot, from its own cards); the host never
holds a card of a human seat before it is public. After the game every participant
reveals its seed, every ledger audits the same deck, and the host's record replayed on
that deck by the trusted engine gives every participant's events.
"""

from __future__ import annotations

import os
import random

import pytest

from jupai_net.blind_game import BlindGame, fill_event, trusted_record
from jupai_net.bots import random_bot
from jupai_net.engine import replay
from jupai_net.fairness.blind import HOST_SEAT, table_participants
from jupai_net.fairness.blind_actor import BlindActor, request_all
from jupai_net.fairness.blind_ledger import BlindLedger, run_deal
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup


class Program:
    """One program at the table: its participants, its ledger, its game."""

    def __init__(self, game: BlindGame, people: list, ledger: BlindLedger):
        self.game, self.ledger = game, ledger
        self.actor = BlindActor(people)


def _table(rules: RuleSet, bots: frozenset[int], seed: int) -> tuple[list[Program], random.Random]:
    rng = random.Random(seed)
    setup = draw_setup(rules, rng)
    game_id = os.urandom(16)
    pids = table_participants(rules.players)
    people, _, messages = run_deal(game_id, pids)
    by_pid = {p.pid: p for p in people}
    programs = []
    host_people = [by_pid[HOST_SEAT], *(by_pid[b] for b in sorted(bots))]
    programs.append(Program(BlindGame(rules, setup, None, bots=bots), host_people, BlindLedger(game_id, pids, relay=None)))
    for s in range(rules.players):
        if s not in bots:
            programs.append(Program(BlindGame(rules, setup, s), [by_pid[s]], BlindLedger(game_id, pids, own=by_pid[s])))
    for prog in programs:
        for m in messages:
            prog.ledger.receive(m)
    return programs, rng


def _open(programs: list[Program], openings: list[tuple[int, int | None]]) -> None:
    """Every program requests the openings, its participants send their keys (relayed
    to every ledger, in one order), then each program reads the cards it may see."""
    for prog in programs:
        request_all(prog.ledger, openings)
    relayed = [m for prog in programs for m in prog.actor.react(prog.ledger)]
    for m in relayed:
        for prog in programs:
            prog.ledger.receive(m)
    for prog in programs:
        own = prog.actor.open_own(prog.ledger)
        for q, to in openings:
            if to is None:
                card = prog.ledger.open_public(q)
            elif to in prog.game.holds:
                card = prog.actor.cards[(to, q)]
                assert (to, q) in own
            else:
                card = None
            prog.game.reveal(q, to, card)


@pytest.mark.parametrize(("players", "bots", "seed"), [(3, frozenset(), 1), (4, frozenset({2}), 2)])
def test_whole_blind_game_with_real_keys(players, bots, seed):
    rules = RuleSet(players=players, rounds=5)
    programs, rng = _table(rules, bots, seed)
    host = programs[0]
    mover = {s: next(p for p in programs if s in p.game.holds) for s in range(players)}

    def step_openings(openings: list[tuple[int, int | None]]) -> None:
        for prog in programs[1:]:  # every program computes the same schedule
            assert prog.game.due() == openings
        _open(programs, openings)
        for prog in programs:
            prog.game.resume()

    step_openings(host.game.due())
    while not host.game.state.is_over:
        seat = host.game.state.to_move
        claim = mover[seat].game.bot_action(random_bot, rng, seat)  # chosen by its own program
        while todo := host.game.openings_for(claim, seat):
            for prog in programs[1:]:
                assert prog.game.openings_for(claim, seat) == todo
            _open(programs, todo)
        for prog in programs:
            prog.game.apply(claim, seat)
        step_openings(host.game.due())
        # the host holds the public cards and its bots' cards, nothing else
        state = host.game.state
        assert host.game.table.known() == set(state.public).union(*(state.seen[b] for b in bots))

    # after the game: every seed, the same audited deck at every program
    seeds = [m for prog in programs for m in prog.actor.seeds(prog.ledger)]
    for m in seeds:
        for prog in programs:
            prog.ledger.receive(m)
    decks = [prog.ledger.audit() for prog in programs]
    assert all(d == decks[0] for d in decks)
    trusted = replay(trusted_record(host.game.state.record(), decks[0]))
    assert trusted.is_over and trusted.ranking == host.game.state.ranking
    for prog in programs:
        viewer = prog.game.viewer
        got = [fill_event(e.to_wire(viewer), prog.game.table) for e in prog.game.state.events]
        assert got == [e.to_wire(viewer) for e in trusted.events]
        assert {q: decks[0][q] for q in prog.game.table.known()} == prog.game.table.cards()
