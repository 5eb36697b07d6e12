"""Issue 7 item 5, as the attacker: a host that opens to a seat deck positions that are
not its own (another seat's hand, a round card, a stock pair another seat drew), or
holds back one that is. The seat's witness must refuse it the moment the statement
arrives (old code: accepted, only the replay after the game noticed), and the client
must stop the game and say so (specs/fairness.md §5.4, §8, §9)."""

from __future__ import annotations

import re


import pytest

from jupai_net import actions as A
from jupai_net.fairness import (
    TAMPERED,
    VERIFIED,
    FairnessViolation,
    SeatWitness,
    Transcript,
    sign_statement,
    signing_key_from_bytes,
    verify_transcript,
)
from jupai_net.fairness.positions import PositionRule, stock_draw
from jupai_net.fairness.selfplay import play_game
from jupai_net.fairness.statements import split_statement, unpack
from jupai_net.host.table import Table
from jupai_net.rules import RuleSet
from jupai_net.setup import hand_positions, round_pile_positions

from .cli_helpers import jupai
from .test_net_support import VICTIM, victim_game


KEY = signing_key_from_bytes(bytes([23]) * 32)
RULES = RuleSet(players=3, rounds=5)


def body(raw: bytes) -> dict:
    return unpack(split_statement(raw)[0])


def drawer(state, rng):
    """A bot that rearms and takes supply (b) whenever it may: games with many draws."""
    legal = state.legal_actions(state.to_move)
    draws = [a for a in legal if a.kind in (A.REARM, A.SUPPLY_EQUIPMENT)]
    return rng.choice(draws or legal)


def fixed(rng_seed: int, rules: RuleSet = RULES, **kw):
    """A game whose randomness is fixed (game id, host and seat seeds) and whose bots draw."""
    return play_game(rules, rng_seed=rng_seed, key=KEY, choose=drawer, game_id=bytes([rng_seed]) * 16,
                     host_seed=bytes([rng_seed + 1]) * 32,
                     seat_seeds=[bytes([rng_seed + 2 + s]) * 32 for s in range(rules.players)], **kw)


@pytest.fixture(scope="module")
def game():
    """A game with a face-down draw by seat 0 and one by another seat."""
    for rng_seed in range(20):
        sp = fixed(rng_seed, spectators=False)
        seats = {d[1] for d in draw_steps(sp) if not d[2]}
        if 0 in seats and seats - {0}:
            assert verify_transcript(sp.transcript(0)).status == VERIFIED
            return sp
    pytest.fail("no game with face-down draws by seat 0 and by another seat")


def stream(sp, viewer=0) -> list[bytes]:
    return [raw for v, raw in sp.log if v == viewer]


def opening(sp, k: int) -> list:
    return [k, sp.dealer.deal.deck[k], sp.dealer.deal.salts[k]]


def changed(raw: bytes, scope: str, add=(), drop=()) -> bytes:
    """``raw`` re-signed by the host with openings added to / dropped from ``scope``."""
    b = body(raw)
    b[scope] = sorted([r for r in b[scope] if r[0] not in drop] + list(add), key=lambda r: r[0])
    return sign_statement(KEY, b)


def feed_until_refused(sp, n: int, forged: bytes, viewer=0):
    """A fresh witness of ``viewer`` takes statements 0..n-1 honestly, then ``forged``
    as statement n; returns the verdict of the refusal."""
    w = SeatWitness(viewer, sp.witnesses[viewer].seed)
    for raw in stream(sp, viewer)[:n]:
        w.receive(raw)
    with pytest.raises(FairnessViolation) as exc:
        w.receive(forged)
    v = exc.value.verdict
    assert v.status == TAMPERED and v.message == n, v
    return v


def draw_steps(sp, viewer=0):
    """``(statement index, drawing seat, face_up, first position of the pair)`` of every draw."""
    rule, out = PositionRule(RULES, viewer), []
    for raw in stream(sp, viewer):
        b = body(raw)
        if b["kind"] != "step":
            continue
        at = rule.next_stock
        for e in b["events"]:
            d = stock_draw(e)
            if d is not None:
                out.append((b["n"], d[0], d[1], at))
        assert rule.step(b["actor"], b["events"], [r[0] for r in b["private"]], [r[0] for r in b["public"]]) is None
    return out


# ------------------------------------------------------------------ the deal


def test_another_seats_hand_card_opened_at_the_deal_is_refused_at_once(game):
    """The attack of the issue: seat 1's hand card opened to seat 0. Old code: accepted
    at once; seat 0 played on with a card of seat 1 on its screen."""
    k = hand_positions(RULES, 1)[0]
    v = feed_until_refused(game, 3, changed(stream(game)[3], "private", add=[opening(game, k)]))
    assert v.position == k and v.kind == "deal"
    assert "seat 1's hand, not this seat's: it may not be shown to this seat" in v.reason


@pytest.mark.parametrize("what", ["equipment", "round-card", "stock"])
def test_other_positions_opened_at_the_deal_are_refused(game, what):
    k = {"equipment": 2 * 2 + 1, "round-card": round_pile_positions(RULES)[1], "stock": 52}[what]
    v = feed_until_refused(game, 3, changed(stream(game)[3], "private", add=[opening(game, k)]))
    assert v.position == k and "may not be shown to this seat" in v.reason


