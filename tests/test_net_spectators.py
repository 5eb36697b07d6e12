"""Spectators over real TCP + TLS on 127.0.0.1 (specs/protocol.md §12): the cap and its
refusal, a spectator that stops reading never holds up the game, bad spectator hellos,
per-address limits."""

from __future__ import annotations

import logging

import trio

from jupai_net.client.bot import BotPlayer
from jupai_net.client.session import PlayerBase, run_session
from jupai_net.protocol import ErrorMessage, Hello, Lobby, Welcome, encode_frame

from .test_net_support import RawClient, host_config, pin, start_host, start_watch


class _NotingBot(BotPlayer):
    """A random bot that keeps every notice it was shown (a view's notices make way
    when the next game starts)."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.seen: list = []

    def on_update(self, view) -> None:
        self.seen += [n for n in view.notices if n not in self.seen]
        super().on_update(view)


async def _bots(nursery: trio.Nursery, port: int, n: int, results: dict, *, think: float = 0.0,
                stay: bool = False, players: dict | None = None) -> None:
    for i in range(n):
        async def one(i: int = i) -> None:
            player = _NotingBot("random", seed=i, think=think)
            if players is not None:
                players[i] = player
            results[i] = await run_session("127.0.0.1", port, name=f"bot{i}", player=player,
                                           check_fingerprint=pin, save_resume=False, transcript_path=None, stay=stay)
        nursery.start_soon(one)


async def _watch_raw(port: int, name: str, *, rcvbuf: int | None = None) -> tuple[RawClient, Welcome]:
    raw = await RawClient.connect(port, rcvbuf=rcvbuf)
    await raw.send(Hello(name, watch=True, min_version=3))
    msg = await raw.recv()
    return raw, msg


async def test_a_stalled_spectator_never_holds_up_the_game_and_is_dropped(caplog):
    caplog.set_level(logging.WARNING, logger="jupai.host")
    results: dict = {}
    bots: dict = {}
    async with trio.open_nursery() as nursery:
        # three games: a deck can end a game within ten actions, too few frames to fill
        # the buffers and the queue; three in a row that short do not happen
        server = await start_host(nursery, host_config(3, rounds=12, games=3, queue_size=16, sndbuf=4096))
        sloth, welcome = await _watch_raw(server.port, "sloth", rcvbuf=4096)
        assert isinstance(welcome, Welcome) and welcome.seat is None
        # from here on the spectator reads nothing at all
        start = trio.current_time()
        with trio.fail_after(20):
            async with trio.open_nursery() as players:
                await _bots(players, server.port, 3, results, stay=True, players=bots)
        took = trio.current_time() - start
        await sloth.aclose()
    for r in results.values():
        assert r.status == "finished" and r.verdict.ok, r
    assert server.tables[0].games_done == 3
    assert server.stats["slow_clients"] == 1
    assert any("the spectator is too slow, dropping it" in rec.getMessage() for rec in caplog.records)
    # everyone else was told it went
    assert any(n.code == "spectator-left" and "sloth stopped watching" in n.text for n in bots[0].seen)
    assert took < 15


class _Quiet(PlayerBase):
    pass


async def test_the_ninth_spectator_is_refused_with_the_reason():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None, max_spectators_per_address=None))
        watchers = []
        for k in range(8):
            raw, welcome = await _watch_raw(server.port, f"w{k}")
            assert isinstance(welcome, Welcome) and welcome.seat is None
            watchers.append(raw)
        with trio.fail_after(10):
            r = await run_session("127.0.0.1", server.port, name="ninth", player=_Quiet(), check_fingerprint=pin,
                                  watch=True)
        assert r.status == "refused" and r.seat is None
        assert r.error == ("spectators-full",
                           "this table already has 8 spectators, the most it takes; try again when one leaves")
        assert len(server.tables[0].spectators) == 8
        for raw in watchers:
            await raw.aclose()
        nursery.cancel_scope.cancel()


async def test_bad_spectator_hellos_get_a_clear_bad_field_error():
    base = Hello("Wu").to_wire(seq=0)
    cases = [
        ({"watch": True, "min_version": 1}, "'watch' needs min_version 3"),
        ({"watch": True, "min_version": 3, "seat": 1}, "a spectator holds no seat: 'seat' must be null"),
        ({"watch": True, "min_version": 3, "token": "t" * 32}, "'token' must be null"),
        ({"watch": True, "min_version": 3, "bot": True}, "'bot' must be false"),
        ({"watch": "yes", "min_version": 3}, "'watch' must be true or false"),
        ({"watch": 1, "min_version": 3}, "'watch' must be true or false"),
    ]
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None))
        for change, needle in cases:
            raw = await RawClient.connect(server.port)
            await raw.send_raw(encode_frame({**base, **change}))
            err = await raw.recv()
            assert isinstance(err, ErrorMessage) and err.code == "bad-field", (change, err)
            assert needle in err.message, (change, err.message)
            await raw.aclose()
        # the host is fine: a proper spectator still gets in
        raw, welcome = await _watch_raw(server.port, "Wu")
        assert isinstance(welcome, Welcome) and welcome.seat is None
        assert isinstance(await raw.recv(), Lobby)
        await raw.aclose()
        assert server.stats["internal_errors"] == 0
        nursery.cancel_scope.cancel()


async def test_spectators_count_in_the_per_address_connection_limit():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None, max_per_address=3))
        first = [await _watch_raw(server.port, f"w{k}") for k in range(3)]
        assert all(isinstance(w, Welcome) for _, w in first)
        # a fourth connection from the same address is closed before any TLS work
        raw = await RawClient.connect(server.port, handshake=False)
        with trio.fail_after(5):
            try:
                await raw.stream.do_handshake()
                closed = await raw.recv() is None
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                closed = True
        assert closed and server.stats["refused_connections"] == 1
        for r, _ in first:
            await r.aclose()
        nursery.cancel_scope.cancel()


async def test_a_spectator_stays_for_the_next_game_and_keeps_each_verified(tmp_path, monkeypatch):
    """The host plays two games (two rounds of bot clients); one spectator session
    watches both: each game verified and saved, the session ends at the host's bye."""
    from jupai_net.fairness import VERIFIED, verify_transcript

    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    views = []

    class Recorder(PlayerBase):
        def on_update(self, view) -> None:
            views.append(view)

    results: dict = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, rounds=3, games=2))
        watched: dict = {}
        await start_watch(nursery, server, watched, player=Recorder())
        for game in range(2):
            with trio.fail_after(20):
                async with trio.open_nursery() as players:
                    await _bots(players, server.port, 2, results)
            assert all(r.status == "finished" for r in results.values())
        with trio.fail_after(10):
            while "r" not in watched:
                await trio.sleep(0.01)
    r = watched["r"]
    assert r.status == "finished" and r.verdict.status == VERIFIED
    ends = [v for v in views if v.change == "end"]
    assert len(ends) == 2 and ends[0].game_id != ends[1].game_id
    verdicts = [v.verdict for v in views if v.change == "verdict"]
    assert len(verdicts) == 2 and all(v.status == VERIFIED for v in verdicts)
    files = sorted((tmp_path / "transcripts").glob("*-spectator.jupai"))
    assert len(files) == 2 and all(verify_transcript(f.read_bytes()).status == VERIFIED for f in files)
    assert r.transcript_path in files and r.transcript_path.name.startswith(ends[1].game_id.hex()[:12])
    # the second game's screen started clean: no ranking of the first one shown over it
    second_start = next(v for v in views if v.change == "start" and v.game_id == ends[1].game_id)
    assert second_start.result is None and second_start.verdict is None


