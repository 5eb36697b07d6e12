"""The pure table logic (host/table.py), driven in memory through real protocol
connections: lobby, commit–reveal, turns, timers, rejects, reconnect (specs/host.md)."""

from __future__ import annotations

import pytest

from jupai_net.actions import Action
from jupai_net.fairness import VERIFIED
from jupai_net.host.table import TableConfig
from jupai_net.protocol import (
    ActionMessage,
    Chat,
    ChatRelay,
    End,
    ErrorMessage,
    Lobby,
    Notice,
    Ping,
    Pong,
    Prompt,
    Ready,
    Reject,
    SeedCommit,
    SeedReveal,
    Start,
    Statement,
    Sync,
    Welcome,
)
from jupai_net.rules import RuleSet

from .test_net_support import TableHarness


def harness(players: int = 2, **kw) -> TableHarness:
    kw.setdefault("turn_timeout", 10.0)
    kw.setdefault("away_delay", 1.0)
    return TableHarness(TableConfig(rules=RuleSet(players=players, rounds=kw.pop("rounds", 4)), **kw))


def play_out(h: TableHarness, cids: list[int], limit: int = 500) -> None:
    """Every prompted seat plays its first legal action until the game is over."""
    for _ in range(limit):
        if h.table.phase != "playing":
            return
        for cid in cids:
            p = h.prompt_for(cid)
            if p is not None:
                h.send(cid, ActionMessage(h.table.dealer.game_id, p.state_id, p.legal[0]))
                break
        else:
            h.advance(1.0)
    raise AssertionError("game did not end")


def test_lobby_seats_names_and_refusals():
    h = harness(3, bots=1)
    a = h.connect("Ann")
    assert h.last(a, Welcome).seat == 0 and h.last(a, Welcome).players[-1].bot
    b = h.connect("ann")  # names are compared without case
    assert h.closed[b].code == "name-taken"
    c = h.connect("Bob", seat=2)  # the bot's seat
    assert h.closed[c].code == "seat-taken"
    d = h.connect("Bob", seat=5)
    assert h.closed[d].code == "seat-taken" and "no seat 5" in h.closed[d].message
    e = h.connect("Bob")
    assert h.last(e, Welcome).seat == 1
    f = h.connect("Cy")
    assert h.closed[f].code == "table-full"
    g = h.connect("Dee", token="x" * 20)
    assert h.closed[g].code == "bad-token"
    lobby = h.last(a, Lobby)
    assert [(p.seat, p.name, p.bot) for p in lobby.players] == [(0, "Ann", False), (1, "Bob", False), (2, "greedy bot 2", True)]
    assert any(n.code == "player-joined" for n in h.all(a, Notice))
    h.drop(e)  # leaving the lobby frees the seat
    assert [p.seat for p in h.last(a, Lobby).players] == [0, 2]


def test_game_starts_when_all_ready_and_bots_commit_themselves():
    h = harness(3, bots=1)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.send(a, Ready(True))
    assert h.table.phase == "lobby"
    h.ready_all(b)
    assert h.table.phase == "playing"
    for cid in (a, b):
        kinds = [m.kind for m in h.all(cid, Statement)]
        assert kinds == ["start", "commitments", "seeds", "deal"]
        sync = h.last(cid, Sync)
        assert sync.state_id == 0 and sync.observation["seat"] == h.seat[cid]
    to_move = h.table.dealer.state.to_move
    prompted = [cid for cid in (a, b) if h.prompt_for(cid)]
    if to_move == 2:  # the bot's turn: played at the next tick
        assert prompted == []
        h.advance(0.0)
        assert h.table.dealer.state.version == 1
    else:
        assert [h.seat[c] for c in prompted] == [to_move]


