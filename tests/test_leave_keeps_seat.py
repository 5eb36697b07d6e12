"""Leaving mid-game, as friends expect (issue 12, new-user trial: ctrlc-bob-60-zh,
rejoin-trusted-60-zh), through the command a person types (specs/client.md § `jupai
join`, § Keys, § Rejoin):

- a closed window (the terminal gone, SIGHUP) mid-game is no decision: the seat is kept
  as after a lost connection (no ``bye``, the resume file stays) and the same command
  takes it back — a dealer-blind game waits for it;
- Ctrl-C at a dealer-blind table with another person asks first, as ``/quit`` does:
  ``n`` stays, a second Ctrl-C leaves (the game ends for everyone);
- Ctrl-C at a trusted table leaves, a bot plays the seat, and the same command takes it
  back while that game runs.

Each waits on what the programs print, never on a sleep."""

from __future__ import annotations

import os
import re
import signal

from jupai_net.client.resume import ResumeState

from .pty_helpers import PtyJupai
from .test_client_cli import Terminal
from .test_net_hardening import HostProcess
from .test_net_play import JUPAI, env_for


def _resume(tmp_path, who: str, host) -> "os.PathLike[str]":
    port = int(host.addr.rsplit(":", 1)[1])
    return tmp_path / who / "sessions" / f"127.0.0.1-{port}.resume"


def _env(tmp_path, who: str) -> dict[str, str]:
    return dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / who), JUPAI_NO_MULTICAST="1")


def test_a_closed_window_mid_blind_game_keeps_the_seat_and_the_same_command_takes_it_back(tmp_path):
    """The window of ``jupai join`` closed mid dealer-blind game (its pty's master gone:
    input ends, writes fail) and SIGHUP came: no ``bye`` — the host holds the seat as
    for a lost connection instead of ending the game — exit 129, the resume file kept;
    the very same command in a new window is welcomed back to seat 0."""
    host = HostProcess(tmp_path, "--seats", "2", "--bots", "1", "--dealer", "blind", "--rounds", "3",
                       "--bot-delay", "0.3", "--turn-timeout", "60", "--no-announce")
    command = ["join", host.addr, "--code", host.code, "--name", "Ann"]
    env = dict(_env(tmp_path, "ann"), TERM="xterm", LINES="24")
    term = Terminal(JUPAI + command, env, rows=24, cols=100)  # no reader thread: its master can be closed
    again = None
    try:
        host.wait_for(r"game \w+ starts", timeout=60)
        term.expect(r"Your turn|greedy bot 1", timeout=30)  # the game's screen is up
        mark = len(host.lines)
        os.close(term.master)  # the window closed
        term.master = os.open(os.devnull, os.O_RDONLY)  # for close() below
        term.proc.send_signal(signal.SIGHUP)
        assert term.proc.wait(30) == 129
        host.wait_for(r"Ann \(seat 0\) disconnected", timeout=15, after=mark)
        saved = ResumeState.from_bytes(_resume(tmp_path, "ann", host).read_bytes())
        assert saved.game_id is not None and saved.seat == 0  # the running game, to take back
        # its transcript so far is saved (unverified: the seat left), never blaming the host
        assert list((tmp_path / "ann" / "transcripts").glob("*-seat0.jupai")), "no transcript saved"

        again = PtyJupai(command, env, rows=24, columns=100)  # the same command, a new window
        again.wait_for(r"Welcome back: you are seat 0 again; the game waited for you\.", timeout=30)
        host.wait_for(r"Ann is back in seat 0|back in seat 0", timeout=15, after=mark)
        said = "".join(host.lines[mark:])
        assert "chose to leave" not in said and "abandoned" not in said, said  # the game went on
    finally:
        term.close()
        if again is not None:
            again.kill()
        host.kill()
    assert "Traceback" not in again.text


