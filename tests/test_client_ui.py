"""client/ui.py: input parsing, and the TerminalPlayer driven through a pipe as a person
would type (specs/client.md § Keys)."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from typing import Any

import pytest
import trio
from rich.console import Console

from jupai_net import actions as A
from jupai_net.actions import Action
from jupai_net.client.ui import Command, LineReader, TerminalPlayer, parse_input
from jupai_net.rules import RuleSet

from .engine_helpers import card, deal, setup_of


@pytest.mark.parametrize(
    "line, n, expected",
    [
        ("3", 5, Command("choose", index=2)),
        ("  1 ", 5, Command("choose", index=0)),
        ("３", 5, Command("choose", index=2)),  # full-width digit from a Chinese IME
        ("6", 5, Command("error", key="input.out_of_range", args={"k": 6, "n": 5})),
        ("0", 5, Command("error", key="input.out_of_range", args={"k": 0, "n": 5})),
        ("2", 0, Command("error", key="input.not_your_turn")),
        ("attack", 5, Command("error", key="input.not_number", args={"text": "attack", "n": 5})),
        ("-1", 5, Command("error", key="input.not_number", args={"text": "-1", "n": 5})),
        ("hello", 0, Command("error", key="input.not_your_turn")),
        ("/chat hi all", 0, Command("chat", text="hi all")),
        ("say  good game ", 5, Command("chat", text="good game")),
        ("/CHAT Hi", 5, Command("chat", text="Hi")),
        ("/chat", 5, Command("error", key="input.empty_chat")),
        ("/chat   ", 5, Command("error", key="input.empty_chat")),
        ("?", 5, Command("help")),
        ("help", 0, Command("help")),
        ("/quit", 5, Command("quit")),
        ("", 5, Command("empty")),
    ],
)
def test_parse_input(line, n, expected):
    assert parse_input(line, n) == expected


@dataclass
class View:
    """A stand-in for the session's ClientView (same field names)."""

    observation: dict[str, Any]
    legal: list[Action] = field(default_factory=list)
    state_id: int = 0
    deadline: float | None = None
    chat: list[Any] = field(default_factory=list)
    notices: list[Any] = field(default_factory=list)
    seat: int | None = 0
    names: dict[int, str] | None = None


def game():
    rules = RuleSet(players=2, round_value="rank")
    hands = {0: [card(10), card(2), card(3), card(5), card(11)], 1: [card(7), card(12), card(13), card(1, 1), card(2, 1)]}
    return deal(rules, setup_of("LF"), hands=hands, equipment={0: (card(8), card(6)), 1: (card(3, 1), card(2, 2))},
                rounds=[card(6, 1)])


def make_player(chat_log=None):
    r, w = os.pipe()
    os.set_blocking(r, False)
    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None, highlight=False)

    async def send_chat(text):
        chat_log.append(text)

    player = TerminalPlayer(console=console, reader=LineReader(r), send_chat=send_chat if chat_log is not None else None)
    return player, w, out


async def test_choose_by_number_after_bad_input():
    st = game()
    legal = st.legal_actions()
    chats: list[str] = []
    player, w, out = make_player(chats)
    view = View(st.observation(0), legal, names={1: "Bob"})
    player.on_update(view)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.input_loop)
        os.write(w, "x\n99\n/chat hi Bob\n?\n8\n".encode())
        with trio.fail_after(5):
            action = await player.choose(view)
        os.write(w, b"/quit\n")
        with trio.fail_after(5):
            await player.quit_requested.wait()
    os.close(w)
    assert action == legal[7] == Action(A.ATTACK, 1, (card(10),), True)
    text = out.getvalue()
    assert "'x' is not a move: type a number 1–10" in text
    assert "There is no move 99: type a number 1–10" in text
    assert "attack seat 1 (Bob) with 10♠ + weapon" in text
    assert "You chose 8: attack seat 1 (Bob) with 10♠ + weapon" in text
    assert "/chat TEXT (say TEXT): chat" in text and "how to play" in text  # the help panel
    assert chats == ["hi Bob"]


async def test_numbers_outside_a_prompt_are_refused():
    st = game()
    player, w, out = make_player([])
    player.on_update(View(st.observation(1), []))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.input_loop)
        os.write(w, b"3\n")
        os.close(w)  # end of input: the loop stops and asks to quit
        with trio.fail_after(5):
            await player.quit_requested.wait()
    text = out.getvalue()
    assert "It is not your turn" in text
    assert "Input closed" in text
    assert "Waiting for seat 0" in text


