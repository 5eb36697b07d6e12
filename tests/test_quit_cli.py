"""``/quit`` during a game says what it does to the others (issue 12): at a dealer-blind
table nobody else can play the seat's cards, so leaving ends the game for everyone —
``jupai join`` asks first (``Leave? [y/N]``) and the others read why their game ended;
at a trusted table a bot plays the seat while its person is away, and the leaver is told so (specs/
client.md § Keys) — through ``jupai join`` on a terminal."""

from __future__ import annotations

import os

import pytest

from .pty_helpers import PtyJupai
from .test_net_hardening import HostProcess
from .test_net_play import env_for


def _join(tmp_path, host, name: str, lang: str, seat: int) -> PtyJupai:
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / name))
    return PtyJupai(["join", host.addr, "--code", host.code, "--name", name, "--lang", lang, "--seat", str(seat)],
                    env, rows=40, columns=100)


def test_quit_in_a_dealer_blind_game_asks_first_and_the_others_are_told_why(tmp_path):
    """Ann (en) types /quit: asked, Enter keeps her at the table; /quit and y leaves, the
    host abandons the game naming her, and Bob (zh) reads why in Chinese."""
    host = HostProcess(tmp_path, "--no-announce", "--dealer", "blind", "--seats", "3", "--bots", "1",
                       "--bot-delay", "0", "--rounds", "2", "--turn-timeout", "60", "--games", "1")
    ann = bob = None
    try:
        ann, bob = _join(tmp_path, host, "Ann", "en", 0), _join(tmp_path, host, "Bob", "zh", 1)
        ann.wait_for(r"Round 1/2", timeout=30)
        bob.wait_for(r"第 1/2 回合", timeout=30)
        seen, mark = ann.mark(), len(host.lines)
        ann.type("/quit\r")
        ann.wait_for(r"Leaving ends this game for everyone: the deal is dealer-blind, so nobody else can play "
                     r"your cards\.\s*(?:⏱ \d+ s left )?Leave\? \[y/N\]", after=seen)  # the timer's, at her turn
        ann.type("\r")  # Enter: no
        ann.wait_for(r"You stay at the table\.", after=seen)
        assert ann.proc.poll() is None and "left" not in "".join(host.lines[mark:])
        seen = ann.mark()
        ann.type("/quit\r")
        ann.wait_for(r"Leave\? \[y/N\]", after=seen)
        ann.type("y\r")
        ann.wait_for(r"Leaving the table: the host ends this game for everyone\.", after=seen)
        code = ann.finish(30)
        host.wait_for(r"game abandoned: Ann \(seat 0\) left the dealer-blind game \(they chose to leave\)", after=mark)
        bob.wait_for(r"Ann（0号位）离开了盲发牌对局（主动离开）；没有人能替其出牌", timeout=20)
    finally:
        for p in (ann, bob):
            if p is not None:
                p.kill()
        host.kill()
    assert code == 1, ann.text[-2000:]  # left during the game: unverified
    assert "Traceback" not in ann.text + bob.text
    assert "chose to leave" not in bob.text  # in Bob's language


class _Control:
    """The session control's part a /quit uses."""

    def __init__(self):
        self.left = False

    def leave(self):
        self.left = True


@pytest.mark.parametrize("dealer, other, asks, said", [
    ("blind", "person", True, "Leaving the table: the host ends this game for everyone."),
    ("blind", "bot", False, ""),  # `jupai play`: only the host's bots lose their game
    ("trusted", "person", False, "Leaving the table: a bot plays your seat while you are away."),
])
async def test_quit_asks_only_when_it_ends_a_dealer_blind_game_for_another_person(dealer, other, asks, said):
    from types import SimpleNamespace

    from jupai_net.protocol import PlayerInfo

    from .test_client_ui import make_player

    player, w, out = make_player([])
    control = _Control()
    player.attach(control)
    player.view = SimpleNamespace(phase="playing", dealer=dealer, seat=0, observation=None,
                                  players=(PlayerInfo(0, "Ann"), PlayerInfo(1, "Bob", bot=other == "bot")))
    await player.handle_line("/quit")
    assert control.left is not asks and player.quit_requested.is_set() is not asks
    if asks:
        assert "Leave? [y/N]" in out.getvalue()
        await player.handle_line("n")  # stays
        assert not control.left and "You stay at the table." in out.getvalue()
        await player.handle_line("/quit")
        await player.handle_line("y")
        assert control.left and player.quit_requested.is_set()
    else:
        assert "[y/N]" not in out.getvalue()
    assert said in out.getvalue()
    os.close(w)


async def _asked_then_over(chats: list[str]):
    """A blind game's seat asked "Leave? [y/N]", then the game over before the answer:
    ``(player, write end of its input, its screen, its session control)``."""
    from types import SimpleNamespace

    from jupai_net.protocol import PlayerInfo

    from .test_client_ui import make_player

    player, w, out = make_player(chats)
    control = _Control()
    player.attach(control)
    people = (PlayerInfo(0, "Ann"), PlayerInfo(1, "Bob"))
    player.view = SimpleNamespace(phase="playing", dealer="blind", seat=0, observation=None, players=people)
    await player.handle_line("/quit")
    assert "Leave? [y/N]" in out.getvalue()
    player.view = SimpleNamespace(phase="over", dealer="blind", seat=0, observation=None, players=people)
    return player, w, out, control


async def test_a_question_the_game_outran_is_dropped():
    """Asked "Leave? [y/N]", the game ends (abandoned by the host, or over) before the
    answer: a chat line is handled as usual (not taken as leaving a game that no longer runs)."""
    chats: list[str] = []
    player, w, out, control = await _asked_then_over(chats)
    await player.handle_line("/chat y")
    assert not control.left and chats == ["y"] and "Leaving the table" not in out.getvalue()
    os.close(w)


@pytest.mark.parametrize("answer, leaves", [("y", True), ("是", True), ("n", False), ("", False)])
async def test_an_answer_the_game_outran_is_not_read_as_the_answer_to_next_game(answer, leaves):
    """Asked "Leave? [y/N]", the game ends and "Ready for the next game? [Enter] / q to
    leave" opens before the answer: the person's line still answers the question they
    read. "y" leaves the table (it said "ready": the next game); "n" or Enter stays
    (it said "n": leave the table, Enter: ready) and the next-game question stays open."""
    import trio

    player, w, out, control = await _asked_then_over([])
    asked, answers = trio.open_memory_channel[bool](1)
    player._next = asked  # "Ready for the next game?" is open (TerminalPlayer.next_game)
    await player.handle_line(answer)
    if leaves:
        assert answers.receive_nowait() is False and player._next is None  # left: no next game
    else:
        assert player._next is asked and "You stay at the table." in out.getvalue()
        with pytest.raises(trio.WouldBlock):
            answers.receive_nowait()
        await player.handle_line("")  # the next line answers the next-game question: ready
        assert answers.receive_nowait() is True
    assert not control.left or leaves
    os.close(w)
