"""Games in a row over 127.0.0.1 (specs/host.md § 3a): two people driven by programs
and a host bot play two games on one host; every game has its own id, fresh seeds and
transcript, and verifies on its own; a person who leaves after game 1 is replaced by a
bot, and a client that says q between games ends with its last game verified."""

from __future__ import annotations

import trio

from jupai_net.client.bot import BotPlayer
from jupai_net.client.session import run_session
from jupai_net.fairness import VERIFIED, verify_transcript
from jupai_net.fairness.transcript import decode_transcript
from jupai_net.series import game_points

from .test_net_support import host_config, pin, start_host


class Person(BotPlayer):
    """A person at the table, driven by a program: plays like the random bot and,
    between games, answers ``next_game`` with ``stay_for`` (True ``stay_for`` times)."""

    def __init__(self, seed: int, stay_for: int):
        super().__init__("random", seed=seed)
        self.is_bot = False  # says hello as a person
        self.stay_for = stay_for
        self.asked: list[int] = []  # the series' game number each time it was asked

    async def next_game(self, result):
        self.asked.append(result.series.game if result.series else 0)
        await trio.sleep(0.05)  # a person reads the ending first
        return len(self.asked) <= self.stay_for


async def _play(tmp_path, players, games):
    results = {}
    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(3, bots=1, bot_delay=0.0, rounds=3, games=games))

        async def one(name, player):
            results[name] = await run_session("127.0.0.1", server.port, name=name, player=player,
                                              check_fingerprint=pin, save_resume=False, stay=True,
                                              transcript_path=tmp_path / f"{name}.jupai")

        with trio.fail_after(60):
            async with trio.open_nursery() as inner:
                for name, player in players.items():
                    inner.start_soon(one, name, player)
            await server.closed.wait()
    return results, server


async def test_two_games_in_a_row_each_verifies_with_its_own_game_id_and_seeds(tmp_path):
    people = {"Ann": Person(1, stay_for=5), "Bob": Person(2, stay_for=5)}
    results, server = await _play(tmp_path, people, games=2)
    for name, res in results.items():
        assert res.status == "finished" and len(res.games) == 2, res
        first, second = res.games
        assert first.game_id != second.game_id
        assert first.verdict.status == second.verdict.status == VERIFIED
        assert first.transcript_path == tmp_path / f"{name}.jupai"
        assert second.transcript_path == tmp_path / f"{name}-2.jupai"  # the 2nd game next to the 1st
        files = [decode_transcript(p.read_bytes()) for p in (first.transcript_path, second.transcript_path)]
        assert files[0].seed != files[1].seed  # a fresh seed for every game
        assert all(verify_transcript(p.read_bytes()).status == VERIFIED
                   for p in (first.transcript_path, second.transcript_path))
        assert [f.meta["game"] for f in files] == ["1", "2"] and files[0].meta["series"] == files[1].meta["series"]
        # the scoreboard: the points of both games, from their rankings
        assert res.series.final and res.series.game == 2
        total = {}
        for g in res.games:
            names = g.result["names"]
            for seat, pts in enumerate(game_points(g.ranking, 3)):
                total[names[seat]] = total.get(names[seat], 0) + pts
        assert {s.name: s.points for s in res.series.standings} == total
    assert people["Ann"].asked == [1] and people["Bob"].asked == [1]  # asked after game 1, not after the last
    assert server.games_done == 2


async def test_a_person_who_leaves_after_game_1_is_replaced_by_a_bot(tmp_path):
    people = {"Ann": Person(1, stay_for=5), "Bob": Person(2, stay_for=0)}
    results, server = await _play(tmp_path, people, games=2)
    bob, ann = results["Bob"], results["Ann"]
    assert bob.status == "finished" and len(bob.games) == 1 and bob.verdict.status == VERIFIED  # q: a clean end
    assert bob.transcript_path.exists()
    assert ann.status == "finished" and len(ann.games) == 2
    second = ann.games[1]
    assert second.verdict.status == VERIFIED
    bob_seat = bob.seat
    assert second.result["names"][bob_seat] == f"greedy bot {bob_seat}"  # a bot took Bob's seat
    board = {s.name: s for s in ann.series.standings}
    assert board["Bob"].played == 1 and board["Bob"].last is None
    assert board[f"greedy bot {bob_seat}"].played == 1


class Reader(Person):
    """A person who reads the ending a while: what its screen says meanwhile."""

    def __init__(self, seed: int, stay_for: int):
        super().__init__(seed, stay_for)
        self.latest = None
        self.ending_names: list[dict] = []

    def on_update(self, view):
        self.latest = view

    async def next_game(self, result):
        await trio.sleep(0.6)  # meanwhile the other person left and a bot took the seat
        self.ending_names.append(dict(self.latest.names))
        return await super().next_game(result)


async def test_the_ending_keeps_the_names_of_who_played_after_someone_leaves(tmp_path):
    people = {"Ann": Reader(1, stay_for=5), "Bob": Person(2, stay_for=0)}
    results, _ = await _play(tmp_path, people, games=2)
    bob = results["Bob"]
    names = people["Ann"].ending_names[0]  # game 1's ending, on Ann's screen, after Bob left
    assert names[bob.seat] == "Bob", names
    assert results["Ann"].games[1].names[bob.seat] == f"greedy bot {bob.seat}"  # game 2 has the bot's name


