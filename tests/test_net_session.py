"""What a first real user ran into, each with the outcome asserted end to end: leaving
is not blamed on the host, bot clients are labelled as bots, the lobby shows every
seat, a first-use pin is visible (specs/host.md §3, §10; specs/fairness.md §9)."""

from __future__ import annotations

import msgpack
import trio

from jupai_net.client.bot import BotPlayer
from jupai_net.client.session import run_session
from jupai_net.fairness import SUSPICIOUS, UNVERIFIED, SeatWitness, verify_transcript
from jupai_net.fairness.transcript import decode_transcript

from .test_net_support import host_config, pin, start_host


class Quitter(BotPlayer):
    """Plays ``moves`` moves, then leaves the table (as ``/quit`` does)."""

    def __init__(self, moves: int):
        super().__init__("random", seed=3)
        self.moves = moves

    async def choose(self, view):
        if self.prompts >= self.moves:
            self.control.leave()
            await trio.sleep_forever()
        return await super().choose(view)


async def test_a_player_who_leaves_mid_game_gets_unverified_not_a_suspicious_host(tmp_path):
    path = tmp_path / "left.jupai"
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(3, bots=2, bot_delay=0.0))
        with trio.fail_after(20):
            res = await run_session("127.0.0.1", server.port, name="Ann", player=Quitter(2), check_fingerprint=pin,
                                    transcript_path=path, save_resume=False)
        nursery.cancel_scope.cancel()
    assert res.status == "left"
    verdict = res.verdict
    assert verdict is not None and verdict.status == UNVERIFIED, verdict
    assert "this seat left the game before the end" in verdict.reason
    assert "host stopped" not in verdict.reason and "alone could know" not in verdict.reason
    # the saved file says the same under `jupai verify`
    data = path.read_bytes()
    assert decode_transcript(data).left and decode_transcript(data).host_gone is None
    again = verify_transcript(data)
    assert (again.status, again.reason) == (verdict.status, verdict.reason)


def test_leaving_is_unverified_a_vanished_host_stays_suspicious_and_old_files_are_unchanged():
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    sp = play_game(RuleSet(players=3, rounds=3), max_steps=4, finish=False, spectators=False)
    gone, left = sp.witnesses[0], sp.witnesses[1]
    before = gone.transcript()
    gone.host_gone("connection lost")
    assert verify_transcript(gone.transcript()).status == SUSPICIOUS  # the host vanished: still suspicious
    # the optional 'left' key is written only when set: such files keep the original six keys
    assert list(msgpack.unpackb(gone.transcript())) == list(msgpack.unpackb(before)) == [
        "format", "v", "seat", "seed", "statements", "host_gone"]
    left.host_gone("session ended")
    left.player_left("the player left before the end")
    v = verify_transcript(left.transcript())
    assert v.status == UNVERIFIED and "this seat left the game before the end" in v.reason
    assert v == left.verify()
