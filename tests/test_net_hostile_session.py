"""A cheating host against the real client session, over 127.0.0.1 (issue 7 items 1
and 4): the host is the real :class:`~jupai_net.host.table.Table` with the attack
added, the victim is :func:`~jupai_net.client.session.run_session` with a bot player.

Attack 1 (seed reuse): the host takes the victim's seed reveal, drops the connection
and starts another game, whose host seed it grinds so that — if the victim reused the
seed it just revealed — the victim gets the lowest hand the host could find. The
client must never send a seed twice, and its second transcript may verify only with a
deck the host could not choose."""

from __future__ import annotations

import os

import trio

from jupai_net.cards import rank
from jupai_net.client.bot import BotPlayer
from jupai_net.client.session import run_session
from jupai_net.fairness import HostDealer, verify_transcript
from jupai_net.fairness.primitives import shuffle_deck
from jupai_net.fairness.transcript import decode_transcript
from jupai_net.host import server as server_mod
from jupai_net.host.table import Close, Table
from jupai_net.protocol import Reject
from jupai_net.setup import hand_positions

from .test_net_support import VICTIM, host_config, pin, start_host, start_watch, victim_game


class RiggedDealer(HostDealer):
    """A dealer whose bot seeds the host picks in advance (so it can grind the deck)."""

    def __init__(self, *args, bot_seed: bytes, **kw):
        super().__init__(*args, **kw)
        self.bot_seed = bot_seed

    def commit_bot(self, seat):
        from jupai_net.fairness.primitives import seed_commitment

        self._bots[seat] = self.bot_seed
        return self.commit(seat, seed_commitment(self.game_id, seat, self.bot_seed))


class GrindingTable(Table):
    """Game 1: take the victim's seed, drop it, restart with a host seed ground against
    that seed (as if the victim would reuse it). Later games: play honestly."""

    seeds_from_victim: list[bytes] = []
    predicted: list[tuple[bytes, tuple[int, ...]]] = []  # (game id, deck if the seed is reused)

    def _on_reveal(self, cid, seat, msg, now):
        if seat == VICTIM:
            type(self).seeds_from_victim.append(msg.seed)
        if seat == VICTIM and self.games_started == 1:
            self.disconnect(cid, now, "the attack")
            self._effects.append(Close(cid, None))
            self._restart(now, msg.seed)
            return
        super()._on_reveal(cid, seat, msg, now)

    def _restart(self, now, known_seed):
        game_id, bot_seed = os.urandom(16), os.urandom(32)
        hand = hand_positions(self.rules, VICTIM)
        best = None
        for _ in range(400):  # a small grind; the real attack tried 20,000 in 2 s
            host_seed = os.urandom(32)
            deck = shuffle_deck(game_id, host_seed, [known_seed, bot_seed])
            score = sum(rank(deck[p]) for p in hand)
            if best is None or score < best[0]:
                best = (score, host_seed, tuple(deck))
        _, host_seed, deck = best
        type(self).predicted.append((game_id, deck))
        self._start_game(now, RiggedDealer(self.rules, self.key, game_id=game_id, host_seed=host_seed,
                                           bot_seed=bot_seed))


