"""``jupai host``: serve a table on the LAN and show it as a spectator (specs/host.md).

``jupai host [--bind ADDR] [--port N] [--seats P] [--bots K] [--rounds N]
[--rules FILE] [--turn-timeout S] [--transcript-dir DIR] [--games N] [--bot NAME]``

Prints the address(es) to join and the join code (the short form of the TLS
certificate's SHA-256 fingerprint), then the lobby and every public event of the
game. Exit codes: 0 after the games were played, 2 bad arguments or rules file,
3 the port cannot be opened, 130 interrupted.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

import trio

from jupai_net.bots import BOTS
from jupai_net.rules import RuleError, RuleSet, load_rules

from .server import DEFAULT_PORT, HostConfig, HostServer
from .table import TableConfig, describe_action
from .tls import HostIdentity, load_identity, local_addresses

log = logging.getLogger("jupai.host")


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``host`` subcommand to an argparse ``subparsers`` object; sets ``func=run``."""
    p = subparsers.add_parser(
        "host",
        help="host a table on the local network (others join with `jupai join`)",
        description="Host a 剧牌 table: TLS on the LAN, commit-reveal fair dealing, bots for empty seats. "
        "Shows the address and join code to give to the players, then the game as a spectator.",
    )
    p.add_argument("--bind", default="", metavar="ADDR", help="address to listen on (default: all interfaces)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N", help=f"TCP port (default {DEFAULT_PORT}; 0 = any free port)")
    p.add_argument("--seats", type=int, default=None, metavar="P", help="seats at the table, 2-6 (default 4, or the rules file's)")
    p.add_argument("--bots", type=int, default=0, metavar="K", help="seats the host fills with bots (default 0)")
    p.add_argument("--bot", default="greedy", choices=sorted(BOTS), help="which bot plays the bot seats (default greedy)")
    p.add_argument("--rounds", type=int, default=None, metavar="N", help="rounds per game (default: the rules' default)")
    p.add_argument("--rules", default=None, metavar="FILE", help="TOML file of rule settings (see `jupai rules`)")
    p.add_argument("--turn-timeout", type=float, default=60.0, metavar="S",
                   help="seconds a player has per turn before the host plays a default move (default 60; 0 = no limit)")
    p.add_argument("--bot-delay", type=float, default=0.5, metavar="S", help="seconds a host bot waits before moving (default 0.5)")
    p.add_argument("--games", type=int, default=1, metavar="N", help="games to host before exiting (default 1; 0 = forever)")
    p.add_argument("--transcript-dir", default=None, metavar="DIR",
                   help="also save every seat's transcript of each game in DIR (check with `jupai verify`)")
    p.add_argument("--quiet", action="store_true", help="print only the join information and the results")
    p.add_argument("-v", "--verbose", action="count", default=0, help="log connections (-v) and protocol details (-vv)")
    p.set_defaults(func=run)
    return p


def build_config(args: argparse.Namespace) -> HostConfig:
    """The :class:`HostConfig` for parsed ``jupai host`` arguments. Raises
    :class:`~jupai_net.rules.RuleError` / ``ValueError`` with a clear message."""
    if args.rules:
        rules = load_rules(args.rules, players=args.seats, rounds=args.rounds)
    else:
        rules = RuleSet(players=args.seats if args.seats is not None else 4, rounds=args.rounds)
    timeout = args.turn_timeout if args.turn_timeout and args.turn_timeout > 0 else None
    table = TableConfig(rules=rules, bots=args.bots, bot=args.bot, turn_timeout=timeout, bot_delay=max(0.0, args.bot_delay))
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0..65535, got {args.port}")
    return HostConfig(
        bind=args.bind, port=args.port, table=table, games=args.games if args.games > 0 else None,
        transcript_dir=Path(args.transcript_dir) if args.transcript_dir else None,
    )


