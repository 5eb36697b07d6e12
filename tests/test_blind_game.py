"""The game on deck positions at a dealer-blind table (issue 9 layer 5;
specs/fairness.md B.16; jupai_net/blind_game.py).

Every game here is played twice: by the trusted engine on card ids, and on positions
by a blind host and every seat's client, each with its own card table, the openings
delivered by an oracle that holds the real deck (what the blind ledger gives in a real
game: B.7). The proofs the issue asks for:

* equivalence: same events (as every viewer sees them), outcome and ranking;
* blindness: the host's engine never reads a card it was not shown (its table raises),
  and what it holds is exactly the public cards and its bots' cards;
* a seat's client computes its legal moves, and its screen, from its own cards: equal
  to the trusted engine's at every step;
* an illegal claimed play is rejected with the seat named, before the host opens any
  card of another seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.blind_game import BlindGame, CardTable, HiddenCard, fill_event, fill_observation, trusted_record
from jupai_net.bots import get_bot
from jupai_net.engine import GameState, IllegalAction, replay
from jupai_net.fairness.blind_schedule import deal_openings
from jupai_net.rules import RuleSet
from jupai_net.setup import draw_setup

#: public-identity variants (a blind table refuses hidden identities)
VARIANTS: list[dict[str, Any]] = [
    {},
    {"swap_prime_composite": True},
    {"random_specials": True},
    {"round_value": "rank"},
    {"same_identity": "matching-card"},
    {"attack_number": 2},
    {"rounds": 3},
    {"hand_size": 3, "rounds": 4},
]


class Table:
    """A trusted game and the same game on positions at the host and every seat."""

    def __init__(self, rules: RuleSet, seed: int, bots: frozenset[int] = frozenset()):
        rng = random.Random(seed)
        deck = list(range(53))
        rng.shuffle(deck)
        self.rng = rng
        self.deck = deck
        self.where = {c: q for q, c in enumerate(deck)}
        setup = draw_setup(rules, rng)
        self.rules = rules
        self.bots = bots
        self.trusted = GameState.new(rules, deck, setup)
        self.host = BlindGame(rules, setup, None, bots=bots)
        self.seats = [BlindGame(rules, setup, s) for s in range(rules.players)]
        self.log: list[tuple[int, int | None]] = []  # every opening, in order
        deal = self._due()
        assert sorted(deal, key=repr) == sorted(deal_openings(rules), key=repr)
        self.events = self._resume()

    @property
    def everyone(self) -> list[BlindGame]:
        return [self.host, *self.seats]

    def open(self, openings: list[tuple[int, int | None]]) -> None:
        """The oracle: deliver each opening to every participant (the card only to
        those who may see it: everyone for a public one, else the seat and the host
        when it is the host's bot)."""
        for q, to in openings:
            self.log.append((q, to))
            for game in self.everyone:
                game.reveal(q, to, self.deck[q] if to is None or to in game.holds else None)

    def _due(self) -> list[tuple[int, int | None]]:
        due = self.host.due()
        for game in self.seats:  # every participant computes the same schedule
            assert game.due() == due
        self.open(due)
        return due

    def _resume(self) -> list[list[Any]]:
        return [game.resume() for game in self.everyone]

    def step(self, action: Action) -> None:
        """Apply the trusted ``action`` to the trusted game and, in positions, at every
        participant; check the events agree."""
        seat = self.trusted.to_move
        claim = Action(action.kind, action.target, tuple(self.where[c] for c in action.cards), action.weapon,
                       tuple(self.where[c] for c in action.recovered))
        while True:
            todo = self.host.openings_for(claim, seat)
            for game in self.seats:
                assert game.openings_for(claim, seat) == todo
            if not todo:
                break
            assert all(to is None for _, to in todo)
            self.open(todo)
        expected = self.trusted.apply(action, seat)
        results = [game.apply(claim, seat) for game in self.everyone]
        self.host.observation(None)  # mid-step (caches built here must not outlive the step)
        self._due()
        for got, more in zip(results, self._resume()):
            got += more
        for k, got in enumerate(results):
            game = self.everyone[k]
            viewers = [None] + ([game.viewer] if game.viewer is not None else sorted(self.bots))
            assert len(got) == len(expected)
            for v in viewers:
                assert [fill_event(e.to_wire(v), game.table) for e in got] == [e.to_wire(v) for e in expected]


def play(table: Table, choose: Any = None, check_each_step: Any = None) -> None:
    """Play ``table`` to the end with random legal moves of the trusted engine."""
    rng = table.rng
    while not table.trusted.is_over:
        if check_each_step:
            check_each_step(table)
        legal = table.trusted.legal_actions()
        table.step(legal[rng.randrange(len(legal))] if choose is None else choose(table, legal))


def _rules(k: int) -> RuleSet:
    return RuleSet(players=2 + k % 5, **VARIANTS[(k // 5) % len(VARIANTS)])


def _same_end(table: Table) -> None:
    trusted = table.trusted
    for game in table.everyone:
        state = game.state
        assert state.is_over
        assert (state.winner, state.ranking) == (trusted.winner, trusted.ranking)
        assert [state.cards_left(s) for s in range(trusted.players)] == [trusted.cards_left(s) for s in range(trusted.players)]
        assert [game.card_action(a) for a in state.history] == trusted.history
    # the verifier's path: the host's record in positions and the audited deck
    replayed = replay(trusted_record(table.host.state.record(), table.deck))
    assert replayed.record() == trusted.record()
    assert [e.to_wire(None) for e in replayed.events] == [e.to_wire(None) for e in trusted.events]


@pytest.mark.parametrize("k", range(40))
def test_equivalence_trusted_and_blind(k):
    """(a) For many seeds and every public-identity house rule, the game on positions
    (host and every seat, openings by the oracle) gives the trusted game's events, as
    every viewer sees them, its outcome, ranking and action record."""
    table = Table(_rules(k), 7000 + k)
    play(table)
    _same_end(table)


def _eager(table: Table, legal: list[Action]) -> Action:
    """A chooser that draws equipment and uses weapons whenever it may (so draws face
    up and down, rearms, same-identity discards and spent equipment come often)."""
    rng = table.rng
    for kinds in ((A.SUPPLY_EQUIPMENT, A.REARM), (A.DISCARD,)):
        liked = [a for a in legal if a.kind in kinds and (a.kind != A.DISCARD or a.weapon or a.target is not None)]
        if liked and rng.random() < 0.8:
            return liked[rng.randrange(len(liked))]
    armed = [a for a in legal if a.weapon]
    if armed and rng.random() < 0.7:
        return armed[rng.randrange(len(armed))]
    return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("k", range(20))
def test_equivalence_with_draws_and_weapons(k):
    """(a) As above, with players that draw equipment (face up and face down) and use
    weapons at every chance: every opening of a draw, a weapon use, a discard's mass
    and a lost pair gives the trusted game's events; the seats' screens agree too."""
    rules = RuleSet(players=(3, 3, 5, 6, 2)[k % 5], **({"same_identity": "matching-card"} if k % 4 == 3 else {}))
    table = Table(rules, 9000 + k, frozenset({k % rules.players}) if k % 2 else frozenset())
    play(table, choose=_eager, check_each_step=_check_seats if k % 5 == 0 else None)
    _same_end(table)


def _check_seats(table: Table) -> None:
    """(c) and the screen: at this step every seat's client computes the trusted
    engine's legal moves and observation from its own table; the host's observation
    for a seat, filled in by that seat, is the trusted one too."""
    trusted = table.trusted
    for s, game in enumerate(table.seats):
        legal = [game.card_action(a) for a in game.legal_actions()]
        assert sorted(legal) == sorted(trusted.legal_actions(s))
        assert len(set(legal)) == len(legal)
        expected = trusted.observation(s)
        assert game.card_observation() == expected
        assert fill_observation(table.host.observation(s), game.table) == expected
        for a in legal:  # and a seat's choice in card ids goes back to the same claim
            assert game.card_action(game.position_action(a)) == a
    assert fill_observation(table.host.observation(None), table.host.table) == trusted.observation(None)


@pytest.mark.parametrize("k", range(0, 40, 3))
def test_seat_legal_moves_and_screen_equal_trusted(k):
    """(c) A seat's client computes its legal moves from its own cards and the public
    state, equal (as card ids) to the trusted engine's legal_actions at every step; its
    filled-in observation equals the trusted one."""
    table = Table(_rules(k), 8000 + k)
    play(table, check_each_step=_check_seats)
    _check_seats(table)


def _host_blind(table: Table) -> None:
    host, trusted = table.host, table.trusted
    state = host.state
    allowed = set(state.public)
    for b in table.bots:
        allowed |= state.seen[b]
    assert host.table.known() == allowed
    # positions are the same tokens the trusted engine shows: the host's known cards
    # are exactly the trusted host's (public cards + its bots' cards)
    trusted_known = set(trusted.known_cards(None))
    for b in table.bots:
        trusted_known |= trusted.known_cards(b)
    assert {table.deck[q] for q in allowed} == trusted_known
    # the host's bots choose from what a trusted host would show them
    for b in table.bots:
        assert sorted(host.card_action(a) for a in host.legal_actions(b)) == sorted(trusted.legal_actions(b))
        assert host.card_observation(b) == trusted.observation(b)


def _coalition_blind(table: Table) -> None:
    """The host and every seat but one, pooling their tables, hold no card of that seat
    that is not public (its own hand, equipment and face-down draws stay its own)."""
    state = table.host.state
    for s, game in enumerate(table.seats):
        if s in table.bots:
            continue
        pooled = set(table.host.table.known())
        for t, other in enumerate(table.seats):
            if t != s:
                pooled |= other.table.known()
        assert not pooled & (state.seen[s] - state.public)
        assert state.seen[s] - state.public <= game.table.known()


def _blind_step(table: Table) -> None:
    _host_blind(table)
    _coalition_blind(table)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.integers(0, 39), seed=st.integers(0, 2**32 - 1), bots=st.sets(st.integers(0, 5), max_size=3))
def test_host_never_reads_a_hidden_card(k, seed, bots):
    """(b) Over whole random games (bots of the host among the seats), the host's
    engine never reads a card that was not made public or dealt to one of its bots —
    its table raises HiddenCard on any other read, and nothing was raised — and after
    every step what its table holds is exactly the public cards plus its bots' cards,
    the trusted host's ``known_cards``. And the host with every seat but one, pooling
    their tables, never holds a card of that seat before it is public."""
    rules = _rules(k)
    table = Table(rules, seed, frozenset(b for b in bots if b < rules.players))
    play(table, choose=_eager if seed % 2 else None, check_each_step=_blind_step)
    _blind_step(table)
    _same_end(table)


def _start(rules: RuleSet, seed: int) -> Table:
    return Table(rules, seed)


def test_illegal_claims_are_rejected_with_the_seat_named():
    """(d) A claimed play that is not legal is rejected with the seat named: a position
    the seat does not hold before anything is opened; a card of the wrong kind after
    its opening shows it (the position's card then public, named by the rules); no
    card of another seat is opened for a bad claim."""
    table = _start(RuleSet(players=4), 11)
    trusted, host = table.trusted, table.host
    seat = trusted.to_move
    other = (seat + 1) % 4
    foreign = host.state.seats[other].hand[0]
    kind = {"attack": A.ATTACK, "defense": A.DEFENSE, "discard": A.DISCARD}.get(trusted.round_kind, A.ATTACK)
    with pytest.raises(IllegalAction, match=rf"seat {seat} claims deck position {foreign}, which it does not hold"):
        host.openings_for(Action(kind, other, (foreign,)), seat)
    with pytest.raises(IllegalAction, match=rf"seat {other} is not to move"):
        host.openings_for(Action(kind, seat, (host.state.seats[other].hand[0],)), other)
    own = host.state.seats[seat].hand[0]
    with pytest.raises(IllegalAction, match=rf"seat {seat}: .*not an opponent"):
        host.openings_for(Action(kind, seat, (own,)), seat)
    with pytest.raises(IllegalAction, match=rf"seat {seat}: .*named more than once"):
        host.openings_for(Action(A.SUPPLY_RECOVERED, None, (own, own)), seat)
    assert host.table.known() == set(host.state.public)  # nothing opened for bad claims
    # a play that is legal as far as positions tell opens its card; applying it
    # before the opening is refused
    legal = trusted.legal_actions()
    card_play = next(a for a in legal if a.cards)
    claim = Action(card_play.kind, card_play.target, (table.where[card_play.cards[0]],), card_play.weapon)
    todo = host.openings_for(claim, seat)
    assert todo == [(claim.cards[0], None)]
    with pytest.raises(IllegalAction, match=rf"seat {seat}: deck position\(s\) {claim.cards[0]} must be opened first"):
        host.apply(claim, seat)


def test_a_rule_broken_by_the_opened_card_is_rejected():
    """(d) Matching-card discard: the weapon may go with a card whose rank is the
    player's identity value only. The claim passes the public check (the host cannot
    know the rank), the card is opened, and then the host rejects it, naming the seat,
    without opening the target's mass."""
    for seed in range(2000):
        table = _start(RuleSet(players=3, same_identity="matching-card"), seed)
        trusted = table.trusted
        if trusted.round_kind != "discard" or trusted.seats[trusted.to_move].equipment is None:
            continue
        seat = trusted.to_move
        value = trusted._values[seat]
        targets = [t for t in range(3) if t != seat and trusted.seats[t].equipment is not None]
        wrong = [c for c in trusted.seats[seat].hand if c // 4 + 1 != value and c != 52]
        if not targets or not wrong:
            continue
        host = table.host
        claim = Action(A.DISCARD, targets[0], (table.where[wrong[0]],), True)
        assert host.openings_for(claim, seat) == [(claim.cards[0], None)]
        table.open([(claim.cards[0], None)])
        with pytest.raises(IllegalAction, match=rf"^seat {seat}: "):
            host.openings_for(claim, seat)
        with pytest.raises(IllegalAction, match=rf"^seat {seat}: "):
            host.apply(claim, seat)
        assert claim.cards[0] in host.state.known_cards(None)  # the false claim showed its card to all
        target_mass = host.state.seats[targets[0]].equipment.mass
        assert target_mass not in host.table
        # the same card without the weapon is legal: now the target's mass is due
        fair = claim._replace(weapon=False)
        assert host.openings_for(fair, seat) == [(target_mass, None)]
        return
    pytest.fail("no seed gives a discard round with a wrong card")


def test_host_reads_of_hidden_cards_raise():
    """The raising table: the host's engine cannot read a human seat's card, and a
    seat's client cannot read another seat's."""
    rules = RuleSet(players=3)
    table = _start(rules, 5)
    host = table.host
    q = host.state.seats[1].hand[0]
    with pytest.raises(HiddenCard) as info:
        host.state._ranks[q]
    assert info.value.position == q
    with pytest.raises(HiddenCard):
        host.state.seats[1].equipment.uses_left
    with pytest.raises(ValueError, match="does not hold"):
        host.legal_actions(table.trusted.to_move)
    assert table.seats[0].state._ranks[table.seats[0].state.seats[0].hand[0]] >= 1
    with pytest.raises(HiddenCard):
        table.seats[0].card_action(Action(A.ATTACK, 0, (q,)))
    # the host's view for seat 1 keeps its equipment as positions, quality unknown
    eq = host.observation(1)["players"][1]["equipment"]
    assert (eq["mass"], eq["weapon"], eq["quality"], eq["uses_left"]) == (2, 3, None, None)


def test_card_table_refuses_contradictions():
    table = CardTable({0: 5})
    table.reveal(0, 5)  # the same opening again: fine
    with pytest.raises(ValueError, match="opened as"):
        table.reveal(0, 6)
    with pytest.raises(ValueError, match="at deck positions 0 and 1"):
        table.reveal(1, 5)
    assert table[0] == 2 and table.card(0) == 5 and 0 in table and 1 not in table


def test_hidden_identities_are_refused():
    rules = RuleSet(players=4, hidden_identities=True)
    setup = draw_setup(rules, random.Random(1))
    with pytest.raises(ValueError, match="public identities only"):
        BlindGame(rules, setup)


def test_reveal_checks_who_may_see():
    rules = RuleSet(players=2)
    setup = draw_setup(rules, random.Random(2))
    host = BlindGame(rules, setup, None, bots={1})
    with pytest.raises(ValueError, match="may not see its card"):
        host.reveal(0, 0, 17)
    with pytest.raises(ValueError, match="its card is needed"):
        host.reveal(2, 1)
    host.reveal(2, 1, 17)
    assert host.table.card(2) == 17


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bot_moves_on_positions(name):
    """A host bot (or a seat's default move on a time-out) chooses in card ids from
    what its holder sees, and its move goes back to positions: whole games where every
    move is a bot's move at the seat's own client, still the trusted game's events."""
    bot = get_bot(name)
    rules = RuleSet(players=4)
    table = Table(rules, 31, frozenset({1, 3}))

    def choose(table: Table, legal: list[Action]) -> Action:
        seat = table.trusted.to_move
        game = table.host if seat in table.bots else table.seats[seat]
        action = game.card_action(game.bot_action(bot, table.rng, seat))
        assert action in legal
        return action

    play(table, choose=choose)
    _same_end(table)


def test_honest_seats_reject_what_a_hostile_host_relays():
    """Attacker first: a host (colluding with the seat to move) relays a claim that is
    not legal, or an observation naming a card the seat was not shown. Every honest
    seat's client runs the same checks on its own engine and refuses it, naming the
    seat; it never fills in a card it was not shown."""
    table = _start(RuleSet(players=4), 23)
    assert table.trusted.round_kind in ("attack", "defense")
    trusted = table.trusted
    seat = trusted.to_move
    honest = [g for g in table.seats if g.viewer != seat]
    victim = honest[0].viewer
    stolen = table.host.state.seats[victim].hand[0]
    kind = {"attack": A.ATTACK, "defense": A.DEFENSE, "discard": A.DISCARD}.get(trusted.round_kind, A.ATTACK)
    target = next(t for t in range(4) if t != seat and t != victim)
    for game in honest:  # a card of another seat's hand played by the seat to move
        with pytest.raises(IllegalAction, match=rf"seat {seat} claims deck position {stolen}"):
            game.openings_for(Action(kind, target, (stolen,)), seat)
        with pytest.raises(IllegalAction, match=rf"seat {seat}"):
            game.apply(Action(kind, target, (stolen,)), seat)
    # a contest: the target answers with the card the actor has just played (public,
    # but not the target's)
    play_card = next(a for a in trusted.legal_actions() if a.cards and a.kind in (A.ATTACK, A.DEFENSE))
    table.step(play_card)
    answerer = trusted.to_move
    assert answerer == play_card.target
    shown = table.where[play_card.cards[0]]
    for game in table.seats:
        with pytest.raises(IllegalAction, match=rf"seat {answerer} claims deck position {shown}, which it does not hold"):
            game.openings_for(Action(A.ANSWER, None, (shown,)), answerer)
    # an observation for the victim that names another seat's hidden card
    obs = table.host.observation(victim)
    forged = {**obs, "hand": [*obs["hand"], table.host.state.seats[target].hand[0]]}
    with pytest.raises(HiddenCard):
        fill_observation(forged, table.seats[victim].table)
