"""Examples of the engine's wire forms a verifier compares (specs/rules.md §14,
specs/fairness.md §6.4): rules, actions, events as each viewer sees them, and a
seat's initial observation.

:func:`wire_examples` computes them from the rules engine: plain dicts keyed by the
name of the example. specs/rules.md §14 shows each one in a fenced block marked
``spec-example=NAME``, and tests/test_spec_examples.py checks that every block equals
what this module computes, so the spec and the code cannot drift apart.

The event examples are the first event of each kind found in small seeded games
(3 players, 5 rounds, hand size 3; ``random.Random(seed)`` shuffles the deck, draws
the setup and picks random legal actions, seeds 0, 1, 2, …). Pure and deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .actions import Action
from .rules import RuleSet
from .setup import Setup, draw_setup

#: Rule sets whose ``from_wire`` must fail, with the setting the error names
#: (specs/fairness.md §6.4 "valid rules").
INVALID_RULES: tuple[tuple[dict[str, Any], str], ...] = (
    ({"players": 7}, "players"),
    ({"players": True}, "players"),
    ({"players": 4, "rounds": 40}, "rounds"),
    ({"hand_size": 0}, "hand_size"),
    ({"players": 6, "hand_size": 8}, "hand_size"),
    ({"supply_number": 9}, "discard_number"),
    ({"attack_number": 4}, "attack_number"),
    ({"round_value": "value"}, "round_value"),
    ({"same_identity": "both"}, "same_identity"),
    ({"identities": "LLF", "players": 3}, "identities"),
    ({"identities": "LCF"}, "identities"),
    ({"random_specials": 1}, "random_specials"),
    ({"dealer": "blind"}, "dealer"),
)

#: (name, predicate on a spectator's event dict, the seat whose own view is shown too
#: or None). The first event satisfying the predicate is the example.
_EVENT_KINDS: tuple[tuple[str, Callable[[dict[str, Any]], bool], bool], ...] = (
    ("event-round", lambda e: e["kind"] == "round", False),
    ("event-play", lambda e: e["kind"] == "play" and e["contest"] == "attack", False),
    ("event-contest-attack", lambda e: e["kind"] == "contest" and e["contest"] == "attack"
     and any(s["weapon"] for s in e["sides"]), False),
    ("event-contest-defense", lambda e: e["kind"] == "contest" and e["contest"] == "defense", False),
    ("event-contest-discard", lambda e: e["kind"] == "contest" and e["contest"] == "discard"
     and e["result"] == "success", False),
    ("event-discard", lambda e: e["kind"] == "discard" and e["result"] == "fail", False),
    ("event-discard-no-target", lambda e: e["kind"] == "discard" and e["result"] == "no-target", False),
    ("event-supply-a", lambda e: e["kind"] == "supply" and e["option"] == "a" and e["cards"], False),
    ("event-supply-a-recovered", lambda e: e["kind"] == "supply" and e["option"] == "a" and e["recovered"], False),
    ("event-supply-b-face-up", lambda e: e["kind"] == "supply" and e["option"] == "b" and e["face_up"], False),
    ("event-supply-b-face-down", lambda e: e["kind"] == "supply" and e["option"] == "b" and not e["face_up"], True),
    ("event-rearm", lambda e: e["kind"] == "rearm", True),
    ("event-pass", lambda e: e["kind"] == "pass" and "option" not in e, False),
    ("event-pass-supply-a", lambda e: e["kind"] == "pass" and e.get("option") == "a", False),
    ("event-end", lambda e: e["kind"] == "end", False),
)

EXAMPLE_RULES = RuleSet(players=3, rounds=5, hand_size=3)
OBSERVATION_RULES = RuleSet(players=2, rounds=2, hand_size=2)


def _game(rules: RuleSet, seed: int) -> tuple[Any, random.Random]:
    from .engine import GameState  # the engine loads only when examples are built

    rng = random.Random(seed)
    deck = list(range(53))
    rng.shuffle(deck)
    return GameState.new(rules, deck, draw_setup(rules, rng)), rng


def _events() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for seed in range(1000):
        state, rng = _game(EXAMPLE_RULES, seed)
        if seed == 0:
            found["event-deal"] = state.events[0].to_wire(None)
            found["event-deal-seat-0"] = state.events[0].to_wire(0)
        while not state.is_over:
            events = state.apply(rng.choice(state.legal_actions()))
            for e in events:
                public = e.to_wire(None)
                for name, wanted, private in _EVENT_KINDS:
                    if name not in found and wanted(public):
                        found[name] = public
                        if private:
                            found[name + "-own"] = e.to_wire(public["seat"])
        if all(name in found for name, _, _ in _EVENT_KINDS):
            return found
    raise AssertionError("no example found for some event kind")  # pragma: no cover


def wire_examples() -> dict[str, Any]:
    """Every example of specs/fairness.md §6.4 by name (plain JSON-ready values)."""
    ex: dict[str, Any] = {
        "rules-default": RuleSet().to_wire(),
        "rules-house": RuleSet(players=3, attack_number=2, identities="LCF", hidden_identities=True).to_wire(),
        "rules-invalid": [[wire, setting] for wire, setting in INVALID_RULES],
        "setup": Setup(("C", "L", "N", "F"), 8, 11, 4, 9).to_wire(),
        "action-attack": Action("attack", 2, (17,), True).to_wire(),
        "action-defense": Action("defense", 0, (30,)).to_wire(),
        "action-discard": Action("discard", 1, (44,)).to_wire(),
        "action-discard-no-target": Action("discard", None, (44,)).to_wire(),
        "action-answer": Action("answer", None, (9,), True).to_wire(),
        "action-answer-last-round": Action("answer", None, (3, 20, 41), False).to_wire(),
        "action-supply-recovered": Action("supply-recovered", None, (13,)).to_wire(),
        "action-supply-recovered-more": Action("supply-recovered", None, (), False, (27,)).to_wire(),
        "action-supply-equipment": Action("supply-equipment").to_wire(),
        "action-rearm": Action("rearm").to_wire(),
        "action-pass": Action("pass").to_wire(),
    }
    ex.update(_events())
    state, _ = _game(OBSERVATION_RULES, 0)
    ex["observation-deal-seat-0"] = state.observation(0)
    ex["observation-deal-spectator"] = state.observation(None)
    return ex
