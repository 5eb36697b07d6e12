"""``dealer="auto"`` (the default of ``jupai host`` and ``jupai play``, issue 9): each
game deals blind when every seat's client speaks protocol version 4 and the house rules
allow it, else trusted, and every screen is told which scheme the next game uses
(``welcome``/``lobby`` ``dealer``, specs/protocol.md §4; specs/host.md § 2). An older
client is served trusted, named to everyone (``notice old-client``) and in the host's
log; it still gets valid messages of its own version."""

from __future__ import annotations

import logging

import pytest
import trio

from jupai_net.host.table import TableConfig
from jupai_net.protocol import (
    ClientConnection,
    ErrorMessage,
    Hello,
    HostConnection,
    LocalProtocolError,
    Lobby,
    Notice,
    Ready,
    RemoteProtocolError,
    Start,
    Sync,
    Welcome,
)
from jupai_net.rules import RuleSet

from .test_net_support import RawClient, TableHarness, host_config, pin, start_host


def auto_table(players: int = 3, *, bots: int = 1, **rules) -> TableHarness:
    h = TableHarness(TableConfig(rules=RuleSet(players=players, rounds=2, **rules), bots=bots, dealer="auto",
                                 ready_timeout=None))
    h.auto_seed = False  # the test drives the seeds itself (or stops at the start)
    return h


def test_auto_deals_blind_when_every_seat_speaks_version_4_and_says_so_before_the_game():
    h = auto_table()
    a, b = h.connect("Ann"), h.connect("Bob")
    assert h.table.next_dealer()[0] == "blind"
    assert h.last(a, Welcome).dealer == "blind" and h.last(b, Welcome).dealer == "blind"
    assert h.last(a, Lobby).dealer == "blind"
    h.ready_all(a, b)
    assert h.last(a, Start).dealer == "blind" and h.table.blind is not None and h.table.game_dealer == "blind"
    assert not [n for cid in (a, b) for n in h.all(cid, Notice) if n.code == "old-client"]


def test_an_old_client_makes_the_next_game_trusted_and_everyone_is_told_who(caplog):
    h = auto_table()
    a = h.connect("Ann")
    assert h.last(a, Lobby).dealer == "blind"
    with caplog.at_level(logging.INFO, logger="jupai.host"):
        old = h.connect("Old", version=3)
        said = [n for n in h.all(a, Notice) if n.code == "old-client"]
        assert len(said) == 1 and said[0].args == {"name": "Old", "seat": 1, "version": 3}
        assert said[0].text.startswith("Old's client (seat 1) speaks protocol version 3, which cannot deal blind")
        assert h.last(a, Lobby).dealer == "trusted"
        # the old client itself gets version-3 messages: the notice's English text alone,
        # and a welcome / lobby / start without the version-4 dealer key
        mine = [n for n in h.all(old, Notice) if n.code == "old-client"]
        assert len(mine) == 1 and mine[0].args == {} and "cannot deal blind" in mine[0].text
        assert h.last(old, Welcome).version == 3
        h.auto_seed = True
        h.ready_all(a, old)
        h.flush_later()
    assert h.table.game_dealer == "trusted" and h.table.blind is None
    assert h.last(a, Start).dealer == "trusted" and h.last(old, Start).dealer == "trusted"
    assert h.table.phase == "playing"  # the trusted deal went through (commit-reveal)
    assert "'Old' (seat 1, protocol version 3) cannot deal blind" in caplog.text
    assert "joined with protocol version 3" in caplog.text


def test_when_the_old_client_leaves_the_lobby_says_blind_again():
    h = auto_table()
    a = h.connect("Ann")
    old = h.connect("Old", version=3)
    assert h.last(a, Lobby).dealer == "trusted"
    h.drop(old)
    assert h.last(a, Lobby).dealer == "blind"
    b = h.connect("Bob")
    h.ready_all(a, b)
    assert h.last(b, Start).dealer == "blind"


