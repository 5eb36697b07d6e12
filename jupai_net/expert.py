"""The ``expert`` bot: determinized Monte-Carlo search over the engine (issue 11;
specs/rules.md § 12).

Like every bot it reads only ``observation(seat)`` and the legal actions. For each
playout it *determinizes*: it deals the cards it cannot see (other hands minus their
known recovered cards, face-down equipment, the round pile, the stock, earlier round
cards that left the log) at random among the cards it has not seen, consistently
with everything the observation shows (own cards, public cards, hand counts, known
collected cards, equipment uses), builds that :class:`~jupai_net.engine.GameState`,
plays one of its candidate moves and lets a fast full-information policy play the
game out. The candidates (the best ten by that policy) share the playouts by
sequential halving: every candidate is played on the same deals (common random
numbers, so moves are compared on equal footing), the worse half is dropped after
each round, and the move with the best mean reward over the shared deals is played.

Budget: ``think`` seconds per move. The search stops after ``playouts`` playouts
(default ``think × PLAYOUTS_PER_SECOND``, a deterministic count: the same ``rng``
gives the same move) or, when a ``clock`` is given, once ``think`` seconds have
passed on it, whichever comes first. :func:`~jupai_net.simulate.simulate` runs
without a clock (reproducible); live tables use ``time.monotonic``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from .actions import Action
from .cards import CANONICAL_DECK, is_prime, rank
from .engine import GameState, Pending, _Seat
from .equipment import Equipment, uses_for
from .rules import DEFAULT_IDENTITIES, RuleError, RuleSet
from .setup import Setup

#: Playouts per second of thinking for the deterministic budget (4 players, one core
#: of the reference machine; bench/expert.py prints the real seconds per move).
PLAYOUTS_PER_SECOND = 400
#: Default thinking time per move, seconds (issue 11: at most 0.5 s on one core).
DEFAULT_THINK = 0.5
#: At most this many root moves are searched (the best by the playout policy's score).
MAX_CANDIDATES = 10


class DeterminizeError(ValueError):
    """The observation cannot be dealt out consistently (e.g. rules guessed wrongly)."""


# --------------------------------------------------------------------------- rules

def infer_rules(obs: dict[str, Any]) -> RuleSet:
    """The :class:`RuleSet` a table most likely plays, from one observation.

    The observation shows the table size, N, the same-identity reading and the
    special numbers; the prime/composite swap and the round-value reading are read
    off the current round (defaults when the round cannot tell); identities are
    hidden when some seat's is. Raises :class:`DeterminizeError` if no valid RuleSet fits.
    """
    players = obs["players"]
    P = len(players)
    card = obs["round_card"]
    swap = False
    ordinal = True
    if card is not None:
        r = rank(card)
        if obs["round_type"] in ("attack", "defense"):
            swap = (obs["round_type"] == "defense") != is_prime(r)
        ordinal = obs["R"] == obs["round"] or obs["R"] != r
    letters = [p["identity"] for p in players]
    default = DEFAULT_IDENTITIES.get(P, "")
    shown = "".join(sorted(x for x in letters if x is not None))
    rest = list(default)
    for x in shown:
        if x in rest:
            rest.remove(x)
    identities = shown + "".join(rest[: letters.count(None)])
    if len(identities) != P:
        identities = default
    specials = obs["specials"]
    hand = max(1, min(5, (53 - obs["rounds"]) // P - 2))
    try:
        return RuleSet(players=P, rounds=obs["rounds"], hand_size=hand, supply_number=specials["supply"],
                       discard_number=specials["discard"], swap_prime_composite=swap,
                       random_specials=True, round_value="ordinal" if ordinal else "rank",
                       same_identity=obs["same_identity"], hidden_identities=None in letters,
                       identities="" if identities == default else identities)
    except RuleError as exc:
        raise DeterminizeError(str(exc)) from None


# ----------------------------------------------------------------- determinizing

def determinize(obs: dict[str, Any], rules: RuleSet, rng: random.Random) -> GameState:
    """A full game state that ``obs["seat"]`` cannot tell from the real one.

    Hidden cards are dealt uniformly at random (``rng``) among the cards the seat has
    not seen: the other hands around their known recovered cards, face-down
    equipment, the round pile, the stock and earlier round cards the log no longer
    shows; hidden identities are dealt among the letters not shown. The state's
    ``observation(seat)`` equals ``obs`` except for ``log`` and ``version`` (tested).
    Raises :class:`DeterminizeError` when the counts do not add up.
    """
    me = obs["seat"]
    players = obs["players"]
    P = len(players)
    known: set[int] = set(obs["hand"]) | set(obs["discard_pile"])
    public: set[int] = set(obs["discard_pile"])
    if obs["round_card"] is not None:
        known.add(obs["round_card"])
        public.add(obs["round_card"])
    pending = obs["pending"]
    if pending is not None:
        known.update(pending["cards"])
        public.update(pending["cards"])
    flipped_seen = {e["round"]: e["card"] for e in obs["log"] if e.get("kind") == "round"}
    flipped_seen[obs["round"]] = obs["round_card"]
    for p in players:
        known.update(p["recovered"])
        public.update(p["recovered"])
        eq = p["equipment"]
        if eq is not None:
            for c in (eq["mass"], eq["weapon"]):
                if c is not None:
                    known.add(c)
                    if p["seat"] != me or eq.get("shown", eq["face_up"]):
                        public.add(c)
    known.update(c for c in flipped_seen.values() if c is not None)
    public.update(c for c in flipped_seen.values() if c is not None)
    unknown = [c for c in CANONICAL_DECK if c not in known]
    rng.shuffle(unknown)
    need = sum(p["hand_count"] - len(p["recovered"]) for p in players if p["seat"] != me)
    need += sum((p["equipment"]["mass"] is None) + (p["equipment"]["weapon"] is None)
                for p in players if p["equipment"] is not None)
    dead = obs["round"] - len(flipped_seen)
    need += obs["round_pile"] + obs["stock"] + dead
    if need != len(unknown) or dead < 0:
        raise DeterminizeError(f"{need} hidden places for {len(unknown)} unseen cards")
    deal = iter(unknown)
    seats = []
    for p in players:
        t = p["seat"]
        if t == me:
            hand = list(obs["hand"])
        else:
            hand = list(p["recovered"]) + [next(deal) for _ in range(p["hand_count"] - len(p["recovered"]))]
            hand.sort()
        eq = p["equipment"]
        equipment = None
        if eq is not None:
            mass = eq["mass"] if eq["mass"] is not None else next(deal)
            weapon = eq["weapon"] if eq["weapon"] is not None else next(deal)
            uses = eq["uses_left"] if eq["uses_left"] is not None else uses_for(rank(mass))
            equipment = Equipment(mass, weapon, uses, eq.get("shown", eq["face_up"]))
            if "shown" in eq:  # the pair's lie (face-up or down) apart from its cards being known (§7)
                equipment.face_up = eq["face_up"]
        lost = None if p["rearm_from"] is None else p["rearm_from"] - 2
        seats.append(_Seat(hand, set(p["recovered"]), equipment, lost, p["identity"] is not None and t != me))
    earlier = [next(deal) for _ in range(dead)]
    round_pile = [next(deal) for _ in range(obs["round_pile"])]
    stock = [next(deal) for _ in range(obs["stock"])]
    flipped = [flipped_seen[r] if r in flipped_seen else earlier.pop() for r in range(1, obs["round"] + 1)]
    letters = [p["identity"] for p in players]
    hidden = [t for t in range(P) if letters[t] is None]
    if hidden:
        pool = list(rules.identity_letters)
        for x in letters:
            if x is not None:
                pool.remove(x)
        rng.shuffle(pool)
        for t, x in zip(hidden, pool):
            letters[t] = x
    sp = obs["specials"]
    setup = Setup(tuple(letters), sp["coordinator"], sp["farmer"], sp["supply"], sp["discard"])
    seats[me].identity_shown = players[me]["identity"] is not None and (
        not rules.hidden_identities or letters[me] == "L" or _shown_in_log(obs, me))
    leader = obs["leader"]
    actor = pending["actor"] if pending is not None else obs["to_move"]
    supply = obs.get("supply")
    supplying = None
    if supply is not None:  # supply (a) under way (specs/rules.md § 9.3)
        from .engine import SupplyA

        supplying = SupplyA(supply["seat"], tuple(supply["cards"]), supply["v"], list(supply["recovered"]),
                            supply["left"])
    contest = None if pending is None else Pending(pending["contest"], pending["actor"], pending["target"],
                                                   tuple(pending["cards"]), pending["weapon"])
    state = GameState(  # pending and supplying given here: the state settles who is to move
        rules=rules, setup=setup, deck=tuple(CANONICAL_DECK), seats=seats, stock=stock, round_pile=round_pile,
        discard_pile=list(obs["discard_pile"]), first_leader=(leader - obs["round"] + 1) % P, flipped=flipped,
        round_no=obs["round"], round_card=obs["round_card"], round_kind=obs["round_type"], round_value=obs["R"],
        leader=leader, turn_index=(actor - leader) % P, public=public, pending=contest, supplying=supplying,
    )
    state._values = tuple(setup.identity_value(t) for t in range(P))
    state.seen = [set(s.hand) | ({s.equipment.mass, s.equipment.weapon} if s.equipment else set()) for s in seats]
    return state


def _shown_in_log(obs: dict[str, Any], seat: int) -> bool:
    for e in obs["log"]:
        ids = e.get("identities")
        if ids is not None and ids[seat] is not None:
            return True
    return False


# ------------------------------------------------------------- playout policy

def _attack_value(R: int, i: int, mw: int, same: bool, I: int) -> int:
    """Attack total (specs/rules.md § 6) as a number: ``I×i + R`` or ``R×i``, plus m×w."""
    return (I * i + R if same else R * i) + mw


_RANK = tuple(rank(c) for c in CANONICAL_DECK)


class _Policy:
    """Scores of the legal moves of seat ``me`` (to move) in a full-information state:
    the expected change of its card count this turn (lower is better), the target's
    best answer taken from its real hand. A fast stand-in for the greedy bot that
    plays every seat in a playout."""

    def __init__(self, state: GameState, me: int):
        self.s = state
        self.me = me
        self.R = state.round_value
        self.ids = state.setup.identities
        self.values = state._values
        self.I = self.values[me]
        self.matching = state.rules.same_identity == "matching-card"
        self.last = state.last_round
        eq = state.seats[me].equipment
        self.mw = _RANK[eq.mass] * _RANK[eq.weapon] if eq is not None else 0
        self.w = _RANK[eq.weapon] if eq is not None else 0
        self.armed = eq is not None
        self.wear = (-2.0 if eq.uses_left == 1 else 0.15) if eq is not None else 0.0
        self._targets: dict[int, tuple[tuple[int, ...], int, float, int, int, int]] = {}

    def same(self, a: int, b: int | None, cards: Sequence[int]) -> bool:
        if self.matching:
            v = self.values[a]
            return any(_RANK[c] == v for c in cards)
        return b is not None and self.ids[a] == self.ids[b]

    def _target(self, t: int) -> tuple[tuple[int, ...], int, float, int, int, int]:
        """A target's strongest answer cards (all of them in the last round), their
        intent i, the tie-break that prefers hitting the seat closest to winning, and
        its equipment's m×w, w and m (0 when unarmed)."""
        got = self._targets.get(t)
        if got is None:
            seat = self.s.seats[t]
            hand = seat.hand
            cards: tuple[int, ...] = () if not hand else tuple(hand) if self.last else (max(hand, key=_RANK.__getitem__),)
            eq = seat.equipment
            m, w = (_RANK[eq.mass], _RANK[eq.weapon]) if eq is not None else (0, 0)
            got = (cards, sum(_RANK[c] for c in cards), 0.01 * self.s.cards_left(t), m * w, w, m)
            self._targets[t] = got
        return got

    def score(self, a: Action) -> float:
        kind = a.kind
        if kind == A.PASS:
            return 0.0
        if kind == A.REARM:
            return 2.0
        if kind == A.SUPPLY_EQUIPMENT:
            return 0.5
        me = self.me
        cards = a.cards
        n = len(cards)
        i = 0
        for c in cards:
            i += _RANK[c]
        if kind == A.SUPPLY_RECOVERED:
            if not n:  # supply (a) under way: one more recovered card, the lowest first
                return -float(len(a.recovered)) + 0.01 * sum(_RANK[c] for c in a.recovered)
            # the intent card, counting the recovered cards it lets the seat shed next (at most v)
            follow = 0 if self.last else min(i, sum(1 for c in self.s.seats[me].recovered if c not in cards))
            return -float(n + max(follow, len(a.recovered))) + 0.01 * i
        wear = self.wear if a.weapon else 0.0
        R = self.R
        if kind == A.ANSWER:
            st = self.s
            p = st.pending
            assert p is not None
            actor = p.actor
            i_a = sum(_RANK[c] for c in p.cards)
            eq_a = st.seats[actor].equipment
            mw_a = _RANK[eq_a.mass] * _RANK[eq_a.weapon] if p.weapon and eq_a is not None else 0
            if p.contest == "attack":
                ta = _attack_value(R, i_a, mw_a, self.same(actor, me, p.cards), self.values[actor])
                td = _attack_value(R, i, self.mw if a.weapon else 0, self.same(me, actor, cards), self.I)
                out = -n if td >= ta else len(p.cards)
            elif p.contest == "defense":
                I_a = self.values[actor]
                ta = (I_a + i_a) + (R + i_a) if self.same(actor, me, p.cards) else R + i_a
                w = self.w if a.weapon else 0
                td = (R + i) + (w + i) if self.same(me, actor, cards) else w + i
                out = -n if td > ta else len(p.cards)
            else:
                ta = _attack_value(R, i_a, mw_a, True, self.values[actor])
                out = (len(p.cards) - (2 if self.armed else 0)) if ta > i else 0
            return out + wear + 0.01 * i
        t = a.target
        if t is None:
            return -float(n) + 0.01 * i
        theirs, i_t, lead, mw_t, w_t, m_t = self._target(t)
        if kind == A.ATTACK:
            mine = _attack_value(R, i, self.mw if a.weapon else 0, self.same(me, t, cards), self.I)
            best = _attack_value(R, i_t, mw_t, self.same(t, me, theirs), self.values[t])
            if mine >= best:
                return -n + wear + 0.001 * (mine - best) + lead
            return max(1, len(theirs)) + wear + 0.001 * i + lead
        if kind == A.DISCARD:
            if self.same(me, t, cards):
                return -n + wear + 0.3 + 0.01 * i
            return -n + (0.3 if i > m_t > 0 else 0.0) + 0.01 * i + lead
        # defense round, actor
        I = self.I
        att = (I + i) + (R + i) if self.same(me, t, cards) else R + i
        dfn = (R + i_t) + (w_t + i_t) if self.same(t, me, theirs) else w_t + i_t
        if att >= dfn:
            return -n + 0.001 * (att - dfn) + lead
        return max(1, len(theirs)) + 0.001 * i + lead