async def test_one_address_may_take_only_part_of_the_spectator_places():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, games=None, max_spectators_per_address=2))
        first = [await _watch_raw(server.port, f"w{k}") for k in range(2)]
        assert all(isinstance(w, Welcome) for _, w in first)
        raw, err = await _watch_raw(server.port, "w2")
        assert isinstance(err, ErrorMessage) and err.code == "spectators-full"
        assert err.message == "2 spectators already watch from your address, the most one address may have"
        await raw.aclose()
        # a player from the same address is not affected
        player = await RawClient.connect(server.port)
        await player.send(Hello("Ann"))
        welcome = await player.recv()
        assert isinstance(welcome, Welcome) and welcome.seat == 0
        # one spectator leaves: the address may watch once more
        await first[0][0].aclose()
        with trio.fail_after(5):
            while len(server.tables[0].spectators) > 1:
                await trio.sleep(0.01)
        again, welcome = await _watch_raw(server.port, "w3")
        assert isinstance(welcome, Welcome) and welcome.seat is None
        for r in (player, again, first[1][0]):
            await r.aclose()
        nursery.cancel_scope.cancel()


async def test_a_spectator_keeps_its_own_name_beside_a_players_saved_seat(tmp_path, monkeypatch):
    """A player and a watcher on one laptop share the config folder: the player's resume
    file for this address must not make ``jupai watch`` speak as that player (found in a
    fresh-user trial: "Ming is watching" for a watcher named Eve)."""
    from jupai_net.client.resume import ResumeState, save_resume

    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2))
        save_resume(ResumeState("127.0.0.1", server.port, "Ming", seat=0, token="t" * 32))
        await start_watch(nursery, server, {}, name="Eve")
        assert list(server.tables[0].spectators.values()) == ["Eve"]
        nursery.cancel_scope.cancel()