def test_full_game_in_memory_verifies_for_every_seat():
    h = harness(4, bots=1)
    cids = [h.connect(n) for n in ("Ann", "Bob", "Cy")]
    h.ready_all(*cids)
    play_out(h, cids)
    for cid in cids:
        end = h.last(cid, End)
        assert end.reason == "finished" and sorted(end.result["ranking"]) == [0, 1, 2, 3]
        assert end.result["names"][3] == "greedy bot 3"
        assert h.witness[cid].verify().status == VERIFIED
        assert h.all(cid, Statement)[-1].kind == "end"
    assert h.table.phase == "lobby" and h.table.games_done == 1
    assert all(not p.ready for p in h.last(cids[0], Lobby).players if not p.bot)
    transcripts = h.table.transcripts()
    assert set(transcripts) == {0, 1, 2, 3}


def test_stale_action_is_rejected_with_a_full_sync_and_the_prompt_again():
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    cid = a if h.prompt_for(a) else b
    p = h.prompt_for(cid)
    gid = h.table.dealer.game_id
    h.send(cid, ActionMessage(gid, p.state_id, p.legal[0]))
    n_sync = len(h.all(cid, Sync))
    h.send(cid, ActionMessage(gid, p.state_id, p.legal[0]))  # replayed
    rej = h.last(cid, Reject)
    assert rej.code == "stale-state" and rej.state_id == p.state_id
    assert len(h.all(cid, Sync)) == n_sync + 1 and h.last(cid, Sync).state_id == h.table.dealer.state.version


def test_out_of_turn_wrong_game_and_card_not_held_are_rejected():
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    mover = a if h.prompt_for(a) else b
    other = b if mover == a else a
    gid = h.table.dealer.game_id
    version = h.table.dealer.state.version
    h.send(other, ActionMessage(gid, version, Action("pass")))
    assert h.last(other, Reject).code == "not-your-turn"
    h.inject(other, ActionMessage(bytes(16), version, Action("pass")))
    assert h.last(other, Reject).code == "wrong-game"
    p = h.prompt_for(mover)
    hand = set(h.last(mover, Sync).observation["hand"])
    foreign = next(c for c in range(52) if c not in hand)
    legal = next(x for x in p.legal if x.cards)
    bad = legal._replace(cards=(foreign,))
    h.send(mover, ActionMessage(gid, version, bad))
    rej = h.last(mover, Reject)
    assert rej.code == "illegal-action" and "not in your hand" in rej.message
    assert h.table.dealer.state.version == version  # nothing happened
    assert h.prompt_for(mover) is not None  # still its turn


def test_turn_timeout_plays_the_default_action_and_says_so():
    h = harness(2, turn_timeout=5.0)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    version = h.table.dealer.state.version
    h.advance(4.9)
    assert h.table.dealer.state.version == version
    h.advance(0.2)
    assert h.table.dealer.state.version == version + 1
    for cid in (a, b):
        note = h.last(cid, Notice)
        assert note.code == "turn-timeout"
        assert note.text.startswith("seat 0 (Ann) ran out of time (5 s); the host played for them: ") or \
            note.text.startswith("seat 1 (Bob) ran out of time (5 s); the host played for them: ")


def test_turn_timeout_on_the_last_move_is_announced_before_the_end():
    h = harness(2, turn_timeout=1.0, rounds=1)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    h.advance(2000.0)  # nobody acts: the host plays every move, the last one too
    assert h.table.phase == "lobby"
    for cid in (a, b):
        inbox = h.inbox[cid]
        end = max(i for i, m in enumerate(inbox) if isinstance(m, End))
        last_sync = max(i for i, m in enumerate(inbox[:end]) if isinstance(m, Sync))
        notes = [i for i, m in enumerate(inbox) if isinstance(m, Notice) and m.code == "turn-timeout"]
        assert any(last_sync < i < end for i in notes), "the final move's time-out is announced before the end"
        assert not any(i > end for i in notes)


def test_seed_timeout_abandons_the_game():
    h = harness(2, seed_timeout=3.0)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.auto_seed = False
    h.ready_all(a, b)
    assert h.table.phase == "seeding"
    h.advance(3.5)
    assert h.table.phase == "lobby"
    end = h.last(a, End)
    assert end.reason == "aborted" and "no seed in time from Ann (seat 0), Bob (seat 1)" in end.result["reason"]
    assert h.all(a, Statement)[-1].kind == "abandon"


