"""A saved game, step by step, for ``jupai replay`` and ``jupai history``
(specs/client.md § Replay).

:func:`read_game` reads a transcript file, verifies it (:func:`check_decoded`) and
rebuilds the game as the seat saw it: the deal, then one :class:`Step` per signed
``step`` statement with the view of the seat after it. When the host seed is known
(the game ended or was abandoned with its seed), the deck is recomputed from the
seeds and the engine replays the game, so each step also carries the seat's full
``observation`` and the game's final ``deck``; otherwise the steps carry only the
signed events.

No IO but reading the file; nothing here prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

from ..actions import Action
from ..rules import RuleSet
from .replay import load_engine
from .statements import ABANDON, COMMITMENTS, DEAL, END, START, STEP, Statement, check_body, decode_body, split_statement
from .transcript import Transcript, TranscriptError, decode_transcript
from .verify import MALFORMED, Verdict, check_decoded, file_verdict, problem_verdict


@dataclass(frozen=True)
class Step:
    """One action of the game as the seat saw it.

    ``number`` counts actions from 1; ``actor`` is the acting seat; ``action`` its
    wire form (``Action.to_wire``); ``events`` the outcome as the seat saw it
    (``Event.to_wire(seat)``, with formulas); ``observation`` the seat's view after
    the action (``GameState.observation(seat)``), or ``None`` when the deck could not
    be recomputed."""

    number: int
    actor: int
    action: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    observation: dict[str, Any] | None


@dataclass(frozen=True)
class GameStory:
    """A transcript read back for people.

    ``verdict`` is the verification verdict; ``seat`` the seat that saved it (``None``
    for a spectator); ``seats`` the number of players; ``rules`` the rules in force;
    ``opening`` the seat's view right after the deal (``None`` before a deal);
    ``steps`` every action in order; ``ranking``/``winner`` from the ``end``
    statement (``None`` if the game did not end); ``deck`` the whole deck, position
    by position, as the seeds made it (``None`` while the host seed is unknown);
    ``abandoned`` the host's reason when it stopped the game; ``names`` the players'
    names by seat from the file's unsigned ``meta`` (printable only; empty when unknown);
    ``dealer`` the scheme that dealt the game as the checker found it in the signed
    statements: ``"blind"`` (dealer-blind, specs/fairness.md B.15), ``"trusted"`` (seed
    commitments), or ``None`` when the transcript stops before either."""

    verdict: Verdict
    seat: int | None
    seats: int
    rules: RuleSet | None
    opening: dict[str, Any] | None
    steps: tuple[Step, ...] = ()
    ranking: tuple[int, ...] | None = None
    winner: int | None = None
    deck: tuple[int, ...] | None = None
    abandoned: str | None = None
    notes: tuple[str, ...] = field(default=())
    names: tuple[str, ...] = ()
    dealer: str | None = None

    @property
    def finished(self) -> bool:
        """True when the host announced the end of the game (an ``end`` statement)."""
        return self.ranking is not None


class StoryError(Exception):
    """A transcript that cannot be told: unreadable or malformed. ``verdict`` says why."""

    def __init__(self, verdict: Verdict):
        super().__init__(verdict.reason)
        self.verdict = verdict


def read_game(data: bytes, *, engine: ModuleType | None = None) -> GameStory:
    """Verify transcript file bytes and rebuild the game from them.

    Raises :class:`StoryError` (with a ``malformed`` verdict) when the bytes are not a
    readable transcript or a statement body cannot be decoded. A transcript that reads
    but does not verify is still told (the caller decides whether to show it:
    ``jupai replay`` refuses without ``--force``); its ``verdict`` says what is wrong."""
    try:
        t = decode_transcript(data)
    except TranscriptError as e:
        raise StoryError(file_verdict(e)) from None
    verdict, checker = check_decoded(t, engine=engine)
    story = replace(_tell(t, verdict, engine), dealer=_scheme(checker))
    if not story.steps and story.deck is None:
        blind = _blind_views(t, checker, engine)
        if blind is not None:  # a dealer-blind game: its claims, on the audited deck
            deck, opening, steps = blind
            story = replace(story, deck=deck, opening=opening, steps=steps)
    return story


def _scheme(checker: Any) -> str | None:
    """The dealing scheme the checker met: ``"blind"`` once it read the seats' hellos
    (it keeps their ledger), ``"trusted"`` once it read the seed commitments, else None."""
    if getattr(checker, "ledger", None) is not None:
        return "blind"
    return "trusted" if COMMITMENTS in (getattr(checker, "index_of", None) or {}) else None


def _blind_views(t: Transcript, checker: Any, engine: ModuleType | None):
    """A dealer-blind transcript (specs/fairness.md B.16) told as a trusted one: the
    game its claims make, on the deck the audit of the deal gives (``trusted_record``,
    B.16.6), replayed with the trusted engine for the seat's view after each action.
    ``checker``: the :class:`~jupai_net.fairness.verify.GameChecker` that verified it.
    ``(deck, opening, steps)``, or ``None`` when the transcript is not a dealer-blind
    one or its deal cannot be audited (a seed is missing: no deck is known)."""
    from ..blind_game import trusted_record
    from ..setup import Setup

    play = getattr(checker, "play", None)
    if play is None:
        return None
    try:
        deck = checker.ledger.audit()
        record = trusted_record(play.game.state.record(), deck)
        eng = load_engine(engine)
        state = eng.GameState.new(RuleSet.from_wire(record["rules"]), record["deck"], Setup.from_wire(record["setup"]))
    except Exception:  # noqa: BLE001 - not auditable (a seed missing): no deck to tell the game with
        return None
    seat = t.seat
    opening = state.observation(seat)
    steps = []
    for i, wire in enumerate(record["actions"]):
        actor = state.to_move
        try:
            events = state.apply(Action.from_wire(wire))
        except Exception:  # noqa: BLE001 - the verdict already says the game does not replay
            break
        steps.append(Step(i + 1, int(actor), dict(wire), tuple(e.to_wire(seat) for e in events), state.observation(seat)))
    return tuple(deck), opening, tuple(steps)


def _bodies(t: Transcript, verdict: Verdict) -> list[Statement]:
    out: list[Statement] = []
    for i, raw in enumerate(t.statements):
        try:
            body_bytes, sig = split_statement(raw)
            body = decode_body(body_bytes)
            check_body(body)
        except Exception as exc:  # noqa: BLE001 - a bad statement ends the story there
            if not out:
                raise StoryError(problem_verdict(MALFORMED, "statement_unreadable", {"n": i, "detail": str(exc)})) from None
            break
        out.append(Statement(body, body_bytes, sig, raw))
    return out


def _tell(t: Transcript, verdict: Verdict, engine: ModuleType | None) -> GameStory:
    stmts = _bodies(t, verdict)
    by_kind: dict[str, Statement] = {}
    for st in stmts:
        by_kind.setdefault(st.kind, st)
    start = by_kind.get(START)
    rules = None
    if start is not None:
        try:
            rules = RuleSet.from_wire(start["rules"])
        except Exception:  # noqa: BLE001 - told without rules
            rules = None
    seats = int(start["seats"]) if start is not None else 0
    deal = by_kind.get(DEAL)
    opening = deal["observation"] if deal is not None else None
    end = by_kind.get(END)
    abandon = by_kind.get(ABANDON)
    host_seed = (end or abandon)["host_seed"] if (end or abandon) is not None else None
    signed_steps = [st for st in stmts if st.kind == STEP]
    deck = None
    observations: list[dict[str, Any] | None] = [None] * len(signed_steps)
    seeds = by_kind.get("seeds")
    if rules is not None and host_seed is not None and seeds is not None and deal is not None:
        deck, observations, opening = _engine_views(rules, start, seeds, host_seed, signed_steps, t.seat, engine, opening)
    steps = tuple(
        Step(i + 1, int(st["actor"]), dict(st["action"]), tuple(st["events"]), observations[i])
        for i, st in enumerate(signed_steps)
    )
    return GameStory(
        verdict=verdict,
        seat=t.seat,
        seats=seats,
        rules=rules,
        opening=opening,
        steps=steps,
        ranking=tuple(end["ranking"]) if end is not None else None,
        winner=end["winner"] if end is not None else None,
        deck=deck,
        abandoned=abandon["reason"] if abandon is not None else None,
        notes=tuple(n for n in (t.host_gone, t.left) if n),
        names=meta_names(t.meta, seats),
    )


def meta_names(meta: Any, seats: int) -> tuple[str, ...]:
    """The players' names by seat from a transcript's unsigned ``meta`` (control and format
    characters dropped, at most 40 characters each); ``()`` when it has none."""
    names = (meta or {}).get("names") if isinstance(meta, dict) else None
    if not isinstance(names, list) or not names:
        return ()
    clean = ["".join(c for c in str(n) if c.isprintable())[:40] or f"seat {s}" for s, n in enumerate(names[:seats])]
    return tuple(clean + [f"seat {s}" for s in range(len(clean), seats)])


def _engine_views(rules: RuleSet, start: Statement, seeds: Statement, host_seed: bytes, steps: list[Statement],
                  seat: int | None, engine: ModuleType | None, opening: dict[str, Any] | None):
    """Recompute the deck from the seeds and replay the signed actions with the engine;
    the seat's observation after each. Stops (keeping what it has) at the first action
    the engine refuses: the verdict already says the transcript is tampered."""
    from .primitives import derive_deal

    observations: list[dict[str, Any] | None] = [None] * len(steps)
    try:
        deal = derive_deal(rules, start.game_id, host_seed, list(seeds["seeds"]))
        eng = load_engine(engine)
        state = eng.GameState.new(rules, deal.deck, deal.setup)
    except Exception:  # noqa: BLE001 - seeds that make no game: told from the signed events
        return None, observations, opening
    opening = state.observation(seat)
    for i, st in enumerate(steps):
        try:
            state.apply(Action.from_wire(st["action"]))
        except Exception:  # noqa: BLE001
            break
        observations[i] = state.observation(seat)
    return tuple(deal.deck), observations, opening
