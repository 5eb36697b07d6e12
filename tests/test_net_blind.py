"""Dealer-blind deals over real TCP+TLS on 127.0.0.1 (specs/protocol.md §13,
specs/fairness.md B.15): real clients and host bots, every seat opens exactly its own
hand, the host never can, a hostile relay is caught with the culprit named, and the
transcripts verify."""

from __future__ import annotations

import pytest
import trio

from jupai_net.client.bot import BotPlayer
from jupai_net.client.session import run_session
from jupai_net.fairness import TAMPERED, UNVERIFIED, VERIFIED, verify_transcript
from jupai_net.fairness.blind_schedule import deal_openings
from jupai_net.protocol import Hello
from jupai_net.rules import RuleSet
from jupai_net.setup import hand_positions

from .test_net_support import RawClient, host_config, pin, start_host


def own_positions(rules: RuleSet, seat: int) -> set[int]:
    """The deck positions the deal opens to ``seat`` alone (its equipment and hand)."""
    return {q for q, to in deal_openings(rules) if to == seat}


async def blind_table(players: int, bots: int, tmp_path, *, clients: int | None = None, hook=None,
                      seated: dict | None = None, **kw):
    """Host a dealer-blind table, seat ``players - bots`` bot clients (``seated``, if
    given, gets each client's :class:`BotPlayer` by its number, ``bot{i}``); returns
    (server, results)."""
    config = host_config(players, bots=bots, dealer="blind", **kw)
    results = {}
    seated = {} if seated is None else seated
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, config)
        if hook is not None:
            hook(server)

        async def client(i: int) -> None:
            seated[i] = BotPlayer("random", seed=i)
            results[i] = await run_session(
                "127.0.0.1", server.port, name=f"bot{i}", player=seated[i],
                check_fingerprint=pin, transcript_path=tmp_path / f"client{i}.jupai", save_resume=False,
            )

        with trio.fail_after(120):
            async with trio.open_nursery() as seats:
                for i in range(players - bots if clients is None else clients):
                    seats.start_soon(client, i)
        with trio.fail_after(60):  # the host ends its one game by itself (a stuck table fails here, never hangs)
            await server.done.wait()
        nursery.cancel_scope.cancel()
    return server, results


async def test_a_blind_game_over_tls_every_seat_opens_exactly_its_own_hand_and_verifies(tmp_path):
    server, results = await blind_table(4, 1, tmp_path, rounds=3)
    table = server.tables[0]
    rules = table.rules
    deck = table.blind.ledger.audit()  # every seed was relayed: the host can audit now
    host_known = {(s, q) for (s, q) in table.blind.actor.cards}
    assert {s for s, _ in host_known} == {3}  # the host opened its bot's cards, and no one else's
    assert {q for _, q in host_known} >= own_positions(rules, 3)  # its deal, and what it drew
    others = {s: own_positions(rules, s) for s in range(4)}
    for i, r in results.items():
        seat = r.seat
        assert r.view.dealer == "blind"
        assert set(r.view.blind_cards) >= own_positions(rules, seat), seat  # its deal, then its draws
        assert not set(r.view.blind_cards) & set().union(*(others[s] for s in range(4) if s != seat))
        assert all(deck[q] == c for q, c in r.view.blind_cards.items())
        assert any(n.code == "dealer-blind" for n in r.view.notices)
        # the whole game is played on deck positions; the verdict names the scheme
        assert r.status == "finished" and r.ranking, r
        assert r.verdict.status == VERIFIED, r.verdict
        assert r.verdict.reason.startswith("dealer-blind: fair game")
        assert r.verdict.details["scheme"] == "dealer-blind"
        offline = verify_transcript(r.transcript_path.read_bytes())
        assert offline.status == VERIFIED and offline.reason.startswith("dealer-blind"), offline
        # the verdict in the player's language: the catalog's English is the verifier's reason
        from jupai_net.messages.verdicts import verdict_sentence

        assert verdict_sentence(r.verdict.code, r.verdict.args, "en") == r.verdict.reason
        assert verdict_sentence(r.verdict.code, r.verdict.args, "zh").startswith("庄家盲发")
    assert server.stats["protocol_errors"] == 0 and server.stats["internal_errors"] == 0
    # through the command a user types: the verdict names the scheme
    import subprocess
    import sys

    from jupai_net.fairness.status import EXIT_CODES

    done = subprocess.run([sys.executable, "-m", "jupai_net", "verify", str(results[0].transcript_path)],
                          capture_output=True, text=True, timeout=60, env={**__import__("os").environ, "COLUMNS": "200"})
    assert done.returncode == EXIT_CODES[VERIFIED], done.stderr
    assert "dealer-blind" in done.stdout and "fair game" in " ".join(done.stdout.split())


async def test_an_old_client_is_refused_at_a_blind_table_with_a_clear_message():
    config = host_config(2, bots=1, dealer="blind")
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, config)
        c = await RawClient.connect(server.port)
        await c.send(Hello("Old", version=3, min_version=1))
        err = await c.recv()
        assert err.type == "error" and err.code == "blind-unsupported" and "protocol version 4" in err.message
        nursery.cancel_scope.cancel()


# --------------------------------------------------------------------------- a hostile relay


def hostile_deal(forge_hellos=None, forge=None):
    """A ``BlindDeal`` whose host signs, for the seats, other participant messages than
    the ones its own ledger took (an equivocating relay, specs/fairness.md B.11)."""
    from jupai_net.host.blind import BlindDeal

    class Hostile(BlindDeal):
        def __init__(self, dealer, bots):
            super().__init__(dealer, bots)
            honest_hellos, honest_relay = dealer.hellos, dealer.relay
            dealer.hellos = lambda hellos: honest_hellos(forge_hellos(self, list(hellos)) if forge_hellos else hellos)
            dealer.relay = lambda raw: honest_relay((forge(self, raw) if forge else None) or raw)

    return Hostile


