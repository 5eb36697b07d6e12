"""A fixed corpus of engine games, recorded once and replayed by
``tests/test_engine_corpus.py`` (issue 10: engine speed-ups must not change a bit).

Each game is fully determined by its index: table size, house rules and bot come from
:data:`VARIANTS` and the index, the deck order, setup and the bots' choices from
``random.Random(seed)``. At every step the recorder hashes what the engine shows to
the world, in wire form and key order (JSON, insertion order kept):

* before the move: ``to_move``, the legal actions of every seat (only the seat to move
  has any), and ``observation(v)`` for the spectator (None) and every seat;
* after it: the events ``apply`` returned, as each viewer sees them (``to_wire(v)``).

A step's hash is the first 4 bytes of SHA-256 over that JSON (a change anywhere shows
up at the first step it touches); each game also keeps the full SHA-256 of its final
``record()`` and last observations. Regenerate (only when a rules change is meant to
change outputs) with ``python -m tests.engine_corpus --write``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

PATH = Path(__file__).resolve().parent / "data" / "engine_corpus.json.gz"
GAMES = 200

#: house-rule variants (RuleSet keyword arguments), cycled with the table size
VARIANTS: list[dict[str, Any]] = [
    {},
    {"swap_prime_composite": True},
    {"random_specials": True},
    {"round_value": "rank"},
    {"same_identity": "matching-card"},
    {"hidden_identities": True},
    {"hidden_identities": True, "same_identity": "matching-card"},
    {"attack_number": 2},
    {"rounds": 3},
    {"hand_size": 3, "rounds": 4},
]


def game_spec(k: int) -> dict[str, Any]:
    """Table size, rules, bot and seed of corpus game ``k``."""
    return {"players": 2 + k % 5, "rules": VARIANTS[(k // 5) % len(VARIANTS)],
            "bot": "greedy" if k % 4 == 3 else "random", "seed": 1000 + k}


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def play(k: int, engine: Any = None, bots: Any = None) -> dict[str, Any]:
    """Play corpus game ``k`` with the given engine and bots modules (default: the
    package's) and return ``{"steps", "hashes", "final"}``."""
    if engine is None:
        from jupai_net import engine
    if bots is None:
        from jupai_net import bots
    from jupai_net.rules import RuleSet
    from jupai_net.setup import draw_setup

    spec = game_spec(k)
    rules = RuleSet(players=spec["players"], **spec["rules"])
    rng = random.Random(spec["seed"])
    deck = list(range(53))
    rng.shuffle(deck)
    state = engine.GameState.new(rules, deck, draw_setup(rules, rng))
    bot = bots.get_bot(spec["bot"])
    viewers: list[int | None] = [None, *range(rules.players)]
    hashes = []
    while not state.is_over:
        seat = state.to_move
        legal = state.legal_actions(seat)
        others = [state.legal_actions(s) for s in range(rules.players) if s != seat]
        obs = [state.observation(v) for v in viewers]
        before = [seat, [a.to_wire() for a in legal], others, obs]
        action = bot(obs[seat + 1], legal, rng)
        events = state.apply(action)
        after = [[e.to_wire(v) for e in events] for v in viewers]
        hashes.append(hashlib.sha256(_dump([before, after])).hexdigest()[:8])
    final = [state.record(), [state.observation(v) for v in viewers], state.legal_actions(),
             [e.to_wire(v) for v in viewers for e in state.events]]
    return {"steps": len(hashes), "hashes": "".join(hashes), "final": hashlib.sha256(_dump(final)).hexdigest()}


def build() -> dict[str, Any]:
    """The whole corpus: ``{"games": [{spec…, steps, hashes, final}, …]}``."""
    return {"version": 1, "games": [{**game_spec(k), **play(k)} for k in range(GAMES)]}


def load() -> dict[str, Any]:
    """The stored corpus."""
    return json.loads(gzip.decompress(PATH.read_bytes()))


def main(argv: list[str]) -> int:
    """``--write``: rebuild and store the corpus; else print its size."""
    corpus = build()
    if "--write" in argv:
        PATH.parent.mkdir(parents=True, exist_ok=True)
        PATH.write_bytes(gzip.compress(_dump(corpus) + b"\n", mtime=0))
        print(f"wrote {PATH} ({sum(g['steps'] for g in corpus['games'])} steps)")
    else:
        print(f"{len(corpus['games'])} games, {sum(g['steps'] for g in corpus['games'])} steps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