def test_ctrl_c_at_a_dealer_blind_table_asks_n_stays_and_a_second_ctrl_c_leaves(tmp_path):
    """Ann and Bob (and a bot) at a dealer-blind table: Ctrl-C asks Ann first, exactly
    as /quit does; ``n`` keeps her at the table; Ctrl-C again asks again, and a second
    Ctrl-C while asked leaves: the host ends the game for everyone, exit 130, and her
    seat is forgotten (no resume file)."""
    host = HostProcess(tmp_path, "--no-announce", "--dealer", "blind", "--seats", "3", "--bots", "1",
                       "--bot-delay", "0", "--rounds", "2", "--turn-timeout", "60", "--games", "1")
    ann = bob = None
    try:
        ann = PtyJupai(["join", host.addr, "--code", host.code, "--name", "Ann", "--lang", "en", "--seat", "0"],
                       _env(tmp_path, "ann"), rows=40, columns=100)
        bob = PtyJupai(["join", host.addr, "--code", host.code, "--name", "Bob", "--lang", "zh", "--seat", "1"],
                       _env(tmp_path, "bob"), rows=40, columns=100)
        ann.wait_for(r"Round 1/2", timeout=30)
        seen, mark = ann.mark(), len(host.lines)
        ann.signal(signal.SIGINT)
        ann.wait_for(r"Leaving ends this game for everyone: the deal is dealer-blind, so nobody else can play "
                     r"your cards\.\s*(?:⏱ \d+ s left )?Leave\? \[y/N\]", after=seen)
        ann.type("n\r")
        ann.wait_for(r"You stay at the table\.", after=seen)
        assert ann.proc.poll() is None and "left" not in "".join(host.lines[mark:])
        seen = ann.mark()
        ann.signal(signal.SIGINT)
        ann.wait_for(r"Leave\? \[y/N\]", after=seen)
        ann.signal(signal.SIGINT)  # the second Ctrl-C: yes
        ann.wait_for(r"Leaving the table: the host ends this game for everyone\.", after=seen)
        code = ann.finish(30)
        host.wait_for(r"game abandoned: Ann \(seat 0\) left the dealer-blind game \(they chose to leave\)", after=mark)
        bob.wait_for(r"Ann（0号位）离开了盲发牌对局（主动离开）", timeout=20)
    finally:
        for p in (ann, bob):
            if p is not None:
                p.kill()
        host.kill()
    assert code == 130, ann.text[-2000:]
    assert "interrupted: left the table" in ann.text and "Traceback" not in ann.text + bob.text
    assert not _resume(tmp_path, "ann", host).exists()  # left on purpose, the game ended: forgotten


def test_ctrl_c_at_a_trusted_table_then_the_same_command_takes_the_seat_back(tmp_path):
    """Ctrl-C mid-game at a trusted table (zh, 60 columns, the trial's screen): Bob
    leaves at once, told that a bot plays his seat and which command takes it back;
    the very same command is welcomed back to his seat (not refused as "the table is in
    a game and you have no seat in it")."""
    host = HostProcess(tmp_path, "--no-announce", "--dealer", "trusted", "--seats", "2", "--bots", "1",
                       "--bot-delay", "1", "--rounds", "12", "--turn-timeout", "30")
    command = ["join", host.addr, "--code", host.code, "--name", "Bob", "--lang", "zh"]
    bob = again = None
    try:
        bob = PtyJupai(command, _env(tmp_path, "bob"), rows=24, columns=60)
        bob.wait_for(r"第 1/12 回合", timeout=30)
        mark = len(host.lines)
        bob.signal(signal.SIGINT)
        assert bob.finish(30) == 130, bob.text[-2000:]
        flat = " ".join(bob.text.split())
        assert "机器人替你打这个座位。这一局结束前，用下面的命令回到座位：" in flat, bob.text[-2000:]
        shown = re.search(r"\S*jupai\S* join (\S+) --lang zh", bob.text)
        assert shown and shown[1] == host.addr, bob.text[-1500:]
        host.wait_for(r"Bob left seat 0", timeout=15, after=mark)
        assert ResumeState.from_bytes(_resume(tmp_path, "bob", host).read_bytes()).game_id is not None

        again = PtyJupai(command, _env(tmp_path, "bob"), rows=24, columns=60)
        again.wait_for(r"欢迎回来：你是0号位；你离开期间机器人替你走了 \d+ 步。", timeout=30)
        assert "没有座位" not in again.text  # not refused
    finally:
        for p in (bob, again):
            if p is not None:
                p.kill()
        host.kill()
    assert "Traceback" not in bob.text + again.text