def _kind(raw: bytes) -> tuple[str, int]:
    from jupai_net.fairness.blind_ledger import decode_message

    body = decode_message(raw)[0]
    return body["kind"], body["from"]


def _replace_seat0_hello(deal, hellos):
    from jupai_net.fairness.blind_ledger import BlindParticipant

    hellos[1] = BlindParticipant(deal.dealer.game_id, 0).hello()  # pass order: host, seat 0, …
    return hellos


def _shuffle_of_another_game(deal, raw):
    import os

    from jupai_net.fairness.blind_ledger import BlindParticipant

    if _kind(raw) != ("shuffle", 0xFF):
        return None
    me = deal.actor.people[0xFF]
    other = BlindParticipant(os.urandom(16), 0xFF, signing_key=me._key)  # its real key, another game
    return other.shuffle(0, deal.ledger.decks[0])


def _key_to_the_wrong_seat(deal, raw):
    from jupai_net.fairness.blind_ledger import BlindParticipant

    if _kind(raw) != ("keys", 0xFF) or getattr(deal, "forged", False):
        return None  # forge the host's first keys message only (the deal's), not the keys of play
    deal.forged = True
    me = BlindParticipant.resume(deal.actor.people[0xFF].save())
    me.resync(deal.ledger.next_number(0xFF) - 1)  # the number of the honest message
    seat1 = sorted(own_positions(deal.rules, 1))[0]
    due = sorted(((q, to) for q, to in deal.ledger.requests if to != 0xFF), key=lambda r: (r[0], -1 if r[1] is None else r[1]))
    return me.keys(due + [(seat1, 2)])  # seat 1's card opened to seat 2 too


@pytest.mark.parametrize("forge, seats_that_see_it, why", [
    (dict(forge_hellos=_replace_seat0_hello), {0}, "relayed to it is not the one it sent"),
    (dict(forge=_shuffle_of_another_game), {0, 1, 2}, "belongs to another game"),
    (dict(forge=_key_to_the_wrong_seat), {0, 1, 2}, "a key revealed to the wrong seat"),
])
async def test_a_hostile_relay_is_caught_by_the_clients_with_the_culprit_named(forge, seats_that_see_it, why, tmp_path,
                                                                              monkeypatch):
    monkeypatch.setattr("jupai_net.host.table.BlindDeal", hostile_deal(**forge))
    # (the seats that caught the host leave; a short turn lets the host end the game soon)
    server, results = await blind_table(4, 1, tmp_path, seed_timeout=1.5, turn_grace=1.0, turn_timeout=1.0)
    caught = {r.seat: r for r in results.values() if r.verdict is not None and r.verdict.status == TAMPERED}
    assert set(caught) == seats_that_see_it, {r.seat: r.verdict for r in results.values()}
    for r in caught.values():
        assert r.status == "error"
        assert why in r.verdict.reason and "culprit: the host" in r.verdict.reason
        assert r.verdict.details["culprit"] == "the host"
        # on screen: who broke the protocol, in the fairness notice
        assert any(n.code == "fairness" and "the host broke the fairness protocol" in n.text for n in r.view.notices)
        assert r.view.blind_cards == {}  # stopped before any card was opened to it
        assert verify_transcript(r.transcript_path.read_bytes()).status == TAMPERED


# --------------------------------------------------------------------------- reconnects


class CutDuringDeal(BotPlayer):
    """A bot client that cuts its connection (through ``proxy``) when its ``at``-th
    dealer-blind statement arrives, in the middle of the deal."""

    def __init__(self, proxy, at: int, **kw):
        super().__init__("random", **kw)
        self.proxy, self.at, self.seen, self.cut_done = proxy, at, 0, False
        self.cut_in = None  # the phase and cards opened to this seat when it was cut

    def on_update(self, view) -> None:
        super().on_update(view)
        if view.change == "statement" and not self.cut_done:
            self.seen += 1
            if self.seen >= self.at:
                self.cut_done = True
                self.cut_in = (view.phase, len(view.blind_cards), view.state_id)
                self.proxy.cut()


async def blind_host_behind_a_proxy(nursery, players: int):
    """A dealer-blind host (one bot seat) and a proxy to it whose connections a test can cut."""
    from .test_net_support import Proxy

    server = await start_host(nursery, host_config(players, bots=1, dealer="blind", seed_timeout=10.0))
    proxy = Proxy(server.port)
    await nursery.start(proxy.serve)
    return server, proxy


