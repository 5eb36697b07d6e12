"""The interactive terminal player (specs/client.md § Keys).

:class:`TerminalPlayer` implements the session's ``Player`` protocol
(:mod:`jupai_net.client.session`): ``on_update(view)`` redraws the table (clear +
one full render, not a flood of output) and ``await choose(view)`` waits for the
person to type the number of a legal action. Lines typed at any time are read by
:meth:`TerminalPlayer.input_loop` (run it in the session's nursery): ``/chat TEXT`` or
``say TEXT`` sends chat, ``?``/``help`` shows help, ``/quit`` leaves, a number picks
an action while a prompt is open; anything else gets a clear message.

Standard input is read without blocking the trio loop (:class:`LineReader`: trio's
``wait_readable`` on the fd, then ``os.read``), so a read is cancelled cleanly when
the turn timer fires or the game ends. :func:`parse_input` is the pure part.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from jupai_net.actions import Action
from jupai_net.printable import literal_console

from .i18n import t
from .render import (
    COMPACT_WIDTH,
    chat_line_text,
    describe_action,
    game_end_lines,
    height_of,
    notice_text,
    render_actions,
    render_help,
    render_lobby,
    render_view,
    timer_text,
)
from .screen_log import LogPager
from .session import PlayerBase, SessionControl
from .status_words import wait_left

HELP_WORDS = {"?", "？", "help", "/help", "h", "帮助"}
LOG_WORDS = {"/log", "log", "/日志", "日志"}
QUIT_WORDS = {"/quit", "/exit", "quit", "exit", "/q", "退出"}
CHAT_PREFIXES = ("/chat ", "say ", "/say ", "说 ")


@dataclass(frozen=True, slots=True)
class Command:
    """One parsed input line. ``kind``: ``choose`` (``index`` 0-based), ``chat``
    (``text``), ``help``, ``log`` (the whole game so far), ``quit``, ``empty`` or ``error`` (``key`` + ``args`` of the
    message to show, from :mod:`.i18n`)."""

    kind: str
    index: int | None = None
    text: str | None = None
    key: str | None = None
    args: dict[str, Any] = field(default_factory=dict)


def parse_input(line: str, n_legal: int) -> Command:
    """Parse a typed line, ``n_legal`` being the number of legal actions offered now
    (0 when no prompt is open). Numbers are 1-based (full-width digits work too)."""
    s = line.strip()
    if not s:
        return Command("empty")
    low = s.lower()
    if low in HELP_WORDS:
        return Command("help")
    if low in QUIT_WORDS:
        return Command("quit")
    if low in LOG_WORDS:
        return Command("log")
    if low in ("/chat", "say", "/say", "说"):
        return Command("error", key="input.empty_chat")
    for prefix in CHAT_PREFIXES:
        if low.startswith(prefix):
            text = s[len(prefix):].strip()
            return Command("chat", text=text) if text else Command("error", key="input.empty_chat")
    if s.isdecimal():
        if n_legal <= 0:
            return Command("error", key="input.not_your_turn")
        k = int(s)
        if 1 <= k <= n_legal:
            return Command("choose", index=k - 1)
        key = "input.out_of_range.one" if n_legal == 1 else "input.out_of_range"
        return Command("error", key=key, args={"k": k, "n": n_legal})
    if n_legal <= 0:
        return Command("error", key="input.not_your_turn")
    key = "input.not_number.one" if n_legal == 1 else "input.not_number"
    return Command("error", key=key, args={"text": s[:40], "n": n_legal})


class LineReader:
    """Reads lines from a file descriptor inside trio without blocking the loop.

    Waits with ``trio.lowlevel.wait_readable`` (cancellable at any time; nothing
    typed is lost, partial input stays buffered) and reads with ``os.read``. A
    descriptor that cannot be polled (a regular file) is read in a worker thread; one
    that cannot be read at all (a terminal that went away) is the end of input.
    :attr:`hung_up`: the input ended because its terminal went away (its window closed:
    the terminal answers no more), not because the person closed it (Ctrl-D).
    """

    def __init__(self, fd: int = 0):
        self.fd = fd
        self._buf = bytearray()
        self._eof = False
        self._tty = _is_tty(fd)
        self.hung_up = False

    async def readline(self) -> str | None:
        """The next line without its newline, or None at end of input."""
        while b"\n" not in self._buf and not self._eof:
            try:
                await trio.lowlevel.wait_readable(self.fd)
                data = os.read(self.fd, 4096)
            except BlockingIOError:
                continue
            except OSError:  # not pollable (e.g. a regular file): read in a thread
                try:
                    data = await trio.to_thread.run_sync(os.read, self.fd, 4096)
                except OSError:  # not readable at all (a terminal that went away: EIO): the end of input
                    data = b""
            if not data:
                self._eof = True
                # a terminal hung up (its window closed) reads as the end of input too, but
                # it is no longer a terminal at all (tcgetattr fails with EIO)
                self.hung_up = self._tty and not _is_tty(self.fd)
            self._buf += data
        if not self._buf:
            return None
        line, _, rest = bytes(self._buf).partition(b"\n")
        self._buf = bytearray(rest)
        return line.decode("utf-8", "replace").rstrip("\r")


def _is_tty(fd: int) -> bool:
    """``os.isatty(fd)``, False for a descriptor that is not open."""
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _get(view: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        value = getattr(view, name, None)
        if value is not None:
            return value
    return default


#: Seconds before the turn deadline when a one-line warning is printed (on output
#: that is not a terminal, where the timer cannot tick in place).
WARN_SECONDS = 10

#: View changes that do not alter what is on screen (no redraw).
QUIET_CHANGES = frozenset({"statement"})

#: Save the cursor, go to the start of the line / restore the cursor (DEC, VT100).
SAVE_CURSOR, RESTORE_CURSOR = "\x1b7", "\x1b8"


class TerminalPlayer(PlayerBase):
    """A person at this terminal, as a session ``Player``.

    ``lang``: ``"en"``/``"zh"``. ``console``: where to draw (default: stdout).
    ``reader``: a :class:`LineReader` (default: stdin). ``send_chat``: coroutine
    function sending one chat line; by default the session's
    :class:`~jupai_net.client.session.SessionControl` given to :meth:`attach`.
    ``/quit`` (or end of input) sets :attr:`quit_requested` and asks the session to leave.

    While a prompt with a turn timer is open the prompt line shows the seconds left
    and ticks once a second, rewritten in place (the cursor and anything typed so far
    stay where they are); ``live_timer`` (default: when the console is a terminal)
    turns that on. Without it one warning line is printed at :data:`WARN_SECONDS`.
    The screen is laid out for the console's width and, on a terminal, its height.
    """

    def __init__(self, *, lang: str = "en", console: Console | None = None, reader: LineReader | None = None,
                 send_chat: Callable[[str], Awaitable[Any]] | None = None, clear: bool = True,
                 live_timer: bool | None = None):
        self.lang = lang
        self.console = console or literal_console()
        self.reader = reader or LineReader(sys.stdin.fileno())
        self.send_chat = send_chat
        self.clear = clear
        self.live_timer = self.console.is_terminal if live_timer is None else live_timer
        self.view: Any = None
        self.quit_requested = trio.Event()
        self.messages: list[str] = []  # one-shot lines under the table (help, errors)
        self._legal: Sequence[Action] = ()
        self._deadline: float | None = None
        self._timer_width = 0
        self._choice: trio.MemorySendChannel[int] | None = None
        self._prompt_owner: trio.MemorySendChannel[int] | None = None  # the choose() call that drew the prompt
        self._lines_send, self._lines_recv = trio.open_memory_channel[str | None](64)
        self._connected = trio.Event()  # set by the first view past "connecting"
        self._next: trio.MemorySendChannel[bool] | None = None  # open while asking "next game?"
        self.ending_shown: bytes | None = None  # game id whose ending (and scoreboard) was printed
        self.again_key = "series.next"  # the question between games (`jupai play`: "series.play_again")
        self.log = LogPager()  # the game log being paged (/log)
        self._help_open = False  # the help is shown (until a line is typed)
        self._hold: str | None = None  # a warning shown alone until Enter (first-use pinning)
        self._held: set[str] = set()  # the warnings already held once
        self.warning_read = False  # the person pressed Enter under the first-use warning
        self._confirm_quit = False  # asked "Leave? [y/N]": leaving would end a dealer-blind game for everyone
        #: called instead of leaving when the input ended because the terminal went away
        #: (``LineReader.hung_up``): ``jupai join`` keeps the seat as after SIGHUP
        self.on_hangup: Callable[[], None] | None = None
        self.moves_page = 0  # the page of the moves shown when they do not all fit (Enter turns it)

    # ------------------------------------------------------------------ drawing
    def _seconds_left(self, view: Any) -> float | None:
        deadline = _get(view, "deadline")
        if deadline is not None:
            try:
                return max(0.0, deadline - trio.current_time())
            except RuntimeError:  # outside trio (tests)
                return None
        timeout = _get(view, "timeout")
        return None if timeout is None else float(timeout)

    def attach(self, control: SessionControl) -> None:
        """Keep the session control: chat lines go through ``control.say`` unless a
        ``send_chat`` was given, and ``/quit`` calls ``control.leave``."""
        self.control = control
        if self.send_chat is None:
            async def send_chat(text: str) -> None:
                try:
                    control.say(text)
                except (ValueError, trio.WouldBlock) as exc:
                    self.say(str(exc), "bold yellow")

            self.send_chat = send_chat

    def screen(self, view: Any, legal: Sequence[Action] = ()) -> Any:
        """The renderable for ``view`` (with ``legal`` numbered if a prompt is open),
        laid out for the console's width (and height on a terminal, one line kept for
        the prompt); the lobby screen until the first observation arrives."""
        obs = _get(view, "observation", "obs")
        if not obs:
            rules = _get(view, "rules")
            return render_lobby(list(_get(view, "players", default=()) or ()), seat=_get(view, "seat"),
                                phase=_get(view, "phase", default="lobby"), host=_get(view, "host", default=""),
                                port=_get(view, "port", default=0), join_code=_get(view, "join_code", default=""),
                                total=getattr(rules, "players", None),
                                chat=list(_get(view, "chat", default=()) or ())[-4:],
                                notices=table_notices(_get(view, "notices", default=())), lang=self.lang,
                                dealer=_get(view, "next_dealer"), game_dealer=_get(view, "dealer"),
                                table=_get(view, "table", default=""))
        height = max(10, self.console.height - 1) if self.console.is_terminal else None
        if height is not None and self._asking_quit():  # the question's lines under the table
            height = max(10, height - height_of(self._quit_question(), self.console.width))
        # the game's last screen shows only the ending (no notice of the game under way)
        over = _get(view, "phase") == "over"
        return render_view(obs, legal=legal, chat=list(_get(view, "chat", default=()) or ())[-4:],
                           notices=table_notices(_get(view, "notices", default=()), ending=over),
                           seconds_left=self._seconds_left(view) if legal and not self._deadline else None,
                           names=_get(view, "names"), lang=self.lang,
                           events=list(_get(view, "events", default=()) or ()) or None,
                           width=self.console.width, height=height, dealer=_get(view, "dealer"),
                           table=_get(view, "table", default=""),
                           waiting=_get(view, "waiting", default=()) or (),
                           ends_in=wait_left(_get(view, "notices", default=()) or (), obs,
                                             _get(view, "waiting", default=()) or ()),
                           moves_page=self.moves_page)

    def _timer_prompt(self) -> Text:
        """The prompt: ``⏱ 42 s left > `` while a timed prompt is open, else ``> ``;
        while "Leave? [y/N]" waits for its answer the question stands for ``> ``
        (``⏱ 27 s left Leave? [y/N] ``), so the timer's ticks rewrite it, not erase it."""
        prompt = Text(t("input.prompt", self.lang), style="bold")
        if self._confirm_quit:  # asked "Leave? [y/N]": the question is the prompt until answered
            prompt = Text(t("quit.ask_keys", self.lang), style="bold")
        if not self._legal or self._deadline is None:
            return prompt
        paused = _get(self.view, "stalled_left") if self.view is not None else None
        try:
            # while the connection is stalled the timer stands still (the session says why)
            left = paused if paused is not None else max(0.0, self._deadline - trio.current_time())
        except RuntimeError:  # outside trio
            return prompt
        secs = math.ceil(left)
        self._timer_width = max(self._timer_width, len(str(secs)))
        timer = Text(t("timer.left", self.lang, s=f"{secs:>{self._timer_width}}"),
                     style="bold red" if secs < WARN_SECONDS else "bold")
        return Text.assemble(timer, " ", prompt)

    def print_prompt(self) -> None:
        """Print the prompt (with the seconds left) at the start of the current line."""
        self.console.print(self._timer_prompt(), end="")

    def _tick_prompt(self) -> None:
        """Rewrite the prompt line's timer in place: save the cursor, draw the prompt
        at the line's start (same width), restore the cursor — what the person typed
        stays on screen and the cursor where it was (not while the log is paged)."""
        if self.log.is_open:
            return
        with self.console.capture() as capture:
            self.console.print(self._timer_prompt(), end="")
        self.console.file.write(SAVE_CURSOR + "\r" + capture.get() + RESTORE_CURSOR)
        self.console.file.flush()

    def redraw(self) -> None:
        """Clear the terminal and draw the current view once, then pending messages
        (while the game log is paged, the page stays: the table comes back with q).
        The clear and the screen reach the terminal in one write (rich's console
        buffer), so the screen never shows blank while it is built
        (specs/client.md § Drawing without flicker)."""
        if self.view is None:
            return
        with self.console:
            self._redraw()

    def _redraw(self) -> None:
        if self._hold is not None:
            self._draw_hold()
            return
        if self.log.is_open:
            self._draw_log_page()
            return
        if self._help_open:
            self._draw_help()
            return
        if self.clear:
            self.console.clear()
        self.console.print(self.screen(self.view, self._legal))
        for line in self.messages:
            self.console.print(line)
        self.messages.clear()
        if self._asking_quit():  # the question stays on screen until answered, under every redraw
            self.console.print(self._quit_question())
            self.print_prompt()
        elif self._legal:
            self.print_prompt()

    def _asking_quit(self) -> bool:
        """True while "Leave? [y/N]" waits for its answer and the game it is about runs."""
        return self._confirm_quit and self.leaving_ends_the_game()

    def _quit_question(self) -> Any:
        """Why "Leave? [y/N]" is asked (leaving ends a dealer-blind game for everyone),
        wrapped for the console (Chinese between characters, no stop alone on a line)."""
        from .layout import Wrapped

        return Wrapped(t("quit.blind_ask", self.lang), style="bold yellow")

    def show_help(self) -> None:
        """The help (``?``), fitted to the terminal (its title and keys line always on
        screen), then — when there is room — the numbered moves again under it, and
        ``Enter: back to the table``. It stays while the others move; Enter (or any
        line) goes back to the table."""
        self._help_open = True
        self._draw_help()

    def _draw_help(self) -> None:
        with self.console:  # one write: the clear and the help together
            self._draw_help_now()

    def _draw_help_now(self) -> None:
        if self.clear:
            self.console.clear()
        height = max(6, self.console.height - 1) if self.console.is_terminal else None
        back = Text(t("help.back", self.lang), style="dim")
        room = None if height is None else height - height_of(back, self.console.width)
        box = render_help(self.lang, self.console.width, room)
        self.console.print(box)
        obs = _get(self.view, "observation", "obs") if self.view is not None else None
        if self._legal and obs:
            compact = self.console.width < COMPACT_WIDTH
            moves = render_actions(self._legal, obs, _get(self.view, "names"), self.lang,
                                   "tight" if compact else None, compact)
            if room is None or height_of(box, self.console.width) + height_of(moves, self.console.width) <= room:
                self.console.print(moves)
        self.console.print(back)
        if self._legal:
            self.print_prompt()

    def hold(self, text: str) -> None:
        """Keep ``text`` (the trust-on-first-use warning) on screen, alone, until the
        player presses Enter: updates from the host (the lobby, the deal, a prompt)
        do not replace it (specs/client.md § Pinning the host)."""
        self._hold = text
        self.redraw()

    def _draw_hold(self) -> None:
        with self.console:  # one write: the clear and the panel together
            if self.clear:
                self.console.clear()
            self.console.print(hold_panel(self._hold or "", self.lang, your_turn=bool(self._legal)))
            if self._legal:
                self.print_prompt()

    def show_log(self) -> None:
        """Page 1 of the whole game so far (``/log``): every event in words with its
        formulas, oldest first, in pages of the terminal's height; Enter shows the
        next page, q (or Enter on the last page) goes back to the table."""
        self.log.open(self.view, self.console.width, self.lang)
        self._draw_log_page()

    def _draw_log_page(self) -> None:
        self.log.draw(self.console, self.lang, your_turn=bool(self._legal), clear=self.clear)

    def _log_key(self, line: str) -> bool:
        """Handle ``line`` while the log is paged: Enter → next page (or back to the
        table after the last), q → back to the table. Returns False (and closes the
        log) for any other line, to be handled as usual."""
        return self.log.turn(line, self.console, self.redraw, self.lang, bool(self._legal), self.clear)

    def say(self, text: str | Any, style: str = "") -> None:
        """Print one line under the table (not a redraw)."""
        self.console.print(text if not isinstance(text, str) else Text(text, style=style))

    # ----------------------------------------------------------------- protocol
    def on_update(self, view: Any) -> None:
        """Called by the session on every update: remember the view and redraw (except
        for changes that show nothing new, see :data:`QUIET_CHANGES`)."""
        self.view = view
        for notice in _get(view, "notices", default=()) or ():
            if getattr(notice, "code", None) == "host-pinned" and notice.text not in self._held:
                self._held.add(notice.text)  # trusted on first use: shown alone until Enter,
                self._hold = notice_text(notice, self.lang)
                if self.control is not None:  # and the seat is not ready (no game, no timer) until then
                    self.control.hold_ready()
        if _get(view, "phase") != "connecting":
            self._connected.set()
        if self._hold is not None and _get(view, "phase") == "connecting":
            self.redraw()
            return
        if _get(view, "change", default="") in QUIET_CHANGES or _get(view, "phase") == "connecting":
            return  # nothing new to see (the command line reports connection failures)
        if _get(view, "change") == "end" and (self.log.is_open or self._help_open):
            # the game ended: its final screen (the ranking) replaces the page read
            # meanwhile, as on a spectator's screen; the page would stay into the next game
            self.log.close()
            self._help_open = False
        if self._next is not None:  # asking about the next game: keep the ending on screen
            if _get(view, "change") == "chat" and _get(view, "chat"):
                self.console.print()
                self.say(chat_line_text(view.chat[-1], self.lang, _get(view, "seat")), "magenta")
                self.console.print(Text(t(self.again_key, self.lang), style="bold"), end="")
            return
        self.redraw()

    async def choose(self, view: Any) -> Action:
        """Called on each prompt: draw the numbered legal actions and wait for a valid
        number. The session cancels this call when the prompt is withdrawn (turn timer,
        new state); at the view's deadline the prompt is closed here too (a number
        typed afterwards is not a move) and the call waits for that cancellation. The
        timer on the prompt line ticks until then (and stops with the prompt)."""
        legal = list(_get(view, "legal", "legal_actions", default=()) or ())
        deadline = _get(view, "deadline")
        self.view = view
        self._legal = legal
        self._deadline = deadline
        self._timer_width = 0
        self.moves_page = 0  # a new prompt starts at the first page of its moves
        send, recv = trio.open_memory_channel[int](1)
        self._choice = send
        # the session may start the next prompt's call before this one has seen its
        # cancellation: only the newest call owns (and clears) the prompt's state
        self._prompt_owner = send
        self.redraw()
        index: int | None = None
        try:
            async with trio.open_nursery() as nursery:
                if deadline is not None:
                    if self.live_timer:
                        nursery.start_soon(self._tick, deadline)
                    elif deadline - trio.current_time() > WARN_SECONDS + 1:
                        nursery.start_soon(self._warn_at, deadline - WARN_SECONDS)
                with trio.move_on_at(deadline if deadline is not None else math.inf):
                    async with recv:
                        index = await recv.receive()
                nursery.cancel_scope.cancel()
        finally:
            if self._prompt_owner is send:
                self._prompt_owner = None
                self._choice = None
                self._legal = ()
                self._deadline = None
        if index is None:  # the deadline passed: the host plays the default move
            self.console.print()
            self.say(t("input.timeout", self.lang), "bold red")
            if self._asking_quit():  # the question still waits for its answer
                self.print_prompt()
            await trio.sleep_forever()
        action = legal[index]
        self.say(t("input.chose", self.lang, k=index + 1,
                   what=describe_action(action, _get(view, "observation", default={}) or {}, _get(view, "names"),
                                        self.lang)), "green")
        return action

    async def _tick(self, deadline: float) -> None:
        """Redraw the prompt's timer each time the whole seconds left change, until
        ``deadline`` (trio clock seconds) or until another prompt replaces this one."""
        while True:
            left = deadline - trio.current_time()
            if left <= 0:
                return
            # wake when the seconds shown (rounded up) drop by one
            await trio.sleep_until(deadline - (math.ceil(left) - 1))
            if self._legal and self._deadline == deadline and deadline > trio.current_time():
                self._tick_prompt()

    async def _warn_at(self, when: float) -> None:
        """One line (not a redraw) when the turn timer gets short."""
        await trio.sleep_until(when)
        warning = timer_text(WARN_SECONDS, self.lang)
        if warning is not None:
            self.console.print()
            self.console.print(warning)
            self.print_prompt()

    async def next_game(self, result: Any) -> bool:
        """Between games (specs/client.md § Staying at the table): print the ending
        (verdict and transcript path; the final screen shows the ranking) and the series
        scoreboard, then ask ``Ready for the next game? [Enter] / q to leave``. Enter
        (any line but a refusal, :func:`next_game_refused`): True (the session sends
        ``ready``); ``q``, ``/quit`` or the end of input: False. Chat and help work."""
        print_game_end(self.console, result, self.lang, ranking=False)
        self.ending_shown = getattr(result, "game_id", None)
        send, recv = trio.open_memory_channel[bool](1)
        self._next = send
        self.console.print(Text(t(self.again_key, self.lang), style="bold"), end="")
        go: bool | None = None
        try:
            async with recv:
                go = await recv.receive()
        finally:
            self._next = None
            if go is None:  # the session ended while asking (the host closed the table)
                self.console.print()
        if go:
            self.say(t("series.waiting", self.lang), "dim")
        return go

    def _answer_next(self, line: str) -> bool:
        """A line typed while asking about the next game: Enter → go, q → leave, chat as
        usual; anything else repeats the question. True when it was handled here."""
        if self._next is None:
            return False
        cmd = parse_input(line, 0)
        if cmd.kind == "chat":
            return False  # said at the table as usual; the question stays
        if cmd.kind == "help":
            self.show_help()
            self._help_open = False  # printed once above the question, which stays
            self.console.print(Text(t(self.again_key, self.lang), style="bold"), end="")
            return True
        send, self._next = self._next, None
        send.send_nowait(not next_game_refused(line))
        return True

    # -------------------------------------------------------------------- input
    def leaving_ends_the_game(self) -> bool:
        """True when leaving now ends the running game for the other people at the table:
        it deals dealer-blind (nobody else can play this seat's cards or send its keys, so
        the host abandons it, specs/host.md § 5) and another seat is a person's (a table
        of the host's bots, as in ``jupai play``, loses nobody's game)."""
        view = self.view
        if view is None or _get(view, "phase") not in ("seeding", "playing") or _get(view, "dealer") != "blind":
            return False
        me = _get(view, "seat")
        return any(not getattr(p, "bot", False) and getattr(p, "seat", me) != me
                   for p in _get(view, "players", default=()) or ())

    def _answer_quit(self, line: str) -> None:
        """The answer to "Leave? [y/N]": ``y``/``yes``/``是`` (or ``/quit`` again) leaves,
        anything else — Enter included — stays at the table."""
        self._confirm_quit = False
        s = line.strip().lower()
        if s in QUIT_YES or s in QUIT_WORDS:
            self.say(t("quit.blind_left", self.lang), "bold yellow")
            self.leave()
            return
        self.say(t("quit.stay", self.lang), "dim")
        if self._legal:
            self.print_prompt()

    async def handle_line(self, line: str) -> None:
        """Act on one typed line (see :func:`parse_input`)."""
        if self._confirm_quit:
            if self.leaving_ends_the_game():
                self._answer_quit(line)
                return
            self._confirm_quit = False  # the game ended meanwhile: nobody loses a game by leaving now
            if parse_input(line, 0).kind not in ("chat", "help", "log"):  # but the line answers "Leave? [y/N]"
                s = line.strip().lower()
                if s not in QUIT_YES and s not in QUIT_WORDS:  # no (Enter, n…): not "n" to "next game?" (leave)
                    self.say(t("quit.stay", self.lang), "dim")
                    return
                line = "/quit"  # yes: leave, not "y" to "next game?" (play on)
        if self._hold is not None:  # Enter (or any line) after reading the warning: the table
            self._hold = None
            self.warning_read = True
            if self.control is not None:
                self.control.release_ready()  # the seat is ready now: the game may start
            self.redraw()
            if not line.strip():
                return
        if self._answer_next(line):
            return
        if self._help_open:
            self._help_open = False
            if not line.strip() or parse_input(line, 0).kind == "help":
                self.redraw()
                return
        if self.log.is_open and self._log_key(line):
            return
        cmd = parse_input(line, len(self._legal) if self._choice is not None else 0)
        if cmd.kind == "log":
            self.show_log()
            return
        if cmd.kind == "empty":
            if self._legal:
                self.moves_page += 1  # the moves' next page, when they are in pages (else the same screen)
                self.redraw()
            return
        if cmd.kind == "help":
            self.show_help()
            return
        elif cmd.kind == "quit":
            if self.leaving_ends_the_game():  # ask first: the others lose the game too
                self._ask_quit()
                return
            self._say_trusted_left()  # what becomes of the seat
            self.leave()
        elif cmd.kind == "chat":
            if self.send_chat is not None:
                await self.send_chat(cmd.text or "")
                self.say(t("input.chat_sent", self.lang), "dim")
        elif cmd.kind == "choose" and self._choice is not None:
            choice, self._choice = self._choice, None  # a second number typed quickly is not a second choice
            choice.send_nowait(cmd.index)  # type: ignore[arg-type]
            return
        elif cmd.kind == "error":
            self.say(t(cmd.key or "input.not_number", self.lang, **cmd.args), "bold yellow")
        if self._legal:
            self.print_prompt()

    def interrupt(self) -> bool:
        """Ctrl-C (specs/client.md § Keys): True when it asked "Leave? [y/N]" instead of
        leaving — mid-game at a dealer-blind table with another person, as ``/quit``
        does; a second Ctrl-C while asked is yes (the caller leaves: False, after
        ``Leaving the table: the host ends this game for everyone.``). Elsewhere False at
        once; the caller then leaves the table."""
        if self._asking_quit():  # the second Ctrl-C: yes
            self._confirm_quit = False
            self.console.print()
            self.say(t("quit.blind_left", self.lang), "bold yellow")
            return False
        if self.leaving_ends_the_game():
            self._ask_quit()
            return True
        return False  # the ending says what becomes of the seat (and how to take it back)

    def _ask_quit(self) -> None:
        """Ask "Leave? [y/N]" under the table (the reason, then the question as the prompt)."""
        self._confirm_quit = True
        self.console.print()
        self.console.print(self._quit_question())
        self.print_prompt()  # the question, with the turn's seconds when it is the seat's turn

    def _say_trusted_left(self) -> None:
        """Leaving mid-game at a trusted table: say what becomes of the seat (a bot plays
        it while the person is away; the ending names the command that takes it back)."""
        if _get(self.view, "phase") in ("seeding", "playing") and _get(self.view, "dealer") != "blind":
            self.say(t("quit.trusted_left", self.lang), "bold yellow")

    def leave(self) -> None:
        """Leave the table: set :attr:`quit_requested` and tell the session."""
        self.quit_requested.set()
        if self.control is not None:
            self.control.leave()

    async def input_loop(self) -> None:
        """Read and handle lines until end of input or ``/quit`` (then
        :attr:`quit_requested` is set). Run it in a nursery next to the session.

        At the end of input (stdin not a terminal, e.g. ``< /dev/null``) the table is
        left only once the session has connected: a connection error is the first and
        only thing said when there is no table to leave."""
        while True:
            line = await self.reader.readline()
            if line is None and self._next is not None:
                self._next.send_nowait(False)  # end of input while asking: leave the table
                self._next = None
            if line is None and self.on_hangup is not None and getattr(self.reader, "hung_up", False):
                self.on_hangup()  # the window closed (no decision): as SIGHUP, not as Ctrl-D
                return
            if line is None:
                await self._connected.wait()
                self.say(t("input.eof", self.lang), "bold yellow")
                self.leave()
                return
            await self.handle_line(line)
            if self.quit_requested.is_set():
                return


