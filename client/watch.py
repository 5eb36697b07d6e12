"""``jupai watch HOST[:PORT] | TABLE``: watch a table as a spectator (specs/client.md § Watch).

Connects like ``jupai join`` (same address forms, LAN discovery, join-code pinning:
:func:`.cli.find_host`, :class:`.cli.PinningCheck`) but says ``hello`` with ``watch``
(specs/protocol.md §12): no seat, no hand, no prompt. The screen is the player's table
screen in its spectator form (:func:`.render.render_view` with ``observation(None)``:
every formula and outcome line, the ranking at the end), or one line per event with
``--plain`` (also when stdout is not a terminal). It stays for the next game until the
host stops; ``q`` + Enter or Ctrl-C leaves (exit 0).

Exit codes: 0 watched until the host stopped or the watcher left; 1 the public record
of the last game did not verify; 2 bad arguments; 3 cannot connect; 4 the host's join
code is wrong or changed; 5 protocol version mismatch; 6 the host refused (e.g.
``spectators-full``), failed or was lost; 130 a second Ctrl-C.
"""

from __future__ import annotations

import argparse
from typing import Any, NamedTuple

from .cli import (
    DEFAULT_PORT,
    EXIT_OK,
    EXIT_UNVERIFIED,
    IDLE_TIMEOUT,
    _idle_timeout,
    _signal_receiver,
    run_trio,
    start,
)
from ..messages import add_lang_option, t  # the catalog's tables load when a text is asked for

#: How this command's error lines start.
PROG = "jupai watch"
#: Lines a watcher types to leave (``q`` as well as the player's words).
QUIT = frozenset({"q", "/q", "quit", "/quit", "exit", "/exit", "退出"})


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``watch`` subcommand to an argparse ``subparsers`` object; sets ``func=run``."""
    p = subparsers.add_parser("watch", help=t("watch.help"), description=t("watch.description"),
                              epilog=t("watch.epilog"))
    p.add_argument("address", metavar="HOST[:PORT] | TABLE", nargs="?", default=None,
                   help=t("watch.opt.address", port=DEFAULT_PORT))
    p.add_argument("--name", default=None, help=t("watch.opt.name"))
    p.add_argument("--code", default=None, metavar="CODE", help=t("watch.opt.code"))
    p.add_argument("--plain", action="store_true", help=t("watch.opt.plain"))
    add_lang_option(p)
    p.add_argument("--idle-timeout", type=float, default=IDLE_TIMEOUT, metavar="SECONDS",
                   help=t("watch.opt.idle_timeout", seconds=f"{IDLE_TIMEOUT:g}"))
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``jupai watch``; returns the exit code."""
    import sys

    began = start(args, PROG)
    if isinstance(began, int):
        return began
    lang, console, err, host, port, code, name = began
    plain = bool(args.plain) or not sys.stdout.isatty()
    return run_trio(err, t("watch.interrupted", lang), watch, host, port, name, code, args, lang, console, plain,
                    err, prog=PROG)


async def watch(host: str, port: int, name: str, code: str | None, args: argparse.Namespace, lang: str,
                console: Any, plain: bool, err: Any = None) -> int:
    """Connect as a spectator, show the games until the host stops or the watcher leaves,
    report (errors on ``err``, the stderr console; default ``console``); returns the exit code. The first Ctrl-C leaves politely (``bye``, exit 0),
    a second one quits at once."""
    import logging

    import trio
    from rich.text import Text

    from .cli import PinningCheck, report, say_goodbye
    from .session import SessionControl, run_session
    from .ui import print_game_end

    logging.basicConfig(level=logging.CRITICAL)  # the report says what went wrong, in the user's language
    check = PinningCheck(code, console, lang, err=err, watch=True)
    control = SessionControl()

    async def on_signal(received: Any) -> None:
        async for _ in received:
            if control.leaving:
                raise KeyboardInterrupt
            control.leave()

    console.print(Text(t("cli.connecting", lang, host=host, port=port), style="dim"))
    with _signal_receiver() as received:
        async with trio.open_nursery() as nursery:
            if received is not None:
                nursery.start_soon(on_signal, received)
            player: Any = PlainWatcher(lang, host, port) if plain else WatchScreen(lang=lang, console=console)
            player.attach(control)
            nursery.start_soon(player.input_loop)
            result = await run_session(host, port, name=name, player=player, check_fingerprint=check, lang=lang,
                                       control=control, watch=True, idle_timeout=_idle_timeout(args),
                                       table_name=getattr(args, "table_name", None))
            nursery.cancel_scope.cancel()
    if result.status == "left":
        console.print(Text(t("watch.left", lang), style="bold"))
        if result.verdict is not None:  # the last game it saw had ended: its verdict and transcript
            import dataclasses

            print_game_end(console, dataclasses.replace(result, status="finished"), lang, ranking=False)
        return EXIT_OK
    if result.status in ("finished", "aborted") and result.verdict is not None and \
            result.game_id is not None and player.ending_shown == result.game_id:
        # the screen (or the --plain lines) already shows this game's verdict, transcript
        # and scoreboard: nothing to say twice but the host's goodbye; after the last game
        # of a series that goodbye is the normal end, said calmly (issue 12)
        series = result.series
        if result.host_bye and result.status == "finished" and series is not None and series.final \
                and series.games is not None and series.game >= series.games:  # all its games played
            console.print(Text(t("watch.series_closed", lang), style="bold"))
        else:
            say_goodbye(result, err if err is not None else console, lang, PROG)
        return EXIT_OK if result.verdict.ok else EXIT_UNVERIFIED
    if player.warning_read:
        check.first_use = None  # read and acknowledged before the game: not repeated at the end
    exit_code = report(result, console, lang, check, host, port, ranking=False, prog=PROG, err=err)
    if result.status == "aborted" and (result.verdict is None or result.verdict.ok):
        return EXIT_OK  # the host abandoned the game; the spectator saw all there was
    return exit_code if exit_code != EXIT_OK or result.verdict is None or result.verdict.ok else EXIT_UNVERIFIED


