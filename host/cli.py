"""``jupai host``: serve a table on the LAN and show it as a spectator (specs/host.md).

``jupai host [--bind ADDR] [--port N] [--seats P] [--bots K] [--opponents NAME]
[--rounds N] [--rules FILE] [--turn-timeout S] [--ready-timeout S] [--max-spectators N] [--transcript-dir DIR]
[--games N]``

Prints the address(es) to join and the join code (the short form of the TLS
certificate's SHA-256 fingerprint), then the lobby (every seat, empty ones too) and
every public event of the game; after the last game one closing line (who won,
where the transcripts are). ``--bots K`` gives the host's bots the last K seats; without
it, ``--opponents NAME`` alone means bots in every seat but one. Log records go to
``<config>/host.log`` (stderr with ``-v``). While serving, ``kick N`` typed on stdin
removes the player of seat N. Ctrl-C, SIGTERM and SIGHUP stop cleanly: a
running game is abandoned (the players are told why, the transcripts saved), every
client gets ``bye``. Exit codes: 0 after the games were played, 2 bad arguments or
rules file, 3 the port cannot be opened, 128 + the signal number when stopped by a
signal (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jupai_net.bot_options import BOT_NAMES, table_size, think_seconds
from jupai_net.messages import catalog, names_text, t, tn
from jupai_net.printable import printable

from . import DEFAULT_PORT

if TYPE_CHECKING:  # the server, trio and rich load only when `jupai host` runs (fast `jupai --help`)
    from jupai_net.rules import RuleSet

    from .server import HostConfig, HostServer
    from .tls import HostIdentity

def _log():
    """The host's logger (``logging`` loads when ``jupai host`` runs, not for ``jupai --help``)."""
    import logging

    return logging.getLogger("jupai.host")


STOP_REASON = "the host was stopped"  # why a game still running at Ctrl-C is abandoned

#: The signals that stop ``jupai host`` cleanly, each with how the closing line names it
#: and what the abandoned game's reason adds (specs/host.md §2).
STOP_SIGNALS: dict[int, tuple[str, str]] = {
    signal.SIGINT: ("with Ctrl-C", ""),
    signal.SIGTERM: ("by SIGTERM", " (SIGTERM)"),
}
if hasattr(signal, "SIGHUP"):  # not on Windows
    STOP_SIGNALS[signal.SIGHUP] = ("by SIGHUP (its terminal was closed)", " (its terminal was closed)")


