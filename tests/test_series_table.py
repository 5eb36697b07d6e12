"""Games in a row at one table (host/table.py; specs/host.md § 3a): the series
scoreboard before each end, stand-in bots for people who leave between games, a
newcomer taking a stand-in's seat, the series ending when everyone left."""

from __future__ import annotations

import pytest

from jupai_net.fairness import VERIFIED
from jupai_net.fairness.transcript import decode_transcript
from jupai_net.host.table import TableConfig
from jupai_net.protocol import (
    PROTOCOL_VERSION,
    ClientConnection,
    End,
    Hello,
    HostConnection,
    LocalProtocolError,
    Lobby,
    Notice,
    Ready,
    RemoteProtocolError,
    Series,
    SeriesStanding,
    Start,
    Welcome,
)
from jupai_net.rules import RuleSet
from jupai_net.series import game_points

from .test_net_support import TableHarness
from .test_net_table import play_out
from .test_protocol_support import deliver, frame


def harness(players: int = 3, games: int | None = 3, **kw) -> TableHarness:
    kw.setdefault("turn_timeout", 10.0)
    return TableHarness(TableConfig(rules=RuleSet(players=players, rounds=3), bots=1, **kw), games=games)


def test_two_games_in_a_row_each_with_its_scoreboard_before_its_end():
    h = harness()
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    first = h.table.dealer.game_id
    seeds = {a: h.witness[a].seed, b: h.witness[b].seed}
    play_out(h, [a, b])
    for cid in (a, b):
        assert h.witness[cid].verify().status == VERIFIED
        kinds = [type(m).__name__ for m in h.inbox[cid]]
        end = len(kinds) - 1 - kinds[::-1].index("End")
        assert kinds[end - 1] == "Series"  # the scoreboard comes right before the end
    series = h.last(a, Series)
    ranking = h.last(a, End).result["ranking"]
    points = game_points(ranking, 3)
    names = ["Ann", "Bob", "greedy bot 2"]
    assert series.game == 1 and series.games == 3 and not series.final
    assert {s.name: s.points for s in series.standings} == {names[s]: points[s] for s in range(3)}
    assert [s.points for s in series.standings] == sorted(points, reverse=True)
    assert h.table.phase == "lobby"
    # the next game starts only when every person is ready again
    h.ready_all(a)
    assert h.table.phase == "lobby"
    h.ready_all(b)
    assert h.table.phase == "playing" and h.table.dealer.game_id != first
    assert h.witness[a].seed != seeds[a] and h.witness[b].seed != seeds[b]  # a fresh seed per game
    play_out(h, [a, b])
    second = h.last(b, Series)
    assert second.game == 2 and second.series_id == series.series_id
    assert sum(s.points for s in second.standings) == 2 * 3 and h.witness[b].verify().status == VERIFIED
    meta = decode_transcript(h.table.transcripts({"table": "t"})[0]).meta
    assert meta["series"] == series.series_id.hex() and meta["game"] == "2" and meta["names"][0] == "Ann"


def test_a_player_who_leaves_between_games_is_replaced_by_a_bot_and_a_newcomer_takes_the_seat_back():
    h = harness()
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    play_out(h, [a, b])
    h.ready_all(a)
    h.drop(b)  # Bob leaves between games (q, a closed connection): a stand-in takes seat 1
    h.flush_later(), h.flush_later()
    assert h.table.phase == "playing"  # Ann was ready: the next game starts at once
    lobby = h.all(a, Lobby)[-1]
    assert [(p.seat, p.name, p.bot) for p in lobby.players] == [(0, "Ann", False), (1, "greedy bot 1", True),
                                                                (2, "greedy bot 2", True)]
    assert any("greedy bot 1 takes the seat" in n.text for n in h.all(a, Notice))
    play_out(h, [a])
    board = {s.name: s for s in h.last(a, Series).standings}
    assert board["Bob"].last is None and board["Bob"].played == 1 and board["greedy bot 1"].played == 1
    assert h.witness[a].verify().status == VERIFIED
    events = []
    h.table.observer = lambda kind, data: events.append((kind, data))
    h.table._lobby()
    assert events[-1][1]["free"] == 1  # announced on the LAN as a free seat: the stand-in's
    c = h.connect("Cy")  # between games a newcomer takes the stand-in's seat
    assert h.last(c, Welcome).seat == 1
    assert [d["free"] for k, d in events if k == "lobby"][-1] == 0
    assert [p.name for p in h.last(a, Lobby).players] == ["Ann", "Cy", "greedy bot 2"]


