"""``jupai join HOST[:PORT]``: take a seat at a table on the LAN (specs/client.md § jupai join).

``jupai join HOST[:PORT] [--name N] [--code CODE] [--bot NAME] [--transcript FILE]
[--lang zh|en]``

Connects with :func:`jupai_net.client.session.run_session` and stays at the table
(a series of games: after each one the ending and the scoreboard, then "Ready for the
next game? [Enter] / q to leave"; a ``--bot`` stays for every game), checks the host's
certificate against the known hosts file (:mod:`.known_hosts`: pin on first use, loud
refusal on change, ``--code`` must match and re-pins), plays with
:class:`~jupai_net.client.ui.TerminalPlayer` (or a headless bot with ``--bot``), and
at the end shows the fairness verdict and where the transcript was saved.

Exit codes: 0 the (last) game finished and verified, also when you leave with q
between games; 1 it finished unverified, was abandoned or you left during it; 2 bad arguments; 3 cannot connect; 4 the host's join code is wrong or
changed (refused); 5 protocol version mismatch; 6 the host refused, failed or closed
the connection; 130 interrupted. Never a traceback for these.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import signal
from collections.abc import Callable
from typing import Any, NamedTuple

from ..messages import add_lang_option
from ..bot_options import seat_number, think_seconds
from ..messages import current_lang, t
from ..printable import is_printable, printable

#: Default TCP port when HOST has none (the host's default). trio, rich and the
#: session load only when `jupai join` runs (a fast `jupai --help`).
try:
    from jupai_net.host import DEFAULT_PORT
except ImportError:  # pragma: no cover - the host ships in the same distribution
    DEFAULT_PORT = 47474

#: Seconds without a frame from the host before `jupai join` counts the connection lost.
IDLE_TIMEOUT = 45.0

#: Error codes of a host that broke the protocol or sent what the session cannot use.
HOST_MISTAKES = frozenset({"unexpected-prompt", "unexpected-statement", "host-error"})

EXIT_OK, EXIT_UNVERIFIED, EXIT_USAGE, EXIT_CONNECT, EXIT_REFUSED, EXIT_VERSION, EXIT_HOST, EXIT_INTERRUPTED = (
    0, 1, 2, 3, 4, 5, 6, 130)
#: How this command's error lines start (``jupai join: …``).
PROG = "jupai join"


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``join`` subcommand to an argparse ``subparsers`` object; sets ``func=run``."""
    p = subparsers.add_parser("join", help=t("join.help"), description=t("join.description"), epilog=t("join.epilog"))
    p.add_argument("address", metavar="HOST[:PORT] | TABLE", nargs="?", default=None,
                   help=t("opt.address", port=DEFAULT_PORT))
    p.add_argument("--name", default=None, help=t("join.opt.name"))
    p.add_argument("--code", default=None, metavar="CODE", help=t("opt.code"))
    p.add_argument("--seat", type=seat_number, default=None, metavar="N", help=t("join.opt.seat"))
    p.add_argument("--bot", default=None, metavar="NAME", help=t("join.opt.bot"))
    p.add_argument("--think", type=think_seconds, default=None, metavar="SECONDS", help=t("join.opt.think"))
    p.add_argument("--transcript", default=None, metavar="FILE", help=t("opt.transcript"))
    add_lang_option(p)
    p.add_argument("--idle-timeout", type=float, default=IDLE_TIMEOUT, metavar="SECONDS",
                   help=t("opt.idle_timeout", default=f"{IDLE_TIMEOUT:g}"))
    p.set_defaults(func=run)
    return p