def test_a_seed_that_does_not_open_its_commitment_abandons_and_blames():
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.auto_seed = False
    h.send(a, Ready(True))
    h.send(b, Ready(True))
    for cid in (a, b):
        w = h.witness[cid]
        from jupai_net.protocol import SeedCommit

        h.send(cid, SeedCommit(w.game_id, w.commitment))
    w = h.witness[a]
    h.send(a, SeedReveal(w.game_id, bytes(32)))
    assert h.last(a, Reject).code == "bad-commitment"
    end = h.last(b, End)
    assert end.reason == "aborted" and "Ann (seat 0) revealed a seed that does not match" in end.result["reason"]


def test_early_reveal_and_second_commitment_are_rejected():
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.auto_seed = False
    h.ready_all(a, b)
    from jupai_net.protocol import SeedCommit

    w = h.witness[a]
    h.send(a, SeedReveal(w.game_id, w.seed))  # before every commitment is in
    assert h.last(a, Reject).code == "bad-commitment"
    h.send(a, SeedCommit(w.game_id, w.commitment))
    n = len(h.inbox[a])
    h.send(a, SeedCommit(w.game_id, w.commitment))  # the same again: ignored
    assert len(h.inbox[a]) == n
    h.send(a, SeedCommit(w.game_id, bytes(32)))
    assert h.last(a, Reject).code == "bad-commitment"


def test_disconnected_player_is_played_by_a_bot_and_gets_everything_back():
    h = harness(2, away_delay=1.0)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    token = h.last(a, Welcome).token
    # let a few moves happen
    for _ in range(3):
        for cid in (a, b):
            p = h.prompt_for(cid)
            if p:
                h.send(cid, ActionMessage(h.table.dealer.game_id, p.state_id, p.legal[0]))
                break
    h.drop(a)
    assert any(n.code == "player-left" for n in h.all(b, Notice))
    assert [p.connected for p in h.last(b, Lobby).players] == [False, True]
    v = h.table.dealer.state.version
    # Bob plays his turns; Ann's are played by the bot after the away delay
    for _ in range(6):
        p = h.prompt_for(b)
        if p:
            h.send(b, ActionMessage(h.table.dealer.game_id, p.state_id, p.legal[0]))
        else:
            h.advance(1.0)
    assert h.table.dealer.state.version > v + 2 or h.table.phase == "lobby"
    if h.table.phase != "playing":
        pytest.skip("the game ended before the reconnect")  # pragma: no cover - 4 rounds are longer
    a2 = h.connect("whatever", token=token, resume=a)
    seat = h.last(a2, Welcome).seat
    assert seat == 0
    assert isinstance(h.inbox[a2][0], Welcome) and h.last(a2, Start).game_id == h.table.dealer.game_id
    stmts = h.all(a2, Statement)
    assert len(stmts) == len(h.table._streams[0])  # the whole stream again
    assert h.last(a2, Sync).state_id == h.table.dealer.state.version
    assert any(n.code == "player-back" for n in h.all(b, Notice))
    # the kept witness took the missing statements from the resend; it verifies at the end
    play_out(h, [a2, b])
    assert h.witness[a2].verify().status == VERIFIED


def test_token_from_a_second_connection_replaces_the_first():
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    token = h.last(a, Welcome).token
    a2 = h.connect("Ann", token=token)
    assert h.closed[a].code == "kicked"
    assert h.last(a2, Welcome).seat == 0
    h.ready_all(a2, b)
    assert h.table.phase == "playing"


def test_game_running_refuses_newcomers_and_ping_chat_work():
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    c = h.connect("Cy")
    assert h.closed[c].code == "game-running"
    h.send(a, Ping(7))
    assert h.last(a, Pong).nonce == 7
    h.send(a, Chat("good luck"))
    for cid in (a, b):
        line = h.last(cid, ChatRelay)
        assert (line.seat, line.name, line.text) == (0, "Ann", "good luck")


