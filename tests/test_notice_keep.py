"""Stale connection notices (specs/client.md § What the player sees, 9): a notice of
someone's presence in a seat, or of this client's connection, is replaced in its slot
by the newer one of the same subject — "Bob disconnected…" becomes "Bob is back" or
"a bot takes Bob's seat" — instead of staying on screen as if it were still true."""

from __future__ import annotations

import itertools

import pytest

from jupai_net.client.notice_keep import current, shown, subject
from jupai_net.client.session import NoticeLine
from jupai_net.client.status_words import notice_text
from jupai_net.client.ui import table_notices

_clock = itertools.count(1000)


def note(code: str, **args) -> NoticeLine:
    """A notice as the session keeps one (the host's English text is not what is shown)."""
    return NoticeLine(code, f"({code})", float(next(_clock)), False, args or None)


def lost(name="Bob", seat=1, then="reconnect") -> NoticeLine:
    return note("player-left", name=name, seat=seat, why="disconnected", then=then)


def back(name="Bob", seat=1) -> NoticeLine:
    return note("player-back", name=name, seat=seat)


def texts(notices, lang="en") -> list[str]:
    return [notice_text(n, lang) for n in table_notices(notices)]


def test_the_subject_of_a_notice():
    assert subject(lost()) == subject(back()) == ("seat", 1, "Bob")
    assert subject(note("bot-seated", name="Bob", seat=1, stand_in="greedy bot 2")) == ("seat", 1, "Bob")
    assert subject(note("blind-wait", name="Bob", seat=1, what="turn", seconds=30)) == ("seat", 1, "Bob")
    assert subject(note("player-joined", name="Bob", seat=1)) == ("seat", 1, "Bob")
    assert subject(lost("Bob", 2)) != subject(lost("Bob", 1)) != subject(lost("Ann", 1))
    assert subject(note("reconnecting", lost="eof")) == subject(note("reconnected")) == ("host",)
    assert subject(note("connection-stalled", seconds=3)) == subject(note("connection-back")) == ("host",)
    # events, and notices whose args do not name a person in a seat, have none
    assert subject(note("turn-timeout", name="Bob", seat=1, seconds=30, action=None)) is None
    assert subject(note("illegal-action")) is None
    assert subject(note("player-left", name="Bob", seat="1")) is None
    assert subject(note("player-left", name="Bob", seat=True)) is None
    assert subject(NoticeLine("player-back", "x", 0.0)) is None  # no args (an older host)


def test_back_replaces_lost_in_its_slot():
    timeout = note("turn-timeout", name="Ann", seat=0, seconds=30, action={"kind": "pass"})
    notices = [lost(), timeout]
    assert texts(notices) == ["Bob (seat 1) disconnected; a bot plays for them until they reconnect",
                              texts([timeout])[0]]
    notices.append(back())
    assert texts(notices) == ["Bob is back in seat 1", texts([timeout])[0]]  # the same line, changed
    assert texts(notices, "zh")[0] == "Bob 回到了1号位"
    assert [n.code for n in table_notices(notices)] == ["player-back", "turn-timeout"]


def test_a_bot_taking_the_seat_replaces_lost():
    notices = [lost(), note("bot-seated", name="Bob", seat=1, stand_in="greedy bot 2")]
    assert texts(notices) == ["greedy bot 2 takes seat 1 of Bob for the next game"]
    assert texts(notices, "zh") == ["下一局由 贪心机器人 2 接替 Bob 的1号位"]


def test_a_dealer_blind_wait_then_back():
    notices = [lost(then="wait"), note("blind-wait", name="Bob", seat=1, what="turn", seconds=60)]
    assert [n.code for n in table_notices(notices)] == ["blind-wait"]
    notices.append(back())
    assert [n.code for n in table_notices(notices)] == ["player-back"]


def test_other_people_and_events_keep_their_lines():
    t1 = note("turn-timeout", name="Bob", seat=1, seconds=30, action={"kind": "pass"})
    t2 = note("turn-timeout", name="Bob", seat=1, seconds=30, action={"kind": "pass"})
    notices = [lost("Ann", 0), lost("Bob", 1), t1, t2]
    assert current(notices) == list(enumerate(notices))  # nothing replaced: no subject twice
    notices.append(back("Ann", 0))
    slots = current(notices)
    assert [k for k, _ in slots] == [4, 1, 2, 3] and slots[0][1].code == "player-back"
    # the three shown are those whose news came last, in slot order: Ann's line (news
    # now) first, where it was; Bob's older notice gives way
    assert table_notices(notices) == [notices[4], t1, t2]


def test_an_old_notice_gone_from_screen_comes_back_updated_in_its_slot():
    joined = [note("player-joined", name=n, seat=s) for s, n in ((2, "Cy"), (3, "Dee"), (4, "Eve"))]
    notices = [lost(), *joined]
    assert table_notices(notices) == joined  # Bob's line has scrolled off
    notices.append(back())
    assert [n.code for n in table_notices(notices)] == ["player-back", "player-joined", "player-joined"]
    assert table_notices(notices)[1:] == joined[1:]


def test_own_connection_notes_are_one_line():
    notices = [note("connection-stalled", seconds=3), note("connection-back")]
    assert [n.code for n in table_notices(notices)] == ["connection-back"]
    notices += [note("reconnecting", lost="eof"), note("reconnected")]
    assert [n.code for n in table_notices(notices)] == ["reconnected"]


@pytest.mark.parametrize("keep", [0, 1, 3])
def test_shown_keeps_at_most_keep(keep):
    notices = [lost("A", 0), lost("B", 1), lost("C", 2), back("A", 0), lost("D", 3)]
    got = shown(notices, keep)
    assert len(got) == min(keep, 4)
    assert all(n.code != "player-left" or n.args["name"] != "A" for n in got)


def test_the_screens_show_back_not_lost():
    """The lobby and the table screen (80 columns) say Bob is back, not that he is away."""
    from jupai_net.client.layout import to_text
    from jupai_net.client.screen import render_view
    from jupai_net.client.screen_lobby import render_lobby
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    notices = [lost(), back()]
    lobby = " ".join(to_text(render_lobby([], notices=table_notices(notices), lang="en"), 80).split())
    assert "Bob is back in seat 1" in lobby and "disconnected" not in lobby, lobby
    game = play_game(RuleSet(players=2, rounds=4), rng_seed=1, max_steps=2, finish=False)
    obs = game.dealer.state.observation(0)
    screen = " ".join(to_text(render_view(obs, notices=table_notices(notices), names={0: "Ann", 1: "Bob"},
                                          lang="zh", width=80), 80).split())
    assert "Bob 回到了1号位" in screen and "断开" not in screen, screen
