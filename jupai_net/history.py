"""``jupai history``: the games played, newest first, from the saved transcripts
(specs/client.md § History).

A game is one game id: the transcripts a seat saved (``<config>/transcripts``) and those
a host kept for every seat (``<config>/host-transcripts``) are grouped by the game id of
their signed ``start`` statement, and the game is shown once, from the first file found
(a seat's own before the host's copies), or from the copy with the worst verdict. Each line: date and time, table, players,
winner, fairness verdict (every file is verified, as ``jupai verify`` does).

What a transcript's signed statements do not say — the table and the players' names —
comes from the file's unsigned ``meta`` map when the program that saved it wrote one
(specs/fairness.md §7); otherwise the line shows the host address or seat numbers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, NamedTuple

from .messages import add_lang_option, t

class GameEntry(NamedTuple):
    """One game of the history.

    ``when``: when the transcript was saved (ISO 8601, local time, seconds);
    ``game``: the game id (hex); ``table``: table name or host address ("" unknown);
    ``players``: a name per seat (seat numbers when unknown); ``seat``: the seat that
    saved the file (None for a host's or spectator's copy); ``winner``: the winner's
    name, "" when the game did not end with one; ``status``/``reason``: the fairness
    verdict; ``file``: the transcript read; ``series``: the id (hex) of the series of
    games it belongs to and ``game_no`` its number there, from the unsigned ``meta``
    ("" / None when unknown); ``ranking``: the signed final ranking (seats, best
    first; empty when the game did not finish); ``points``: this game's points per
    seat from that ranking (specs/rules.md § 15; empty unless it finished and verified)."""

    when: str
    game: str
    table: str
    players: tuple[str, ...]
    seat: int | None
    winner: str
    status: str
    reason: str
    file: str
    series: str = ""
    game_no: int | None = None
    ranking: tuple[int, ...] = ()
    points: tuple[int, ...] = ()


def default_dirs() -> list[Path]:
    """Where ``jupai join``/``play`` and ``jupai host`` save transcripts."""
    from .client.known_hosts import config_dir

    return [config_dir() / "transcripts", config_dir() / "host-transcripts"]


def read_entry(path: Path) -> GameEntry | None:
    """The :class:`GameEntry` of one transcript file; None when it is not a readable
    transcript with a ``start`` statement (such files are not games)."""
    from .fairness.cli import read_bytes
    from .fairness.story import StoryError, read_game
    from .fairness.transcript import TranscriptError, decode_transcript

    data, problem = read_bytes(str(path))
    if problem is not None:
        return None
    try:
        story = read_game(data)
        t = decode_transcript(data)
    except (StoryError, TranscriptError):
        return None
    if story.verdict.game_id is None and story.seats == 0:
        return None
    meta = getattr(t, "meta", None) or {}
    seats = story.seats
    names = list(story.names) or [f"seat {s}" for s in range(seats)]
    when = meta.get("saved")
    if not isinstance(when, str):
        import datetime as dt

        when = dt.datetime.fromtimestamp(path.stat().st_mtime).isoformat(timespec="seconds")
    winner = names[story.winner] if story.winner is not None and story.winner < len(names) else ""
    table = _printable(meta.get("table"))
    series = _printable(meta.get("series"), 32)
    game_no = meta.get("game")
    game_no = int(game_no) if isinstance(game_no, str) and game_no.isdecimal() and len(game_no) < 10 else None
    ranking = tuple(story.ranking or ())
    points: tuple[int, ...] = ()
    if story.verdict.status == "verified" and ranking:
        from .series import game_points

        try:
            points = tuple(game_points(ranking, seats))
        except ValueError:
            points = ()
    return GameEntry(when, story.verdict.game_id or "", table, tuple(names), t.seat, winner,
                     story.verdict.status, story.verdict.reason, str(path), series, game_no if series else None,
                     ranking, points)


def series_standings(entries: list[GameEntry]) -> dict[str, tuple[int, list[Any]]]:
    """The scoreboard of every series among ``entries``: series id → (games found,
    standings best first, :class:`jupai_net.series.Standing`), recomputed from the
    signed rankings of the games that verified (another game counts as one that
    scored nothing), in the order of their game numbers (specs/rules.md § 15)."""
    from .series import totals

    by_series: dict[str, list[GameEntry]] = {}
    for e in entries:
        if e.series:
            by_series.setdefault(e.series, []).append(e)
    out = {}
    for sid, games in by_series.items():
        games.sort(key=lambda e: (e.game_no or 0, e.when))
        board = totals([(list(e.players), list(e.ranking) if e.points else None) for e in games])
        out[sid] = (len(games), board)
    return out


def _printable(value: Any, limit: int = 40) -> str:
    """An unsigned ``meta`` value as safe text: strings only, control and format
    characters dropped, at most ``limit`` characters ("" otherwise)."""
    if not isinstance(value, str):
        return ""
    return "".join(c for c in value if c.isprintable())[:limit]


def collect(dirs: list[Path]) -> list[GameEntry]:
    """Every game in ``dirs`` (``*.jupai`` files), one entry per game id (the copy with the
    worst verdict, else the first found), newest first."""
    from .fairness.cli import WORST_FIRST

    games: dict[str, GameEntry] = {}
    for d in dirs:
        if not d.is_dir():
            continue
        for path in sorted(d.glob("*.jupai")):
            entry = read_entry(path)
            if entry is None:
                continue
            key = entry.game or entry.file
            kept = games.get(key)
            if kept is None or WORST_FIRST.index(entry.status) < WORST_FIRST.index(kept.status):
                games[key] = entry  # of several copies of a game, the worst verdict is the news
    return sorted(games.values(), key=lambda e: e.when, reverse=True)


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``history`` subcommand to ``subparsers``; it sets ``func=run``."""
    p = subparsers.add_parser("history", help=t("history.help"), description=t("history.description"),
                              epilog=t("history.epilog"))
    p.add_argument("--dir", action="append", default=None, metavar="DIR", help=t("history.opt.dir"))
    p.add_argument("-n", "--last", type=int, default=20, metavar="N", help=t("history.opt.last"))
    p.add_argument("--json", action="store_true", help=t("opt.json"))
    add_lang_option(p)
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``jupai history``; returns 0 (2 for a negative ``-n`` or a ``--dir`` that is not a folder)."""
    from .client.i18n import t
    from .config import default_lang

    lang = args.lang or default_lang()
    if args.last < 0:
        print(t("history.bad_n", lang), file=sys.stderr)
        return 2
    dirs = [Path(d) for d in args.dir] if args.dir else default_dirs()
    for d in dirs if args.dir else ():  # a folder the person named must be one (a typo is not "no game yet")
        if not d.is_dir():
            print(t("history.no_dir", lang, dir=d), file=sys.stderr)
            return 2
    entries = collect(dirs)
    shown = entries[: args.last] if args.last else entries
    if args.json:
        import json

        print(json.dumps([e._asdict() for e in shown], ensure_ascii=False, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(highlight=False)
    if not entries:
        console.print(t("history.none", lang, dirs=", ".join(str(d) for d in dirs)), markup=False)
        return 0
    table = Table(box=None, pad_edge=False, show_edge=False)
    with_series = any(e.series for e in shown)
    for key in ("when", "table", "players", "winner", "fairness"):
        table.add_column(t(f"history.col.{key}", lang), overflow="fold")
    if with_series:
        table.add_column(t("series.col.series", lang), overflow="fold")
    styles = {"verified": "green", "tampered": "bold red", "malformed": "red"}
    for e in shown:
        row = [Text(e.when.replace("T", " ")), Text(e.table or "—"), Text(", ".join(e.players)),
               Text(e.winner or "—"), Text(t(f"verdict.{e.status}", lang), style=styles.get(e.status, "yellow"))]
        if with_series:
            row.append(Text(f"{e.series[:6]} #{e.game_no}" if e.series and e.game_no else "—"))
        table.add_row(*row)
    console.print(table)
    boards = series_standings(shown)
    for sid, (count, board) in boards.items():  # the scoreboard of each series shown (points: verified games)
        if count < 2:
            continue
        from .client.i18n import tn

        standings = " · ".join(f"{b.name} {tn('series.points', b.points, lang)}" for b in board)
        console.print(Text(t("series.history", lang, series=sid[:6], games=count, standings=standings)))
    if len(shown) < len(entries):
        console.print(t("history.more", lang, shown=len(shown), total=len(entries)), markup=False, style="dim")
    return 0


__all__ = ["GameEntry", "collect", "default_dirs", "read_entry", "register", "run", "series_standings"]