#: The notices the game's last screen keeps: the ending's own news (the fairness
#: verdict's warnings, a dispute over the scoreboard, a transcript that could not be
#: saved). Everything else was about the game under way (a welcome back, a turn's
#: seconds, a time-out, the scheme said at the start: the verdict names it).
ENDING_NOTICES = frozenset({"fairness", "blind-seat", "series-mismatch", "transcript"})


def table_notices(notices: Sequence[Any] | None, keep: int = 3, *, ending: bool = False) -> list[Any]:
    """The newest ``keep`` notices for the table screen, without the trust-on-first-use
    warning (``host-pinned``: it was shown alone until Enter, :func:`hold_panel`), a
    line per subject: a newer notice of someone's presence in a seat (back, a bot
    plays for them) or of this client's connection replaces the older one in its slot
    (:func:`.notice_keep.shown`), so a lost connection is not shown as if still lost.
    ``ending``: the game's last screen, which shows only the ending (specs/client.md §
    The end of a game): of the notices only :data:`ENDING_NOTICES`."""
    from .notice_keep import shown

    if ending:
        return shown([n for n in notices or () if getattr(n, "code", None) in ENDING_NOTICES], keep)
    return shown([n for n in notices or () if getattr(n, "code", None) != "host-pinned"], keep)


