"""Play after a dealer-blind deal, driven by the relayed stream (issue 9;
specs/fairness.md B.16.8).

The same object runs at the host, at every seat's client and in the verifier: it joins
one participant's :class:`~jupai_net.fairness.blind_ledger.BlindLedger` (every relayed
participant message, in relay order) to its :class:`~jupai_net.blind_game.BlindGame`
(the rules engine on deck positions). After every relayed message the program calls
:meth:`BlindPlay.advance`; for every relayed ``claim`` statement it calls
:meth:`BlindPlay.on_claim`. Both request in the ledger the openings the game calls for
(:meth:`BlindGame.due`, :meth:`BlindGame.openings_for`), and once their keys are in,
reveal the cards to the game, apply the claim (or record it as refused) and announce
the next round. Because every program does this at the same points of one stream, they
request the same openings in the same order, and each knows which keys it owes
(:meth:`~jupai_net.fairness.blind_actor.BlindActor.react`).

Pure: no IO, no clock, no randomness.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from ..actions import Action
from ..blind_game import BlindGame, Opening
from ..engine import Event, IllegalAction
from ..rules import RuleSet
from ..setup import Setup, draw_setup
from .blind import BlindError
from .blind_ledger import BlindLedger
from .primitives import Drbg

#: Domain-separation tag of the setup key (specs/fairness.md B.16.8).
TAG_BLIND_SETUP = b"jupai/v1/blind/setup\x00"


def blind_setup(rules: RuleSet, game_id: bytes, deck: Sequence[bytes]) -> Setup:
    """The setup (identities, identity ranks, special numbers) of a dealer-blind game:
    :func:`~jupai_net.setup.draw_setup` driven by the §4.2 stream (:class:`Drbg`) under
    the key ``SHA-256("jupai/v1/blind/setup\\0" ‖ game_id ‖ D[0] ‖ … ‖ D[N−1])``, where
    ``D`` is the final locked deck (32-byte points, B.6). Every participant knows ``D``
    the moment the last re-lock is relayed; nobody can choose it, because every pass is
    what its author's seed, committed in its hello before any pass, gives (B.10), and
    nobody can foresee it before the last pass, because it depends on every seed
    (specs/fairness.md B.16.8)."""
    h = hashlib.sha256(TAG_BLIND_SETUP + bytes(game_id))
    for x in deck:
        h.update(bytes(x))
    return draw_setup(rules, Drbg(h.digest()))


class BlindPlay:
    """One participant's game after the deal (specs/fairness.md B.16.8).

    ``ledger``: its ledger, at phase ``dealt`` (the final deck locked); ``viewer``: its
    own seat (a seat's client), or None (the host, the verifier); ``bots``: the seats
    the host plays; ``actor``: the :class:`~jupai_net.fairness.blind_actor.BlindActor`
    of the participants this program plays (None in the verifier, which holds no cards:
    then ``viewer`` must be None and ``bots`` empty). Raises ``ValueError`` for a table
    with hidden identities (B.16.1).

    State: :attr:`game` (the :class:`BlindGame`), :attr:`pending` (openings requested
    whose cards are not revealed to the game yet), :attr:`claim` (the relayed claim not
    decided yet), :attr:`events` (every event so far, positions), :attr:`rejected`
    (claims refused once their cards were open: ``(seat, action, why)``, ``why`` the
    :class:`~jupai_net.engine.IllegalAction`).
    """

    def __init__(self, rules: RuleSet, ledger: BlindLedger, *, viewer: int | None = None,
                 bots: Iterable[int] = (), actor: Any = None):
        self.ledger = ledger
        self.actor = actor
        self.setup = blind_setup(rules, ledger.game_id, ledger.deck)
        self.game = BlindGame(rules, self.setup, viewer, bots=bots)
        if self.game.holds and actor is None:
            raise ValueError("a participant that holds cards needs its actor to open them")
        self.pending: list[Opening] = []
        self.claim: tuple[Action, int] | None = None
        self.events: list[Event] = []
        self.rejected: list[tuple[int, Action, IllegalAction]] = []
        self._request(self.game.due())
        self.advance()

    # ------------------------------------------------------------------ where it stands

    @property
    def idle(self) -> bool:
        """True when nothing is being opened and no claim waits: the seat to move may
        claim (or the game is over)."""
        return not self.pending and self.claim is None

    @property
    def version(self) -> int:
        """The game's state version (actions applied so far)."""
        return self.game.state.version

    def owing(self) -> list[int]:
        """The participants (pass order) that still owe a key for an opening in progress."""
        owed = {p for q, to in self.pending for p in self.ledger.owed(q, to)}
        return [p for p in self.ledger.participants if p in owed]

    def check_withheld(self) -> None:
        """When the time for the openings in progress is up: :class:`BlindError` naming
        the first participant (pass order) that withheld a key (B.9)."""
        owing = self.owing()
        if owing:
            q, to = next(e for e in self.pending if owing[0] in self.ledger.owed(*e))
            self.ledger.check_withheld(q, to)  # names owing[0]: nobody before it owes a key

    # ------------------------------------------------------------------ the stream

    def on_claim(self, version: int, seat: int, action: Action) -> list[Event]:
        """A relayed claim: ``seat`` plays ``action`` (positions) at state ``version``.
        Checks it on public information (B.16.4 stage 1) and requests the openings it
        needs; returns the events of what could be done at once (:meth:`advance`).
        ``IllegalAction`` (nothing changed) when the claim cannot be relayed now: not
        idle, another version, or illegal on public information — a relay that sends it
        anyway broke the protocol."""
        if not self.idle:
            raise IllegalAction("claim-while-opening", claimant=seat)
        if version != self.version:
            raise IllegalAction("claim-stale", claimant=seat, version=version, current=self.version)
        todo = self.game.openings_for(action, seat)
        self.claim = (action, seat)
        self._request(todo)
        return self.advance()

    def advance(self) -> list[Event]:
        """After each relayed message: reveal the openings whose keys are all in, decide
        the claim once its cards are open (applied, or refused: :attr:`rejected`),
        request what follows (a discard's target mass, the step's draws and the next
        round card) and announce the next round once its card is open. Returns the new
        events. :class:`BlindError` when an opening gives no card or a card seen at
        another position (a wrong pass: the audit names who)."""
        start = len(self.events)
        game = self.game
        while True:
            if self.pending:
                if any(self.ledger.owed(q, to) for q, to in self.pending):
                    break
                self._reveal()
                continue
            if self.claim is not None:
                action, seat = self.claim
                try:
                    todo = game.openings_for(action, seat)
                    if todo:
                        self._request(todo)
                        continue
                    self.events += game.apply(action, seat)
                except IllegalAction as exc:
                    self.rejected.append((seat, action, exc))
                self.claim = None
                continue
            due = game.due()
            if due:
                self._request(due)
                continue
            if game.state.round_due is not None:
                self.events += game.resume()
                continue
            break
        return self.events[start:]

    def _request(self, openings: Iterable[Opening]) -> None:
        for q, to in openings:
            self.ledger.request(q, to)
            self.pending.append((q, to))

    def _reveal(self) -> None:
        """Every pending opening has its keys: give the game the cards it may see."""
        game = self.game
        if self.actor is not None:
            self.actor.open_own(self.ledger)
        for q, to in self.pending:
            if to is None:
                card = self.ledger.open_public(q)
            elif to in game.holds:
                card = self.actor.cards[(to, q)]
            else:
                card = None
            try:
                game.reveal(q, to, card)
            except ValueError as exc:  # pragma: no cover - the ledger refuses a repeated card first
                raise BlindError(str(exc), position=q) from None
        self.pending = []


__all__ = ["BlindPlay", "TAG_BLIND_SETUP", "blind_setup"]