@pytest.mark.parametrize("at", [3, 9, 40])  # during the deal, and in play (statement 40)
async def test_a_seat_that_loses_its_connection_mid_deal_comes_back_and_opens_its_hand(at, tmp_path, monkeypatch):
    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    results = {}
    async with trio.open_nursery() as nursery:
        server, proxy = await blind_host_behind_a_proxy(nursery, 3)
        cutter = CutDuringDeal(proxy, at, seed=1)

        async def via_proxy():
            results["cut"] = await run_session("127.0.0.1", proxy.port, name="Ann", player=cutter,
                                               check_fingerprint=pin, seat=0)

        async def direct():
            results["ok"] = await run_session("127.0.0.1", server.port, name="Bob", player=BotPlayer("random", seed=2),
                                              check_fingerprint=pin, seat=1, save_resume=False)

        with trio.fail_after(30):
            async with trio.open_nursery() as clients:
                clients.start_soon(via_proxy)
                clients.start_soon(direct)
        nursery.cancel_scope.cancel()
    table = server.tables[0]
    deck = table.blind.ledger.audit()
    assert cutter.cut_done and proxy.connections == 2  # the drop, then the reconnect
    phase, opened, state = cutter.cut_in
    if at == 40:  # in the middle of play: its hand open, moves made, the game went on after it came back
        assert phase == "playing" and opened > 0 and state is not None and state > 0, cutter.cut_in
    else:
        assert phase == "seeding" and opened == 0, cutter.cut_in
    for r in results.values():  # the game goes on to its end, and verifies
        assert set(r.view.blind_cards) >= own_positions(table.rules, r.seat)
        assert all(deck[q] == c for q, c in r.view.blind_cards.items())
        assert r.status == "finished" and r.verdict.status == VERIFIED, r.verdict


@pytest.mark.parametrize("at", [4, 40])  # during the deal, and in play
async def test_a_new_process_takes_a_blind_seat_back_with_its_saved_participant(at, tmp_path, monkeypatch):
    """The first client dies (mid-deal, or in play) for good; a second one, given only
    the token, resumes the seat's participant (seed and signing key) from the resume
    file and plays the game to its end: its cards open to it, its hello still is its
    own, and the game verifies."""
    from jupai_net.client.resume import ResumeState

    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    async with trio.open_nursery() as nursery:
        server, proxy = await blind_host_behind_a_proxy(nursery, 2)
        with trio.fail_after(20):
            gone = await run_session("127.0.0.1", proxy.port, name="Ann", player=CutDuringDeal(proxy, at, seed=1),
                                     check_fingerprint=pin, reconnect_for=0)
        assert gone.status == "host-gone" and gone.token and (gone.view.blind_cards == {}) == (at == 4)
        saved = ResumeState.from_bytes(next((tmp_path / "sessions").glob("*.resume")).read_bytes())
        assert saved.game_id == gone.game_id and saved.blind is not None
        with trio.fail_after(20):
            back = await run_session("127.0.0.1", server.port, name="Ann again", player=BotPlayer("random", seed=3),
                                     check_fingerprint=pin, token=gone.token)
        nursery.cancel_scope.cancel()
    table = server.tables[0]
    assert back.seat == gone.seat and set(back.view.blind_cards) >= own_positions(table.rules, back.seat)
    assert back.status == "finished" and back.verdict.status == VERIFIED, back.verdict


# --------------------------------------------------------------------------- a hostile or silent seat


def seat_actor(misbehave):
    """A ``BlindActor`` for the clients' sessions whose ``react`` goes through
    ``misbehave(actor, ledger, messages)`` (the host keeps the honest one)."""
    from jupai_net.fairness.blind_actor import BlindActor

    class Seat(BlindActor):
        def react(self, ledger):
            return misbehave(self, ledger, super().react(ledger))

    return Seat


def _seat1_withholds_its_keys(actor, ledger, out):
    kept = [m for m in out if _kind(m) != ("keys", 1)]
    if 1 in actor.people and len(kept) < len(out):
        actor.people[1].resync(actor.people[1]._n - (len(out) - len(kept)))  # never signed, never numbered
    return kept


def _seat0_copies_a_card(actor, ledger, out):
    from jupai_net.fairness.blind_ledger import SHUFFLE

    if [_kind(m) for m in out] != [("shuffle", 0)]:
        return out
    me = actor.people[0]
    me.resync(me._n - 1)
    deck = me.secrets.shuffle(ledger.deck)
    return [me._send(SHUFFLE, deck=[deck[0]] + deck[:-1], proof=None)]  # a card twice, one dropped


@pytest.mark.parametrize("misbehave, culprit, why", [
    (_seat1_withholds_its_keys, 1, "dealer-blind deal: nothing in time from"),
    (_seat0_copies_a_card, 0, "sent a wrong dealer-blind message"),
])
async def test_a_seat_that_withholds_a_key_or_cheats_in_its_pass_is_named_by_the_host(misbehave, culprit, why, tmp_path,
                                                                                   monkeypatch):
    monkeypatch.setattr("jupai_net.fairness.blind_actor.BlindActor", seat_actor(misbehave))
    server, results = await blind_table(3, 1, tmp_path, seed_timeout=1.5)
    for r in results.values():
        assert r.view.result is not None and why in r.view.result["reason"], r.view.result
        assert f"(seat {culprit})" in r.view.result["reason"]
        assert r.verdict.status == UNVERIFIED and "dealer-blind" in r.verdict.reason, r.verdict
        assert not set(r.view.blind_cards) - own_positions(server.tables[0].rules, r.seat)  # never another's card


def _seat1_pass_lost_on_the_way(actor, ledger, out):
    # signed and numbered, then lost on the way (in flight when the game ends): the seed
    # seat 1 sends after the abandon skips that message's number
    return [m for m in out if _kind(m) != ("shuffle", 1)]


