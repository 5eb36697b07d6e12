"""Rejoin and stalls through the client library (issue 8 §1; specs/client.md §
Rejoin): the same run_session call after a crash takes the seat back and says what
the host's bot played meanwhile; a lobby seat lost with its connection is taken again;
a silent host is shown as a lost connection with the turn timer paused; a seat that
never comes back gets an "unverified: this seat left" copy at the host."""

from __future__ import annotations

import trio

from jupai_net.client.bot import BotPlayer
from jupai_net.client.session import ClientView, run_session
from jupai_net.client.tls import config_dir
from jupai_net.fairness import VERIFIED, verify_transcript
from jupai_net.fairness.transcript import decode_transcript

from .test_net_reconnect import Cutter
from .test_net_support import Proxy, host_config, pin, start_host


async def test_the_same_call_after_a_crash_takes_the_seat_back_and_counts_the_bots_moves(tmp_path):
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, rounds=8, away_delay=0.05))
        proxy = Proxy(server.port)
        await nursery.start(proxy.serve)

        async def other():
            results["ok"] = await run_session("127.0.0.1", server.port, name="Bob",
                                              player=BotPlayer("random", seed=2, think=0.05), check_fingerprint=pin,
                                              save_resume=False, seat=1)

        nursery.start_soon(other)
        with trio.fail_after(20):  # "the process dies": no reconnect, the resume file stays
            gone = await run_session("127.0.0.1", proxy.port, name="Ann", player=Cutter(proxy, at=2, seed=1),
                                     check_fingerprint=pin, reconnect_for=0, seat=0,
                                     transcript_path=tmp_path / "ann.jupai")
        assert gone.status == "host-gone"
        table = server.tables[0]
        start = table.dealer.state.version
        with trio.fail_after(10):  # the host's bot plays for the absent seat meanwhile
            while table.dealer.state.version < start + 4 and not table.dealer.state.is_over:
                await trio.sleep(0.02)
        with trio.fail_after(20):  # the same call again (no token, no seat: from the resume file)
            back = await run_session("127.0.0.1", proxy.port, name="Ann", player=BotPlayer("random", seed=3),
                                     check_fingerprint=pin, transcript_path=tmp_path / "ann.jupai")
        with trio.fail_after(10):
            while "ok" not in results:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert back.status == "finished" and back.seat == 0
    assert back.verdict.status == VERIFIED, back.verdict
    welcome = [n for n in back.view.notices if n.code == "welcome-back"]
    assert len(welcome) == 1 and welcome[0].args["seat"] == 0
    k = welcome[0].args["moves"]
    assert k >= 1
    assert welcome[0].text == f"welcome back: you were seat 0; a bot played {k} move{'s' if k != 1 else ''} for you"
    transcript = decode_transcript((tmp_path / "ann.jupai").read_bytes())
    assert [why for _, why in transcript.host_moves].count("away") == k
    assert verify_transcript((tmp_path / "ann.jupai").read_bytes()).status == VERIFIED
    assert not list((config_dir() / "sessions").glob("*.resume"))


class Recorder(BotPlayer):
    def __init__(self, **kw):
        super().__init__("random", **kw)
        self.views: list[ClientView] = []

    def on_update(self, view: ClientView) -> None:
        super().on_update(view)
        self.views.append(view)


async def test_a_connection_lost_in_the_lobby_is_rejoined_by_the_same_call():
    """Lost in the lobby: the host frees the seat; the same call again (no token, no
    seat, another default name) reads the resume file and takes the same seat under
    the same name (a newcomer would have got seat 0)."""
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(4, bots=2, rounds=2, away_delay=0.05))
        proxy = Proxy(server.port)
        await nursery.start(proxy.serve)
        ann = Recorder(seed=1)

        async def cut_when_welcomed():
            while not any(v.change == "welcome" for v in ann.views):
                await trio.sleep(0.01)
            proxy.cut()

        with trio.fail_after(20):
            nursery.start_soon(cut_when_welcomed)
            lost = await run_session("127.0.0.1", proxy.port, name="Ann", player=ann, check_fingerprint=pin, seat=1)
        assert lost.status == "host-gone" and lost.seat == 1
        again_player = Recorder(seed=3)
        with trio.fail_after(20):
            async with trio.open_nursery() as clients:
                async def again():
                    results["ann"] = await run_session("127.0.0.1", proxy.port, name="someone else",
                                                       player=again_player, check_fingerprint=pin)

                clients.start_soon(again)
                while not any(v.change == "welcome" for v in again_player.views):
                    await trio.sleep(0.01)
                clients.start_soon(lambda: run_session("127.0.0.1", server.port, name="Bob",
                                                       player=BotPlayer("random", seed=2), check_fingerprint=pin,
                                                       save_resume=False, seat=0))
        nursery.cancel_scope.cancel()
    res = results["ann"]
    assert res.status == "finished" and res.seat == 1 and res.names[1] == "Ann", (res.seat, res.names)
    assert res.verdict.status == VERIFIED


