"""How ``--help`` is laid out (specs/client.md § Command line): descriptions and
option texts wrapped to the terminal by display width (a Chinese character takes two
columns, and a line may break between two of them, never before closing
punctuation), example lines (indented lines of an epilog) kept as written, and a
section heading in Chinese ends with a full-width colon."""

from __future__ import annotations

import argparse
import re
import unicodedata

def cells(text: str) -> int:
    """Columns ``text`` takes on a terminal (wide and full-width characters: 2)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int, *, keep_spaces: bool = False) -> list[str]:
    """``text`` (one paragraph) broken into lines of at most ``width`` columns by the
    one rule of every screen (:func:`jupai_net.linebreak.break_lines`: English at
    spaces, Chinese between characters, never before closing punctuation nor inside a
    formula or a command); a single word longer than a line stays whole. Runs of
    spaces become one space, unless ``keep_spaces`` (then only the spaces where a line
    breaks go)."""
    from .linebreak import break_lines

    text = text.replace("\n", " ") if keep_spaces else " ".join(text.split())
    text = text.strip()
    if not text:
        return []
    return break_lines(text, width, fold=False)


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