def hold_panel(text: str, lang: str, your_turn: bool = False) -> Any:
    """The trust-on-first-use warning ``text`` shown alone (a yellow panel titled
    ``Check the host's join code``) with ``Press Enter to go on to the table`` under it
    (``your_turn``: ``Your turn ·`` first) — for a player and a spectator alike
    (specs/client.md § Pinning the host)."""
    from rich.console import Group

    line = Text(t("hold.enter", lang), style="bold")
    if your_turn:
        line = Text.assemble((t("status.your_turn", lang), "bold reverse"), " · ", line)
    return Group(Panel(Text(text, style="bold yellow"), title=t("hold.title", lang), title_align="left",
                       border_style="bold yellow"), line)


#: Answers to "Leave? [y/N]" (leaving ends a dealer-blind game for everyone) that leave.
QUIT_YES = {"y", "yes", "是", "是的", "好"}

#: Answers to "ready for the next game?" that leave the table (besides QUIT_WORDS).
LEAVE_WORDS = {"q", "n", "no", "否", "不"}


def next_game_refused(line: str) -> bool:
    """True when ``line``, typed at "ready for the next game? [Enter] / q to leave",
    leaves the table (``q``, ``n``, ``no``, ``/quit`` …); any other line — Enter, a
    stray move number — means ready."""
    s = line.strip().lower()
    return s in LEAVE_WORDS or s in QUIT_WORDS


