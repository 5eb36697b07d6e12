"""Bot-vs-bot simulation: play many games and summarise them (issues 2 and 11;
specs/rules.md § 11).

``simulate(...)`` is pure apart from the ``random.Random`` it builds from ``seed``
(the expert bot runs on its playout count, without a clock, so a seed reproduces);
rendering (progress bar, rich table, JSON) lives in :func:`register`'s command.
Wins are counted by seat, by identity, by position after the leader of round 1 and
by bot, each with a 95 % Wilson interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bots import BOTS, Bot, get_bot
from .cards import CANONICAL_DECK
from .rules import RuleSet
from .setup import draw_setup

if TYPE_CHECKING:  # the engine loads when a game is played, not for `jupai --help`
    from .engine import GameState


def play_game(rules: RuleSet, bots: Sequence[Bot], rng: random.Random) -> GameState:
    """Deal one game from ``rng`` (deck shuffle + setup draws) and let ``bots[seat]`` play it out.

    Bots see only ``state.observation(seat)`` and ``state.legal_actions(seat)``.
    Returns the finished state.
    """
    from .engine import GameState

    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    state = GameState.new(rules, deck, draw_setup(rules, rng))
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat](state.observation(seat), state.legal_actions(seat), rng))
    return state


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return float(ordered[k])


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval ``(low, high)`` of a rate ``wins / n`` (0..1);
    ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def parse_bots(spec: str, players: int) -> list[str]:
    """Bot names per seat from ``--bot``: one name for every seat, or one per seat
    separated by commas (``expert,greedy,greedy,greedy``). Raises ``ValueError`` with
    one clear sentence for an unknown name or the wrong number of names."""
    names = [n.strip() for n in spec.split(",")]
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; choose from {', '.join(BOTS)}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"--bot names {len(names)} bots for {players} seats; give one name, or one per seat")
    return names


def _rate(wins: int, n: int) -> dict[str, float]:
    lo, hi = wilson(wins, n)
    return {"rate": wins / n if n else 0.0, "low": lo, "high": hi, "games": n}


@dataclass
class SimulationStats:
    """Figures over ``games`` finished games of ``players`` seats.

    ``wins_by_seat[s]`` / ``wins_by_identity[letter]`` count games ranked first;
    ``wins_by_position[k]`` counts wins of the seat ``k`` places after the leader of
    round 1 (0 = the leader, the landlord when there is one); ``bots[s]`` names the
    bot in seat ``s`` and ``wins_by_bot`` / ``games_by_bot`` count per bot name (a
    bot in two seats plays two seat-games per game);
    ``games_by_identity`` counts seats dealt each identity; ``rounds`` and ``actions``
    hold each game's length; ``emptied`` counts games won by emptying a hand (``emptied_early``: before
    the last round, where every play uses all cards);
    ``collected`` is the total number of cards collected, over all seats and games.
    """

    players: int
    games: int = 0
    bots: list[str] = field(default_factory=list)
    wins_by_seat: list[int] = field(default_factory=list)
    wins_by_position: list[int] = field(default_factory=list)
    wins_by_bot: dict[str, int] = field(default_factory=dict)
    games_by_bot: dict[str, int] = field(default_factory=dict)
    wins_by_identity: dict[str, int] = field(default_factory=dict)
    games_by_identity: dict[str, int] = field(default_factory=dict)
    rounds: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    emptied: int = 0
    emptied_early: int = 0
    collected: int = 0

    def add(self, state: GameState) -> None:
        """Count one finished game."""
        from .engine import WIN_EMPTIED, game_winner, win_reason

        self.games += 1
        first = game_winner(state.ranking)  # the one rule of who won (specs/rules.md § 8)
        assert first is not None, "a finished game has a ranking"
        P = self.players
        if not self.wins_by_seat:
            self.wins_by_seat = [0] * P
        if not self.wins_by_position:
            self.wins_by_position = [0] * P
        self.wins_by_seat[first] += 1
        self.wins_by_position[(first - state.first_leader) % P] += 1
        for name in self.bots:
            self.games_by_bot[name] = self.games_by_bot.get(name, 0) + 1
        if self.bots:
            self.wins_by_bot[self.bots[first]] = self.wins_by_bot.get(self.bots[first], 0) + 1
        for letter in state.setup.identities:
            self.games_by_identity[letter] = self.games_by_identity.get(letter, 0) + 1
        letter = state.setup.identities[first]
        self.wins_by_identity[letter] = self.wins_by_identity.get(letter, 0) + 1
        self.rounds.append(state.round_no)
        self.actions.append(state.version)
        emptied = win_reason(state.ranking, state.winner) == WIN_EMPTIED
        self.emptied += emptied
        self.emptied_early += emptied and not state.last_round
        for ev in state.events:
            if ev.kind == "contest" and ev.data["collector"] is not None:
                side_cards = sum(len(side["cards"]) for side in ev.data["sides"])
                self.collected += len(ev.data["sides"][0]["cards"]) if ev.data["contest"] == "discard" else side_cards

    def summary(self) -> dict[str, Any]:
        """JSON-friendly figures: rates in 0..1, lengths as mean/p50/p95.

        ``win_rate_by_*`` are plain rates; ``wins`` repeats each with its 95 % Wilson
        interval as ``{"rate", "low", "high", "games"}`` (``games``: the games, or
        seat-games, the rate is out of) under ``seat``/``position``/``identity``/``bot``.
        ``fair_share`` is 1/players.
        """
        from statistics import fmean  # not at import time: `jupai --help` stays fast

        g = max(self.games, 1)
        by_bot = {k: self.wins_by_bot.get(k, 0) / n for k, n in self.games_by_bot.items()}
        return {
            "games": self.games,
            "players": self.players,
            "bots": list(self.bots),
            "fair_share": 1 / self.players,
            "win_rate_by_seat": [w / g for w in self.wins_by_seat],
            "win_rate_by_position": [w / g for w in self.wins_by_position],
            "win_rate_by_identity": {
                k: self.wins_by_identity.get(k, 0) / n for k, n in sorted(self.games_by_identity.items())
            },
            "win_rate_by_bot": by_bot,
            "wins": {
                "seat": [_rate(w, self.games) for w in self.wins_by_seat],
                "position": [_rate(w, self.games) for w in self.wins_by_position],
                "identity": {k: _rate(self.wins_by_identity.get(k, 0), n)
                             for k, n in sorted(self.games_by_identity.items())},
                "bot": {k: _rate(self.wins_by_bot.get(k, 0), n) for k, n in self.games_by_bot.items()},
            },
            "rounds": {"mean": fmean(self.rounds) if self.rounds else 0.0,
                       "p50": _percentile(self.rounds, 0.5), "p95": _percentile(self.rounds, 0.95)},
            "actions": {"mean": fmean(self.actions) if self.actions else 0.0,
                        "p50": _percentile(self.actions, 0.5), "p95": _percentile(self.actions, 0.95)},
            "emptied_share": self.emptied / g,
            "emptied_before_last_round_share": self.emptied_early / g,
            "ranked_share": (self.games - self.emptied) / g,
            "collected_per_player": self.collected / (g * self.players),
        }


def simulate(rules: RuleSet, games: int, seed: int | None = None, bot: str | Sequence[str] = "random",
             progress: Callable[[], None] | None = None, think: float | None = None) -> SimulationStats:
    """Play ``games`` games of ``rules`` from ``seed``: ``bot`` names the bot of every
    seat (one name, a comma-separated list or a sequence, one per seat; see
    :func:`parse_bots`). ``think``: the expert's seconds per move, as a playout count
    (no clock: the run is reproducible from ``seed``).

    ``progress`` is called after each game. Raises ``ValueError`` for an unknown bot,
    a wrong number of bots or ``games`` < 1.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    names = parse_bots(bot if isinstance(bot, str) else ",".join(bot), rules.players)
    rng = random.Random(seed)
    made: dict[str, Bot] = {}
    for name in names:
        if name not in made:
            made[name] = get_bot(name, think=think, rules=rules, clock=None)
    bots = [made[name] for name in names]
    stats = SimulationStats(rules.players, bots=names, wins_by_seat=[0] * rules.players,
                            wins_by_position=[0] * rules.players)
    for _ in range(games):
        stats.add(play_game(rules, bots, rng))
        if progress:
            progress()
    return stats
