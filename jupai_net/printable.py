"""Text from a peer that may reach a person's terminal or log (specs/protocol.md §
Printable text, specs/client.md § Text from the network).

One rule, "printable to a person", used by the protocol to check every string a peer
sends (:func:`is_printable`), and one sanitiser for text on its way to a screen
(:func:`printable`, :func:`printable_tree`):

* allowed: every character Python calls printable (letters, marks, digits,
  punctuation, symbols, emoji, the ASCII space), plus the two joiners people write
  with — ZERO WIDTH JOINER (emoji sequences such as 👨‍👩‍👧, 🏳️‍🌈; Indic scripts) and ZERO
  WIDTH NON-JOINER (Persian) — between two printable characters, and the emoji tag
  characters (U+E0020–U+E007F) after a black flag 🏴 (subdivision flags such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿);
* refused: C0 and C1 control characters (ESC, so no CSI/OSC sequence: no window
  title, no clipboard write via OSC 52, no screen clearing), DEL, tabs and line
  breaks, bidirectional overrides and isolates, and every other invisible format
  character (soft hyphen, word joiner, byte order mark…), unassigned and private-use
  code points, lone surrogates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER.
JOINERS = frozenset("\u200c\u200d")
#: The black flag that starts an emoji tag sequence.
TAG_BASE = "\U0001f3f4"
TAG_FIRST, TAG_LAST = 0xE0020, 0xE007F
#: What :func:`printable` puts in place of a character it removes.
REPLACEMENT = "\ufffd"


def _is_tag(c: str) -> bool:
    return TAG_FIRST <= ord(c) <= TAG_LAST


def _allowed_at(text: str, i: int) -> bool:
    """Whether the non-printable character ``text[i]`` is one a person writes with."""
    c = text[i]
    if c in JOINERS:
        before = text[i - 1] if i > 0 else ""
        after = text[i + 1] if i + 1 < len(text) else ""
        return (before.isprintable() or _is_tag(before)) and before not in ("", " ") \
            and after.isprintable() and after not in ("", " ")
    if _is_tag(c):
        k = i - 1
        while k >= 0 and _is_tag(text[k]):
            k -= 1
        return k >= 0 and text[k] == TAG_BASE
    return False


def is_printable(text: str) -> bool:
    """True when every character of ``text`` is printable to a person (see the module
    docstring): emoji sequences with joiners yes, controls, escapes, line breaks and
    bidi overrides no. The empty string is printable."""
    return text.isprintable() or first_unprintable(text) is None


def first_unprintable(text: str) -> int | None:
    """The index of the first character of ``text`` that is not printable to a person
    (see :func:`is_printable`), or None."""
    return next((i for i, c in enumerate(text) if not (c.isprintable() or _allowed_at(text, i))), None)


def printable(text: Any) -> str:
    """``text`` (anything: ``str()`` of it) with every character that is not printable
    to a person replaced by U+FFFD, so it can be shown on a terminal or written to a
    log line as it is. Printable text comes back unchanged."""
    if not isinstance(text, str):
        text = str(text)
    if is_printable(text):
        return text
    return "".join(c if c.isprintable() or _allowed_at(text, i) else REPLACEMENT for i, c in enumerate(text))


def printable_tree(value: Any) -> Any:
    """``value`` with every string in it, at any depth (map keys too), made
    :func:`printable`. Maps become ``dict``, lists and tuples keep their type; other
    values (numbers, bytes, None…) are kept. Returns ``value`` itself when nothing
    had to change (no copy of a clean tree)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, Mapping):
        items = [(printable_tree(k), printable_tree(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items())):
            return value
        return dict(items)
    if isinstance(value, (list, tuple)):
        items = [printable_tree(v) for v in value]
        if all(v is v0 for v, v0 in zip(items, value)):
            return value
        return type(value)(items) if isinstance(value, list) or type(value) is tuple else tuple(items)
    return value


def literal_console(**options: Any) -> Any:
    """A ``rich.console.Console`` (``options`` as rich takes them: ``stderr``, ``file``,
    ``width``…) that shows every string as the text it is: no markup (``[red]``,
    ``[link=…]``, a ``[/]`` that closes a style), no emoji codes (``:skull:``, which rich
    turns into 💀 by default even with ``markup=False``) and no highlighting. Every
    command prints through one (specs/client.md § Text from the network): a peer's name,
    chat or table name that reaches it as a plain string, or a message holding brackets
    (``[name, seat]``), is then never read as markup. Styles come from ``Text`` and
    ``style=``; the program's own renderables keep theirs."""
    from rich.console import Console

    return Console(**{"markup": False, "emoji": False, "highlight": False, **options})