def _players_text(players: Any, lang: str) -> str:
    from .render import display_name

    from jupai_net.messages import names_text

    return names_text((t("seat.named", lang, n=p.seat, name=display_name(p.name, lang)) for p in players), lang) or "-"


def series_lines(view: Any, lang: str, width: int) -> list[str]:
    """The series scoreboard the spectator has (``view.series``: the host's, or the
    client's own when the host's disagreed with the signed rankings), as text lines for
    ``width`` columns; [] without one."""
    from .scoreboard import scoreboard_lines

    series = getattr(view, "series", None)
    if series is None:
        return []
    return scoreboard_lines(series.standings, game=series.game, games=series.games, final=series.final, lang=lang,
                            width=width, abandoned=getattr(series, "abandoned", 0))


def ending_texts(view: Any, lang: str, width: int | None = None, *, reason: bool = True,
                 command: bool = True) -> list[Any]:
    """How the game the spectator saw ended, once its public record was checked
    (``view.verdict``; [] before): the fairness verdict, where the transcript was saved
    and the command to check it again — the lines a player gets between games
    (:func:`.end_words.game_end_lines`, without the ranking, which the screen shows;
    with ``width``, the terminal's columns, a ``jupai verify`` command too long for a
    line is cut after ``verify`` with a shell continuation, as on a player's screen;
    ``reason=False``: the verdict without its reason, ``command=False``: without the
    command, for a screen short of rows). rich ``Text`` s; a path or a command is one
    unwrapped line (print with ``crop=False``)."""
    from rich.text import Text

    from .end_words import game_end_lines

    if getattr(view, "verdict", None) is None:
        return []
    result = view.result or {}
    ending = _Ending(result, view.names, view, "finished" if result.get("ranking") else "aborted",
                     ("abandoned", str(result.get("reason") or "")), verdict=view.verdict,
                     transcript_path=getattr(view, "transcript_path", None))
    return [Text(text, style=style, no_wrap=whole, overflow="ignore" if whole else "fold")
            for text, style, whole in game_end_lines(ending, lang, with_ranking=False, width=width, reason=reason,
                                                     command=command)]


