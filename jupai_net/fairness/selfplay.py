"""A whole game through the fairness layer, in memory: a :class:`HostDealer`, one
:class:`SeatWitness` per seat (and a spectator), bots choosing random legal actions.

For tests, the benchmark, the test vectors and as a worked example of the call order
the trio host and client follow (specs/fairness.md §2). Pure apart from the
:mod:`secrets` defaults of the dealer and witnesses.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..rules import RuleSet
from .dealer import HostDealer, Outbox
from .statements import generate_signing_key
from .witness import SeatWitness


@dataclass
class SelfPlay:
    """The result of :func:`play_game`: the ``dealer``, the ``witnesses`` by viewer
    (seats, and ``None`` for the spectator) and the number of ``steps`` played."""

    dealer: HostDealer
    witnesses: dict[int | None, SeatWitness]
    steps: int = 0
    log: list[tuple[int | None, bytes]] = field(default_factory=list)

    def transcript(self, viewer: int | None) -> bytes:
        """Transcript file bytes of ``viewer``."""
        return self.witnesses[viewer].transcript()


def deliver(outbox: Outbox, witnesses: dict[int | None, SeatWitness], log: list | None = None) -> None:
    """Hand every statement of ``outbox`` to its viewer's witness, in order."""
    for viewer, msgs in outbox.items():
        for m in msgs:
            if log is not None:
                log.append((viewer, m))
            witnesses[viewer].receive(m)


def play_game(
    rules: RuleSet | None = None,
    *,
    rng_seed: int = 0,
    key: Ed25519PrivateKey | None = None,
    game_id: bytes | None = None,
    host_seed: bytes | None = None,
    seat_seeds: list[bytes] | None = None,
    spectators: bool = True,
    max_steps: int | None = None,
    finish: bool = True,
    engine: ModuleType | None = None,
    choose: Callable[[Any, random.Random], Any] | None = None,
    chained: Any = True,
    deferred: Any = False,
) -> SelfPlay:
    """Play one honest game: start, every seat commits and reveals, then bots pick
    ``random.Random(rng_seed).choice`` of the legal actions (or ``choose(state, rng)``)
    until the game is over (or ``max_steps`` actions), then the host finishes (unless
    ``finish=False``). ``game_id``, ``host_seed`` and ``seat_seeds`` fix the randomness
    (test vectors); by default they come from :mod:`secrets`. ``chained``: as
    :class:`HostDealer`'s (``False``: version-1 bodies, the format before the hash chain);
    ``deferred``: as :class:`HostDealer`'s (``True``: every seat's stream in version-3
    bodies, steps signed only for the seat to move, specs/fairness.md §6.6)."""
    rules = rules or RuleSet()
    key = key or generate_signing_key()
    dealer = HostDealer(rules, key, game_id=game_id, host_seed=host_seed, spectators=spectators, engine=engine,
                        chained=chained, deferred=deferred)
    ws: dict[int | None, SeatWitness] = {
        s: SeatWitness(s, seat_seeds[s] if seat_seeds else None, engine=engine) for s in range(rules.players)
    }
    if spectators:
        ws[None] = SeatWitness(None, engine=engine)
    sp = SelfPlay(dealer, ws)
    deliver(dealer.start(), ws, sp.log)
    for s in range(rules.players):
        deliver(dealer.commit(s, ws[s].commitment), ws, sp.log)
    for s in range(rules.players):
        deliver(dealer.reveal(s, ws[s].seed_reveal()), ws, sp.log)
    rng = random.Random(rng_seed)
    state = dealer.state
    while not state.is_over and (max_steps is None or sp.steps < max_steps):
        if choose is not None:
            action = choose(state, rng)
        else:
            action = rng.choice(state.legal_actions(state.to_move))
        _, out = dealer.apply(action)
        deliver(out, ws, sp.log)
        sp.steps += 1
    if finish and state.is_over:
        deliver(dealer.finish(), ws, sp.log)
    return sp