def policy_action(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """The playout policy's move for the seat to move (best :class:`_Policy` score,
    ties broken by ``rng``)."""
    if len(legal) == 1:
        return legal[0]
    me = state.to_move
    assert me is not None
    score = _Policy(state, me).score
    best = math.inf
    picks: list[Action] = []
    for a in legal:
        s = score(a)
        if s < best - 1e-9:
            best, picks = s, [a]
        elif s <= best + 1e-9:
            picks.append(a)
    return picks[rng.randrange(len(picks))] if len(picks) > 1 else picks[0]


def playout(state: GameState, me: int, rng: random.Random) -> float:
    """Play ``state`` out with :func:`policy_action` for every seat; the reward of
    seat ``me``: 1 for first place, else up to 0.1 for a better place (0 for last)."""
    while not state.over:
        state.apply(policy_action(state, state.legal_actions(), rng))
    P = state.players
    place = state.ranking.index(me)
    return 1.0 if place == 0 else 0.1 * (P - 1 - place) / (P - 1)


# ------------------------------------------------------------------- the bot

@dataclass
class SearchStats:
    """What one search did: ``playouts`` run, ``seconds`` spent (on the bot's clock,
    0 without one), and per candidate move ``(move, playouts, mean reward)``."""

    playouts: int = 0
    seconds: float = 0.0
    moves: list[tuple[Action, int, float]] = field(default_factory=list)


class ExpertBot:
    """A planning bot (a :data:`~jupai_net.bots.Bot`): ``bot(obs, legal, rng) -> Action``.

    ``think``: seconds per move (> 0). ``playouts``: the deterministic budget
    (default ``round(think × PLAYOUTS_PER_SECOND)``, at least 1). ``clock``: a
    seconds counter (e.g. ``time.monotonic``) that also stops the search after
    ``think`` seconds; None = count playouts only (reproducible). ``rules``: the
    table's :class:`RuleSet` if known, else read off each observation
    (:func:`infer_rules`). ``last`` holds the :class:`SearchStats` of the latest
    move. Raises ``ValueError`` for ``think`` ≤ 0 or ``playouts`` < 1.
    """

    def __init__(self, think: float = DEFAULT_THINK, *, playouts: int | None = None,
                 clock: Callable[[], float] | None = time.monotonic, rules: RuleSet | None = None):
        if not (isinstance(think, (int, float)) and math.isfinite(think) and think > 0):
            raise ValueError(f"think must be a positive number of seconds, got {think!r}")
        if playouts is None:
            playouts = max(1, round(think * PLAYOUTS_PER_SECOND))
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, got {playouts}")
        self.think = float(think)
        self.playouts = playouts
        self.clock = clock
        self.rules = rules
        self.last = SearchStats()

    def __repr__(self) -> str:
        return f"ExpertBot(think={self.think:g}, playouts={self.playouts})"

    def __call__(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        """The move the search rates best (``ValueError`` if ``legal`` is empty)."""
        if not legal:
            raise ValueError("no legal action to choose from")
        self.last = SearchStats()
        if len(legal) == 1:
            return legal[0]
        try:
            return self._search(obs, legal, rng)
        except DeterminizeError:
            from .bots import greedy_bot  # cannot happen with the engine's observations; never crash a table

            return greedy_bot(obs, legal, rng)

    def _search(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        clock = self.clock
        start = clock() if clock is not None else 0.0
        rules = self.rules if self.rules is not None and self.rules.players == len(obs["players"]) else infer_rules(obs)
        me = obs["seat"]
        moves = sorted(_candidates(legal), key=_Policy(determinize(obs, rules, rng), me).score)[:MAX_CANDIDATES]
        deals: list[tuple[int, int]] = []  # (deal seed, playout seed) of each deal, shared by every candidate
        rewards: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        budget = self.playouts
        n = 0
        rounds_left = max(1, math.ceil(math.log2(len(moves))))
        while n < budget and len(alive) > 1:
            last = rounds_left == 1 or len(alive) == 2
            per = math.inf if last else max(1, (budget - n) // (len(alive) * rounds_left))
            added = 0
            while added < per and n < budget:
                j = len(rewards[alive[0]])
                if j == len(deals):
                    deals.append((rng.getrandbits(64), rng.getrandbits(64)))
                deal, roll = deals[j]
                for k in alive:
                    if n >= budget or (clock is not None and n and clock() - start >= self.think):
                        budget = n  # out of playouts or time: decide on what the deals so far show
                        break
                    state = determinize(obs, rules, random.Random(deal))
                    state.apply(moves[k])
                    rewards[k].append(playout(state, me, random.Random(roll)))
                    n += 1
                added += 1
            if n >= budget:
                break
            alive = _best(alive, rewards)[: (len(alive) + 1) // 2]
            rounds_left -= 1
        best = _best(alive, rewards)[0]
        self.last = SearchStats(n, clock() - start if clock is not None else 0.0,
                                [(m, len(r), sum(r) / len(r) if r else 0.0) for m, r in zip(moves, rewards)])
        return moves[best]


def _best(alive: list[int], rewards: list[list[float]]) -> list[int]:
    """``alive`` ordered best first by mean reward over the deals every one of them has
    played (paired comparison); a candidate without any playout comes last; ties keep
    the playout policy's order."""
    tried = [k for k in alive if rewards[k]]
    if not tried:
        return list(alive)
    common = min(len(rewards[k]) for k in tried)
    ranked = sorted(tried, key=lambda k: -sum(rewards[k][:common]))
    return ranked + [k for k in alive if not rewards[k]]


def _candidates(legal: Sequence[Action]) -> list[Action]:
    """The root moves worth searching: every legal move, except that supply (a) keeps
    only the most recovered cards per intent card (shedding more is never worse for
    the count; the playouts judge which intent card)."""
    most: dict[int, Action] = {}
    out: list[Action] = []
    for a in legal:
        if a.kind == A.SUPPLY_RECOVERED and len(a.cards) == 1:
            c = a.cards[0]
            if c not in most or len(a.recovered) > len(most[c].recovered):
                most[c] = a
        else:
            out.append(a)
    return list(most.values()) + out

