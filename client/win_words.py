"""Who won a game, in words: one sentence for every screen that says it (the ending
screen, a spectator's, ``jupai replay``, the event log, ``jupai history``, the host
console). The rule is the engine's (:func:`jupai_net.engine.game_winner` and
:func:`~jupai_net.engine.win_reason`, specs/rules.md § 8): the first of the final
ranking wins, whether a seat emptied its hand and equipment or the last round ended.
No rich, no IO."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jupai_net.engine import WIN_EMPTIED, WIN_RANKED, game_winner, win_reason

from .i18n import t


def win_why(reason: str, lang: str = "en") -> str:
    """How the game was won, in ``lang``, for a :func:`~jupai_net.engine.win_reason`
    (``emptied``: ``played out every card`` / ``出完了所有牌``; ``ranked``: ``ranked
    first after the last round`` / ``最后一回合后排名第一``). Raises ``ValueError`` for
    another reason."""
    if reason not in (WIN_EMPTIED, WIN_RANKED):
        raise ValueError(f"a win is {WIN_EMPTIED!r} or {WIN_RANKED!r}, not {reason!r}")
    return t(f"win.why.{reason}", lang)


def win_text(who: str, reason: str, lang: str = "en") -> str:
    """The winner's sentence: ``Ann wins (played out every card)``, ``seat 2 (Bob)
    wins (ranked first after the last round)``, ``Ann 获胜（出完了所有牌）``. ``who``
    is the winner as the screen names a seat; ``reason`` as for :func:`win_why`."""
    return t("win.text", lang, who=who, why=win_why(reason, lang))


def win_named(who: str, reason: str, lang: str = "en") -> str:
    """The winner with how it won, for a line already labelled "winner" (``jupai
    history``'s block): ``Ann (played out every card)``."""
    return t("win.named", lang, who=who, why=win_why(reason, lang))


def game_win_text(ranking: Sequence[Any] | None, winner: Any, who: Callable[[int], str],
                  lang: str = "en") -> str | None:
    """:func:`win_text` for a finished game's final ``ranking`` (seats, best first) and
    its ``winner`` (the seat that emptied its hand, or None after the last round), the
    winning seat named by ``who(seat)``; None when there is no winner (no ranking: the
    game did not finish)."""
    seat = game_winner(ranking)
    if seat is None:
        return None
    return win_text(who(seat), win_reason(ranking, winner) or WIN_RANKED, lang)


__all__ = ["game_win_text", "win_named", "win_text", "win_why"]