def test_a_bot_client_of_version_4_deals_blind_and_a_spectator_never_decides():
    h = auto_table(4, bots=1)
    a = h.connect("Ann")
    h.connect("Old spectator", watch=True, version=3)  # spectators read the public stream only
    c = h.connect("Cy")
    d = h.connect("Dee")
    h.ready_all(a, c, d)
    assert h.table.game_dealer == "blind"


def test_hidden_identities_deal_trusted_under_auto_and_the_host_observes_why():
    seen = []
    h = auto_table(hidden_identities=True)
    h.table.observer = lambda kind, data: seen.append((kind, data))
    a, b = h.connect("Ann"), h.connect("Bob")
    assert h.last(a, Welcome).dealer == "trusted" and h.table.next_dealer()[1].code == "hidden-identities"
    assert not [n for n in h.all(a, Notice) if n.code == "old-client"]  # nobody's client is to blame
    h.auto_seed = True
    h.ready_all(a, b)
    assert h.last(a, Start).dealer == "trusted"
    start = next(data for kind, data in seen if kind == "start")
    assert start["dealer"] == "trusted" and start["why"]["code"] == "hidden-identities"


def test_an_old_client_cannot_take_back_a_seat_of_a_running_blind_game():
    h = auto_table()
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    assert h.table.game_dealer == "blind"
    token = h.last(a, Welcome).token
    h.drop(a)
    again = h.connect("Ann", token=token, version=3)
    err = h.closed[again]
    assert isinstance(err, ErrorMessage) and err.code == "blind-unsupported" and "protocol version 4" in err.message


def test_the_dealer_key_is_version_4_on_both_ends():
    rules = RuleSet(players=2)
    host, client = HostConnection(), ClientConnection()
    host.receive_data(client.send(Hello("Old", version=3, min_version=1)))
    host.next_event()
    with pytest.raises(LocalProtocolError, match="dealer needs protocol version 4"):
        host.send(Welcome(0, "t" * 32, rules, version=3, dealer="blind"))
    client.receive_data(host.send(Welcome(0, "t" * 32, rules, version=3)))
    assert client.next_event().dealer == "trusted"  # the key left out: the default
    with pytest.raises(LocalProtocolError, match="lobby.dealer needs protocol version 4"):
        host.send(Lobby((), dealer="blind"))
    # a client of version 3 refuses the key from a host that sends it anyway
    host.version = 4  # a host that ignores the negotiated version
    client.receive_data(host.send(Lobby((), dealer="blind")))
    with pytest.raises(RemoteProtocolError, match="lobby.dealer needs protocol version 4"):
        client.next_event()
    assert Lobby((), dealer="blind").to_wire(0)["dealer"] == "blind" and "dealer" not in Lobby(()).to_wire(0)


async def test_a_version_3_spectator_at_a_blind_table_gets_valid_messages_and_the_public_view(tmp_path):
    """Over TCP+TLS: a spectator whose client speaks version 3 watches a dealer-blind
    game: its connection (a version-3 ``ClientConnection``, which refuses any
    version-4 key) decodes every frame; ``start`` comes without ``dealer``; every
    ``sync`` is the public view in card ids, with no hand."""
    from jupai_net.client.bot import BotPlayer
    from jupai_net.client.session import run_session

    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, bots=1, dealer="blind", seed_timeout=10.0))
        spectator = await RawClient.connect(server.port)
        await spectator.send(Hello("Eve", version=3, min_version=3, watch=True))
        welcome = await spectator.recv()
        assert isinstance(welcome, Welcome) and welcome.version == 3 and welcome.seat is None
        with trio.fail_after(30):
            seat = await run_session("127.0.0.1", server.port, name="Ann", player=BotPlayer("random", seed=1),
                                     check_fingerprint=pin, save_resume=False)
        got = []
        with trio.fail_after(20):
            while not any(getattr(m, "type", "") == "end" for m in got):
                msg = await spectator.recv(timeout=20)
                assert msg is not None, "the host closed the spectator's connection"
                got.append(msg)
        nursery.cancel_scope.cancel()
    assert seat.status == "finished" and seat.view.dealer == "blind"
    starts = [m for m in got if isinstance(m, Start)]
    assert len(starts) == 1 and starts[0].dealer == "trusted"  # the key left out on a version-3 connection
    syncs = [m for m in got if isinstance(m, Sync)]
    assert syncs and all(s.observation["hand"] == [] and s.observation["seat"] is None for s in syncs)
    final = syncs[-1].observation
    shown = final["discard_pile"] if "discard_pile" in final else []
    assert all(isinstance(c, int) and 0 <= c < 53 for c in shown)
    assert not [m for m in got if isinstance(m, ErrorMessage)]
    kinds = {m.kind for m in got if m.type == "statement"}
    assert {"hellos", "blind"} <= kinds  # the public stream holds every blind message


