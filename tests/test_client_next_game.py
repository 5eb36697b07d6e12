"""The terminal's question between games (client/ui.py TerminalPlayer.next_game):
Enter plays on, q leaves, chat and help keep the question, updates do not wipe the
ending (specs/client.md § Staying at the table)."""

from __future__ import annotations

import io
import os

import trio
from rich.console import Console

from jupai_net.client.session import SessionResult
from jupai_net.client.ui import LineReader, TerminalPlayer, next_game_refused
from jupai_net.protocol import Series, SeriesStanding


def _result() -> SessionResult:
    series = Series(b"\x01" * 16, 1, 3, False, (SeriesStanding("Ann", 2, 1, 1, 2), SeriesStanding("greedy bot 1", 0,
                                                                                                   0, 1, 0)))
    return SessionResult("finished", ranking=[0, 1], names={0: "Ann", 1: "greedy bot 1"}, seat=0,
                         result={"ranking": [0, 1]}, game_id=b"\x02" * 16, series=series)


async def _ask(lines: list[str], lang: str = "en") -> tuple[bool, str, list[str]]:
    out = io.StringIO()
    chat: list[str] = []

    async def send_chat(text: str) -> None:
        chat.append(text)

    r, w = os.pipe()  # a reader that never gets a line: lines are handed to handle_line below
    player = TerminalPlayer(lang=lang, console=Console(file=out, width=60, color_system=None), send_chat=send_chat,
                            reader=LineReader(r))
    answer = None
    async with trio.open_nursery() as nursery:
        async def ask() -> None:
            nonlocal answer
            answer = await player.next_game(_result())

        nursery.start_soon(ask)
        await trio.sleep(0.01)
        for line in lines:
            await player.handle_line(line)
            await trio.sleep(0.01)
    os.close(r), os.close(w)
    assert player.ending_shown == b"\x02" * 16
    return answer, out.getvalue(), chat


async def test_enter_plays_on_and_the_scoreboard_is_shown_first():
    go, text, _ = await _ask([""])
    assert go is True
    assert text.index("━━ scoreboard · after game 1 of 3 ━━") < text.index("Ready for the next game? [Enter] / q")
    assert "Ann (you)" in text and "Ready: waiting for the others" in text


async def test_q_leaves_and_chat_or_help_keep_the_question():
    go, text, chat = await _ask(["/chat see you", "?", "q"])
    assert go is False and chat == ["see you"]
    assert text.count("Ready for the next game?") >= 2  # asked again after the help
    go, text, _ = await _ask(["退出"], lang="zh")
    assert go is False and "准备好下一局了吗？[回车] / q 离开" in text and "积分榜" in text


def test_what_counts_as_leaving():
    assert all(next_game_refused(x) for x in ("q", " Q ", "n", "no", "/quit", "exit", "退出"))
    assert not any(next_game_refused(x) for x in ("", "y", "1", "ok"))
