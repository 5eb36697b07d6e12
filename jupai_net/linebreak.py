"""One line-breaking rule for every screen and every command, in both languages
(specs/client.md § Languages: breaking lines).

A line is broken only where the rule allows, by display width (``rich.cells.cell_len``:
a Chinese character takes two cells):

- English breaks at spaces (the spaces at a break are dropped), never inside a word;
  Chinese breaks at spaces and between two characters when one of them is wide.
- Never inside an **unbreakable span**: a formula (``1×11 + 12×3 = 47``, ``(5 + 8) +
  (2 + 8) = 23``, ``R = 3``, ``= 11``, ``i 3 vs m ?``), a seat and its name (``seat 2 (Bartholomew
  A)``, ``2号位（诸葛亮）``), a ``jupai`` command (``jupai watch``), an option and its
  value (``--games N``), and any string the caller names (``keep``: the players'
  names, a table's name). Numbers, cards (``10♠``) and key names (``Enter``,
  ``Ctrl-C``) have no break inside them anyway.
- A line never starts with closing punctuation (``，。：；）`` …, or a spaced ``·``)
  nor ends with opening punctuation; a number stays with the Chinese word it counts or
  names (``剩 0 张``, ``67 对``, ``第 3 回合``), a total with its ``=``; the last line
  is not one character alone (``收`` / ``牌。``).

When nothing allowed fits a line, the rule gives way step by step: first the whole
formulas, seat labels, commands and the last-line rule; then the names; last (a word
alone wider than the line) the text is cut by cells (unless ``fold`` is False: then
the word stays whole and the line is too wide).

Pure functions; no IO.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache

#: Characters a line may not start with (closing punctuation, en and zh).
NO_LINE_START = frozenset("，。、：；！？）」』》〉】”’,.;:!?)]}%…·")
#: Characters a line may not end with (opening punctuation).
NO_LINE_END = frozenset("（「『《〈【“‘([{")

#: A line broken at a space must be at least this full; else it breaks between two
#: Chinese characters further on (a word stays whole when that costs little room).
SPACE_BREAK_FILL = 0.75
#: A line less than this full breaks a seat label between its number and its name
#: (``seat 2`` / ``(Bartholomew A)``) when that fills it more.
HALF_LINE = 0.5

_NUM = r"(?:\d+|\?)(?:×(?:\d+|\?))*"
_GROUP = rf"\({_NUM}(?: ?[-+−×] ?{_NUM})*\)"
_ITEM = rf"(?:{_NUM}|{_GROUP}|\b[A-Za-z]\b(?![-']))"
_OP = r" ?[-+−×=÷/] ?"
#: A formula: two items or more joined by operators, or ``= item …`` (a total).
FORMULA = re.compile(rf"(?:= ?{_ITEM}(?:{_OP}{_ITEM})*|{_ITEM}(?:{_OP}{_ITEM})+)")
#: A comparison of named values (``i 3 vs m ?``, ``i 5 > m 3``, ``i 3 对 m ?``).
COMPARE = re.compile(r"\b[A-Za-z] (?:\d+|\?) (?:vs|对|[<>=≤≥]) [A-Za-z] (?:\d+|\?)(?![\w])")
#: A seat and its name, English and Chinese (group 1: the name in its parentheses).
SEAT_NAMED = re.compile(r"\bseat \d+ (\([^()\n]*\))|\d+号位(（[^（）\n]*）)")
#: A seat without a name (``seat 2``, ``2号位``).
SEAT = re.compile(r"\bseat \d+\b|\d+号位")
#: A ``jupai`` command and its options, an option and its value.
COMMAND = re.compile(r"\bjupai(?: [a-z][a-z-]*)(?: --?[a-z][a-z-]*(?: [A-Z][A-Z_]*\b)?)*|--[a-z][a-z-]* [A-Z][A-Z_]*\b")

_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def _plain_cells(text: str) -> int:
    """Cells ``text`` takes without rich: wide and full-width characters 2, combining
    and zero-width ones 0, others 1."""
    n = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Cf", "Mn", "Me"):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return n


def cell_len(text: str) -> int:
    """Cells ``text`` takes on a terminal: ``rich.cells.cell_len`` (what the screens
    measure with) when rich is loaded, else the same by ``unicodedata`` (``--help``
    starts without rich, specs/performance.md § Start-up)."""
    return _measure()(text)


def _measure() -> Callable[[str], int]:
    cells = sys.modules.get("rich.cells")
    return cells.cell_len if cells is not None else _plain_cells  # type: ignore[attr-defined]


def _wide(ch: str) -> bool:
    return cell_len(ch) == 2


def spans(plain: str, keep: Iterable[str] = ()) -> list[tuple[int, int, int]]:
    """The unbreakable spans of the one-line ``plain``: ``(start, end, level)``, end
    exclusive; level 1 (names: ``keep`` strings, a seat's name in its parentheses, a
    seat's number with its word) holds longer than level 2 (whole formulas,
    commands), which holds longer than level 3 (a seat label with its name)."""
    out: list[tuple[int, int, int]] = []
    for m in FORMULA.finditer(plain):
        if m.end() - m.start() > 1:
            out.append((m.start(), m.end(), 2))
    for m in COMPARE.finditer(plain):
        out.append((m.start(), m.end(), 2))
    for m in SEAT_NAMED.finditer(plain):
        out.append((m.start(), m.end(), 3))
        g = 1 if m.group(1) is not None else 2
        out.append((m.start(g), m.end(g), 1))
    for m in SEAT.finditer(plain):
        out.append((m.start(), m.end(), 1))
    for m in COMMAND.finditer(plain):
        out.append((m.start(), m.end(), 2))
    for word in keep:
        if word and len(word) > 1:
            start = plain.find(word)
            while start >= 0:
                out.append((start, start + len(word), 1))
                start = plain.find(word, start + 1)
    return out


def guess_lang(plain: str, keep: Iterable[str] = ()) -> str:
    """``zh`` when ``plain`` holds a Chinese character outside the names (``keep``, a
    seat's name in its parentheses), else ``en``."""
    if not _CJK.search(plain):
        return "en"
    rest = plain
    for word in keep:
        if word:
            rest = rest.replace(word, " ")
    rest = re.sub(r"\bseat \d+ \([^()\n]*\)", " ", rest)
    return "zh" if _CJK.search(rest) else "en"


def _allowed(plain: str, i: int, lang: str) -> bool:
    """True when a line may break before ``plain[i]`` (``0 < i < len(plain)``, and
    ``plain[i]`` is not a space): after a run of spaces, or (Chinese) between two
    characters one of which is wide."""
    a, b = plain[i - 1], plain[i]
    if a.isspace():
        k = i - 1
        while k > 0 and plain[k - 1].isspace():
            k -= 1
        before = plain[k - 1] if k >= 1 else ""
        if not before:  # spaces that start the line
            return False
        if (b in NO_LINE_START and b not in "?!%") or before in NO_LINE_END:  # `? help`: a key
            return False
        if b.isdigit() and before == "=":  # a total stays with its "=" (`… 12×3 = 47`)
            return False
        if before.isdigit() and _wide(b):  # `67 对`, `剩 0 张`
            return False
        if b.isdigit() and _wide(before) and before not in NO_LINE_START:  # `第 3 回合`; `对 4号位`: a word of its own
            end = i
            while end < len(plain) and plain[end].isdigit():
                end += 1
            return end < len(plain) and _wide(plain[end]) and plain[end] not in NO_LINE_START
        return True
    if lang != "zh":
        return False
    if (a.isdigit() and _wide(b)) or (b.isdigit() and _wide(a) and a not in NO_LINE_START):
        return False
    return (_wide(a) or _wide(b)) and b not in NO_LINE_START and a not in NO_LINE_END


def _lone_tail(plain: str, start: int) -> bool:
    """True when ``plain[start:]`` is one character alone (closing punctuation aside)."""
    rest = plain[start:].rstrip()
    while rest and rest[-1] in NO_LINE_START:
        rest = rest[:-1]
    return len(rest) <= 1


@lru_cache(maxsize=4096)
def _points(plain: str, width: int, rest_width: int, lang: str, keep: tuple[str, ...], fold: bool,
            measure: Callable[[str], int] = _plain_cells) -> tuple[int, ...]:
    cell_len = measure
    n = len(plain)
    cw = [0] * (n + 1)
    for k, ch in enumerate(plain):
        cw[k + 1] = cw[k] + cell_len(ch)
    # every allowed break: (end of the line, start of the next), in order
    cands: list[tuple[int, int]] = []
    for i in range(1, n):
        if plain[i].isspace() or not _allowed(plain, i, lang):
            continue
        end = i
        while end > 0 and plain[end - 1].isspace():
            end -= 1
        cands.append((end, i))
    found = spans(plain, keep)

    def inside(levels: tuple[int, ...]) -> list[bool]:
        return [any(s < nxt and end < e for s, e, lv in found if lv in levels) for end, nxt in cands]

    tail = [_lone_tail(plain, nxt) for _end, nxt in cands]
    #: what blocks a break at each step of giving way: everything; all but a seat label's
    #: wholeness; the names; nothing
    steps = [[a or t for a, t in zip(inside(levels), tail)] for levels in ((1, 2, 3), (1, 2))]
    steps += [inside((1,)), [False] * len(cands)]

    out: list[int] = []
    start, w = 0, width
    last = len(plain.rstrip())

    def fit(blocked: list[bool]) -> tuple[int, int] | None:
        """The furthest allowed break within ``w`` cells of ``start`` (a space's when
        the line is then full enough)."""
        best = space = None
        for k, (end, nxt) in enumerate(cands):
            if end <= start:
                continue
            if cw[end] - cw[start] > w:
                break
            if blocked[k]:
                continue
            best = (end, nxt)
            if nxt > end and cw[end] - cw[start] >= SPACE_BREAK_FILL * w:
                space = best
        if best is None:
            return None
        return space if space is not None and best[0] == best[1] else best

    while start < last and cw[last] - cw[start] > w:
        pick = first = None
        for step, blocked in enumerate(steps):
            pick = fit(blocked)
            if pick is None:
                continue
            first = first or pick
            if not _goes_on(cands, blocked, cw, pick[1], last, rest_width):
                pick = None  # the next line could not be broken by this step either: give way here
                continue
            if step == 0 and cw[pick[0]] - cw[start] < HALF_LINE * w:  # a line less than half full:
                fuller = fit(steps[1])  # a seat label goes on after its number (`seat 2` / `(Bob)`)
                if fuller is not None and fuller[0] > pick[0] and _goes_on(cands, steps[1], cw, fuller[1], last,
                                                                           rest_width):
                    pick = fuller
            break
        pick = pick or first
        if pick is None and not fold:  # the unit stays whole: to its end
            for blocked in steps:
                later = [c for k, c in enumerate(cands) if c[0] > start and not blocked[k]]
                if later:
                    pick = later[0]
                    break
            if pick is None:
                break
        if pick is None:  # wider than a line alone: cut by cells
            k = start + 1
            while k < n and cw[k + 1] - cw[start] <= w:
                k += 1
            pick = (k, k)
        out.append(pick[1])
        start, w = pick[1], rest_width
    return tuple(out)


def _goes_on(cands: list[tuple[int, int]], blocked: list[bool], cw: list[int], start: int, last: int,
             width: int) -> bool:
    """True when the line starting at ``start`` can end within ``width`` cells at a
    break not ``blocked`` (or holds the rest of the text)."""
    if cw[last] - cw[start] <= width:
        return True
    for k, (end, _nxt) in enumerate(cands):
        if end <= start:
            continue
        if cw[end] - cw[start] > width:
            return False
        if not blocked[k]:
            return True
    return False


def break_points(plain: str, width: int, lang: str | None = None, keep: Iterable[str] = (),
                 rest_width: int | None = None, fold: bool = True) -> list[int]:
    """Where to break the one-line ``plain`` (no ``\\n``): the offset where each line
    after the first starts (the spaces before it, dropped at the break, end the line
    before). The first line fits ``width`` cells, the others ``rest_width`` (default
    ``width``), by the rule of this module; ``lang`` ``en``/``zh`` (None:
    :func:`guess_lang`); ``keep``: strings never broken (names)."""
    keep = tuple(k for k in keep if k)
    lang = lang if lang in ("en", "zh") else guess_lang(plain, keep)
    width = max(1, width)
    return list(_points(plain, width, max(1, rest_width if rest_width is not None else width), lang, keep, fold,
                        _measure()))


def break_lines(text: str, width: int, lang: str | None = None, keep: Iterable[str] = (), hang: str = "",
                fold: bool = True) -> list[str]:
    """``text`` broken into lines of at most ``width`` cells (each of its own lines
    separately, an empty one kept), by the rule of this module: ``lang`` ``en`` or
    ``zh`` (None: guessed from the text), ``keep`` strings never broken (the players'
    names), ``hang`` put before every line after the first of each paragraph (and
    counted in its width). No line ends with a space. ``fold`` False: a word wider
    than a line stays whole (the line is then wider than ``width``)."""
    keep = tuple(k for k in keep if k)
    out: list[str] = []
    for para in text.split("\n"):
        cuts = [0, *break_points(para, width, lang, keep, width - cell_len(hang), fold), len(para)]
        for k, (a, b) in enumerate(zip(cuts, cuts[1:])):
            piece = para[a:b].rstrip()
            out.append(piece if k == 0 else hang + piece)
    return out


def min_width(plain: str, lang: str | None = None, keep: Iterable[str] = ()) -> int:
    """The widest unit of ``plain`` the rule breaks only when nothing else fits (a
    word, a name, a seat with its number): the fewest cells a line can have without
    cutting one (a whole formula or seat label may be wider)."""
    keep = tuple(k for k in keep if k)
    best = 0
    for para in plain.split("\n"):
        lang_p = lang if lang in ("en", "zh") else guess_lang(para, keep)
        names = [(s, e) for s, e, lv in spans(para, keep) if lv == 1]
        cuts = [0]
        for i in range(1, len(para)):
            if not para[i].isspace() and _allowed(para, i, lang_p) and not any(s < i and i - 1 < e for s, e in names):
                cuts.append(i)
        cuts.append(len(para))
        best = max([best, *(cell_len(para[a:b].strip()) for a, b in zip(cuts, cuts[1:]))])
    return best
