"""Pure rendering of a seat's view (or the spectator view) as rich renderables
(specs/client.md § What the player sees).

Input is what the host sends: the engine's ``observation(seat)`` dict
(jupai_net.engine.GameState.observation, plain data after msgpack), the legal actions
of a prompt, chat lines, notices and the seconds left on the turn timer. No IO here:
every function returns a string or a rich renderable; :func:`to_text` renders one to
plain text (for tests and transcripts) without touching the terminal.

Entry points:

* :func:`render_view` — the player's screen: header, hand, equipment, players,
  pending contest, last outcomes with formulas, numbered legal actions, timer, chat.
* :func:`render_table` — the spectator view (``observation(None)``) for the host screen.
* :func:`describe_action` / :func:`describe_event` — one action / log event in words.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.cards import SMALL_JOKER, card_name

from .i18n import MESSAGES, t

Names = Mapping[int, str] | Sequence[str] | None
Obs = Mapping[str, Any]

#: A chat line: a plain string, ``(name, text)``, or a mapping with ``name``/``text``
#: (and optionally ``seat``), as in the protocol's ``chat`` message.
ChatLine = Any

_TYPE_STYLE = {"attack": "bold red", "defense": "bold blue", "supply": "bold green", "discard": "bold magenta"}


# --------------------------------------------------------------------- small pieces
def card_text(card: int, lang: str = "en") -> str:
    """Display name of one card id: ``10♥``, ``K♠``; the small joker is ``JK`` / ``小王``."""
    return t("card.joker", lang) if card == SMALL_JOKER else card_name(card)


def cards_text(cards: Iterable[int], lang: str = "en") -> str:
    """Several cards joined with `` + `` (``3♠ + 5♥``); no card gives ``no card`` / ``无牌``."""
    names = [card_text(c, lang) for c in cards]
    return " + ".join(names) if names else t("cards.none", lang)


def _name_of(names: Names, seat: int) -> str | None:
    if names is None:
        return None
    if isinstance(names, Mapping):
        return names.get(seat) or names.get(str(seat))  # type: ignore[call-overload]
    return names[seat] if 0 <= seat < len(names) and names[seat] else None


def seat_label(seat: int | None, names: Names = None, me: int | None = None, lang: str = "en") -> str:
    """``seat 2``, ``seat 2 (Alice)``, or ``seat 2 (you)`` for the viewer's own seat
    (``2号位`` … in Chinese). ``None`` (no seat) gives an empty string."""
    if seat is None:
        return ""
    if me is not None and seat == me:
        return t("seat.you", lang, n=seat)
    name = _name_of(names, seat)
    return t("seat.named", lang, n=seat, name=name) if name else t("seat", lang, n=seat)


def identity_text(letter: str | None, value: int | None = None, lang: str = "en") -> str:
    """Identity in words: ``landlord (I=14)`` / ``地主（身份值 14）``; None → ``hidden``."""
    if letter is None:
        return t("identity.hidden", lang)
    name = t(f"identity.{letter}", lang)
    return name if value is None else t("identity.valued", lang, identity=name, value=value)


def round_type_text(kind: str, lang: str = "en") -> str:
    """Round type in words (进攻/防守/补给/丢弃); empty when unknown."""
    return t(f"round.{kind}", lang) if kind in _TYPE_STYLE else kind


def equipment_text(eq: Mapping[str, Any] | None, lang: str = "en", rearm_from: int | None = None,
                   short: bool = False) -> str:
    """One equipment as far as it is visible: ``mass 6♠ + weapon 8♥ · fine weapon · 2 use(s)
    left · face-down`` (``short``: ``6♠+8♥ fine · 2 left · face-down``); hidden cards give
    ``face-down, not shown``; None → ``no equipment`` (plus the round from which a new
    pair may be drawn, if ``rearm_from`` is given)."""
    if eq is None:
        text = t("equip.none", lang)
        if rearm_from is not None:
            text += " · " + t("equip.rearm", lang, n=rearm_from)
        return text
    face = t("face.up" if eq.get("face_up") else "face.down", lang)
    if eq.get("mass") is None:
        return t("equip.hidden", lang, face=face)
    weapon = "?" if eq.get("weapon") is None else card_text(eq["weapon"], lang)
    quality = t(f"quality.{eq['quality']}", lang) if eq.get("quality") else "?"
    uses = "?" if eq.get("uses_left") is None else eq["uses_left"]
    return t("equip.short" if short else "equip.desc", lang, mass=card_text(eq["mass"], lang), weapon=weapon,
             quality=quality, uses=uses, face=face)


def _weapon(flag: bool, lang: str) -> str:
    return t("plus_weapon", lang) if flag else ""


def _recovered_of(obs: Obs, seat: int | None) -> set[int]:
    if seat is None:
        return set()
    for p in obs.get("players", []):
        if p.get("seat") == seat:
            return set(p.get("recovered") or [])
    return set()


# ------------------------------------------------------------------------ actions
def _action_fields(action: Action | Mapping[str, Any]) -> Action:
    if isinstance(action, Action):
        return action
    return Action.from_wire(dict(action))


def describe_action(action: Action | Mapping[str, Any], obs: Obs, names: Names = None, lang: str = "en") -> str:
    """One legal action in words, from the acting seat's point of view, e.g.
    ``attack seat 2 with 10♥ + weapon`` or ``supply: discard 7♣ and recovered 3♠``."""
    a = _action_fields(action)
    me = obs.get("seat")
    target = seat_label(a.target, names, me, lang)
    cards = cards_text(a.cards, lang)
    weapon = _weapon(a.weapon, lang)
    if a.kind == A.ATTACK:
        return t("act.attack", lang, target=target, cards=cards, weapon=weapon)
    if a.kind == A.DEFENSE:
        return t("act.defense", lang, target=target, cards=cards)
    if a.kind == A.DISCARD:
        if a.target is None:
            return t("act.discard_none", lang, cards=cards)
        return t("act.discard", lang, target=target, cards=cards, weapon=weapon)
    if a.kind == A.SUPPLY_RECOVERED:
        if a.recovered:
            return t("act.supply_a_rec", lang, cards=cards, recovered=cards_text(a.recovered, lang))
        return t("act.supply_a", lang, cards=cards)
    if a.kind == A.SUPPLY_EQUIPMENT:
        mine = next((p for p in obs.get("players", []) if p.get("seat") == me), None)
        armed = bool(mine and mine.get("equipment"))
        return t("act.supply_b" if armed else "act.supply_b_none", lang)
    if a.kind == A.PASS:
        return t("act.pass", lang)
    if a.kind == A.REARM:
        return t("act.rearm", lang)
    if a.kind == A.ANSWER:
        pending = obs.get("pending") or {}
        contest = pending.get("contest", "attack")
        if not a.cards and contest != "defense" and not a.weapon:
            return t("act.answer.none", lang)
        return t(f"act.answer.{contest}", lang, cards=cards, weapon=weapon)
    return a.kind  # pragma: no cover - Action.from_wire admits only known kinds


# ------------------------------------------------------------------------- events
def _weapon_use_text(use: Mapping[str, Any] | None, lang: str) -> str:
    if not use:
        return ""
    ordinal = t(f"ordinal.{use['use']}", lang) if use.get("use") in (1, 2, 3) else str(use.get("use"))
    text = t("ev.weapon", lang, quality=t(f"quality.{use['quality']}", lang), ordinal=ordinal, face=t("face.up" if use.get("face") == "up" else "face.down", lang))
    if use.get("spent"):
        text += t("ev.weapon_spent", lang)
    return t("ev.weapon_wrap", lang, text=text)


def contest_text(event: Mapping[str, Any], names: Names = None, me: int | None = None, lang: str = "en") -> str:
    """A resolved contest as its two formulas and the outcome, e.g.
    ``seat 0: 6×10 + 8×6 = 108 vs seat 1: 6×7 = 42 → seat 1 (Bob) collects``."""
    sides = event["sides"]
    a, d = sides[0], sides[1]
    who_a = seat_label(a["seat"], names, me, lang)
    who_d = seat_label(d["seat"], names, me, lang)
    contest = event.get("contest")
    if contest == "defense":
        who_a = t("ev.side.attack", lang, who=who_a)
        who_d = t("ev.side.defense", lang, who=who_d)
    elif contest == "discard":
        who_a = t("ev.side.attack", lang, who=who_a)
        who_d = t("ev.side.response", lang, who=who_d)
    collector = seat_label(event.get("collector"), names, me, lang)
    result = event.get("result")
    if result == "tie":
        res = t("res.tie", lang)
    elif result == "attack-valid":
        res = t("res.attack_valid", lang, who=collector)
    elif result == "attack-invalid":
        res = t("res.attack_invalid", lang, who=collector)
    elif result == "success":
        res = t("res.discard_success", lang, who=collector, cards=cards_text(a["cards"], lang))
    elif result == "fail":
        res = t("res.discard_fail", lang, cards=cards_text(a["cards"], lang))
    else:
        res = t("res.collect", lang, who=collector)
    fa = f"{a['formula']}{_weapon_use_text(a.get('weapon'), lang)}"
    fd = f"{d['formula']}{_weapon_use_text(d.get('weapon'), lang)}"
    ca = cards_text(a["cards"], lang) + _weapon(bool(a.get("weapon")), lang)
    cd = cards_text(d["cards"], lang) + _weapon(bool(d.get("weapon")), lang)
    return t("ev.contest", lang, a=who_a, ca=ca, fa=fa, d=who_d, cd=cd, fd=fd, result=res)


def describe_event(event: Mapping[str, Any], names: Names = None, me: int | None = None,
                   lang: str = "en") -> str | None:
    """One log event (``Event.to_wire``) in words; contests give their formulas.
    Unknown kinds give None (skipped)."""
    kind = event.get("kind")
    who = lambda s: seat_label(s, names, me, lang)  # noqa: E731
    if kind == "deal":
        text = t("ev.deal", lang, players=event.get("players"))
        if "hand" in event:
            eq = event.get("equipment") or []
            text += t("sep", lang) + t("ev.deal_you", lang, hand=cards_text(event["hand"], lang),
                             equipment=cards_text(eq, lang), identity=identity_text(event.get("identity"), None, lang))
        return text
    if kind == "round":
        return t("ev.round", lang, round=event["round"], card=card_text(event["card"], lang),
                 type=round_type_text(event["type"], lang), R=event["R"], leader=who(event["leader"]))
    if kind == "play":
        contest = event.get("contest", "attack")
        return t(f"ev.play.{contest}", lang, actor=who(event["actor"]), target=who(event["target"]),
                 cards=cards_text(event["cards"], lang), weapon=_weapon(event.get("weapon", False), lang))
    if kind == "contest":
        return contest_text(event, names, me, lang)
    if kind == "discard":
        cards = cards_text(event.get("cards", []), lang)
        if event.get("target") is None:
            return t("ev.discard_none", lang, actor=who(event["actor"]), cards=cards)
        if event.get("success"):
            res = t("ev.discard.success", lang, target=who(event["target"]),
                    equipment=cards_text(event.get("equipment") or [], lang))
        else:
            res = t("ev.discard.fail", lang)
        return t("ev.discard", lang, actor=who(event["actor"]), target=who(event["target"]), cards=cards,
                 formula=event.get("formula", ""), result=res)
    if kind == "supply":
        actor = who(event["seat"])
        if event.get("option") == "a":
            if event.get("recovered"):
                return t("ev.supply_a_rec", lang, actor=actor, cards=cards_text(event["cards"], lang),
                         recovered=cards_text(event["recovered"], lang))
            return t("ev.supply_a", lang, actor=actor, cards=cards_text(event.get("cards", []), lang))
        face = t("face.up" if event.get("face_up") else "face.down", lang)
        if event.get("discarded"):
            text = t("ev.supply_b_old", lang, actor=actor, old=cards_text(event["discarded"], lang), face=face)
        else:
            text = t("ev.supply_b", lang, actor=actor, face=face)
        if event.get("equipment"):
            text += ": " + t("ev.drew", lang, equipment=cards_text(event["equipment"], lang))
        return text
    if kind == "pass":
        return t("ev.pass", lang, actor=who(event["seat"]), type=round_type_text(event.get("round_type", ""), lang))
    if kind == "rearm":
        text = t("ev.rearm", lang, actor=who(event["seat"]))
        if event.get("equipment"):
            text += ": " + t("ev.drew", lang, equipment=cards_text(event["equipment"], lang))
        return text
    if kind == "end":
        if event.get("winner") is not None:
            return t("ev.end.winner", lang, winner=who(event["winner"]))
        return t("ev.end.rounds", lang)
    return None


# ---------------------------------------------------------------------- sections
def render_header(obs: Obs, names: Names = None, lang: str = "en") -> RenderableType:
    """Round number / total, round card, round type, R, leader, special numbers, piles."""
    me = obs.get("seat")
    kind = obs.get("round_type", "")
    line = Text()
    line.append(t("header.round", lang, round=obs.get("round"), rounds=obs.get("rounds")), style="bold")
    line.append("  ·  ")
    card = obs.get("round_card")
    line.append(t("header.round_card", lang, card=card_text(card, lang) if card is not None else "?"))
    line.append("  ·  ")
    line.append(t("header.type", lang, type=round_type_text(kind, lang)), style=_TYPE_STYLE.get(kind, "bold"))
    line.append("  ·  ")
    line.append(t("header.R", lang, R=obs.get("R")), style="bold")
    line.append("  ·  ")
    line.append(t("header.leader", lang, who=seat_label(obs.get("leader"), names, me, lang)))
    specials = obs.get("specials") or {}
    rows: list[RenderableType] = [line]
    if obs.get("last_round"):
        rows.append(Text(t("header.last_round", lang), style="bold yellow"))
    small = Text(style="dim")
    if specials:
        small.append(t("header.specials", lang, supply=specials.get("supply"), discard=specials.get("discard"),
                       coordinator=specials.get("coordinator"), farmer=specials.get("farmer")))
        small.append("  ·  ")
    small.append(t("header.piles", lang, stock=obs.get("stock", 0), pile=obs.get("round_pile", 0),
                   discard=len(obs.get("discard_pile") or [])))
    reading = obs.get("same_identity")
    if reading:
        small.append("  ·  " + t(f"header.same_identity.{reading}", lang))
    rows.append(small)
    return Group(*rows)


def render_hand(obs: Obs, lang: str = "en") -> RenderableType:
    """The viewer's hand, sorted, recovered cards marked with ``*`` (and styled)."""
    hand = obs.get("hand") or []
    recovered = _recovered_of(obs, obs.get("seat"))
    text = Text()
    if not hand:
        text.append(t("hand.empty", lang), style="dim")
    for k, c in enumerate(hand):
        if k:
            text.append("  ")
        if c in recovered:
            text.append(card_text(c, lang) + "*", style="bold cyan")
        else:
            text.append(card_text(c, lang), style="bold")
    if recovered & set(hand):
        text.append("    " + t("hand.legend", lang), style="dim")
    return text


