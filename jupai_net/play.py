"""``jupai play``: one command for one person — a host on 127.0.0.1 with bots in the
other seats, and this terminal as a player (specs/host.md § jupai play).

Everything goes through the real stack: a :class:`~jupai_net.host.server.HostServer`
on a free loopback port (TLS, commit–reveal, signed statements), and
:func:`~jupai_net.client.session.run_session` for this terminal's seat, so the game
ends with the same fairness verdict and transcript as a LAN game. The interactive
player is :class:`jupai_net.client.ui.TerminalPlayer` (a plain fallback is used if
it is missing); ``--bot NAME`` lets a bot play this seat too (a demo game).

Exit codes: 0 the game finished and verified, 1 it did not verify or did not finish,
2 bad arguments, 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from .bot_options import BOT_NAMES, table_size, think_seconds
from .host.cli import add_dealer_option
from .messages import add_lang_option, t

if TYPE_CHECKING:
    from .actions import Action
    from .rules import RuleSet


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``play`` subcommand to an argparse ``subparsers`` object; sets ``func=run``."""
    p = subparsers.add_parser("play", help=t("play.help"), description=t("play.description"), epilog=t("play.epilog"))
    p.add_argument("--seats", "--players", dest="seats", type=table_size, default=None, metavar="2-6", help=t("opt.seats"))
    p.add_argument("--name", default=None, help=t("opt.name"))
    p.add_argument("--opponents", default=None, choices=BOT_NAMES, help=t("play.opt.opponents"))
    p.add_argument("--bot", default=None, choices=BOT_NAMES, help=t("play.opt.bot"))
    p.add_argument("--think", type=think_seconds, default=None, metavar="SECONDS", help=t("opt.think"))
    p.add_argument("--rounds", type=int, default=None, metavar="N", help=t("opt.rounds"))
    p.add_argument("--rules", default=None, metavar="FILE", help=t("opt.rules_file"))
    p.add_argument("--turn-timeout", type=float, default=0.0, metavar="SECONDS", help=t("play.opt.turn_timeout"))
    p.add_argument("--bot-delay", type=float, default=None, metavar="SECONDS", help=t("play.opt.bot_delay"))
    add_lang_option(p)
    p.add_argument("--games", type=int, default=0, metavar="N", help=t("play.opt.games"))
    p.add_argument("--transcript", default=None, metavar="FILE", help=t("play.opt.transcript"))
    p.add_argument("--plain", action="store_true", help=t("play.opt.plain"))
    add_dealer_option(p)
    p.set_defaults(func=run)
    return p


def _default_lang() -> str:
    """The settings' language, else the locale's (:func:`jupai_net.config.default_lang`)."""
    from .config import default_lang

    return default_lang()


def wrap_words(text: str, width: int, lang: str | None = None, keep: Any = (), hang: str = "  ") -> str:
    """``text`` broken to ``width`` terminal cells a line by the one rule of every
    screen (:func:`jupai_net.linebreak.break_lines`: English at spaces, never "inva/lid";
    Chinese between characters, never a ``，`` or ``。`` first on a line; never inside a
    formula, a seat's name or a name of ``keep``; a word longer than a line is cut),
    continuation lines indented by ``hang``; each line of ``text`` separately.
    ``lang`` None: guessed from each line (specs/client.md § jupai play --plain)."""
    from .linebreak import break_lines

    return "\n".join(break_lines(text, width, lang, keep, hang=hang))


