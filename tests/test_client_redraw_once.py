"""A redraw reaches the terminal in one write: the clear and the new screen together
(specs/client.md § Drawing without flicker). A trial at load 9 saw a 60×24 pane
blank in 30 of 114 samples while bots moved, because the terminal was cleared before
the screen was built and printed line by line."""

from __future__ import annotations

from types import SimpleNamespace

from rich.console import Console

from .test_client_polish_screen import BOTS, screens

CLEAR = "\x1b[2J"


class _Writes:
    """A terminal that records each write (what the terminal emulator would receive)."""

    def __init__(self):
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


class _Reader:
    async def readline(self):  # pragma: no cover - not read here
        return None


def _view(stop=30, players=6, seed=3):
    for k, (st, seat, history) in enumerate(screens(players, seed)):
        if k == stop:
            return st, seat, SimpleNamespace(observation=st.observation(seat), seat=seat, names=BOTS,
                                             events=tuple(history), chat=(), notices=(), phase="playing",
                                             change="state", legal=())
    raise AssertionError("game too short")


def _player(lang="en"):
    from jupai_net.client.ui import TerminalPlayer

    out = _Writes()
    console = Console(file=out, width=60, height=24, force_terminal=True, color_system=None, legacy_windows=False)
    return TerminalPlayer(lang=lang, console=console, reader=_Reader(), clear=True, live_timer=False), out


def _one_write_with_clear_then(out: _Writes, words: str) -> None:
    writes = [w for w in out.writes if w]
    assert len(writes) == 1, [w[:60] for w in writes]
    assert writes[0].index(CLEAR) < writes[0].index(words)


def test_a_table_update_is_one_write_clear_and_screen_together():
    st, seat, view = _view()
    player, out = _player()
    player.on_update(view)
    _one_write_with_clear_then(out, "greedy bot 1")
    out.writes.clear()
    player.on_update(view)  # a later update (a bot moved) too
    _one_write_with_clear_then(out, "greedy bot 1")


async def test_help_and_the_game_log_page_are_drawn_in_one_write_too():
    st, seat, view = _view()
    player, out = _player("zh")
    player.on_update(view)
    out.writes.clear()
    await player.handle_line("?")
    writes = [w for w in out.writes if w]
    assert len(writes) == 1 and CLEAR in writes[0]
    out.writes.clear()
    await player.handle_line("")  # back to the table
    await player.handle_line("/log")
    out.writes.clear()
    player.on_update(view)  # a bot moves while the log is paged: the page is redrawn once
    writes = [w for w in out.writes if w]
    assert len(writes) == 1 and CLEAR in writes[0]
