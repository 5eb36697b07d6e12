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
from jupai_net.protocol import PROTOCOL_VERSION, Hello

from .test_net_support import host_config, pin, start_host


class Quitter(BotPlayer):
    """Plays ``moves`` moves, then leaves the table (as ``/quit`` does) at its next
    prompt: a prompt means the cards are dealt and the game is not over."""

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
            res = await run_session("127.0.0.1", server.port, name="Ann", player=Quitter(0), check_fingerprint=pin,
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


async def test_bot_clients_are_listed_as_bots_and_share_a_default_name():
    """Two `jupai join --bot random` clients: both say hello.bot with the default name
    'random bot'; the host seats both (the second renamed 'random bot N'), the lobby
    marks them as bots and the notice says so; a person is still a person."""
    from jupai_net.client.cli import bot_name
    from jupai_net.protocol import Lobby, Notice, Welcome

    from .test_net_support import RawClient

    assert bot_name("random") == "random bot"
    bots = {i: BotPlayer("random", seed=i) for i in (1, 2)}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(3, bot_delay=0.0))
        person = await RawClient.connect(server.port)
        await person.send(Hello("Ann"))  # a person's hello: no bot key (a version-1 hello)
        welcome = await person.recv_until(Welcome)
        assert welcome.version == PROTOCOL_VERSION

        async def bot(i: int) -> None:
            await run_session("127.0.0.1", server.port, name=bot_name("random"), player=bots[i],
                              check_fingerprint=pin, save_resume=False)

        nursery.start_soon(bot, 1)
        await person.recv_until(Notice, where=lambda n: n.code == "player-joined")
        nursery.start_soon(bot, 2)
        joined = await person.recv_until(Notice, where=lambda n: n.code == "player-joined")
        lobby = await person.recv_until(Lobby, where=lambda m: len(m.players) == 3)
        with trio.fail_after(5):
            while not all(b.last_view and b.last_view.seat is not None for b in bots.values()):
                await trio.sleep(0.02)
        await person.aclose()
        nursery.cancel_scope.cancel()
    seats = {p.seat: (p.name, p.bot) for p in lobby.players}
    assert seats == {0: ("Ann", False), 1: ("random bot", True), 2: ("random bot 2", True)}
    assert "(a bot)" in joined.text
    # each bot client learned the name it was seated under
    assert [bots[i].last_view.name for i in (1, 2)] == ["random bot", "random bot 2"]


async def test_a_version_1_client_still_gets_a_version_1_welcome():
    from jupai_net.protocol import Welcome

    from .test_net_support import RawClient

    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(3))
        old = await RawClient.connect(server.port)
        await old.send(Hello("Old", version=1, min_version=1))
        welcome = await old.recv_until(Welcome)
        assert welcome.version == 1 and old.conn.version == 1
        await old.aclose()
        nursery.cancel_scope.cancel()


async def test_the_lobby_shows_every_seat_empty_ones_included():
    """The client's view lists each seat (None = empty), from the welcome's table size
    and the lobby; the host screen's lobby line names the empty seats too."""
    from jupai_net.host.cli import lobby_line

    seen = []
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(4, bots=1), observer=lambda tid, kind, data: seen.append((kind, data)))
        me = BotPlayer("random")

        async def sit() -> None:
            await run_session("127.0.0.1", server.port, name="Ann", player=me, check_fingerprint=pin,
                              save_resume=False)

        nursery.start_soon(sit)
        with trio.fail_after(5):
            while me.last_view is None or not any(p.ready for p in me.last_view.players if p.seat == 0):
                await trio.sleep(0.02)
        nursery.cancel_scope.cancel()
    seats = me.last_view.seats
    assert [(p.name, p.bot) if p else None for p in seats] == [("Ann", True), None, None, ("greedy bot 3", True)]
    kind, data = [e for e in seen if e[0] == "lobby" and len(e[1]["players"]) == 2][-1]  # before Ann left
    assert data["seats"] == 4
    line = lobby_line(data["players"], data["seats"])
    assert line.plain == (
        "lobby 2 of 4 seats taken · 0 Ann (bot) ✓ · 1 (empty) · 2 (empty) · 3 greedy bot 3 (bot) ✓ · waiting for 2 people")
    full = lobby_line(data["players"], 2)
    assert "waiting for" not in full.plain


