"""The table's state in sentences: the pending contest, whose turn it is, chat lines,
host notices and the final ranking rows (specs/client.md § What the player sees,
items 5–7, 9). No rich, no IO."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from jupai_net.messages import catalog, names_text
from jupai_net.messages.notices import ARGLESS_CODES, NET_NOTICE_CODES, error_sentence, notice_sentence
from jupai_net.printable import printable
from jupai_net.protocol.errors import HOST_ERROR_CODES, REJECT_CODES

from .card_words import Names, Obs, cards_text, display_name, is_you, seat_label, weapon_text
from .i18n import MESSAGES, t, tn
from .move_words import supplying
from .total_words import pending_total_text

#: Codes of the host's refusals (``error`` and ``reject`` messages), whose English text
#: a Chinese screen leaves out (it says the code's sentence instead).
REPLY_CODES = frozenset(HOST_ERROR_CODES) | frozenset(REJECT_CODES)

#: A chat line: a plain string, ``(name, text)``, or a mapping with ``name``/``text``
#: (and optionally ``seat``), as in the protocol's ``chat`` message.
ChatLine = Any


def pending_text(obs: Obs, names: Names = None, lang: str = "en") -> str | None:
    """The contest waiting for an answer (or the supply (a) under way), in words; None
    when there is none."""
    p = obs.get("pending")
    me = obs.get("seat")
    sup = supplying(obs)
    if not p and sup:
        return t("pending.supply", lang, actor=seat_label(sup.get("seat"), names, me, lang),
                 cards=cards_text(sup.get("cards", []), lang), v=sup.get("v", "?"), left=sup.get("left", "?"))
    if not p:
        return None
    return t(f"pending.{p['contest']}", lang, actor=seat_label(p["actor"], names, me, lang),
             target=seat_label(p["target"], names, me, lang), cards=cards_text(p.get("cards", []), lang),
             weapon=weapon_text(p.get("weapon", False), lang), total=pending_total_text(obs, lang))

#: Longest wait (seconds) a ``blind-wait`` notice may announce to be shown: a day, more
#: than any turn time and grace or seed time-out a host is started with.
MAX_WAIT_SHOWN = 86400


def wait_left(notices: Sequence[Any], obs: Obs, waiting: Sequence[int] = (), now: float | None = None) -> float | None:
    """Seconds until a dealer-blind game is abandoned unless the away seat it waits for
    comes back: from the newest ``blind-wait`` notice (the host's, with ``at``, the time
    it came, and its ``seconds``) about a seat the game waits for now — a key
    (``waiting``) or the move of the seat to move — and not followed by that seat's
    ``player-back``; None when there is none."""
    import time

    now = time.time() if now is None else now
    for k in range(len(notices) - 1, -1, -1):
        n = notices[k]
        args = getattr(n, "args", None)
        if getattr(n, "code", None) != "blind-wait" or not isinstance(args, Mapping):
            continue
        seat, what, seconds = args.get("seat"), args.get("what"), args.get("seconds")
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 0 <= seconds <= MAX_WAIT_SHOWN:
            continue  # a host's number no deadline can be (1e308 s: 309 digits on the status line)
        if not ((what == "key" and seat in waiting) or (what == "turn" and not waiting and seat == obs.get("to_move"))):
            continue
        later = notices[k + 1:]
        if any(getattr(m, "code", None) == "player-back" and (getattr(m, "args", None) or {}).get("seat") == seat
               for m in later):
            return None
        return max(0.0, getattr(n, "at", now) + seconds - now)
    return None


def status_text(obs: Obs, names: Names = None, lang: str = "en", waiting: Sequence[int] = (),
                ends_in: float | None = None) -> str:
    """Whose move it is: ``Your turn``, ``Your turn: answer the attack of seat 1`` (or
    ``defend against …``),
    ``Waiting for seat 3 (Carol)`` or ``Game over``. ``waiting`` (a dealer-blind game,
    ``ClientView.waiting``): the participants that owe a key for the cards being
    opened — the game waits for them, not for the seat to move: ``Waiting for the key of
    seat 1 (Bob)`` (``the keys of seat 1 (Bob), the host``). ``ends_in``: the seconds
    before the host abandons the game unless the away seat comes back
    (:func:`wait_left`), said after it: ``· the game ends in 25 s without them``."""
    me = obs.get("seat")
    to_move = obs.get("to_move")
    if obs.get("result") is not None or to_move is None:
        return t("status.over", lang)
    if waiting:
        from jupai_net.messages.notices import HOST_PID

        who = names_text([t("waiting.host", lang) if p == HOST_PID else seat_label(p, names, me, lang)
                          for p in waiting], lang)
        said = t("status.waiting_keys.one" if len(waiting) == 1 else "status.waiting_keys.other", lang, who=who)
        return said + ("" if ends_in is None else t("status.ends_in", lang, s=math.ceil(ends_in)))
    if me is not None and to_move == me:
        p = obs.get("pending")
        if p:
            return t(f"status.answer.{p['contest']}", lang, actor=seat_label(p["actor"], names, me, lang))
        return t("status.your_turn", lang)
    said = t("status.waiting", lang, who=seat_label(to_move, names, me, lang))
    return said + ("" if ends_in is None else t("status.ends_in", lang, s=math.ceil(ends_in)))

def answer_tiny(obs: Obs, lang: str = "en") -> str | None:
    """The shortest status of a seat that must answer a pending contest, the actor by
    seat number only (the players table names it): ``Defend vs seat 1`` (``防守
    1号位``); None when the viewer has nothing to answer (specs/client.md § Fitting
    the screen, :data:`~.screen.SQUEEZE` 11)."""
    me = obs.get("seat")
    p = obs.get("pending")
    if me is None or obs.get("to_move") != me or not p or obs.get("result") is not None:
        return None
    return t(f"status.answer_tiny.{p['contest']}", lang, actor=seat_label(p["actor"], None, None, lang))


def _chat_fields(line: ChatLine) -> tuple[Any, Any, Any]:
    if isinstance(line, str):
        return None, None, line
    if isinstance(line, Mapping):
        return line.get("seat"), line.get("name"), line.get("text", "")
    if isinstance(line, (tuple, list)) and len(line) == 2:
        return None, line[0], line[1]
    return getattr(line, "seat", None), getattr(line, "name", None), getattr(line, "text", str(line))


def chat_line_text(line: ChatLine, lang: str = "en", me: int | None = None) -> str:
    """One chat line as ``name: text``; accepts a string, ``(name, text)`` or a mapping
    (or object) with ``name``/``text``/``seat``. A None/empty name is the host; bot
    names are translated (:func:`display_name`), and the viewer's own lines
    (``seat == me``) under the placeholder name ``you`` read ``你：…`` in Chinese."""
    if isinstance(line, str):
        return printable(line)
    seat, name, text = _chat_fields(line)
    if me is not None and seat == me and (not name or is_you(name)):
        who = t("you", lang)
    else:
        who = display_name(name, lang) if name else t("chat.host", lang)
    return t("chat.line", lang, name=who, text=printable(text))


def verdict_note(code: str, args: Mapping[str, Any], lang: str) -> str | None:
    """A session's ``fairness``/``blind-seat`` note said from the verdict's code and args
    (``args["verdict"]``, :func:`jupai_net.client.session.verdict_args`); None when this
    program has no words for it (a newer verifier's code)."""
    from jupai_net.messages.verdicts import verdict_sentence

    verdict = args["verdict"]
    try:
        reason = verdict_sentence(verdict["code"], verdict.get("args") or {}, lang)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None
    scheme = verdict.get("scheme")
    if isinstance(scheme, str) and f"verdict.scheme.{scheme}" in catalog():
        reason = t(f"verdict.scheme.{scheme}", lang) + t("colon", lang) + reason
    if code == "blind-seat":
        return t("notice.blind-seat", lang, seat=args.get("seat"), text=reason)
    says = args.get("says") if args.get("says") in ("broke", "dropped", "tampered") else "broke"
    return t(f"notice.fairness.{says}", lang, text=reason)


def lost_words(code: str, values: Mapping[str, Any], lang: str = "en") -> str:
    """Why the connection to the host was lost, in ``lang``, from its code (catalog
    ``lost.CODE``: ``broken``, ``closed``, ``silent`` and ``send-stuck`` with
    ``seconds``, ``not-connected``, ``host-error`` with the host's ``error`` code and English
    ``message``) — a host's error said from its code (``主机报错：主机太久没有收到本客户端的
    消息``), its English words only in English. An unknown code: ``broken``'s words."""
    if code == "host-error":
        err = str(values.get("error", ""))
        said = (error_sentence(err, lang) if lang != "en" else None) or f"{err}: {values.get('message', '')}"
        return printable(t("lost.host-error", lang, said=said))
    key = f"lost.{code}" if f"lost.{code}" in MESSAGES else "lost.broken"
    try:
        return printable(t(key, lang, **{k: v for k, v in values.items() if isinstance(v, (str, int, float))}))
    except (KeyError, IndexError, ValueError):
        return printable(t("lost.broken", lang))


def notice_text(notice: Any, lang: str = "en") -> str:
    """A host notice in the viewer's language: a string as is, or ``(code, text)`` /
    a mapping / an object with ``code`` and ``text`` translated by code."""
    if isinstance(notice, str):
        return printable(notice)
    if isinstance(notice, Mapping):
        code, text = notice.get("code", ""), notice.get("text", "")
    elif isinstance(notice, (tuple, list)) and len(notice) == 2:
        code, text = notice
    else:
        code, text = getattr(notice, "code", ""), getattr(notice, "text", str(notice))
    args = getattr(notice, "args", None)
    if code in NET_NOTICE_CODES and (args or code in ARGLESS_CODES):  # a host notice with its values: said in the viewer's language
        try:
            return notice_sentence(code, args, lang)
        except (ValueError, KeyError, IndexError):
            pass
    if code in REPLY_CODES and isinstance(args, Mapping) and "illegal" in args:  # why, from the engine's code
        said = refusal_text(code, args["illegal"], lang)
        if said is not None:
            return said
    if code in REPLY_CODES and lang != "en":  # a host's refusal: its English details stay off a Chinese screen
        said = error_sentence(code, lang)
        if said is None and f"notice.{code}" in catalog():
            said = t(f"notice.{code}", lang, text="").strip()
        return said if said is not None else printable(code)  # a code of a newer host: its name, not its English
    if isinstance(args, Mapping) and code == "reconnecting" and isinstance(args.get("lost"), str):
        return t("notice.reconnecting.why", lang, why=lost_words(args["lost"], args, lang))
    if isinstance(args, Mapping) and code == "player-error" and args.get("what") in ("choose", "send"):
        return t(f"notice.player-error.{args['what']}", lang)  # this client's own trouble with a move
    if isinstance(args, Mapping) and code == "seat-later" and "seat" in args:  # the host's waiting list keeps a seat
        return t("notice.seat-later.kept", lang, seat=args.get("seat"))
    if isinstance(args, Mapping) and code == "away-too-long" and args.get("lobby"):  # dropped between games
        return t("notice.away-too-long.lobby", lang, seat=args.get("seat"))
    if isinstance(args, Mapping) and code == "welcome-back":
        if args.get("waited"):  # a dealer-blind game: nobody played for the seat, the game waited
            return t("notice.welcome-back.waited", lang, seat=args.get("seat"))
        return tn("notice.welcome-back", int(args.get("moves") or 0), lang, seat=args.get("seat"))
    if isinstance(args, Mapping) and isinstance(args.get("verdict"), Mapping) and code in ("fairness", "blind-seat"):
        said = verdict_note(code, args, lang)  # the verifier's reason from its code, in the viewer's language
        if said is not None:
            return said
    if isinstance(args, Mapping) and f"notice.{code}" in MESSAGES:
        try:  # a list of names as the language lists them (Alice、小明)
            values = {k: names_text(v, lang) if isinstance(v, (list, tuple)) else v for k, v in args.items()}
            return t(f"notice.{code}", lang, text=text or "", **values).strip()
        except (KeyError, IndexError, ValueError):
            pass
    key = f"notice.{code}"
    return t(key if key in MESSAGES else "notice.other", lang, text=printable(text or "")).strip()


#: Longest reason said from a refusal's args (characters; a ``reject``'s English
#: ``message`` is at most as long, specs/protocol.md §4).
MAX_REFUSAL = 500


def refusal_text(code: str, illegal: Any, lang: str = "en") -> str | None:
    """A refused action (a ``reject`` with ``code``, or the session's own note) said from
    why it is illegal, ``illegal`` = ``{"code": CODE, "args": {…}}`` of an
    :class:`~jupai_net.engine.IllegalAction` (``reject.args.illegal``, protocol version
    8, specs/protocol.md §7b), in ``lang``: the refusal's lead and the reason (``现在不能
    这样行动。你的手牌中没有 7♠``), or the reason alone when it says the lead itself
    (``not-your-turn``: ``还没轮到你：现在轮到1号位行动``); at most :data:`MAX_REFUSAL`
    characters, every value made printable. None when ``illegal`` is not one this
    program can say (a newer host's code, args that do not fit, a hostile host's
    values): the caller shows the English ``message`` or the lead alone."""
    from jupai_net.messages.illegal import illegal_sentence

    if not isinstance(illegal, Mapping):
        return None
    try:
        reason = illegal_sentence(illegal.get("code"), illegal.get("args") or {}, lang)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None
    if illegal.get("code") == code or f"notice.{code}" not in MESSAGES:
        said = reason[:1].upper() + reason[1:]
    else:
        said = t(f"notice.{code}", lang, text=reason).strip()
    return said if len(said) <= MAX_REFUSAL else said[:MAX_REFUSAL - 1] + "…"


def host_error_text(code: str, text: str, lang: str = "en") -> str:
    """Why the host refused or closed a connection (an ``error`` message's ``code`` and
    English ``text``): in English the host's ``text`` (the protocol code only when it
    gave none: a person reads the sentence, the code goes to the log); in another
    language the code's sentence from the catalog
    (:func:`~jupai_net.messages.notices.error_sentence`), or ``code: text`` for a code
    this program does not know. In English the catalog's sentence stands for the host's
    text when it says the same and more (``… you hold no seat in it; join after it, or
    watch it (jupai watch)``: the hint the Chinese sentence has too)."""
    said = error_sentence(code, lang)
    if said is not None and (lang != "en" or (text and said.startswith(printable(text).rstrip(". ")))):
        return said
    if lang == "en" and text:
        return printable(text)
    return f"{printable(code)}: {printable(text)}" if text else printable(code)


def ranking_rows(ranking: Sequence[int], names: Names = None, me: int | None = None, lang: str = "en",
                 cards_left: Sequence[int] | Mapping[int, int] | None = None,
                 recovered: Sequence[int] | Mapping[int, int] | None = None) -> list[str]:
    """The final places in words: ``1. seat 1 (Bob): 0 cards left, 2 recovered``
    (without counts when they are not known)."""
    def at(values: Any, s: int) -> Any:
        if values is None:
            return None
        if isinstance(values, Mapping):
            return values.get(s)
        return values[s] if 0 <= s < len(values) else None

    rows = []
    for place, s in enumerate(ranking, 1):
        who = seat_label(s, names, me, lang)
        left, rec = at(cards_left, s), at(recovered, s)
        if left is None:
            rows.append(t("result.row_plain", lang, place=place, who=who))
        else:
            rows.append(t("result.row", lang, place=place, who=who, left=tn("cards_left", left, lang),
                          recovered=0 if rec is None else rec))
    return rows