class AddressError(ValueError):
    """A ``HOST[:PORT]`` that is not one: ``code`` (``no-host``, ``port``, ``bracket``,
    ``after-bracket``, ``not-ipv6``) and ``args`` say why, in any language
    (:meth:`text`, catalog key ``address.why.CODE``); ``str()`` is the English."""

    def __init__(self, code: str, **args: Any):
        self.code, self.args_ = code, args
        super().__init__(self.text("en"))

    def text(self, lang: str = "en") -> str:
        """Why, in ``lang``."""
        return t(f"address.why.{self.code}", lang, **self.args_)


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST[:PORT]`` → ``(host, port)``. IPv6 addresses go in brackets
    (``[fe80::1]:7777``, ``[::1]``); a bare IPv6 address takes the default port.
    Raises :class:`AddressError` (a ``ValueError``) for an empty host, a port outside
    1..65535 or a bracketed address that is not IPv6."""
    s = text.strip()
    port_text: str | None = None
    if s.startswith("["):
        end = s.find("]")
        if end < 0:
            raise AddressError("bracket")
        host, rest = s[1:end], s[end + 1:]
        if rest:
            if not rest.startswith(":"):
                raise AddressError("after-bracket")
            port_text = rest[1:]
        _ipv6(host)
    elif s.count(":") == 1:
        host, port_text = s.split(":")
    else:
        host = s
        if ":" in host:
            _ipv6(host)
    if not host or any(c.isspace() for c in host):
        raise AddressError("no-host")
    if not is_printable(host):
        raise AddressError("bad-host", host=printable(host)[:60])
    if port_text is None:
        return host, default_port
    if not port_text.isdecimal() or not 1 <= int(port_text) <= 65535:
        raise AddressError("port", port=printable(port_text)[:20])
    return host, int(port_text)


def _ipv6(host: str) -> None:
    """AddressError unless ``host`` is an IPv6 address (with an optional ``%scope``)."""
    try:
        ipaddress.IPv6Address(host.split("%", 1)[0])
    except ValueError:
        raise AddressError("not-ipv6", host=printable(host)[:60]) from None


def _welcome_printer(console: Any, lang: str) -> Callable[[Any], None]:
    """For a ``--bot`` run (no game screen): a view callback that prints the
    ``welcome-back`` notice once, when the seat is back after a rejoin (the ending does
    not repeat it, specs/client.md § Rejoin), and ``away-too-long`` / ``seat-later``
    once, when it came back after its game ended (§ Staying at the table)."""
    from rich.text import Text

    from .status_words import notice_text

    said: set[float] = set()  # the notices' times

    def on_view(view: Any) -> None:
        for notice in view.notices:
            if notice.code in ("welcome-back", "away-too-long", "seat-later") and notice.at not in said:
                said.add(notice.at)
                console.print(Text(notice_text(notice, lang), style="yellow"))

    return on_view


def bot_name(bot: str) -> str:
    """The default name of a ``--bot`` client, e.g. ``random bot`` (the host numbers
    it, ``random bot 2``, if another seat has that name)."""
    return f"{bot} bot"[:24]


#: Said when a host is trusted on first use (no ``--code``): (English, Chinese).
#: Kept here (not in i18n.MESSAGES) because cli.py owns the pinning output.
FIRST_USE = (
    "First time at {host}: its join code {code} is now pinned WITHOUT a check (no --code given). "
    "Compare it with the join code on the host's screen; if they differ, leave (/quit or Ctrl-C) and "
    "join again with --code CODE from the host's screen.",
    "首次连接 {host}：其加入码 {code} 已直接记录，未经核对（未提供 --code）。"
    "请与主机屏幕上的加入码核对；如不一致，请退出（/quit 或 Ctrl-C），再用主机屏幕上的 --code 加入码重新加入。",
)

#: The same for a spectator (``jupai watch``): it watches again, it does not join.
FIRST_USE_WATCH = (
    "First time at {host}: its join code {code} is now pinned WITHOUT a check (no --code given). "
    "Compare it with the join code on the host's screen; if they differ, leave (q or Ctrl-C) and "
    "watch again with --code CODE from the host's screen.",
    "首次连接 {host}：其加入码 {code} 已直接记录，未经核对（未提供 --code）。"
    "请与主机屏幕上的加入码核对；如不一致，请退出（q 或 Ctrl-C），再用主机屏幕上的 --code 加入码重新旁观。",
)


def first_use_text(lang: str, host: str, code: str, watch: bool = False) -> str:
    """The trust-on-first-use warning in ``lang`` (``watch``: a spectator's, which says
    to watch again with ``--code``)."""
    en, zh = FIRST_USE_WATCH if watch else FIRST_USE
    return (zh if lang == "zh" else en).format(host=host, code=code)


class PinningCheck:
    """The session's certificate check: known hosts pinning with the user's ``--code``.

    Prints what happened (pinned / matches / re-pinned) to ``console``; on a changed
    key prints the loud warning to ``err`` (stderr; default ``console``) and refuses. ``failure`` keeps why it refused:
    ``("wrong-code", exc)``, ``("changed", exc)`` or ``("known-hosts", exc)``.

    A host pinned on first use without ``--code`` is trusted unchecked: the check
    prints a loud warning to compare the code with the host's screen, returns it (the
    session shows it as a ``host-pinned`` notice, so it survives the screen redraw) and
    keeps it in ``first_use`` (the final report repeats it unless the person read it on a
    screen that held it until Enter). ``watch``: the check of ``jupai watch`` (its
    words say to watch again, not to join). That the code matches the pinned one is
    said once per host and code, however often the session connects (a table found by
    its name is reached twice: once to ask for its name, once to sit down; a reconnect).
    """

    def __init__(self, code: str | None, console: Any, lang: str, known_hosts: Any = None, err: Any = None,
                 watch: bool = False):
        from .known_hosts import KnownHosts

        self.code = code
        self.console = console
        self.err = err if err is not None else console  # the refusal (a changed key) is an error: stderr
        self.lang = lang
        self.known = known_hosts or KnownHosts()
        self.failure: tuple[str, Exception] | None = None
        self.first_use: str | None = None
        self.watch = watch
        self._said: set[tuple[str, str]] = set()  # (host:port, code) already said pinned or matching

    def __call__(self, host: str, port: int, fingerprint: str) -> str | None:
        from rich.panel import Panel
        from rich.text import Text

        from .known_hosts import MATCH, NEW, HostKeyChanged, KnownHostsError, WrongCode
        from .tls import join_code

        shown = join_code(fingerprint)
        try:
            result = self.known.check(host, port, fingerprint, code=shown, explicit_code=self.code)
        except WrongCode as exc:
            self.failure = ("wrong-code", exc)
            raise
        except HostKeyChanged as exc:
            self.failure = ("changed", exc)
            key = "cli.changed_old" if getattr(exc, "old_format", False) else "cli.changed"
            if self.watch:
                key += "_watch"
            self.err.print(Panel(Text(t(key, self.lang, host=exc.host, old=exc.old, new=exc.new,
                                            path=exc.path), style="bold red"), border_style="bold red"))
            raise
        except KnownHostsError as exc:
            self.failure = ("known-hosts", exc)
            raise
        key = f"{host}:{port}"
        said, self._said = (key, shown) in self._said, self._said | {(key, shown)}
        if result.status == NEW:
            self.console.print(Text(t("cli.pinned", self.lang, host=key, code=shown, path=result.path), style="yellow"))
            if self.code is None:  # trusted on first use: say so, loudly
                self.first_use = first_use_text(self.lang, key, shown, self.watch)
                self.console.print(Text(self.first_use, style="bold yellow"))
                return self.first_use
        elif result.status == MATCH:
            if said:  # the same host and code again in this run (found by name, a reconnect)
                return None
            self.console.print(Text(t("cli.code_known", self.lang, host=key, code=shown), style="dim"))
        else:
            self.console.print(Text(t("cli.repinned", self.lang, host=key, code=shown, path=result.path),
                                    style="bold yellow"))
        return None


def say_error(console: Any, text: str, prog: str | None = None) -> None:
    """``text`` in bold red on ``console`` (the stderr console of the command); a
    person's mistake (bad flag or address) starts with ``prog:`` (``jupai join:``), as
    every command's usage errors do. Broken by the one rule on a terminal
    (:mod:`jupai_net.linebreak`: English at spaces, Chinese between characters, never
    inside a command); into a pipe or a file the sentence stays one line (rich would
    wrap it at 80 columns)."""
    from rich.text import Text

    if prog:
        text = f"{prog}: {text}"
    # a Text: a host's words are never rich markup
    if console.is_terminal:
        from .layout import Wrapped

        console.print(Wrapped(Text(text, style="bold red")))
    else:
        console.print(Text(text, style="bold red"), soft_wrap=True)


def _closed_reason(code: str, text: str, lang: str) -> str:
    """Why the host closed this connection, in ``lang``: a host error it closed it with
    (``kicked``, ``ready-timeout`` …) from the catalog
    (:func:`~jupai_net.client.status_words.host_error_text`: in English the host's own
    sentence, which names the seat), a ``bye`` or abandon reason by
    :func:`~jupai_net.messages.notices.reason_sentence`, else the code."""
    from jupai_net.messages.notices import error_sentence, reason_sentence

    if code and code != "bye" and error_sentence(code, lang) is not None:
        from .status_words import host_error_text

        return host_error_text(code, text, lang)
    return reason_sentence(text, lang) if text else code


def report(result: Any, console: Any, lang: str, check: PinningCheck | None = None, host: str = "",
           port: int = 0, ranking: bool = True, ending_shown: bool = False, prog: str = PROG,
           err: Any = None, rejoin: str | None = None) -> int:
    """Print how the session ended (errors, ranking, fairness verdict, transcript path,
    the series scoreboard) in ``lang`` and return the exit code. ``ending_shown``: the
    player already printed this game's ending between games (it left with q, or the
    host closed the table while it waited): only the series' final scoreboard and one
    line follow. Every error line starts ``prog:`` (``jupai join:``) and goes to
    ``err`` (the stderr console; default ``console``); the ending goes to ``console``.
    ``rejoin``: the command that takes the seat back (:func:`rejoin_command`), shown
    whole under why when the session left its seat to be taken back
    (``result.seat_kept``, specs/client.md § Rejoin)."""
    from rich.text import Text

    from jupai_net.printable import printable

    err = err if err is not None else console
    status = result.status
    code, text = (printable(result.error[0]), printable(result.error[1])) if result.error else ("", "")
    if status == "refused" and check is not None and check.failure is not None:
        kind, exc = check.failure
        if kind == "wrong-code":
            say_error(err, t("cli.wrong_code", lang, actual=exc.actual, expected=exc.expected), prog)
        elif kind == "known-hosts":
            say_error(err, t("cli.known_hosts_error", lang, reason=exc), prog)
        return EXIT_REFUSED  # a changed key was already shown loudly
    if code == "version-mismatch":
        say_error(err, t("cli.version", lang, reason=text), prog)
        return EXIT_VERSION
    if code == "connect-failed":
        say_error(err, t("cli.refused", lang, host=host, port=port, reason=_short_reason(text, lang)), prog)
        return EXIT_CONNECT
    from jupai_net.protocol.errors import PROTOCOL_CODES

    if status == "error" and (code in HOST_MISTAKES or code in PROTOCOL_CODES):
        say_error(err, t("cli.host_broke", lang, reason=text.rstrip(".") or code), prog)
        return EXIT_HOST
    if status == "refused" or status == "error":
        from .status_words import host_error_text

        say_error(err, t("cli.host_error", lang, reason=host_error_text(code, text, lang)), prog)
        return EXIT_HOST
    from .ui import print_game_end, print_left_between, series_game_no

    if ending_shown:  # between games: the ending is on screen already
        print_left_between(console, result, lang, sentence=False)  # the series' final scoreboard so far
        if code == "bye" or (code and status == "finished" and code not in ("abandoned",)):
            # the host closed the table, or freed the seat (ready-timeout, kicked) meanwhile
            say_error(err, t("cli.host_closed", lang, reason=_closed_reason(code, text, lang)), prog)
        elif getattr(result, "host_bye", None):  # the host abandoned the game, then closed the table
            say_goodbye(result, err, lang, prog)
        else:  # the table's game number (a seat that rejoined mid-series counts them all)
            console.print(Text(t("series.left", lang, game=series_game_no(result)), style="bold"))
        verdict = result.verdict
        return EXIT_OK if status == "finished" and verdict is not None and verdict.ok else EXIT_UNVERIFIED
    if status == "left" and all(g.game_id is None for g in (result, *(getattr(result, "games", ()) or ()))):
        # left in the lobby before any game: there is no game to report on
        console.print(Text(t("series.left_before", lang), style="bold"))
        return EXIT_OK
    if status == "host-gone" and code == "connection-lost":
        say_error(err, t("cli.host_lost", lang, reason=text.rstrip(".") or code), prog)
        exit_code = EXIT_HOST
    elif status == "host-gone":
        say_error(err, t("cli.host_closed", lang, reason=_closed_reason(code, text, lang)), prog)
        exit_code = EXIT_HOST
    elif status == "left":
        exit_code = EXIT_UNVERIFIED
    else:
        exit_code = EXIT_OK if status == "finished" else EXIT_UNVERIFIED
    verdict = result.verdict
    if verdict is not None and not verdict.ok and exit_code == EXIT_OK:
        exit_code = EXIT_UNVERIFIED
    print_game_end(console, result, lang, ranking=ranking)  # the same ending as `jupai play`
    if result.transcript_path is None and verdict is not None:
        console.print(t("cli.no_transcript", lang), style="yellow")
    if check is not None and check.first_use is not None:
        console.print(Text(check.first_use, style="bold yellow"))  # again: the game screen hid it
    kept = getattr(result, "seat_kept", None)
    if kept is not None and rejoin:
        from .layout import Wrapped

        console.print(Wrapped(t(f"cli.seat_kept.{kept}", lang), style="bold"))
        console.print(Text("  " + rejoin), soft_wrap=True, overflow="ignore", crop=False)  # whole, to copy
    if status != "host-gone":  # e.g. the host abandoned the game, then said bye: its goodbye last
        say_goodbye(result, err, lang, prog)
    return exit_code


def say_goodbye(result: Any, err: Any, lang: str, prog: str = PROG) -> None:
    """The host's goodbye line (``prog: The host closed the connection: the host was
    stopped``, in ``lang``) when the session ended with the host's ``bye``
    (``result.host_bye``); nothing otherwise."""
    bye = getattr(result, "host_bye", None)
    if bye:
        from jupai_net.printable import printable

        say_error(err, t("cli.host_closed", lang, reason=printable(bye)), prog)


#: Why connecting failed, as the session or the OS says it in English → its catalog key
#: (``cli.reason.*``: the same words in English, Chinese under ``--lang zh``).
CONNECT_REASONS = {
    "connection refused": "cli.reason.refused",
    "no route to host": "cli.reason.no_route",
    "network is unreachable": "cli.reason.unreachable",
    "connection timed out": "cli.reason.timed_out",
    "connection reset by peer": "cli.reason.reset",
    "name or service not known": "cli.reason.unknown_name",
    "temporary failure in name resolution": "cli.reason.unknown_name",
    "no address associated with hostname": "cli.reason.unknown_name",
    "connection failed": "cli.reason.failed",
}


def _short_reason(text: str, lang: str = "en") -> str:
    """The useful end of an OSError text (``Connection refused``) in ``lang``: the
    reasons of :data:`CONNECT_REASONS`, the TLS handshake and the connect time-out
    from the catalog; any other as the OS wrote it."""
    import re

    for marker in ("] ", ": "):
        if marker in text:
            text = text.rsplit(marker, 1)[-1]
    text = text.strip() or "connection failed"
    if text.startswith("the TLS handshake failed"):
        return t("cli.reason.tls", lang)
    if m := re.fullmatch(r"no answer within (\S+) s", text):
        return t("cli.reason.no_answer", lang, seconds=m.group(1))
    key = CONNECT_REASONS.get(text.casefold())
    return t(key, lang) if key else text


class Start(NamedTuple):
    """What :func:`start` settles before ``jupai join``/``jupai watch`` connect."""

    lang: str
    console: Any
    err: Any
    host: str
    port: int
    code: str | None
    name: str


def start(args: argparse.Namespace, prog: str, *, check: Any = None, name: str | None = None) -> Start | int:
    """The start shared by ``jupai join`` and ``jupai watch`` (``prog``: ``"jupai join"``):
    the language (``--lang``, else the settings' or the locale's), the consoles (stdout,
    stderr), ``check(lang, err)`` (the command's own argument check: an exit code or
    None), the host (:func:`find_host`) and the player's name (``--name``, else
    ``name``, else :func:`~jupai_net.config.default_name`: the settings' ``name``, else
    the login name; checked with
    :func:`name_refused`). Returns a :class:`Start`, or the exit code after one
    sentence on stderr starting ``prog:``."""
    from jupai_net.config import default_lang, default_name

    from jupai_net.printable import literal_console

    lang = args.lang or default_lang()
    console = literal_console()
    err = literal_console(stderr=True)
    if check is not None and (failed := check(lang, err)) is not None:
        return failed
    target = find_host(args, lang, console, err, prog)
    if isinstance(target, int):
        return target
    host, port, code = target
    chosen = args.name if args.name is not None else name or default_name()
    if name_refused(chosen, lang, err, prog):
        return EXIT_USAGE
    return Start(lang, console, err, host, port, code, chosen)


def run(args: argparse.Namespace) -> int:
    """Run ``jupai join``; returns the exit code."""

    def check_bot(lang: str, err: Any) -> int | None:
        from jupai_net.bots import BOTS

        if args.bot is not None and args.bot not in BOTS:
            say_error(err, t("cli.bad_bot", lang, name=args.bot, names=", ".join(sorted(BOTS))), PROG)
            return EXIT_USAGE
        return None

    began = start(args, PROG, check=check_bot, name=bot_name(args.bot) if args.bot is not None else None)
    if isinstance(began, int):
        return began
    lang, console, err, host, port, code, name = began
    return run_trio(err, t("cli.interrupted", lang), join, host, port, name, code, args, lang, console, err)


def name_refused(name: str, lang: str, err: Any, prog: str = "jupai join") -> bool:
    """True (after the rule on ``err``, starting ``prog:``) when ``--name`` cannot be a
    name: checked before connecting, so the person reads the rule, not a refusal from
    the host."""
    problem = name_problem(name, lang)
    if problem is not None:
        say_error(err, problem, prog)
    return problem is not None


def run_trio(err: Any, interrupted: str, command: Any, *args: Any, prog: str = "jupai join") -> int:
    """``trio.run(command, *args)``; a Ctrl-C that gets out of it (a second one) prints
    ``prog: interrupted`` on ``err`` and gives exit 130, never a traceback."""
    import trio

    try:
        return trio.run(command, *args)
    except BaseException as exc:  # noqa: B036 - trio may wrap Ctrl-C in an exception group
        if not _is_interrupt(exc):
            raise
        say_error(err, interrupted, prog)
        return EXIT_INTERRUPTED


def find_host(args: argparse.Namespace, lang: str, console: Any, err: Any,
              prog: str = "jupai join") -> tuple[str, int, str | None] | int:
    """Where ``jupai join``/``jupai watch`` connect: ``args.address`` (``HOST[:PORT]``),
    the settings' default host, a table announced on the LAN under that name, or one
    picked from the list heard on the LAN (:func:`.discover.choose_table`), and the
    normalized ``--code``. Returns ``(host, port, code)``, or the exit code after one
    sentence on ``err`` (no table: 3; bad address or code: 2)."""
    from jupai_net.config import settings

    if args.address is None and settings().get("host"):
        args.address = settings().get("host")
    if args.address is None or not _dial_directly(args.address):
        from .discover import NoTable, choose_table

        read = input if os.isatty(0) else None
        try:
            ad = choose_table(args.address, lang, say=lambda line: console.print(line, markup=False), read=read,
                              watch=prog == "jupai watch")
        except NoTable as exc:
            say_error(err, str(exc), prog)
            return EXIT_CONNECT
        args.address = f"{ad.address}:{ad.port}"
        args.table_name = ad.name  # for the transcripts (jupai history): the protocol does not say it
        console.print(t("discover.joining_watch" if prog == "jupai watch" else "discover.joining", lang, name=ad.name,
                        address=args.address, code=ad.code or "?"),
                      markup=False)
    try:
        host, port = parse_address(args.address)
    except ValueError as exc:
        say_error(err, t("cli.bad_address", lang, address=printable(args.address),
                         why=exc.text(lang) if isinstance(exc, AddressError) else str(exc)), prog)
        return EXIT_USAGE
    code = None
    if args.code is not None:
        from .tls import normalize_code

        try:
            code = normalize_code(args.code)
        except ValueError as exc:  # a JoinCodeError: said in the run's language
            say_error(err, f"--code: {exc.text(lang) if hasattr(exc, 'text') else exc}", prog)
            return EXIT_USAGE
    return host, port, code


def _dial_directly(address: str) -> bool:
    """True for an address to dial (``HOST[:PORT]`` that is an IP address, localhost or a
    resolvable name, or anything with a port or brackets, which only an address has);
    False for the name of a table to look up on the LAN."""
    from .discover import is_address

    if ":" in address or "[" in address:
        return True  # a bad one is then reported as a bad address
    try:
        parse_address(address)
    except ValueError:
        return False
    return is_address(address)


def name_problem(name: str, lang: str = "en") -> str | None:
    """Why ``name`` cannot be a player's name, with the protocol's rule, in ``lang``
    (``--name 'a\\tb': the name holds \\t (a control character): a name is 1..24
    characters a person can read …``), or None when it can be."""
    why = name_why(name, lang)
    return None if why is None else t("cli.bad_name", lang, name=quoted(name), why=why)


def name_why(name: object, lang: str | None = None) -> str | None:
    """Why ``name`` cannot be a player's name in ``lang`` (None: the run's), e.g. ``the
    name holds \\t (a control character)`` / ``名字含有控制字符 \\t``, or None when it can
    be (:func:`jupai_net.protocol.messages.name_fault`)."""
    from jupai_net.protocol.messages import name_fault

    fault = name_fault(name)
    if fault is None:
        return None
    code, args = fault
    if code == "unprintable":  # English names the character as Unicode does; others by its kind
        kind = args.pop("category")
        if (lang or current_lang()) != "en":
            args["char_name"] = t(f"name.char.{kind if kind in ('Cc', 'Cf') else 'other'}", lang)
    return t(f"name.why.{code}", lang, **args)


def quoted(text: str) -> str:
    """``text`` in quotes as Python writes it (control characters escaped), at most 40 characters."""
    from jupai_net.protocol.errors import _short

    return _short(text, 40)


def _is_interrupt(exc: BaseException) -> bool:
    """A ``KeyboardInterrupt``, also inside (nested) exception groups."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return any(_is_interrupt(e) for e in exc.exceptions)
    return False


