"""Why an action is not legal, as data (specs/rules.md § 13a): the stable
codes of :class:`~jupai_net.engine.IllegalAction` and their English sentences.

The engine, the dealer-blind game and the host raise ``IllegalAction(code, **args)``;
its ``str()`` and ``reason`` are :func:`english` of them (logs, tests, the ``message``
of a ``reject``), and every place a person reads it says it in the person's language
from the catalog key ``illegal.CODE`` (:func:`jupai_net.messages.illegal.illegal_sentence`),
which has the same placeholders. This module imports nothing: the engine stays pure
and the code is data.

Args are plain values: whole numbers (seats, states, rounds, deck positions), short
strings (``kind``: an action kind as the wire writes it, ``contest``/``round``:
``attack``…, a repr of a malformed value) and lists (``cards``: card names as the
engine writes them, ``positions``: deck positions). Two args put the sentence in
context and go before it: ``claimant`` (``seat 2: …``, the dealer-blind game names
the seat) and ``index`` (``action 12: …``, a replayed record).
"""

from __future__ import annotations

from typing import Any

#: code -> English template; a list value is written ``a, b``.
ILLEGAL: dict[str, str] = {
    "game-over": "the game is over",
    "not-your-turn": "not your turn: seat {to_move} is to move",
    "not-to-move": "seat {seat} is not to move: seat {to_move} is",
    "not-an-action": "not an action",
    "supply-unfinished": "finish supply (a) first: discard one more recovered card, or pass to stop",
    "supply-recovered-only": "only recovered cards can follow the intent card of supply (a)",
    "answer-first": "seat {seat} must answer the {contest} of seat {actor} first",
    "nothing-to-answer": "there is nothing to answer",
    "rearm-equipped": "you still have equipment",
    "stock-short": "the stock has fewer than 2 cards",
    "rearm-twice": "you have already drawn equipment this turn",
    "rearm-too-soon": "you must let a full round pass after losing equipment (round {round}) before drawing",
    "not-supply-action": "this is a supply round: '{kind}' is not a supply action",
    "wrong-round": "this is a {round} round: '{kind}' is not allowed",
    "not-in-hand": "card(s) {cards} not in your hand",
    "bad-target": "target {target} is not an opponent's seat",
    "no-weapon": "you have no weapon",
    "last-round-all": "in the last round every play uses all hand cards (and the weapon, if armed)",
    "no-equipment": "seat {target} has no equipment to discard",
    "supply-order": "supply (a): play the intent card first, then discard recovered cards one at a time (at most v)",
    "last-round-no-pass": "in the last round you must play all your hand cards",
    "cannot-pass": "you cannot pass: you have a play to make",
    "not-legal-now": "{kind} with these cards/weapon/target is not legal now",
    # an action that is not even well formed (engine._malformed)
    "unknown-kind": "unknown action kind {kind}",
    "target-not-seat": "target {target} is not a seat number",
    "weapon-not-bool": "weapon must be true or false, got {weapon}",
    "cards-not-ids": "action {field} must be a tuple of card ids 0..52, got {value}",
    "cards-twice": "card(s) {cards} named more than once",
    # the dealer-blind game (blind_game, fairness.blind_play, host.blind)
    "round-card-closed": "the round card (deck position {position}) is not open yet",
    "open-before-play": "deck position(s) {positions} must be opened before the play counts",
    "not-held": "seat {seat} claims deck position {position}, which it does not hold (not dealt or drawn to it, "
                "or already played)",
    "open-first": "deck position(s) {positions} must be opened first",
    "claim-while-opening": "a claim while the cards of the previous step are still being opened",
    "claim-stale": "a claim for state {version}, but the game is at state {current}",
    "still-opening": "the cards of the last step are still being opened; wait for the prompt",
    # a reason given as text (an older caller): said as written
    "other": "{text}",
}

#: The context args, in the order their words go before the sentence.
CONTEXT: dict[str, str] = {"index": "action {index}: ", "claimant": "seat {claimant}: "}


def values(args: dict[str, Any], sep: str = ", ") -> dict[str, Any]:
    """``args`` ready for a template: every list joined with ``sep``."""
    return {k: sep.join(map(str, v)) if isinstance(v, (list, tuple)) else v for k, v in args.items()}


def english(code: str, args: dict[str, Any]) -> str:
    """The English sentence of ``code`` with ``args`` (context first). ``KeyError`` for
    an unknown code or a missing arg."""
    said = "".join(CONTEXT[k].format(**{k: args[k]}) for k in CONTEXT if k in args)
    return said + ILLEGAL[code].format(**values(args))
