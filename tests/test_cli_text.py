"""The command line as a person meets it (issue 12 § Command line, specs/client.md §
Command line), through the real command: every --help has a description and
examples in both languages, usage errors start with ``jupai COMMAND:`` and exit 2,
and a house-rules file with several mistakes gets all of them at once."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from jupai_net.cli import SUBCOMMANDS


def jupai(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jupai_net", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=60)


THREE_MISTAKES = """\
players = 4
suply-number = 4          # a typo of supply-number
round-value = "rnak"      # ordinal or rank
hand-size = 30            # 1-10
"""


@pytest.mark.parametrize("command", [["rules"], ["host", "--no-announce"], ["simulate", "--games", "2"]])
def test_a_rules_file_with_three_mistakes_reports_all_of_them(tmp_path, command):
    path = tmp_path / "house.toml"
    path.write_text(THREE_MISTAKES, encoding="utf-8")
    proc = jupai(*command, "--rules", str(path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == f"jupai {command[0]}: {path} has 3 mistakes:"
    assert lines[1:] == ["  suply-number: unknown setting (did you mean 'supply-number'?)",
                         "  round-value: must be one of ordinal, rank, got 'rnak'",
                         "  hand-size: must be 1-10, got 30"]


def test_rules_file_mistakes_in_chinese_keep_the_files_keys(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(THREE_MISTAKES.replace("hand-size", "hand_size"), encoding="utf-8")
    proc = jupai("rules", "--rules", str(path), "--lang", "zh")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [f"jupai rules: {path} 有 4 处错误：",
                                        "  suply-number: 没有这项设置（是不是“supply-number”？）",
                                        "  round-value: 必须是 ordinal, rank 之一，这里是 'rnak'",
                                        "  hand_size: 请用连字符写作“hand-size”",
                                        "  hand_size: 必须在 1-10 之间，这里是 30"]


FIVE_MISTAKES = """\
players = 9
rounds = "ten"
random-specials = "yes"
hand-size = -1
same-identiy = "x"
"""


@pytest.mark.parametrize("command", [["rules"], ["host", "--no-announce", "--port", "0"]])
@pytest.mark.parametrize("lang, lines", [
    ("en", ["{path} has 5 mistakes:", "  players: must be 2-6, got 9", "  rounds: must be a whole number, got 'ten'",
            "  random-specials: must be true or false, got 'yes'", "  hand-size: must be 1-10, got -1",
            "  same-identiy: unknown setting (did you mean 'same-identity'?)"]),
    ("zh", ["{path} 有 5 处错误：", "  players: 必须在 2-6 之间，这里是 9", "  rounds: 必须是整数，这里是 'ten'",
            "  random-specials: 必须是 true 或 false，这里是 'yes'", "  hand-size: 必须在 1-10 之间，这里是 -1",
            "  same-identiy: 没有这项设置（是不是“same-identity”？）"]),
])
def test_a_bad_table_size_does_not_hide_the_other_mistakes(tmp_path, command, lang, lines):
    """Issue 12: with ``players = 9`` every other mistake is still reported, at once."""
    path = tmp_path / "house.toml"
    path.write_text(FIVE_MISTAKES, encoding="utf-8")
    proc = jupai(*command, "--rules", str(path), "--lang", lang)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stdout == ""
    assert proc.stderr.splitlines() == [f"jupai {command[0]}: " + lines[0].format(path=path), *lines[1:]]


@pytest.mark.parametrize("lang, words", [("en", "write it with hyphens: 'round-value'"), ("zh", "请用连字符写作“round-value”")])
def test_an_underscore_key_is_a_mistake_that_gives_the_hyphen_spelling(tmp_path, lang, words):
    path = tmp_path / "house.toml"
    path.write_text('round_value = "rank"\nsuply_number = 3\n', encoding="utf-8")
    proc = jupai("rules", "--rules", str(path), "--lang", lang)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert lines[1] == f"  round_value: {words}"
    assert lines[2].startswith("  suply_number: ")
    assert ("'supply-number'" if lang == "en" else "“supply-number”") in lines[2]


RULES_TABLE_AND_MORE = """\
players = 4
[rules]
round_value = "x"
hand-size = 30
playrs = 4
players = 5
[house]
note = "Friday"
"""


@pytest.mark.parametrize("lang, lines", [
    ("en", ["{path} has 6 mistakes:", "  round_value: write it with hyphens: 'round-value'",
            "  round_value: must be one of ordinal, rank, got 'x'", "  hand-size: must be 1-10, got 30",
            "  playrs: unknown setting (did you mean 'players'?)",
            "  players: set twice: at the top of the file and under [rules]",
            "  [house]: unknown table (settings go at the top of the file or under [rules])"]),
    ("zh", ["{path} 有 6 处错误：", "  round_value: 请用连字符写作“round-value”",
            "  round_value: 必须是 ordinal, rank 之一，这里是 'x'", "  hand-size: 必须在 1-10 之间，这里是 30",
            "  playrs: 没有这项设置（是不是“players”？）", "  players: 设置了两次：文件开头和 [rules] 表下各一次",
            "  [house]: 没有这个表（设置写在文件开头或 [rules] 表下）"]),
])
def test_another_table_does_not_hide_the_mistakes_inside_rules(tmp_path, lang, lines):
    """Issue 12 (trial of main): ``[rules]`` plus another table reported only the other
    table and read neither; now every mistake of both, in file order, keys as written."""
    path = tmp_path / "house.toml"
    path.write_text(RULES_TABLE_AND_MORE, encoding="utf-8")
    proc = jupai("rules", "--rules", str(path), "--lang", lang)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stdout == ""
    assert proc.stderr.splitlines() == [f"jupai rules: " + lines[0].format(path=path), *lines[1:]]


@pytest.mark.parametrize("lang, line", [("en", "  [rule]: unknown table (did you mean [rules]?)"),
                                        ("zh", "  [rule]: 没有这个表（是不是 [rules]？）")])
def test_a_misspelt_rules_table_gets_the_right_name(tmp_path, lang, line):
    path = tmp_path / "house.toml"
    path.write_text("[rule]\nrounds = 8\n", encoding="utf-8")
    proc = jupai("host", "--no-announce", "--port", "0", "--rules", str(path), "--lang", lang)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[1:] == [line]


def test_settings_at_the_top_and_under_rules_are_both_read(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('players = 3\n[rules]\nround-value = "rank"\nrounds = 9\n', encoding="utf-8")
    from jupai_net.rules import load_rules

    rules = load_rules(path)
    assert (rules.players, rules.round_value, rules.rounds) == (3, "rank", 9)


def test_a_mistake_of_the_settings_together_names_the_files_key(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("players = 6\nrounds = 30\n", encoding="utf-8")
    proc = jupai("rules", "--rules", str(path))
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[1].startswith("  rounds: at most 11 rounds fit a 6-player table")


def test_a_good_rules_file_shows_the_rules_in_chinese(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('round-value = "rank"\n', encoding="utf-8")
    proc = jupai("rules", "--rules", str(path), "--lang", "zh")
    assert proc.returncode == 0, proc.stderr
    assert "生效的规则" in proc.stdout and "rank" in proc.stdout and "含义" in proc.stdout


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_every_help_has_a_description_and_examples(command, lang):
    proc = jupai(command, "--help", "--lang", lang, env={"COLUMNS": "80"})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = proc.stdout
    usage, description = out.split("\n\n")[:2]
    assert usage.startswith(("usage: " if lang == "en" else "用法：") + f"jupai {command}")
    assert len(description.strip()) > 40, description
    head = "examples:" if lang == "en" else "示例："
    assert head in out, out
    examples = [line for line in out.split(head, 1)[1].splitlines() if line.startswith(f"  jupai {command}")]
    assert 1 <= len(examples) <= 3, out
    from jupai_net.helpformat import cells

    # every line fits 80 columns, the examples too (a CJK character counts 2); issue 12,
    # trial of main: en example lines were 84-92 columns
    wide = [line for line in out.splitlines() if cells(line) > 80]
    assert wide == [], wide
    if lang == "zh":
        assert "options:" not in out and "show this help" not in out and "选项：" in out
        assert "SECONDS" in out or "S " not in out  # value names are the same in both languages


@pytest.mark.parametrize("lang, blind, trusted", [("en", "dealer-blind by default", "--dealer trusted"),
                                                  ("zh", "庄家盲发", "--dealer trusted")])
def test_host_help_describes_both_dealing_schemes(lang, blind, trusted):
    """``jupai host --help`` says the default deal is dealer-blind and how to ask for a
    trusted one, not only "commit-reveal fair dealing" (issue 12, trial of main)."""
    proc = jupai("host", "--help", "--lang", lang, env={"COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    description = " ".join(proc.stdout.split("\n\n")[1].split())
    assert blind in description.replace("庄家 盲发", "庄家盲发") and trusted in description, description
    assert "commit-reveal fair dealing" not in proc.stdout


@pytest.mark.parametrize("lang, blind, trusted, start", [
    ("en", "dealer-blind by default", "commit-reveal", "type start"),
    ("zh", "默认庄家盲发", "承诺-公开", "输入 start")])
def test_play_and_host_help_say_what_is_true(lang, blind, trusted, start):
    """``jupai play --help`` says the deal is dealer-blind by default (not "commit-reveal
    fair", the trusted scheme's words), and ``jupai host --help`` says the seats wait for
    people unless --bots, and how to fill them with bots from the console (issue 12,
    trial 13)."""
    proc = jupai("play", "--help", "--lang", lang, env={"COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    description = "".join(proc.stdout.split("\n\n")[1].split())
    assert blind.replace(" ", "") in description and trusted in description, description
    assert "commit-reveal fair" not in proc.stdout and "承诺-公开的公平洗牌" not in proc.stdout
    proc = jupai("host", "--help", "--lang", lang, env={"COLUMNS": "80"})
    description = "".join(proc.stdout.split("\n\n")[1].split())
    assert "--botsN" in description and start.replace(" ", "") in description, description
    assert "bots for empty seats" not in proc.stdout and "空位由机器人补上" not in proc.stdout


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_jupai_help_fits_80_columns(lang):
    from jupai_net.helpformat import cells

    proc = jupai("--help", "--lang", lang, env={"COLUMNS": "80"})
    assert proc.returncode == 0 and proc.stdout
    assert [line for line in proc.stdout.splitlines() if cells(line) > 80] == []


def test_value_names_are_written_the_same_way_everywhere():
    """Times are SECONDS, table sizes 2-6, counts N, files FILE: one spelling per kind."""
    from jupai_net.cli import build_parser

    seen: dict[str, set[str]] = {}
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    for command, p in sub.choices.items():
        for action in p._actions:
            for option in action.option_strings:
                if action.metavar:
                    seen.setdefault(option, set()).add(action.metavar)
    assert seen["--think"] == {"SECONDS"} and seen["--rounds"] == {"N"} and seen["--rules"] == {"FILE"}
    assert seen["--seats"] == {"2-6"} and seen["--players"] == {"2-6"}
    assert all(m in ("SECONDS",) for o, ms in seen.items() if "timeout" in o or "delay" in o for m in ms), seen
    assert not any(m in ("S", "P", "K") for ms in seen.values() for m in ms), seen


def test_the_table_size_is_one_option_in_one_order_in_every_command():
    """``--seats`` and ``--players`` mean the same (the players at the table, bots
    included) in every command that takes them, listed in one order, ``--seats`` first,
    in each ``--help`` (was: ``--players, --seats`` for rules and simulate, ``--seats,
    --players`` for host and play; specs/client.md § Value names)."""
    from jupai_net.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    found = {}
    for command, p in sub.choices.items():
        for action in p._actions:
            if "--seats" in action.option_strings or "--players" in action.option_strings:
                found[command] = (tuple(action.option_strings), action.type, action.help, action.metavar)
    assert sorted(found) == ["host", "play", "rules", "simulate"], found
    assert {v[0] for v in found.values()} == {("--seats", "--players")}, found
    assert len({v[1:] for v in found.values()}) == 1, found  # one type, one help text, one metavar
    for command in found:
        proc = jupai(command, "--help", "--lang", "en", env={"COLUMNS": "120"})
        assert "--seats 2-6, --players 2-6" in proc.stdout, (command, proc.stdout)


def test_a_value_name_reads_the_same_in_both_languages():
    """A value a person types is named in capitals in both languages (the catalog's
    convention, jupai_net/messages/commands.py): a Chinese line that tells the player
    to type `jupai join HOST[:PORT]` writes it as `--help` does, not `主机[:端口]`."""
    from jupai_net.messages import catalog

    names = ("HOST[:PORT]", "[ADDR]:PORT", "SECONDS", "FILE")
    differ = [key for key, (en, zh) in catalog().items() for name in names if name in en and name not in zh]
    assert differ == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_usage_errors_start_with_the_command_and_exit_2(command, lang):
    proc = jupai(command, "--no-such-option", "--lang", lang)
    assert proc.returncode == 2 and proc.stdout == ""
    first = proc.stderr.splitlines()[0]
    expected = {"en": "unrecognized arguments: --no-such-option", "zh": "无法识别的参数：--no-such-option"}[lang]
    if command in ("verify", "replay"):  # a required FILE is missing first
        expected = {"en": "the following arguments are required: FILE", "zh": "缺少必需的参数：FILE"}[lang]
    assert first == f"jupai {command}: {expected}", proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_bad_value_names_the_option_in_chinese():
    proc = jupai("simulate", "--games", "many", "--lang", "zh")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == "jupai simulate: 参数 --games：'many' 不是有效的数字"  # no "int"


def test_the_global_lang_option_reaches_a_command_that_has_its_own(tmp_path):
    """``jupai --lang zh join ADDR``: the command's own ``--lang`` (not given) must not
    hide the one before the command (a closed port: the refusal is said in Chinese)."""
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"JUPAI_CONFIG_DIR": str(tmp_path), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    proc = jupai("--lang", "zh", "join", f"127.0.0.1:{port}", "--name", "Ann", env=env)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "无法连接" in out and "Cannot connect" not in out


def _closed_port() -> int:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("command, make", [
    ("join", lambda d: ["join", f"127.0.0.1:{_closed_port()}", "--name", "Ann"]),
    ("watch", lambda d: ["watch", f"127.0.0.1:{_closed_port()}", "--name", "Ann"]),
    ("join", lambda d: ["join", "127.0.0.1:99999"]),
    ("watch", lambda d: ["watch", "127.0.0.1:1", "--code", "nonsense"]),
    ("host", lambda d: ["host", "--no-announce", "--rules", str(d / "none.toml")]),
    ("play", lambda d: ["play", "--players", "9"]),
    ("play", lambda d: ["play", "--games", "-1"]),
    ("verify", lambda d: ["verify", str(d), "--code", "7KQ2M-X9PDA"]),
    ("replay", lambda d: ["replay", str(d / "config.toml")]),
    ("verify", lambda d: ["verify", str(d / "none.jupai")]),
    ("replay", lambda d: ["replay", str(d / "none.jupai")]),
    ("history", lambda d: ["history", "--dir", str(d / "no-such-folder")]),
    ("config", lambda d: ["config"]),
    ("simulate", lambda d: ["simulate", "--games", "0"]),
    ("rules", lambda d: ["rules", "--rules", str(d / "none.toml")]),
])
def test_every_error_a_command_prints_starts_with_the_command(tmp_path, command, make, lang):
    """A person's mistake or a refused connection: one sentence starting ``jupai
    COMMAND:``, an exit code, no traceback (issue 12 § Command line)."""
    (tmp_path / "config.toml").write_text("name = [1\n")  # only `jupai config` reads this folder's file
    env = {"JUPAI_CONFIG_DIR": str(tmp_path if command == "config" else tmp_path / "empty"),
           "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "JUPAI_NO_MULTICAST": "1"}
    env = {k: v for k, v in {**os.environ, **env}.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.run([sys.executable, "-m", "jupai_net", "--lang", lang, *make(tmp_path)], capture_output=True,
                          text=True, env=env, timeout=60)
    out = proc.stdout + proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith(f"jupai {command}: ")]
    assert proc.returncode not in (0, None) and len(errors) == 1, out
    assert f"jupai {command}:" not in proc.stdout, proc.stdout  # errors go to stderr
    # into a pipe the sentence is one line, not wrapped at 80 columns: what follows it is
    # the usage (argparse) or nothing
    rest = proc.stderr.split(errors[0], 1)[1].strip()
    assert not rest or rest.startswith(("usage:", "用法：", "技术细节（英文）：")), proc.stderr
    assert "Traceback" not in out
    if lang == "zh":
        assert not re.search(r"\b(Cannot|cannot|is not|must be|No such|refused|join code|got)\b", errors[0]), errors[0]


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory):
    """A verified, an unverified, a suspicious and a tampered transcript (as in
    tests/test_fairness_cli.py)."""
    from jupai_net.fairness.selfplay import deliver, play_game
    from jupai_net.rules import RuleSet

    d = tmp_path_factory.mktemp("verdicts")
    rules = RuleSet(players=3, rounds=4)
    fixed = dict(game_id=bytes(range(16)), host_seed=bytes([1]) * 32, seat_seeds=[bytes([s + 2]) * 32 for s in range(3)])
    good = play_game(rules, rng_seed=9, **fixed).transcript(1)
    unfinished = play_game(rules, rng_seed=9, max_steps=2, **fixed)
    out = {"verified": good, "unverified": unfinished.transcript(0)}
    deliver(unfinished.dealer.abandon("quit", reveal_seed=False), unfinished.witnesses)
    out["suspicious"] = unfinished.transcript(0)
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0x10
    out["tampered"] = bytes(bad)
    for name, data in out.items():
        (d / f"{name}.jupai").write_bytes(data)
    return d


@pytest.mark.parametrize("status", ["verified", "unverified", "suspicious"])
def test_a_verdict_reason_in_words_says_what_the_verifier_says(transcripts, status):
    """The catalog's English for a verdict's code, after the name of the scheme that
    dealt the game, is the verifier's reason, word for word, and its Chinese names the
    scheme too and has no English left in it."""
    from jupai_net.fairness.cli import read_and_verify, reason_detail, reason_text
    from jupai_net.fairness.verify import named_scheme
    from jupai_net.messages.verdicts import verdict_sentence

    verdict = read_and_verify(str(transcripts / f"{status}.jupai"))
    assert verdict.status == status and verdict.code and verdict.details["scheme"] == "trusted"
    assert verdict.reason.startswith("trusted dealer: ")
    assert named_scheme(verdict_sentence(verdict.code, verdict.args, "en"), "trusted") == verdict.reason
    zh = reason_text(verdict, "zh")
    assert zh.startswith("可信庄家：") and reason_detail(verdict, "zh") is None
    assert not any(word in zh for word in ("the host", "seed", "deck", "transcript")), zh


def test_jupai_verify_in_chinese(transcripts):
    proc = jupai("verify", str(transcripts / "verified.jupai"), "--lang", "zh", env={"COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    assert "已验证 — 公平对局" in proc.stdout and "可信庄家：公平对局：主机种子与其承诺一致" in proc.stdout
    assert "退出码" in proc.stdout and "fair game" not in proc.stdout and "reason" not in proc.stdout
    proc = jupai("verify", str(transcripts / "tampered.jupai"), "--lang", "zh", env={"COLUMNS": "100"})
    assert proc.returncode == 3
    # the changed byte breaks the signature: said in Chinese from the verdict's code,
    # no English technical detail left over
    assert "被篡改 — 对局记录对不上" in proc.stdout and "第 9 条声明：签名与主机密钥" in proc.stdout
    assert "技术细节（英文）" not in proc.stdout and "signature" not in proc.stdout
    proc = jupai("verify", str(transcripts), "--lang", "zh", env={"COLUMNS": "100"})
    assert proc.returncode == 3
    last = proc.stdout.strip().splitlines()[-1]
    # the four files are of one game id (fixed above): one game, whose seats were told different endings
    assert last == "被篡改 1 局（共 1 局，4 份对局记录）", last


def test_the_end_of_a_chinese_game_says_the_verdict_in_chinese(transcripts):
    from types import SimpleNamespace

    from jupai_net.client.end_words import game_end_lines
    from jupai_net.fairness.cli import read_and_verify

    verdict = read_and_verify(str(transcripts / "verified.jupai"))
    result = SimpleNamespace(status="finished", verdict=verdict, end=None, transcript_path=None)
    lines = [text for text, _, _ in game_end_lines(result, "zh", with_ranking=False)]
    (line,) = [x for x in lines if "公平性" in x]
    assert line.startswith("✔ 公平性：已验证 — 可信庄家：公平对局：") and "fair" not in line and "seed" not in line