async def test_a_client_at_an_auto_table_is_told_the_next_games_scheme_in_the_lobby(tmp_path):
    """The session keeps ``welcome.dealer`` as ``view.next_dealer`` and says it once in
    the lobby (``next-dealer-blind``), before the start's own ``dealer-blind`` line; at
    the start the lobby's line makes way (the running game's scheme is said)."""
    from jupai_net.client.bot import BotPlayer
    from jupai_net.client.session import run_session

    said: list[str] = []

    def seen(view) -> None:
        said.extend(n.code for n in view.notices if "dealer" in n.code and n.code not in said)

    async with trio.open_nursery() as nursery:
        server = await start_host(nursery, host_config(2, bots=1, dealer="auto", rounds=2))
        with trio.fail_after(30):
            r = await run_session("127.0.0.1", server.port, name="Ann", player=BotPlayer("random", seed=1, on_view=seen),
                                  check_fingerprint=pin, save_resume=False, transcript_path=tmp_path / "t.jupai")
        nursery.cancel_scope.cancel()
    assert r.status == "finished" and r.verdict.ok and r.verdict.details["scheme"] == "dealer-blind"
    assert r.view.next_dealer == "blind" and r.view.dealer == "blind"
    assert said[:2] == ["next-dealer-blind", "dealer-blind"], said
    assert [n.code for n in r.view.notices if "dealer" in n.code] == ["dealer-blind"]


@pytest.mark.parametrize("lang, blind, trusted", [
    ("en", "next game: dealer-blind (the host cannot see the players' cards)",
     "next game: trusted dealer (the host can see every hand)"),
    ("zh", "下一局：庄家盲发（主机看不到玩家的牌）", "下一局：可信庄家（主机能看到每一手牌）")])
def test_the_lobby_screen_names_the_next_games_scheme(lang, blind, trusted):
    from jupai_net.client.render import to_text
    from jupai_net.client.screen_lobby import render_lobby
    from jupai_net.client.session import NEXT_DEALER_NOTICES, NoticeLine
    from jupai_net.client.status_words import notice_text
    from jupai_net.protocol import PlayerInfo

    players = [PlayerInfo(0, "Ann")]
    assert blind in to_text(render_lobby(players, seat=0, total=4, dealer="blind", lang=lang), width=80)
    assert trusted in to_text(render_lobby(players, seat=0, total=4, dealer="trusted", lang=lang), width=80)
    assert "dealer" not in to_text(render_lobby(players, seat=0, total=4, lang="en"), width=80)  # not known yet
    for code, text in NEXT_DEALER_NOTICES.values():
        said = notice_text(NoticeLine(code, text, 0.0, False, None), lang)
        assert said == text if lang == "en" else said.startswith("下一局")