class PlainPlayer:
    """Line-by-line terminal player (``--plain``, or when the rich UI is unavailable):
    every game event is one readable line (``Round 3: round card 7♣ → defense, R = 3,
    seat 1 leads``; contests with both formulas), each prompt shows the hand, the
    equipment and the numbered moves with the total each comes to, and a number is
    read from standard input (``/quit`` leaves, ``say TEXT`` chats, ``?`` helps).
    Texts come from :mod:`jupai_net.client.render` in ``lang``."""

    def __init__(self, out: Any = None, lang: str = "en", width: int | None = None, reader: Any = None) -> None:
        self.out = out or sys.stdout
        #: Where typed lines come from (a :class:`~jupai_net.client.ui.LineReader`,
        #: default standard input): one reader for every question, whose wait can be
        #: cancelled (a turn that timed out) without losing the next line typed.
        self.reader = reader
        self.lang = lang
        self.control: Any = None
        self._last_event: Any = None
        #: Lines are wrapped at word boundaries to this many terminal cells; ``None``:
        #: the terminal's width when ``out`` is a terminal, else no wrapping (pipes and
        #: files get whole lines).
        self.width = width
        self.ending_shown: bytes | None = None  # game id whose ending was printed between games
        #: the notices about the next game only (``session.for_next_game``, the rule the
        #: screen follows) with their lines, printed before the next line printed for
        #: another reason; when a game starts first, those the start says again
        #: (``session.said_at_start``: its scheme) are dropped
        self._held: list[tuple[Any, str]] = []
        self._keep: tuple[str, ...] = ()  # the players' names as shown (wrap_words keeps them whole)

    def attach(self, control: Any) -> None:
        """Keep the session control (``/quit`` leaves, ``say TEXT`` chats)."""
        self.control = control

    def _print(self, text: str, hang: str | None = None) -> None:
        """Print ``text`` (after the held notices), broken at the terminal's width:
        ``hang`` before each line after the first (default: two spaces more than the
        line's own indent or ``»`` mark, so an event's next rows stand out)."""
        width = self.width if self.width is not None else wrap_width(self.out)
        held, self._held = self._held, []
        for line in (*(line for _notice, line in held), text):
            indent = hang if hang is not None else " " * (len(line) - len(line.lstrip(" »")) + 2)
            print(wrap_words(line, width, self.lang, self._keep, indent) if width else line, file=self.out, flush=True)

    def _names(self, view: Any) -> None:
        """Keep the names of ``view``'s players (never broken over two lines)."""
        from .client.card_words import shown_names

        self._keep = shown_names(getattr(view, "names", None), self.lang)

    def _new_events(self, events: Any) -> list[Any]:
        """The events of ``events`` not printed yet (the view keeps a sliding window)."""
        events = list(events or ())
        start = 0
        if self._last_event is not None:
            for k in range(len(events) - 1, -1, -1):
                if events[k] is self._last_event:
                    start = k + 1
                    break
        if events:
            self._last_event = events[-1]
        return events[start:]

    def on_update(self, view: Any) -> None:
        """Print new events, notices and chat, one line each. What the lobby said of the
        next game's scheme waits for the next line printed for another reason, and makes
        way when a game starts first (specs/client.md § Staying at the table)."""
        from .client.render import chat_line_text, describe_event, notice_text
        from .client.session import DEALER_NOTICES, for_next_game, said_at_start

        me = view.seat
        self._names(view)
        last = view.notices[-1] if view.change == "notice" and view.notices else None
        code = getattr(last, "code", None)
        if view.change == "start" or code in {c for c, _ in DEALER_NOTICES.values()}:  # the start's own line
            self._held = [(n, line) for n, line in self._held if not said_at_start(n)]
        if last is not None and isinstance(code, str) and for_next_game(last):
            self._held.append((last, "[!] " + notice_text(last, self.lang)))
        elif view.change in ("statement", "sync") and view.events:  # (a dealer-blind seat's events come with its syncs)
            for ev in self._new_events(view.events):
                line = describe_event(ev, view.names, me, self.lang)
                if line:
                    self._print(("» " if ev.get("kind") in ("contest", "discard") and me in (ev.get("actor"), ev.get("target"))
                                 else "  ") + line)
        elif view.change == "chat" and view.chat:
            self._print(t("chat.mark", self.lang) + chat_line_text(view.chat[-1], self.lang, me))
        elif view.change in ("notice", "reject", "error") and view.notices:
            self._print("[!] " + notice_text(view.notices[-1], self.lang))

    def _show_turn(self, view: Any) -> None:
        from .client.i18n import t
        from .client.render import (
            equipment_text,
            pending_text,
            rearm_state,
            render_hand,
            render_header,
            status_text,
            to_text,
        )

        obs = view.observation or {}
        if not obs:
            return
        self._names(view)
        lang = self.lang
        mine = next((p for p in obs.get("players", []) if p.get("seat") == obs.get("seat")), {})
        header = to_text(render_header(obs, view.names, lang, compact=True), width=1000).splitlines()
        self._print(header[0].rstrip() if header else "")
        colon = t("colon", lang)
        self._print(f"{t('hand.title_short', lang)}{colon}{render_hand(obs, lang).plain}")
        self._print(f"{t('equip.title_short', lang)}{colon}{equipment_text(mine.get('equipment'), lang, rearm_state(obs, mine))}")
        pend = pending_text(obs, view.names, lang)
        if pend:
            self._print(("⚔ " if obs.get("pending") else "") + pend)
        self._print(status_text(obs, view.names, lang, getattr(view, "waiting", ()) or ()))

    async def choose(self, view: Any) -> Action:
        """Print the turn (hand, equipment, pending contest) and the numbered legal
        actions with their totals, then read a number (``/quit`` leaves)."""
        import trio

        from .client.i18n import t
        from .client.render import describe_action, render_help, to_text
        from .client.ui import parse_input

        self._show_turn(view)
        legal = list(view.legal)
        for k, a in enumerate(legal, 1):
            self._print(f"  {k:>2}. {describe_action(a, view.observation or {}, view.names, self.lang)}", hang=" " * 6)
        key = "legal.prompt_one" if len(legal) == 1 else "legal.prompt"
        self._print(t(key, self.lang, n=len(legal)))
        while True:
            line = await self.read_line()
            cmd = parse_input(line if line is not None else "/quit", len(legal))
            if cmd.kind == "quit":
                if self.control is not None:
                    self.control.leave()
                await trio.sleep_forever()
            if cmd.kind == "choose" and cmd.index is not None:
                return legal[cmd.index]
            if cmd.kind == "chat" and self.control is not None:
                try:
                    self.control.say(cmd.text or "")
                except (ValueError, trio.WouldBlock) as exc:
                    self._print(f"[!] {exc}")
            elif cmd.kind == "help":
                self._print(to_text(render_help(self.lang), width=100).rstrip())
            elif cmd.kind == "log":
                await self.show_log(view)
            elif cmd.kind == "error":
                self._print(t(cmd.key or "input.not_number", self.lang, **cmd.args))

    async def read_line(self) -> str | None:
        """Write the ``> `` prompt (on a terminal) and read one typed line (None at the end of input, or
        when standard input cannot be read). Cancellable at any time: a line typed
        after a cancelled read (the turn timed out) goes to the next read, where the
        worker thread of ``input()`` took it and dropped it."""
        if self.reader is None:
            from .client.ui import LineReader

            self.reader = LineReader(0)
        if _is_terminal(self.out):  # the prompt for a person (a pipe or a file gets the lines only)
            print("> ", end="", file=self.out, flush=True)
        try:
            return await self.reader.readline()
        except OSError:  # standard input closed or not readable: as the end of input
            return None

    def log_pages(self, view: Any) -> list[list[str]]:
        """``/log`` as plain lines: the whole game so far of ``view`` (its ``events``,
        else the observation's log tail), one line per event with its formulas (own
        ones marked ``»``), in pages of the terminal's height less two rows (one page
        when the output is not a terminal); an empty game is one page saying so."""
        from .client.i18n import t
        from .client.screen_log import game_log_lines

        events = list(getattr(view, "events", None) or (getattr(view, "observation", None) or {}).get("log") or ())
        lines = [("» " if mine else "  ") + text
                 for text, mine in game_log_lines(events, getattr(view, "seat", None), getattr(view, "names", None),
                                                  self.lang)]
        try:
            rows = os.get_terminal_size(self.out.fileno()).lines if self.out.isatty() else 0
        except (AttributeError, OSError, ValueError):
            rows = 0
        per = max(3, rows - 2) if rows else len(lines) or 1
        return [lines[start:start + per] or [t("log.empty", self.lang)] for start in range(0, max(1, len(lines)), per)]

    async def show_log(self, view: Any) -> None:
        """``/log``: :meth:`log_pages`, printed; between pages ``Enter: next page · q:
        stop`` and a line is read (q or the end of input stops)."""
        import trio

        from .client.i18n import t

        pages = self.log_pages(view)
        for k, page in enumerate(pages):
            for line in page:
                self._print(line)
            if k < len(pages) - 1:
                self._print(t("gamelog.keys_plain", self.lang))
                key = await self.read_line()
                if key is None or key.strip().lower() == "q":
                    break

    def on_end(self, result: Any) -> None:
        """Nothing: :func:`run` prints the ending (:func:`jupai_net.client.ui.print_game_end`)."""

    async def next_game(self, result: Any) -> bool:
        """Between games: print the ending and the scoreboard, then ask ``Play again?
        [Enter] / q to leave`` and read a line (q, ``/quit`` or the end of input: False;
        ``say TEXT`` chats and asks again; any other line: True)."""
        import trio

        from .client.i18n import t
        from .client.ui import next_game_refused, parse_input, print_game_end

        from .printable import literal_console

        width = self.width or (wrap_width(self.out) or 100)
        print_game_end(literal_console(file=self.out, width=width, color_system=None), result, self.lang)
        self.ending_shown = getattr(result, "game_id", None)
        while True:
            self._print(t("series.play_again", self.lang).rstrip())
            line = await self.read_line()
            if line is None:
                return False
            cmd = parse_input(line, 0)
            if cmd.kind != "chat":
                return not next_game_refused(line)
            if self.control is not None:
                try:
                    self.control.say(cmd.text or "")
                except (ValueError, trio.WouldBlock) as exc:
                    self._print(f"[!] {exc}")


