"""TerminalPlayer on a real (pseudo) terminal: the turn timer ticks once a second in
place on the prompt line and stops with the prompt; the screen fits the terminal;
the ending is printed whole (specs/client.md § Keys, § jupai join)."""

from __future__ import annotations

import io
import os
import re

import trio
from jupai_net.client.i18n import t
from jupai_net.client.render import to_text
from jupai_net.client.session import SessionResult
from jupai_net.client.ui import (
    RESTORE_CURSOR,
    SAVE_CURSOR,
    LineReader,
    TerminalPlayer,
    parse_input,
    print_game_end,
)
from rich.console import Console

from jupai_net.fairness.verify import Verdict

from .test_client_ui import View, game

TICK = re.compile(re.escape(SAVE_CURSOR) + r"\r(.*?)" + re.escape(RESTORE_CURSOR), re.S)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def terminal_player(width=80, height=24):
    r, w = os.pipe()
    os.set_blocking(r, False)
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, force_terminal=True, color_system="standard",
                      highlight=False, legacy_windows=False)
    return TerminalPlayer(console=console, reader=LineReader(r)), w, out


def ticks(out: io.StringIO) -> list[str]:
    """The prompt lines rewritten in place so far, without colour codes."""
    return [ANSI.sub("", m.group(1)) for m in TICK.finditer(out.getvalue())]


async def test_the_timer_ticks_each_second_in_place_and_stops_with_the_prompt(autojump_clock):
    st = game()
    player, w, out = terminal_player()
    view = View(st.observation(0), st.legal_actions(), deadline=trio.current_time() + 15)
    chosen = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.input_loop)

        async def ask():
            chosen.append(await player.choose(view))

        nursery.start_soon(ask)
        await trio.sleep(0.01)
        first = ANSI.sub("", out.getvalue())
        assert first.rstrip().endswith("⏱ 15 s left >")
        await trio.sleep(6.5)
        assert ticks(out) == [f"⏱ {s:>2} s left > " for s in (14, 13, 12, 11, 10, 9)]
        assert "31m⏱  9 s" in out.getvalue().split(SAVE_CURSOR)[-1]  # red under 10 s
        assert out.getvalue().count("\x1b[2J") + out.getvalue().count("\x1b[H") <= 2  # no redraw per second
        os.write(w, b"1\n")
        await trio.sleep(0.5)
        assert chosen == [st.legal_actions()[0]]
        done = len(ticks(out))
        await trio.sleep(10)  # the prompt is closed: no more ticks, no time-up message
        assert len(ticks(out)) == done == 6
        assert "Time is up" not in out.getvalue()
        nursery.cancel_scope.cancel()
    os.close(w)


async def test_ticks_keep_their_width_from_two_digits_to_one(autojump_clock):
    st = game()
    player, w, out = terminal_player()
    view = View(st.observation(0), st.legal_actions(), deadline=trio.current_time() + 11)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.choose, view)
        await trio.sleep(2.5)
        assert ticks(out) == ["⏱ 10 s left > ", "⏱  9 s left > "]
        nursery.cancel_scope.cancel()  # the session withdraws the prompt
    await trio.sleep(5)
    assert len(ticks(out)) == 2
    os.close(w)


async def test_time_up_closes_the_prompt(autojump_clock):
    st = game()
    player, w, out = terminal_player()
    view = View(st.observation(0), st.legal_actions(), deadline=trio.current_time() + 3)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.choose, view)
        await trio.sleep(4)
        assert ticks(out) == ["⏱ 2 s left > ", "⏱ 1 s left > "]
        assert "Time is up: the host plays the default move for you" in out.getvalue()
        nursery.cancel_scope.cancel()
    os.close(w)


def test_the_screen_fits_an_80x24_terminal():
    st = game()
    player, w, out = terminal_player(80, 24)
    os.close(w)
    player.view = View(st.observation(0), st.legal_actions(), names={1: "greedy bot 1"})
    player._legal = st.legal_actions()
    screen = to_text(player.screen(player.view, player._legal), width=80)
    assert len(screen.rstrip("\n").split("\n")) <= 23
    assert "Type a number 1–10 and Enter" in screen


def _ending(result, lang="en", width=80):
    out = io.StringIO()
    print_game_end(Console(file=out, width=width, color_system=None, highlight=False), result, lang)
    return out.getvalue()