async def test_a_seed_after_a_pass_lost_on_the_way_is_taken_and_the_audit_ends_at_once(tmp_path, monkeypatch, caplog):
    """A seat's pass never reaches the host (lost, or still on its way when the game is
    abandoned): the host abandons the deal after the seed time-out, naming it, and its
    seed, numbered after that pass, is still taken — the host's ledger stops at the
    abandon as every verifier's does (B.9) — so the audit ends as soon as it is in. The
    host refused that seed before ("a seed message of seat 1 is number 2, expected 1")
    and waited another seed time-out for it."""
    import logging

    monkeypatch.setattr("jupai_net.fairness.blind_actor.BlindActor", seat_actor(_seat1_pass_lost_on_the_way))
    caplog.set_level(logging.WARNING, logger="jupai.host")
    server, results = await blind_table(3, 1, tmp_path, seed_timeout=1.5)
    for r in results.values():
        assert "nothing in time from" in r.view.result["reason"] and "(seat 1)" in r.view.result["reason"]
        assert r.verdict.status == UNVERIFIED and "during the deal" in r.verdict.reason, r.verdict
    said = caplog.text
    assert "abandoned" in said and "wrong dealer-blind message" not in said and "no dealer-blind seed" not in said, said


def test_the_culprit_seat_and_the_scheme_are_said_in_both_languages():
    from jupai_net.client.session import NoticeLine
    from jupai_net.client.status_words import notice_text

    line = NoticeLine("blind-seat", "a wrong key", 0.0, False, {"seat": "2"})
    assert notice_text(line, "en") == "seat 2 broke the dealer-blind protocol: a wrong key"
    assert notice_text(line, "zh") == "2号位违反了庄家盲发协议：a wrong key"
    scheme = NoticeLine("dealer-blind", "dealer-blind: the host cannot see your cards", 0.0, False, None)
    assert notice_text(scheme, "zh") == "庄家盲发：主机看不到你的牌"


async def test_a_spectator_of_a_blind_deal_sees_no_hand_and_audits_the_deal(tmp_path):
    """A spectator gets the public stream (every blind message) and audits the deal."""
    from jupai_net.client.session import PlayerBase

    config = host_config(2, bots=1, dealer="blind", seed_timeout=10.0)
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, config)

        async def watch():
            results["watch"] = await run_session("127.0.0.1", server.port, name="Eve", player=PlayerBase(),
                                                 check_fingerprint=pin, watch=True, save_resume=False,
                                                 transcript_path=tmp_path / "watch.jupai")

        nursery.start_soon(watch)
        while not server.tables[0].spectators:
            await trio.sleep(0.01)
        with trio.fail_after(30):
            results["seat"] = await run_session("127.0.0.1", server.port, name="Ann", player=BotPlayer("random", seed=1),
                                                check_fingerprint=pin, save_resume=False)
        with trio.fail_after(10):
            while "watch" not in results:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    w = results["watch"]
    assert w.view.dealer == "blind" and w.view.blind_cards == {}
    assert [n.code for n in w.view.notices if n.code.startswith("dealer-")] == ["dealer-blind-watch"]
    assert w.verdict.status == VERIFIED and w.verdict.reason.startswith("dealer-blind"), w.verdict
    assert w.view.observation is not None and w.view.observation["hand"] == []


# --------------------------------------------------------------------------- play: hostile claims, time-outs


async def test_a_claim_of_a_position_the_seat_does_not_hold_is_rejected_naming_the_seat(tmp_path, monkeypatch):
    """Seat 0's client claims, once, a deck position dealt to seat 1 (as a hostile
    client would): the host refuses it on public information, naming seat 0 and the
    position, relays nothing and opens nothing; the seat plays again and the game
    finishes and verifies for both."""
    from jupai_net.blind_game import BlindGame

    honest = BlindGame.position_action
    lied: list[tuple[int, int]] = []

    def lying(self, action):
        out = honest(self, action)
        if not lied and self.viewer == 0 and out.cards:
            foreign = min(q for q, to in deal_openings(self.rules) if to == 1 and q >= 2 * self.rules.players)
            lied.append((self.state.version, foreign))
            return out._replace(cards=(foreign, *out.cards[1:]))
        return out

    monkeypatch.setattr(BlindGame, "position_action", lying)
    # (a long turn: a time-out's default move, also made through position_action, must not take the lie)
    server, results = await blind_table(2, 0, tmp_path, turn_timeout=120.0)
    assert lied, "seat 0 never played a card"
    foreign = lied[0][1]
    r0 = next(r for r in results.values() if r.seat == 0)
    refused = [n for n in r0.view.notices if n.code == "illegal-action"]
    assert refused and f"seat 0 claims deck position {foreign}, which it does not hold" in refused[0].text
    for r in results.values():
        assert r.status == "finished" and r.verdict.status == VERIFIED, r.verdict
    # nothing was relayed for the false claim: no claim statement names that position for seat 0
    from jupai_net.fairness.transcript import decode_transcript
    from jupai_net.fairness.statements import decode_body, split_statement

    t = decode_transcript(r0.transcript_path.read_bytes())
    bodies = [decode_body(split_statement(raw)[0]) for raw in t.statements]
    claims = [b for b in bodies if b["kind"] == "claim" and b["actor"] == 0]
    # (seat 0 may hold that card later, once it collected it: only the claim of that state counts)
    assert claims and not any(foreign in b["action"].get("cards", ()) for b in claims if b["version"] == lied[0][0])


class Asleep(BotPlayer):
    """A player who never answers (their client must play the default itself)."""

    async def choose(self, view):
        await trio.sleep_forever()


async def test_a_turn_time_out_at_a_blind_table_is_played_by_the_seats_own_client(tmp_path):
    config = host_config(2, bots=1, dealer="blind", turn_timeout=0.2, rounds=3)
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, config)
        with trio.fail_after(60):
            r = await run_session("127.0.0.1", server.port, name="Zzz", player=Asleep("random", seed=1),
                                  check_fingerprint=pin, transcript_path=tmp_path / "z.jupai", save_resume=False)
        nursery.cancel_scope.cancel()
    timeouts = [n for n in r.view.notices if n.code == "blind-timeout"]
    assert timeouts, r.view.notices
    assert r.status == "finished" and r.verdict.status == VERIFIED, r.verdict
    from jupai_net.client.status_words import notice_text

    assert "your client played the default move" in notice_text(timeouts[0], "en")
    assert "客户端替你走了默认的一步" in notice_text(timeouts[0], "zh")


