"""Reconnect with the session token (specs/host.md § Reconnect): a client whose
connection drops mid-game gets its seat and its view back, a bot plays its turns
meanwhile, and its transcript still verifies."""

from __future__ import annotations

import trio

from jupai_net.client.bot import BotPlayer
from jupai_net.client.resume import ResumeState
from jupai_net.client.session import ClientView, run_session
from jupai_net.fairness import VERIFIED

from .test_net_support import Proxy, host_config, pin, start_host


class Cutter(BotPlayer):
    """Plays like a bot, but on its ``at``-th prompt cuts the proxy and waits."""

    def __init__(self, proxy: Proxy, at: int = 3, **kw):
        super().__init__("random", **kw)
        self.proxy, self.at = proxy, at
        self.cut_done = False
        self.changes: list[str] = []
        self.back = trio.Event()

    def on_update(self, view: ClientView) -> None:
        super().on_update(view)
        self.changes.append(view.change)
        if view.change == "reconnected":
            self.back.set()

    async def choose(self, view: ClientView):
        if not self.cut_done and self.prompts + 1 >= self.at:
            self.prompts += 1
            self.cut_done = True
            self.proxy.cut()
            await trio.sleep_forever()  # cancelled by the session when the connection drops
        return await super().choose(view)


class Patient(BotPlayer):
    """A random bot that, once ``cutter`` has cut its connection, waits at its turn
    (up to ``patience`` seconds, less than the turn timeout) until the cutter is back:
    else, on a loaded machine, the host's stand-in bot and this one could finish the
    game before the reconnect and the token would be refused as expired."""

    def __init__(self, cutter: Cutter, patience: float = 4.0, **kw):
        super().__init__("random", **kw)
        self.cutter, self.patience = cutter, patience

    async def choose(self, view: ClientView):
        if self.cutter.cut_done:
            with trio.move_on_after(self.patience):
                await self.cutter.back.wait()
        return await super().choose(view)


async def test_dropped_client_reconnects_with_its_token_and_finishes(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, rounds=6, away_delay=0.05))
        proxy = Proxy(server.port)
        await nursery.start(proxy.serve)
        cutter = Cutter(proxy, at=3, seed=1)

        async def via_proxy():
            results["cut"] = await run_session("127.0.0.1", proxy.port, name="Ann", player=cutter,
                                               check_fingerprint=pin, seat=0)

        async def direct():
            results["ok"] = await run_session("127.0.0.1", server.port, name="Bob", player=Patient(cutter, seed=2),
                                              check_fingerprint=pin, seat=1)

        with trio.fail_after(20):
            async with trio.open_nursery() as clients:
                clients.start_soon(via_proxy)
                clients.start_soon(direct)
        nursery.cancel_scope.cancel()
    cut, ok = results["cut"], results["ok"]
    assert cutter.cut_done and proxy.connections == 2  # the drop, then the reconnect
    assert "reconnecting" in cutter.changes and "reconnected" in cutter.changes
    assert cut.status == "finished" and ok.status == "finished"
    assert cut.seat == 0 and cut.ranking == ok.ranking
    assert cut.verdict.status == VERIFIED, cut.verdict
    assert ok.verdict.status == VERIFIED
    codes = [n.code for n in ok.view.notices]
    assert "player-left" in codes and "player-back" in codes
    # the other seat's screen does not show Ann as still away once she is back: her
    # "disconnected" notice gave its line to "is back" (specs/client.md § What the player sees, 9)
    from jupai_net.client.notice_keep import current

    def away(n):
        return n.code == "player-left" and (n.args or {}).get("why") == "disconnected"

    assert any(away(n) for n in ok.view.notices)
    assert not any(away(n) for _, n in current(ok.view.notices)), ok.view.notices
    # its view after the reconnect is complete: the final observation shows the end
    assert cut.view.observation["result"] is not None
    assert not (tmp_path / "sessions").exists() or not any((tmp_path / "sessions").iterdir())


async def test_a_new_process_takes_the_seat_back_with_token_and_saved_seed(tmp_path, monkeypatch):
    """The first session dies for good (no reconnect); a second one, given only the
    token, finds the seed in the resume file, replays the statement stream and verifies."""
    monkeypatch.setenv("JUPAI_CONFIG_DIR", str(tmp_path))
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, rounds=6, away_delay=0.05))
        proxy = Proxy(server.port)
        await nursery.start(proxy.serve)
        first = Cutter(proxy, at=2, seed=1)

        async def other():
            results["ok"] = await run_session("127.0.0.1", server.port, name="Bob",
                                              player=BotPlayer("random", seed=2, think=0.02), check_fingerprint=pin,
                                              save_resume=False)

        nursery.start_soon(other)
        with trio.fail_after(20):
            gone = await run_session("127.0.0.1", proxy.port, name="Ann", player=first, check_fingerprint=pin,
                                     reconnect_for=0)
        assert gone.status == "host-gone" and gone.token
        assert gone.verdict.status != VERIFIED  # that run saw only part of the game
        resume = next((tmp_path / "sessions").glob("*.resume"))
        saved = ResumeState.from_bytes(resume.read_bytes())
        assert saved.token == gone.token and saved.seat == gone.seat and saved.game_id == gone.game_id
        assert saved.seed is not None and saved.statements  # the seed with its game, and what was received
        assert resume.stat().st_mode & 0o777 == 0o600
        with trio.fail_after(20):
            back = await run_session("127.0.0.1", server.port, name="Ann again", player=BotPlayer("random", seed=3),
                                     check_fingerprint=pin, token=gone.token)
        with trio.fail_after(10):
            while "ok" not in results:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert back.status == "finished" and back.seat == gone.seat
    assert back.names[back.seat] == "Ann"  # the seat keeps its name
    assert back.verdict.status == VERIFIED, back.verdict
    assert results["ok"].verdict.status == VERIFIED


async def test_a_token_is_useless_after_the_game():
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, rounds=2, games=None))
        results = {}

        async def one(i):
            results[i] = await run_session("127.0.0.1", server.port, name=f"p{i}", player=BotPlayer(seed=i),
                                           check_fingerprint=pin, save_resume=False)

        with trio.fail_after(20):
            async with trio.open_nursery() as clients:
                for i in range(2):
                    clients.start_soon(one, i)
        late = await run_session("127.0.0.1", server.port, name="p0", player=BotPlayer(), check_fingerprint=pin,
                                 token=results[0].token, save_resume=False)
        nursery.cancel_scope.cancel()
    assert late.status == "refused" and late.error[0] == "bad-token"