def _rearm(obs: Obs, player: Mapping[str, Any]) -> int | None:
    """The round from which a player may draw new equipment, if that round will come."""
    r = player.get("rearm_from")
    return r if r is not None and r <= (obs.get("rounds") or 0) else None


def render_self(obs: Obs, lang: str = "en") -> RenderableType:
    """The viewer's panel: identity (in the title), hand (recovered cards marked) and
    equipment with uses left, quality and visibility."""
    me = obs.get("seat")
    mine = next((p for p in obs.get("players", []) if p.get("seat") == me), {})
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    grid.add_row(t("hand.title", lang), render_hand(obs, lang))
    grid.add_row(t("equip.title", lang), Text(equipment_text(mine.get("equipment"), lang, _rearm(obs, mine))))
    title = seat_label(me, None, me, lang) + " · " + t(
        "identity.yours", lang, identity=identity_text(mine.get("identity"), mine.get("identity_value"), lang))
    return Panel(grid, title=title, title_align="left", border_style="cyan")


def render_players(obs: Obs, names: Names = None, lang: str = "en") -> RenderableType:
    """Every seat, one row each: identity (as visible), hand count, recovered cards,
    equipment as visible, cards left; ``▶`` marks the seat to move, ``leads`` the leader."""
    me = obs.get("seat")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
    table.add_column(t("col.seat", lang), no_wrap=True)
    table.add_column(t("col.identity", lang))
    table.add_column(t("col.hand", lang), justify="right")
    table.add_column(t("col.left", lang), justify="right")
    table.add_column(t("col.recovered", lang))
    table.add_column(t("col.equipment", lang))
    for p in obs.get("players", []):
        s = p.get("seat")
        label = ("▶ " if s == obs.get("to_move") else "  ") + seat_label(s, names, me, lang)
        if s == obs.get("leader"):
            label += " · " + t("mark.leader", lang)
        rearm = _rearm(obs, p) if s == me else None
        style = "bold cyan" if s == me else ("bold" if s == obs.get("to_move") else "")
        table.add_row(
            Text(label, style=style),
            identity_text(p.get("identity"), p.get("identity_value"), lang),
            str(p.get("hand_count", 0)),
            str(p.get("cards_left", "")),
            cards_text(p.get("recovered") or [], lang) if p.get("recovered") else "—",
            equipment_text(p.get("equipment"), lang, rearm, short=True),
        )
    return table