def test_the_ending_prints_the_transcript_path_whole(tmp_path):
    path = tmp_path / ("a-rather-long-directory-name-for-transcripts" * 2) / "3f9c2a7b5d1e4f60-seat0.jupai"
    result = SessionResult("finished", verdict=Verdict("verified", "fair game"), ranking=[1, 0],
                           names={0: "Ann", 1: "greedy bot 1"}, seat=0, transcript_path=path,
                           result={"ranking": [1, 0], "winner": 1, "cards_left": [4, 0], "names": ["Ann", "greedy bot 1"]})
    text = _ending(result)
    lines = text.split("\n")
    assert lines[0] == "━━ game over · final ranking ━━"
    assert lines[1] == "  seat 1 (greedy bot 1) wins (played out every card)"  # specs/rules.md § 8
    assert lines[2] == "  1. seat 1 (greedy bot 1): 0 cards left, 0 recovered"
    assert lines[3] == "  2. seat 0 (you): 4 cards left, 0 recovered"
    assert lines[4] == "✔ fairness: verified — fair game"
    from jupai_net.client.render import verify_command
    assert f"  {path}" in lines  # one line, longer than 80
    assert len(f"  {verify_command()} {path}") > 80  # the command does not fit: cut after verify, continued
    assert f"  {verify_command()} \\" in lines and lines[lines.index(f"  {verify_command()} \\") + 1] == f"    {path}"
    zh = _ending(result, "zh")
    assert "━━ 游戏结束 · 最终排名 ━━" in zh and "第1名 1号位（贪心机器人 1）：剩 0 张" in zh
    # the verdict line is all Chinese; a reason the catalog has no words for follows apart, labelled
    assert "✔ 公平性：已验证 — 公平对局：主机的种子与其承诺一致，发牌可复现\n" in zh and f"\n    {path}\n" in zh
    assert "  技术细节（英文）：fair game\n" in zh  # a Chinese label: full-width colon


def test_the_ending_of_an_unfinished_game():
    text = _ending(SessionResult("left", verdict=Verdict("unverified", "this seat left")))
    assert "✘ game not finished (left the table before the end)" in text
    assert "✘ fairness: unverified — this seat left" in text
    zh = _ending(SessionResult("aborted", error=("host-quit", "bye")), "zh")
    assert "✘ 游戏未完成（主机放弃了这局：bye）" in zh


def test_a_single_move_is_typed_as_1():
    cmd = parse_input("x", 1)
    assert t(cmd.key, "en", **cmd.args) == "'x' is not a move: type 1, /chat TEXT, or ? for help"
    cmd = parse_input("2", 1)
    assert t(cmd.key, "en", **cmd.args) == "There is no move 2: type 1 (the only move)"
    assert t(cmd.key, "zh", **cmd.args) == "没有第 2 号行动：请输入 1（唯一可选）"
    cmd = parse_input("3", 2)
    assert t(cmd.key, "en", **cmd.args) == "There is no move 3: type a number 1–2"


def test_the_ending_at_60_columns_fits_and_its_command_pastes_into_a_shell(tmp_path):
    """``jupai play`` at 60 columns (issue 12 leftovers 4): the transcript path (from
    ``~``, a short file name) fits a line, and the ``jupai verify`` command, cut after
    ``verify`` with a shell continuation, still checks the game when pasted into a shell."""
    import os
    import subprocess
    import sys

    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "JUPAI_CONFIG_DIR": str(home / ".config" / "jupai"), "COLUMNS": "60",
           "LANG": "C.UTF-8"}
    out = subprocess.run([sys.executable, "-m", "jupai_net", "play", "--bot", "random", "--seats", "2", "--rounds", "2"],
                         capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    path_line = lines[lines.index("Transcript saved to:") + 1]
    assert re.fullmatch(r"  ~/\.config/jupai/transcripts/[0-9a-f]{12}-seat0\.jupai", path_line), path_line
    assert len(path_line) <= 60
    start = lines.index("Check it again any time with:") + 1
    command = lines[start:start + 2] if lines[start].endswith(" \\") else lines[start:start + 1]
    assert command[-1].strip().startswith("~/") and len(command[-1]) <= 60, command
    pasted = subprocess.run(["sh", "-c", "\n".join(command)], capture_output=True, text=True, timeout=60, env=env)
    assert pasted.returncode == 0 and "VERIFIED" in pasted.stdout, pasted.stdout + pasted.stderr


async def test_a_prompt_that_replaces_one_not_yet_cancelled_keeps_its_moves_and_timer(autojump_clock):
    """The session withdraws a prompt (cancels its ``choose``) and opens the next one at
    once: the new call runs before the old one sees its cancellation. The old call must
    not clear the new prompt's moves and deadline (it did: the timer task crashed on
    ``assert deadline is not None`` and took `jupai join` down with exit 1)."""
    st = game()
    player, w, out = terminal_player()
    legal = st.legal_actions()
    old = View(st.observation(0), legal, deadline=trio.current_time() + 3)
    new = View(st.observation(0), legal, deadline=trio.current_time() + 12)
    chosen = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.input_loop)
        old_scope = trio.CancelScope()
        nursery.start_soon(_in_scope, old_scope, player.choose, old)
        await trio.sleep(1)

        async def type_later():
            await trio.sleep(4.2)
            assert player._legal == legal  # still the new prompt's moves
            os.write(w, b"1\n")

        nursery.start_soon(type_later)
        old_scope.cancel()
        # no checkpoint between the cancel and the new call's drawing: the old call
        # sees its cancellation only after the new one has taken the prompt
        chosen.append(await player.choose(new))
        assert chosen == [legal[0]]
        # the new prompt's timer (12 s from t=0, drawn at t=1) ticked until the move at t≈5.2
        assert ticks(out)[-4:] == ["⏱ 10 s left > ", "⏱  9 s left > ", "⏱  8 s left > ", "⏱  7 s left > "]
        nursery.cancel_scope.cancel()
    os.close(w)


async def _in_scope(scope: trio.CancelScope, fn, *args):
    with scope:
        await fn(*args)
