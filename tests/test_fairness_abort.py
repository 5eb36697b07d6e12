"""Issue 7 item 2, as the attacker: a redeal by abort. Once every seat has sent its seed
the host alone knows the deck; it stops the game before anyone can check it (abandon
with any reason, the connection gone for good, the `seeds` statement never sent) and
deals again. Every such end after this seat sent its seed must read **suspicious**
(specs/fairness.md §1.2, §7, §9); leaving by the player's own choice stays unverified."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import trio

from jupai_net.client.bot import BotPlayer
from jupai_net.client.render import game_end_lines
from jupai_net.client.session import run_session
from jupai_net.fairness import (
    SUSPICIOUS,
    UNVERIFIED,
    VERIFIED,
    HostDealer,
    SeatWitness,
    decode_transcript,
    signing_key_from_bytes,
    verify_transcript,
)
from jupai_net.fairness.selfplay import deliver, play_game
from jupai_net.host import server as server_mod
from jupai_net.host.table import Table
from jupai_net.rules import RuleSet

from .cli_helpers import jupai
from .test_net_support import VICTIM, host_config, pin, start_host, victim_game

KEY = signing_key_from_bytes(bytes([17]) * 32)
RULES = RuleSet(players=3, rounds=4)


def table(rules: RuleSet = RULES):
    """A host dealer and one witness per seat, started and committed: the next thing
    each seat does is send its seed."""
    dealer = HostDealer(rules, KEY)
    ws = {s: SeatWitness(s) for s in range(rules.players)}
    deliver(dealer.start(), ws)
    for s in ws:
        deliver(dealer.commit(s, ws[s].commitment), ws)
    return dealer, ws


def grab_seeds(dealer, ws, *, announce: bool = False) -> None:
    """Every seat sends its seed; the host takes them all, so it alone knows the deck.
    ``announce``: it also sends the ``seeds`` statement (to seat 0 only) and then stops."""
    seeds = {s: w.seed_reveal() for s, w in ws.items()}
    for s in (1, 2):
        assert not dealer.reveal(s, seeds[s])  # nothing sent while a seed is missing
    if announce:
        out = dealer.reveal(0, seeds[0])
        ws[0].receive(out[0][0])  # the seeds statement arrives; the deal never does


# ------------------------------------------------------------------ in memory, every way to stop


@pytest.mark.parametrize("how", ["abandon", "abandon-with-seed", "abandon-blaming-a-seat", "vanish",
                                 "vanish-after-seeds", "another-game"])
def test_every_stop_after_the_seed_was_sent_is_suspicious(how):
    """Old code: 'unverified' ("no card was dealt" / "never revealed its seed") for every
    stop before the `seeds` statement, whatever the host had seen."""
    dealer, ws = table()
    grab_seeds(dealer, ws, announce=how == "vanish-after-seeds")
    if how.startswith("abandon"):
        reason = "seat 2 did not reveal its seed in time" if how.endswith("seat") else "the host was stopped"
        deliver(dealer.abandon(reason, reveal_seed=how == "abandon-with-seed"), ws)
    elif how == "another-game":
        ws[0].host_gone("the host started another game before this one ended")
    else:
        ws[0].host_gone("connection lost")
    v = ws[0].verify()
    assert v.status == SUSPICIOUS, v
    assert v.details.get("abort_after_reveal") is True
    assert "alone could know the deck" in v.reason
    again = verify_transcript(ws[0].transcript())
    assert (again.status, again.reason) == (v.status, v.reason)


def test_before_the_seed_was_sent_nothing_is_held_against_the_host():
    dealer, ws = table()
    deliver(dealer.abandon("not enough players"), ws)
    v = ws[0].verify()
    assert v.status == UNVERIFIED and not v.details.get("abort_after_reveal")
    assert decode_transcript(ws[0].transcript()).seed_sent is None


def test_the_player_leaving_stays_unverified_even_after_sending_the_seed():
    dealer, ws = table()
    grab_seeds(dealer, ws)
    ws[0].host_gone("session ended")
    ws[0].player_left("the player chose to leave")
    v = verify_transcript(ws[0].transcript())
    assert v.status == UNVERIFIED and "this seat left the game before the end" in v.reason
    sp = play_game(RULES, rng_seed=1, key=KEY, max_steps=3, finish=False, spectators=False)
    sp.witnesses[0].player_left("the player chose to leave")
    assert verify_transcript(sp.transcript(0)).status == UNVERIFIED


def test_the_note_is_in_the_transcript_only_while_nothing_signed_proves_it():
    """``seed_sent`` (unsigned, local) says how many statements this seat had when it sent
    its seed; once the signed `seeds` statement is in, the file is as before."""
    dealer, ws = table()
    assert decode_transcript(ws[0].transcript()).seed_sent is None
    grab_seeds(dealer, ws)
    assert decode_transcript(ws[0].transcript()).seed_sent == 2  # after start and commitments
    sp = play_game(RULES, rng_seed=1, key=KEY, spectators=False)
    assert decode_transcript(sp.transcript(0)).seed_sent is None
    assert verify_transcript(sp.transcript(0)).status == VERIFIED


@pytest.mark.parametrize("value", [0, 1, 3, True, "2"])
def test_a_note_that_cannot_be_true_is_malformed(value):
    import msgpack

    dealer, ws = table()
    grab_seeds(dealer, ws)
    obj = msgpack.unpackb(ws[0].transcript())
    obj["seed_sent"] = value  # 2 statements: the seed goes out after the second, never before
    v = verify_transcript(msgpack.packb(obj, use_bin_type=True))
    assert v.status == "malformed" and "seed_sent" in v.reason


def test_jupai_verify_calls_it_suspicious(tmp_path):
    dealer, ws = table()
    grab_seeds(dealer, ws)
    ws[1].host_gone("connection lost")
    path = tmp_path / "g.jupai"
    path.write_bytes(ws[1].transcript())
    r = jupai("verify", str(path))
    assert r.returncode == 4, r.stdout + r.stderr
    assert "SUSPICIOUS" in r.stdout and "after this seat sent its seed" in r.stdout


# ------------------------------------------------------------------ the screen


def ending(verdict, lang):
    result = SimpleNamespace(status="aborted", verdict=verdict, ranking=[], seat=0, result={}, names={},
                             view=None, transcript_path=None, error=("abandoned", "seat 2 left"))
    return " ".join(text for text, _, _ in game_end_lines(result, lang))


def test_the_screen_says_it_in_plain_words():
    dealer, ws = table()
    grab_seeds(dealer, ws)
    deliver(dealer.abandon("seat 2 left"), ws)
    v = ws[0].verify()
    en, zh = ending(v, "en"), ending(v, "zh")
    assert "the host stopped the game after the deal was fixed: it may have seen the cards" in en
    assert "if this happens again, do not trust this host" in en
    assert "主机在发牌已经确定之后中止了对局" in zh and "不要再信任这个主机" in zh
    # an abandon before any seed left the seat says nothing of the kind
    dealer, ws = table()
    deliver(dealer.abandon("not enough players"), ws)
    assert "do not trust this host" not in ending(ws[0].verify(), "en")


# ------------------------------------------------------------------ a hostile table over TCP+TLS


class AbortingTable(Table):
    """Takes the victim's seed, then abandons the game blaming the bot seat."""

    def _on_reveal(self, cid, seat, msg, now):
        if seat == VICTIM:  # with this seed (and its own bot's) the host knows the deck
            self._abandon("Bot (seat 1) left the table", now)
            return
        super()._on_reveal(cid, seat, msg, now)