async def join(host: str, port: int, name: str, code: str | None, args: argparse.Namespace, lang: str,
               console: Any, err: Any = None) -> int:
    """Connect, play the game, report; returns the exit code. The game and its ending
    go to ``console`` (stdout), every error sentence to ``err`` (stderr; default ``console``).

    Ctrl-C (SIGINT, when run in the main thread): the first one leaves the table
    politely — ``bye`` to the host (in the lobby the seat is freed), the transcript
    saved with the seat's ``left`` note — then the report, exit 130; a second one
    quits at once. Mid-game at a dealer-blind table with another person the first one
    asks "Leave? [y/N]" as ``/quit`` does (:meth:`TerminalPlayer.interrupt`), and a
    second one while asked leaves. SIGTERM leaves the same way (exit 143). SIGHUP (and
    an input that ended because its terminal went away) is no decision mid-game: the
    seat is kept as after a lost connection (:meth:`SessionControl.hang_up`, no
    ``bye``, the resume file stays); in the lobby or between games it leaves (exit
    129). Specs: specs/client.md § `jupai join`, § Keys."""
    import logging

    import trio

    from .session import SessionControl, run_session

    logging.basicConfig(level=logging.CRITICAL)  # the report below says what went wrong, in the user's language
    err = err if err is not None else console
    check = PinningCheck(code, console, lang, err=err)
    control = SessionControl()
    interrupted = 0  # the signal that made the person leave (0: none)

    def hang_up() -> None:  # the terminal went away: mid-game the seat is kept (no bye)
        nonlocal interrupted
        if not interrupted:
            interrupted = int(signal.SIGHUP)
            control.hang_up()

    async def on_signal(received: Any) -> None:
        nonlocal interrupted
        async for signum in received:
            if signum == getattr(signal, "SIGHUP", None):
                hang_up()  # again (the closed window's input ended too): nothing more to do
                continue
            if interrupted:
                raise KeyboardInterrupt
            if signum == signal.SIGINT and getattr(player, "interrupt", None) is not None and player.interrupt():
                continue  # asked "Leave? [y/N]" (a dealer-blind game would end for everyone)
            interrupted = int(signum)
            control.leave()

    from rich.text import Text

    console.print(Text(t("cli.connecting", lang, host=host, port=port), style="dim"))
    with _signal_receiver() as received:
        async with trio.open_nursery() as nursery:
            if received is not None:
                nursery.start_soon(on_signal, received)
            if args.bot is not None:
                from .bot import BotPlayer

                player: Any = BotPlayer(args.bot, budget=getattr(args, "think", None),
                                        on_view=_welcome_printer(console, lang))
            else:
                from .ui import TerminalPlayer

                player = TerminalPlayer(lang=lang, console=console)
                player.on_hangup = hang_up
                nursery.start_soon(player.input_loop)
            bad: BaseException | None = None
            try:
                result = await run_session(host, port, name=name, player=player, code=code, check_fingerprint=check,
                                           transcript_path=args.transcript, lang=lang, control=control,
                                           seat=getattr(args, "seat", None), bot=args.bot is not None,
                                           idle_timeout=_idle_timeout(args), stay=True,
                                           table_name=getattr(args, "table_name", None),
                                           name_given=getattr(args, "name", None) is not None)
            except* ValueError as group:  # bad arguments (e.g. --seat 9), even from inside a nursery
                bad = group
                while isinstance(bad, BaseExceptionGroup):
                    bad = bad.exceptions[0]
            nursery.cancel_scope.cancel()
    if interrupted == getattr(signal, "SIGHUP", None):
        _ignore_hangups()  # a closed window sends more than one: the report still ends with 129
    if bad is not None:
        say_error(err, t("cli.failed", lang, reason=bad), PROG)
        return EXIT_USAGE
    # the game screen's last view already shows the final ranking (not a bot's run)
    shown = result.game_id is not None and getattr(player, "ending_shown", None) == result.game_id
    if getattr(player, "warning_read", False):
        check.first_use = None  # read and acknowledged before the game: not repeated at the end
    exit_code = report(result, console, lang, check, host, port, ranking=args.bot is not None, ending_shown=shown,
                       err=err, rejoin=rejoin_command(host, port, args))
    if interrupted:
        if getattr(result, "seat_kept", None) != "hung-up":  # a closed terminal left nothing: its seat is kept
            say_error(err, t("cli.interrupted", lang), PROG)
        return 128 + interrupted  # 130 Ctrl-C (EXIT_INTERRUPTED), 143 SIGTERM, 129 SIGHUP
    return exit_code


