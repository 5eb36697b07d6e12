"""specs/fairness.md §5.4, "which cards are due", implemented again from the text alone
(positions from the deck layout and the public events) and compared with the
openings the host really sends to every viewer, over games of every table size and
house rule, with a stock so that rearm and supply (b) happen."""

from __future__ import annotations

import msgpack
import pytest

from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.statements import split_statement
from jupai_net.rules import RuleSet

RULES = [
    RuleSet(players=2, rounds=6, hand_size=3),
    RuleSet(players=3, rounds=6, hand_size=4, same_identity="matching-card"),
    RuleSet(players=4, rounds=8, hand_size=3, hidden_identities=True),
    RuleSet(players=5, rounds=6, random_specials=True, swap_prime_composite=True),
    RuleSet(players=6, rounds=7, hand_size=3, round_value="rank"),
]


def _named_cards(event: dict) -> list[int]:
    """Card ids the public part of an event names (§5.4 rule 2)."""
    kind, out = event["kind"], []
    if kind in ("play", "discard"):
        out += event["cards"]
        out += event.get("equipment") or []
    elif kind == "contest":
        out += event.get("equipment") or []
        for side in event["sides"]:
            out += side["cards"]
            if side["weapon"]:
                out += [side["weapon"]["mass"], side["weapon"]["weapon"]]
    elif kind == "supply":
        out += event.get("cards", []) + event.get("recovered", [])
        out += event.get("discarded") or []
        out += event.get("equipment") or []  # a face-up draw (a face-down one names it to the drawer only)
    return out


class SpecDue:
    """The due openings of §5.4, from the layout and the spectator's events."""

    def __init__(self, rules: RuleSet, deck: list[int]):
        p, h, n = rules.players, rules.hand_size, rules.rounds
        self.pos = {c: k for k, c in enumerate(deck)}
        self.rounds = [p * (2 + h) + r for r in range(n)]
        self.stock = p * (2 + h) + n
        self.draws = 0
        self.mass = {s: 2 * s for s in range(p)}  # position of each seat's current mass
        self.public = {self.rounds[0]}
        self.known = {s: {2 * s, 2 * s + 1} | set(range(2 * p + s * h, 2 * p + (s + 1) * h)) for s in range(p)}
        self.known[None] = set()

    def step(self, events: list[dict]) -> None:
        for e in events:
            if e["kind"] == "round":
                self.public.add(self.rounds[e["round"] - 1])
            self.public.update(self.pos[c] for c in _named_cards(e))
            if e["kind"] == "discard" and "formula" in e:
                self.public.add(self.mass[e["target"]])
            if e["kind"] == "rearm" or (e["kind"] == "supply" and e["option"] == "b"):
                pair = {self.stock + 2 * self.draws, self.stock + 2 * self.draws + 1}
                self.mass[e["seat"]] = self.stock + 2 * self.draws
                self.draws += 1
                if not e.get("face_up"):
                    self.known[e["seat"]] |= pair

    def due(self, viewer, shown: set[int]) -> tuple[list[int], list[int]]:
        public = sorted(self.public - shown)
        private = sorted(self.known[viewer] - self.public - shown)
        shown.update(public, private)
        return private, public


def _bodies(raw_list):
    return [msgpack.unpackb(split_statement(r)[0], raw=False) for r in raw_list]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_due_openings_follow_the_spec_rule(rules):
    seen = set()
    for rng_seed in range(1, 11):
        sp = play_game(rules, rng_seed=rng_seed, game_id=bytes([rng_seed]) * 16, host_seed=bytes([rng_seed]) * 32,
                       seat_seeds=[bytes([rng_seed, s]) * 16 for s in range(rules.players)])
        deck = list(sp.dealer.deal.deck)
        streams = {v: _bodies(w._raw) for v, w in sp.witnesses.items()}
        public_events = [b["events"] for b in streams[None] if b["kind"] == "step"]
        seen.update((e["kind"], e.get("option"), e.get("face_up"), "formula" in e) for es in public_events for e in es)
        for viewer, bodies in streams.items():
            spec, shown = SpecDue(rules, deck), set()
            steps = iter(public_events)
            for b in bodies:
                if b["kind"] not in ("deal", "step"):
                    continue
                if b["kind"] == "step":
                    spec.step(next(steps))
                private, public = spec.due(viewer, shown)
                assert [r[0] for r in b["private"]] == private, (viewer, b["n"])
                assert [r[0] for r in b["public"]] == public, (viewer, b["n"])
                if b["kind"] == "deal" and viewer is not None:  # the corollary: exactly its own positions
                    assert private == sorted(spec.known[viewer])
    SEEN.update(seen)


SEEN: set = set()


def test_the_games_above_cover_every_kind_of_opening():
    """The rule was exercised on draws (face up and down), rearms and plain discards."""
    if not SEEN:
        pytest.skip("run with the games above")
    wanted = {("rearm", None, None, False), ("supply", "b", False, False), ("supply", "b", True, False),
              ("discard", None, None, True), ("supply", "a", None, False)}
    assert wanted <= SEEN