async def test_choose_closes_the_prompt_at_the_deadline():
    """At the deadline the prompt closes (a number is no longer a move) and choose
    waits for the session to cancel it, as the session's Player protocol asks."""
    st = game()
    player, w, out = make_player([])
    view = View(st.observation(0), st.legal_actions(), deadline=trio.current_time() + 0.2)
    result = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.input_loop)

        async def ask():
            result.append(await player.choose(view))

        nursery.start_soon(ask)
        await trio.sleep(0.5)
        os.write(w, b"1\n")
        await trio.sleep(0.1)
        nursery.cancel_scope.cancel()  # what the session does when the new state arrives
    os.close(w)
    assert result == []
    text = out.getvalue()
    assert "Time is up: the host plays the default move for you" in text
    assert "It is not your turn" in text


async def test_attach_routes_chat_and_quit_to_the_session_control():
    from jupai_net.client.session import SessionControl

    st = game()
    player, w, out = make_player(None)
    control = SessionControl()
    player.attach(control)
    player.on_update(View(st.observation(1)))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.input_loop)
        os.write(w, b"say gg\n/quit\n")
        with trio.fail_after(5):
            await player.quit_requested.wait()
    os.close(w)
    assert control.leaving
    assert control._chat_recv.receive_nowait() == "gg"


def test_lobby_screen_before_the_deal():
    from jupai_net.protocol import PlayerInfo

    @dataclass
    class LobbyView:
        observation: Any = None
        players: tuple = (PlayerInfo(0, "Ann", ready=True), PlayerInfo(1, "bot-1", ready=True, bot=True),
                          PlayerInfo(2, "Cy", connected=False))
        seat: int = 2
        phase: str = "seeding"
        host: str = "127.0.0.20"
        port: int = 47474
        join_code: str = "7KQ2M-X9PDA"
        rules: Any = RuleSet(players=4)
        change: str = "lobby"

    player, w, out = make_player([])
    os.close(w)
    player.on_update(LobbyView())
    text = " ".join(out.getvalue().split())
    assert "host 127.0.0.20:47474 · join code 7KQ2M-X9PDA" in text
    assert "3 of 4 seats taken" in text
    assert "seat 0 (Ann) ready" in text and "seat 1 (bot-1) bot · ready" in text
    assert "seat 2 (Cy, you) away" in text
    assert "Shuffling fairly" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lobby_says_what_the_blind_deal_does(lang):
    """While a dealer-blind game is dealt the lobby screen says what the blind deal does,
    not the trusted scheme's commit-reveal (issue 12); a trusted deal keeps its words."""
    from jupai_net.client.i18n import t
    from jupai_net.protocol import PlayerInfo

    @dataclass
    class SeedingView:
        dealer: str
        observation: Any = None
        players: tuple = (PlayerInfo(0, "Ann", ready=True), PlayerInfo(1, "Bob", ready=True))
        seat: int = 0
        phase: str = "seeding"
        next_dealer: str = "blind"
        rules: Any = RuleSet(players=2)
        change: str = "start"

    for dealer, said, not_said in (("blind", "phase.seeding.blind", "phase.seeding"),
                                   ("trusted", "phase.seeding", "phase.seeding.blind")):
        player, w, out = make_player([])
        os.close(w)
        player.lang = lang
        player.on_update(SeedingView(dealer))
        text = "".join(out.getvalue().split())
        assert "".join(t(said, lang).split()) in text
        assert "".join(t(not_said, lang).split()) not in text
    assert "Dealing blind" in t("phase.seeding.blind", "en") and "盲发牌" in t("phase.seeding.blind", "zh")


async def test_line_reader_keeps_partial_input_across_cancellation():
    r, w = os.pipe()
    os.set_blocking(r, False)
    reader = LineReader(r)
    os.write(w, b"12")
    with trio.move_on_after(0.05):
        await reader.readline()
    os.write(w, "3\n第二行\n".encode())
    assert await reader.readline() == "123"
    assert await reader.readline() == "第二行"
    os.close(w)
    assert await reader.readline() is None
    os.close(r)


async def test_short_timer_warning_then_time_up(autojump_clock):
    """With a 12 s turn: one warning line at 10 s left, then the prompt closes."""
    st = game()
    player, w, out = make_player([])
    view = View(st.observation(0), st.legal_actions(), deadline=trio.current_time() + 12)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.choose, view)
        await trio.sleep(1)
        assert "⏱ 10 s left" not in out.getvalue() and "⏱ 12 s left" in out.getvalue()
        await trio.sleep(1.5)
        assert "⏱ 10 s left" in out.getvalue() and "Time is up" not in out.getvalue()
        await trio.sleep(10)
        assert "Time is up" in out.getvalue()
        nursery.cancel_scope.cancel()
    os.close(w)
