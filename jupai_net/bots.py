"""Bots: choose an action from a seat's observation and its legal actions.

A bot sees only ``GameState.observation(seat)`` (a plain dict, the same one a network
client receives) and the list of legal actions; it never reads hidden state. The
``rng`` passed in is the bot's only randomness.

* ``random`` — uniform over the legal actions.
* ``greedy`` — best immediate outcome: the action that most lowers the bot's expected
  card count this turn (specs/rules.md "Bots"), estimating unseen cards by the mean
  rank of the cards it has not seen.
* ``expert`` — plans: determinized Monte-Carlo search over the engine
  (:mod:`jupai_net.expert`), ``think`` seconds per move.
"""

from __future__ import annotations

import functools
import random as _random
import time
from collections.abc import Callable, Sequence
from typing import Any

from . import actions as A
from .actions import Action
from .bot_options import think_seconds  # noqa: F401 - part of this module's API
from .cards import CANONICAL_DECK, rank
from .equipment import uses_for
from .formulas import attack_total, defense_attack_strength, defense_strength

Bot = Callable[[dict[str, Any], Sequence[Action], _random.Random], Action]


def random_bot(obs: dict[str, Any], legal: Sequence[Action], rng: _random.Random) -> Action:
    """Uniformly random legal action. Raises ``ValueError`` if ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action to choose from")
    return legal[rng.randrange(len(legal))]


class _View:
    """Helpers over one observation dict."""

    def __init__(self, obs: dict[str, Any]):
        self.obs = obs
        self.me = obs["seat"]
        self.R = obs["R"]
        self.players = obs["players"]
        self.last = obs["last_round"]
        seen = set(obs["hand"]) | set(obs["discard_pile"])
        for p in self.players:
            seen.update(p["recovered"])
            eq = p["equipment"]
            if eq and eq["mass"] is not None:
                seen.update((eq["mass"], eq["weapon"]))
        if obs["round_card"] is not None:
            seen.add(obs["round_card"])
        unseen = [rank(c) for c in CANONICAL_DECK if c not in seen]
        self.mean_rank = sum(unseen) / len(unseen) if unseen else 7.0

    def player(self, seat: int) -> dict[str, Any]:
        """The observation's entry for ``seat``."""
        return self.players[seat]

    def identity_value(self, seat: int) -> int:
        """A seat's identity value I as visible (0 when hidden)."""
        v = self.player(seat)["identity_value"]
        return 0 if v is None else v

    def same(self, a: int, b: int | None, cards: Sequence[int]) -> bool:
        """Whether side ``a`` (against ``b``, playing ``cards``) uses the same-identity
        formula, as far as the observation shows (rules §5)."""
        ia = self.player(a)["identity"]
        if self.obs.get("same_identity") == "matching-card":
            return any(rank(c) == self.identity_value(a) for c in cards)
        return b is not None and ia is not None and ia == self.player(b)["identity"]

    def weapon(self, seat: int) -> tuple[int, int] | None:
        """(m, w) of a seat's equipment when both cards are visible, else None."""
        eq = self.player(seat)["equipment"]
        if not eq or eq["mass"] is None or eq["weapon"] is None:
            return None
        return rank(eq["mass"]), rank(eq["weapon"])

    def guess_weapon(self, seat: int) -> tuple[float, float] | None:
        """(m, w) with an unseen card guessed as the mean unseen rank; None if unarmed."""
        eq = self.player(seat)["equipment"]
        if not eq:
            return None
        return tuple(self.mean_rank if c is None else float(rank(c)) for c in (eq["mass"], eq["weapon"]))  # type: ignore[return-value]

    def spends(self, seat: int) -> bool:
        """True when one more use spends the seat's (own, visible) weapon: −2 cards."""
        eq = self.player(seat)["equipment"]
        return bool(eq) and eq["uses_left"] == 1