def pending_text(obs: Obs, names: Names = None, lang: str = "en") -> str | None:
    """The contest waiting for an answer, in words; None when there is none."""
    p = obs.get("pending")
    if not p:
        return None
    me = obs.get("seat")
    return t(f"pending.{p['contest']}", lang, actor=seat_label(p["actor"], names, me, lang),
             target=seat_label(p["target"], names, me, lang), cards=cards_text(p.get("cards", []), lang),
             weapon=_weapon(p.get("weapon", False), lang))


def status_text(obs: Obs, names: Names = None, lang: str = "en") -> str:
    """Whose move it is: ``Your turn``, ``Your turn: answer the attack of seat 1`` (or
    ``defend against …``),
    ``Waiting for seat 3 (Carol)`` or ``Game over``."""
    me = obs.get("seat")
    to_move = obs.get("to_move")
    if obs.get("result") is not None or to_move is None:
        return t("status.over", lang)
    if me is not None and to_move == me:
        p = obs.get("pending")
        if p:
            return t(f"status.answer.{p['contest']}", lang, actor=seat_label(p["actor"], names, me, lang))
        return t("status.your_turn", lang)
    return t("status.waiting", lang, who=seat_label(to_move, names, me, lang))


def _log_events(obs: Obs) -> list[Mapping[str, Any]]:
    """The log without each ``play`` that its own ``contest`` line follows (the contest
    line repeats the cards and adds the formulas)."""
    log = list(obs.get("log") or [])
    out = []
    for k, e in enumerate(log):
        nxt = log[k + 1] if k + 1 < len(log) else None
        if (e.get("kind") == "play" and nxt is not None and nxt.get("kind") == "contest"
                and nxt.get("actor") == e.get("actor") and nxt.get("target") == e.get("target")):
            continue
        out.append(e)
    return out


