"""How ``--help`` is laid out (specs/client.md § Command line): descriptions and
option texts wrapped to the terminal by display width (a Chinese character takes two
columns, and a line may break between two of them, never before closing
punctuation), example lines (indented lines of an epilog) kept as written, and a
section heading in Chinese ends with a full-width colon."""

from __future__ import annotations

import argparse
import re
import unicodedata

#: Characters a line must not start with (closing punctuation, CJK and Latin).
NO_LINE_START = set("，。、；：？！）》」』】”’,.;:?!)]}…·")
#: Characters a line must not end with (opening punctuation).
NO_LINE_END = set("（《「『【“‘([{")


def cells(text: str) -> int:
    """Columns ``text`` takes on a terminal (wide and full-width characters: 2)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _tokens(text: str) -> list[str]:
    """Words, single wide characters (each a break point) and runs of spaces, with
    closing punctuation glued to the token before it."""
    out: list[str] = []
    for piece in re.findall(r"\s+|[^\s]", text):
        wide = not piece.isspace() and unicodedata.east_asian_width(piece) in "WF"
        if piece.isspace():
            out.append(piece)
        elif out and (piece in NO_LINE_START or out[-1][-1] in NO_LINE_END
                      or (not wide and not out[-1].isspace() and not _is_wide(out[-1][-1]))):
            out[-1] += piece  # glue: closing punctuation, or the next letter of a Latin word
        else:
            out.append(piece)
    return out


def _is_wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF"


def wrap(text: str, width: int, *, keep_spaces: bool = False) -> list[str]:
    """``text`` (one paragraph) broken into lines of at most ``width`` columns where
    possible (a single word longer than a line stays whole). Runs of spaces become one
    space, unless ``keep_spaces`` (then only the spaces where a line breaks go)."""
    lines: list[str] = []
    line = ""
    for token in _tokens(text if keep_spaces else " ".join(text.split())):
        if token.isspace():
            if line:
                line += token if keep_spaces else " "
            continue
        if line and cells(line.rstrip() + token) > width and cells(line.rstrip()) > 0:
            lines.append(line.rstrip())
            line = ""
        line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with display-width wrapping; an epilog's indented lines
    (examples) and blank lines are kept as written."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for line in text.splitlines():
            if not line.strip() or line.startswith(" "):
                out.append(line)
            else:
                out.extend(indent + piece for piece in wrap(line, max(width - len(indent), 20)))
        return "\n".join(out)

    def format_help(self) -> str:
        text = super().format_help()
        # a heading argparse ends with ":" gets the full-width colon when it is Chinese
        return re.sub(r"(?m)^(\S[^\n]*[\u4e00-\u9fff]):$", r"\1：", text)