def _score(v: _View, a: Action) -> float:
    """Expected change of the bot's own card count from action ``a`` (lower is better)."""
    me, R = v.me, v.R
    i = sum(rank(c) for c in a.cards)
    n = len(a.cards)
    spent = -2.0 if a.weapon and v.spends(me) else 0.0
    if a.kind == A.PASS:
        return 0.0
    if a.kind == A.REARM:
        return 2.0
    if a.kind == A.SUPPLY_RECOVERED:
        if a.recovered:  # supply (a) under way: shed one more recovered card, the lowest first
            return -1.0 + 0.001 * sum(rank(c) for c in a.recovered)
        # the intent card, counting the recovered cards it lets the bot shed next (≤ v)
        rec = [c for c in v.player(me)["recovered"] if c not in a.cards]
        follow = 0 if v.last else min(i, len(rec))
        return -float(n + follow) - 0.01 * i
    if a.kind == A.SUPPLY_EQUIPMENT:
        return 0.5
    pending = v.obs["pending"]
    if a.kind == A.ANSWER:
        actor = pending["actor"]
        ia = sum(rank(c) for c in pending["cards"])
        contest = pending["contest"]
        if contest == "attack":
            wa = v.weapon(actor) if pending["weapon"] else None
            ta = attack_total(R, ia, wa, v.same(actor, me, pending["cards"]), v.identity_value(actor)).value
            td = attack_total(R, i, v.weapon(me) if a.weapon else None, v.same(me, actor, a.cards),
                              v.identity_value(me)).value
            outcome = -n if td > ta else (len(pending["cards"]) if td < ta else -n)
        elif contest == "defense":
            ta = defense_attack_strength(R, ia, v.same(actor, me, pending["cards"]), v.identity_value(actor)).value
            w = v.weapon(me)
            td = defense_strength(R, i, w[1] if w else 0, v.same(me, actor, a.cards)).value
            outcome = -n if td > ta else len(pending["cards"])
        else:
            wa = v.weapon(actor) if pending["weapon"] else None
            ta = attack_total(R, ia, wa, True, v.identity_value(actor)).value
            outcome = (len(pending["cards"]) + 2) if ta > i else 0
        return outcome + spent + 0.001 * i
    # attack / defense / discard as actor: estimate the target's best answer
    t = a.target
    if a.kind == A.DISCARD and t is None:
        return -float(n)
    assert t is not None
    guess_i = 0.0 if v.player(t)["hand_count"] == 0 else v.mean_rank + 3  # targets answer with a good card
    if v.last:
        guess_i = v.player(t)["hand_count"] * v.mean_rank
    if a.kind == A.ATTACK:
        mine = attack_total(R, i, v.weapon(me) if a.weapon else None, v.same(me, t, a.cards), v.identity_value(me)).value
        gw = v.guess_weapon(t)
        theirs = R * guess_i + (gw[0] * gw[1] if gw else 0)
        win = mine > theirs
        return (-n if win else 1.0) + spent + 0.001 * (mine - theirs)
    if a.kind == A.DEFENSE:
        att = defense_attack_strength(R, i, v.same(me, t, a.cards), v.identity_value(me)).value
        gw = v.guess_weapon(t)
        dfn = (gw[1] if gw else 0) + guess_i
        return (-n if att >= dfn else 1.0) + 0.001 * (att - dfn)
    # discard
    gw = v.guess_weapon(t)
    m = gw[0] if gw else 0
    if v.same(me, t, a.cards):  # attack first: either way the actor sheds its cards
        mine = attack_total(R, i, v.weapon(me) if a.weapon else None, True, v.identity_value(me)).value
        return -n + spent - 0.01 * (mine > guess_i)
    return -n - 0.01 * (i > m) * uses_for(max(1, round(m)))


def greedy_bot(obs: dict[str, Any], legal: Sequence[Action], rng: _random.Random) -> Action:
    """The legal action with the best immediate expected outcome (ties broken by ``rng``).

    Raises ``ValueError`` if ``legal`` is empty.
    """
    if not legal:
        raise ValueError("no legal action to choose from")
    v = _View(obs)
    scored = [(_score(v, a), k) for k, a in enumerate(legal)]
    best = min(s for s, _ in scored)
    choices = [k for s, k in scored if s == best]
    return legal[choices[rng.randrange(len(choices))]]


def expert_bot(obs: dict[str, Any], legal: Sequence[Action], rng: _random.Random) -> Action:
    """The ``expert`` bot with its defaults (0.5 s per move, wall clock): a shared
    :class:`jupai_net.expert.ExpertBot`, loaded on first use (the engine it searches
    is not imported for ``jupai --help``)."""
    return _default_expert()(obs, legal, rng)


@functools.cache
def _default_expert() -> Bot:
    from .expert import ExpertBot

    return ExpertBot()


#: The bots by name, weakest first.
BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "expert": expert_bot}

_WALL = object()


def get_bot(name: str, *, think: float | None = None, rules: Any = None, clock: Any = _WALL) -> Bot:
    """The bot called ``name`` (see :data:`BOTS`); ``ValueError`` listing the names otherwise.

    The keywords only concern bots that plan (``expert``): ``think`` seconds per
    move (default 0.5), ``rules`` the table's :class:`~jupai_net.rules.RuleSet` if
    known, ``clock`` a seconds counter that also bounds the search (default
    ``time.monotonic``; ``None``: a playout count only, reproducible). With none of
    them the shared default instance is returned.
    """
    try:
        bot = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOTS)}") from None
    if bot is expert_bot and (think is not None or rules is not None or clock is not _WALL):
        from .expert import DEFAULT_THINK, ExpertBot

        return ExpertBot(DEFAULT_THINK if think is None else think, rules=rules,
                         clock=time.monotonic if clock is _WALL else clock)
    return bot
