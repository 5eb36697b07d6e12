"""Bot-vs-bot simulation: play many games and summarise them (issue 2, specs/rules.md §N).

``simulate(...)`` is pure apart from the ``random.Random`` it builds from ``seed``;
rendering (progress bar, rich table, JSON) lives in :func:`register`'s command.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bots import BOTS, Bot, get_bot
from .cards import CANONICAL_DECK
from .rules import RuleError, RuleSet, load_rules
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


@dataclass
class SimulationStats:
    """Figures over ``games`` finished games of ``players`` seats.

    ``wins_by_seat[s]`` / ``wins_by_identity[letter]`` count games ranked first;
    ``games_by_identity`` counts seats dealt each identity; ``rounds`` and ``actions``
    hold each game's length; ``emptied`` counts games won by emptying a hand (``emptied_early``: before
    the last round, where every play uses all cards);
    ``collected`` is the total number of cards collected, over all seats and games.
    """

    players: int
    games: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    wins_by_identity: dict[str, int] = field(default_factory=dict)
    games_by_identity: dict[str, int] = field(default_factory=dict)
    rounds: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    emptied: int = 0
    emptied_early: int = 0
    collected: int = 0

    def add(self, state: GameState) -> None:
        """Count one finished game."""
        self.games += 1
        first = state.ranking[0]
        self.wins_by_seat[first] += 1
        for letter in state.setup.identities:
            self.games_by_identity[letter] = self.games_by_identity.get(letter, 0) + 1
        letter = state.setup.identities[first]
        self.wins_by_identity[letter] = self.wins_by_identity.get(letter, 0) + 1
        self.rounds.append(state.round_no)
        self.actions.append(state.version)
        self.emptied += state.winner is not None
        self.emptied_early += state.winner is not None and not state.last_round
        for ev in state.events:
            if ev.kind == "contest" and ev.data["collector"] is not None:
                side_cards = sum(len(side["cards"]) for side in ev.data["sides"])
                self.collected += len(ev.data["sides"][0]["cards"]) if ev.data["contest"] == "discard" else side_cards

    def summary(self) -> dict[str, Any]:
        """JSON-friendly figures: rates in 0..1, lengths as mean/p50/p95."""
        from statistics import fmean  # not at import time: `jupai --help` stays fast

        g = max(self.games, 1)
        return {
            "games": self.games,
            "players": self.players,
            "win_rate_by_seat": [w / g for w in self.wins_by_seat],
            "win_rate_by_identity": {
                k: self.wins_by_identity.get(k, 0) / n for k, n in sorted(self.games_by_identity.items())
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


def simulate(rules: RuleSet, games: int, seed: int | None = None, bot: str = "random",
             progress: Callable[[], None] | None = None) -> SimulationStats:
    """Play ``games`` games of ``rules`` with bot ``bot`` in every seat, from ``seed``.

    ``progress`` is called after each game. Raises ``ValueError`` for an unknown bot
    or ``games`` < 1.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    rng = random.Random(seed)
    bots = [get_bot(bot)] * rules.players
    stats = SimulationStats(rules.players, wins_by_seat=[0] * rules.players)
    for _ in range(games):
        stats.add(play_game(rules, bots, rng))
        if progress:
            progress()
    return stats


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` subcommand to the ``jupai`` CLI."""
    p = sub.add_parser(
        "simulate",
        help="let bots play many games and show statistics",
        description="Bots play N games of 剧牌 against each other (no network); then a table of win rates "
        "per seat and identity, game length and how games were decided (--json for figures).",
    )
    p.add_argument("--games", type=int, default=1000, metavar="N", help="number of games (default 1000)")
    p.add_argument("--players", type=int, default=None, metavar="P",
                   help="table size 2–6 (default 4, or the rules file's)")
    p.add_argument("--rounds", type=int, default=None, metavar="N", help="number of rounds (default 12)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="seed for a reproducible run")
    p.add_argument("--bot", default="random", choices=sorted(BOTS),
                   help="bot in every seat (default: random)")
    p.add_argument("--rules", default=None, metavar="FILE", help="TOML file of house rules")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    console = Console(stderr=args.json)
    try:
        overrides = {"players": args.players, "rounds": args.rounds}
        if args.rules:
            rules = load_rules(args.rules, **overrides)
        else:
            rules = RuleSet(**{k: v for k, v in overrides.items() if v is not None})
        if args.games < 1:
            raise ValueError("--games must be at least 1")
    except (RuleError, ValueError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        return 2
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(f"{args.games} games", total=args.games)
        stats = simulate(rules, args.games, args.seed, args.bot, progress=lambda: bar.advance(task))
    s = stats.summary()
    if args.json:
        print(json.dumps({"rules": rules.to_wire(), "bot": args.bot, "seed": args.seed, **s}, indent=2))
        return 0
    t = Table(title=f"{s['games']} games · {rules.players} players · {rules.rounds} rounds · bot {args.bot}")
    t.add_column("figure")
    t.add_column("value", justify="right")
    for seat, rate in enumerate(s["win_rate_by_seat"]):
        t.add_row(f"win rate seat {seat}", f"{rate:.1%}")
    for letter, rate in s["win_rate_by_identity"].items():
        t.add_row(f"win rate {letter} ({_IDENT[letter]})", f"{rate:.1%}")
    for key in ("rounds", "actions"):
        d = s[key]
        t.add_row(f"game length ({key}) mean / p50 / p95", f"{d['mean']:.1f} / {d['p50']:.0f} / {d['p95']:.0f}")
    t.add_row("won by emptying a hand", f"{s['emptied_share']:.1%}")
    t.add_row("  … of which before the last round", f"{s['emptied_before_last_round_share']:.1%}")
    t.add_row("ranked after the last round", f"{s['ranked_share']:.1%}")
    t.add_row("cards collected per player per game", f"{s['collected_per_player']:.2f}")
    console.print(t)
    return 0


_IDENT = {"L": "landlord", "C": "coordinator", "F": "farmer", "N": "narrator"}
