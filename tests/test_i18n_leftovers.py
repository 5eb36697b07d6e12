"""English left inside Chinese screens (issue 12, the last trial): an abandon reason
read back from the signed English sentence, a refused name, an address that starts
with ':'."""

from __future__ import annotations

import itertools
import re

import pytest

from jupai_net.messages.notices import ABANDON_CODES, MESSAGES as NOTICES, abandon_sentence, reason_sentence

from .cli_helpers import jupai

WHYS = sorted(key.rsplit(".", 1)[1] for key in NOTICES if key.startswith("abandon.why."))


def _sample_args(code: str, why: str) -> dict:
    values = {"who": [["Alice", 0], ["", 0xFF]], "why": why, "seconds": 30, "seat": 2, "detail": "x"}
    return {k: values[k] for k in ABANDON_CODES[code]}


@pytest.mark.parametrize("code, why", [(c, w) for c, w in itertools.product(ABANDON_CODES, WHYS)
                                       if "why" in ABANDON_CODES[c] or w == WHYS[0]])
def test_every_signed_abandon_sentence_is_said_in_chinese(code, why):
    """The transcript keeps the host's English sentence (signed); a Chinese verdict reads
    it back to its code and says it from the catalog: 'Alice (seat 0) left the
    dealer-blind game (they chose to leave)' was shown in English (the why held spaces)."""
    args = _sample_args(code, why)
    english = abandon_sentence(code, args, "en")
    said = reason_sentence(english, "zh")
    assert said == abandon_sentence(code, args, "zh"), (english, said)
    assert not re.search(r"[A-Za-z]{4,} [a-z]{3,}", said.replace("Alice", "")), said


def test_a_refused_name_is_said_whole_in_chinese():
    """``--name`` with an escape character: the reason was English inside the Chinese
    refusal ('（the name holds \\x1b (a control character)）')."""
    proc = jupai("join", "127.0.0.1:1", "--name", "Ann\x1b[2J", "--lang", "zh")
    assert proc.returncode == 2 and proc.stdout == "", proc
    line = proc.stderr.strip()
    assert line.startswith("jupai join: --name") and line.endswith("（名字含有控制字符 \\x1b）"), line
    assert not re.search(r"[a-z]{3,} [a-z]{3,}", line.replace("jupai join", "")), line


@pytest.mark.parametrize("name, en, zh", [
    ("Ann\u202e", "the name holds \\u202e (right-to-left override): a name is 1..24", "名字含有不可见的格式字符 \\u202e"),
    (" Ann", "the name starts or ends with a space", "名字的开头或结尾是空格"),
    ("A" * 30, "the name has 30 characters", "名字有 30 个字符"),
    ("", "the name is empty", "名字是空的"),
])
def test_every_name_fault_in_both_languages(name, en, zh):
    from jupai_net.client.cli import name_problem

    assert en in name_problem(name, "en")
    said = name_problem(name, "zh")
    assert said.endswith(f"（{zh}）") and not re.search(r"[a-z]{3,} [a-z]{3,}", said), said


def test_an_address_that_is_not_one_says_what_is_wrong():
    """``jupai join ":sku"`` was dialled as an address and said only that it is not
    HOST[:PORT]: one sentence says which part is wrong, exit code 2, in en and zh."""
    for lang, words in (("en", "nothing before the ':' names the host"), ("zh", "“:”前面没有主机名")):
        proc = jupai("join", ":sku", "--lang", lang, "--bot", "random")
        assert proc.returncode == 2 and proc.stdout == "", proc
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("jupai join: ") and words in lines[0], proc.stderr
        assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("address, en, zh", [
    (":7777", "nothing before the ':' names the host", "“:”前面没有主机名"),
    ("box:sku", "the port 'sku' is not a number 1..65535", "端口“sku”不是 1..65535 之间的数字"),
    ("a\x1bb:7777", "holds a character no host name has", "含有主机名不会有的字符"),
    ("[fe80::1", "an IPv6 address in [ has no closing ]", "缺少 ]"),
    ("[box]:7777", "'box' is not an IPv6 address", "“box”不是 IPv6 地址"),
    ("[::1]7777", "only ':PORT' may follow the ']' of an IPv6 address", "] 后面只能跟 :端口"),
])
def test_every_address_fault_is_said_in_both_languages(address, en, zh):
    from jupai_net.client.cli import AddressError, parse_address

    with pytest.raises(AddressError) as info:
        parse_address(address)
    assert en in str(info.value) and zh in info.value.text("zh")