def test_the_events_of_each_sync_keep_the_objects_already_shown():
    """A dealer-blind seat rebuilds its log tail from every ``sync``: the events it
    already had keep their objects (a --plain player prints each event once) and the
    game's events accumulate past the tail."""
    from jupai_net.client.session import stable_events

    a, b, c, d = ({"kind": "round", "n": k} for k in range(4))
    old = (a, b, c)
    new = (dict(b), dict(c), dict(d))  # the same events, rebuilt, and one more
    merged = stable_events(old, new)
    assert merged == (a, b, c, d) and merged[1] is b and merged[2] is c
    assert stable_events((), new) is new
    assert stable_events((a,), (dict(c), dict(d))) == (c, d)  # no overlap: a new game's log
    assert stable_events(old, (dict(b), dict(c))) == old  # nothing new


def test_a_seat_that_drops_from_a_blind_game_is_waited_for_not_played_by_a_bot():
    """The notice tells the truth at a dealer-blind table: nobody can play the seat's
    cards, so the game waits for it (specs/host.md § A dealer-blind game)."""
    from jupai_net.messages.notices import notice_sentence

    h = auto_table()
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    assert h.table.game_dealer == "blind"
    h.drop(b)
    (left,) = [n for n in h.all(a, Notice) if n.code == "player-left"]
    assert left.args["then"] == "wait" and "a bot" not in left.text
    assert left.text == "Bob (seat 1) disconnected; the game waits for them to come back (nobody else can play their cards)"
    assert notice_sentence("player-left", left.args, "zh") == "Bob（1号位）断开了连接；牌局等待其重新连接（别人无法替其出牌）"


def test_each_game_of_a_series_decides_again():
    """Game 1 deals trusted (an old client sits there); it leaves after the game, a
    stand-in host bot takes its seat, and game 2 of the series deals blind."""
    h = TableHarness(TableConfig(rules=RuleSet(players=3, rounds=1), bots=1, dealer="auto", ready_timeout=None,
                                 turn_timeout=1.0, away_delay=0.0), games=2)
    a, old = h.connect("Ann"), h.connect("Old", version=3)
    h.ready_all(a, old)
    assert h.table.game_dealer == "trusted"
    h.advance(500.0)  # nobody moves: the default bot plays every turn to the end
    assert h.table.phase == "lobby" and h.table.games_done == 1
    h.drop(old)  # between games: a stand-in takes the seat
    assert h.table.seats[1] is not None and h.table.seats[1].stand_in
    assert h.last(a, Lobby).dealer == "blind"
    h.auto_seed = False
    h.send(a, Ready(True))
    assert h.table.game_dealer == "blind" and h.last(a, Start).dealer == "blind"


def test_notices_about_the_next_game_make_way_when_it_starts():
    """What was said of the next game (its scheme, a stand-in seated for it: "Alice left
    seat 0; greedy bot 0 takes the seat for the next game") is not kept on the screens of
    the game that bot already sits in (issue 12, trial of main); who left during a game
    (a bot plays for them now) and other notices stay."""
    from jupai_net.client.session import NoticeLine, for_next_game
    from jupai_net.messages.notices import notice_sentence

    left = {"name": "Alice", "seat": 0, "why": "left", "then": "stand-in", "stand_in": "greedy bot 0"}
    assert "takes the seat for the next game" in notice_sentence("player-left", left, "en")
    assert "下一局由 贪心机器人 0 坐这个座位" in notice_sentence("player-left", left, "zh")
    assert for_next_game(NoticeLine("player-left", "", 0.0, args=left))
    assert for_next_game(NoticeLine("bot-seated", "", 0.0, args={"name": "Alice", "seat": 0, "stand_in": "b"}))
    assert for_next_game(NoticeLine("next-dealer-blind", "", 0.0))
    assert not for_next_game(NoticeLine("player-left", "", 0.0, args={**left, "then": "bot"}))
    assert not for_next_game(NoticeLine("player-left", "", 0.0))
    assert not for_next_game(NoticeLine("dealer-blind", "", 0.0))
    assert not for_next_game(NoticeLine("player-joined", "", 0.0, args={"name": "Bo", "seat": 1}))
