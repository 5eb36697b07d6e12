"""Every fairness verdict in the player's language (issue 12, trial of main: the Chinese
verdict of an unfinished dealer-blind game read "技术细节（英文）：dealer-blind: the
transcript stops after statement #33…"). A verdict carries a stable code and its args
(specs/fairness.md §9.1); its English reason and every other language are said from
the one message catalog (jupai_net.messages.verdicts)."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from jupai_net.messages import catalog
from jupai_net.messages.verdicts import verdict_sentence

ROOT = Path(__file__).resolve().parent.parent
#: The calls that take a verdict reason's code: (name, index of the code argument).
CODE_CALLS = {"_Problem": 1, "_final": 1, "problem_verdict": 1, "reworded": 1, "said": 0}
#: Three English words in a row: a sentence a Chinese line must not hold.
ENGLISH = re.compile(r"[A-Za-z]{2,}(?:[ ,'’-]+[A-Za-z]{2,}){2,}")
#: host keys (``94c1-a823-80ea-adec-de90``) and join codes (``P9Y8-XX0Z-BC6E-TC88``):
#: random each run, and their letters can line up like words ("ea-adec-de")
KEYS = re.compile(r"\b[0-9a-f]{4}(?:-[0-9a-f]{4}){3,}\b|\b[0-9A-Z]{4}(?:-[0-9A-Z]{4}){3}\b")


def english(text: str):
    """An English phrase in ``text`` (three words or more), keys and codes left out."""
    return ENGLISH.search(KEYS.sub("", text))


def _strings(node: ast.AST) -> set[str]:
    """The strings an expression can evaluate to: a literal, or either branch of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    return set()


def produced_codes() -> dict[str, str]:
    """Every reason code the verifiers (trusted and dealer-blind), the transcript
    reader and a seat's client checking the host live can give, read from their sources: the code argument of ``_Problem``,
    ``_final``, ``problem_verdict``, ``reworded``, ``said``, every ``code=`` keyword,
    and every string assigned to a variable named ``code``. ``{code: file}``."""
    found: dict[str, str] = {}
    client = [ROOT / "client" / "session.py", ROOT / "client" / "signed_view.py"]  # the live checks of a seat's client
    for path in sorted((ROOT / "jupai_net" / "fairness").glob("*.py")) + client:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in CODE_CALLS and len(node.args) > CODE_CALLS[name]:
                    arg = node.args[CODE_CALLS[name]]
                    if not isinstance(arg, ast.Name):
                        for code in _strings(arg):
                            found.setdefault(code, path.name)
                for kw in node.keywords:
                    if kw.arg == "code" and not isinstance(kw.value, ast.Name):
                        for code in _strings(kw.value):
                            found.setdefault(code, path.name)
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "code" for t in node.targets):
                for code in _strings(node.value):
                    found.setdefault(code, path.name)
    return found


def test_every_reason_code_has_words_in_both_languages():
    codes = produced_codes()
    assert len(codes) > 100, sorted(codes)  # the whole verifier, not a sample
    entries = catalog()
    missing = {code: where for code, where in codes.items() if f"verdict.reason.{code}" not in entries}
    assert not missing, missing
    for code in codes:
        en, zh = entries[f"verdict.reason.{code}"]
        assert en.strip() and zh.strip(), code
        assert not ENGLISH.search(re.sub(r"\{\w+\}", "", zh)), f"{code}: English in the Chinese text: {zh}"
    # and no words for a reason nothing gives (a stale entry)
    stale = {key for key in entries if key.startswith("verdict.reason.")} - {f"verdict.reason.{c}" for c in codes}
    assert not stale, sorted(stale)


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory):
    """Real transcripts of games that did not verify, as a seat saves them: trusted
    (tampered, suspicious, unverified, the seat left, the host went away) and
    dealer-blind (abandoned after the deal, stopped in the middle)."""
    from jupai_net.fairness.selfplay import deliver, play_game
    from jupai_net.fairness.statements import generate_signing_key
    from jupai_net.fairness.transcript import decode_transcript, encode_transcript
    from jupai_net.host.blind import play_blind_deal
    from jupai_net.rules import RuleSet

    d = tmp_path_factory.mktemp("verdicts")
    rules = RuleSet(players=3, rounds=4)
    fixed = dict(game_id=bytes(range(16)), host_seed=bytes([1]) * 32, seat_seeds=[bytes([s + 2]) * 32 for s in range(3)])
    good = play_game(rules, rng_seed=9, **fixed).transcript(1)
    unfinished = play_game(rules, rng_seed=9, max_steps=2, **fixed)
    stopped = decode_transcript(unfinished.transcript(0))
    files = {
        "unverified": unfinished.transcript(0),
        "left": encode_transcript(replace(stopped, left="the player chose to leave")),
        "host-gone": encode_transcript(replace(stopped, host_gone="host error idle-timeout: no word from the client")),
    }
    deliver(unfinished.dealer.abandon("quit", reveal_seed=False), unfinished.witnesses)
    files["suspicious"] = unfinished.transcript(0)
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0x10
    files["tampered"] = bytes(bad)
    blind = play_blind_deal(RuleSet(players=2), generate_signing_key(), reason="the host was stopped")[0]
    files["blind-abandoned"] = blind
    cut = decode_transcript(blind)
    files["blind-stopped"] = encode_transcript(replace(cut, statements=cut.statements[:len(cut.statements) // 2],
                                                       host_gone="connection lost"))
    paths = {}
    for name, data in files.items():
        paths[name] = d / f"{name}.jupai"
        paths[name].write_bytes(data)
    return paths


def jupai(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jupai_net", *args], capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"})