def log_lines(obs: Obs, names: Names = None, lang: str = "en", limit: int = 8) -> list[str]:
    """The last ``limit`` log events in words, oldest first (a play followed by its
    contest shows once, as the contest with its formulas)."""
    me = obs.get("seat")
    lines = [describe_event(e, names, me, lang) for e in _log_events(obs)]
    return [line for line in lines if line][-limit:]


_LOG_STYLE = {"contest": "bold yellow", "discard": "yellow", "round": "bold", "end": "bold green"}


def render_log(obs: Obs, names: Names = None, lang: str = "en", limit: int = 8) -> RenderableType:
    """Panel of the last outcomes (contest formulas highlighted), oldest first."""
    me = obs.get("seat")
    text = Text()
    shown = []
    for e in _log_events(obs):
        line = describe_event(e, names, me, lang)
        if line:
            shown.append((line, _LOG_STYLE.get(e.get("kind"), "")))
    for k, (line, style) in enumerate(shown[-limit:]):
        if k:
            text.append("\n")
        text.append(line, style=style)
    if not shown:
        text.append(t("log.empty", lang), style="dim")
    return Panel(text, title=t("log.title", lang), title_align="left", border_style="yellow")


def render_actions(legal: Sequence[Action | Mapping[str, Any]], obs: Obs, names: Names = None,
                   lang: str = "en") -> RenderableType:
    """The legal actions numbered from 1 in the host's order, described in words, with
    the input hint. Long lists are laid out in two or three columns."""
    items = [Text.assemble((f"{k:>2}. ", "bold"), describe_action(a, obs, names, lang))
             for k, a in enumerate(legal, 1)]
    n = len(items)
    cols = 1 if n <= 8 else 2 if n <= 30 else 3
    grid = Table.grid(padding=(0, 3))
    rows = -(-n // cols) if n else 0
    for _ in range(cols):
        grid.add_column()
    for r in range(rows):
        grid.add_row(*[items[c * rows + r] if c * rows + r < n else Text("") for c in range(cols)])
    hint = Text(t("legal.prompt", lang, n=n), style="dim")
    return Panel(Group(grid, hint), title=t("legal.title", lang), title_align="left", border_style="green")


def timer_text(seconds_left: float | None, lang: str = "en") -> Text | None:
    """``⏱ 23 s left`` (red under 10 s, ``time is up`` at 0); None without a timer."""
    if seconds_left is None:
        return None
    if seconds_left <= 0:
        return Text(t("timer.up", lang), style="bold red")
    secs = int(seconds_left + 0.999)
    return Text(t("timer.left", lang, s=secs), style="bold red" if secs < 10 else "bold")


def chat_line_text(line: ChatLine, lang: str = "en") -> str:
    """One chat line as ``name: text``; accepts a string, ``(name, text)`` or a mapping
    with ``name``/``text`` (a None/empty name is the host)."""
    if isinstance(line, str):
        return line
    if isinstance(line, Mapping):
        name, text = line.get("name"), line.get("text", "")
    elif isinstance(line, (tuple, list)) and len(line) == 2:
        name, text = line
    else:
        name, text = getattr(line, "name", None), getattr(line, "text", str(line))
    return t("chat.line", lang, name=name or t("chat.host", lang), text=text)


def notice_text(notice: Any, lang: str = "en") -> str:
    """A host notice in the viewer's language: a string as is, or ``(code, text)`` /
    a mapping / an object with ``code`` and ``text`` translated by code."""
    if isinstance(notice, str):
        return notice
    if isinstance(notice, Mapping):
        code, text = notice.get("code", ""), notice.get("text", "")
    elif isinstance(notice, (tuple, list)) and len(notice) == 2:
        code, text = notice
    else:
        code, text = getattr(notice, "code", ""), getattr(notice, "text", str(notice))
    key = f"notice.{code}"
    return t(key if key in MESSAGES else "notice.other", lang, text=text or "").strip()


def render_result(obs: Obs, names: Names = None, lang: str = "en") -> RenderableType | None:
    """Final ranking panel once the game is over; None before."""
    result = obs.get("result")
    if not result:
        return None
    me = obs.get("seat")
    players = {p.get("seat"): p for p in obs.get("players", [])}
    text = Text()
    if result.get("winner") is not None:
        text.append(t("result.winner", lang, who=seat_label(result["winner"], names, me, lang)) + "\n",
                    style="bold green")
    for place, s in enumerate(result.get("ranking") or [], 1):
        p = players.get(s, {})
        text.append(t("result.row", lang, place=place, who=seat_label(s, names, me, lang),
                      left=p.get("cards_left", "?"), recovered=len(p.get("recovered") or [])) + "\n")
    text.rstrip()
    return Panel(text, title=t("result.title", lang), title_align="left", border_style="green")


def _lines_panel(lines: Sequence[str], title: str, style: str) -> RenderableType:
    return Panel(Text("\n".join(lines)), title=title, title_align="left", border_style=style)


# ---------------------------------------------------------------------- full views
def render_view(obs: Obs, *, legal: Sequence[Action | Mapping[str, Any]] = (), chat: Sequence[ChatLine] = (),
                notices: Sequence[Any] = (), seconds_left: float | None = None, names: Names = None,
                lang: str = "en", log_limit: int = 8, chat_limit: int = 4) -> RenderableType:
    """The whole screen of a seat (or of a spectator when ``obs["seat"]`` is None):
    header (round, round card and type, R), own identity/hand/equipment, the players
    table, the last outcomes with formulas, the final ranking once over, the pending
    contest and whose turn it is with the turn timer, the numbered legal actions,
    notices and chat."""
    spectator = obs.get("seat") is None
    title = t("app.title", lang) + (" · " + t("header.spectator", lang) if spectator else "")
    parts: list[RenderableType] = [
        Panel(render_header(obs, names, lang), title=title, title_align="left", border_style="bold"),
    ]
    if not spectator:
        parts.append(render_self(obs, lang))
    parts.append(render_players(obs, names, lang))
    parts.append(render_log(obs, names, lang, log_limit))
    result = render_result(obs, names, lang)
    if result is not None:
        parts.append(result)
    pend = pending_text(obs, names, lang)
    if pend:
        parts.append(Text("⚔ " + pend, style="bold red"))
    my_turn = not spectator and result is None and obs.get("to_move") == obs.get("seat")
    status = Text(status_text(obs, names, lang), style="bold reverse" if my_turn else "bold")
    timer = timer_text(seconds_left, lang)
    if timer is not None:
        status.append("   ")
        status.append_text(timer)
    parts.append(status)
    if legal:
        parts.append(render_actions(legal, obs, names, lang))
    if notices:
        parts.append(_lines_panel([notice_text(n, lang) for n in notices][-chat_limit:], t("notices.title", lang),
                                  "blue"))
    if chat:
        parts.append(_lines_panel([chat_line_text(c, lang) for c in chat][-chat_limit:], t("chat.title", lang),
                                  "magenta"))
    return Group(*parts)


def render_table(obs: Obs, *, names: Names = None, chat: Sequence[ChatLine] = (), notices: Sequence[Any] = (),
                 seconds_left: float | None = None, lang: str = "en", log_limit: int = 8) -> RenderableType:
    """The spectator view of the table for the host screen, from ``observation(None)``:
    everything public (round, every player's counts, visible identities and equipment,
    last outcomes with formulas, result), no hand, no legal actions."""
    spectator = dict(obs)
    spectator["seat"] = None
    spectator["hand"] = []
    return render_view(spectator, chat=chat, notices=notices, seconds_left=seconds_left, names=names, lang=lang,
                       log_limit=log_limit)


def render_lobby(players: Sequence[Any], *, seat: int | None = None, phase: str = "lobby", host: str = "",
                 port: int = 0, join_code: str = "", total: int | None = None, chat: Sequence[ChatLine] = (),
                 notices: Sequence[Any] = (), lang: str = "en") -> RenderableType:
    """The screen before the deal: host address and join code, who is seated (ready,
    bot, away), and what is happening (connecting, waiting, fair shuffle).
    ``players`` are the lobby entries (objects or mappings with ``seat``, ``name``,
    ``ready``, ``bot``, ``connected``)."""
    def field_of(p: Any, name: str, default: Any = None) -> Any:
        return p.get(name, default) if isinstance(p, Mapping) else getattr(p, name, default)

    rows = Text()
    entries = sorted(players, key=lambda p: field_of(p, "seat", 0))
    for k, p in enumerate(entries):
        s = field_of(p, "seat")
        tags = [t("lobby.bot", lang)] if field_of(p, "bot") else []
        if field_of(p, "ready"):
            tags.append(t("lobby.ready", lang))
        if not field_of(p, "connected", True):
            tags.append(t("lobby.away", lang))
        if k:
            rows.append("\n")
        label = t("seat.you", lang, n=s) if s == seat else t("seat.named", lang, n=s, name=field_of(p, "name"))
        rows.append(label, style="bold cyan" if s == seat else "bold")
        if s == seat:
            rows.append(f" {field_of(p, 'name')}")
        if tags:
            rows.append("  " + " · ".join(tags), style="dim")
    if not entries:
        rows.append(t("lobby.empty", lang), style="dim")
    head = Text()
    if host:
        head.append(t("lobby.host", lang, host=host, port=port, code=join_code or "?") + "\n", style="dim")
    if total:
        head.append(t("lobby.seats", lang, taken=len(entries), total=total) + "\n")
    parts: list[RenderableType] = [
        Panel(Group(head, rows), title=t("app.title", lang) + " · " + t("lobby.title", lang), title_align="left",
              border_style="bold"),
        Text(t(f"phase.{phase}" if phase in ("connecting", "lobby", "seeding", "playing", "over") else "phase.lobby",
               lang), style="bold"),
    ]
    if notices:
        parts.append(_lines_panel([notice_text(n, lang) for n in notices][-3:], t("notices.title", lang), "blue"))
    if chat:
        parts.append(_lines_panel([chat_line_text(c, lang) for c in chat][-4:], t("chat.title", lang), "magenta"))
    return Group(*parts)


def render_help(lang: str = "en") -> RenderableType:
    """The help panel (keys and a one-paragraph reminder of the rounds)."""
    return Panel(Text(t("help.body", lang)), title=t("help.title", lang), title_align="left", border_style="blue")


def to_text(renderable: RenderableType, width: int = 120) -> str:
    """Render to plain text (no colour, no terminal), e.g. for tests."""
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False, emoji=False)
    console.print(renderable)
    return console.export_text()
