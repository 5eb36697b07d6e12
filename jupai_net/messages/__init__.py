"""The one message catalog of every ``jupai`` command (specs/client.md § Languages).

Every text a person reads — the game screens, the host console, ``jupai verify``,
``jupai simulate``, ``jupai rules``, ``jupai history``, ``jupai replay``, ``jupai
config``, every ``--help`` and every error — is a key of this catalog, looked up with
:func:`t` (or :func:`tn` for a count) in English or Chinese. The entries live in
table modules, each a dict ``MESSAGES: {key: (English, Chinese)}`` with the same
``{placeholders}`` in both (checked by tests/test_messages.py):

- :mod:`jupai_net.messages.commands` — the command line: ``--help`` texts, errors,
  the host console, ``jupai verify``/``simulate``/``rules``/``config``;
- :mod:`jupai_net.client.i18n` — the game screens (client, ``jupai play``, replay,
  history).
- :mod:`jupai_net.messages.notices` — host notices and host errors, said from their
  codes and args (the host's English text and every client's language).
- :mod:`jupai_net.messages.verdicts` — the fairness verdicts' reasons, said from their
  codes and args (the verifier's English ``reason`` and every screen's language).
- :mod:`jupai_net.messages.illegal` — why an action is not legal, said from the
  engine's ``IllegalAction`` code and args (:mod:`jupai_net.illegal`).

A new table is one more name in :data:`TABLES`. A table loads on the first lookup
that needs it (never at import), so ``import jupai_net.messages`` costs nothing at
start-up and ``jupai verify --help`` never loads the game screens' table.

The language of a command (:func:`resolve_lang`): ``--lang zh|en`` on the command
line, else ``lang`` in the settings file (``jupai config``), else the locale
(:func:`detect_lang`: ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; ``zh…`` gives Chinese),
else English. ``jupai`` sets it once per run (:func:`use_lang`); :func:`t` without a
language uses it.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

LANGS = ("en", "zh")
DEFAULT_LANG = "en"

#: The modules whose ``MESSAGES`` make up the catalog, in lookup order (a key must be
#: in only one). A lookup loads them one by one until the key is found, so a command
#: line text (the first table) or a verdict (the second) never loads the game screens' table.
TABLES = ("jupai_net.messages.commands", "jupai_net.messages.verdicts", "jupai_net.client.i18n",
          "jupai_net.messages.notices", "jupai_net.messages.illegal")

_loaded: list[dict[str, tuple[str, str]]] = []
#: Held while tables are loaded: clients verify games in worker threads, and two
#: threads loading at once appended one table twice and skipped another (a verdict's
#: key then raised KeyError in 5 of 200 bench clients).
_loading = threading.Lock()
_current = DEFAULT_LANG
_ARGPARSE_TEXT = "jupai_net.messages.argparse_text"


def _entry(key: str) -> tuple[str, str]:
    for table in _loaded:
        if key in table:
            return table[key]
    if len(_loaded) == len(TABLES):
        raise KeyError(key)
    with _loading:  # one thread loads the tables at a time, in order (thread-safe)
        for table in _loaded:  # another thread may have loaded more meanwhile
            if key in table:
                return table[key]
        while len(_loaded) < len(TABLES):
            table = importlib.import_module(TABLES[len(_loaded)]).MESSAGES
            _loaded.append(table)
            if key in table:
                return table[key]
    raise KeyError(key)


def catalog() -> dict[str, tuple[str, str]]:
    """Every entry of every table: ``{key: (English, Chinese)}`` (all tables loaded).

    Raises ``ValueError`` when two tables define the same key (a bug)."""
    merged: dict[str, tuple[str, str]] = {}
    for name in TABLES:
        table = importlib.import_module(name).MESSAGES
        twice = merged.keys() & table.keys()
        if twice:
            raise ValueError(f"message keys defined twice ({name}): {', '.join(sorted(twice))}")
        merged.update(table)
    return merged


def fields(template: str) -> set[str]:
    """Placeholder names used in a template, e.g. ``{"n", "name"}`` for ``"seat {n} ({name})"``."""
    import string

    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def normalize_lang(lang: str | None) -> str:
    """``"zh"``/``"en"`` from a language name or locale string (``zh_CN.UTF-8`` → ``zh``);
    anything else, or None, gives the default ``"en"``."""
    if lang and lang.strip().lower().startswith("zh"):
        return "zh"
    return DEFAULT_LANG


def detect_lang(environ: Mapping[str, str] | None = None) -> str:
    """Default language from the locale: the first non-empty of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` (POSIX precedence); ``zh…`` → ``"zh"``, else ``"en"``."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return normalize_lang(value)
    return DEFAULT_LANG


def lang_in_argv(argv: Sequence[str]) -> str | None:
    """The value of ``--lang X`` / ``--lang=X`` in ``argv`` when it is ``zh`` or ``en``
    (anywhere before a ``--``), else None: the language must be known before the
    parser is built, so that ``--help`` and argparse's own errors are in it."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        value = None
        if word == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith("--lang="):
            value = word.split("=", 1)[1]
        if value in LANGS:
            return value
    return None


def resolve_lang(argv: Sequence[str] = (), environ: Mapping[str, str] | None = None) -> str:
    """The language of a command run with ``argv``: ``--lang``, else the settings
    file's ``lang`` (read leniently: a file the command cannot use is reported by
    the command itself), else the locale's (:func:`detect_lang`)."""
    chosen = lang_in_argv(argv)
    if chosen:
        return chosen
    from ..configfile import lang_setting

    return lang_setting() or detect_lang(environ)


def current_lang() -> str:
    """The language of this run (set by :func:`use_lang`; ``"en"`` before)."""
    return _current


class use_lang:  # noqa: N801 - used as a function: ``with use_lang("zh"):``
    """Make ``lang`` the language of :func:`t` calls without one, for a ``with``
    block (``jupai`` wraps each command in it); argparse's own texts follow it
    (:mod:`jupai_net.messages.argparse_text`). ``as`` gives the normalized language."""

    def __init__(self, lang: str) -> None:
        self.lang = normalize_lang(lang)
        self._before = _current
        self._argparse: Any = None

    def __enter__(self) -> str:
        global _current
        self._before, _current = _current, self.lang
        if self.lang == "zh" or _ARGPARSE_TEXT in sys.modules:  # English needs no module loaded
            self._argparse = importlib.import_module(_ARGPARSE_TEXT).speak(self.lang)
        return self.lang

    def __exit__(self, *exc: object) -> None:
        global _current
        _current = self._before
        if self._argparse is not None:
            importlib.import_module(_ARGPARSE_TEXT).restore(self._argparse)


def t(key: str, lang: str | None = None, /, **kw: object) -> str:
    """The text of ``key`` in ``lang`` (``"en"`` or ``"zh"``; None: :func:`current_lang`),
    formatted with ``kw``.

    Raises ``KeyError`` for an unknown key (a bug, caught by the tests)."""
    en, zh = _entry(key)
    if (lang or _current) == "zh":
        return _format_zh(zh, kw) if kw or "{" in zh else zh
    return en.format(**kw) if kw or "{" in en else en


#: Chinese full-width punctuation: no ASCII space goes next to it (``Alice（0号位）在``,
#: not ``Alice（0号位） 在``; ``：``/``，`` never with a space after them).
FULL_WIDTH_PUNCTUATION = frozenset("（）：，。、；！？“”《》「」")


#: The endings of jupai's own words for a seat or the host (``0号位``, ``主机``): a
#: Chinese sentence goes on from them without a space (``0号位没有公开种子``).
SEAT_WORD_ENDINGS = ("号位", "主机")


def _ideograph(c: str) -> bool:
    """A CJK ideograph (U+3400..U+9FFF)."""
    return "\u3400" <= c <= "\u9fff"


def _format_zh(template: str, kw: Mapping[str, object]) -> str:
    """``template.format(**kw)`` for a Chinese text, without a template's space between
    full-width punctuation at a value's edge and a word: ``{who} 在`` with ``who =
    "Alice（0号位）"`` gives ``Alice（0号位）在``, ``{a} {ca}`` gives ``0号位（你）7♠``;
    nor after a seat's or the host's own word (:data:`SEAT_WORD_ENDINGS`) before an
    ideograph: ``{names} 没有公开种子`` with ``names = "0号位"`` gives ``0号位没有公开种子``
    (a person's name keeps its space, ``Ann 离开了``, ``小明 的牌桌``, and so does a
    space before a value: ``第1名 小明``).
    A space before or after a symbol stays (``{who} · 你的身份``, ``{x} →``), and the
    values themselves (names, a peer's words) are kept as they are."""
    if " " not in template:
        return template.format(**kw)
    parts: list[list[Any]] = []  # [text, is a value]
    for literal, field in _template_pieces(template):
        if literal:
            parts.append([literal, False])
        if field is not None:
            parts.append([("{" + field + "}").format(**kw), True])
    for k, part in enumerate(parts):
        text = part[0]
        if part[1]:
            continue
        before = parts[k - 1] if k > 0 else None
        after = parts[k + 1] if k + 1 < len(parts) else None
        if before and before[1] and text.startswith(" "):
            edge, nxt = before[0][-1:], (text[1:] or (after[0] if after else ""))[:1]
            if nxt.isalnum() and (edge in FULL_WIDTH_PUNCTUATION
                                  or (before[0].endswith(SEAT_WORD_ENDINGS) and _ideograph(nxt))):
                text = text[1:]
        if after and after[1] and text.endswith(" "):
            edge, prev = after[0][:1], (text[:-1] or (before[0] if before else ""))[-1:]
            if prev.isalnum() and edge in FULL_WIDTH_PUNCTUATION:
                text = text[:-1]
        part[0] = text
    return "".join(part[0] for part in parts)


@functools.lru_cache(maxsize=4096)
def _template_pieces(template: str) -> tuple[tuple[str, str | None], ...]:
    """``template`` as (literal text, the field after it with its format spec) pairs."""
    import string

    pieces = []
    for literal, name, spec, conv in string.Formatter().parse(template):
        field = None
        if name is not None:
            field = name + ("!" + conv if conv else "") + (":" + spec if spec else "")
        pieces.append((literal, field))
    return tuple(pieces)


def tn(key: str, count: int | str, lang: str | None = None, /, **kw: object) -> str:
    """The singular (``key.one``, for a count of exactly 1) or plural (``key.other``)
    text of ``key``, formatted with ``count`` and ``kw``: ``1 use left`` / ``2 uses left``."""
    form = "one" if count == 1 else "other"
    return t(f"{key}.{form}", lang, count=count, **kw)


def names_text(names: Iterable[object], lang: str | None = None, /) -> str:
    """Names (of players, tables, bots) listed as ``lang`` writes a list: ``Alice, 小明``
    in English, ``Alice、小明`` in Chinese (the enumeration comma, ``names.sep``)."""
    return t("names.sep", lang).join(str(n) for n in names)


def add_lang_option(parser: object, dest: str = "lang") -> None:
    """Add ``--lang {en,zh}`` (default None: the settings' ``lang``, else the locale's)
    to an argparse ``parser``, with the same help text on every command."""
    parser.add_argument("--lang", dest=dest, choices=LANGS, default=None,  # type: ignore[attr-defined]
                        help=t("opt.lang"))