async def test_a_host_that_restarts_the_game_after_the_reveal_never_gets_the_same_seed(monkeypatch, tmp_path):
    GrindingTable.seeds_from_victim, GrindingTable.predicted = [], []
    monkeypatch.setattr(server_mod, "Table", GrindingTable)
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, bots=1, rounds=3, away_delay=0.05))
        with trio.fail_after(30):
            result = await run_session("127.0.0.1", server.port, name="Victim", player=BotPlayer("random", seed=1),
                                       check_fingerprint=pin, seat=VICTIM, transcript_path=tmp_path / "t.jupai")
        nursery.cancel_scope.cancel()
    seeds = GrindingTable.seeds_from_victim
    assert len(seeds) == 2, seeds  # one reveal per game
    assert len(set(seeds)) == len(seeds), "the victim sent the same seed to two games"
    # the second game ran to its end; its transcript verifies, and its deck is not
    # the one the host ground for (that needed the first game's seed)
    assert result.status == "finished", result
    transcript = decode_transcript((tmp_path / "t.jupai").read_bytes())
    verdict = verify_transcript((tmp_path / "t.jupai").read_bytes())
    game_id, ground_deck = GrindingTable.predicted[0]
    assert verdict.game_id == game_id.hex()
    assert transcript.seed == seeds[1]
    if verdict.status == "verified":
        from jupai_net.fairness.verify import GameChecker

        checker = GameChecker(transcript.seat, transcript.seed)
        for raw in transcript.statements:
            checker.feed(raw)
        assert tuple(checker.derive().deck) != ground_deck
    # the dropped first game is kept as evidence: suspicious, since the host dropped it
    # after taking the seed, when it could know the deck (issue 7 item 2)
    from jupai_net.client.tls import config_dir

    first = list((config_dir() / "transcripts").glob("*.jupai"))  # the second game's went to tmp_path
    assert first, "the dropped game's transcript was not kept"
    for p in first:
        v = verify_transcript(p.read_bytes())
        assert v.status == "suspicious" and v.details.get("abort_after_reveal"), v


# --------------------------------------------------------------------------- item 4


class LyingSyncTable(Table):
    """Shows the victim a hand with another seat's card in it (the signed stream is honest)."""

    def _send(self, cid, msg):
        from jupai_net.protocol import Sync

        if isinstance(msg, Sync) and self.seat_of(cid) == VICTIM and msg.state_id >= 2 and msg.observation["hand"]:
            known = self.dealer.state.known_cards(VICTIM)
            other = [c for c in self.dealer.state.seats[1].hand if c not in known]  # a card this seat never saw
            if other:
                obs = dict(msg.observation, hand=sorted([other[0]] + list(msg.observation["hand"][1:])))
                msg = Sync(msg.state_id, obs)
        super()._send(cid, msg)


class OwnMoveTable(Table):
    """Applies another legal action than the one the victim sent, and says nothing."""

    def _on_action(self, cid, seat, msg, now):
        if seat == VICTIM and self.dealer is not None and msg.state_id == self.dealer.state.version:
            legal = self.dealer.state.legal_actions()
            other = [a for a in legal if a != msg.action]
            if other:
                self._play(seat, other[-1], now)
                return
        super()._on_action(cid, seat, msg, now)


async def test_a_sync_showing_another_hand_than_signed_stops_the_game_as_tampered(monkeypatch):
    result = await victim_game(monkeypatch, LyingSyncTable)
    assert result.status == "error" and result.error[0] == "tampered", result.error
    assert "never opened to this seat" in result.error[1]
    assert result.verdict.status == "tampered"
    assert any(n.code == "fairness" and "tampered" in n.text for n in result.view.notices)
    # said in the player's language from the reason's code (issue 12): the ending and the live note
    from jupai_net.client.status_words import notice_text
    from jupai_net.fairness.cli import reason_detail, reason_text

    assert result.verdict.code == "view_card_not_opened"
    zh = reason_text(result.verdict, "zh")
    assert "从未向本座位打开" in zh and reason_detail(result.verdict, "zh") is None, zh
    (note,) = [n for n in result.view.notices if n.code == "fairness"]
    assert notice_text(note, "zh").startswith("公平性：主机篡改了对局：主机在") and "never" not in notice_text(note, "zh")
    assert notice_text(note, "en") == f"FAIRNESS: the host tampered with the game: {result.verdict.reason}"


async def test_a_host_that_plays_another_move_for_the_seat_is_caught_at_once(monkeypatch):
    result = await victim_game(monkeypatch, OwnMoveTable)
    assert result.status == "error" and result.error[0] == "tampered", result.error
    assert "another action than the one this seat sent" in result.error[1]
    assert "did not announce a time-out" in result.error[1]


class NeverSigningDealer(HostDealer):
    """Leaves every step of a version-3 stream unsigned, also the one after which the
    seat is to move (specs/fairness.md §6.6 says the host signs that one): the seat is
    asked to act on statements no signature covers yet, and a host that vanishes then
    leaves the seat's file without evidence of what it was shown."""

    def _sign(self, viewer, kind, n, fields):
        from jupai_net.fairness.statements import STEP, split_statement, unsigned_packed

        raw = super()._sign(viewer, kind, n, fields)
        return unsigned_packed(split_statement(raw)[0]) if viewer in self.deferred and kind == STEP else raw