def print_game_end(console: Console, result: Any, lang: str = "en", ranking: bool = True) -> None:
    """Print how a game ended — final ranking (or why it did not finish), fairness
    verdict, transcript path and the ``jupai verify`` command — the same way for
    ``jupai play`` and ``jupai join`` (:func:`~jupai_net.client.render.game_end_lines`).
    The path and the command are printed whole on their own lines (never wrapped or
    cut at the terminal's width) so they can be copied. Only the ending: a welcome
    back after a rejoin was said when the seat came back, not here. Then the series
    scoreboard; a seat that left a game of a series in its middle (no scoreboard came
    with it) gets the last one its session received, titled final (the series so far)."""
    from .layout import Wrapped

    for text, style, whole in game_end_lines(result, lang, ranking, width=console.width):
        if whole:
            console.print(Text(text, style=style), soft_wrap=True, overflow="ignore", crop=False)
        else:  # a Chinese sentence wraps where the line is full, not at its ASCII spaces
            console.print(Wrapped(text, style=style))
    print_scoreboard(console, result, lang)
    if getattr(result, "series", None) is None and getattr(result, "status", None) == "left":
        # left in the middle of a game of a series: no scoreboard came with it; the
        # series so far (the last scoreboard this session got), final for this player
        # (specs/client.md § Staying at the table)
        earlier = [g for g in getattr(result, "games", ()) or () if getattr(g, "series", None) is not None]
        if earlier:
            print_scoreboard(console, earlier[-1], lang, final=True)