def test_the_series_ends_when_everyone_left_and_the_stand_ins_go():
    h = harness(games=3)
    said = []
    h.table.observer = lambda kind, data: said.append((kind, data))
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    old = h.table.series.series_id
    play_out(h, [a, b])
    h.drop(a)
    assert h.table.seats[0].stand_in and not h.table.deserted
    h.drop(b)
    assert h.table.deserted and h.table.phase == "lobby"
    assert h.table.seats[0] is None and h.table.seats[1] is None and h.table.seats[2].bot
    assert h.table.series.series_id != old and h.table.series.played == 0
    assert h.table.series.games == 2  # the new series: the games the host has left to play
    assert ("series-over", {"games": 1, "left": 2}) in said  # the host screen says the table stays open for them
    c = h.connect("Cy")  # a new series, from an empty lobby: seats are free, not stood in for
    assert h.last(c, Welcome).seat == 0


def test_the_last_game_of_the_series_is_final_and_an_abandoned_game_scores_nothing():
    h = harness(games=2)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    play_out(h, [a, b])
    h.ready_all(a, b)
    h.table.stop_game(h.now, "the host was stopped")
    h.pump()
    last = h.last(a, Series)
    assert last.game == 2 and last.final and all(s.last is None for s in last.standings)
    assert sum(s.points for s in last.standings) == 3  # only the first game scored
    assert h.last(a, End).reason == "aborted"


def test_the_announcement_counts_a_stand_in_seat_as_free():
    import trio

    from jupai_net.host.cli import announce_update

    send, recv = trio.open_memory_channel(4)
    announce_update(send, "lobby", {"players": (1, 2, 3), "seats": 3, "free": 1}, 3)
    announce_update(send, "lobby", {"players": (1, 2), "seats": 3}, 3)  # an observer without the count
    assert [recv.receive_nowait(), recv.receive_nowait()] == [(1, "lobby"), (1, "lobby")]


def test_a_series_message_goes_only_to_version_3_and_a_bad_one_is_a_protocol_error():
    msg = Series(b"\x05" * 16, 1, None, False, (SeriesStanding("Ann", 1, 1, 1, 1),))
    for version in (1, 2):
        c, h = ClientConnection(), HostConnection()
        deliver(c, h, Hello("Ann", version=version, min_version=1))
        deliver(h, c, Welcome(seat=0, token="t" * 20, rules=RuleSet(players=2), version=version))
        with pytest.raises(LocalProtocolError, match="version 3"):
            h.send(msg)
        c.receive_data(frame(msg, c.their_seq))  # a host that sends it anyway broke the protocol
        with pytest.raises(RemoteProtocolError, match="unexpected-message"):
            c.next_event()
    c, h = ClientConnection(), HostConnection()
    deliver(c, h, Hello("Ann"))
    deliver(h, c, Welcome(seat=0, token="t" * 20, rules=RuleSet(players=2), version=PROTOCOL_VERSION))
    assert deliver(h, c, msg) == msg
    bad = {"type": "series", "seq": c.their_seq, "series_id": b"\x05" * 16, "game": 0, "games": None,
           "final": False, "standings": []}
    from jupai_net.protocol import encode_frame

    c.receive_data(encode_frame(bad))
    with pytest.raises(RemoteProtocolError, match="bad-field.*game"):
        c.next_event()
    twice = SeriesStanding("Ann", 1, 0, 1, None).to_wire()
    for standings, why in (([twice, twice], "names a player twice"), ([{"name": "Ann"}], "missing"),
                           ([{**twice, "last": 9}], "last")):
        c2, h2 = ClientConnection(), HostConnection()
        deliver(c2, h2, Hello("Ann"))
        deliver(h2, c2, Welcome(seat=0, token="t" * 20, rules=RuleSet(players=2), version=PROTOCOL_VERSION))
        c2.receive_data(encode_frame({**bad, "seq": c2.their_seq, "game": 1, "standings": standings}))
        with pytest.raises(RemoteProtocolError, match=why):
            c2.next_event()


