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
from collections.abc import Sequence
from typing import Any, NamedTuple

from .messages import add_lang_option, names_text, t, tn

class GameEntry(NamedTuple):
    """One game of the history.

    ``when``: when the transcript was saved (ISO 8601, local time, seconds);
    ``game``: the game id (hex); ``table``: table name or host address ("" unknown);
    ``players``: a name per seat (seat numbers when unknown); ``seat``: the seat that
    saved the file (None for a host's or spectator's copy); ``winner``: the winner's
    name — the first of the signed final ranking (:func:`jupai_net.engine.game_winner`,
    specs/rules.md § 8), whether a seat emptied its hand or the last round ended — ""
    when the game did not finish; ``win``: how it won (``emptied`` or ``ranked``,
    :func:`jupai_net.engine.win_reason`; "" without a winner); ``status``/``reason``: the fairness
    verdict; ``file``: the transcript read; ``series``: the id (hex) of the series of
    games it belongs to and ``game_no`` its number there, from the unsigned ``meta``
    ("" / None when unknown); ``ranking``: the signed final ranking (seats, best
    first; empty when the game did not finish); ``points``: this game's points per
    seat from that ranking (specs/rules.md § 15; empty unless it finished and verified);
    ``address``: the ``host:port`` the game was played at ("" in older files, whose
    ``table`` may be that address); ``scheme``: the scheme that dealt it, as the
    verdict names it (``trusted`` or ``dealer-blind``; "" when the transcript does not tell);
    ``code``/``args``: the verdict's reason as its code and args, as ``jupai verify
    --json`` gives them (specs/fairness.md §9.1; ``reason`` is its English);
    ``abandoned``: why the host abandoned the game, as its signed ``abandon`` statement
    says it (English, printable; "" when the game was not abandoned)."""

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
    address: str = ""
    scheme: str = ""
    code: str = ""
    args: dict[str, Any] = {}  # noqa: RUF012 - never changed: read_entry makes a new dict
    abandoned: str = ""
    win: str = ""


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
    from .engine import game_winner, win_reason

    # one rule on every screen (specs/rules.md § 8): the first of the signed final ranking
    first = game_winner(story.ranking)
    winner = names[first] if first is not None and first < len(names) else ""
    win = (win_reason(story.ranking, story.winner) or "") if winner else ""
    table = _printable(meta.get("table"))
    address = _printable(meta.get("address"), 80)
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
                     ranking, points, address, str(story.verdict.details.get("scheme") or ""),
                     story.verdict.code or "", _json_ready(story.verdict.args),
                     _printable(story.abandoned, 500) if story.abandoned is not None else "", win)


def _json_ready(args: dict[str, Any]) -> dict[str, Any]:
    """A verdict's args as JSON writes them (bytes as hex, as ``jupai verify --json``)."""
    import json

    return json.loads(json.dumps(args, default=lambda x: x.hex() if isinstance(x, (bytes, bytearray)) else repr(x)))


