"""Turns cut short through ``jupai join`` on a terminal (issue 12, specs/client.md §
Keys, specs/fairness.md §9.3): a host that tells the seat 30 s per turn but plays its
turn as timed out after 0.4 s — to this computer's clock each time-out comes about 30 s
early, far beyond the tolerance. The player reads the notice in their language (it is
recorded), the game goes on to its end, and the fair deal's verdict is *suspicious*
(exit 1); nothing is called tampering. (Commit 7d62d21 made it a warning only, and the
game verified: a host could play a person's seat by timing it out at once.)"""

from __future__ import annotations

import queue
import threading

import trio

from jupai_net.host import server as server_mod
from jupai_net.host.server import HostServer

from .pty_helpers import PtyJupai
from .test_net_hostile_session import EarlyClockTable
from .test_net_play import env_for
from .test_net_support import IDENTITY, host_config


def serve_in_a_thread(config):
    """A :class:`HostServer` with ``config`` on 127.0.0.1, run by trio in a thread:
    ``(port, stop)``; ``stop()`` cancels it and waits for the thread."""
    ready: queue.Queue = queue.Queue()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            server = HostServer(config, IDENTITY)
            await nursery.start(server.serve)
            ready.put((server.port, trio.lowlevel.current_trio_token(), nursery.cancel_scope))

    thread = threading.Thread(target=trio.run, args=(main,), daemon=True)
    thread.start()
    port, token, scope = ready.get(timeout=20)

    def stop() -> None:
        try:
            trio.from_thread.run_sync(scope.cancel, trio_token=token)
        except trio.RunFinishedError:  # it stopped by itself (its games are played)
            pass
        thread.join(10)

    return port, stop


def test_a_time_out_announced_early_is_said_recorded_and_the_verdict_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(server_mod, "Table", EarlyClockTable)
    port, stop = serve_in_a_thread(host_config(2, bots=1, rounds=2, turn_timeout=0.4, bot_delay=0.0))
    env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "slow"))
    slow = PtyJupai(["join", f"127.0.0.1:{port}", "--code", IDENTITY.join_code, "--name", "Slow", "--lang", "zh"],
                    env, rows=40, columns=100)
    try:
        # in the notices' box (Chinese wraps between any two characters)
        said = "[\\s│]*".join("按本机时钟，主机在你的回合时间用完前") + r"[\s│]*\d+[\s│]*" + "[\\s│]*".join("秒就判你超时")
        slow.wait_for(said, timeout=30)
        slow.wait_for(r"公平性：可疑", timeout=30)  # the game went on to its end: a fair deal, turns cut short
        code = slow.finish(30)
    finally:
        slow.kill()
        stop()
    assert code == 1, slow.text[-3000:]  # not verified
    assert "主机缩短了本座位的回合" in "".join(slow.text.split()), slow.text[-3000:]
    assert "篡改" not in slow.text and "tamper" not in slow.text and "Traceback" not in slow.text, slow.text[-3000:]


def test_a_chinese_notice_wraps_between_characters_not_at_its_last_space():
    """The notices' box wrapped the warning at the space after the seconds, leaving most
    of a row empty (`按本机时钟，主机提前 29` / `秒判你超时…`, seen on the terminal above):
    Chinese wraps between characters, English still at spaces."""
    import io

    from rich.console import Console

    from jupai_net.client.layout import lines_panel

    warning = "按本机时钟，主机提前 29 秒判你超时并替你走了这一步（网络慢或电脑忙也会这样；若经常发生，请询问主机）。"
    english = "the host played your turn as timed out 29 s early by this computer's clock " * 2
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(lines_panel([warning, english], "通知", "blue"))
    rows = [line.strip("│ ") for line in out.getvalue().splitlines()[1:-1]]
    assert rows[0].startswith("按本机时钟，主机提前 29 秒判你超时并替你走了这一步"), rows
    assert "".join(rows[:2]) == warning, rows
    assert all(not row.endswith(("ear", "ti", "clo")) for row in rows[2:]), rows  # English breaks at spaces