class LeavesAtItsTurn(BotPlayer):
    """A player whose connection is cut (through ``proxy``) when it is asked to move."""

    def __init__(self, proxy, **kw):
        super().__init__("random", **kw)
        self.proxy = proxy

    async def choose(self, view):
        self.proxy.cut()
        await trio.sleep_forever()


async def test_a_seat_that_never_moves_ends_the_blind_game_as_a_seat_left_not_suspicious(tmp_path, monkeypatch):
    from jupai_net.fairness import SUSPICIOUS

    from .test_net_support import Proxy

    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    # the seed time-out bounds the audit's wait for the seat that left (it never sends its
    # seed): short, so the game's end comes soon; long enough for a loaded machine's deal
    config = host_config(3, bots=1, dealer="blind", turn_timeout=0.3, turn_grace=0.4, seed_timeout=3.0)
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, config)
        proxy = Proxy(server.port)
        await nursery.start(proxy.serve)

        async def leaver():
            results["gone"] = await run_session("127.0.0.1", proxy.port, name="Gone", player=LeavesAtItsTurn(proxy, seed=1),
                                                check_fingerprint=pin, seat=0, reconnect_for=0)

        async def stayer():
            results["ok"] = await run_session("127.0.0.1", server.port, name="Stays", player=BotPlayer("random", seed=2),
                                              check_fingerprint=pin, seat=1, save_resume=False,
                                              transcript_path=tmp_path / "ok.jupai")

        with trio.fail_after(60):
            async with trio.open_nursery() as clients:
                clients.start_soon(leaver)
                clients.start_soon(stayer)
        nursery.cancel_scope.cancel()
    ok = results["ok"]
    assert ok.status == "aborted" and "a seat left: Gone (seat 0)" in ok.result["reason"], ok.result
    assert ok.verdict.status == UNVERIFIED and ok.verdict.status != SUSPICIOUS, ok.verdict
    assert "dealer-blind" in ok.verdict.reason and "seat 0" in ok.verdict.reason, ok.verdict
    assert verify_transcript(ok.transcript_path.read_bytes()).status == UNVERIFIED


@pytest.mark.parametrize("bots", [2, 0])
async def test_the_hosts_engine_never_holds_a_persons_card_before_it_is_public(bots, tmp_path):
    """A 4-seat blind game over TCP+TLS (2 clients and 2 host bots, or 4 clients): after
    the deal and after every step the host's table holds exactly the public cards and
    its bots' cards (specs/fairness.md B.16.2), its participants opened only its bots'
    cards, and every transcript verifies with the scheme named."""
    seen: list[int] = []
    wrong: list = []  # (the table swallows an observer's exceptions: collect, assert after)
    box: dict = {}

    def observer(tid, kind, data):
        if kind not in ("deal", "step"):
            return
        table = box["server"].tables[tid]
        play = table.blind.play
        state = play.game.state
        bot_seats = {st.seat for st in table.seats if st is not None and st.bot}
        allowed = set(state.public).union(*(state.seen[b] for b in bot_seats))
        if play.game.table.known() != allowed or not {s for s, _ in table.blind.actor.cards} <= bot_seats:
            wrong.append((kind, state.version, sorted(play.game.table.known() ^ allowed)))
        seen.append(state.version)

    config = host_config(4, bots=bots, dealer="blind", rounds=3)
    results = {}
    async with trio.open_nursery() as nursery:
        box["server"] = server = await start_host(nursery, config, observer=observer)

        async def client(i: int) -> None:
            results[i] = await run_session("127.0.0.1", server.port, name=f"bot{i}", player=BotPlayer("random", seed=i),
                                           check_fingerprint=pin, transcript_path=tmp_path / f"c{i}.jupai",
                                           save_resume=False)

        with trio.fail_after(90):
            async with trio.open_nursery() as seats:
                for i in range(4 - bots):
                    seats.start_soon(client, i)
        nursery.cancel_scope.cancel()
    assert seen and seen[0] == 0 and len(seen) > 4 and not wrong, wrong
    assert len(results) == 4 - bots
    for r in results.values():
        assert r.status == "finished" and r.verdict.status == VERIFIED and r.verdict.details["scheme"] == "dealer-blind"
        assert verify_transcript(r.transcript_path.read_bytes()).status == VERIFIED
    assert server.stats["protocol_errors"] == 0 and server.stats["internal_errors"] == 0