# ------------------------------------------------------------------ the parts, no network


class _Control:
    """The session control's part a leaving player uses."""

    def __init__(self):
        self.left = self.hung_up = False

    def leave(self):
        self.left = True


def _seated_player(dealer: str, other_is_bot: bool, phase: str = "playing"):
    from types import SimpleNamespace

    from jupai_net.protocol import PlayerInfo

    from .test_client_ui import make_player

    player, w, out = make_player([])
    control = _Control()
    player.attach(control)
    player.view = SimpleNamespace(phase=phase, dealer=dealer, seat=0, observation=None,
                                  players=(PlayerInfo(0, "Ann"), PlayerInfo(1, "Bob", bot=other_is_bot)))
    return player, w, out, control


async def test_ctrl_c_asks_like_quit_only_where_leaving_ends_a_game_for_another_person():
    """``TerminalPlayer.interrupt`` (Ctrl-C): at a dealer-blind game with another person
    it asks (True) — ``n`` stays, Ctrl-C again asks again, a second Ctrl-C while asked is
    yes (False, the table is left by the caller); a trusted game, a blind game of bots
    only (``jupai play``) and the lobby: False at once, nothing asked."""
    player, w, out, control = _seated_player("blind", other_is_bot=False)
    assert player.interrupt() is True and "Leave? [y/N]" in out.getvalue()
    await player.handle_line("n")
    assert not control.left and "You stay at the table." in out.getvalue()
    assert player.interrupt() is True  # asked again
    assert player.interrupt() is False  # the second Ctrl-C: yes
    assert "Leaving the table: the host ends this game for everyone." in out.getvalue()
    os.close(w)
    for dealer, bot, phase in (("trusted", False, "playing"), ("blind", True, "playing"), ("blind", False, "lobby")):
        player, w, out, control = _seated_player(dealer, bot, phase)
        assert player.interrupt() is False and "[y/N]" not in out.getvalue(), (dealer, bot, phase)
        os.close(w)


async def test_the_input_of_a_closed_window_is_a_hang_up_not_a_ctrl_d():
    """The end of input from a terminal that went away (its window closed) is told apart
    from Ctrl-D (``LineReader.hung_up``), and the player hands it to ``on_hangup`` (SIGHUP's
    way: the seat kept mid-game) instead of leaving the table as after Ctrl-D."""
    import pty

    import trio

    from jupai_net.client.ui import LineReader

    master, slave = pty.openpty()
    reader = LineReader(slave)
    os.write(master, b"\x04")  # Ctrl-D on an empty line
    with trio.fail_after(5):
        assert await reader.readline() is None
    assert not reader.hung_up
    os.close(master)
    os.close(slave)

    player, w, out, control = _seated_player("trusted", other_is_bot=True)
    master, slave = pty.openpty()
    player.reader = LineReader(slave)
    hung: list[bool] = []
    player.on_hangup = lambda: hung.append(True)
    os.close(master)  # the window closed
    with trio.fail_after(5):
        await player.input_loop()
    assert player.reader.hung_up and hung == [True] and not control.left
    assert "Input closed" not in out.getvalue()
    os.close(slave)
    os.close(w)


def test_the_command_that_takes_the_seat_back_names_the_address_and_the_options_given():
    """``cli.rejoin_command``: the running jupai, ``join`` and the address (IPv6 in
    brackets), with ``--lang``, ``--bot``, ``--think`` and ``--transcript`` as given,
    quoted for the shell; the name and seat come from the saved session."""
    from argparse import Namespace

    from jupai_net.client.cli import rejoin_command

    cmd = rejoin_command("fe80::1", 7777, Namespace(lang="zh", bot=None, think=None, transcript="my game.jupai",
                                                    name="Bob"))
    assert cmd.endswith(" join '[fe80::1]:7777' --lang zh --transcript 'my game.jupai'"), cmd
    cmd = rejoin_command("10.0.0.2", 47474, Namespace(lang=None, bot="greedy", think=None, transcript=None))
    assert cmd.endswith(" join 10.0.0.2:47474 --bot greedy"), cmd