def test_chat_is_rate_limited():
    h = harness(2, chat_burst=3, chat_rate=1.0)
    a, b = h.connect("Ann"), h.connect("Bob")
    for k in range(5):
        h.send(a, Chat(f"line {k}"))
    assert [m.text for m in h.all(b, ChatRelay)] == ["line 0", "line 1", "line 2"]
    assert h.last(a, Notice).code == "chat-throttled"
    h.now += 2.0
    h.send(a, Chat("later"))
    assert h.last(b, ChatRelay).text == "later"


def test_config_is_validated():
    with pytest.raises(ValueError, match="bots must be 0..3"):
        TableConfig(rules=RuleSet(players=4), bots=4)
    with pytest.raises(ValueError, match="unknown bot"):
        TableConfig(bot="genius")
    with pytest.raises(ValueError, match="turn timeout"):
        TableConfig(turn_timeout=0)


def test_error_close_has_a_clear_message():
    h = harness(2)
    h.connect("Ann")
    h.connect("Bob")
    c = h.connect("Cy")
    err = h.closed[c]
    assert isinstance(err, ErrorMessage) and err.code == "table-full" and "2 seats" in err.message
    assert h.table.seat_of(c) is None
    assert isinstance(h.inbox[0][0], Welcome) and isinstance(h.inbox[0][1], Lobby)
    assert not any(isinstance(m, Prompt) for m in h.inbox[0])


def _to_move_cid(h: TableHarness, cids: dict[int, int]) -> tuple[int, int]:
    seat = h.table.dealer.state.to_move
    return seat, cids[seat]


def test_reconnecting_every_half_turn_does_not_stretch_the_turn():
    """Issue 8 §2: a seat that says hello with its token every half turn (its old
    connection kicked each time) still gets the default move at the ORIGINAL deadline,
    and each resent prompt says how much time is left."""
    h = harness(2, turn_timeout=3.0)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    tokens = {0: h.last(a, Welcome).token, 1: h.last(b, Welcome).token}
    cids = {0: a, 1: b}
    seat, cid = _to_move_cid(h, cids)
    version = h.table.dealer.state.version
    assert h.prompt_for(cid).timeout_ms == 3000
    lefts = []
    for _ in range(3):  # at 1.5 s, 3.0 s … the turn is over at 3.0 s whatever happens
        h.advance(1.45)
        if h.table.dealer.state.version != version:
            break
        new = h.connect("again", token=tokens[seat], resume=cid)
        assert h.closed[cid].code == "kicked"
        cid = cids[seat] = new
        prompt = h.prompt_for(cid)
        if prompt is not None:
            lefts.append(prompt.timeout_ms)
    assert h.table.dealer.state.version == version + 1  # the default move was played…
    assert h.now <= 3.0 + 1e-9 or lefts  # …by 3 s from the first prompt
    assert lefts and all(ms <= 1600 for ms in lefts), lefts  # resent with the time left, not 3000
    notes = [n for n in h.all(cids[1 - seat], Notice) if n.code == "turn-timeout"]
    assert notes and notes[-1].text.startswith(f"seat {seat} ")


def test_a_reconnect_after_the_deadline_gets_no_new_turn():
    h = harness(2, turn_timeout=2.0, away_delay=5.0)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    cids = {0: a, 1: b}
    tokens = {0: h.last(a, Welcome).token, 1: h.last(b, Welcome).token}
    seat, cid = _to_move_cid(h, cids)
    version = h.table.dealer.state.version
    h.drop(cid)  # gone during its turn: the away bot waits 5 s
    h.now += 2.5  # past the turn's deadline, before the away bot
    new = h.connect("again", token=tokens[seat], resume=cid)
    assert h.prompt_for(new) is None or h.prompt_for(new).timeout_ms <= 1
    h.advance(0.01)
    assert h.table.dealer.state.version == version + 1  # played at once, no fresh 2 s