def stop_reason(signum: int | None) -> str:
    """Why a game still running is abandoned when signal ``signum`` stops the host,
    e.g. ``the host was stopped (SIGTERM)``; a players' client shows it."""
    return STOP_REASON + STOP_SIGNALS.get(signum, ("", ""))[1] if signum is not None else STOP_REASON


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``host`` subcommand to an argparse ``subparsers`` object; sets ``func=run``."""
    p = subparsers.add_parser("host", help=t("host.help"), description=t("host.description"), epilog=t("host.epilog"))
    p.add_argument("--bind", default="", metavar="ADDR", help=t("host.opt.bind"))
    p.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="PORT", help=t("host.opt.port", port=DEFAULT_PORT))
    p.add_argument("--seats", "--players", dest="seats", type=table_size, default=None, metavar="2-6", help=t("opt.seats"))
    p.add_argument("--bots", type=int, default=None, metavar="N", help=t("host.opt.bots"))
    p.add_argument("--opponents", default=None, choices=BOT_NAMES, metavar="NAME",
                   help=t("host.opt.opponents", bots=", ".join(BOT_NAMES)))
    # Deprecated spelling of --opponents (in `jupai play`, --bot means "a bot plays YOUR seat").
    p.add_argument("--bot", dest="bot_alias", default=None, choices=BOT_NAMES, help=argparse.SUPPRESS)
    p.add_argument("--rounds", type=int, default=None, metavar="N", help=t("opt.rounds"))
    p.add_argument("--rules", default=None, metavar="FILE", help=t("opt.rules_file"))
    p.add_argument("--turn-timeout", type=float, default=60.0, metavar="SECONDS", help=t("host.opt.turn_timeout"))
    p.add_argument("--ready-timeout", type=float, default=120.0, metavar="SECONDS", help=t("host.opt.ready_timeout"))
    p.add_argument("--idle-timeout", type=float, default=60.0, metavar="SECONDS", help=t("host.opt.idle_timeout"))
    p.add_argument("--max-spectators", type=int, default=8, metavar="N", help=t("host.opt.max_spectators"))
    p.add_argument("--bot-delay", type=float, default=0.5, metavar="SECONDS", help=t("host.opt.bot_delay"))
    p.add_argument("--think", type=think_seconds, default=None, metavar="SECONDS", help=t("host.opt.think"))
    p.add_argument("--games", type=int, default=0, metavar="N", help=t("host.opt.games"))
    add_dealer_option(p)
    p.add_argument("--transcript-dir", default=None, metavar="DIR", help=t("host.opt.transcript_dir"))
    p.add_argument("--table-name", default=None, metavar="NAME", help=t("host.opt.table_name"))
    p.add_argument("--no-announce", action="store_true", help=t("host.opt.no_announce"))
    p.add_argument("--quiet", action="store_true", help=t("host.opt.quiet"))
    p.add_argument("-v", "--verbose", action="count", default=0, help=t("host.opt.verbose"))
    p.set_defaults(func=run)
    return p


#: What ``--dealer`` may say (``jupai_net.host.table.DEALER_CHOICES``, not imported
#: here: fast ``jupai --help``; a test checks they are the same).
DEALERS = ("auto", "trusted", "blind")


def add_dealer_option(parser: argparse.ArgumentParser) -> None:
    """``--dealer auto|trusted|blind`` (default auto: each game dealer-blind when every
    seat's client can, else trusted) of ``jupai host`` and ``jupai play`` (specs/host.md
    § 2, specs/fairness.md B.15 item 5)."""
    parser.add_argument("--dealer", choices=DEALERS, default="auto", help=t("opt.dealer"))


def dealer_words(table: Any, lang: str) -> Any:
    """The banner's ``dealing`` value for a table config (``dealer`` and ``rules``), a
    rich ``Text``: ``auto`` is "dealer-blind; a game with an older client is dealt trusted", or the trusted
    line with its reason under the hidden-identities house rule (specs/host.md § 2)."""
    from rich.text import Text

    dealer = getattr(table, "dealer", "auto")
    rules = getattr(table, "rules", None)
    if dealer == "auto" and rules is not None and rules.hidden_identities:
        return Text(t("host.dealer.auto_hidden", lang), style="yellow")
    return Text(t(f"host.dealer.{dealer}", lang), style="yellow" if dealer == "trusted" else "bold")


def dealer_problem(dealer: str, rules: RuleSet) -> str | None:
    """Why ``dealer`` cannot deal ``rules`` (one sentence, the run's language), or None:
    a dealer-blind table deals public identities only (specs/fairness.md B.15 item 2)."""
    if dealer == "blind" and rules.hidden_identities:
        return t("host.blind_hidden_identities")
    return None


def build_config(args: argparse.Namespace) -> HostConfig:
    """The :class:`HostConfig` for parsed ``jupai host`` arguments. Raises
    :class:`~jupai_net.rules.RuleError` / ``ValueError`` with a clear message."""
    from jupai_net.rules import RuleSet, load_rules

    from .server import HostConfig
    from .table import MAX_SPECTATORS, TableConfig

    if args.rules:
        rules = load_rules(args.rules, players=args.seats, rounds=args.rounds)
    else:
        rules = RuleSet(players=args.seats if args.seats is not None else 4, rounds=args.rounds)
    timeout = args.turn_timeout if args.turn_timeout and args.turn_timeout > 0 else None
    ready = getattr(args, "ready_timeout", None)
    spectators = getattr(args, "max_spectators", 8)
    if not 0 <= spectators <= MAX_SPECTATORS:
        raise ValueError(t("host.bad_range", option="--max-spectators", low=0, high=MAX_SPECTATORS, got=spectators))
    dealer = getattr(args, "dealer", "auto")
    problem = dealer_problem(dealer, rules)
    if problem is not None:
        raise ValueError(problem)
    bots = bot_seats(args, rules.players)
    if not 0 <= bots < rules.players:
        raise ValueError(t("host.bad_bots", high=rules.players - 1, players=rules.players, got=bots))
    table = TableConfig(rules=rules, bots=bots, bot=opponents(args), turn_timeout=timeout,
                        bot_delay=max(0.0, args.bot_delay), think=getattr(args, "think", None),
                        ready_timeout=ready if ready and ready > 0 else None,
                        max_spectators=spectators, dealer=dealer)
    if not 0 <= args.port <= 65535:
        raise ValueError(t("host.bad_range", option="--port", low=0, high=65535, got=args.port))
    if args.games < 0:
        raise ValueError(f"--games must be 0 (until stopped) or more, got {args.games}")
    idle = getattr(args, "idle_timeout", 60.0)
    if not 1 <= idle <= 86400:
        raise ValueError(t("host.bad_range", option="--idle-timeout", low=1, high=86400, got=f"{idle:g}"))
    return HostConfig(
        bind=args.bind, port=args.port, table=table, games=args.games if args.games > 0 else None,
        transcript_dir=Path(args.transcript_dir) if args.transcript_dir else default_transcript_dir(),
        idle_timeout=idle, ping_interval=idle / 4,
    )


def bot_seats(args: argparse.Namespace, players: int) -> int:
    """How many seats the host's bots take: ``--bots K`` if given (a warning on stderr
    when ``--opponents`` is given with ``--bots 0``: it has no effect); else every seat
    but one when ``--opponents`` (or ``--bot``) names a bot, so ``jupai host --seats 3
    --opponents greedy`` is one person against two bots; else 0 (every seat waits for a
    person)."""
    named = getattr(args, "opponents", None) or getattr(args, "bot_alias", None)
    bots = getattr(args, "bots", None)
    if bots is None:
        return max(0, players - 1) if named else 0
    if bots == 0 and named:
        print(f"jupai host: {t('host.opponents_unused', named=named)}", file=sys.stderr)
    return bots


def seats_line(players: int, bots: int, bot: str, lang: str | None = None) -> str:
    """Who fills the seats, e.g. ``2 seats for people, 1 greedy bot`` or ``3 seats for
    people, no bots (add --bots N to let the host's bots take N seats)``, in ``lang``
    (default: the run's language)."""
    people = tn("host.seats.people", players - bots, lang)
    kind = t(f"bot.{bot}", lang) if f"bot.{bot}" in catalog() else bot  # 贪心 in Chinese
    bots_text = tn("host.seats.bots", bots, lang, bot=kind) if bots else t("host.seats.no_bots", lang)
    return t("host.seats.line", lang, people=people, bots=bots_text)


def opponents(args: argparse.Namespace) -> str:
    """The bot for the host's bot seats: ``--opponents``, else the deprecated ``--bot``
    (with a warning on stderr), else the settings' ``opponents`` (:mod:`jupai_net.config`),
    else ``greedy``."""
    chosen = getattr(args, "opponents", None)
    alias = getattr(args, "bot_alias", None)
    if alias is not None:
        print(f"jupai host: {t('host.bot_deprecated')}", file=sys.stderr)
        if chosen is None:
            chosen = alias
    if chosen is None:
        from jupai_net.config import settings

        chosen = settings().get("opponents")
    return chosen or "greedy"


def default_transcript_dir() -> Path:
    """Where ``jupai host`` keeps the transcripts it sent: ``<config dir>/host-transcripts``."""
    from jupai_net.client.tls import config_dir

    return config_dir() / "host-transcripts"


class HostScreen:
    """The host's terminal: join information, lobby, public events, results.

    Uses :func:`jupai_net.client.render.describe_event` / ``render_table`` when the
    client renderer is installed, else plain lines. ``console`` is a rich console.
    ``games``: games to host (``None``: no limit): after the last one the screen stops
    showing lobby changes and notices (the players leaving), and :meth:`closing`
    prints one closing line.
    """

    def __init__(self, console: Any, *, quiet: bool = False, games: int | None = None, lang: str | None = None):
        from jupai_net.messages import current_lang

        self.lang = lang or current_lang()  # every line in the run's language (--lang, settings, locale)
        self.console = console
        self.quiet = quiet
        self.games = games
        self.played = 0  # games over, finished or abandoned
        self.abandoned = 0
        self.closed = False  # no more lobby / notice lines (the last game is over, or stopping)
        #: the console reads commands (``start``, ``kick N``): the lobby line says ``type start``
        self.commands = False
        self.stopped = False  # a stop signal came: the host is closing
        self.last: tuple[str, dict[str, Any]] | None = None  # ("end", result) or ("abandon", {"reason"})
        self.names: list[str | None] = []
        self.series: Any = None  # the latest ``series`` message (the scoreboard)
        #: the game over's line is said and its scoreboard is not: a dealer-blind game's
        #: ``series`` comes after its audit, so the scoreboard follows when it does
        self._board_due = False
        self._series_fresh = False  # a ``series`` message came since the last game started
        #: lines printed while a console command runs, held to follow its answer
        #: (:meth:`hold`): ``start``'s "bots take seat 1, 2" came after the game's start
        self._held: list[tuple[tuple[Any, ...], dict[str, Any]]] | None = None
        try:
            from jupai_net.client import render
        except ImportError:  # pragma: no cover - the renderer ships with the package
            render = None  # type: ignore[assignment]
        self.render = render

    def banner(self, identity: HostIdentity, server: HostServer, rules: RuleSet, bots: int, bot: str = "greedy",
               table_name: str | None = None, *, announced: bool = True) -> None:
        """The join information: every address it listens on, join code, fingerprints,
        table size, and the table's name, saying whether it is ``announced`` on the LAN
        (a warning when the machine has no LAN address at all).

        What a person copies or compares is never broken across lines or box borders
        (specs/host.md § 2): the join code and host key are unbroken; the certificate
        fingerprint is one line, or two of two groups; each ``jupai join`` command is
        inside the box when it fits on one row beside its label, else the box says so
        and the commands follow it, one a line, unwrapped. The commands name the IPv4
        LAN addresses when there are any (else every address: IPv6, link-local); the
        other addresses are one ``also on`` row broken between addresses; loopback is
        said only when nothing else answers. The banner, the lobby line and the
        commands line fit 24 rows at 60 and 80 columns (issue 12, trial 13)."""
        from rich.cells import cell_len as cells
        from rich.console import Group
        from rich.panel import Panel
        from rich.table import Table
        from rich.text import Text

        from jupai_net.client.layout import Packed, Wrapped

        port = server.port
        listening = banner_addresses(server.config.bind)
        # listening on every interface, none but loopback: nobody else can join (an IPv6
        # address is a LAN address too; a --bind address is taken as given)
        every = not server.config.bind or server.config.bind in ("0.0.0.0", "::")
        no_lan = every and not any(e.scope != "loopback" for e in listening)
        no_ipv4 = not reachable_addresses(server.config.bind)  # the announcement names IPv4 addresses only
        # the commands name the IPv4 LAN addresses when there are any (one line each); the
        # other addresses (IPv6, link-local) are listed on one row; loopback only when it
        # is all there is (24 rows must hold the banner, the lobby and the commands line)
        ipv4_lan = [e.address for e in listening if e.scope == "lan" and ":" not in e.address]
        addrs = ipv4_lan or [e.address for e in listening if e.scope != "loopback"] or \
            [e.address for e in listening if e.scope == "loopback"][:1] or ["127.0.0.1"]
        also = [e for e in listening if e.scope != "loopback" and e.address not in addrs]
        loopback = [e.address for e in listening if e.scope == "loopback" and e.address not in addrs] \
            if no_lan else []
        lang = self.lang
        labels = ("host.label.code", "host.label.table", "host.label.join", "host.label.watch",
                  "host.label.certificate", "host.label.key", "host.label.dealer", "host.label.loopback",
                  "host.label.also")
        label_width = max(12, *(cells(t(k, lang)) for k in labels))
        inner = max(20, (getattr(self.console, "width", 80) or 80) - 4)  # the box's borders and padding
        value_width = inner - label_width - 1
        grid = Table.grid(padding=(0, 1), pad_edge=False)
        grid.add_column(no_wrap=True, style="dim", width=label_width)
        grid.add_column()

        def whole(text: str, style: str = "") -> Text:
            return Text(text, style=style, no_wrap=True, overflow="ignore")

        grid.add_row(t("host.label.code", lang), whole(identity.join_code, "bold green"))
        if getattr(identity, "replaced_code", None):
            grid.add_row("", Text(t("host.banner.replaced", lang, old=identity.replaced_code), style="yellow"))
        if table_name:  # announced only where a LAN address can be reached (serve)
            how = ("host.banner.not_announced" if no_lan else "host.banner.unannounced" if not announced
                   else "host.banner.not_announced_ipv6" if no_ipv4 else "host.banner.announced")
            grid.add_row(t("host.label.table", lang), Wrapped(Text.assemble((table_name, "bold"), t(how, lang))))

        def commands_of(verb: str) -> list[str]:
            return [f"jupai {verb} {f'[{a}]' if ':' in a else a}:{port} --code {identity.join_code}" for a in addrs]

        spectators = server.config.table.max_spectators
        # the same address and code, to watch instead of play (unless --max-spectators 0)
        rows = [("host.label.join", commands_of("join"))] + (
            [("host.label.watch", commands_of("watch"))] if spectators else [])
        outside = any(cells(c) > value_width for _, commands in rows for c in commands)
        cap = Text(t("host.banner.watch", lang, spectators=tn("count.spectators", spectators, lang)), style="dim")
        if outside:  # one row says where they are; below the box each "jupai join/watch" says which it is
            grid.add_row(t("host.label.join", lang), Text(t("host.banner.join_below", lang)))
        else:
            for label, commands in rows:
                for c in commands:
                    grid.add_row(t(label, lang), whole(c, "bold"))
        if spectators:
            grid.add_row("", cap)
        if also:  # the other addresses answer too: one row, broken between addresses only
            items = [whole(f"[{e.address}]" if ":" in e.address else e.address) for e in also]
            for item, e in zip(items, also):
                if e.scope == "link-local":
                    item.append(t("host.banner.link_local_short", lang), style="dim")
            grid.add_row(t("host.label.also", lang), Packed(items, sep=t("names.sep", lang)))
        if loopback:  # also answered, from this machine only
            grid.add_row(t("host.label.loopback", lang),
                         Wrapped(Text(t("host.banner.loopback", lang, addresses=t("names.sep", lang).join(
                             f"[{a}]" if ":" in a else a for a in loopback)))))
        fp = identity.fingerprint
        groups = [fp[i:i + 16] for i in range(0, len(fp), 16)]
        one_line = "sha256 " + " ".join(groups)
        grid.add_row(t("host.label.certificate", lang),
                     whole(one_line) if cells(one_line) <= value_width
                     else whole(f"sha256 {' '.join(groups[:2])}\n       {' '.join(groups[2:])}"))
        from jupai_net.fairness import key_fingerprint, public_key_bytes

        grid.add_row(t("host.label.key", lang), whole(key_fingerprint(public_key_bytes(identity.signing_key))))
        grid.add_row(t("host.label.dealer", lang), Wrapped(dealer_words(server.config.table, lang)))
        head = Text(t("host.banner.table", lang, players=rules.players), style="bold")
        head.append(t("host.banner.line", lang, seats=seats_line(rules.players, bots, bot, lang), rounds=tn("count.rounds", rules.rounds, lang)),
                    style="not bold")
        self.console.print(Panel(Group(Wrapped(head), grid), title="jupai host", title_align="left",
                                 border_style="green"))
        if outside:
            for _, commands in rows:
                for c in commands:
                    self.console.print(Text(c, style="bold"), soft_wrap=True, overflow="ignore", crop=False)
        if no_lan:
            self.console.print(Wrapped(Text(t("host.no_lan", lang), style="bold yellow")))

    def __call__(self, table_id: int, kind: str, data: dict[str, Any]) -> None:
        """Table observer: print one public event."""
        try:
            self._show(kind, data)
        except Exception:  # noqa: BLE001 - the screen must never disturb the game
            _log().exception("host screen failed on %s", kind)

    def _names(self) -> dict[int, str]:
        return {s: n for s, n in enumerate(self.names) if n}

    def _show(self, kind: str, data: dict[str, Any]) -> None:
        """Print one event. Every string a player chose (names, chat) or the engine
        wrote is a rich ``Text`` made :func:`~jupai_net.printable.printable`: a name
        like ``[/x]`` or chat like ``[link=file:///etc/passwd]x[/link]`` shows as typed,
        never as markup, and no escape sequence reaches the terminal."""
        from rich.text import Text

        lang = self.lang
        out = self.print
        if self.closed and kind in ("lobby", "notice", "chat"):
            return  # the games are over: the players leaving is no news
        if kind == "lobby":
            players = data["players"]
            total = data.get("seats") or max((p.seat + 1 for p in players), default=0)
            self.names = [None] * max(total, max((p.seat + 1 for p in players), default=0))
            for p in players:
                self.names[p.seat] = p.name
            if not self.quiet:
                out(lobby_line(players, total, lang, data, start_hint=self.commands))
        elif kind == "start":
            self.names = list(data["names"])
            self._series_fresh = self._board_due = False
            out(Text.assemble((t("host.game_starts", lang, game=data["game_id"].hex()[:12]), "bold"),
                              t("host.game_key", lang, key=printable(data["host_key"]))))
            if data.get("dealer") in ("trusted", "blind"):
                out(Text(t(f"host.dealer.{data['dealer']}", lang), style="dim"))
                why = data.get("why") or {}
                if why.get("code") == "old-client" and why.get("seats"):
                    who = t("names.sep", lang).join(t("host.dealer.old_client", lang, name=printable(s["name"]), seat=s["seat"],
                                      version=s["version"]) for s in why["seats"])
                    out(Text(t("host.dealer.why_old_client", lang, who=who), style="yellow"))
                elif why.get("code") == "hidden-identities":
                    out(Text(t("host.dealer.why_hidden", lang), style="yellow"))
        elif kind == "deal" and not self.quiet:
            if self.render is not None:
                out(self.render.render_table(data["observation"], names=self._names(), lang=lang,
                                             dealer=data.get("dealer")))
        elif kind == "step" and not self.quiet:
            from .table import describe_action

            for ev in data["events"]:
                if ev.get("kind") == "end":  # said once, with the places, by the game's "end" below
                    continue
                line = (self.render.describe_event(ev, self._names(), lang=lang)
                        if self.render is not None else None)
                if line is None and ev.get("kind") not in ("deal",):
                    line = t("host.step", lang, seat=data["actor"], action=describe_action(data["action"]))
                if line:
                    out(Text(printable(line)))
        elif kind == "notice" and not self.quiet:
            from jupai_net.messages.notices import notice_sentence

            try:  # the host's own notices, in the console's language
                said = notice_sentence(data["code"], data.get("args") or {}, lang)
            except ValueError:
                said = data["text"]
            out(Text.assemble((t("host.notice", lang), "blue"), " ", printable(said)))
        elif kind == "chat":
            out(Text.assemble((_shown_name(data["name"], lang), "magenta"), t("colon", lang), printable(data["text"])))
        elif kind == "waiting":  # a person back too late takes a stand-in's seat at the next game
            out(Text.assemble((t("host.notice", lang), "blue"), " ", t(
                "host.waiting", lang, name=printable(data["name"]), seat=data["seat"],
                stand_in=_shown_name(data["stand_in"], lang))))
        elif kind == "refused":  # shown under --quiet too: the host may have to act (update, --dealer)
            who = printable(data["name"])
            if data.get("why") == "bad-token" and not data.get("watch"):  # a person back after their session ended
                out(Text(t("host.back_expired", lang, name=who)))
                return
            if data.get("watch"):
                who = t("host.refused.spectator", lang, name=who)
            try:
                why = t(f"host.refused.{data['why']}", lang, **data.get("args", {}))
            except KeyError:
                why = printable(data["text"])
            out(Text.assemble((t("host.refused", lang), "yellow"), " ", who, t("colon", lang), why))
        elif kind == "end":
            from jupai_net.client.layout import Packed
            from jupai_net.client.win_words import game_win_text

            res = data["result"]

            def name(s: int) -> str:
                return (_shown_name(res["names"][s], lang) if s < len(res["names"]) and res["names"][s]
                        else t("host.seat", lang, seat=s))

            # who won, by the one rule every screen uses (specs/rules.md § 8), then the places
            # on the next line(s), broken between places only (a place keeps its name)
            won = game_win_text(res["ranking"], res.get("winner"), name, lang)
            out(Text.assemble((t("host.game_over", lang), "bold green"),
                              t("host.game_over_line", lang, won=printable(won or ""))))
            sep = t("host.places_sep", lang)
            places = [printable(t("host.place", lang, place=i + 1, name=name(s), left=res["cards_left"][s]))
                      for i, s in enumerate(res["ranking"])]
            if places:  # each comma after its place
                out(Packed([Text(p + sep.rstrip()) for p in places[:-1]] + [Text(places[-1])],
                           " " if sep.endswith(" ") else ""))
            out(Text(t("host.seed_revealed", lang), style="dim"))
            self._game_done(kind, res)
            self._scoreboard_when_scored()
        elif kind == "audited":
            if data.get("reason") == "finished" and data.get("verified") is False:
                # no seat can verify it: scored as nothing, counted abandoned (as the series does)
                self.abandoned += 1
                if self.last is not None and self.last[0] == "end":
                    self.last = ("abandon", {"reason": "", "code": "blind-deal-late"})
                out(Text(t("host.audit_failed", lang), style="yellow"))
        elif kind == "abandon":
            from jupai_net.messages.notices import end_reason

            out(Text.assemble((t("host.game_abandoned", lang), "bold red"), t("colon", lang), end_reason(data, lang)))
            self._game_done(kind, data)
            self._scoreboard_when_scored()
        elif kind == "series":
            self.series = data["message"]  # shown after the game's end line
            self._series_fresh = True
            if self._board_due:
                self._board_due = False
                self._scoreboard()
        elif kind == "series-over":
            if self.stopped:  # the players leave because the host stops: no news, no new series
                return
            if self.series is None or not self.series.final:  # a final scoreboard already said it
                out(Text(tn("host.series_over", int(data["games"]), lang), style="bold"))
            left = data.get("left")
            if left is None or left > 0:  # what happens now: the table waits for a new series
                out(Text(t("host.series_next", lang) if left is None else tn("host.series_next_left", int(left), lang)))

    def scoreboard_lines(self, *, final: bool | None = None) -> list[str]:
        """The latest series scoreboard (specs/rules.md § 15) as lines for this
        screen's width (``final``: as the end of the series); [] before any game."""
        msg = self.series
        if msg is None:
            return []
        from jupai_net.client.scoreboard import scoreboard_lines

        width = getattr(self.console, "width", 80) or 80
        return scoreboard_lines(msg.standings, game=msg.game, games=msg.games,
                                final=msg.final if final is None else final, lang=self.lang, width=width,
                                abandoned=msg.abandoned)

    def _scoreboard_when_scored(self) -> None:
        """After a game's end line: its scoreboard now if its ``series`` came before it
        (a trusted game, an abandoned one), else when it comes (a finished dealer-blind
        game is scored after its audit, specs/host.md § 3)."""
        if self._series_fresh:
            self._scoreboard()
        else:
            self._board_due = True

    def _scoreboard(self) -> None:
        from rich.text import Text

        for line in self.scoreboard_lines():
            self.print(Text(line, style="bold" if line.startswith("━━") else ""))

    def _game_done(self, kind: str, data: dict[str, Any]) -> None:
        self.played += 1
        self.abandoned += kind == "abandon"
        self.last = (kind, data)
        if self.games is not None and self.played >= self.games:
            self.closed = True

    @contextlib.contextmanager
    def hold(self) -> Any:
        """Hold what the table prints while a console command runs (``start`` starts
        the game at once when everyone seated is ready); yields a list that receives
        the held lines' printing when the block ends, for the caller to print after
        the command's answer (:func:`read_commands`)."""
        held: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        self._held = held
        try:
            yield held
        finally:
            self._held = None

    def print(self, *args: Any, **kw: Any) -> None:
        """``console.print`` that survives a terminal that went away (SIGHUP, a closed
        pipe): the first failed write points stdout at the null device, so the host
        goes on (and exits) quietly; what matters is in host.log. While :meth:`hold`
        holds, the line waits."""
        from rich.text import Text

        if self._held is not None:
            self._held.append((args, kw))
            return

        from jupai_net.client.layout import Trimmed, Wrapped

        if len(args) == 1 and not kw and isinstance(args[0], Text):
            # the one rule (jupai_net.linebreak): Chinese where the line is full, not at a
            # number's spaces; never inside a formula, a seat's name or a command
            args = (Wrapped(args[0], lang=self.lang),)
        if not kw:  # no line ends in spaces (a table's padding), in a log or a copied line
            args = tuple(Trimmed(a) for a in args)
        try:
            self.console.print(*args, **kw)
        except OSError:
            _stdout_to_null()

    def stopping(self, *, running: bool = True, signum: int = signal.SIGINT, auditing: bool = False) -> None:
        """A stop signal (Ctrl-C, SIGTERM, SIGHUP): say the host is stopping (abandoning
        the running game, if ``running``; with ``auditing``, a game that is over and
        whose deal the seats are checking, letting it finish first); no more lobby or
        series lines (the players leaving start no new series)."""
        from rich.text import Text

        self.closed = self.stopped = True
        what = t("host.stopping.running" if running else "host.stopping.auditing" if auditing
                 else "host.stopping.idle", self.lang)
        again = t("host.stopping.again" if signum == signal.SIGINT else "host.stopping.ctrl_c", self.lang)
        self.print(Text.assemble((t("host.stopping", self.lang), "bold yellow"),
                                 t("host.stopping.line", self.lang, what=what, again=again)))

    def closing(self, transcript_dir: Path | None, *, interrupted: bool | int = False) -> str:
        """Print (and return) the closing line: games played, who won the last one,
        where the host's transcripts are. ``interrupted``: the signal number that
        stopped the host (True: Ctrl-C), named in the line."""
        lang = self.lang
        finished = self.played - self.abandoned
        games = tn("host.closing.played", finished, lang)
        if self.abandoned:
            games += t("host.closing.abandoned", lang, count=self.abandoned)
        if interrupted:
            signum = signal.SIGINT if interrupted is True else int(interrupted)
            how = (t(f"host.stopped_by.{signal.Signals(signum).name}", lang) if signum in STOP_SIGNALS
                   else t("host.stopped_by.signal", lang, signum=signum))
            parts = [t("host.closing.stopped", lang, how=how, games=games)]
        else:
            parts = [t("host.closing.closed", lang, games=games)]
        series = self.series if self.series is not None and self.series.game > 1 else None
        if series is not None and series.standings:  # a series: who tops its scoreboard
            top = series.standings[0].points
            leaders = names_text((_shown_name(s.name, lang) for s in series.standings if s.points == top), lang)
            parts.append(t("host.closing.series_top", lang, names=leaders, points=tn("count.points", top, lang)))
        elif self.last is not None:
            kind, data = self.last
            if kind == "end":
                from jupai_net.client.win_words import game_win_text

                names = data.get("names", [])
                def who(s: int) -> str:
                    name = _shown_name(names[s], lang) if s < len(names) and names[s] else t("host.seat", lang, seat=s)
                    return t("host.closing.who", lang, name=name, seat=s)
                won = game_win_text(data.get("ranking"), data.get("winner"), who, lang)  # specs/rules.md § 8
                if won is not None:
                    parts.append(won)
            elif data.get("reason") and not str(data.get("reason")).startswith(STOP_REASON):
                from jupai_net.messages.notices import end_reason

                parts.append(t("host.closing.last_abandoned", lang, reason=end_reason(data, lang)))
        line = t("host.closing.sep", lang).join(parts) + t("host.closing.end", lang)
        if transcript_dir is not None and self.played:
            line += t("host.closing.transcripts", lang, dir=transcript_dir)
        from rich.text import Text

        line = printable(line)  # it names players
        if series is not None and not series.final:  # the series' final scoreboard (unless shown), then the line
            for text in self.scoreboard_lines(final=True):
                self.print(Text(text, style="bold" if text.startswith("━━") else ""))
        self.print(Text(line, style="bold"))
        return line


def _stdout_to_null() -> None:
    """Point file descriptor 1 at the null device (the terminal is gone)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


def _shown_name(name: str, lang: str | None) -> str:
    """A player's name as the console shows it: printable, the host's bot names in the
    console's language (``贪心机器人 2``)."""
    from jupai_net.client.card_words import display_name

    return display_name(name, lang or "en")


def lobby_line(players: Any, total: int, lang: str | None = None, status: dict[str, Any] | None = None, *,
               start_hint: bool = False) -> Any:
    """One status line listing every seat, empty ones too, and how many people are still
    awaited, e.g. ``lobby 2 of 4 seats taken · 0 Ann ✓ · 1 (empty) · 2 random bot (bot)
    · 3 (empty) · waiting for 2 people`` (the seat count as every screen says it:
    ``lobby.seats``; bot names in the console's language). During a game (``status``:
    the table's ``lobby`` event, :meth:`Table._status`) it starts with the game's state
    instead, ``game 2 of 3, round 4/8 · 0 Ann · 1 Bob (away) · …`` (no ready marks, no
    "waiting for"). With ``start_hint`` (the console reads commands) and a person
    seated, the end says how to begin now: ``waiting for 2 more people — type start to
    fill with bots`` (the console's ``start``, :func:`host_command`). A
    :class:`~jupai_net.client.layout.Packed` line: on a narrow terminal it breaks
    between seats, never inside one (``.plain``: the whole line); names are rich
    ``Text``, never read as markup."""
    from rich.text import Text

    from jupai_net.client.layout import Packed

    by_seat = {p.seat: p for p in players}
    playing = status is not None and status.get("phase", "lobby") != "lobby"
    if playing:
        assert status is not None
        items = [Text(game_status(status, lang), style="bold")]
    else:
        items = [Text.assemble((t("host.lobby", lang), "dim"), " ",
                               t("lobby.seats", lang, taken=len(by_seat), total=total))]
    for s in range(max(total, max(by_seat, default=-1) + 1)):
        p = by_seat.get(s)
        item = Text(f"{s} ")
        if p is None:
            item.append(t("host.lobby.empty", lang), style="dim")
        else:
            item.append(f"{_shown_name(p.name, lang)}{t('host.lobby.bot', lang) if p.bot else ''}"
                        f"{' ✓' if p.ready and not playing else ''}{'' if p.connected else t('host.lobby.away', lang)}")
        items.append(item)
    missing = total - len(by_seat)
    if missing > 0 and not playing:
        # a person (or a bot program) is seated: ``people`` of the table's lobby event
        person = (status or {}).get("people", sum(not p.bot for p in players)) > 0
        items.append(Text(tn("host.lobby.waiting_start" if start_hint and person else "host.lobby.waiting", missing,
                             lang)))
    return Packed(items)


def game_status(status: dict[str, Any], lang: str | None = None) -> str:
    """``game 2 of 3, round 4/8`` (``第 2/3 局，第 4/8 回合``), ``game 2: dealing`` or
    ``game 2 of 3: checking the deal`` from a table's status (:meth:`Table._status`)."""
    games = status.get("games")
    text = t("host.status.game_of" if games else "host.status.game", lang, game=status.get("game"), games=games)
    if status.get("phase") == "auditing":
        return text + t("host.status.auditing", lang)
    if status.get("phase") != "playing" or not status.get("round"):
        return text + t("host.status.dealing", lang)
    return text + t("host.status.round", lang, round=status["round"], rounds=status.get("rounds"))


def commands_line(lang: str | None) -> Any:
    """``commands     type `kick N` and Enter to free seat N …`` under the banner: the
    label in its column, the sentence beside it broken between its commands (``; ``,
    ``；``) before anywhere else, so ``kick N`` stays whole."""
    from rich.table import Table

    from jupai_net.client.layout import Packed

    grid = Table.grid(padding=(0, 1), pad_edge=False)
    grid.add_column(no_wrap=True, style="dim", min_width=12)
    grid.add_column()
    text = t("host.commands_help", lang)
    grid.add_row(t("host.label.commands", lang), Packed(text, sep="；" if "；" in text else "; ", style="dim"))
    return grid


def host_table_name(args: argparse.Namespace, lang: str | None = None) -> str:
    """The table's name: ``--table-name``, else ``<name>'s table`` (:func:`default_table_name`) in the run's
    language (``root 的牌桌``), made a valid announced name
    (:func:`~jupai_net.protocol.discovery.clean_name`; ``jupai table``, ``剧牌牌桌``, when nothing of
    it is left). The banner shows it, the LAN announcement carries it and every
    transcript the host saves records it (specs/host.md § 2)."""
    from jupai_net.protocol.discovery import DiscoveryError, clean_name

    try:
        return clean_name(getattr(args, "table_name", None) or default_table_name(lang))
    except DiscoveryError:
        return t("host.fallback_table", lang)  # nothing printable left of the name


def default_table_name(lang: str | None = None) -> str:
    """``<name>'s table`` / ``<name> 的牌桌`` (``lang``; default the run's), after the
    name a player of this person would have (:func:`jupai_net.config.default_name`:
    the settings' ``name``, else the login name), as ``jupai play`` names its table."""
    from jupai_net.config import default_name

    return t("host.default_table", lang, name=default_name())


def announced(args: argparse.Namespace, config: HostConfig) -> bool:
    """True when the table is announced on the LAN
    (:func:`~jupai_net.host.announce.should_announce`: not ``--no-announce``, not bound
    to a loopback address)."""
    from .announce import should_announce

    return should_announce(config.bind, getattr(args, "no_announce", False))


def run(args: argparse.Namespace) -> int:
    """Run ``jupai host``; returns the exit code."""
    import trio
    from jupai_net.printable import literal_console

    from jupai_net.rules import RuleError

    from .tls import load_identity

    console = literal_console()
    setup_logging(args.verbose)
    try:
        config = build_config(args)
    except (RuleError, ValueError) as exc:
        from jupai_net.rules_cli import problem_text

        print(f"jupai host: {problem_text(exc)}", file=sys.stderr)
        return 2
    try:
        identity = load_identity()
    except (OSError, ValueError) as exc:
        print(f"jupai host: {t('host.no_certificate', reason=exc)}", file=sys.stderr)
        return 2
    screen = HostScreen(console, quiet=args.quiet, games=config.games)
    try:
        stopped_by = trio.run(partial(serve, config, identity, screen, table_name=host_table_name(args),
                                      announce=announced(args, config)))
    except BaseException as exc:  # noqa: B036 - trio wraps Ctrl-C and OSError in exception groups
        if _find(exc, KeyboardInterrupt) is not None:  # a second Ctrl-C while stopping
            print(t("jupai.interrupted", prog="jupai host"), file=sys.stderr)
            return 130
        os_error = _find(exc, OSError)
        if os_error is None:
            raise
        print(f"jupai host: {t('host.cannot_listen', port=config.port, reason=listen_why(os_error))}",
              file=sys.stderr)
        return 3
    if stopped_by is not None:
        _log().warning("host stopped by %s", signal.Signals(stopped_by).name)
    screen.closing(config.transcript_dir, interrupted=stopped_by or False)
    return 128 + stopped_by if stopped_by is not None else 0


def listen_why(exc: OSError, lang: str | None = None) -> str:
    """Why the port cannot be opened, in the run's language (specs/host.md § 2: exit 3):
    in use, permission denied, no such address (``--bind``) from the catalog
    (``host.listen_why.*``); any other error in the system's own (English) words,
    marked as such in Chinese."""
    import errno

    key = {errno.EADDRINUSE: "in-use", errno.EACCES: "denied", errno.EPERM: "denied",
           errno.EADDRNOTAVAIL: "no-address"}.get(exc.errno or 0)
    if key is not None:
        return t(f"host.listen_why.{key}", lang)
    return t("host.listen_why.other", lang, reason=printable(exc.strerror or str(exc)))


#: host.log is rotated at this size, keeping this many old files (host.log.1 …): a
#: flood of bad connections cannot fill the disk (specs/host.md §9).
LOG_MAX_BYTES = 1024 * 1024
LOG_BACKUPS = 3


def log_file() -> Path:
    """Where ``jupai host`` logs when not ``--verbose``: ``<config dir>/host.log``."""
    from jupai_net.client.tls import config_dir

    return config_dir() / "host.log"


def setup_logging(verbose: int) -> None:
    """The terminal shows only the host's own lines: log records go to stderr only
    with ``-v`` (connections) / ``-vv`` (protocol details); otherwise warnings and
    errors are appended to :func:`log_file` (nowhere if it cannot be opened), rotated
    at :data:`LOG_MAX_BYTES` with :data:`LOG_BACKUPS` old files kept."""
    import logging
    import logging.handlers

    fmt = "%(asctime)s %(name)s %(levelname)s %(message)s"
    if verbose > 0:
        logging.basicConfig(level=logging.INFO if verbose == 1 else logging.DEBUG, format=fmt)
        return
    root = logging.getLogger()
    root.setLevel(logging.WARNING)
    try:
        path = log_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=LOG_MAX_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8", delay=True)
        handler.setFormatter(logging.Formatter(fmt))
    except OSError:
        handler = logging.NullHandler()
    root.addHandler(handler)


def _find(exc: BaseException, kind: type[BaseException]) -> Any:
    """``exc`` itself or the first ``kind`` inside (nested) exception groups, else None."""
    if isinstance(exc, kind):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _find(inner, kind)
            if found is not None:
                return found
    return None


async def serve(config: HostConfig, identity: HostIdentity, screen: HostScreen, *,
                signals: bool = True, table_name: str | None = None, commands: bool = True,
                announce: bool = True) -> int | None:
    """Run the server with ``screen`` as observer; print the banner once listening.

    With ``signals`` (the main thread only), the first Ctrl-C (SIGINT), SIGTERM or SIGHUP
    (the host's terminal or SSH session closed) stops the host cleanly
    (:meth:`HostServer.stop`: a running game is abandoned with :func:`stop_reason`, the
    transcripts are saved, every client gets ``bye``); a second one raises
    ``KeyboardInterrupt``. With ``commands``, host commands are read from stdin
    (:func:`read_commands`). Returns the number of the signal that stopped it
    (``None``: the games were played). ``table_name`` is the table's name (banner,
    transcripts); with ``announce`` too the table is announced on the LAN under that
    name (:class:`~jupai_net.host.announce.Announcer`) while the host runs."""
    import trio
    from rich.text import Text

    from .server import HostServer

    updates_in, updates_out = trio.open_memory_channel(64)

    announce = announce and table_name is not None

    def observe(table_id: int, kind: str, data: dict[str, Any]) -> None:
        screen(table_id, kind, data)
        if announce:
            announce_update(updates_in, kind, data, config.table.rules.players)

    server = HostServer(config, identity, observer=observe)
    server.table_name = table_name
    takes_commands = commands and stdin_takes_commands()
    screen.commands = takes_commands
    stopped: int | None = None
    with trio.open_signal_receiver(*STOP_SIGNALS) if signals else contextlib.nullcontext() as received:
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            screen.banner(identity, server, config.table.rules, config.table.bots, config.table.bot, table_name,
                          announced=announce)
            announcer = announcer_for(table_name, server, identity, config) if announce else None  # type: ignore[arg-type]
            if announcer is not None:
                nursery.start_soon(announcer.run, updates_out)
            for table in server.tables:  # the empty seats waiting for players
                screen(table.table_id, "lobby", {"players": table.players(), "seats": table.rules.players})

            async def watch() -> None:
                nonlocal stopped
                async for signum in received:
                    if stopped is not None:
                        raise KeyboardInterrupt
                    stopped = signum
                    _log().info("stopping: %s", signal.Signals(signum).name)
                    phases = {table.phase for table in server.tables}
                    screen.stopping(running=bool(phases & {"seeding", "playing"}), auditing="auditing" in phases,
                                    signum=signum)
                    server.stop(stop_reason(signum))

            if signals:
                nursery.start_soon(watch)
            if takes_commands:
                if not screen.quiet:
                    screen.print(commands_line(screen.lang))
                nursery.start_soon(read_commands, server, screen)
            await server.closed.wait()
            nursery.cancel_scope.cancel()
    return stopped


def banner_addresses(bind: str) -> list[Any]:
    """Every address the host listens on, as the banner lists them
    (:class:`~jupai_net.host.announce.Listening`): with ``--bind`` that address alone,
    else every address of every interface (``0.0.0.0``: IPv4 only, ``::``: IPv6 only,
    none: both, as trio listens on both)."""
    import ipaddress

    from .announce import Listening, listen_addresses

    if bind and bind not in ("0.0.0.0", "::"):
        try:
            addr = ipaddress.ip_address(bind.split("%", 1)[0])
        except ValueError:
            return [Listening(bind, "loopback" if bind == "localhost" else "lan")]
        return [Listening(bind, "loopback" if addr.is_loopback else "link-local" if addr.is_link_local else "lan")]
    return listen_addresses(families={"0.0.0.0": "4", "::": "6"}.get(bind, "46"))


def reachable_addresses(bind: str) -> list[str]:
    """The addresses the LAN announcement names: the ``--bind`` address, or every IPv4
    LAN address of this machine when it listens on all of them
    (:func:`~jupai_net.host.announce.lan_addresses`); [] when it has none, or listens on
    ``::`` (IPv6 only): then the table is not announced (the banner says whether other
    machines can still join by an IPv6 address, :func:`banner_addresses`)."""
    from .announce import lan_addresses

    if bind == "::":
        return []  # IPv6 only (trio's listener is V6ONLY): no IPv4 address answers, none to announce
    return [bind] if bind and bind != "0.0.0.0" else lan_addresses()


def announcer_for(table_name: str, server: HostServer, identity: HostIdentity, config: HostConfig) -> Any:
    """The :class:`~jupai_net.host.announce.Announcer` of this host's table; None when
    the machine has no LAN address (an announcement would name an address nobody on
    the LAN can reach; the banner says the table is not announced)."""
    from jupai_net.protocol import PROTOCOL_VERSION
    from jupai_net.protocol.discovery import TableAd, code_prefix

    from .announce import Announcer

    seats = config.table.rules.players
    addrs = reachable_addresses(config.bind)
    if not addrs:
        _log().warning("not announcing %r on the LAN: this machine has no LAN address", table_name)
        return None
    ad = TableAd(table_name, tuple(addrs), server.port, seats, seats - config.table.bots,
                 PROTOCOL_VERSION, "lobby", code_prefix(identity.join_code))
    return Announcer(ad)


def announce_update(channel: Any, kind: str, data: dict[str, Any], seats: int) -> None:
    """Queue ``(free seats, state)`` for the announcer after a table event (dropped when
    the queue is full: the next event carries the news)."""
    import trio

    if kind == "lobby":  # seats a newcomer may take: empty ones and stand-in bots' (between games)
        free = data.get("free")
        update = (free if isinstance(free, int) else max(0, (data.get("seats") or seats) - len(data["players"])),
                  "lobby")
    elif kind in ("start", "deal"):
        update = (0, "playing")
    else:
        return
    try:
        channel.send_nowait(update)
    except (trio.WouldBlock, trio.ClosedResourceError):
        pass


#: What the host can type while it serves (shown under the banner).


def stdin_takes_commands() -> bool:
    """True if ``jupai host`` should read commands from stdin: a pipe or file, or a
    terminal whose foreground this process is in (reading a terminal from the
    background would stop the process with SIGTTIN)."""
    stdin = sys.stdin
    if stdin is None:
        return False
    try:
        fd = stdin.fileno()
        if os.isatty(fd):
            return os.tcgetpgrp(fd) == os.getpgrp()
    except (OSError, ValueError, AttributeError):
        return False
    return True


def host_command(server: Any, line: str, notices: bool = False) -> str | None:
    """Carry out one line typed at the host and return what to print (``None`` for an
    empty line): ``start`` (or ``/start``, ``开始``): the host's bots take the empty
    seats and the game starts when everyone seated is ready
    (:meth:`HostServer.fill_with_bots`); ``kick N``: remove the player of seat N
    (:meth:`HostServer.kick`; ``None`` when ``notices``, the screen showing the
    table's notices: its ``player-left`` notice already said it, never twice);
    ``help``. Every answer in the run's language (specs/host.md § Console)."""
    words = line.strip().lstrip("/").split()
    if not words:
        return None
    if words[0].lower() in ("start", "开始") and len(words) == 1:
        try:
            seats = server.fill_with_bots()
        except ValueError as exc:
            return t(f"host.start.{exc}") if f"host.start.{exc}" in catalog() else str(exc)
        return t("host.started", seats=t("names.sep").join(str(s) for s in seats))
    if words[0].lower() == "kick" and len(words) == 2 and words[1].isdecimal():
        from .table import KickRefused

        seat = int(words[1])
        try:
            name = server.kick(seat)
        except KickRefused as exc:
            return t(f"host.cannot_kick.{exc.code}", **exc.fields)
        from jupai_net.messages import current_lang

        return None if notices else t("host.kicked", name=printable(_shown_name(name, current_lang())), seat=seat)
    if words[0].lower() in ("help", "?", "帮助"):
        return t("host.commands_help")
    return t("host.unknown_command", line=repr(line.strip()[:40]), help=t("host.commands_help"))


async def read_commands(server: Any, screen: HostScreen, readline: Any = None) -> None:
    """Read host commands line by line (``readline``, default ``sys.stdin.readline``, in
    a worker thread) until end of input, printing each answer on the host screen."""
    import trio
    from rich.text import Text

    readline = readline or sys.stdin.readline
    while True:
        try:
            line = await trio.to_thread.run_sync(readline, abandon_on_cancel=True)
        except (OSError, ValueError, UnicodeDecodeError):
            return
        if not line:
            return  # end of input: no more commands
        reply, held = None, []
        try:
            with screen.hold() as held:  # what the command makes the table say follows its answer
                reply = host_command(server, line, notices=not (screen.quiet or screen.closed))
        finally:
            if reply:
                screen.print(Text(reply, style="bold"))  # a Text: player names are not markup
            for args, kw in held:
                screen.print(*args, **kw)
