"""The one message catalog (jupai_net/messages, specs/client.md § Languages): every key
in both languages with the same placeholders, no key in two tables, the language of a
run (--lang, settings file, locale), and argparse's own texts in Chinese."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from jupai_net import messages
from jupai_net.messages import TABLES, catalog, fields, lang_in_argv, resolve_lang, t, use_lang

ROOT = Path(__file__).resolve().parent.parent


def test_every_key_in_both_languages_with_the_same_placeholders():
    for key, texts in catalog().items():
        assert isinstance(texts, tuple) and len(texts) == 2, key
        en, zh = texts
        assert en.strip() and zh.strip(), f"{key}: empty text"
        assert fields(en) == fields(zh), f"{key}: placeholders differ: {fields(en)} vs {fields(zh)}"
        en.format(**{f: "x" for f in fields(en)})  # a template argparse-style % or a stray { fails here
        zh.format(**{f: "x" for f in fields(zh)})


def test_no_key_is_in_two_tables():
    seen: dict[str, str] = {}
    for name in TABLES:
        for key in importlib.import_module(name).MESSAGES:
            assert key not in seen, f"{key} in {seen.get(key)} and {name}"
            seen[key] = name


def test_every_literal_key_in_the_sources_exists():
    """Every ``t("key")`` / ``tn("key", …)`` written literally anywhere in the program
    is in the catalog (a typo would raise KeyError in front of a player)."""
    used: dict[str, str] = {}
    for folder in ("jupai_net", "client", "host"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for key in re.findall(r"""\bt\(\s*["']([a-z0-9_.\-]+)["']""", text):
                used.setdefault(key, str(path))
            for key in re.findall(r"""\btn\(\s*["']([a-z0-9_.\-]+)["']""", text):
                used.setdefault(key + ".one", str(path))
                used.setdefault(key + ".other", str(path))
    assert len(used) > 100
    missing = {k: p for k, p in used.items() if k not in catalog()}
    assert not missing, missing


def test_chinese_text_has_no_english_words_left():
    """A Chinese text holds no English sentence: outside placeholders, command names,
    options and ALL-CAPS value names, at most a short word (e.g. 'bot' in a name)."""
    allowed = re.compile(r"jupai|--?[a-z][a-z0-9-]*|\{[a-z_0-9]+\}|[A-Z][A-Z_:\[\]]+|[a-z]\b")
    for key, (_, zh) in catalog().items():
        prose = "\n".join(line for line in zh.splitlines() if not line.startswith("  jupai "))  # examples: commands
        rest = allowed.sub(" ", prose)
        words = re.findall(r"[A-Za-z]{4,}(?:\s+[A-Za-z]{3,}){2,}", rest)
        assert not words, f"{key}: English in Chinese text: {words}"


def test_t_uses_the_language_of_the_run():
    assert t("opt.lang", "zh").startswith("所有文字")
    with use_lang("zh"):
        assert messages.current_lang() == "zh"
        assert t("opt.lang").startswith("所有文字")
    assert messages.current_lang() == "en" and t("opt.lang").startswith("language")
    with pytest.raises(KeyError):
        t("no.such.key")


@pytest.mark.parametrize("argv, lang", [
    (["--lang", "zh", "verify", "f"], "zh"), (["verify", "f", "--lang=zh"], "zh"),
    (["verify", "--lang", "en"], "en"), (["verify", "--", "--lang", "zh"], None), (["--lang", "fr"], None),
])
def test_lang_in_argv(argv, lang):
    assert lang_in_argv(argv) == lang


def test_resolve_lang_order(monkeypatch, tmp_path):
    """--lang beats the settings file, which beats the locale."""
    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    assert resolve_lang([], {"LANG": "zh_CN.UTF-8"}) == "zh"
    (tmp_path / "config.toml").write_text('lang = "zh"\n', encoding="utf-8")
    assert resolve_lang([], {"LANG": "en_US.UTF-8"}) == "zh"
    assert resolve_lang(["--lang", "en"], {}) == "en"
    (tmp_path / "config.toml").write_text('lang = "zh"\nnmae = "x"\n', encoding="utf-8")  # reported by the command
    assert resolve_lang([], {}) == "zh"
    (tmp_path / "config.toml").write_bytes(b"lang = \xff")
    assert resolve_lang([], {}) == "en"


def jupai(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    import os

    full = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "jupai_net", *args], capture_output=True, text=True,
                          env=full, cwd=cwd, timeout=60)


def test_argparse_errors_in_chinese_start_with_the_command():
    proc = jupai("verify", "--lang", "zh")
    assert proc.returncode == 2 and proc.stdout == ""
    first = proc.stderr.splitlines()[0]
    assert first == "jupai verify: 缺少必需的参数：FILE", proc.stderr
    assert "用法：jupai verify" in proc.stderr and "Traceback" not in proc.stderr


def test_settings_file_language_drives_help(tmp_path):
    (tmp_path / "config.toml").write_text('lang = "zh"\n', encoding="utf-8")
    proc = jupai("--help", env={"JUPAI_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 0 and "用法：jupai" in proc.stdout and "显示本帮助并退出" in proc.stdout
    proc = jupai("--help", "--lang", "en", env={"JUPAI_CONFIG_DIR": str(tmp_path)})
    assert "usage: jupai" in proc.stdout and "用法" not in proc.stdout


#: Counted nouns that need a singular for a count of 1 ("1 point", not "1 points").
COUNTED = ("points", "games", "moves", "rounds", "spectators", "actions", "statements", "cards", "seats",
           "players", "uses", "hands", "turns", "seconds", "characters", "commitments")
#: Texts whose count can never be 1, with why (checked by the test below, nowhere else).
NEVER_ONE = {
    ("code.length", "chars"): "a join code's length, 19",
    ("code.old", "chars"): "a join code's length, 19",
    ("seats.free", "total"): "a table has 2-6 seats",
    ("lobby.seats", "total"): "a table has 2-6 seats",
    ("phase.lobby.seats", "total"): "a table has 2-6 seats",
    ("ev.deal", "players"): "a table has 2-6 players",
    ("sim.title", "players"): "a table has 2-6 players",
    ("history.more", "total"): "shown only when more games than shown exist, so at least 2",
    ("series.final", "games"): "series.final_one says 1 game (client/scoreboard.py)",
    ("replay.at_deal", "total"): "a dealt game has its deal's actions and at least one move",
    ("rule.no_round_pile", "dealt"): "at least 2 seats × 3 cards",
    ("rule.too_many_rounds", "most"): "53 − players × (2 + hand) is never 1 for 2-6 seats and 1-10 hand cards",
    ("rule.too_many_rounds", "deck"): "the deck, 53",
    ("verdict.reason.verified_public", "deck"): "the deck, 53",
    ("verdict.reason.verified_seat", "deck"): "the deck, 53",
    ("verdict.reason.turns_cut_short", "deck"): "the deck, 53",
    ("verdict.reason.abandon_unannounced", "sent"): "a seat sends its seed after the start and the commitments",
    ("verdict.reason.host_gone_sent", "sent"): "a seat sends its seed after the start and the commitments",
    ("verdict.reason.commitments_count", "seats"): "a start announces 2-6 seats (statements.check_body)",
    ("verdict.reason.hellos_count", "seats"): "a start announces 2-6 seats (statements.check_body)",
    ("verdict.reason.seeds_count", "seats"): "a start announces 2-6 seats (statements.check_body)",
    ("verdict.reason.seats_for_rules", "seats"): "a start announces 2-6 seats (statements.check_body)",
    ("verdict.reason.seats_for_rules", "players"): "rules are for 2-6 players (RuleSet)",
    ("name.why.long", "length"): "said only of a name longer than 24 characters (protocol.messages.name_fault)",
}


def test_a_counted_noun_has_a_singular_for_one():
    """Issue 12: "…, 1 points." Every English text that puts a number before a counted
    noun is a ``.one``/``.other`` pair (:func:`tn`), or its count can never be 1
    (:data:`NEVER_ONE` says why)."""
    from jupai_net.messages import tn

    entries = catalog()
    found = set()
    for key, (en, _) in entries.items():
        if key.endswith(".other") and key[:-len("other")] + "one" in entries:
            continue  # the plural of a pair (tn)
        for m in re.finditer(r"\{(\w+)\} (" + "|".join(COUNTED) + r")\b", en):
            found.add((key, m[1]))
    assert found <= NEVER_ONE.keys(), sorted(found - NEVER_ONE.keys())
    assert not NEVER_ONE.keys() - found, "stale NEVER_ONE entries"
    assert tn("count.points", 1, "en") == "1 point" and tn("count.points", 4, "en") == "4 points"
    assert t("host.closing.series_top", "en", names="小明", points=tn("count.points", 1, "en")) == \
        "top of the series' scoreboard: 小明, 1 point"


@pytest.mark.parametrize("lang, title", [("en", "1 game · 2 players · 1 round · bot random"),
                                         ("zh", "1 局 · 2 人 · 1 回合 · 机器人 random")])
def test_simulate_titles_one_game_of_one_round_in_the_singular(lang, title):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "jupai_net", "simulate", "--games", "1", "--players", "2",
                           "--rounds", "1", "--bot", "random", "--lang", lang], capture_output=True, text=True,
                          timeout=60, env={**__import__("os").environ, "COLUMNS": "120"})
    assert done.returncode == 0, done.stderr
    assert title in done.stdout, done.stdout


def test_tables_load_once_each_when_threads_look_up_at_once(monkeypatch):
    """Clients verify games in worker threads: threads that load the tables at once
    (each import slowed here) get every key, and each table is loaded once, in order."""
    import threading
    import time

    monkeypatch.setattr(messages, "_loaded", [])
    real = importlib.import_module

    def slow(name):
        time.sleep(0.02)
        return real(name)

    monkeypatch.setattr(messages.importlib, "import_module", slow)
    keys = ["verdict.reason.verified_seat", "notice.series-mismatch", "opt.lang"] * 3
    said, errors = [], []

    def look(key):
        try:
            said.append(t(key, "en", names="A", deck=53))
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(repr(exc))

    threads = [threading.Thread(target=look, args=(k,)) for k in keys]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == [] and len(said) == len(keys)
    loaded = [id(tb) for tb in messages._loaded]  # the tables up to the last key's, once each, in order
    assert len(loaded) >= 3 and loaded == [id(real(name).MESSAGES) for name in TABLES][:len(loaded)]
