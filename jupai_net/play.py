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
import logging
import os
import sys
from typing import Any

import trio

from .actions import Action
from .bots import BOTS
from .rules import RuleError, RuleSet, load_rules

log = logging.getLogger("jupai.play")


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``play`` subcommand to an argparse ``subparsers`` object; sets ``func=run``."""
    p = subparsers.add_parser(
        "play",
        help="play a game against bots in this terminal (local host + bots + you)",
        description="Start a local host on 127.0.0.1 with bots in the other seats and play the remaining seat "
        "here: type the number of a move. The deal is commit-reveal fair and checked at the end.",
    )
    p.add_argument("--seats", type=int, default=None, metavar="P", help="players at the table, 2-6 (default 4)")
    p.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    p.add_argument("--opponents", default="greedy", choices=sorted(BOTS), help="which bot the opponents are (default greedy)")
    p.add_argument("--bot", default=None, choices=sorted(BOTS), help="let this bot play your seat too (a demo game)")
    p.add_argument("--rounds", type=int, default=None, metavar="N", help="rounds per game (default: the rules' default)")
    p.add_argument("--rules", default=None, metavar="FILE", help="TOML file of rule settings")
    p.add_argument("--turn-timeout", type=float, default=0.0, metavar="S",
                   help="seconds per turn before the default move is played for you (default 0 = no limit)")
    p.add_argument("--bot-delay", type=float, default=None, metavar="S",
                   help="seconds each bot waits before moving (default 0.8, or 0 with --bot)")
    p.add_argument("--lang", choices=("en", "zh"), default=None, help="language (default: from the locale)")
    p.add_argument("--transcript", default=None, metavar="FILE", help="where to save your transcript")
    p.add_argument("--plain", action="store_true", help="use the plain line-by-line player instead of the rich screen")
    p.set_defaults(func=run)
    return p


def _default_lang() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


class PlainPlayer:
    """Minimal terminal player: prints the table as lines and reads a number from
    standard input (used with ``--plain`` or when the rich UI is unavailable)."""

    def __init__(self, out: Any = None) -> None:
        self.out = out or sys.stdout
        self.seen_events = 0
        self.control: Any = None

    def attach(self, control: Any) -> None:
        """Keep the session control (``/quit`` leaves, ``say TEXT`` chats)."""
        self.control = control

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def on_update(self, view: Any) -> None:
        """Print new events, notices and chat as single lines."""
        from .cards import card_name

        if view.change == "statement" and view.events:
            for ev in view.events[-1:]:
                self._print("  " + ", ".join(f"{k}={v}" for k, v in ev.items()))
        elif view.change in ("notice", "reject", "chat", "error") :
            if view.change == "chat" and view.chat:
                c = view.chat[-1]
                self._print(f"[chat] {c.name}: {c.text}")
            elif view.notices:
                n = view.notices[-1]
                self._print(f"[{n.code}] {n.text}")
        elif view.change == "end" and view.result:
            names = view.result.get("names", [])
            self._print("game over: " + ", ".join(f"{i + 1}. {names[s] if s < len(names) else s}"
                                                  for i, s in enumerate(view.result.get("ranking", []))))
        elif view.change == "sync" and view.observation:
            obs = view.observation
            hand = " ".join(card_name(c) for c in obs["hand"])
            self._print(f"round {obs['round']}/{obs['rounds']} {obs['round_type']} R={obs['R']} · "
                        f"to move: seat {obs['to_move']} · your hand: {hand}")

    async def choose(self, view: Any) -> Action:
        """Print the numbered legal actions and read a number (``/quit`` leaves)."""
        from .client.render import describe_action

        for k, a in enumerate(view.legal, 1):
            self._print(f"  {k:>2}. {describe_action(a, view.observation or {}, view.names)}")
        while True:
            line = await trio.to_thread.run_sync(_read_line, abandon_on_cancel=True)
            if line is None or line.strip() in ("/quit", "quit"):
                if self.control is not None:
                    self.control.leave()
                await trio.sleep_forever()
            text = line.strip()
            if text.startswith(("say ", "/chat ")) and self.control is not None:
                try:
                    self.control.say(text.split(" ", 1)[1])
                except (ValueError, trio.WouldBlock) as exc:
                    self._print(f"chat not sent: {exc}")
                continue
            if text.isdecimal() and 1 <= int(text) <= len(view.legal):
                return view.legal[int(text) - 1]
            self._print(f"type a number 1–{len(view.legal)}")

    def on_end(self, result: Any) -> None:
        """Nothing: :func:`run` prints the verdict."""


def _read_line() -> str | None:
    try:
        return input("> ")
    except EOFError:
        return None


def _rules(args: argparse.Namespace) -> RuleSet:
    if args.rules:
        return load_rules(args.rules, players=args.seats, rounds=args.rounds)
    return RuleSet(players=args.seats if args.seats is not None else 4, rounds=args.rounds)


def run(args: argparse.Namespace) -> int:
    """Run ``jupai play``; returns the exit code."""
    logging.basicConfig(level=logging.ERROR, format="%(name)s %(levelname)s %(message)s")
    try:
        rules = _rules(args)
    except RuleError as exc:
        print(f"jupai play: {exc}", file=sys.stderr)
        return 2
    try:
        result = trio.run(play, args, rules)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0 if result is not None and result.status == "finished" and result.verdict is not None and result.verdict.ok else 1


async def play(args: argparse.Namespace, rules: RuleSet) -> Any:
    """Host on a free loopback port with ``rules.players - 1`` bots and play the last
    seat here; print the verdict. Returns the :class:`SessionResult`."""
    from rich.console import Console

    from .client.bot import BotPlayer
    from .client.session import SessionControl, run_session
    from .host.cli import HostScreen
    from .host.server import HostConfig, HostServer
    from .host.table import TableConfig
    from .host.tls import ephemeral_identity, load_identity

    console = Console(highlight=False)
    lang = args.lang or _default_lang()
    from .client.cli import default_name

    name = args.name or default_name()
    demo = args.bot is not None
    delay = args.bot_delay if args.bot_delay is not None else (0.0 if demo else 0.8)
    timeout = args.turn_timeout if args.turn_timeout and args.turn_timeout > 0 else None
    try:
        identity = load_identity()
    except (OSError, ValueError):
        identity = ephemeral_identity()
    table = TableConfig(rules=rules, bots=rules.players - 1, bot=args.opponents, turn_timeout=timeout,
                        bot_delay=max(0.0, delay), seed_timeout=60.0)
    config = HostConfig(bind="127.0.0.1", port=0, table=table, games=1, idle_timeout=3600.0)
    control = SessionControl()
    observer = None
    input_loop = None
    if demo:
        player: Any = BotPlayer(args.bot)
        observer = HostScreen(console)
    elif args.plain:
        player = PlainPlayer()
    else:
        try:
            from .client.ui import TerminalPlayer
        except ImportError:
            player = PlainPlayer()
        else:
            player = TerminalPlayer(lang=lang)

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

    server = HostServer(config, identity, observer=observer)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        if input_loop is not None:
            nursery.start_soon(input_loop)

            async def quit_watch() -> None:
                await player.quit_requested.wait()
                control.leave()

            nursery.start_soon(quit_watch)
        result = await run_session("127.0.0.1", server.port, name=name, player=player, check_fingerprint=expected,
                                   transcript_path=args.transcript, lang=lang, control=control, save_resume=False)
        nursery.cancel_scope.cancel()
    _report(console, result)
    return result


def _report(console: Any, result: Any) -> None:
    """Print the ranking, the fairness verdict and where the transcript is."""
    if result.ranking:
        names = result.result.get("names", []) if result.result else []
        places = ", ".join(f"{i + 1}. {names[s] if s < len(names) and names[s] else f'seat {s}'}"
                           for i, s in enumerate(result.ranking))
        console.print(f"[bold]final ranking[/bold]: {places}")
    elif result.status != "finished":
        console.print(f"[bold yellow]game not finished[/bold yellow] ({result.status}"
                      f"{': ' + result.error[1] if result.error else ''})")
    if result.verdict is not None:
        style = "bold green" if result.verdict.ok else "bold red"
        console.print(f"[{style}]fairness: {result.verdict.status}[/{style}] — {result.verdict.reason}")
    if result.transcript_path is not None:
        console.print(f"transcript: {result.transcript_path}  (check again with `jupai verify {result.transcript_path}`)")
