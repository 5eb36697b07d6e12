"""Host notices and host errors in words, from their codes (specs/protocol.md § Notice
codes): one table of the common catalog :mod:`jupai_net.messages`.

The host sends a ``notice`` with a ``code`` and (protocol version 4) ``args``, the
values of the sentence: ``{"name": "Ann", "seat": 2}`` for ``player-joined``. The
English ``text`` that travels with it (for older clients, and the host's log) is
:func:`notice_sentence` in English; every client says the same sentence in its own
language from the code and the args, so a Chinese screen never shows an English
notice. An ``error`` the host closes a connection with is said by its code alone
(:func:`error_sentence`).

The args of each code (every value a string, a whole number, a bool or, for
``action``, an action's wire map):

=================  ===========================================================
``player-joined``  ``name``, ``seat``, ``bot`` (the seat is played by a program)
``player-back``    ``name``, ``seat``
``player-left``    ``name``, ``seat``, ``why`` (``left`` | ``disconnected`` |
                   ``kicked`` | ``ready-timeout``), ``seconds`` (ready-timeout),
                   ``then`` (``reconnect`` | ``wait`` | ``bot`` | ``stand-in``,
                   optional; ``wait``: a dealer-blind game waits for the seat),
                   ``stand_in`` (the bot's name, with ``then`` ``stand-in``)
``bot-seated``     ``name`` (who left), ``seat``, ``stand_in``
``turn-timeout``   ``name``, ``seat``, ``seconds``, ``action`` (wire map)
``spectator-joined``/``spectator-left``  ``name``, ``count`` (spectators now)
``old-client``     ``name``, ``seat``, ``version`` (the protocol version of its
                   client, below 4: the table deals trusted while it sits there)
``blind-wait``     ``name``, ``seat`` (away), ``what`` (``key`` | ``turn``: the game
                   waits for its key, or for its move), ``seconds`` (until the
                   host abandons the game unless it comes back)
``chat-throttled``/``spectator-readonly``  none
=================  ===========================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jupai_net.printable import printable

#: key -> (English, Chinese); the ``notice.net.*`` sentences take the args above.
MESSAGES: dict[str, tuple[str, str]] = {
    # why jupai's own host abandoned a game or closed the table (signed English words)
    "reason.host-stopped": ("the host was stopped", "主机已停止"),
    "reason.host-stopped-sigterm": ("the host was stopped (SIGTERM)", "主机已停止（SIGTERM）"),
    "reason.host-stopped-sighup": ("the host was stopped (its terminal was closed)", "主机已停止（它的终端已关闭）"),
    # why the host abandoned a game: the `end aborted` result's `code` and `args`
    # (abandon_sentence; the English sentence is also the signed reason and `reason`)
    "abandon.who": ("{name} (seat {seat})", "{name}（{seat}号位）"),
    "abandon.the-host": ("the host", "主机"),
    "abandon.nobody": ("nobody", "无人"),
    "abandon.blind-left": ("{who} left the dealer-blind game ({why}); nobody else can play their cards",
                           "{who} 离开了盲发牌对局（{why}）；没有人能替其出牌"),
    "abandon.bad-seed": ("{who} revealed a seed that does not match its commitment",
                         "{who} 公开的种子与它的承诺不符"),
    "abandon.blind-deal-failed": ("the dealer-blind deal failed ({detail}); the audit names who",
                                  "盲发牌失败（{detail}）；审计会指出是谁"),
    "abandon.blind-bad-message": ("{who} sent a wrong dealer-blind message: {detail}",
                                  "{who} 发送了错误的盲发牌消息：{detail}"),
    "abandon.blind-deal-late": ("dealer-blind deal: nothing in time from {who}", "盲发牌：{who} 没有按时发来消息"),
    "abandon.seed-late": ("no seed in time from {who}", "{who} 没有按时发来种子"),
    "abandon.blind-key-late": ("dealer-blind game: no key in time from {who}", "盲发牌对局：{who} 没有按时发来密钥"),
    "abandon.blind-turn-late": ("a seat left: {who} made no move within their turn time and {seconds} s more, and "
                                "nobody else can play their cards",
                                "有座位离开了：{who} 在回合时间和额外 {seconds} 秒内都没有行动，没有人能替其出牌"),
    "abandon.bot-failed": ("the host's bot in seat {seat} failed", "主机在{seat}号位的机器人出错了"),
    "abandon.why.left": ("they chose to leave", "主动离开"),
    "abandon.why.disconnected": ("disconnected", "断开连接"),
    "abandon.why.kicked": ("kicked", "被请出"),
    "abandon.why.ready-timeout": ("ready-timeout", "准备超时"),
    "notice.net.player-joined": ("{name} took seat {seat}", "{name} 坐上了{seat}号位"),
    "notice.net.player-joined.bot": ("{name} (a bot) took seat {seat}", "{name}（机器人）坐上了{seat}号位"),
    "notice.net.player-back": ("{name} is back in seat {seat}", "{name} 回到了{seat}号位"),
    "notice.net.left.left": ("{name} left seat {seat}", "{name} 离开了{seat}号位"),
    "notice.net.left.disconnected": ("{name} (seat {seat}) disconnected", "{name}（{seat}号位）断开了连接"),
    "notice.net.left.kicked": ("the host removed {name} from seat {seat}", "主机把 {name} 请出了{seat}号位"),
    "notice.net.left.ready-timeout": ("{name} did not get ready within {seconds} s; seat {seat} is free again",
                                      "{name} 在 {seconds} 秒内没有准备好；{seat}号位空出来了"),
    "notice.net.then.reconnect": ("; a bot plays for them until they reconnect", "；重新连接之前由机器人代打"),
    "notice.net.then.bot": ("; a bot plays for them", "；由机器人代打"),
    "notice.net.then.wait": ("; the game waits for them to come back (nobody else can play their cards)",
                             "；牌局等待其重新连接（别人无法替其出牌）"),
    "notice.net.then.stand-in": ("; {stand_in} takes the seat for the next game", "；下一局由 {stand_in} 坐这个座位"),
    "notice.net.bot-seated": ("{stand_in} takes seat {seat} of {name} for the next game",
                              "下一局由 {stand_in} 接替 {name} 的{seat}号位"),
    "notice.net.blind-wait.key": ("the game waits for the key of {name} (seat {seat}), who is away: it ends in "
                                  "{seconds} s unless they come back",
                                  "牌局在等 {name}（{seat}号位）的密钥，对方已离开：{seconds} 秒内不回来，牌局就会结束"),
    "notice.net.blind-wait.turn": ("the game waits for {name} (seat {seat}), who is away, to move: it ends in "
                                   "{seconds} s unless they come back",
                                   "牌局在等 {name}（{seat}号位）行动，对方已离开：{seconds} 秒内不回来，牌局就会结束"),
    "notice.net.turn-timeout": ("seat {seat} ({name}) ran out of time ({seconds} s); the host played for them: {action}",
                                "{seat}号位（{name}）超时（{seconds} 秒）；主机替其行动：{action}"),
    "notice.net.spectator-joined.one": ("{name} is watching ({count} spectator)", "{name} 开始旁观（共 {count} 位旁观者）"),
    "notice.net.spectator-joined.other": ("{name} is watching ({count} spectators)",
                                          "{name} 开始旁观（共 {count} 位旁观者）"),
    "notice.net.spectator-left.one": ("{name} stopped watching ({count} spectator left)",
                                      "{name} 不再旁观（还有 {count} 位旁观者）"),
    "notice.net.spectator-left.other": ("{name} stopped watching ({count} spectators left)",
                                        "{name} 不再旁观（还有 {count} 位旁观者）"),
    "notice.net.old-client": ("{name}'s client (seat {seat}) speaks protocol version {version}, which cannot deal "
                              "blind: the games deal trusted (the host can see every hand) while it sits at the table",
                              "{name}（{seat}号位）的客户端使用第 {version} 版协议，不能参与盲发牌：它在座期间由可信庄家发牌"
                              "（主机能看到每一手牌）"),
    "notice.net.chat-throttled": ("you are chatting too fast; that line was not sent", "你发言太快了；这句没有发出"),
    "notice.net.spectator-readonly": ("spectators watch without chatting; that line was not sent",
                                      "旁观者只能观看，不能聊天；这句没有发出"),
    # --- refusals of a seat's message (reject codes the client had no words for yet) ---
    "notice.wrong-game": ("That message was for another game. {text}", "这条消息属于另一局。{text}"),
    "notice.bad-commitment": ("The host refused this seat's seed message. {text}", "主机拒绝了本座位的种子消息。{text}"),
    "notice.bad-blind": ("The host refused this seat's dealer-blind message. {text}", "主机拒绝了本座位的盲发牌消息。{text}"),
    # --- errors the host closes a connection with (protocol/errors.py HOST_ERROR_CODES) ---
    "host_error.table-full": ("every seat at the table is taken", "牌桌的座位都坐满了"),
    "host_error.seat-taken": ("the seat you asked for is taken or does not exist", "你要的座位已经有人或不存在"),
    "host_error.name-taken": ("another player at the table uses this name; pick another name (--name)",
                              "牌桌上已有人用这个名字；请换一个名字（--name）"),
    "host_error.bad-token": ("your session token is unknown or expired (the game it was for is over)",
                             "你的会话令牌无效或已过期（对应的那局已经结束）"),
    "host_error.reconnect-limit": ("this seat reconnected too often; try again in a few seconds",
                                   "这个座位重连太频繁；请几秒后再试"),
    "host_error.game-running": ("a game is running at this table and you hold no seat in it; "
                                "join after it, or watch it (jupai watch)",
                                "这张牌桌正在游戏，你在其中没有座位；请等这局结束再加入，或旁观（jupai watch）"),
    "host_error.kicked": ("the host removed you from your seat", "主机把你请出了座位"),
    "host_error.internal": ("the host failed; the game cannot continue", "主机出错；游戏无法继续"),
    "host_error.slow-client": ("this client did not read its messages in time and was disconnected",
                               "本客户端没有及时读取消息，已被断开"),
    "host_error.hello-timeout": ("the host heard no hello in time", "主机没有及时收到问候消息"),
    "host_error.idle-timeout": ("the host heard nothing from this client for too long", "主机太久没有收到本客户端的消息"),
    "host_error.ready-timeout": ("you did not get ready in time; your seat is free again",
                                 "你没有及时准备好；你的座位已空出"),
    "host_error.blind-unsupported": ("this table deals blind (the host cannot see your cards), which needs a newer "
                                     "jupai-net; update it, or ask the host for --dealer trusted",
                                     "这张牌桌盲发牌（主机看不到你的牌），需要更新的 jupai-net；请升级，"
                                     "或请主机改用 --dealer trusted"),
    "host_error.spectators-full": ("the table takes no more spectators now; try again when one leaves",
                                   "这张牌桌的旁观者已满；请等有人离开后再试"),
}

#: Notice codes whose args this module says in words (what the host sends).
NET_NOTICE_CODES = ("player-joined", "player-back", "player-left", "bot-seated", "turn-timeout",
                    "spectator-joined", "spectator-left", "chat-throttled", "spectator-readonly", "old-client",
                    "blind-wait")

#: Notice codes said without args (the host sends none).
ARGLESS_CODES = ("chat-throttled", "spectator-readonly")

Describe = Callable[[Any, str], str]


def _name(args: Mapping[str, Any], key: str, lang: str) -> str:
    value = args.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key} must be a name")
    if lang != "zh":
        return printable(value)
    try:
        from jupai_net.client.card_words import display_name  # bot names in the viewer's language
    except ImportError:  # pragma: no cover - the client is part of the package
        return printable(value)
    return printable(display_name(value, lang))


def _int(args: Mapping[str, Any], key: str) -> int:
    value = args.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key} must be a whole number")
    return value


def _seconds(args: Mapping[str, Any]) -> str:
    value = args.get("seconds")
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError("seconds must be a number")
    return printable(value if isinstance(value, str) else f"{value:g}")


def notice_sentence(code: str, args: Mapping[str, Any], lang: str = "en", describe: Describe | None = None) -> str:
    """The notice ``code`` with ``args`` (table above) as one sentence in ``lang``, every
    peer string made printable. ``describe(action_wire, lang)`` says the action of a
    ``turn-timeout`` (default: the client's move words). Raises ``ValueError`` for an
    unknown code or args that do not fit it (the caller falls back to the English text)."""
    from . import t, tn

    if code in ARGLESS_CODES:
        return t(f"notice.net.{code}", lang)
    if code not in NET_NOTICE_CODES or not isinstance(args, Mapping):
        raise ValueError(f"no sentence for notice {code!r}")
    name = _name(args, "name", lang)
    if code in ("spectator-joined", "spectator-left"):
        return tn(f"notice.net.{code}", _int(args, "count"), lang, name=name)
    seat = _int(args, "seat")
    if code == "player-joined":
        return t("notice.net.player-joined.bot" if args.get("bot") is True else "notice.net.player-joined", lang,
                 name=name, seat=seat)
    if code == "player-back":
        return t("notice.net.player-back", lang, name=name, seat=seat)
    if code == "blind-wait":
        what = args.get("what")
        if what not in ("key", "turn"):
            raise ValueError(f"unknown what {what!r}")
        return t(f"notice.net.blind-wait.{what}", lang, name=name, seat=seat, seconds=_seconds(args))
    if code == "old-client":
        return t("notice.net.old-client", lang, name=name, seat=seat, version=_int(args, "version"))
    if code == "bot-seated":
        return t("notice.net.bot-seated", lang, name=name, seat=seat, stand_in=_name(args, "stand_in", lang))
    if code == "turn-timeout":
        if describe is None:
            describe = _describe_action
        return t("notice.net.turn-timeout", lang, name=name, seat=seat, seconds=_seconds(args),
                 action=printable(describe(args.get("action"), lang)))
    why = args.get("why")
    if why not in ("left", "disconnected", "kicked", "ready-timeout"):
        raise ValueError(f"unknown why {why!r}")
    text = t(f"notice.net.left.{why}", lang, name=name, seat=seat,
             seconds=_seconds(args) if why == "ready-timeout" else "")
    then = args.get("then")
    if then in ("reconnect", "wait", "bot"):
        text += t(f"notice.net.then.{then}", lang)
    elif then == "stand-in":
        text += t("notice.net.then.stand-in", lang, stand_in=_name(args, "stand_in", lang))
    elif then is not None:
        raise ValueError(f"unknown then {then!r}")
    return text


def _describe_action(wire: Any, lang: str) -> str:
    """An action's wire map in words (the client's :func:`describe_action`, no totals)."""
    from jupai_net.actions import Action
    from jupai_net.client.move_words import describe_action

    try:
        action = Action.from_wire(wire)
    except (TypeError, ValueError, KeyError) as exc:
        raise ValueError(f"bad action: {exc}") from None
    return describe_action(action, {}, None, lang, totals=False)


def error_sentence(code: str, lang: str = "en") -> str | None:
    """The host error ``code`` (``error`` message) as a sentence in ``lang``, or None
    for a code this program does not know (the caller shows the host's text)."""
    from . import t

    key = f"host_error.{code}"
    return t(key, lang) if key in MESSAGES else None


#: The words jupai's host uses when it is stopped (the abandoned game's signed reason,
#: ``host/cli.stop_reason``; the ``bye host-shutdown`` text) → their catalog key.
KNOWN_REASONS = {
    "the host was stopped": "reason.host-stopped",
    "the host was stopped (SIGTERM)": "reason.host-stopped-sigterm",
    "the host was stopped (its terminal was closed)": "reason.host-stopped-sighup",
}


#: Why a host abandons a game (``end aborted``'s ``result.code``) → its args: ``who``
#: (a list of ``[name, seat]``, seat 255 = the host), ``seat``, ``seconds``, ``why``
#: (``left`` | ``disconnected`` | …, as ``player-left``), ``detail`` (English, the
#: dealer-blind check's own words). The host stopping uses the ``reason.*`` codes.
ABANDON_CODES = {
    "blind-left": ("who", "why"), "bad-seed": ("who",), "blind-deal-failed": ("detail",),
    "blind-bad-message": ("who", "detail"), "blind-deal-late": ("who",), "seed-late": ("who",),
    "blind-key-late": ("who",), "blind-turn-late": ("who", "seconds"), "bot-failed": ("seat",),
    "host-stopped": (), "host-stopped-sigterm": (), "host-stopped-sighup": (),
}

#: The host's own seat number in an abandon reason's ``who`` (a dealer-blind participant).
HOST_PID = 0xFF


def _who(value: Any, lang: str) -> str:
    if not isinstance(value, (list, tuple)):
        raise ValueError("who must be a list of [name, seat]")
    from . import names_text, t

    if not value:
        return t("abandon.nobody", lang)
    said = []
    for entry in value:
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise ValueError("who must be a list of [name, seat]")
        name, seat = entry
        pair = {"name": name, "seat": seat}
        said.append(t("abandon.the-host", lang) if seat == HOST_PID else
                    t("abandon.who", lang, name=_name(pair, "name", lang), seat=_int(pair, "seat")))
    return names_text(said, lang)


def abandon_sentence(code: str, args: Mapping[str, Any], lang: str = "en") -> str:
    """Why the host abandoned a game, from the reason ``code`` and its ``args``
    (:data:`ABANDON_CODES`), in ``lang``; every peer string made printable. The host
    writes the English one as the signed reason and ``end``'s ``reason`` text (for
    older clients). Raises ``ValueError`` for an unknown code or args that do not fit."""
    from . import t

    if code not in ABANDON_CODES or not isinstance(args, Mapping):
        raise ValueError(f"unknown abandon reason {code!r}")
    if code.startswith("host-stopped"):
        return t(f"reason.{code}", lang)
    values: dict[str, Any] = {}
    for key in ABANDON_CODES[code]:
        if key == "who":
            values["who"] = _who(args.get("who"), lang)
        elif key == "seat":
            values["seat"] = _int(args, "seat")
        elif key == "seconds":
            values["seconds"] = _seconds(args)
        elif key == "why":
            why = args.get("why")
            if not isinstance(why, str) or f"abandon.why.{why}" not in MESSAGES:
                raise ValueError("why must be a reason a seat left")
            values["why"] = t(f"abandon.why.{why}", lang)
        else:  # detail: the check's own English words
            values[key] = printable(str(args.get(key, "")))[:200]
    return t(f"abandon.{code}", lang, **values)


def end_reason(result: Mapping[str, Any], lang: str = "en") -> str:
    """Why a game ended unfinished, from an ``end aborted`` result: said from its
    ``code``/``args`` in ``lang`` when this program knows them, else the host's
    ``reason`` text (:func:`reason_sentence`: jupai's own stop words translated, any
    other as written)."""
    code, args = result.get("code"), result.get("args")
    if isinstance(code, str) and isinstance(args, Mapping):
        try:
            return abandon_sentence(code, args, lang)
        except (ValueError, KeyError, IndexError):
            pass
    return reason_sentence(str(result.get("reason") or ""), lang)


def _parse_who(text: str) -> list[list[Any]]:
    """``Ann (seat 1), the host`` (the English ``who`` of :func:`abandon_sentence`) back
    to ``[["Ann", 1], ["", HOST_PID]]``; ``ValueError`` when it is not that."""
    import re

    who: list[list[Any]] = []
    for m in re.finditer(r"(?:^|, )(?:(the host)|(.*?) \(seat (\d)\))(?=, |$)", text):
        who.append(["", HOST_PID] if m[1] else [m[2], int(m[3])])
    if ", ".join("the host" if s == HOST_PID else f"{n} (seat {s})" for n, s in who) != text:
        raise ValueError("not a list of seats")
    return who


#: The English of abandon sentences as older hosts signed them (a transcript keeps the
#: signed sentence; read back all the same): code -> its earlier templates.
EARLIER_ENGLISH: dict[str, tuple[str, ...]] = {
    "blind-left": ("{who} left the dealer-blind game ({why}); nobody else can play its cards",),
    "blind-turn-late": ("a seat left: {who} made no move within its turn time and {seconds} s more, and "
                        "nobody else can play its cards",),
}


def _parsed_reason(reason: str) -> tuple[str, dict[str, Any]] | None:
    """The reason code and args of an English abandon sentence jupai's host wrote (the
    signed reason a transcript keeps: a verdict, ``jupai replay``), or None."""
    import re

    # the sentence says why a seat left in words (``they chose to leave``): read back to its code
    whys = {MESSAGES[key][0]: key.rsplit(".", 1)[1] for key in MESSAGES if key.startswith("abandon.why.")}
    fields = {"who": r"(?P<who>.+)", "why": "(?P<why>" + "|".join(map(re.escape, whys)) + ")",
              "seconds": r"(?P<seconds>[\d.]+)", "seat": r"(?P<seat>\d)", "detail": r"(?P<detail>.*)"}
    templates = [(code, MESSAGES[f"abandon.{code}"][0]) for code in ABANDON_CODES if not code.startswith("host-stopped")]
    templates += [(code, old) for code, olds in EARLIER_ENGLISH.items() for old in olds]
    for code, template in templates:
        pattern = re.sub(r"\\\{(\w+)\\\}", lambda m: fields[m[1]], re.escape(template))
        m = re.fullmatch(pattern, reason)
        if m is None:
            continue
        args: dict[str, Any] = dict(m.groupdict())
        try:
            if "who" in args:
                args["who"] = _parse_who(args["who"])
            if "seat" in args:
                args["seat"] = int(args["seat"])
            if "why" in args:
                args["why"] = whys[args["why"]]
        except ValueError:
            return None
        return code, args
    return None


def reason_sentence(reason: str, lang: str = "en") -> str:
    """Why a host abandoned a game or closed the table, in ``lang``: jupai's own words
    (:data:`KNOWN_REASONS`, and the abandon sentences of :data:`ABANDON_CODES` read back
    from their English, as a transcript keeps them) from the catalog, any other reason
    as the host wrote it (printable)."""
    from . import t

    key = KNOWN_REASONS.get(reason)
    if key:
        return t(key, lang)
    # an older host's English (EARLIER_ENGLISH) is said in today's words in English too
    if lang != "en" or any(reason.endswith(old.rsplit("}", 1)[-1]) for olds in EARLIER_ENGLISH.values()
                           for old in olds):
        parsed = _parsed_reason(reason)
        if parsed is not None:
            try:
                return abandon_sentence(parsed[0], parsed[1], lang)
            except ValueError:
                pass
    return printable(reason)