def series_game_no(result: Any) -> int:
    """The table's number of the last game ``result`` saw (its series' game number, as the
    host's ``series`` message gives it: a seat that rejoined in the middle of a series
    counts the table's games, not only the ones its own session played), or, without a
    ``series`` message, the games this session played (at least 1). specs/client.md
    § Staying at the table."""
    series = getattr(result, "series", None)
    game = getattr(series, "game", None)
    if isinstance(game, int) and game > 0:
        return game
    return max(1, len(getattr(result, "games", ()) or ()))


def print_left_between(console: Console, result: Any, lang: str = "en", *, sentence: bool = True) -> None:
    """The player left between games (the ending and the scoreboard after the last game
    are on screen): the series' final scoreboard so far — final for this player, the same
    as every leaving player sees it, whenever the series had more than one game, rejoined
    or not — then (``sentence``) ``You left the table after game N.`` with the table's game
    number (:func:`series_game_no`). specs/client.md § Staying at the table."""
    game = series_game_no(result)
    if game > 1:  # after one game the scoreboard on screen says it all already
        print_scoreboard(console, result, lang, final=True)
    if sentence:
        console.print(Text(t("series.left", lang, game=game), style="bold"))


def print_scoreboard(console: Console, result: Any, lang: str = "en", *, final: bool | None = None) -> None:
    """Print the series scoreboard of ``result`` (``result.series``, the host's
    ``series`` message; nothing without one) for the console's width, this seat
    marked as you (:func:`~jupai_net.client.scoreboard.scoreboard_lines`). ``final``:
    title it as the end of the series (default: as the host said)."""
    from .scoreboard import scoreboard_lines

    series = getattr(result, "series", None)
    if series is None:
        return
    names = getattr(result, "names", None) or {}
    me = names.get(getattr(result, "seat", None))
    for line in scoreboard_lines(series.standings, game=series.game, games=series.games,
                                 final=series.final if final is None else final, lang=lang, me=me,
                                 width=console.width, abandoned=getattr(series, "abandoned", 0)):
        console.print(Text(line, style="bold" if line.startswith("━━") else ""))


__all__ = ["Command", "LineReader", "TerminalPlayer", "parse_input", "print_game_end", "print_left_between",
           "print_scoreboard", "series_game_no"]
