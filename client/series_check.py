"""The client's own series scoreboard, from the signed rankings (specs/rules.md § 15;
specs/client.md § Staying at the table).

The host's ``series`` message is unsigned. After each game the client records that
game in its own tally — the names by seat and the ranking of the host's signed
``end`` statement, if the game verified (any other game scores nothing) — and, once
it has seen every game of the series (``series.game`` games), compares the host's
standings with its own (points, wins, games played, by name). A host that disagrees
is flagged; the client's figures are the ones shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from jupai_net.fairness.statements import decode_body, split_statement
from jupai_net.protocol import Series, SeriesStanding
from jupai_net.series import Series as Tally


def signed_ranking(statements: Iterable[bytes]) -> list[int] | None:
    """The ranking (seats, best first) of the ``end`` statement among a seat's signed
    ``statements`` (wire bytes, as its witness received and checked them), or None."""
    for raw in reversed(list(statements)):
        try:
            body = decode_body(split_statement(raw)[0])
        except Exception:  # noqa: BLE001 - a witness already refused what it could not read
            continue
        if body.get("kind") == "end":
            return [int(s) for s in body.get("ranking") or ()]
    return None


class SeriesCheck:
    """The games of one series as this client saw them, in order. :meth:`add` one game
    (``series_id`` of the host's message that came with it, ``names`` by seat, the
    signed ``ranking`` or None); :meth:`compare` a host message."""

    def __init__(self) -> None:
        self.series_id: bytes | None = None
        self.games: list[tuple[list[str | None], list[int] | None]] = []

    def add(self, series_id: bytes, names: Sequence[str | None], ranking: Sequence[int] | None) -> None:
        """Record one game of series ``series_id`` (a new id starts a new tally)."""
        if series_id != self.series_id:
            self.series_id, self.games = series_id, []
        self.games.append((list(names), list(ranking) if ranking is not None else None))

    def own(self, msg: Series) -> Series | None:
        """This client's scoreboard in the shape of the host's ``msg`` (same series, game
        number, final flag), or None when it did not see every game of the series (it
        joined later: nothing to compare)."""
        if msg.series_id != self.series_id or len(self.games) != msg.game:
            return None
        tally = Tally(msg.series_id)
        for names, ranking in self.games:
            try:
                tally.record(names, ranking)
            except ValueError:
                tally.record(names, None)
        standings = tuple(SeriesStanding(st.name, st.points, st.wins, st.played, st.last)
                          for st in tally.standings()[: len(msg.standings) or None])
        return Series(msg.series_id, msg.game, msg.games, msg.final, standings, tally.abandoned)

    def compare(self, msg: Series) -> tuple[Series | None, list[str]]:
        """``(own scoreboard or None, the names whose line differs)``: a line differs in
        points, wins or games played, or is on one side only. Empty when they agree or
        when there is nothing to compare. Games played are compared only when both
        count the same abandoned games (``Series.abandoned``): an older host, which
        leaves that count out, counted abandoned games as played."""
        own = self.own(msg)
        if own is None:
            return None, []
        same_count = msg.abandoned == own.abandoned

        def key(st: Any) -> tuple[int, ...]:
            return (st.points, st.wins, st.played) if same_count else (st.points, st.wins)
        theirs = {st.name: key(st) for st in msg.standings}
        mine = {st.name: key(st) for st in own.standings}
        return own, sorted(n for n in theirs.keys() | mine.keys() if theirs.get(n) != mine.get(n))


__all__ = ["SeriesCheck", "signed_ranking"]
