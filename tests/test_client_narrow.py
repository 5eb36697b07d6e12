"""Narrow terminals (issue 12, the screen at 40 and 60 columns): what a person reads
in a terminal of 40 or 60 columns is never cut where it must be whole — a house rule's
key name in ``jupai rules`` (specs/client.md § Command line)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from jupai_net.rules import RuleSet

from .cli_helpers import jupai


@pytest.mark.parametrize("columns", [40, 60])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_jupai_rules_never_cuts_a_key_name(columns, lang):
    """``jupai rules`` at 40 and 60 columns, en and zh: every setting's name is whole on
    a line (``swap-prime-composite`` was cut to ``swap-prime-compos…`` at 60 columns),
    no line is wider than the terminal, nothing is cut with ``…`` (the meanings wrap)."""
    out = jupai("rules", "--lang", lang, columns=columns)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert all(cell_len(line) <= columns for line in lines), out.stdout
    for name, _value, _ in RuleSet().describe():
        assert any(f" {name} " in f" {line.strip(' │')} " for line in lines), (name, out.stdout)
    assert "…" not in out.stdout.replace("1…N", "")