async def test_a_host_that_relays_a_claim_its_bot_cannot_make_is_caught_naming_the_host(tmp_path, monkeypatch):
    """A hostile host signs, for the seats, its bot's first claim with a person's
    deck position instead (to have that card opened to everyone): every seat refuses
    the claim at once, names the host, opens nothing for it, and so does jupai verify."""
    from jupai_net.host.blind import BlindDeal

    forged: list[int] = []

    class Hostile(BlindDeal):
        def __init__(self, dealer, bots):
            super().__init__(dealer, bots)
            honest = dealer.claim

            def claim(version, actor, action):
                if actor in self.bots and action.cards and not forged:
                    victim = min(q for q, to in deal_openings(self.rules) if to == 0 and q >= 2 * self.rules.players)
                    forged.append(victim)
                    action = action._replace(cards=(victim, *action.cards[1:]))
                return honest(version, actor, action)

            dealer.claim = claim

    monkeypatch.setattr("jupai_net.host.table.BlindDeal", Hostile)
    server, results = await blind_table(3, 1, tmp_path, seed_timeout=1.5)
    assert forged
    for r in results.values():
        assert r.status == "error" and r.verdict.status == TAMPERED, r.verdict
        assert "the host relayed a claim it must refuse" in r.verdict.reason
        assert "which it does not hold" in r.verdict.reason and r.verdict.details["culprit"] == "the host"
        offline = verify_transcript(r.transcript_path.read_bytes())
        assert offline.status == TAMPERED and "the host relayed a claim" in offline.reason
        seat0 = next(x for x in results.values() if x.seat == 0)
        assert forged[0] in seat0.view.blind_cards  # its own card, opened to it alone, never to the others
    others = [r for r in results.values() if r.seat != 0]
    assert all(forged[0] not in r.view.blind_cards for r in others)


# --------------------------------------------------------------------------- every byte a seat receives


def _blind_card_refs(frame: dict) -> tuple[int | None, set[int], str]:
    """(state, the deck positions named, label) of one frame received at a dealer-blind
    table: ``sync`` observations, ``prompt`` legal moves, ``claim``/``step`` statements
    name positions (specs/fairness.md B.16.5) under the card keys; ``blind`` statements
    carry opaque participant messages (points and keys, no card field)."""
    import msgpack

    from .test_net_support import card_ids

    kind = frame["type"]
    if kind == "statement":
        body = msgpack.unpackb(frame["body"], raw=False)
        return body.get("version"), set(card_ids(body)), f"statement/{body['kind']}"
    if kind == "sync":
        return frame["state_id"], set(card_ids(frame["observation"])), "sync"
    if kind == "prompt":
        return frame["state_id"], {c for a in frame["legal"] for c in list(a["cards"]) + list(a["recovered"])}, "prompt"
    return None, set(card_ids({k: v for k, v in frame.items() if k != "type"})), kind


async def test_no_frame_to_a_blind_seat_names_a_card_of_another_seat_before_it_is_public(tmp_path):
    """Every byte each client receives at a 4-seat dealer-blind table (2 clients, 2 host
    bots, over TCP+TLS), decoded: every deck position a frame names (observations,
    prompts) holds, in the audited deck, a card that seat may know at the state the
    frame describes (``GameState.known_cards`` of the trusted replay; a claim's
    positions: at the step it makes them public), and a
    spectator's public view (card ids) names only public cards. Not vacuous: each seat's
    own hand travels, and would be a leak for the seat beside it."""
    from jupai_net.blind_game import trusted_record

    from .test_net_support import Tap, known_by_version, leaks

    config = host_config(4, bots=2, dealer="blind", rounds=3)
    results, taps, watched = {}, {}, {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, config)
        taps["watch"] = Tap()

        async def watch():
            from jupai_net.client.session import PlayerBase

            watched["r"] = await run_session("127.0.0.1", server.port, name="Eve", player=PlayerBase(), watch=True,
                                             check_fingerprint=pin, save_resume=False, wire_tap=taps["watch"])

        nursery.start_soon(watch)
        while not server.tables[0].spectators:
            await trio.sleep(0.01)

        await tapped_clients(server.port, 2, taps, results)
        with trio.fail_after(20):
            while "r" not in watched:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    table = server.tables[0]
    deck = table.blind.ledger.audit()
    record = trusted_record(table.blind.play.game.state.record(), deck)
    for i, r in results.items():
        assert r.status == "finished" and r.verdict.status == VERIFIED, r.verdict
        known = known_by_version(record, r.seat)
        frames = taps[i].frames()
        assert {"welcome", "lobby", "start", "statement", "sync", "prompt", "end"} <= {f["type"] for f in frames}
        named = _named_cards(frames, deck, len(known))
        for label, v, cards in named:
            assert cards <= known[v], (label, v, sorted(cards - known[v]))
        own = set(known[0]) - set(known_by_version(record, (r.seat + 1) % 4)[0])
        assert own and any(own & cards for _, _, cards in named), "the seat's own hand never travelled"
        other = known_by_version(record, (r.seat + 1) % 4)
        assert any(not cards <= other[v] for _, v, cards in named), "the check cannot fail"
    # a spectator's view is filled in with card ids by the host (public cards only); its
    # statements name positions like a seat's
    spectator = taps["watch"].frames()
    public = known_by_version(record, None)
    syncs = [f for f in spectator if f["type"] == "sync"]
    assert syncs and leaks(syncs, public) == []
    named = _named_cards([f for f in spectator if f["type"] != "sync"], deck, len(public))
    assert all(cards <= public[v] for _, v, cards in named), [n for n in named if not n[2] <= public[n[1]]]


async def tapped_clients(port: int, count: int, taps: dict, results: dict, *, name: str = "bot") -> None:
    """``count`` random-bot clients (``name`` 0, 1, …) play at the host on ``port`` until
    the game ends (60 s at most): ``taps[i]`` records what client ``i`` received,
    ``results[i]`` is its session's result."""
    from .test_net_support import Tap

    async def client(i: int) -> None:
        taps[i] = Tap()
        results[i] = await run_session("127.0.0.1", port, name=f"{name}{i}", player=BotPlayer("random", seed=i),
                                       check_fingerprint=pin, save_resume=False, wire_tap=taps[i])

    with trio.fail_after(60):
        async with trio.open_nursery() as seats:
            for i in range(count):
                seats.start_soon(client, i)


