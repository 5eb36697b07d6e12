"""Contest totals and their formulas (design/rules.md §6; specs/rules.md §6).

Symbols: I = identity value, R = round value, i = intent (sum of the ranks of the
cards played; 0 with no card), m = mass rank, w = weapon rank. Every total comes
with its formula written out as players see it, e.g. ``3×10 + 8×6 = 78``.
"""

from __future__ import annotations

from typing import NamedTuple


class Total(NamedTuple):
    """A side's total in a contest: ``value`` and the ``formula`` that gives it (a
    NamedTuple: totals are made on every contest and must be cheap)."""

    value: int
    formula: str


_total = tuple.__new__  # Total's fields without the NamedTuple's Python-level __new__


class _Decimal(dict):
    """Decimal text of the numbers a formula shows, ``0..511`` written once at import
    (an int's ``str`` in an f-string cost more than the rest of a formula: about 700
    interpreter instructions against 100 for a lookup; a contest writes 6–10 numbers).
    Any other int is written when asked for (``__missing__``) and not kept."""

    __slots__ = ()

    def __missing__(self, number: int) -> str:
        return str(number)


_D = _Decimal((k, str(k)) for k in range(512))


def attack_total(R: int, i: int, weapon: tuple[int, int] | None, same: bool, I: int = 0) -> Total:
    """Attack side total (§6 attack; also the attack of a same-identity discard).

    Different identity: ``R×i (+ m×w)``. Same identity: ``I×i + R (+ m×w)``.
    ``weapon`` is ``(m, w)`` when the weapon is used, else None.
    """
    return _total(Total, attack_pair(R, i, weapon, same, I))


def defense_attack_strength(R: int, i: int, same: bool, I: int = 0) -> Total:
    """Attack strength in a defense round (§6 defense): ``R + i``; same identity ``(I + i) + (R + i)``."""
    return _total(Total, defense_attack_pair(R, i, same, I))


def defense_strength(R: int, i: int, w: int, same: bool) -> Total:
    """Defense strength (§6 defense): ``w + i``; same identity ``(R + i) + (w + i)``. w = 0 unarmed."""
    return _total(Total, defense_pair(R, i, w, same))


# The same three as plain ``(value, formula)`` tuples: the engine's form. It writes two
# totals per contest and unpacks them at once; a Total made and unpacked cost about
# 2,000 interpreter instructions (tuple.__new__ of a subclass copies a tuple, and
# Python 3.11 unpacks a tuple subclass through an iterator), a plain tuple a few dozen.
# One f-string per case (an int's str in it is a _Decimal lookup).


def attack_pair(R: int, i: int, weapon: tuple[int, int] | None, same: bool, I: int = 0) -> tuple[int, str]:
    """:func:`attack_total` as a plain ``(value, formula)`` tuple."""
    D = _D  # numbers' text (_Decimal)
    if weapon is None:
        if same:
            value = I * i + R
            return value, f"{D[I]}×{D[i]} + {D[R]} = {D[value]}"
        value = R * i
        return value, f"{D[R]}×{D[i]} = {D[value]}"
    m, w = weapon
    if same:
        value = I * i + R + m * w
        return value, f"{D[I]}×{D[i]} + {D[R]} + {D[m]}×{D[w]} = {D[value]}"
    value = R * i + m * w
    return value, f"{D[R]}×{D[i]} + {D[m]}×{D[w]} = {D[value]}"


def defense_attack_pair(R: int, i: int, same: bool, I: int = 0) -> tuple[int, str]:
    """:func:`defense_attack_strength` as a plain ``(value, formula)`` tuple."""
    D = _D  # numbers' text (_Decimal)
    if same:
        value = I + i + R + i
        return value, f"({D[I]} + {D[i]}) + ({D[R]} + {D[i]}) = {D[value]}"
    value = R + i
    return value, f"{D[R]} + {D[i]} = {D[value]}"


def defense_pair(R: int, i: int, w: int, same: bool) -> tuple[int, str]:
    """:func:`defense_strength` as a plain ``(value, formula)`` tuple."""
    D = _D  # numbers' text (_Decimal)
    if same:
        value = R + i + w + i
        return value, f"({D[R]} + {D[i]}) + ({D[w]} + {D[i]}) = {D[value]}"
    value = w + i
    return value, f"{D[w]} + {D[i]} = {D[value]}"


def compare(left: Total, right: Total, op: str = ">") -> str:
    """``'a > b'``-style comparison text of two totals' values, with the true relation."""
    a, b = left.value, right.value
    rel = ">" if a > b else "<" if a < b else "="
    return f"{a} {rel} {b}"


# ------------------------------------------------------------------ rules, symbolic
# The same formulas with the intent left as the symbol ``i`` (for a legend under a
# table of moves whose cards differ): ``attack_rule(3, (8, 6), False)`` is
# ``3×i + 8×6``; writing a number for ``i`` gives the formula of the Total functions
# above without its `` = value`` (tests/test_client_move_table.py checks it).
I_SYMBOL = "i"


def attack_rule(R: int, weapon: tuple[int, int] | None, same: bool, I: int = 0) -> str:
    """:func:`attack_total`'s formula with the intent as ``i``: ``R×i (+ m×w)``, same
    identity ``I×i + R (+ m×w)``."""
    text = f"{I}×{I_SYMBOL} + {R}" if same else f"{R}×{I_SYMBOL}"
    return text if weapon is None else f"{text} + {weapon[0]}×{weapon[1]}"


def defense_attack_rule(R: int, same: bool, I: int = 0) -> str:
    """:func:`defense_attack_strength`'s formula with the intent as ``i``."""
    return f"({I} + {I_SYMBOL}) + ({R} + {I_SYMBOL})" if same else f"{R} + {I_SYMBOL}"


def defense_rule(R: int, w: int, same: bool) -> str:
    """:func:`defense_strength`'s formula with the intent as ``i``."""
    return f"({R} + {I_SYMBOL}) + ({w} + {I_SYMBOL})" if same else f"{w} + {I_SYMBOL}"
