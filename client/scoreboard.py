"""The series scoreboard as text lines (specs/rules.md § 15; specs/client.md § Staying at the table).

Used by every screen that shows it: the client after each game and at the end of the
series (rich and ``--plain``), the host screen, and ``jupai history``. The words come
from :mod:`.i18n` (``series.*``), the layout is plain text in terminal cells (CJK
characters count two), so a line fits ``width`` columns (60 and 80 tested).

Example (English, 80 columns)::

    ━━ scoreboard · after game 2 of 3 ━━
      1. Ann (you)        5 pts  +3  1 win
      2. greedy bot 2     4 pts  +2  1 win
      3. Bob              0 pts  (not in it)

and at the end of the series (``final``)::

    ━━ final scoreboard · 3 games ━━
      1. Ann (you)        5 pts  3 games  1 win
      2. greedy bot 2     4 pts  3 games  1 win
      3. Bob              2 pts  1 game   1 win

An abandoned game is nobody's game played (specs/rules.md § 15): the final title
counts the games played and the abandoned ones apart (``━━ final scoreboard · 1 game
played, 2 abandoned ━━``), and each player's games are the finished ones it sat in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len, set_cell_size

from .card_words import display_name
from .i18n import t, tn
from .layout import NAME_MIN, cap_names


def scoreboard_title(game: int, games: int | None, final: bool, lang: str, abandoned: int = 0) -> str:
    """The heading: ``━━ scoreboard · after game 2 of 3 ━━`` (``… after game 2 ━━`` for a
    series without an end), or ``━━ final scoreboard · 3 games ━━`` when ``final`` —
    ``━━ final scoreboard · 1 game played, 2 abandoned ━━`` when ``abandoned`` of the
    ``game`` games were abandoned (they are no games played)."""
    if final and abandoned:
        return tn("series.final_abandoned", max(0, game - abandoned), lang, abandoned=abandoned)
    if final:
        return t("series.final_one", lang) if game == 1 else t("series.final", lang, games=game)
    if games is None:
        return t("series.after_open", lang, game=game)
    return t("series.after", lang, game=game, games=games)


def _cut_names(shown: Sequence[str], mine: Sequence[bool], cap: int, lang: str) -> list[str]:
    """The scoreboard's names within ``cap`` cells, cut by the one rule
    (:func:`~.layout.cap_names`: ``Alex…t`` / ``Alex…n``, told apart; specs/client.md
    § Narrow terminals: names); the viewer's keeps its ``(you)`` whole, its name cut in
    what is left (``(you)`` alone when nothing is). The scoreboard has no seat numbers: a
    name the rule cannot tell apart within ``cap`` (it gives ``""``) is cut to its head
    (``Alexand…``) rather than left out."""
    you = t("series.you", lang)
    everyone = dict(enumerate(shown))
    at = {room: cap_names(everyone, max(0, room)) for room in {cap, cap - cell_len(you)}}
    out = []
    for k, (name, is_me) in enumerate(zip(shown, mine)):
        room = cap - cell_len(you) if is_me else cap
        text = at[room][k]
        if not text and room > NAME_MIN:
            text = set_cell_size(name, room - 1).rstrip() + "…"
        out.append((text + you).lstrip() if is_me else text)
    return out


def scoreboard_lines(standings: Sequence[Any], *, game: int, games: int | None, final: bool, lang: str = "en",
                     me: str | None = None, width: int = 80, abandoned: int = 0) -> list[str]:
    """The scoreboard: the title, then one line per player, best first: place, name
    (``me`` marked as you; bot names translated; names cut with … to fit), points in the series, the points
    of the latest game (``+3``, or ``(not in it)``) — at the end of the series
    (``final``) the games each one played instead (``3 games``) — and the wins. ``standings``: objects
    with ``name``, ``points``, ``wins``, ``last`` (a :class:`jupai_net.series.Standing`
    or a protocol ``Standing``). ``abandoned``: how many of the ``game`` games were
    abandoned (the ``series`` message's ``abandoned``), for the final title. Every line
    is at most ``max(width, 40)`` cells.

    While no game of the series has finished (every one so far was abandoned: nobody
    has a first place), there is nothing to rank: one sentence instead,
    ``No game finished, so there is no scoreboard.`` (``… yet …`` before the end).
    When the latest game was abandoned (nobody has points from it: every ``last`` is
    None, which a finished game never gives), a line under the title says so (``game 3
    was abandoned: no points``) and the players keep their series line without
    ``(not in it)``."""
    width = max(40, width)
    if not any(st.wins for st in standings):  # a finished game always has a first place
        return [t("series.none_finished" if final else "series.none_finished_yet", lang)]
    last_abandoned = not final and all(st.last is None for st in standings)
    rows = []
    shown = [display_name(str(st.name), lang) for st in standings]  # printable; bot names in the viewer's language
    mine = [me is not None and st.name == me for st in standings]
    for st, name, is_me in zip(standings, shown, mine):
        if is_me:
            name += t("series.you", lang)
        if final:  # the series' totals: the games each sat in, not the last game's points
            last = tn("series.played", getattr(st, "played", 0) or 0, lang)
        elif last_abandoned:  # an abandoned game gives nobody points: nobody was "not in it"
            last = ""
        else:
            last = t("series.absent", lang) if st.last is None else f"+{st.last}"
        wins = tn("series.wins", st.wins, lang) if st.wins else ""
        rows.append((name, tn("series.points", st.points, lang), last, wins))
    place_w = len(str(len(rows))) + 2  # "12. "
    tail_w = max((cell_len(p) + 2 + cell_len(l) + (2 + cell_len(w) if w else 0) for _, p, l, w in rows), default=0)
    points_w = max((cell_len(p) for _, p, _, _ in rows), default=0)
    last_w = max((cell_len(l) for _, _, l, _ in rows), default=0)
    name_w = min(max((cell_len(n) for n, _, _, _ in rows), default=0), max(6, width - 2 - place_w - tail_w - 2))
    lines = [scoreboard_title(game, games, final, lang, abandoned)]
    if last_abandoned:
        lines.append("  " + t("series.abandoned", lang, game=game))
    cut = _cut_names(shown, mine, name_w, lang)
    for k, (name, points, last, wins) in enumerate(rows, 1):
        name = cut[k - 1]
        line = (f"  {str(k) + '.':<{place_w}}{set_cell_size(name, name_w)}  "
                f"{' ' * (points_w - cell_len(points))}{points}  {last}")
        if wins:
            line += " " * (last_w - cell_len(last)) + ("  " if last_w else "") + wins
        lines.append(line.rstrip())
    return lines


__all__ = ["scoreboard_lines", "scoreboard_title"]