async def test_a_prompt_after_an_unsigned_step_stops_the_game_as_tampered(monkeypatch):
    """The seat is asked to move right after a step whose signature the host deferred:
    the seat stops the game at once (tampered, ``prompt_unsigned``) instead of acting
    on statements the host has not signed (before, it played the whole game on)."""
    from jupai_net.host import table as table_mod

    monkeypatch.setattr(table_mod, "HostDealer", NeverSigningDealer)
    result = await victim_game(monkeypatch, Table)
    assert result.status == "error" and result.error[0] == "tampered", (result.status, result.error)
    assert result.verdict.status == "tampered" and result.verdict.code == "prompt_unsigned", result.verdict
    assert "carries no signature" in result.error[1], result.error
    from jupai_net.fairness.cli import reason_text

    assert "没有签名" in reason_text(result.verdict, "zh")


class ResendingTable(Table):
    """An honest host in the race found under load: the seat's move for state v is in
    flight when the host, handling the seat's late move for state v-1 (stale), sends
    the prompt for v again. The host then applies the move it got first. Here: every
    move of the victim is held for 0.2 s after the prompt is sent again; a second move
    for the same state (a client that answered the repeated prompt) is refused as the
    host refuses any action for a state that is gone."""

    actions_seen: list[int] = []

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self._held = None  # (apply at, cid, seat, msg)

    def _on_action(self, cid, seat, msg, now):
        if seat == VICTIM:
            type(self).actions_seen.append(msg.state_id)
            if self._held is None and self.dealer is not None and msg.state_id == self.dealer.state.version:
                self._prompt_next_resend(cid, now)
                self._held = (now + 0.2, cid, seat, msg)
                return
            if self._held is not None:
                self._send(cid, Reject(msg.state_id, "stale-state", "that state's move is already in"))
                return
        super()._on_action(cid, seat, msg, now)

    def next_deadline(self):
        times = [t for t in (super().next_deadline(), self._held and self._held[0]) if t is not None]
        return min(times) if times else None

    def tick(self, now):
        if self._held is not None and now >= self._held[0]:
            _, cid, seat, msg = self._held
            self._held = None
            super()._on_action(cid, seat, msg, now)
            return
        super().tick(now)


async def test_a_prompt_sent_again_for_a_state_already_answered_is_not_answered_twice(monkeypatch):
    """The seat answered state v; the host (honest) repeats the prompt for v while that
    answer is in flight. The client must not answer again: the host applies the move
    it got first, and a second, different answer would make the client call the honest
    host a cheat ("another action than the one this seat sent")."""
    ResendingTable.actions_seen = []
    result = await victim_game(monkeypatch, ResendingTable, session={"player": BotPlayer("random", seed=11)})
    assert result.status == "finished", result.error
    assert result.verdict.status == "verified", result.verdict
    seen = ResendingTable.actions_seen
    assert seen and len(seen) == len(set(seen)), f"states answered more than once: {seen}"


class SilentPlayer(BotPlayer):
    """Never answers its first two prompts (the host times them out), then plays."""

    def __init__(self):
        super().__init__("random", seed=5)
        self.silent = 2

    async def choose(self, view):
        if self.silent:
            self.silent -= 1
            await trio.sleep_forever()
        return await super().choose(view)


async def test_announced_time_outs_are_not_tampering_and_are_recorded(monkeypatch, tmp_path):
    result = await victim_game(monkeypatch, Table, turn_timeout=0.4,
                               session={"name": "Slow", "player": SilentPlayer(), "transcript_path": tmp_path / "slow.jupai"})
    assert result.status == "finished", result.error
    assert result.verdict.status == "verified", result.verdict
    moves = decode_transcript((tmp_path / "slow.jupai").read_bytes()).host_moves
    assert [why for _, why in moves] == ["timeout", "timeout"]