def test_reconnects_are_rate_limited_per_seat():
    h = harness(2, turn_timeout=30.0)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    token = h.last(a, Welcome).token
    cid = a
    refused = None
    for i in range(8):
        new = h.connect("again", token=token, resume=cid)
        if h.closed.get(new) is not None and getattr(h.closed[new], "code", "") == "reconnect-limit":
            refused = i
            break
        cid = new
    assert refused == 5  # five at once, then refused…
    assert cid not in h.closed  # …and the live connection keeps the seat
    h.advance(6.5)
    again = h.connect("again", token=token, resume=cid)
    assert h.last(again, Welcome).seat == 0  # one more after 6 s


# --- spectators (hello.watch, specs/protocol.md §12) ------------------------------------


def test_a_spectator_watches_a_whole_game_from_the_lobby_and_verifies_it():
    h = harness(3, bots=1)
    a = h.connect("Ann")
    w = h.connect("Wu", watch=True)
    welcome = h.last(w, Welcome)
    assert welcome.seat is None and [p.name for p in welcome.players] == ["Ann", "greedy bot 2"]
    assert h.last(w, Lobby).players == welcome.players
    assert any(n.code == "spectator-joined" and "Wu is watching (1 spectator)" in n.text for n in h.all(a, Notice))
    assert not any(n.code == "spectator-joined" for n in h.all(w, Notice))  # not told about itself
    assert h.table.accepting  # a spectator takes no seat
    b = h.connect("Bob")
    assert h.last(b, Welcome).seat == 1  # the seat after Ann: the spectator holds none
    h.ready_all(a, b)
    assert h.table.phase == "playing"
    play_out(h, [a, b])
    kinds = [m.kind for m in h.all(w, Statement)]
    assert kinds[:4] == ["start", "commitments", "seeds", "deal"] and kinds[-1] == "end"
    syncs = h.all(w, Sync)
    assert len(syncs) == h.table.dealer.state.version + 1  # the deal, then one per action
    for sync in syncs:
        assert sync.observation["seat"] is None and sync.observation["hand"] == []
    assert not h.all(w, Prompt)
    end = h.last(w, End)
    assert end.reason == "finished" and sorted(end.result["ranking"]) == [0, 1, 2]
    assert h.witness[w].verify().status == VERIFIED
    # the spectator stays for the next game, like the seats
    assert h.table.knows(w) and h.table.spectators == {w: "Wu"}


def test_a_spectator_joining_mid_game_gets_the_public_story_so_far_and_verifies():
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    for _ in range(5):  # a few moves before the spectator comes
        for cid in (a, b):
            p = h.prompt_for(cid)
            if p is not None:
                h.send(cid, ActionMessage(h.table.dealer.game_id, p.state_id, p.legal[0]))
                break
    version = h.table.dealer.state.version
    assert version >= 3
    w = h.connect("Wu", watch=True)
    msgs = h.inbox[w]
    types = [type(m).__name__ for m in msgs]
    assert types[:3] == ["Welcome", "Lobby", "Start"]
    assert [m.kind for m in msgs if isinstance(m, Statement)][:4] == ["start", "commitments", "seeds", "deal"]
    assert sum(isinstance(m, Statement) and m.kind == "step" for m in msgs) == version
    assert isinstance(msgs[-1], Sync) and msgs[-1].state_id == version and msgs[-1].observation["hand"] == []
    play_out(h, [a, b])
    assert h.last(w, End).reason == "finished"
    assert h.witness[w].verify().status == VERIFIED


def test_spectators_are_capped_with_a_clear_refusal():
    h = harness(2, max_spectators=8)
    a = h.connect("Ann")
    watchers = [h.connect(f"w{k}", watch=True) for k in range(8)]
    assert all(h.last(c, Welcome).seat is None for c in watchers)
    ninth = h.connect("w8", watch=True)
    err = h.closed[ninth]
    assert err.code == "spectators-full"
    assert err.message == "this table already has 8 spectators, the most it takes; try again when one leaves"
    assert len(h.table.spectators) == 8 and not h.table.knows(ninth)
    h.drop(watchers[0])  # one leaves: there is room again, and the others are told
    assert any(n.code == "spectator-left" and "w0 stopped watching (7 spectators left)" in n.text for n in h.all(a, Notice))
    again = h.connect("w9", watch=True)
    assert h.last(again, Welcome).seat is None
    none = harness(2, max_spectators=0)
    c = none.connect("w", watch=True)
    assert none.closed[c].code == "spectators-full" and "takes no spectators" in none.closed[c].message
    with pytest.raises(ValueError, match="max spectators"):
        TableConfig(max_spectators=-1)
    with pytest.raises(ValueError, match="max spectators"):
        TableConfig(max_spectators=True)