def _named_cards(frames: list[dict], deck: list[int], states: int) -> list[tuple[str, int, set[int]]]:
    """``(label, state, cards)`` of every frame: the cards, in the audited ``deck``, of
    the positions it names, and the state at which the viewer may know them (a claim's
    cards are opened to everyone by the step it makes, B.16.3)."""
    out = []
    for f in frames:
        version, positions, label = _blind_card_refs(f)
        v = states - 1 if version is None or version >= states else version
        if label == "statement/claim":
            v = min(v + 1, states - 1)
        out.append((label, v, {deck[q] for q in positions}))
    return out


async def test_jupai_replay_tells_a_blind_game_action_by_action_with_the_audited_deck(tmp_path):
    """`jupai replay` of a dealer-blind transcript (the default scheme): every claim as an
    action on the audited deck, the seat's view after each, and the whole deck at the end
    (it showed "0 actions follow" and no deck before)."""
    import subprocess
    import sys

    from jupai_net.fairness.story import read_game

    server, results = await blind_table(2, 1, tmp_path, rounds=2)
    path = tmp_path / "client0.jupai"
    story = read_game(path.read_bytes())
    assert story.verdict.status == "verified", story.verdict
    assert story.steps and story.deck is not None and sorted(story.deck) == list(range(53))
    assert list(story.deck) == list(server.tables[0].blind.ledger.audit())
    assert all(step.observation is not None for step in story.steps)
    out = subprocess.run([sys.executable, "-m", "jupai_net", "replay", str(path), "--all"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"({len(story.steps)} actions follow)" in out.stdout or f"{len(story.steps)} " in out.stdout
    assert "cannot be shown" not in out.stdout
    assert "dealer-blind" in " ".join(out.stdout.split("\n  1. ")[0].split()), out.stdout[:400]  # on the first screen
    assert story.dealer == "blind"


async def test_a_key_that_crosses_the_hosts_abandon_does_not_stop_the_audit(tmp_path):
    """The host stops (SIGTERM, Ctrl-C) while a seat's key message is on its way: the
    host drops that key (nothing more is opened after the abandon), and the seat's seed
    then carries the next number. The host's ledger must let the seed skip the dropped
    number as every verifier's does (B.9), or the audit never completes and the host
    saves no transcript (seen under load: "a seed message of seat 0 is number 5,
    expected 4")."""
    crossed = []

    def hook(server):
        table = server.tables[0]
        on_blind = table._on_blind

        def abandon_first(cid, seat, msg, now):
            if not crossed and table.phase == "playing" and seat == 0 and not table.blind.is_seed(msg.msg):
                crossed.append(msg)
                table.stop_game(now, "the host was stopped")  # the abandon went out just before this key came in
            on_blind(cid, seat, msg, now)

        table._on_blind = abandon_first

    server, results = await blind_table(2, 1, tmp_path, rounds=3, hook=hook, seed_timeout=20)
    table = server.tables[0]
    assert crossed, "no key of seat 0 came during play"
    assert set(table.blind.ledger.seeds) == set(table.blind.participants)  # the audit completed
    copies = table.transcripts({})
    assert sorted(copies) == [0, 1]
    for raw in copies.values():
        assert verify_transcript(raw).status == UNVERIFIED  # abandoned by the host: unverified, not tampered
    assert results[0].verdict.status == UNVERIFIED


# --------------------------------------------------------------------------- a claim refused at stage 2


def _fixed_seed(pid: int) -> bytes:
    import hashlib

    return hashlib.sha256(b"jupai test seed" + bytes([pid])).digest()


#: A game id that, with every participant's seed :func:`_fixed_seed`, deals a 2-seat,
#: 3-round table whose first move is seat 0's in a discard round where one of its cards
#: may be discarded without the weapon but not with it (a rule that needs the card's
#: rank: specs/fairness.md B.16.4 stage 2). Found by :func:`_first_lie` over
#: ``sha256(b"jupai test game %d")[:16]``, k = 0, 1, …
STAGE2_GAME = 37


def _stage2_game_id(k: int = STAGE2_GAME) -> bytes:
    import hashlib

    return hashlib.sha256(b"jupai test game %d" % k).digest()[:16]


def _first_lie(rules, game_id: bytes):
    """The discard (card ids) seat 0 may make first without its weapon but not with it,
    in the game dealt blind under ``game_id`` and the fixed seeds; None if there is none."""
    from jupai_net import actions as A
    from jupai_net.engine import GameState
    from jupai_net.fairness.blind import table_participants
    from jupai_net.fairness.blind_ledger import run_deal
    from jupai_net.fairness.blind_play import blind_setup

    pids = table_participants(rules.players)
    people, ledger, _ = run_deal(game_id, pids, seeds=[_fixed_seed(p) for p in pids])
    for p in people:
        ledger.receive(p.seed())
    state = GameState.new(rules, list(ledger.audit()), blind_setup(rules, game_id, ledger.deck))
    if state.to_move != 0:
        return None
    legal = set(state.legal_actions())
    return next((a for a in sorted(legal) if a.kind == A.DISCARD and not a.weapon and len(a.cards) == 1
                 and a._replace(weapon=True) not in legal), None)


async def test_a_claim_refused_once_its_card_is_open_is_said_to_the_seat_which_plays_again(tmp_path, monkeypatch):
    """Seat 0's client claims a discard with its weapon that the rules allow only
    without it, which depends on the card's rank: the host cannot know before the card
    is open (B.16.4 stage 1 passes), so it relays the claim, every participant opens the
    card to everyone, and then the host refuses it naming the seat (stage 2). The seat
    is told, plays again, the card stays public, and the game finishes and verifies (the
    refused claim is in every transcript, and the verifier accepts it)."""
    from jupai_net.blind_game import BlindGame
    from jupai_net.fairness import blind as blind_mod
    from jupai_net.fairness import dealer as dealer_mod
    from jupai_net.fairness.statements import decode_body, split_statement
    from jupai_net.fairness.transcript import decode_transcript

    rules_kw = {"rounds": 3}
    game_id = _stage2_game_id()
    fair = _first_lie(RuleSet(players=2, **rules_kw), game_id)
    assert fair is not None, "the fixed game no longer opens with such a discard: choose STAGE2_GAME again"
    monkeypatch.setattr(dealer_mod, "make_game_id", lambda: game_id)
    secrets_init = blind_mod.ParticipantSecrets.__init__

    def fixed(self, gid, pid, seed=None, **kw):
        secrets_init(self, gid, pid, _fixed_seed(pid) if seed is None else seed, **kw)

    monkeypatch.setattr(blind_mod.ParticipantSecrets, "__init__", fixed)
    honest = BlindGame.position_action
    lied: list = []

    def lying(self, action):
        out = honest(self, action)
        if not lied and self.viewer == 0 and self.state.version == 0:
            lie = honest(self, fair)._replace(weapon=True)
            lied.append(lie)
            return lie
        return out

    monkeypatch.setattr(BlindGame, "position_action", lying)
    server, results = await blind_table(2, 1, tmp_path, turn_timeout=60.0, **rules_kw)
    assert lied, "seat 0 never moved"
    (r,) = results.values()
    q = lied[0].cards[0]
    refused = [n for n in r.view.notices if n.code == "illegal-action"]
    assert refused and refused[0].text == "seat 0: discard with these cards/weapon/target is not legal now", refused
    assert r.status == "finished" and r.verdict.status == VERIFIED, r.verdict
    bodies = [decode_body(split_statement(raw)[0]) for raw in decode_transcript(r.transcript_path.read_bytes()).statements]
    claims = [b for b in bodies if b["kind"] == "claim" and b["version"] == 0]
    assert len(claims) == 2 and claims[0]["action"]["weapon"] and list(claims[0]["action"]["cards"]) == [q]
    assert claims[1]["action"] != claims[0]["action"]  # it played again, legally
    game = server.tables[0].blind.play.game
    assert q in game.opened_public and game.table.card(q) == fair.cards[0]  # the card stays public
    assert verify_transcript(r.transcript_path.read_bytes()).status == VERIFIED
    assert server.stats["protocol_errors"] == 0 and server.stats["internal_errors"] == 0


async def test_a_seat_that_says_bye_during_the_audit_is_not_waited_for_and_is_no_internal_error(tmp_path, monkeypatch):
    """A person who leaves (``bye``: q, Ctrl-C, the end of input) while a dealer-blind
    game's audit waits for the seeds: the game is over (finished or abandoned), so it is
    not abandoned again — the host abandoned it a second time, the dealer refused ("not
    allowed in phase 'ended'") and the connection that played the last move got an
    internal error — and the audit does not wait the seed time-out for a seed that
    cannot come (specs/host.md § A dealer-blind game). The game is not verified by the
    seat that stayed (seat 0's seed is missing), so the host does not score it either:
    it scored the ranking before the audit, and the seat's client flagged its scoreboard
    as disagreeing with the signed rankings (specs/rules.md § 15)."""
    from jupai_net.host.table import AUDITING, Table
    from jupai_net.protocol import Bye

    original = Table._await_seeds
    servers, left, seated = [], [], {}

    def await_then_leave(self, reason, result, now):
        original(self, reason, result, now)
        if not left and self.phase == AUDITING and not self.blind.audited:
            server = servers[0]
            cid = next(c for c, s in self._conn_seat.items() if s == 0)
            left.append(cid)
            # seat 0's person leaves now, before its client has read the audit's
            # statements: its session ends ("left", it will not reconnect) and the host
            # takes its bye as it takes every bye (test: it was faked by closing the
            # connection at the host while the client went on, which then read the close
            # as a lost connection and tried to reconnect for 30 s)
            (player,) = [p for p in seated.values() if p.last_view is not None and p.last_view.seat == 0]
            player.control.leave()
            server._dispatch(server.links[cid], Bye("left"))
            assert self.phase == AUDITING  # waits for the seed of the seat that stayed, not for seat 0's

    monkeypatch.setattr(Table, "_await_seeds", await_then_leave)
    with trio.fail_after(60):
        server, results = await blind_table(3, 1, tmp_path, seed_timeout=30, hook=servers.append, seated=seated)
    assert left, "the audit never waited for a seat's seed"
    assert server.stats["internal_errors"] == 0
    (stayed,) = [r for r in results.values() if r.seat != 0]
    # its game ended as played; it cannot audit a deal whose seed 0 never revealed
    assert stayed.status == "finished" and stayed.ranking, stayed
    assert stayed.verdict.status == UNVERIFIED, stayed.verdict
    # ... so it scores nothing there, and nothing at the host: no scoreboard dispute
    assert [st.points for st in stayed.series.standings] == [0] * 3, stayed.series
    assert not any(n.code == "series-mismatch" for n in stayed.view.notices), stayed.view.notices
    (gone,) = [r for r in results.values() if r.seat == 0]
    assert gone.status != "error", gone  # it left: no "the host failed handling this connection"
    assert gone.status == "left", gone  # its own choice, said once: not a lost connection retried for 30 s
