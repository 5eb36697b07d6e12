"""Why an action is not legal, in the person's language (issue 12): the engine's
``IllegalAction`` carries a code and its values (jupai_net/illegal.py), every code has
English and Chinese words, and a verdict naming an illegal action says why in Chinese
(it was English inside the Chinese verdict)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jupai_net.engine import GameState, IllegalAction
from jupai_net.illegal import CONTEXT, ILLEGAL
from jupai_net.messages import catalog, fields
from jupai_net.messages.illegal import illegal_sentence
from jupai_net.rules import RuleSet

from .engine_helpers import setup_of

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = {"cards": ["7♠", "K♥"], "positions": [3, 11], "kind": "attack", "round": "defense",
          "contest": "attack", "text": "x"}


def raised_codes() -> dict[str, str]:
    """Every code written in an ``IllegalAction("code", …)`` anywhere in the program."""
    found: dict[str, str] = {}
    for folder in ("jupai_net", "client", "host"):
        for path in (ROOT / folder).rglob("*.py"):
            for code in re.findall(r"""IllegalAction\(\s*["']([^"']*)["']""", path.read_text(encoding="utf-8")):
                found.setdefault(code, str(path.relative_to(ROOT)))
    return found


def test_every_raised_code_is_known_and_has_words_in_both_languages():
    codes = raised_codes()
    assert len(codes) >= 30, codes  # the engine, the dealer-blind game and the host
    assert not {c: p for c, p in codes.items() if c not in ILLEGAL}, "an IllegalAction without a known code"
    entries = catalog()
    for code in ILLEGAL:
        en, zh = entries[f"illegal.{code}"]
        assert en == ILLEGAL[code] and fields(en) == fields(zh), code
    assert set(ILLEGAL) - set(codes) <= {"other"}, "codes nobody raises"


@pytest.mark.parametrize("code", sorted(ILLEGAL))
def test_every_code_is_said_in_chinese_without_english(code):
    params = {name: SAMPLE.get(name, 2) for name in fields(ILLEGAL[code])}
    exc = IllegalAction(code, **params).within(claimant=1)
    assert illegal_sentence(exc.code, exc.params, "en") == exc.reason == str(exc)
    zh = illegal_sentence(exc.code, exc.params, "zh")
    assert zh.startswith("1号位："), zh
    if code != "other":
        rest = re.sub(r"weapon|true|false|attack", "", zh)  # a wire field's own name and values
        assert not re.search(r"[A-Za-z]{3,}", rest), zh
    assert set(CONTEXT) == {"claimant", "index"}


def test_an_engine_refusal_keeps_its_english_and_gives_its_code():
    rules = RuleSet(players=2)
    state = GameState.new(rules, list(range(53)), setup_of("LF"))
    seat = state.to_move
    with pytest.raises(IllegalAction) as info:
        state.apply(state.legal_actions()[0], seat=1 - seat)
    assert info.value.code == "not-your-turn" and info.value.params == {"to_move": seat}
    assert str(info.value) == f"not your turn: seat {seat} is to move"
    assert illegal_sentence(info.value.code, info.value.params, "zh") == f"还没轮到你：现在轮到{seat}号位行动"
    old = IllegalAction("a reason as text")  # an older caller: kept as written
    assert old.code == "other" and old.reason == "a reason as text"


def test_a_newer_peers_code_is_refused_not_guessed():
    with pytest.raises(ValueError):
        illegal_sentence("no-such-code", {}, "zh")
    with pytest.raises(ValueError):
        illegal_sentence("not-your-turn", {}, "zh")  # its value is missing


def test_jupai_verify_says_why_a_step_is_illegal_in_chinese(tmp_path):
    """A host that signs an illegal step: the verdict names the action's fault after the
    sentence, in English and in Chinese (the Chinese verdict said it in English, or not at all)."""
    from jupai_net.fairness import Transcript, decode_transcript, signing_key_from_bytes
    from jupai_net.fairness.forge import relinked
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.fairness.statements import TAG_STATEMENT, pack, split_statement, unpack

    from .cli_helpers import jupai

    key = signing_key_from_bytes(bytes([41]) * 32)
    rules = RuleSet(players=2, rounds=2, hand_size=3)
    game = play_game(rules, rng_seed=3, key=key, game_id=bytes(16), host_seed=bytes([5]) * 32,
                     seat_seeds=[bytes([60 + s]) * 32 for s in range(2)])
    t = decode_transcript(game.transcript(0))
    statements = list(t.statements)
    i = next(k for k, raw in enumerate(statements) if unpack(split_statement(raw)[0])["kind"] == "step")
    body = unpack(split_statement(statements[i])[0])
    body["action"] = {**body["action"], "kind": "answer"}  # nothing waits for an answer at the first step
    raw = pack(body)
    statements[i] = pack([raw, key.sign(TAG_STATEMENT + raw)])
    path = tmp_path / "forged.jupai"
    path.write_bytes(Transcript(t.seat, t.seed, tuple(relinked(statements, key, i + 1)), t.host_gone, t.left).encode())
    en = jupai("verify", str(path), "--lang", "en")
    assert en.returncode != 0 and "the announced action is illegal in the replayed game: there is nothing to answer" \
        in " ".join(en.stdout.split()), en.stdout + en.stderr
    zh = jupai("verify", str(path), "--lang", "zh")
    said = " ".join(zh.stdout.split())
    assert "公布的行动在重放的对局中不合规则：现在没有需要回应的行动" in said, zh.stdout + zh.stderr
    assert "nothing to answer" not in zh.stdout + zh.stderr