async def test_a_client_that_sends_the_hosts_series_message_is_told_and_logged_and_the_host_goes_on(caplog):
    from jupai_net.protocol import ErrorMessage, Hello, Welcome, encode_frame

    from .test_net_support import RawClient

    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, bots=1, bot_delay=0.0, rounds=3, games=1))
        bad = await RawClient.connect(server.port)
        await bad.send(Hello("Mallory"))
        await bad.recv_until(Welcome)
        await bad.send_raw(encode_frame({"type": "series", "seq": 1, "series_id": b"\x00" * 16, "game": 1,
                                         "games": None, "final": True, "standings": []}))
        err = await bad.recv_until(ErrorMessage)
        assert err.code == "unknown-type" and "sent by the host" in err.message
        with trio.fail_after(30):  # the seat is free again and the host serves the next player
            res = await run_session("127.0.0.1", server.port, name="Ann", player=Person(3, stay_for=0),
                                    check_fingerprint=pin, save_resume=False, stay=True)
        nursery.cancel_scope.cancel()
    assert res.status == "finished" and res.verdict.status == VERIFIED
    assert any("protocol error unknown-type" in r.getMessage() for r in caplog.records)


async def test_a_host_whose_scoreboard_disagrees_with_the_signed_rankings_is_flagged(tmp_path, monkeypatch):
    """A hostile host sends a ``series`` scoreboard that gives its own bot 5 more points
    than the signed rankings give it. Every client recomputes the points from the
    signed ``end`` of each verified game, says the host is wrong, shows its own figures
    and keeps the dispute in the transcript's meta (the client's history)."""
    import dataclasses

    from jupai_net.host.table import Table

    honest = Table.series_message

    def inflated(self):
        msg = honest(self)
        standings = tuple(dataclasses.replace(st, points=st.points + 5) if st.name == "greedy bot 2" else st
                          for st in msg.standings)
        return dataclasses.replace(msg, standings=standings)

    monkeypatch.setattr(Table, "series_message", inflated)
    people = {"Ann": Person(1, stay_for=5), "Bob": Person(2, stay_for=5)}
    results, _ = await _play(tmp_path, people, games=2)
    for name, res in results.items():
        assert res.status == "finished" and len(res.games) == 2
        total: dict[str, int] = {}
        for g in res.games:
            names = g.result["names"]
            for seat, pts in enumerate(game_points(g.ranking, 3)):
                total[names[seat]] = total.get(names[seat], 0) + pts
        assert {s.name: s.points for s in res.series.standings} == total  # its own figures, not the host's
        flags = [n for n in res.view.notices if n.code == "series-mismatch"]
        assert flags and "greedy bot 2" in flags[-1].args["names"], res.view.notices
        for g in res.games:
            meta = decode_transcript(g.transcript_path.read_bytes()).meta
            assert meta["series_check"] == "host disagrees: greedy bot 2"


async def test_an_honest_scoreboard_raises_no_flag(tmp_path):
    people = {"Ann": Person(3, stay_for=5), "Bob": Person(4, stay_for=5)}
    results, _ = await _play(tmp_path, people, games=2)
    for res in results.values():
        assert not [n for n in res.view.notices if n.code == "series-mismatch"]
        assert all("series_check" not in decode_transcript(g.transcript_path.read_bytes()).meta for g in res.games)


def test_the_host_screen_ends_a_series_once_and_names_its_leader(tmp_path):
    """After the last game of a series the host printed the final scoreboard twice, said
    "every player left" when the series had simply been played out, and named the last
    game's winner instead of the series' leader (fresh-user trial)."""
    import io

    from rich.console import Console

    from jupai_net.host.cli import HostScreen
    from jupai_net.protocol import Series, SeriesStanding

    for lang, leader in (("en", "top of the series' scoreboard: Ming, 4 points"), ("zh", "系列赛积分榜首：Ming，4 分")):
        out = io.StringIO()
        screen = HostScreen(Console(file=out, width=80, color_system=None), games=2, lang=lang)
        standings = (SeriesStanding("Ming", 4, 1, 2, 2), SeriesStanding("Ann", 3, 1, 2, 3))
        screen(0, "series", {"message": Series(b"\x02" * 16, game=2, games=2, final=True, standings=standings)})
        screen(0, "end", {"result": {"reason": "emptied", "winner": 1, "ranking": [1, 0], "cards_left": [1, 0],
                                     "names": ["Ming", "Ann"]}})
        screen(0, "series-over", {"games": 2})
        line = screen.closing(tmp_path)
        text = out.getvalue()
        board = "final scoreboard" if lang == "en" else "最终积分榜"
        assert text.count(board) == 1, text
        assert "every player left" not in text and "所有玩家都已离开" not in text
        assert leader in line and "Ann (seat 1)" not in line and "Ann（1号位）" not in line, line


def test_the_host_screen_says_the_table_stays_open_when_everyone_left(tmp_path):
    """Issue 12: "every player left: the series is over" was all the host said, and then
    it played on with whoever sat down. It says what it does now: the table stays open
    for a new series (of the games left, with --games), in the console's language; when
    no game is left the host is closing and says nothing of a new series."""
    import io

    from rich.console import Console

    from jupai_net.host.cli import HostScreen

    for lang, left, said in (("en", None, "the table stays open: whoever sits down next starts a new series"),
                             ("en", 2, "the table stays open for the 2 games left: whoever sits down next starts a "
                                       "new series of them"),
                             ("zh", 1, "牌桌仍然开放，还剩 1 局：下一位入座的人开始新的系列赛"),
                             ("en", 0, None)):
        out = io.StringIO()
        screen = HostScreen(Console(file=out, width=200, color_system=None), lang=lang)
        screen(0, "series-over", {"games": 1, "left": left})
        lines = out.getvalue().splitlines()
        assert lines[0] in ("every player left: the series is over after 1 game", "所有玩家都已离开：系列赛在 1 局后结束")
        assert lines[1:] == ([said] if said else []), lines