class DealHoldingTable(Table):
    """Takes the victim's seed (the bot's it makes itself), never sends `seeds`, and the
    whole host goes away."""

    stop: trio.CancelScope | None = None

    def _on_reveal(self, cid, seat, msg, now):
        if seat == VICTIM:
            type(self).stop.cancel()
            return
        super()._on_reveal(cid, seat, msg, now)


async def test_a_host_that_abandons_after_taking_the_seed_is_suspicious_on_screen(monkeypatch):
    """Old code: 'unverified: the host abandoned the game before the seeds were revealed
    (… no card was dealt)': the host's own claim, taken as the truth."""
    result = await victim_game(monkeypatch, AbortingTable)
    assert result.status == "aborted", result
    assert result.verdict.status == SUSPICIOUS, result.verdict
    assert "left the table" in result.verdict.reason
    assert verify_transcript(result.transcript_path.read_bytes()).status == SUSPICIOUS
    assert "do not trust this host" in ending(result.verdict, "en")


async def test_a_host_that_vanishes_holding_the_deal_is_suspicious(monkeypatch, tmp_path):
    """Old code: 'unverified (the host stopped: …): the host never revealed its seed'."""
    monkeypatch.setattr(server_mod, "Table", DealHoldingTable)
    DealHoldingTable.stop = host_scope = trio.CancelScope()

    async def host(task_status=trio.TASK_STATUS_IGNORED):
        with host_scope:  # the whole host goes when the victim's seed is in
            async with trio.open_nursery() as host_nursery:
                server = await start_host(host_nursery, host_config(2, bots=1, rounds=3))
                task_status.started(server.port)
                await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        port = await nursery.start(host)
        with trio.fail_after(30):
            result = await run_session("127.0.0.1", port, name="Victim", player=BotPlayer("random", seed=1),
                                       check_fingerprint=pin, seat=VICTIM, save_resume=False,
                                       transcript_path=tmp_path / "t.jupai", reconnect_for=1)
        nursery.cancel_scope.cancel()
    assert result.status == "host-gone", result
    assert result.verdict.status == SUSPICIOUS, result.verdict
    assert decode_transcript((tmp_path / "t.jupai").read_bytes()).seed_sent == 2