STATUS = {"tampered": "tampered", "suspicious": "suspicious", "unverified": "unverified", "left": "unverified",
          "host-gone": "suspicious", "blind-abandoned": "unverified", "blind-stopped": "unverified"}


@pytest.mark.parametrize("name", sorted(STATUS))
def test_jupai_verify_in_chinese_says_every_verdict_without_english(transcripts, name):
    path = str(transcripts[name])
    proc = jupai("verify", "--lang", "zh", path)
    assert proc.stderr == "" and "Traceback" not in proc.stdout
    out = proc.stdout.replace(path, "FILE")
    assert "技术细节" not in out, out  # nothing left over in English
    assert not english(out), out
    reason = next(line for line in out.splitlines() if line.startswith("原因"))
    assert ("庄家盲发" if name.startswith("blind") else "可信庄家") in reason, reason
    # --json keeps the English reason and gains the code and its args, which say it again
    said = json.loads(jupai("verify", "--json", "--lang", "zh", path).stdout)
    assert said["status"] == STATUS[name] and said["code"] and isinstance(said["args"], dict)
    assert said["reason"].endswith(verdict_sentence(said["code"], said["args"], "en")), said
    assert not re.search(r"[\u4e00-\u9fff]", said["reason"])


def test_the_unfinished_blind_game_of_the_trial_reads_in_chinese(transcripts):
    """The trial's verdict: a dealer-blind game that stopped in the middle, said whole
    in Chinese on the ending screen, in ``jupai replay`` and in ``jupai verify``."""
    from types import SimpleNamespace

    from jupai_net.client.end_words import game_end_lines
    from jupai_net.fairness.cli import read_and_verify

    verdict = read_and_verify(str(transcripts["blind-stopped"]))
    assert verdict.code == "blind_stops_gone" and verdict.reason.startswith("dealer-blind: the transcript stops")
    result = SimpleNamespace(status="host-gone", verdict=verdict, end=None, transcript_path=None)
    lines = [text for text, _, _ in game_end_lines(result, "zh", with_ranking=False)]
    (line,) = [x for x in lines if "公平性" in x]
    assert "庄家盲发：对局记录在第" in line and "连接中断" in line and not english(line), lines
    proc = jupai("replay", "--lang", "zh", "--all", str(transcripts["blind-stopped"]))
    assert proc.returncode == 5 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "庄家盲发：对局记录在第" in proc.stderr and not english(proc.stderr.split(".jupai", 1)[1])


def test_a_technical_detail_stays_apart_and_english_says_it_whole():
    """A library's own words (an exception's message) are the ``detail`` arg: English
    appends it, Chinese leaves it to the technical-detail line."""
    from jupai_net.fairness.cli import reason_detail, reason_text
    from jupai_net.fairness.verify import verify_transcript

    verdict = verify_transcript(b"\x00\xffnot a transcript")
    assert verdict.status == "malformed" and verdict.code == "file_not_msgpack"
    assert verdict.reason == f"not a transcript file (not readable msgpack): {verdict.args['detail']}"
    assert reason_text(verdict, "zh") == "不是对局记录文件（内容无法解析）"
    assert reason_detail(verdict, "zh") == verdict.args["detail"] and reason_detail(verdict, "en") is None