def _stdin_is_terminal() -> bool:
    """True when standard input is a terminal (a person can answer "Play again?")."""
    try:
        return os.isatty(0)
    except OSError:
        return False


def _is_terminal(out: Any) -> bool:
    """True when ``out`` is a terminal (not a pipe, a file or a ``StringIO``)."""
    try:
        return bool(out.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def wrap_width(out: Any) -> int:
    """The terminal width of ``out`` when it is a terminal, else 0 (no wrapping)."""
    try:
        return os.get_terminal_size(out.fileno()).columns if out.isatty() else 0
    except (AttributeError, OSError, ValueError):
        return 0


def _rules(args: argparse.Namespace) -> RuleSet:
    from .rules import RuleSet, load_rules

    if args.rules:
        return load_rules(args.rules, players=args.seats, rounds=args.rounds)
    return RuleSet(players=args.seats if args.seats is not None else 4, rounds=args.rounds)


def run(args: argparse.Namespace) -> int:
    """Run ``jupai play``; returns the exit code."""
    import logging

    from .rules import RuleError

    logging.basicConfig(level=logging.ERROR, format="%(name)s %(levelname)s %(message)s")
    try:
        rules = _rules(args)
    except RuleError as exc:
        from .rules_cli import rule_error_text

        print(f"jupai play: {rule_error_text(exc)}", file=sys.stderr)
        return 2
    from .host.cli import dealer_problem

    problem = dealer_problem(getattr(args, "dealer", "auto"), rules)
    if problem is not None:
        print(f"jupai play: {problem}", file=sys.stderr)
        return 2
    if getattr(args, "games", 0) < 0:
        print(f"jupai play: {t('play.bad_games', games=args.games)}", file=sys.stderr)
        return 2
    from .client.cli import name_problem

    problem = None if args.name is None else name_problem(args.name, args.lang or _default_lang())
    if problem is not None:  # before the host starts
        print(f"jupai play: {problem}", file=sys.stderr)
        return 2
    import trio  # trio, rich, the host and the client load only when `jupai play` runs (fast `jupai --help`)

    try:
        result = trio.run(play, args, rules)
    except BaseException as exc:  # noqa: B036 - trio wraps Ctrl-C in exception groups
        from .cli import is_interrupt

        if not is_interrupt(exc):
            raise
        print(t("jupai.interrupted", prog="jupai play"), file=sys.stderr)  # after the ending (Ctrl-C leaves the table like /quit)
        return 130
    return 0 if result is not None and result.status == "finished" and result.verdict is not None and result.verdict.ok else 1


async def play(args: argparse.Namespace, rules: RuleSet) -> Any:
    """Host on a free loopback port with ``rules.players - 1`` bots and play the last
    seat here; print the verdict. Returns the :class:`SessionResult`."""
    import trio

    from .client.bot import BotPlayer
    from .client.session import SessionControl, run_session
    from .host.cli import HostScreen
    from .host.server import HostConfig, HostServer
    from .host.table import TableConfig
    from .host.tls import ephemeral_identity, load_identity
    from .printable import literal_console

    console = literal_console()
    lang = args.lang or _default_lang()
    from .config import default_name, settings

    name = args.name or default_name()
    demo = args.bot is not None
    delay = args.bot_delay if args.bot_delay is not None else (0.0 if demo else 0.8)
    timeout = args.turn_timeout if args.turn_timeout and args.turn_timeout > 0 else None
    try:
        identity = load_identity()
    except (OSError, ValueError):
        identity = ephemeral_identity()
    table = TableConfig(rules=rules, bots=rules.players - 1,
                        bot=args.opponents or settings().get("opponents") or "greedy", turn_timeout=timeout,
                        bot_delay=max(0.0, delay), seed_timeout=60.0, think=args.think,
                        dealer=getattr(args, "dealer", "auto"))
    # a demo (--bot), or moves piped in by a script (stdin not a terminal), plays one game
    # unless --games says more: nobody is there to answer "Play again?"
    games = getattr(args, "games", 0) or (1 if demo or not _stdin_is_terminal() else None)
    config = HostConfig(bind="127.0.0.1", port=0, table=table, games=games, idle_timeout=3600.0)
    control = SessionControl()
    observer = None
    input_loop = None
    if demo:
        player: Any = BotPlayer(args.bot, budget=args.think)
        observer = HostScreen(console)
    elif args.plain:
        player = PlainPlayer(lang=lang)
    else:
        try:
            from .client.ui import TerminalPlayer
        except ImportError:
            player = PlainPlayer(lang=lang)
        else:
            player = TerminalPlayer(lang=lang)
            player.again_key = "series.play_again"

            async def send_chat(text: str) -> None:
                try:
                    control.say(text)
                except (ValueError, trio.WouldBlock):
                    pass

            player.send_chat = send_chat
            input_loop = player.input_loop

    def expected(host: str, port: int, fingerprint: str) -> None:
        if fingerprint != identity.fingerprint:
            raise RuntimeError("the local host presented another certificate")

    from .client.cli import _signal_receiver

    interrupted = False

    async def on_signal(received: Any) -> None:
        """Ctrl-C leaves the table as /quit does (the same ending follows); a second quits at once."""
        nonlocal interrupted
        async for _ in received:
            if interrupted:
                raise KeyboardInterrupt
            interrupted = True
            control.leave()

    server = HostServer(config, identity, observer=observer)
    server.table_name = _table_name(name, lang)  # its welcome names the table, as jupai host's does
    with _signal_receiver() as received:
        result = await _serve_and_play(server, player, input_loop, control, received, on_signal, name, expected,
                                       args, lang)
    shown = result.game_id is not None and getattr(player, "ending_shown", None) == result.game_id
    _report(console, result, lang, ranking=not isinstance(player, _screen_players()), ending_shown=shown)
    if interrupted:
        raise KeyboardInterrupt  # run() exits 130, after the ending above
    return result


def _screen_players() -> tuple[type, ...]:
    """Players whose last screen already shows the final ranking."""
    try:
        from .client.ui import TerminalPlayer
    except ImportError:
        return ()
    return (TerminalPlayer,)


def _table_name(name: str, lang: str) -> str:
    """The name of ``jupai play``'s own table: ``<player>'s table`` in ``lang``, made a
    valid table name (:func:`~jupai_net.protocol.discovery.clean_name`)."""
    from .protocol.discovery import DiscoveryError, clean_name

    try:
        return clean_name(t("host.default_table", lang, name=name))
    except DiscoveryError:
        return t("host.fallback_table", lang)  # nothing printable left of the name


async def _serve_and_play(server: Any, player: Any, input_loop: Any, control: Any, received: Any, on_signal: Any,
                          name: str, expected: Any, args: argparse.Namespace, lang: str) -> Any:
    import trio

    from .client.session import run_session

    async with trio.open_nursery() as nursery:
        if received is not None:
            nursery.start_soon(on_signal, received)
        await nursery.start(server.serve)
        if input_loop is not None:
            nursery.start_soon(input_loop)

            async def quit_watch() -> None:
                await player.quit_requested.wait()
                control.leave()

            nursery.start_soon(quit_watch)
        result = await run_session("127.0.0.1", server.port, name=name, player=player, check_fingerprint=expected,
                                   transcript_path=args.transcript, lang=lang, control=control, save_resume=False,
                                   stay=True, table_name=server.table_name)
        nursery.cancel_scope.cancel()
    return result


def _report(console: Any, result: Any, lang: str = "en", ranking: bool = True, ending_shown: bool = False) -> None:
    """Print the ending — ranking, fairness verdict, transcript path and the command
    to check it again, then the series scoreboard — in ``lang``, as ``jupai join`` does
    (:func:`jupai_net.client.ui.print_game_end`). ``ending_shown``: the player left
    between games, the ending is on screen: only the final scoreboard and one line."""
    from .client.ui import print_game_end, print_left_between

    if ending_shown:  # the series' final scoreboard so far, then "You left the table after game N."
        print_left_between(console, result, lang)
        return
    print_game_end(console, result, lang, ranking=ranking)
