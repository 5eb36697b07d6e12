"""A hostile or broken host against the client session (issue 8 §4): the session never
raises for a host mistake, ends with a clear verdict, gives up reconnecting on one
deadline with backoff, and notices a silent host (specs/host.md §10)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupai_net.actions import Action
from jupai_net.client.bot import BotPlayer
from jupai_net.client.session import run_session
from jupai_net.host.tls import ephemeral_identity
from jupai_net.protocol import (
    End,
    ErrorMessage,
    Hello,
    HostConnection,
    Lobby,
    Notice,
    Ping,
    PlayerInfo,
    Prompt,
    Reject,
    Series,
    SeriesStanding,
    Start,
    Statement,
    Sync,
    Welcome,
    encode_frame,
)
from jupai_net.protocol.messages import Bye
from jupai_net.rules import RuleSet

IDENTITY = ephemeral_identity()
RULES = RuleSet(players=2, rounds=3)
JUPAI = [sys.executable, "-m", "jupai_net"]


def trust(host: str, port: int, fingerprint: str) -> None:
    assert fingerprint == IDENTITY.fingerprint


async def read_hello(tls: trio.SSLStream) -> HostConnection:
    """Read the client's hello (the host's side of the handshake)."""
    conn = HostConnection()
    with trio.fail_after(5):
        while True:
            conn.receive_data(bytes(await tls.receive_some(65536)))
            if isinstance(conn.next_event(), Hello):
                return conn


def welcome(conn: HostConnection) -> bytes:
    players = (PlayerInfo(0, "me"), PlayerInfo(1, "host bot", ready=True, bot=True))
    return conn.send(Welcome(0, secrets.token_urlsafe(24), RULES, players, version=conn.version))


async def serve(handler, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """A TLS listener on 127.0.0.1 running ``handler(tls, n)`` per connection (n = 0, 1, …)."""
    count = 0

    async def one(tcp: trio.SocketStream) -> None:
        nonlocal count
        n, count = count, count + 1
        tls = trio.SSLStream(tcp, IDENTITY.server_context(), server_side=True)
        try:
            await tls.do_handshake()
            await handler(tls, n)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        finally:
            await trio.aclose_forcefully(tls)

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    task_status.started(listeners[0].socket.getsockname()[1])
    await trio.serve_listeners(one, listeners)


# ------------------------------------------------------------------ reconnect


async def test_a_host_that_hangs_up_after_every_hello_is_not_hammered():
    """The first connection gets into a game, then every reconnect is accepted and closed
    right after the hello. The client must not reset its deadline or backoff on a bare
    TCP+TLS connect: a few attempts in 3 s, then it gives up (the old loop made ~200/s)."""
    connections = []

    async def handler(tls, n):
        connections.append(trio.current_time())
        conn = await read_hello(tls)
        if n == 0:
            await tls.send_all(welcome(conn) + conn.send(Start(secrets.token_bytes(16), RULES)))
            await trio.sleep(0.2)

    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve, handler)
        start = trio.current_time()
        with trio.fail_after(15):
            result = await run_session("127.0.0.1", port, name="me", player=BotPlayer("random"),
                                       check_fingerprint=trust, save_resume=False, reconnect_for=3)
        took = trio.current_time() - start
        nursery.cancel_scope.cancel()
    assert result.status == "host-gone"
    assert result.error == ("connection-lost", "the connection broke without a goodbye from the host; "
                                               "no way back in within 3 s")
    assert 2 <= len(connections) <= 12, len(connections)
    assert took < 5  # one deadline across attempts
    gaps = [b - a for a, b in zip(connections[1:], connections[2:])]
    assert gaps == sorted(gaps) or max(gaps) > 0.5, gaps  # backing off, not a flat hammering


async def test_a_host_silent_after_welcome_is_given_up():
    async def handler(tls, n):
        conn = await read_hello(tls)
        await tls.send_all(welcome(conn))
        await trio.sleep_forever()  # read nothing, answer nothing (not even the ping)

    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve, handler)
        with trio.fail_after(10):
            result = await run_session("127.0.0.1", port, name="me", player=BotPlayer("random"),
                                       check_fingerprint=trust, save_resume=False, idle_timeout=1.5)
        nursery.cancel_scope.cancel()
    assert result.status == "host-gone"
    assert result.error == ("connection-lost", "no message from the host for 1.5 s")


async def test_a_quiet_host_that_answers_pings_is_kept():
    """Idleness is about frames: the session pings a quiet host, and a pong keeps it."""
    pongs = []

    async def handler(tls, n):
        conn = await read_hello(tls)
        await tls.send_all(welcome(conn))
        with trio.move_on_after(2.5):
            while True:
                data = await tls.receive_some(65536)
                conn.receive_data(bytes(data))
                while True:
                    event = conn.next_event()
                    if isinstance(event, Ping):
                        pongs.append(event.nonce)
                        from jupai_net.protocol import Pong
                        await tls.send_all(conn.send(Pong(event.nonce)))
                    elif not hasattr(event, "type"):
                        break
        await tls.send_all(conn.send(Bye("host-shutdown")))

    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve, handler)
        with trio.fail_after(10):
            result = await run_session("127.0.0.1", port, name="me", player=BotPlayer("random"),
                                       check_fingerprint=trust, save_resume=False, idle_timeout=1.0)
        nursery.cancel_scope.cancel()
    assert len(pongs) >= 3  # pinged every third of the idle timeout, kept alive by the pongs
    assert result.error == ("bye", "the host was stopped")


# ------------------------------------------------------------------ messages out of order


def _messages() -> list:
    action = Action("pass")
    return [
        Start(bytes(16), RULES),
        Prompt(3, (action,), 5000, "attack round 1"),
        Sync(3, {"hand": [1, 2], "to_move": 0}),
        End("finished", {"ranking": [9, "x"], "winner": 7, "names": ["a"], "cards_left": []}),
        End("aborted", {"reason": "bye"}),
        Lobby((PlayerInfo(0, "me"),)),
        Notice("turn-timeout", "late"),
        Ping(1),
        Statement("step", b"\x81\xa4kind\xa4step", b"\x00" * 64),
        Reject(3, "illegal-action", "no"),
        Welcome(1, "t" * 20, RULES),
        ErrorMessage("kicked", "go"),
        Bye("host-shutdown"),
        Series(bytes(16), 1, 2, False, (SeriesStanding("me", 1, 1, 1, 1), SeriesStanding("x", 0, 0, 1, 0))),
        Series(bytes(16), 2, 2, True, ()),
    ]


async def _hostile_run(order: list[int], stay: bool = False) -> object:
    """A host that welcomes, then sends the messages of ``order`` (indexes into
    :func:`_messages`) with valid framing and sequence numbers, in that order."""
    msgs = _messages()

    async def handler(tls, n):
        conn = await read_hello(tls)
        data = welcome(conn)
        seq = conn.our_seq
        for i in order:
            data += encode_frame(msgs[i].to_wire(seq=seq))
            seq += 1
        await tls.send_all(data)
        await trio.sleep(1)

    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve, handler)
        with trio.fail_after(20):
            result = await run_session("127.0.0.1", port, name="me", player=BotPlayer("random"),
                                       check_fingerprint=trust, save_resume=False, reconnect_for=0,
                                       idle_timeout=0.5, stay=stay)
        nursery.cancel_scope.cancel()
    return result


async def test_a_prompt_before_any_statement_ends_with_a_clear_error():
    """Old code: `ActionMessage(game_id=None)` raised FieldError out of run_session."""
    result = await _hostile_run([0, 1])  # start, then a prompt before the signed start
    assert result.status == "error"
    assert result.error == ("unexpected-prompt", "the host asked for a move before the game started")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(_messages()) - 1), min_size=1, max_size=8), st.booleans())
def test_run_session_never_raises_for_messages_out_of_order(order, stay):
    result = trio.run(_hostile_run, order, stay)
    assert result.status in ("error", "host-gone", "aborted", "finished", "refused"), result
    if result.status == "error":
        assert result.error and result.error[1], result  # a clear reason


def join_against(tmp_path, handler, *argv: str) -> tuple[int, str, str]:
    """Run `jupai join --bot random` against a hostile host running ``handler``; returns
    (exit code, stdout with whitespace folded, stderr)."""

    async def main() -> subprocess.CompletedProcess:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(serve, handler)
            env = dict(os.environ, JUPAI_CONFIG_DIR=str(tmp_path), LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
            with trio.fail_after(30):
                out = await trio.run_process(JUPAI + ["join", f"127.0.0.1:{port}", "--bot", "random",
                                                      "--code", IDENTITY.join_code, *argv],
                                             env=env, capture_stdout=True, capture_stderr=True, check=False)
            nursery.cancel_scope.cancel()
        return out

    out = trio.run(main)
    return out.returncode, " ".join(out.stdout.decode().split()), out.stderr.decode()


def test_jupai_join_against_a_host_that_prompts_before_the_game(tmp_path):
    """Through the command: one clear sentence, exit 6, no traceback."""

    async def handler(tls, n):
        conn = await read_hello(tls)
        await tls.send_all(welcome(conn) + conn.send(Start(bytes(16), RULES))
                           + encode_frame(Prompt(0, (Action("pass"),), 5000).to_wire(seq=conn.our_seq)))
        await trio.sleep(5)

    code, text, err = join_against(tmp_path, handler)
    assert code == 6, text + err
    assert "jupai join: the host broke the protocol: the host asked for a move before the game started." in err
    assert "Traceback" not in err + text


def test_jupai_join_gives_up_on_a_silent_host(tmp_path):
    async def handler(tls, n):
        conn = await read_hello(tls)
        await tls.send_all(welcome(conn))
        await trio.sleep(20)

    code, text, err = join_against(tmp_path, handler, "--idle-timeout", "1")
    assert code == 6, text + err
    assert "jupai join: connection to the host lost: no message from the host for 1 s." in err
    assert "Traceback" not in err