def series_standings(entries: list[GameEntry]) -> dict[str, tuple[int, int, list[Any]]]:
    """The scoreboard of every series among ``entries``: series id → (games found,
    how many of them were abandoned (no signed ranking: the game did not end),
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
        out[sid] = (len(games), sum(1 for e in games if not e.ranking), board)
    return out


def _printable(value: Any, limit: int = 40) -> str:
    """An unsigned ``meta`` value as safe text: strings only, control and format
    characters dropped, at most ``limit`` characters ("" otherwise)."""
    if not isinstance(value, str):
        return ""
    return "".join(c for c in value if c.isprintable())[:limit]


def game_files(dirs: list[Path]) -> list[list[Path]]:
    """The ``*.jupai`` files in ``dirs`` grouped by the game their **name** says, newest
    group first (by the newest file's modification time), without reading them: the
    programs name a game's copies ``<game id hex>-seat<N>.jupai`` (the host: the whole
    id; a seat or spectator: its first 12 digits, ``-spectator``), so the name before
    the last ``-`` (a hex id cut to 12 digits) is the group; any other name is a group
    of its own name's part before the last ``-``. Files that cannot be read (stat)
    are left out."""
    groups: dict[str, list[tuple[float, Path]]] = {}
    for d in dirs:
        if not d.is_dir():
            continue
        for path in sorted(d.glob("*.jupai")):
            try:
                mtime = path.stat().st_mtime
            except OSError:
                continue
            key = path.stem.rsplit("-", 1)[0].lower()
            if len(key) >= 12 and all(c in "0123456789abcdef" for c in key):
                key = key[:12]
            groups.setdefault(key, []).append((mtime, path))
    ordered = sorted(groups.values(), key=lambda files: max(m for m, _ in files), reverse=True)
    return [[path for _, path in files] for files in ordered]


def collect(dirs: list[Path], limit: int = 0) -> list[GameEntry]:
    """Every game in ``dirs`` (``*.jupai`` files), one entry per game id (the copy with the
    worst verdict, else the first found; the table's name from any copy that names it,
    e.g. the host's when the seat joined by address), newest first. With ``limit`` > 0
    only the newest ``limit`` games: the files are read (and verified) group by group,
    newest first (:func:`game_files`), until ``limit`` games were found, so ``jupai
    history -n 2`` reads a few files, not the whole folder."""
    return collect_counted(dirs, limit)[0]


def collect_counted(dirs: list[Path], limit: int = 0) -> tuple[list[GameEntry], int]:
    """:func:`collect` and how many games ``dirs`` hold in all (the ``M`` of "N of M
    games shown"), counted as games, not files: the games read, plus each group of
    files not read whose name gives a game id (:func:`game_files`) and is none of
    those (counted unread), plus the game ids of the other files not read (renamed
    copies: their ``start`` statement's id peeked, not verified, :func:`peek_game`);
    a file that is no transcript is no game. Ids compare by their first 12 hex digits
    (what a seat's file name keeps)."""
    from .fairness.cli import WORST_FIRST

    games: dict[str, GameEntry] = {}
    groups = game_files(dirs)
    read = 0
    for group in groups:
        if limit and len(games) >= limit:
            break
        read += 1
        for path in group:
            entry = read_entry(path)
            if entry is None:
                continue
            key = entry.game or entry.file
            kept = games.get(key)
            if kept is None or WORST_FIRST.index(entry.status) < WORST_FIRST.index(kept.status):
                if kept is not None and _named(kept) and not _named(entry):
                    entry = entry._replace(table=kept.table, address=kept.address)
                if kept is not None and kept.abandoned and not entry.abandoned:
                    entry = entry._replace(abandoned=kept.abandoned)
                if kept is not None and kept.series and not entry.series:
                    entry = entry._replace(series=kept.series, game_no=kept.game_no)
                games[key] = entry  # of several copies of a game, the worst verdict is the news
            else:
                if _named(entry) and not _named(kept):  # a seat that joined by address: the host's copy names it
                    kept = kept._replace(table=entry.table, address=entry.address)
                if entry.abandoned and not kept.abandoned:  # a seat that left first: another copy says why it ended
                    kept = kept._replace(abandoned=entry.abandoned)
                if entry.series and not kept.series:  # ... and which series the game was part of
                    kept = kept._replace(series=entry.series, game_no=entry.game_no)
                games[key] = kept
    newest = sorted(games.values(), key=lambda e: e.when, reverse=True)
    ids = {e.game[:12] if e.game else e.file for e in newest}
    for group in groups[read:]:  # not read: a game by its name, else by a peek at each file
        key = group[0].stem.rsplit("-", 1)[0].lower()[:12]
        if len(key) == 12 and all(c in "0123456789abcdef" for c in key):
            ids.add(key)
            continue
        for path in group:
            game = peek_game(path)
            if game is not None:
                ids.add(game[:12])
    return (newest[:limit] if limit else newest), len(ids)


def peek_game(path: Path) -> str | None:
    """The game id (hex) that the ``start`` statement of the transcript at ``path``
    names, read without verifying anything (for counting games only); None when the
    file cannot be read or holds no such statement."""
    from .fairness.statements import StatementError, decode_body, split_statement
    from .fairness.transcript import TranscriptError, decode_transcript

    try:
        t = decode_transcript(path.read_bytes())
        if not t.statements:
            return None
        body = decode_body(split_statement(t.statements[0])[0])
    except (OSError, TranscriptError, StatementError):
        return None
    game = body.get("game")
    return game.hex() if body.get("kind") == "start" and isinstance(game, bytes) else None


def _named(entry: GameEntry) -> bool:
    """True when ``entry``'s file names its table apart from the address (the host's
    copies, a seat that picked the table from the LAN or joined it by name)."""
    return bool(entry.address) and entry.table not in ("", entry.address)


#: How a verdict is coloured in the list (the others yellow).
VERDICT_STYLES = {"verified": "green", "tampered": "bold red", "malformed": "red"}


class HistoryRow(NamedTuple):
    """One game as ``jupai history`` shows it, in the viewer's language: ``when``
    (``2026-11-30 20:15``, no seconds), ``table`` (name or ``host:port``, ``—`` when
    unknown), ``players`` and ``winner`` (bot names in ``lang`` as the game screen says
    them: ``贪心机器人 1``), ``verdict`` (the verdict's word with the scheme that dealt
    the game: ``verified (dealer-blind)``, ``已验证（可信庄家）``) and ``style``, ``series``
    (``ab12cd #2`` or ``—``), ``address`` (``host:port`` when the file names the
    table and its address apart, else ""), ``abandoned``: why the host abandoned the
    game, in ``lang`` for jupai's own reasons (``messages.notices.reason_sentence``; ""
    when it was not abandoned), ``win``: the winner and how it won (``Ann (played out
    every card)``, ``client.win_words.win_named``; "" without a winner), which the
    block of a narrow terminal shows on its winner line; ``left``: why a game that was
    not abandoned is unverified because a seat left it before its end
    (:func:`left_words`: ``you left before the end`` in the seat's own copy; ""
    otherwise)."""

    when: str
    table: str
    players: tuple[str, ...]
    winner: str
    verdict: str
    style: str
    series: str
    address: str = ""
    abandoned: str = ""
    win: str = ""
    left: str = ""


def verdict_words(entry: GameEntry, lang: str) -> str:
    """The verdict of ``entry`` in ``lang`` as the list shows it: its word, and the
    scheme that dealt the game when the transcript tells (``verified (trusted
    dealer)``, ``已验证（庄家盲发）``), as every verdict names it. A game the host
    abandoned that is merely *unverified* (it did not end, so nothing could be checked)
    says ``abandoned`` (``已放弃``) instead: that is the news; a worse verdict (a host that
    abandoned after the seeds: *suspicious*) keeps its own word."""
    from .client.i18n import t

    word = t("history.abandoned" if entry.abandoned and entry.status == "unverified" else f"verdict.{entry.status}",
             lang)
    if not entry.scheme:
        return word
    from .messages import catalog

    key = f"verdict.scheme.{entry.scheme}"
    return t("history.verdict", lang, status=word, scheme=t(key, lang) if key in catalog() else entry.scheme)


#: The verdict codes of a copy whose seat left before the end (specs/fairness.md §9):
#: the seat's own copy (``left``, ``blind_left``), and a host's copy written for a seat
#: gone at the end (``left_copy``, ``blind_left_copy``).
OWN_LEFT_CODES = ("left", "blind_left")
COPY_LEFT_CODES = ("left_copy", "blind_left_copy")


def left_words(entry: GameEntry, lang: str, name: Any = None) -> str:
    """Why ``entry`` is unverified when its seat left the game before the end, in
    ``lang`` (specs/client.md § History): ``you left before the end`` (``你在结束前离开了牌桌``)
    in the seat's own copy, ``seat 1 (Bob) left before the end`` in a host's copy kept
    for a seat that was gone at the end; "" for any other verdict (``name``: a seat's
    name → the name shown, default as it is)."""
    from .client.i18n import t

    if entry.status != "unverified":
        return ""
    if entry.code in OWN_LEFT_CODES:
        return t("history.left_you", lang)
    if entry.code in COPY_LEFT_CODES and entry.seat is not None:
        who = entry.players[entry.seat] if entry.seat < len(entry.players) else ""
        shown = (name or (lambda x: x))(who) if who else ""
        seat = t("seat.named", lang, n=entry.seat, name=shown) if shown else t("seat", lang, n=entry.seat)
        return t("history.left_seat", lang, who=seat)
    return ""


def history_row(entry: GameEntry, lang: str) -> HistoryRow:
    """The :class:`HistoryRow` of ``entry`` in ``lang``."""
    from .client.card_words import display_name
    from .client.i18n import t
    from .client.win_words import win_named
    from .messages.notices import reason_sentence

    import re

    def name(text: str) -> str:  # a seat with no name in the file (``seat 2``: read_entry) in lang
        unnamed = re.fullmatch(r"seat (\d+)", text)
        return t("seat", lang, n=int(unnamed.group(1))) if unnamed else display_name(text, lang)

    when = entry.when.replace("T", " ")
    when = when[:16] if len(when) >= 19 and when[16] == ":" else when  # minutes are enough in a list
    return HistoryRow(when, entry.table or "—", tuple(name(p) for p in entry.players),
                      name(entry.winner) if entry.winner else "—", verdict_words(entry, lang),
                      VERDICT_STYLES.get(entry.status, "yellow"),
                      f"{entry.series[:6]} #{entry.game_no}" if entry.series and entry.game_no else "—",
                      entry.address if entry.address != entry.table else "",
                      reason_sentence(entry.abandoned, lang) if entry.abandoned else "",
                      win_named(name(entry.winner), entry.win, lang) if entry.winner and entry.win else "",
                      "" if entry.abandoned else left_words(entry, lang, name))


def history_table(rows: list[HistoryRow], lang: str, with_series: bool, width: int) -> Any:
    """The games as a rich table for ``width`` columns, one row each, or None when it
    does not fit. The date, table (an address ``host:port`` stays whole), winner,
    verdict and series columns are never wrapped; the players share one line when it
    fits, else one name a line (a name is never broken)."""
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    from .client.i18n import t

    keys = ["when", "table", "players", "winner", "fairness"] + (["series"] if with_series else [])
    heads = [t("series.col.series" if k == "series" else f"history.col.{k}", lang) for k in keys]
    cells = [[r.when, r.table, r.players, r.winner, r.verdict, r.series][:len(keys)] for r in rows]

    def col_width(i: int) -> int:
        if keys[i] == "players":
            return max([cell_len(heads[i])] + [cell_len(n) + 1 for r in rows for n in r.players])
        return max([cell_len(heads[i])] + [cell_len(c[i]) for c in cells])

    widths = [col_width(i) for i in range(len(keys))]
    room = width - 2 * (len(keys) - 1) - sum(w for k, w in zip(keys, widths) if k != "players")
    players_width = widths[keys.index("players")]
    if room < players_width:
        return None
    table = Table(box=None, pad_edge=False, show_edge=False)
    for k, head in zip(keys, heads):
        table.add_column(head, no_wrap=k != "players")
    for r, c in zip(rows, cells):
        joined = names_text(r.players, lang)
        c[2] = joined if cell_len(joined) <= room else (t("names.sep", lang).rstrip() + "\n").join(r.players)
        row = [Text(x) for x in c]
        row[4].stylize(r.style)
        table.add_row(*row)
    return table


def names_packed(names: Sequence[str], lang: str) -> Any:
    """``names`` as a list (``Alice, greedy bot 1``, ``Alice、贪心机器人 1``) broken
    between names only when printed (a name is never split: ``greedy`` / ``bot 5``),
    each comma staying after its name (``layout.Packed``)."""
    from rich.text import Text

    from .client.i18n import t
    from .client.layout import Packed

    sep = t("names.sep", lang)
    items = [Text(n + sep.rstrip()) for n in names[:-1]] + [Text(n) for n in names[-1:]]
    return Packed(items, " " if sep.endswith(" ") else "")


def history_block(row: HistoryRow, lang: str, width: int) -> Any:
    """One game as a block of lines, for a terminal too narrow for the table:
    ``2026-11-30 20:15 · verified · series ab12cd #2`` (broken between its parts
    only), then the table (and its address), the players (broken between names only)
    and the winner each on a labelled line; the table (an address) is never broken
    across lines: cut with ``…`` when even its own line is too short."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from .client.i18n import t

    from .client.layout import Packed

    # broken between its parts only (`series 358078` / `#2` was)
    parts = [Text(row.when, style="bold"), Text(row.verdict, style=row.style)]
    if row.series != "—":
        parts.append(Text(f"{t('series.col.series', lang)} {row.series}"))
    head = Packed(parts)
    grid = Table.grid(padding=(0, 1), pad_edge=False)
    grid.add_column(no_wrap=True, style="dim")
    grid.add_column()
    grid.add_row("  " + t("history.col.table", lang), Text(row.table, no_wrap=True, overflow="ellipsis"))
    if row.address:
        grid.add_row("  " + t("history.col.address", lang), Text(row.address, no_wrap=True, overflow="ellipsis"))
    grid.add_row("  " + t("history.col.players", lang), names_packed(row.players, lang))
    if row.win.startswith(row.winner) and row.win != row.winner:  # the name whole, how it won after it
        how = row.win[len(row.winner):]
        if how.startswith(" "):  # English: broken between words (the name is one)
            winner: Any = Packed([Text(row.winner)] + [Text(word) for word in how.split()], " ")
        else:  # Chinese: between characters, as a Chinese line wraps
            winner = Packed([Text(row.winner), Text(how)], "")
    else:
        winner = Text(row.winner, no_wrap=True, overflow="ellipsis")
    grid.add_row("  " + t("history.col.winner", lang), winner)
    if row.abandoned or row.left:
        from .client.layout import Wrapped

        # Chinese wraps between characters
        grid.add_row("  " + t("history.col.why", lang), Wrapped(row.abandoned or row.left))
    return Group(head, grid)


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
            from .printable import printable

            print(t("history.no_dir", lang, dir=printable(str(d))), file=sys.stderr)  # a person's path, as typed
            return 2
    shown, total = collect_counted(dirs, args.last)  # only the newest N read and verified (-n 0: every game)
    if args.json:
        import json

        from .printable import printable_tree

        # as `jupai verify --json`: the verdict's args quote the host's own words (an
        # abandon reason), which may hold a bidi override or a C1 control that JSON
        # writes as it is (ensure_ascii=False)
        print(json.dumps(printable_tree([e._asdict() for e in shown]), ensure_ascii=False, indent=2))
        return 0
    from .printable import literal_console

    console = literal_console()
    with console.capture() as captured:  # printed without the spaces rich pads rows with
        _print_history(console, shown, total, dirs, lang)
    sys.stdout.write("".join(line.rstrip(" ") + "\n" for line in captured.get().splitlines()))
    return 0


def _print_history(console: Any, shown: list[GameEntry], total: int, dirs: list[Path], lang: str) -> None:
    """The games of ``jupai history`` on ``console``: a table, or a block a game, then
    each series' scoreboard and how many games were left out."""
    from rich.text import Text

    from .client.i18n import t
    from .client.layout import Packed
    from .printable import printable

    if not shown:
        console.print(t("history.none", lang), markup=False)
        for d in dirs:  # a folder per line, never broken across lines (it can be copied)
            console.print(Text(f"  {printable(str(d))}"), soft_wrap=True)
        return
    from .client.card_words import display_name

    rows = [history_row(e, lang) for e in shown]
    with_series = any(e.series for e in shown)
    table = history_table(rows, lang, with_series, console.width)
    if table is not None:
        console.print(table)
        from .client.layout import Wrapped

        for row in rows:  # why each abandoned (or left) game is unverified: too long for a column
            if row.abandoned:
                console.print(Wrapped(t("history.abandoned_why", lang, when=row.when, table=row.table,
                                        reason=row.abandoned)))
            elif row.left:
                console.print(Wrapped(t("history.left_why", lang, when=row.when, table=row.table, reason=row.left)))
    else:  # too narrow for the columns: one block of lines per game
        for row in rows:
            console.print(history_block(row, lang, console.width))
    boards = series_standings(shown)
    for sid, (count, abandoned, board) in boards.items():  # each series' scoreboard (points: verified games)
        if count < 2:
            continue
        from .client.i18n import tn

        standings = " · ".join(f"{display_name(b.name, lang)} {tn('series.points', b.points, lang)}" for b in board)
        if abandoned:  # abandoned games are no games played (specs/rules.md § 15): counted apart
            said = t("series.history_abandoned", lang, series=sid[:6], games=tn("count.games", count - abandoned, lang),
                     abandoned=abandoned, standings=standings)
        else:
            said = t("series.history", lang, series=sid[:6], games=tn("count.games", count, lang), standings=standings)
        console.print(Packed(said))  # broken between its parts only: "Alice 0 pts" stays whole
    if len(shown) < total:
        console.print(t("history.more", lang, shown=len(shown), total=total), markup=False, style="dim")


__all__ = ["GameEntry", "HistoryRow", "collect", "collect_counted", "default_dirs", "game_files", "history_block", "history_row", "history_table", "left_words", "peek_game", "read_entry",
           "register",
           "run", "series_standings"]
