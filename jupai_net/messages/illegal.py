"""Why an action is not legal, in words (specs/rules.md § 13a): one table of
the common catalog :mod:`jupai_net.messages`.

:class:`~jupai_net.engine.IllegalAction` carries a stable ``code`` and its ``params``
(:mod:`jupai_net.illegal`, whose English templates are the English entries here);
every place a person reads why a move was refused or why a transcript's action is
illegal — the game screen after a ``reject``, ``jupai verify``, ``jupai replay``,
``jupai history``, the ending's verdict — says it with :func:`illegal_sentence` in the
person's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jupai_net.illegal import CONTEXT, ILLEGAL, values
from jupai_net.printable import printable

#: code -> Chinese (the same placeholders as the English of :data:`jupai_net.illegal.ILLEGAL`)
CHINESE: dict[str, str] = {
    "game-over": "对局已经结束",
    "not-your-turn": "还没轮到你：现在轮到{to_move}号位行动",
    "not-to-move": "{seat}号位现在不能行动：轮到的是{to_move}号位",
    "not-an-action": "这不是一个行动",
    "supply-unfinished": "请先完成补给（a）：再丢弃一张回收的牌，或跳过以结束",
    "supply-recovered-only": "补给（a）的意图牌之后只能丢弃回收的牌",
    "answer-first": "{seat}号位必须先回应{actor}号位的{contest}",
    "nothing-to-answer": "现在没有需要回应的行动",
    "rearm-equipped": "你还有装备",
    "stock-short": "牌堆不足 2 张",
    "rearm-twice": "你这回合已经抽过装备了",
    "rearm-too-soon": "失去装备（第 {round} 回合）后须经过一整个回合才能再抽装备",
    "not-supply-action": "这是补给回合：“{kind}”不是补给行动",
    "wrong-round": "这是{round}回合：不能“{kind}”",
    "not-in-hand": "你的手牌中没有 {cards}",
    "bad-target": "目标 {target} 不是对手的座位",
    "no-weapon": "你没有武器",
    "last-round-all": "最后一回合每次出牌都要打出全部手牌（有武器必须使用）",
    "no-equipment": "{target}号位没有可以丢弃的装备",
    "supply-order": "补给（a）：先打出意图牌，再逐张丢弃回收的牌（最多 v 张）",
    "last-round-no-pass": "最后一回合你必须打出全部手牌",
    "cannot-pass": "你不能跳过：你还有要出的牌",
    "not-legal-now": "现在不能用这些牌、武器或目标{kind}",
    "unknown-kind": "未知的行动类型 {kind}",
    "target-not-seat": "目标 {target} 不是座位号",
    "weapon-not-bool": "weapon 必须是 true 或 false，收到的是 {weapon}",
    "cards-not-ids": "行动的 {field} 必须是由 0..52 的牌号组成的元组，收到的是 {value}",
    "cards-twice": "{cards} 被重复列出",
    "round-card-closed": "回合牌（牌堆位置 {position}）还没有打开",
    "open-before-play": "牌堆位置 {positions} 必须先打开，出牌才算数",
    "not-held": "{seat}号位申报了牌堆位置 {position}，但它并不持有这张牌（没有发给或抽给它，或已经打出）",
    "open-first": "牌堆位置 {positions} 必须先打开",
    "claim-while-opening": "上一步的牌还在打开时就收到了出牌申报",
    "claim-stale": "出牌申报针对第 {version} 个状态，但对局已在第 {current} 个状态",
    "still-opening": "上一步的牌还在打开；请等待提示",
    "other": "{text}",
}

#: An action kind, a contest or a round type as a sentence says it (English: as the wire writes it).
KINDS: dict[str, tuple[str, str]] = {
    "attack": ("attack", "进攻"), "defense": ("defense", "防守"), "discard": ("discard", "丢弃"),
    "supply": ("supply", "补给"), "supply-recovered": ("supply-recovered", "补给（a）"),
    "supply-equipment": ("supply-equipment", "补给（b）"), "pass": ("pass", "跳过"), "answer": ("answer", "回应"),
    "rearm": ("rearm", "抽新装备"),
}

MESSAGES: dict[str, tuple[str, str]] = {
    **{f"illegal.{code}": (ILLEGAL[code], CHINESE[code]) for code in ILLEGAL},
    **{f"illegal.kind.{kind}": words for kind, words in KINDS.items()},
    "illegal.context.index": (CONTEXT["index"], "第 {index} 个行动："),
    "illegal.context.claimant": (CONTEXT["claimant"], "{claimant}号位："),
}


def illegal_sentence(code: Any, args: Any, lang: str = "en") -> str:
    """Why an action is not legal (``code`` and ``args`` of an
    :class:`~jupai_net.engine.IllegalAction`, or as they came from a peer) in ``lang``,
    every value made printable. Raises ``ValueError`` for a code this program does not
    know or args that do not fit it (a newer peer's: show its English text instead)."""
    from . import t

    if not isinstance(code, str) or code not in ILLEGAL or not isinstance(args, Mapping):
        raise ValueError(f"unknown illegal-action code {code!r}")
    said = values(dict(args), t("names.sep", lang))
    for name in ("kind", "contest", "round"):
        if isinstance(said.get(name), str) and said[name] in KINDS:
            said[name] = t(f"illegal.kind.{said[name]}", lang)
    try:
        head = "".join(t(f"illegal.context.{k}", lang, **{k: printable(str(args[k]))}) for k in CONTEXT if k in args)
        return head + t(f"illegal.{code}", lang, **{k: printable(str(v)) for k, v in said.items() if k not in CONTEXT})
    except (KeyError, IndexError) as exc:
        raise ValueError(f"args do not fit illegal-action code {code!r}") from exc