def rows_of(text: Any, width: int) -> int:
    """Terminal rows a ``Text`` takes at ``width`` columns (an unwrapped one as the
    terminal folds it)."""
    from rich.cells import cell_len

    from .render import height_of

    if text.no_wrap:
        return max(1, -(-cell_len(text.plain) // max(1, width)))
    return height_of(text, width)


class WatchScreen:
    """The spectator's table screen, redrawn on every change: the lobby until the deal,
    then :func:`.render.render_view` of ``observation(None)`` (no hand, no moves), with
    a keys line under it. Reads typed lines: ``q`` leaves, ``?`` shows the help (the
    table is not redrawn over it until Enter), ``/log`` pages the public game so far
    with a player's pager and keys (:class:`.screen_log.LogPager`: the page stays while
    the game goes on), Enter redraws; the end of input does not leave (a spectator
    needs no keyboard)."""

    def __init__(self, *, lang: str = "en", console: Any = None, reader: Any = None):
        from jupai_net.printable import literal_console

        from .screen_log import LogPager
        from .ui import LineReader

        self.lang = lang
        self.console = console or literal_console()
        self.reader = reader or LineReader(0)
        self.view: Any = None
        self.control: Any = None
        self.reading_help = False  # the help is on screen: updates wait for Enter
        self.log = LogPager()  # the game log paged (/log): updates wait for q
        self.ending_shown: bytes | None = None  # the game whose verdict was drawn
        self._hold: str | None = None  # the trust-on-first-use warning, shown alone until Enter
        self._held: set[tuple[str, float]] = set()  # the host-pinned notes already held once: (text, at)
        self.warning_read = False  # the person pressed Enter under the first-use warning

    def attach(self, control: Any) -> None:
        """Keep the session control (``q`` calls ``control.leave()``)."""
        self.control = control

    def screen(self, view: Any) -> Any:
        """The renderable for ``view`` at the console's size (one line kept for the
        cursor, the keys line under the rest). On a terminal every line fits the
        width (only a path or a command is printed whole) and the screen its height,
        the round's header on top (specs/client.md § Watch): once the game is over,
        what does not fit goes, in this order — the verdict's reason (``jupai
        verify`` gives it), the ``jupai verify`` command (the transcript's path stays),
        then the players table and the outcomes (the header and the ranking stay), then
        the series scoreboard (shown again in the lobby before the next game)."""
        from rich.console import Group
        from rich.text import Text

        from .layout import Packed, height_of, wrap_text
        from .render import render_view
        from .status_words import wait_left
        from .ui import table_notices

        keys = Packed(t("watch.keys", self.lang), style="dim")  # a key never split
        obs = view.observation
        over = not obs or obs.get("result") is not None
        width = self.console.width
        board = [Text(line, style="bold" if line.startswith("━━") else "")
                 for line in (series_lines(view, self.lang, width) if over else [])]
        if not obs:
            return self._lobby_screen(view, board, keys)
        waiting = getattr(view, "waiting", ())  # who a dealer-blind game waits for

        def table(height: int | None) -> Any:
            return render_view(obs, chat=list(view.chat)[-4:], notices=table_notices(view.notices), names=view.names,
                               lang=self.lang, events=list(view.events) or None, width=width,
                               height=height, dealer=getattr(view, "dealer", None), waiting=waiting,
                               table=getattr(view, "table", ""), ends_in=wait_left(view.notices, obs, waiting))

        # once a game's public record is checked: its verdict, transcript and the command
        # to check it again (the path and command whole, to copy), as a player sees them
        if not self.console.is_terminal:
            return Group(table(None), *(ending_texts(view, self.lang, width) if over else []), *board, keys)
        rows = self.console.height - 1  # a row for the cursor
        keys_h = height_of(keys, width)
        if not over:
            return Group(table(max(10, rows - keys_h)), keys)
        verdict = getattr(view, "verdict", None)
        tries = [(True, True, True, True), (True, False, True, True), (True, False, False, True),
                 (False, True, True, True), (False, False, True, True), (False, False, False, True),
                 (False, False, False, False)]
        if verdict is not None and not verdict.ok:  # why it failed before the players table
            tries.insert(1, tries.pop(3))
        endings: dict[tuple[bool, bool], list[Any]] = {}
        for whole, reason, command, scores in tries:
            if (reason, command) not in endings:  # a sentence wraps as the shared rule says (Chinese too)
                endings[(reason, command)] = [line if line.no_wrap else wrap_text(line, width, self.lang) for line in
                                              ending_texts(view, self.lang, width, reason=reason, command=command)]
            below = [*endings[(reason, command)], *(board if scores else [])]
            room = rows - keys_h - sum(rows_of(line, width) for line in below)
            top = table(room) if whole else self._summary(view, width)
            if room > 0 and height_of(top, width) <= room:
                break
        return Group(top, *below, keys)

    def _summary(self, view: Any, width: int) -> Any:
        """The top of an ended game's screen short of rows: the round's header and
        the final ranking (no players table, no outcomes)."""
        from rich.console import Group

        from .layout import COMPACT_WIDTH
        from .screen_parts import render_header, render_result

        obs = view.observation
        compact = width < COMPACT_WIDTH
        names = view.names
        parts = [render_header(obs, names, self.lang, compact=True, numbers=False, tight=compact,
                               dealer=getattr(view, "dealer", None))]
        result = render_result(obs, names, self.lang, compact, counts=not compact)  # narrow: cards left only
        if result is not None:
            parts.append(result)
        return Group(*parts)

    def _lobby_screen(self, view: Any, board: list[Any], keys: Any) -> Any:
        """The lobby (before a game and between games) with the series scoreboard and
        the keys line; on a terminal short of rows the notices go first, then the chat,
        then the scoreboard (the lobby's box, with its title, stays on top)."""
        from rich.console import Group

        from .layout import height_of
        from .render import render_lobby
        from .ui import table_notices

        width = self.console.width
        chat, notices = list(view.chat)[-4:], table_notices(view.notices)

        def lobby(with_notices: bool, with_chat: bool) -> Any:
            return render_lobby(list(view.players), seat=None, phase=view.phase, host=view.host, port=view.port,
                                join_code=view.join_code or "", total=getattr(view.rules, "players", None),
                                chat=chat if with_chat else [], notices=notices if with_notices else [],
                                lang=self.lang, dealer=view.next_dealer, game_dealer=view.dealer,
                                table=getattr(view, "table", ""))

        tries = [(True, True, True), (False, True, True), (False, False, True), (False, False, False)]
        if not self.console.is_terminal:
            tries = tries[:1]
        rows = self.console.height - 1 - height_of(keys, width)  # a row for the cursor
        for with_notices, with_chat, scores in tries:
            screen = Group(lobby(with_notices, with_chat), *(board if scores else []))
            if height_of(screen, width) <= rows:
                break
        return Group(screen, keys)

    def redraw(self) -> None:
        """Clear the terminal and draw the current view once; the clear and the screen
        reach the terminal in one write (specs/client.md § Drawing without flicker)."""
        if self.view is None:
            return
        with self.console:
            self._redraw()

    def _redraw(self) -> None:
        self.console.clear()
        if self._hold is not None:
            from .ui import hold_panel

            self.console.print(hold_panel(self._hold, self.lang))
            return
        self.console.print(self.screen(self.view), crop=False)  # a path or a command is printed whole
        if getattr(self.view, "verdict", None) is not None:
            self.ending_shown = self.view.game_id

    def on_update(self, view: Any) -> None:
        """Remember the view and redraw (not for a bare statement or while connecting;
        not over the help or a page of ``/log``, except at a game's end, which closes
        them: the ending screen is what a spectator must not miss)."""
        self.view = view
        held = self._hold is not None
        self._check_pinned(view)
        if view.change == "end" and (self.reading_help or self.log.is_open):
            # the game ended: the ending (ranking, then its verdict and transcript) replaces
            # the page read meanwhile, which the next game's start would otherwise hide
            self.reading_help = False
            self.log.close()
        if held or view.change == "statement" or (view.phase == "connecting" and self._hold is None) \
                or self.reading_help or self.log.is_open:
            return
        self.redraw()

    def _check_pinned(self, view: Any) -> None:
        """The trust-on-first-use warning (a ``host-pinned`` notice) is shown alone until
        Enter (specs/client.md § Pinning the host), once per note (its text and time);
        it is not a notice of the table."""
        from .render import notice_text

        for notice in view.notices:
            # keyed by the note itself (its text and when it was noted), not by id(): a
            # freed notice's id is soon another object's, and a copy is the same note
            key = (notice.text, notice.at)
            if notice.code == "host-pinned" and key not in self._held:
                self._held.add(key)
                self._hold = notice_text(notice, self.lang)

    async def choose(self, view: Any) -> Any:  # pragma: no cover - a spectator is never prompted
        raise RuntimeError("a spectator is never asked for a move")

    def on_end(self, result: Any) -> None:
        """Nothing: the command reports after the session."""

    def handle_line(self, line: str) -> None:
        """Act on one typed line: ``q`` leaves, ``?`` help, Enter redraws, else a hint."""
        from rich.text import Text

        from .render import render_help
        from .ui import HELP_WORDS, LOG_WORDS

        word = line.strip().lower()
        if self._hold is not None:  # Enter (or any line) after reading the warning: the table
            self._hold = None
            self.warning_read = True
            self.redraw()
            if not word:
                return
        if self.log.is_open:  # Enter: the next page; q (or Enter on the last): the table
            if self.log.turn(line, self.console, self.redraw, self.lang):
                return
        if word in LOG_WORDS and self.view is not None:
            self.reading_help = False
            self.log.open(self.view, self.console.width, self.lang)
            self.log.draw(self.console, self.lang)
        elif word in QUIT:
            if self.control is not None:
                self.control.leave()
        elif word in HELP_WORDS:
            self.reading_help = True
            with self.console:  # one write: the clear and the help together
                self.console.clear()
                height = self.console.height - 2 if self.console.is_terminal else None  # the back line, the prompt
                self.console.print(render_help(self.lang, self.console.width, height, keys="watch.help_keys"))
                self.console.print(Text(t("help.back", self.lang), style="dim"))
        elif not word:
            self.reading_help = False
            self.redraw()
        else:
            self.console.print(Text(t("watch.hint", self.lang), style="bold yellow"))

    async def input_loop(self) -> None:
        """Read typed lines until ``q``; at the end of input keep watching."""
        while True:
            line = await self.reader.readline()
            if line is None:
                if self._hold is not None:  # nobody to press Enter: show the table
                    self._hold = None
                    self.redraw()
                return
            self.handle_line(line)


class PlainWatcher(WatchScreen):
    """``--plain``: one line per public event (the same words as the player's
    ``--plain``: :class:`jupai_net.play.PlainPlayer`), the lobby and each game's start
    and ranking; nothing is redrawn, so the output can go to a file or a pipe."""

    def __init__(self, lang: str, host: str, port: int, out: Any = None):
        import sys

        from jupai_net.play import PlainPlayer

        super().__init__(lang=lang)
        self.lines = PlainPlayer(out or sys.stdout, lang)
        self.host, self.port = host, port
        self._lobby = ""
        self._pages: list[list[str]] = []  # the game log's pages still to print (/log)

    def attach(self, control: Any) -> None:
        super().attach(control)
        self.lines.attach(control)

    def say(self, text: str) -> None:
        """Print one line (wrapped at word boundaries on a terminal)."""
        self.lines._print(text)

    def on_update(self, view: Any) -> None:
        """Print what changed: lobby, start, each event, notices and chat, the ranking."""
        from .end_words import game_end_lines

        self.view = view
        lang = self.lang
        if view.change == "welcome":
            self.say(t("watch.watching", lang, host=self.host, port=self.port))
        elif view.change == "lobby" and view.phase in ("lobby", "over"):
            total = getattr(view.rules, "players", None) or len(view.players)
            line = t("watch.lobby", lang, seats=t("lobby.seats", lang, taken=len(view.players), total=total),
                     players=_players_text(view.players, lang))
            if line != self._lobby:
                self._lobby = line
                self.say(line)
        elif view.change == "start" and not view.observation:
            self.lines.on_update(view)  # what the lobby said of this game's scheme makes way
            self.say(t("watch.start", lang, players=_players_text(view.players, lang)))
        elif view.change == "end":
            self.lines.on_update(view)
            result = view.result or {}
            ending = _Ending(result, view.names, view, "finished" if result.get("ranking") else "aborted",
                             ("abandoned", str(result.get("reason") or "")))
            for text, _, _ in game_end_lines(ending, lang):  # the verdict comes once checked (change "verdict")
                self.say(text)
            for text in series_lines(view, lang, 80):  # the series so far (it came right before the end)
                self.say(text)
        elif view.change == "verdict":  # the game's public record checked: as a player sees it
            from jupai_net.play import wrap_width

            for text in ending_texts(view, lang, self.lines.width or wrap_width(self.lines.out)):
                if text.no_wrap:  # a path or a command: whole, to copy (cut as a shell continuation)
                    print(text.plain, file=self.lines.out, flush=True)
                else:
                    self.say(text.plain)
            self.ending_shown = view.game_id
        elif view.change == "error":
            pass  # the session ends: the report says why, once, starting "jupai watch:"
        else:
            self.lines.on_update(view)

    def handle_line(self, line: str) -> None:
        """``q`` leaves, ``/log`` prints the game so far as a player's ``--plain``
        does (in pages of the terminal's height: Enter the next page, q stops), any
        other word gets the hint."""
        from .ui import LOG_WORDS

        word = line.strip().lower()
        if self._pages:  # the game log being paged: Enter the next page; q or any line stops it
            if not word:
                self._next_page()
                return
            self._pages = []
            if word == "q":
                return
        if word in LOG_WORDS and self.view is not None:
            self._pages = self.lines.log_pages(self.view)
            self._next_page()
        elif word in QUIT:
            if self.control is not None:
                self.control.leave()
        elif word:
            self.say(t("watch.hint", self.lang))

    def _next_page(self) -> None:
        for text in self._pages.pop(0):
            self.say(text)
        if self._pages:
            self.say(t("gamelog.keys_plain", self.lang))


class _Ending(NamedTuple):
    """What :func:`.end_words.game_end_lines` reads, for a game a spectator saw end."""

    result: dict[str, Any]
    names: Any
    view: Any
    status: str = "finished"
    error: tuple[str, str] | None = None
    seat: None = None
    verdict: Any = None
    transcript_path: Any = None

    @property
    def ranking(self) -> list[int]:
        return list(self.result.get("ranking") or [])
