"""The wire-form examples in the specs are what the code produces and accepts
(specs/rules.md §14, specs/fairness.md §6.4): every fenced block marked
``spec-example=NAME`` is parsed out of the markdown and compared with
:func:`jupai_net.wire_examples.wire_examples`, so spec and code cannot drift."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from jupai_net.actions import Action
from jupai_net.wire_examples import wire_examples
from jupai_net.rules import RuleError, RuleSet
from jupai_net.setup import Setup

SPECS = Path(__file__).resolve().parents[1] / "specs"
BLOCK = re.compile(r"^```json spec-example=([\w-]+)\n(.*?)^```", re.M | re.S)


def _blocks() -> list[tuple[str, str, str]]:
    out = []
    for path in sorted(SPECS.glob("*.md")):
        for m in BLOCK.finditer(path.read_text(encoding="utf-8")):
            out.append((path.name, m.group(1), m.group(2)))
    return out


BLOCKS = _blocks()
SPEC = {name: json.loads(text) for _, name, text in BLOCKS}
CODE = json.loads(json.dumps(wire_examples()))


def test_every_example_is_in_a_spec_once_and_every_spec_example_is_computed():
    names = [name for _, name, _ in BLOCKS]
    assert len(names) == len(set(names)), "an example name is used twice"
    assert set(names) == set(CODE), (sorted(set(CODE) - set(names)), sorted(set(names) - set(CODE)))


@pytest.mark.parametrize("name", sorted(CODE))
def test_spec_example_equals_the_code(name):
    assert SPEC.get(name) == CODE[name], f"specs: example {name} differs from the code; update the spec"


@pytest.mark.parametrize("name", [n for n in sorted(SPEC) if n.startswith("rules-") and n != "rules-invalid"])
def test_spec_rules_are_valid_and_round_trip(name):
    assert RuleSet.from_wire(SPEC[name]).to_wire() == SPEC[name]


def test_spec_invalid_rules_are_refused_naming_the_setting():
    assert SPEC["rules-invalid"]
    for wire, setting in SPEC["rules-invalid"]:
        with pytest.raises(RuleError) as err:
            RuleSet.from_wire(wire)
        assert err.value.setting == setting, wire


@pytest.mark.parametrize("name", [n for n in sorted(SPEC) if n.startswith("action-")])
def test_spec_actions_round_trip(name):
    assert Action.from_wire(SPEC[name]).to_wire() == SPEC[name]


def test_spec_setup_round_trips():
    assert Setup.from_wire(SPEC["setup"]).to_wire() == SPEC["setup"]