class EarlyClockTable(Table):
    """Tells the seat it has 30 s per turn but times it out after ``turn_timeout`` (0.4 s):
    to the seat's clock each time-out comes about 30 s early, as an honest host's comes
    a little early to a client that handled the prompt late (busy after a rejoin)."""

    def _send(self, cid, msg):
        import dataclasses

        from jupai_net.protocol import Prompt

        if isinstance(msg, Prompt) and msg.timeout_ms is not None:
            msg = dataclasses.replace(msg, timeout_ms=30_000)
        super()._send(cid, msg)


class NoticeKeeper(SilentPlayer):
    """A :class:`SilentPlayer` that keeps the notice codes it sees when asked to move."""

    def __init__(self):
        super().__init__()
        self.codes: list[str] = []

    async def choose(self, view):
        self.codes += [n.code for n in view.notices]
        return await super().choose(view)


async def test_an_early_time_out_is_recorded_and_the_fair_deal_is_suspicious(monkeypatch, tmp_path):
    """A host that tells the seat 30 s and times it out after 0.4 s: each time-out comes
    about 30 s early by the seat's clock, far beyond the tolerance (1 s + a tenth of the
    turn): the player is told (``turn-cut-short``), the transcript records it
    (``cut_short``) and the verdict of the fair deal is *suspicious*, ``turns_cut_short``
    (was: only a warning, and *verified*; specs/fairness.md §9.3)."""
    player = NoticeKeeper()
    result = await victim_game(monkeypatch, EarlyClockTable, turn_timeout=0.4,
                               session={"name": "Slow", "player": player, "transcript_path": tmp_path / "slow.jupai"})
    assert result.status == "finished", result.error
    assert (result.verdict.status, result.verdict.code) == ("suspicious", "turns_cut_short"), result.verdict
    assert result.verdict.args["count"] == 2, result.verdict
    assert "turn-cut-short" in player.codes, player.codes
    saved = decode_transcript((tmp_path / "slow.jupai").read_bytes())
    assert [why for _, why in saved.host_moves] == ["timeout", "timeout"]
    assert [step for step, *_ in saved.cut_short] == [v for v, _ in saved.host_moves]


class CutShortTable(Table):
    """A hostile host that plays a person's seat itself: it tells the seat the table's
    turn time (30 s) and times it out at once, every turn, announcing each time-out as
    an honest host does (``turn-timeout``) and playing the default move for it."""

    def _send(self, cid, msg):
        from jupai_net.protocol import Prompt

        super()._send(cid, msg)
        if isinstance(msg, Prompt) and self._prompt == (msg.state_id, VICTIM):
            self._turn_deadline = 0.0  # the turn's time is up at once (the driver wakes for it)


class Thinker(BotPlayer):
    """A person who takes longer than the host lets them to choose (never answers in
    time), keeping the notice codes they were shown."""

    def __init__(self):
        super().__init__("random", seed=7)
        self.codes: list[str] = []

    def on_update(self, view):
        self.codes += [n.code for n in view.notices if n.code not in self.codes]
        super().on_update(view)

    async def choose(self, view):
        await trio.sleep_forever()