async def test_a_host_pinned_on_first_use_is_said_loudly_and_kept_visible(tmp_path, monkeypatch):
    """No --code: `jupai join` pins the host on first use and says so, with the advice to
    compare the code with the host's screen — when pinning, as a notice in the view (it
    survives the screen redraw), and again in the final report. The second join only
    says the code matches."""
    import argparse
    import io

    from rich.console import Console

    from jupai_net.client import cli

    from .test_net_support import IDENTITY

    args = argparse.Namespace(bot="random", transcript=str(tmp_path / "t.jupai"), seat=None)

    async def one_game(self, result):  # each join plays one game, then leaves the table
        return False

    monkeypatch.setattr(BotPlayer, "next_game", one_game)
    outputs = []
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, bots=1, bot_delay=0.0, games=None))
        for _ in range(2):
            out = io.StringIO()
            with trio.fail_after(20):
                code = await cli.join("127.0.0.1", server.port, "Ann", None, args, "en",
                                      Console(file=out, width=300, color_system=None))
            assert code == cli.EXIT_OK
            outputs.append(" ".join(out.getvalue().split()))
        # the notice in the session view, for a UI that redraws the screen
        check = cli.PinningCheck(None, Console(file=io.StringIO()), "zh")
        check.known.path.unlink()  # forget the host: first use again
        player = BotPlayer("random")
        await run_session("127.0.0.1", server.port, name="Bo", player=player, check_fingerprint=check,
                          save_resume=False, lang="zh")
        nursery.cancel_scope.cancel()
    advice = cli.first_use_text("en", f"127.0.0.1:{server.port}", IDENTITY.join_code)
    assert "Compare it with the join code on the host's screen" in advice and IDENTITY.join_code in advice
    first, second = outputs
    assert first.count(" ".join(advice.split())) == 2  # when pinning, and again after the verdict
    assert first.rindex(" ".join(advice.split())) > first.index("fairness: verified")
    assert "matches the pinned one" in second and "Compare it" not in second
    notes = [n for n in player.last_view.notices if n.code == "host-pinned"]
    assert notes and IDENTITY.join_code in notes[0].text and "主机屏幕" in notes[0].text


class Stopper(BotPlayer):
    """Stops the host (as Ctrl-C at the host does) at its first prompt, or in the lobby."""

    def __init__(self, server_box: list, *, in_lobby: bool = False):
        super().__init__("random", seed=5)
        self.box = server_box
        self.in_lobby = in_lobby
        self.stopped = False

    def on_update(self, view):
        super().on_update(view)
        if self.in_lobby and not self.stopped and view.seat is not None and self.box:
            self.stopped = True
            self.box[0].stop("the host was stopped")

    async def choose(self, view):
        if not self.stopped:
            self.stopped = True
            self.box[0].stop("the host was stopped")
        await trio.sleep_forever()


async def test_the_host_stopping_gives_a_readable_reason_not_a_protocol_code():
    """The session's result error reads as text: ``bye host-shutdown`` becomes "the host
    was stopped", an abandoned game carries the host's reason (specs/host.md §2)."""
    from jupai_net.client.session import bye_text

    assert bye_text("host-shutdown") == "the host was stopped"
    assert bye_text("odd-code") == "an unknown reason (odd-code)"
    assert bye_text("host-shutdown", "zh") == "主机已停止" and bye_text("odd-code", "zh") == "未知原因（odd-code）"
    results = {}
    for where, seats in (("lobby", 3), ("game", 2)):
        box: list = []
        async with trio.open_nursery() as nursery:
            server = await start_host(nursery, host_config(seats, bots=1, bot_delay=0.0))
            box.append(server)
            with trio.fail_after(20):
                results[where] = await run_session("127.0.0.1", server.port, name="Ann", check_fingerprint=pin,
                                                   player=Stopper(box, in_lobby=where == "lobby"), save_resume=False)
            nursery.cancel_scope.cancel()
    lobby, game = results["lobby"], results["game"]
    assert lobby.status == "host-gone" and lobby.error == ("bye", "the host was stopped")
    assert game.status == "aborted" and game.error == ("abandoned", "the host was stopped")
    assert "host-shutdown" not in str(lobby.error) + str(game.error)