def test_a_spectator_cannot_chat_act_seed_or_ready():
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    w = h.connect("Wu", watch=True)
    h.send(w, Ready(True))  # ignored: no lobby change
    assert not any(p.ready for p in h.last(a, Lobby).players)
    h.ready_all(a, b)
    h.send(w, Chat("Ann holds 7♥"))
    assert h.last(w, Notice).code == "spectator-readonly"
    assert not h.all(a, ChatRelay) and not h.all(b, ChatRelay)
    game_id = h.table.dealer.game_id
    p = h.prompt_for(a) or h.prompt_for(b)
    version = h.table.dealer.state.version
    h.send(w, ActionMessage(game_id, p.state_id, p.legal[0]))
    rej = h.last(w, Reject)
    assert rej.code == "not-your-turn" and rej.message == "a spectator holds no seat"
    assert h.table.dealer.state.version == version  # nothing was played
    h.inject(w, SeedReveal(game_id, b"\x01" * 32))
    assert h.last(w, Reject).code == "not-your-turn" and h.table.phase == "playing"
    h.send(w, Ping(7))
    assert h.last(w, Pong).nonce == 7
    # players' chat reaches the spectator
    h.send(a, Chat("good luck"))
    assert h.last(w, ChatRelay).text == "good luck"


def test_a_spectator_joining_during_the_seed_exchange_sees_the_rest_and_verifies():
    h = harness(2)
    h.auto_seed = False
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    assert h.table.phase == "seeding"
    w = h.connect("Wu", watch=True)
    assert [type(m).__name__ for m in h.inbox[w]][:3] == ["Welcome", "Lobby", "Start"]
    assert [m.kind for m in h.all(w, Statement)] == ["start"]
    assert not h.all(w, Sync)  # nothing dealt yet
    for cid in (a, b):
        h.send(cid, SeedCommit(h.witness[cid].game_id, h.witness[cid].commitment))
    for cid in (a, b):
        h.send(cid, SeedReveal(h.witness[cid].game_id, h.witness[cid].seed_reveal()))
    assert h.table.phase == "playing"
    assert [m.kind for m in h.all(w, Statement)] == ["start", "commitments", "seeds", "deal"]
    assert h.last(w, Sync).state_id == 0
    play_out(h, [a, b])
    assert h.witness[w].verify().status == VERIFIED


def test_a_spectator_after_nobody_watched_gets_the_same_signed_story():
    """The public stream is signed only while someone watches (specs/host.md §
    Spectators): a spectator who comes after a gap with nobody watching gets every
    statement so far, the ones the first spectator got byte for byte, and verifies."""
    h = harness(2)
    a, b = h.connect("Ann"), h.connect("Bob")
    w1 = h.connect("Wu", watch=True)
    h.ready_all(a, b)

    def moves(n: int) -> None:
        for _ in range(n):
            for cid in (a, b):
                p = h.prompt_for(cid)
                if p is not None:
                    h.send(cid, ActionMessage(h.table.dealer.game_id, p.state_id, p.legal[0]))
                    break

    moves(2)
    first = h.all(w1, Statement)
    h.drop(w1)
    moves(3)  # nobody watches
    w2 = h.connect("Mei", watch=True)
    second = h.all(w2, Statement)
    assert second[:len(first)] == first
    assert sum(m.kind == "step" for m in second) == h.table.dealer.state.version
    play_out(h, [a, b])
    assert h.last(w2, End).reason == "finished"
    assert h.witness[w2].verify().status == VERIFIED
