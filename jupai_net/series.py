"""A series of games at one table and its scoreboard (specs/rules.md § 15).

Pure logic: no IO, no clock, no randomness (the host passes the series id in).

Scoring: after each **finished** game every seat scores by its place in the final
ranking (design/rules.md § 8): the last place 0 points, each place above it one point
more, so at a P-seat table the winner gets P − 1. An abandoned game scores nothing
and is nobody's game played; the series counts it apart (:attr:`Series.abandoned`:
it still is a game of the series, with a game id and transcripts, and counts towards
``--games N``). Points
belong to the **player's name** (a bot that takes the seat of a player who left
starts from its own total), so a standing follows a person, not a chair.

A **win** is the game's winner by the one rule every screen uses
(:func:`jupai_net.engine.game_winner`: the first of the final ranking, whether a seat
emptied its hand or the last round ended). Standings are ordered by points, then wins, then the place in the
latest game the player was in (better first), then the order players first sat down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .engine import game_winner


def place_points(players: int, place: int) -> int:
    """Points for ``place`` (0 = first) at a table of ``players`` seats: ``players − 1
    − place`` (4 seats: 3, 2, 1, 0). Raises ``ValueError`` for a place outside the table."""
    if not 0 <= place < players:
        raise ValueError(f"place must be 0..{players - 1} at a {players}-seat table, got {place}")
    return players - 1 - place


def game_points(ranking: Sequence[int], players: int) -> list[int]:
    """Points per seat (index = seat) of a finished game from its ``ranking`` (seats,
    best first; it must name every seat ``0..players − 1`` once). Raises ``ValueError``
    for a ranking that is not such a permutation."""
    if sorted(ranking) != list(range(players)):
        raise ValueError(f"a ranking must name every seat 0..{players - 1} once, got {list(ranking)}")
    points = [0] * players
    for place, seat in enumerate(ranking):
        points[seat] = place_points(players, place)
    return points


@dataclass
class Standing:
    """One player's line of the scoreboard: ``name``; ``points`` in the series so far;
    ``wins`` (first places); ``played`` (finished games it sat in: an abandoned game
    is nobody's game played, specs/rules.md § 15);
    ``last``: the points it scored in the latest game of the series, ``None`` when it
    was not in that game (it left, or joined later) or the game was abandoned."""

    name: str
    points: int = 0
    wins: int = 0
    played: int = 0
    last: int | None = None
    _order: int = field(default=0, repr=False, compare=False)  # when it first sat down
    _place: int = field(default=0, repr=False, compare=False)  # its place in its latest game


@dataclass
class Series:
    """The games played in a row at one table.

    ``series_id``: 16 bytes naming the series (random, chosen by the host); ``games``:
    how many games the series has (``None``: until the host stops). :meth:`record`
    adds each game as it ends; :meth:`standings` is the scoreboard; :attr:`played` the
    number of games recorded (finished or abandoned: the games of the series so far,
    which ``games`` counts), :attr:`abandoned` how many of them were abandoned,
    :attr:`finished` the others; :attr:`over` is True once ``games`` were played or
    :meth:`close` was called (everyone left, the host stopped)."""

    series_id: bytes
    games: int | None = None
    played: int = 0
    abandoned: int = 0
    closed: bool = False
    _table: dict[str, Standing] = field(default_factory=dict)

    def record(self, names: Sequence[str | None], ranking: Sequence[int] | None) -> list[int | None]:
        """Add the game that just ended: ``names`` per seat (``None``: an empty seat),
        ``ranking`` (seats best first) of a finished game, or ``None`` for an abandoned
        one. Returns the points per seat (``None`` for every seat of an abandoned game
        and for empty seats). Raises ``ValueError`` for a ranking that does not name
        every seat once (nothing is recorded then)."""
        players = len(names)
        points: list[int | None] = list(game_points(ranking, players)) if ranking is not None else [None] * players
        self.played += 1
        self.abandoned += ranking is None
        for st in self._table.values():
            st.last = None
        for seat, name in enumerate(names):
            if name is None:
                points[seat] = None
                continue
            st = self._table.get(name)
            if st is None:
                st = self._table[name] = Standing(name, _order=len(self._table))
            pts = points[seat]
            st.last = pts
            if pts is not None and ranking is not None:
                st.played += 1
                st.points += pts
                st._place = list(ranking).index(seat)
                if seat == game_winner(ranking):  # the one rule of who won (specs/rules.md § 8)
                    st.wins += 1
        return points

    @property
    def finished(self) -> int:
        """The games of the series that were played to their end (not abandoned)."""
        return self.played - self.abandoned

    def close(self) -> None:
        """End the series early (every person left, or the host stops)."""
        self.closed = True

    @property
    def over(self) -> bool:
        """True when no game of this series is to come."""
        return self.closed or (self.games is not None and self.played >= self.games)

    def standings(self) -> list[Standing]:
        """The scoreboard, best first (module docstring for the order)."""
        return sorted(self._table.values(), key=lambda s: (-s.points, -s.wins, s._place, s._order))


def totals(games: Sequence[tuple[Sequence[str | None], Sequence[int] | None]]) -> list[Standing]:
    """The standings of a whole series from its games in order, each ``(names per
    seat, ranking or None)`` as for :meth:`Series.record` (e.g. rebuilt from saved
    transcripts by ``jupai history``). Games whose ranking is not a permutation of the
    seats count as abandoned."""
    series = Series(b"")
    for names, ranking in games:
        try:
            series.record(names, ranking)
        except ValueError:
            series.record(names, None)
    return series.standings()


__all__ = ["Series", "Standing", "game_points", "place_points", "totals"]