class Freezer(Proxy):
    """A proxy that can hold the host's bytes back (a stalled connection, no close)."""

    def __init__(self, target_port: int):
        super().__init__(target_port)
        self.frozen = False

    async def _handle(self, client):
        self.connections += 1
        upstream = await trio.open_tcp_stream("127.0.0.1", self.target_port)

        async def pump(a, b, from_host):
            try:
                async for chunk in a:
                    while from_host and self.frozen:
                        await trio.sleep(0.01)
                    await b.send_all(chunk)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

        async with trio.open_nursery() as n:
            n.start_soon(pump, client, upstream, False)
            n.start_soon(pump, upstream, client, True)


class Staller(Recorder):
    def __init__(self, proxy: Freezer, **kw):
        super().__init__(**kw)
        self.proxy = proxy
        self.stalled_view: ClientView | None = None

    async def choose(self, view: ClientView):
        if self.stalled_view is None:
            self.proxy.frozen = True
            with trio.fail_after(8):
                while not any(v.change == "stalled" for v in self.views):
                    await trio.sleep(0.05)
            self.stalled_view = self.views[-1]
            frozen_at = self.stalled_view.seconds_left()
            await trio.sleep(1.0)
            assert self.views[-1].seconds_left() == frozen_at  # the timer stands still
            self.proxy.frozen = False
            with trio.fail_after(5):
                while not any(v.change == "unstalled" for v in self.views):
                    await trio.sleep(0.05)
        return await super().choose(view)


async def test_a_silent_host_is_shown_as_a_lost_connection_and_the_timer_pauses():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, bots=1, rounds=2, turn_timeout=30.0))
        proxy = Freezer(server.port)
        await nursery.start(proxy.serve)
        player = Staller(proxy, seed=4)
        with trio.fail_after(40):
            res = await run_session("127.0.0.1", proxy.port, name="Ann", player=player, check_fingerprint=pin,
                                    save_resume=False)
        nursery.cancel_scope.cancel()
    assert res.status == "finished", res.error
    stalled = player.stalled_view
    assert stalled is not None and stalled.stalled_left is not None and 20 < stalled.stalled_left < 30
    codes = [n.code for n in res.view.notices]
    assert "connection-stalled" in codes and "connection-back" in codes
    from jupai_net.client.render import notice_text

    note = next(n for n in res.view.notices if n.code == "connection-stalled")
    assert notice_text(note, "en").startswith("Connection to the host lost, retrying…")
    assert notice_text(note, "zh").startswith("与主机的连接中断，正在重试")


async def test_a_seat_that_never_comes_back_gets_an_unverified_copy_at_the_host(tmp_path):
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, rounds=3, away_delay=0.02, transcript_dir=tmp_path / "host"))
        proxy = Proxy(server.port)
        await nursery.start(proxy.serve)
        with trio.fail_after(30):
            async with trio.open_nursery() as clients:
                clients.start_soon(lambda: run_session("127.0.0.1", proxy.port, name="Ann",
                                                       player=Cutter(proxy, at=2, seed=1), check_fingerprint=pin,
                                                       reconnect_for=0, seat=0, save_resume=False))
                clients.start_soon(lambda: run_session("127.0.0.1", server.port, name="Bob",
                                                       player=BotPlayer("random", seed=2), check_fingerprint=pin,
                                                       seat=1, save_resume=False))
        nursery.cancel_scope.cancel()
    copies = {p.name.rsplit("-", 1)[1]: verify_transcript(p.read_bytes()) for p in (tmp_path / "host").glob("*.jupai")}
    assert copies["seat1.jupai"].status == VERIFIED
    assert copies["seat0.jupai"].status == "unverified"
    assert "this seat left" in copies["seat0.jupai"].reason
