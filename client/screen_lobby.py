"""The lobby screen before the deal (specs/client.md § Lobby): host, join code, who
is seated, what is happening."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from jupai_net.printable import printable

from .card_words import display_name, is_you
from .i18n import t, tn
from .layout import Wrapped, lines_panel
from .status_words import ChatLine, chat_line_text, notice_text


def render_lobby(players: Sequence[Any], *, seat: int | None = None, phase: str = "lobby", host: str = "",
                 port: int = 0, join_code: str = "", total: int | None = None, chat: Sequence[ChatLine] = (),
                 notices: Sequence[Any] = (), lang: str = "en", dealer: str | None = None,
                 game_dealer: str | None = None, table: str = "") -> RenderableType:
    """The screen before the deal: the table's name (``table``, from the host's
    ``welcome``; ``""``: unknown, the address names it), host address and join code, who is seated (ready,
    bot, away), the scheme of the next game (``dealer``: ``"blind"``/``"trusted"``,
    from the host's ``welcome``/``lobby``; None: not known yet) and what is happening
    (connecting, waiting, the deal: ``game_dealer``, the scheme of the game being dealt
    from its ``start``, says a fair shuffle (trusted) or a blind deal (``"blind"``)).
    ``players`` are the lobby entries (objects or mappings with ``seat``, ``name``,
    ``ready``, ``bot``, ``connected``)."""
    def field_of(p: Any, name: str, default: Any = None) -> Any:
        return p.get(name, default) if isinstance(p, Mapping) else getattr(p, name, default)

    rows = Text()
    entries = sorted((p for p in players if p is not None), key=lambda p: field_of(p, "seat", 0))
    by_seat = {field_of(p, "seat"): p for p in entries}
    order: list[Any] = list(entries)
    if total:  # every seat, empty ones included (as ClientView.seats: None = empty)
        order = [by_seat.get(s, s) for s in range(total)]
    for k, p in enumerate(order):
        if k:
            rows.append("\n")
        if isinstance(p, int):
            rows.append(t("seat", lang, n=p), style="dim")
            rows.append("  " + t("lobby.open", lang), style="dim")
            continue
        s = field_of(p, "seat")
        name = display_name(field_of(p, "name") or "", lang)
        tags = [t("lobby.bot", lang)] if field_of(p, "bot") else []
        if field_of(p, "ready"):
            tags.append(t("lobby.ready", lang))
        if not field_of(p, "connected", True):
            tags.append(t("lobby.away", lang))
        if s == seat:
            plain = not name or is_you(name)
            label = t("seat.you", lang, n=s) if plain else t("seat.you_named", lang, n=s, name=name)
        else:
            label = t("seat.named", lang, n=s, name=name) if name else t("seat", lang, n=s)
        rows.append(label, style="bold cyan" if s == seat else "bold")
        if tags:
            rows.append("  " + " · ".join(tags), style="dim")
    if not order:
        rows.append(t("lobby.empty", lang), style="dim")
    head = Text()
    if table:  # a peer's text: appended as plain text (never markup), checked printable by the protocol
        head.append(printable(table) + "\n", style="bold")
    if host:
        head.append(t("lobby.host", lang, host=host, port=port, code=join_code or "?") + "\n", style="dim")
    if total:
        head.append(t("lobby.seats", lang, taken=len(entries), total=total))
        if len(entries) < total and phase in ("lobby", "connecting"):
            head.append(" · " + tn("lobby.waiting", total - len(entries), lang), style="yellow")
        head.append("\n")
    if dealer in ("blind", "trusted"):
        head.append(t(f"lobby.dealer.{dealer}", lang) + "\n", style="bold" if dealer == "blind" else "yellow")
    parts: list[RenderableType] = [
        Panel(Group(head, rows), title=t("app.title", lang) + " · " + t("lobby.title", lang), title_align="left",
              border_style="bold"),
        # a Chinese sentence wraps where the line is full, not at its ASCII spaces
        Wrapped(lobby_phase_text(phase, game_dealer, entries, total, lang, field_of), style="bold"),
    ]
    if notices:
        parts.append(lines_panel([notice_text(n, lang) for n in notices][-3:], t("notices.title", lang), "blue"))
    if chat:
        parts.append(lines_panel([chat_line_text(c, lang, seat) for c in chat][-4:], t("chat.title", lang), "magenta"))
    return Group(*parts)


def lobby_phase_text(phase: str, game_dealer: str | None, entries: Sequence[Any], total: int | None, lang: str,
                     field_of: Any) -> str:
    """The lobby screen's "what is happening" line in ``lang``: in the lobby it says who
    starts the game (specs/client.md § Lobby; the host's rule, specs/host.md § Console):
    with empty seats, that it starts when all ``total`` seats are taken or when the host
    types ``start`` (its bots take the empty seats); with every seat taken, that it
    starts when everyone is ready, naming who is not yet; other phases: :func:`phase_key`."""
    if phase != "lobby" or not total:
        return t(phase_key(phase, game_dealer), lang)
    if len(entries) < total:
        return t("phase.lobby.seats", lang, total=total)
    waiting = [display_name(field_of(p, "name") or "", lang) or t("seat", lang, n=field_of(p, "seat", 0))
               for p in entries if not field_of(p, "bot") and not field_of(p, "ready")]
    if not waiting:
        return t("phase.lobby", lang)
    from jupai_net.messages import names_text

    return t("phase.lobby.ready", lang, names=names_text(waiting, lang))


def phase_key(phase: str, game_dealer: str | None = None) -> str:
    """The catalog key of the lobby screen's "what is happening" line for ``phase``
    (``connecting``, ``lobby``, ``seeding``, ``playing``, ``over``; anything else: the
    lobby's); while a dealer-blind game (``game_dealer == "blind"``) is dealt, the blind
    deal's words, not the trusted scheme's commit-reveal (specs/client.md § Lobby)."""
    if phase == "seeding" and game_dealer == "blind":
        return "phase.seeding.blind"
    return f"phase.{phase}" if phase in ("connecting", "lobby", "seeding", "playing", "over") else "phase.lobby"