async def test_a_host_that_times_ann_out_at_once_every_turn_is_on_record(monkeypatch, tmp_path):
    """The attack of a hostile host on a person's time: Ann is timed out at 0 s of her
    30 s every turn and the host plays every move of her game. The deal is fair, but
    the client no longer calls the game fair: each time-out heard before the turn's
    time was up (counted from the prompt's arrival, beyond the tolerance) is recorded in
    her transcript (step, turn time, when the prompt and the time-out arrived, the time
    between), her verdict is *suspicious* ("fair deal, but the host cut this seat's turns
    short: N of …"), and ``jupai verify`` of the saved file says the same, in English and
    Chinese, with exit code 4 (specs/fairness.md §9.3)."""
    import json
    import subprocess
    import sys

    ann = Thinker()
    path = tmp_path / "ann.jupai"
    result = await victim_game(monkeypatch, CutShortTable, turn_timeout=30.0,
                               session={"name": "Ann", "player": ann, "transcript_path": path})
    assert result.status == "finished", result.error
    saved = decode_transcript(path.read_bytes())
    timed_out = [v for v, why in saved.host_moves if why == "timeout"]
    assert len(timed_out) >= 3, saved.host_moves  # every one of her moves was the host's
    verdict = result.verdict
    assert (verdict.status, verdict.code, verdict.args["count"]) == ("suspicious", "turns_cut_short",
                                                                     len(timed_out)), verdict
    assert verdict.reason.startswith("trusted dealer: fair deal, but the host cut this seat's turns short: "), verdict
    assert [e["step"] for e in verdict.details["cut_short"]] == timed_out
    for step, timeout_ms, prompt_heard, timeout_heard, after_ms in saved.cut_short:
        assert timeout_ms > 25_000 and after_ms < 2_000, saved.cut_short  # told ~30 s, timed out at once
        assert prompt_heard <= timeout_heard <= prompt_heard + after_ms + 1000
    assert "turn-cut-short" in ann.codes, ann.codes
    offline = verify_transcript(path.read_bytes())
    assert (offline.status, offline.code, offline.args, offline.message) == (verdict.status, verdict.code,
                                                                              verdict.args, verdict.message)
    for lang, words in (("en", "fair deal, but the host cut this seat's turns short"), ("zh", "主机缩短了本座位的回合")):
        done = subprocess.run([sys.executable, "-m", "jupai_net", "verify", str(path), "--lang", lang],
                              capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "400"})
        assert done.returncode == 4, done.stdout + done.stderr
        assert words in " ".join(done.stdout.split()).replace(" ", "" if lang == "zh" else " "), done.stdout
        title, rows = done.stdout.splitlines()[0], done.stdout.splitlines()[1:]
        assert title == ("SUSPICIOUS — fair deal, but the host cut your turns short" if lang == "en"
                         else "可疑 — 发牌公平，但主机缩短了你的回合"), done.stdout
        (cut,) = [r for r in rows if r.startswith(("turns cut short", "被缩短的回合"))]
        assert cut.count("30 s turn" if lang == "en" else "30 秒的回合") == len(timed_out), cut
    done = subprocess.run([sys.executable, "-m", "jupai_net", "verify", str(path), "--json"], capture_output=True,
                          text=True, timeout=60)
    (shown,) = json.loads(done.stdout) if done.stdout.lstrip().startswith("[") else [json.loads(done.stdout)]
    assert shown["code"] == "turns_cut_short" and len(shown["details"]["cut_short"]) == len(timed_out), shown


# --------------------------------------------------------------------------- spectators


class PeekingSpectatorTable(Table):
    """Shows spectators a card of seat 1's hand in the discard pile (the signed public
    stream stays honest): a host leaking, or faking, a hidden card on the spectators'
    screen."""

    def _send(self, cid, msg):
        from jupai_net.protocol import Sync

        if isinstance(msg, Sync) and cid in self.spectators and msg.state_id >= 2:
            public = self.dealer.state.known_cards(None)
            hidden = [c for c in self.dealer.state.seats[1].hand if c not in public]
            if hidden:
                obs = dict(msg.observation, discard_pile=list(msg.observation["discard_pile"]) + [hidden[0]])
                msg = Sync(msg.state_id, obs)
        super()._send(cid, msg)


async def test_a_spectator_shown_a_card_the_public_stream_never_opened_stops_as_tampered(monkeypatch):

    monkeypatch.setattr(server_mod, "Table", PeekingSpectatorTable)
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, bots=1, rounds=4))
        watched: dict = {}
        await start_watch(nursery, server, watched)
        with trio.fail_after(30):
            await run_session("127.0.0.1", server.port, name="Ann", player=BotPlayer("random", seed=3),
                              check_fingerprint=pin, save_resume=False)
            while "r" not in watched:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    result = watched["r"]
    assert result.status == "error" and result.error[0] == "tampered", (result.status, result.error)
    assert "which was never opened to the spectators" in result.error[1], result.error
    assert result.verdict.status == "tampered"
    assert result.transcript_path is not None and result.transcript_path.exists()  # kept as evidence