def test_a_client_cannot_send_a_series_message_and_the_host_says_so():
    h = HostConnection()
    c = ClientConnection()
    deliver(c, h, Hello("Ann"))
    h.send(Welcome(seat=0, token="t" * 20, rules=RuleSet(players=2), version=PROTOCOL_VERSION))
    from jupai_net.protocol import encode_frame

    h.receive_data(encode_frame({"type": "series", "seq": 1, "series_id": b"\x05" * 16, "game": 1, "games": None,
                                 "final": False, "standings": []}))
    with pytest.raises(RemoteProtocolError, match="unknown-type.*sent by the host"):
        h.next_event()


def test_the_waiting_list_keeps_a_stand_ins_seat_and_holds_the_next_game_for_its_person():
    """specs/host.md § 3a, the waiting list: Bob leaves between games (a stand-in takes
    seat 1, the next game starts with it); his hello during that game is refused
    ``game-running`` but keeps seat 1 for him ("you take seat 1 at the next game"). When
    the game ends the next one waits for him: a newcomer cannot take the kept seat, and
    Bob's next hello seats him in it; a person who stops asking loses the place after
    ``WAIT_KEEP`` and the game starts without him."""
    from jupai_net.protocol import ErrorMessage

    h = harness(games=None)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    play_out(h, [a, b])
    h.ready_all(a)
    h.drop(b)  # Bob leaves: greedy bot 1 stands in for him; the game starts at once
    h.flush_later(), h.flush_later()
    assert h.table.phase == "playing"
    back = h.connect("Bob")
    said = h.inbox[back][-1]
    assert isinstance(said, ErrorMessage) and said.code == "game-running"
    assert "you take seat 1 at the next game" in said.message
    assert said.args == {"seat": 1}  # as data (protocol version 7), the words for older clients
    from jupai_net.client.session import kept_seat

    assert kept_seat(said) == 1
    play_out(h, [a])
    h.ready_all(a)
    assert h.table.phase == "lobby"  # the next game waits for Bob
    other = h.connect("Cy")  # the kept seat is no newcomer's: the table is full for Cy
    assert h.inbox[other][-1].code == "table-full"
    bob = h.connect("Bob")
    assert h.last(bob, Welcome).seat == 1 and h.table.phase == "lobby"
    h.ready_all(bob)
    assert h.table.phase == "playing" and h.table.names()[1] == "Bob"
    # a person who stops asking: the place lapses and the game goes on without them
    play_out(h, [a, bob])
    h.ready_all(a)
    h.drop(bob)
    h.flush_later(), h.flush_later()
    assert h.table.phase == "playing"
    h.connect("Bob")  # once, then gone
    play_out(h, [a])
    h.ready_all(a)
    assert h.table.phase == "lobby"
    h.advance(h.table.WAIT_KEEP + 1)
    h.flush_later(), h.flush_later()
    assert h.table.phase == "playing" and not h.table.waiting


def test_the_waiting_list_promises_no_seat_to_a_name_taken_at_the_table():
    """A ``hello`` during a game with the name of someone seated at the table (Ann's
    second device, or a friend with her name) gets the plain ``game-running`` refusal,
    no place on the waiting list: in the lobby that name is refused (``name-taken``),
    so "you take seat 1 at the next game" was a promise the host then broke, and the
    next game waited for a person who could never sit down."""
    from jupai_net.protocol import ErrorMessage

    h = harness(games=None)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    play_out(h, [a, b])
    h.ready_all(a)
    h.drop(b)  # Bob leaves: a stand-in takes seat 1, the next game starts with it
    h.flush_later(), h.flush_later()
    assert h.table.phase == "playing"
    twin = h.connect("ANN")
    said = h.inbox[twin][-1]
    assert isinstance(said, ErrorMessage) and said.code == "game-running"
    assert "you take seat" not in said.message and not h.table.waiting
    bot = h.table.seats[1].name  # nor a stand-in's name: that seat would take it back in the lobby
    h.connect(bot)
    assert not h.table.waiting
    play_out(h, [a])
    h.ready_all(a)
    assert h.table.phase == "playing"  # the next game waits for nobody