def rejoin_command(host: str, port: int, args: argparse.Namespace) -> str:
    """The command that takes this seat back (specs/client.md § Rejoin): the running
    ``jupai`` (as :func:`~.end_words.verify_command` names it) ``join HOST:PORT`` (an
    IPv6 address in brackets), with the options given that change how the seat is
    played or shown (``--lang``, ``--bot``, ``--think``, ``--transcript``); the saved
    session supplies the name, seat and token."""
    from .end_words import shell_quote, verify_command

    program = verify_command()[:-len(" verify")]
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    words = [program, "join", shell_quote(address)]
    for option in ("--lang", "--bot", "--think", "--transcript"):
        value = getattr(args, option[2:], None)
        if value is not None:
            words += [option, shell_quote(str(value))]
    return " ".join(words)


def _idle_timeout(args: argparse.Namespace) -> float:
    """``--idle-timeout`` (at least 1 s; default :data:`IDLE_TIMEOUT`)."""
    value = getattr(args, "idle_timeout", None)
    return IDLE_TIMEOUT if value is None else max(1.0, float(value))


#: The signals a client takes as the person leaving (as a first Ctrl-C): SIGINT, and
#: SIGTERM (``kill``, a service manager) and SIGHUP (the terminal closed) where the
#: system has them — without a handler they killed the program without a ``bye``, so a
#: dealer-blind table waited for the seat's grace instead of hearing it left.
LEAVE_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _ignore_hangups() -> None:
    """Ignore SIGHUP from now on (main thread only): once a closed terminal ended the
    session, the signal receiver is gone and a second SIGHUP (the kernel's, as the pty
    closes, after the one that was handled) would kill the program during its report
    instead of letting it exit 129 (specs/client.md § `jupai join`)."""
    import threading

    if hasattr(signal, "SIGHUP") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)


def _signal_receiver() -> Any:
    """``trio.open_signal_receiver`` of :data:`LEAVE_SIGNALS` in the main thread (it
    yields their numbers), else a context giving None."""
    import contextlib
    import threading

    import trio

    if threading.current_thread() is not threading.main_thread():
        return contextlib.nullcontext()
    return trio.open_signal_receiver(*LEAVE_SIGNALS)