class HostScreen:
    """The host's terminal: join information, lobby, public events, results.

    Uses :func:`jupai_net.client.render.describe_event` / ``render_table`` when the
    client renderer is installed, else plain lines. ``console`` is a rich console.
    """

    def __init__(self, console: Any, *, quiet: bool = False):
        self.console = console
        self.quiet = quiet
        self.names: list[str | None] = []
        try:
            from jupai_net.client import render
        except ImportError:  # pragma: no cover - the renderer ships with the package
            render = None  # type: ignore[assignment]
        self.render = render

    def banner(self, identity: HostIdentity, server: HostServer, rules: RuleSet, bots: int) -> None:
        """The join information: addresses, join code, fingerprints, table size."""
        from rich.panel import Panel
        from rich.text import Text

        port = server.port
        bind = server.config.bind
        addrs = [bind] if bind and bind not in ("0.0.0.0", "::") else local_addresses()
        text = Text()
        text.append(f"剧牌 table for {rules.players}", style="bold")
        text.append(f" ({bots} bot{'s' if bots != 1 else ''}), {rules.rounds} rounds\n")
        text.append("join code    ", style="dim")
        text.append(identity.join_code + "\n", style="bold green")
        for a in addrs:
            host = f"[{a}]" if ":" in a else a
            text.append("join with    ", style="dim")
            text.append(f"jupai join {host}:{port} --code {identity.join_code}\n", style="bold")
        text.append("certificate  ", style="dim")
        fp = identity.fingerprint
        text.append("sha256 " + " ".join(fp[i:i + 16] for i in range(0, len(fp), 16)) + "\n")
        from jupai_net.fairness import key_fingerprint, public_key_bytes

        text.append("host key     ", style="dim")
        text.append(key_fingerprint(public_key_bytes(identity.signing_key)))
        self.console.print(Panel(text, title="jupai host", title_align="left", border_style="green"))

    def __call__(self, table_id: int, kind: str, data: dict[str, Any]) -> None:
        """Table observer: print one public event."""
        try:
            self._show(kind, data)
        except Exception:  # noqa: BLE001 - the screen must never disturb the game
            log.exception("host screen failed on %s", kind)

    def _names(self) -> dict[int, str]:
        return {s: n for s, n in enumerate(self.names) if n}

    def _show(self, kind: str, data: dict[str, Any]) -> None:
        out = self.console.print
        if kind == "lobby":
            self.names = [None] * (max((p.seat for p in data["players"]), default=-1) + 1)
            for p in data["players"]:
                self.names[p.seat] = p.name
            if not self.quiet:
                seats = ", ".join(
                    f"{p.seat}:{p.name}{' (bot)' if p.bot else ''}{' ✓' if p.ready else ''}{'' if p.connected else ' (away)'}"
                    for p in data["players"]
                )
                out(f"[dim]lobby[/dim] {seats or '(empty)'}", highlight=False)
        elif kind == "start":
            self.names = list(data["names"])
            out(f"[bold]game {data['game_id'].hex()[:12]} starts[/bold] · host key {data['host_key']}", highlight=False)
        elif kind == "deal" and not self.quiet:
            if self.render is not None:
                out(self.render.render_table(data["observation"], names=self._names()))
        elif kind == "step" and not self.quiet:
            for ev in data["events"]:
                line = self.render.describe_event(ev, self._names()) if self.render is not None else None
                if line is None and ev.get("kind") not in ("deal",):
                    line = f"seat {data['actor']}: {describe_action(data['action'])}"
                if line:
                    out(line, highlight=False)
        elif kind == "notice" and not self.quiet:
            out(f"[blue]notice[/blue] {data['text']}", highlight=False)
        elif kind == "chat":
            out(f"[magenta]{data['name']}[/magenta]: {data['text']}", highlight=False)
        elif kind == "end":
            res = data["result"]
            places = ", ".join(f"{i + 1}. {res['names'][s] or f'seat {s}'} ({res['cards_left'][s]} left)"
                               for i, s in enumerate(res["ranking"]))
            out(f"[bold green]game over[/bold green] ({res['reason']}): {places}", highlight=False)
            out("[dim]the host seed is revealed; every player can now verify the deal[/dim]")
        elif kind == "abandon":
            out(f"[bold red]game abandoned[/bold red]: {data['reason']}", highlight=False)


def run(args: argparse.Namespace) -> int:
    """Run ``jupai host``; returns the exit code."""
    from rich.console import Console

    console = Console(highlight=False)
    level = logging.WARNING if args.verbose == 0 else logging.INFO if args.verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        config = build_config(args)
    except (RuleError, ValueError) as exc:
        print(f"jupai host: {exc}", file=sys.stderr)
        return 2
    try:
        identity = load_identity()
    except (OSError, ValueError) as exc:
        print(f"jupai host: cannot load or make the host certificate: {exc}", file=sys.stderr)
        return 2
    screen = HostScreen(console, quiet=args.quiet)
    try:
        trio.run(serve, config, identity, screen)
    except (OSError, BaseExceptionGroup) as exc:
        os_error = _find(exc, OSError)
        if os_error is None:
            raise
        print(f"jupai host: cannot listen on port {config.port}: {os_error.strerror or os_error}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


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


async def serve(config: HostConfig, identity: HostIdentity, screen: HostScreen) -> None:
    """Run the server with ``screen`` as observer; print the banner once listening."""
    server = HostServer(config, identity, observer=screen)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        screen.banner(identity, server, config.table.rules, config.table.bots)