def test_an_own_card_held_back_at_the_deal_is_refused(game):
    k = hand_positions(RULES, 0)[-1]
    v = feed_until_refused(game, 3, changed(stream(game)[3], "private", drop=[k]))
    assert v.position == k and "was dealt to this seat and was not opened to it" in v.reason


def test_an_own_card_shown_to_everyone_at_the_deal_is_refused(game):
    k = hand_positions(RULES, 0)[0]
    forged = changed(changed(stream(game)[3], "private", drop=[k]), "public", add=[opening(game, k)])
    v = feed_until_refused(game, 3, forged)
    assert v.position == k and "opened to everyone" in v.reason


# ------------------------------------------------------------------ draws from the stock


def test_a_stock_pair_another_seat_drew_is_refused_at_once(game):
    n, seat, face_up, k = next(d for d in draw_steps(game) if d[1] != 0 and not d[2])
    v = feed_until_refused(game, n, changed(stream(game)[n], "private", add=[opening(game, k + 1)]))
    assert v.position == k + 1 and f"seat {seat} drew face down" in v.reason


def test_a_pair_this_seat_drew_must_be_opened_to_it(game):
    n, _, _, k = next(d for d in draw_steps(game) if d[1] == 0 and not d[2])
    v = feed_until_refused(game, n, changed(stream(game)[n], "private", drop=[k]))
    assert v.position == k and "drew face down and was not opened to it" in v.reason


def test_a_card_opened_in_a_step_without_a_draw_is_refused(game):
    n = next(i for i, raw in enumerate(stream(game)) if body(raw)["kind"] == "step")
    k = hand_positions(RULES, 2)[0]
    v = feed_until_refused(game, n, changed(stream(game)[n], "private", add=[opening(game, k)]))
    assert v.position == k and "seat 2's hand" in v.reason


@pytest.mark.parametrize("rules, seed", [(RuleSet(players=2, rounds=6), 1), (RuleSet(players=4, hidden_identities=True), 2),
                                         (RuleSet(players=5), 3), (RuleSet(players=6), 4)])
def test_honest_games_open_exactly_the_due_positions(rules, seed):
    sp = fixed(seed, rules)
    assert all(w.violation is None for w in sp.witnesses.values())
    for viewer in (0, rules.players - 1):
        assert verify_transcript(sp.transcript(viewer)).status == VERIFIED


def test_honest_games_include_face_up_draws():
    """So the rule for a pair shown to everyone is exercised (two farmers share a role,
    so a farmer's supply (b) is drawn face up)."""
    for seed in range(40):
        sp = fixed(seed, RuleSet(players=3 + 2 * (seed % 2)), spectators=False)
        ups = [e for _, raw in sp.log for e in body(raw).get("events", []) if (stock_draw(e) or (0, 0))[1]]
        if ups:
            assert all(w.violation is None for w in sp.witnesses.values())
            return
    pytest.fail("no face-up draw in 40 games")


def test_jupai_verify_names_the_position(game, tmp_path):
    t = Transcript(0, game.witnesses[0].seed, tuple(stream(game)[:3]) + (
        changed(stream(game)[3], "private", add=[opening(game, hand_positions(RULES, 1)[0])]),) + tuple(stream(game)[4:]))
    path = tmp_path / "leak.jupai"
    path.write_bytes(t.encode())
    r = jupai("verify", str(path))
    assert r.returncode == 3, r.stdout + r.stderr
    assert "seat 1's hand, not this seat's" in r.stdout


# ------------------------------------------------------------------ a hostile table over TCP+TLS


class PeekingTable(Table):
    """Opens the bot's first hand card to the victim in the victim's deal statement."""

    def _deliver(self, outbox):
        raws = outbox.get(VICTIM)
        for i, raw in enumerate(raws or ()):
            b = body(raw)
            if b["kind"] == "deal":
                deal, k = self.dealer.deal, hand_positions(self.rules, 1)[0]
                b["private"] = sorted(b["private"] + [[k, deal.deck[k], deal.salts[k]]], key=lambda r: r[0])
                raws[i] = sign_statement(self.key, b)
        super()._deliver(outbox)


async def test_the_client_stops_the_game_at_the_leaked_card(monkeypatch):
    """Old code: the game went on until seat 1 played the card (a public opening of a
    position 'already revealed'), with the card on the victim's screen all along."""
    result = await victim_game(monkeypatch, PeekingTable)
    assert result.status == "error" and result.error[0] == "tampered", result.error
    assert "seat 1's hand, not this seat's" in result.error[1]
    assert result.verdict.status == TAMPERED and result.verdict.kind == "deal"
    assert any(n.code == "fairness" and "seat 1's hand" in n.text for n in result.view.notices)
    # the live note in the player's language, from the verdict's code (issue 12)
    from jupai_net.client.status_words import notice_text

    (note,) = [n for n in result.view.notices if n.code == "fairness"]
    assert notice_text(note, "en") == f"FAIRNESS: the host broke the fairness protocol: {result.verdict.reason}"
    zh = notice_text(note, "zh")
    assert zh.startswith("公平性：主机违反了公平性协议：可信庄家：第 ") and "1号位的手牌，不是本座位的" in zh, zh
    assert not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", zh), zh
    assert not result.view.events or all(e.get("kind") != "play" for e in result.view.events)  # stopped at the deal
