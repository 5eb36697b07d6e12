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


#: English words a Chinese line must not hold (three letters or more), once the
#: file's path and the values a person wrote are taken out.
_ENGLISH = re.compile(r"[A-Za-z]{3,}")


def _config_run(tmp_path, content: bytes, *argv: str):
    import os
    import subprocess
    import sys

    (tmp_path / "config.toml").write_bytes(content)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(JUPAI_CONFIG_DIR=str(tmp_path), LANG="en_US.UTF-8", COLUMNS="400")
    return subprocess.run([sys.executable, "-m", "jupai_net", *argv], capture_output=True, text=True, timeout=60,
                          env=env, stdin=subprocess.DEVNULL)


def test_every_settings_file_problem_is_said_in_chinese(tmp_path):
    """``config.toml`` problems (ConfigError) were English under ``--lang zh``: every one,
    at once, in Chinese, joined by ``；``; the same file in English is unchanged."""
    content = ('nmae = "x"\nfoo = 1\nlang = "fr"\nopponents = "smart"\nname = "a\\tb"\nhost = "box:99999"\n'
               'lang2 = 3\n').encode()
    proc = _config_run(tmp_path, content, "config", "--lang", "zh")
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr, proc
    line = proc.stderr.strip()
    assert line.startswith("jupai config: ") and "\n" not in line, line
    assert "未知设置 'nmae'（是不是 'name'？）" in line and "可用的有 name、lang、opponents、host" in line, line
    assert "lang 只能是 \"zh\" 或 \"en\"，这里是 'fr'" in line and "必须是 expert、greedy、random 之一" in line, line
    assert "name 不能用作牌桌上的名字：名字含有控制字符 \\t" in line, line
    assert "host 不是 HOST[:PORT]（主机[:端口]）：端口“99999”不是 1..65535 之间的数字" in line, line
    words = line.replace("jupai config", "").replace(str(tmp_path / "config.toml"), "").replace("HOST[:PORT]", "")
    for own in ("nmae", "name", "foo", "lang2", "lang", "opponents", "smart", "host", "expert", "greedy", "random"):
        words = words.replace(own, "")
    assert not _ENGLISH.search(words), words
    english = _config_run(tmp_path, content, "config", "--lang", "en").stderr
    assert "unknown setting 'nmae' (did you mean 'name'?); " in english, english
    assert "host is not HOST[:PORT]: the port '99999' is not a number 1..65535" in english, english


@pytest.mark.parametrize("content, zh", [
    (b"name = \n", "不是有效的 TOML：第 1 行第 8 列有错误"),
    (b"a = 1\na = 2", "不是有效的 TOML：在文件末尾有错误"),
    ('name = "宝宝"\n'.encode("gbk"), "不是 UTF-8 编码（看起来是 GBK）：请另存为 UTF-8"),
    (b"name = 'caf\xe9'\n", "不是 UTF-8 编码（偏移 11 处的字节 0xe9 不是 UTF-8）：请另存为 UTF-8"),
])
def test_a_settings_file_that_cannot_be_read_is_said_in_chinese(tmp_path, content, zh):
    proc = _config_run(tmp_path, content, "config", "--lang", "zh")
    line = proc.stderr.strip()
    assert proc.returncode == 2 and line == f"jupai config: {tmp_path / 'config.toml'} {zh}", proc


def test_a_rules_file_that_is_not_toml_is_said_in_chinese(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text("players = \n", encoding="utf-8")
    proc = jupai("simulate", "--rules", str(rules), "--games", "1", "--lang", "zh")
    assert proc.returncode == 2 and f"{rules} 不是有效的 TOML：第 1 行第 11 列有错误" in proc.stderr, proc
    proc = jupai("simulate", "--rules", str(rules), "--games", "1", "--lang", "en")
    assert proc.returncode == 2 and f"{rules} is not valid TOML: Invalid value (at line 1, column 11)" in proc.stderr


def test_no_space_after_a_seat_word_before_chinese():
    """'0号位 没有公开种子': a seat's or the host's word goes on without a space in
    Chinese, in every template of the catalog; a person's name keeps its space."""
    from jupai_net.messages import catalog, fields, t
    from jupai_net.messages.verdicts import verdict_sentence

    said = verdict_sentence("blind_ended_unaudited", {"names": [0, 2]}, "zh")
    assert "0号位、2号位没有公开种子" in said, said
    assert t("notice.net.left.left", "zh", name="Ann", seat=1) == "Ann 离开了1号位"
    checked = 0
    for key, (_, zh) in catalog().items():
        names = fields(zh)
        if not names:
            continue
        try:
            text = t(key, "zh", **{n: "0号位" for n in names})
        except (ValueError, TypeError, KeyError, IndexError):  # a number's format spec
            continue
        checked += 1
        assert not re.search("(号位|主机) [\u3400-\u9fff]", text), (key, text)
    assert checked > 500


@pytest.mark.parametrize("lang, name", [("en", "jupai table"), ("zh", "剧牌牌桌")])
def test_a_table_name_with_nothing_printable_falls_back_in_the_language(lang, name):
    import argparse

    from jupai_net.host.cli import host_table_name
    from jupai_net.play import _table_name

    assert host_table_name(argparse.Namespace(table_name="\x00\x01"), lang) == name
    assert _table_name("\x00", lang) != ""  # the player's name is never all control characters in practice


def _english_left(text: str) -> list[str]:
    """The lines of a Chinese run's output that still hold English prose (two words of
    four letters or more in a row), once what is rightly ASCII is taken out: command
    lines and usage, paths, options, metavars and value names, bot kinds, quoted and
    bracketed words."""
    left = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(("jupai ", "用法：", "/")) or "jupai_net" in s:
            continue
        s = re.sub(r"\S*/\S*", " ", s)  # paths
        s = re.sub(r"--?[a-z][a-z0-9-]*", " ", s)  # options
        s = re.sub(r"\{[^}]*\}|\[[^\]]*\]|`[^`]*`|'[^']*'|“[^”]*”|\b[A-Z][A-Z0-9_]+\b", " ", s)
        s = re.sub(r"jupai \w+|\b(?:expert|greedy|random|opponents)\b", " ", s)
        if re.search(r"[A-Za-z]{4,}[ ,.:;]+[A-Za-z]{4,}", s):
            left.append(line)
    return left


def test_every_command_a_player_runs_says_nothing_in_english_under_zh(tmp_path):
    """Issue 12: a game (jupai play, 3 seats, 2 rounds), then jupai verify, replay
    --all and history on it, all under --lang zh: no English prose
    left in what they print (the same commands in English do print some: the check
    sees it)."""
    (tmp_path / "config.toml").write_text('name = "小明"\n', encoding="utf-8")
    env = {"JUPAI_CONFIG_DIR": str(tmp_path)}
    game = jupai("play", "--lang", "zh", "--bot", "random", "--rounds", "2", "--bot-delay", "0", "--seats", "3", env=env)
    assert game.returncode == 0, game.stderr
    (path,) = (tmp_path / "transcripts").glob("*.jupai")
    runs = [game] + [jupai(*argv, "--lang", "zh", env=env) for argv in (
        ("verify", str(path)), ("replay", str(path), "--all"), ("history",))]
    for run in runs:
        assert run.returncode == 0 and "Traceback" not in run.stderr, (run.args, run.stderr)
        left = _english_left(run.stdout + run.stderr)
        assert not left, (run.args, left)
    english = jupai("verify", str(path), "--lang", "en", env=env)
    assert _english_left(english.stdout), english.stdout  # the check would see English
