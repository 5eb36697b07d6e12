"""argparse's own texts ("usage:", "options", "the following arguments are required",
"invalid choice" …) in the language of the run (specs/client.md § Languages).

argparse looks its texts up through ``gettext`` (module globals ``_`` and
``ngettext``); :func:`speak` swaps those for lookups in :data:`ZH`
while a Chinese command runs, and :func:`restore` puts them back. Texts not listed stay as
argparse wrote them.
"""

from __future__ import annotations

import argparse
from typing import Any

_GETTEXT = argparse._, argparse.ngettext  # type: ignore[attr-defined]

#: argparse's message ids (Python 3.11-3.13) -> Chinese; the %-placeholders are kept.
ZH: dict[str, str] = {
    "usage: ": "用法：",
    "positional arguments": "位置参数",
    "options": "选项",
    "optional arguments": "选项",
    "show this help message and exit": "显示本帮助并退出",
    "subcommands": "子命令",
    "argument %(argument_name)s: %(message)s": "参数 %(argument_name)s：%(message)s",
    "unrecognized arguments: %s": "无法识别的参数：%s",
    "not allowed with argument %s": "不能与参数 %s 同时使用",
    "ignored explicit argument %r": "多余的参数值 %r",
    "the following arguments are required: %s": "缺少必需的参数：%s",
    "one of the arguments %s is required": "参数 %s 中必须给出一个",
    "expected one argument": "需要一个值",
    "expected at most one argument": "最多需要一个值",
    "expected at least one argument": "至少需要一个值",
    "expected %s argument": "需要 %s 个值",
    "expected %s arguments": "需要 %s 个值",
    "ambiguous option: %(option)s could match %(matches)s": "选项 %(option)s 有歧义，可能是 %(matches)s",
    "unexpected option string: %s": "意外的选项：%s",
    # every option typed int or float (the others' types say their own sentence): no "int" in Chinese
    "invalid %(type)s value: %(value)r": "%(value)r 不是有效的数字",
    "invalid choice: %(value)r (choose from %(choices)s)": "无效的选择：%(value)r（可选 %(choices)s）",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "未知的子命令 %(parser_name)r（可选：%(choices)s）",
    "can't open '%(filename)s': %(error)s": "无法打开“%(filename)s”：%(error)s",
    "%(prog)s: error: %(message)s\n": "%(prog)s：错误：%(message)s\n",
}


def _zh(message: str | None) -> str | None:
    return ZH.get(message, message) if message is not None else None


def _zh_n(singular: str, plural: str, n: int) -> str:
    return ZH.get(singular if n == 1 else plural, singular if n == 1 else plural)


def speak(lang: str) -> tuple[Any, Any]:
    """Make argparse speak ``lang`` (``"zh"``; anything else: English, as written);
    returns the previous lookups, for :func:`restore`."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    if lang == "zh":
        argparse._, argparse.ngettext = _zh, _zh_n  # type: ignore[attr-defined]
    else:
        argparse._, argparse.ngettext = _GETTEXT  # type: ignore[attr-defined]
    return saved


def restore(saved: tuple[Any, Any]) -> None:
    """Put back the lookups :func:`speak` returned."""
    argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
