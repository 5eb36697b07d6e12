"""``reject.args`` (protocol version 8, specs/protocol.md §7b): why a move was refused
travels as the engine's IllegalAction code and values, so a Chinese client says it in
Chinese; older clients get the English words as before, and a hostile host's args give
a printable fallback, never a crash (issue 12)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from jupai_net.actions import Action
from jupai_net.client.session import NoticeLine
from jupai_net.client.status_words import MAX_REFUSAL, notice_text, refusal_text
from jupai_net.host.server import for_version
from jupai_net.host.table import TableConfig
from jupai_net.printable import is_printable
from jupai_net.protocol import (ActionMessage, ClientConnection, Hello, HostConnection, LocalProtocolError, Reject,
                                Sync, Welcome, encode_frame)
from jupai_net.protocol.errors import RemoteProtocolError
from jupai_net.rules import RuleSet

from .test_net_support import TableHarness

NOT_HELD = {"illegal": {"code": "not-in-hand", "args": {"cards": ["7♠"]}}}
ENGLISH = "card(s) 7♠ not in your hand"


def _over(client_version: int, msg: Reject) -> Reject:
    """``msg`` from a host to a client that said hello with ``version=client_version``,
    fitted by the server to the negotiated version, sent and decoded on the client."""
    c, h = ClientConnection(), HostConnection()
    h.receive_data(c.send(Hello("Ann", version=client_version, min_version=1)))
    h.next_event()
    c.receive_data(h.send(Welcome(0, "t" * 20, RuleSet(players=2), version=h.version)))
    c.next_event()
    c.receive_data(h.send(for_version(msg, h.version)))
    got = c.next_event()
    assert isinstance(got, Reject)
    return got


def _said(reject: Reject, lang: str) -> str:
    return notice_text(NoticeLine(reject.code, reject.message, 0.0, True, reject.args or None), lang)


def test_the_reason_is_data_for_a_version_8_client_and_words_for_an_older_one():
    msg = Reject(3, "illegal-action", ENGLISH, NOT_HELD)
    new = _over(8, msg)
    assert new.args == NOT_HELD and new.message == ENGLISH
    assert _said(new, "zh") == "现在不能这样行动。你的手牌中没有 7♠"
    assert _said(new, "en") == f"That move is not allowed now. {ENGLISH}"
    old = _over(7, msg)  # a version-7 client would refuse a reject with a key it does not know
    assert old.args == {} and old.message == ENGLISH and "args" not in old.to_wire(seq=0)
    assert _said(old, "en") == f"That move is not allowed now. {ENGLISH}"  # as before
    assert _said(old, "zh") == "现在不能这样行动。"  # the English words stay off a Chinese screen


def test_connections_refuse_reject_args_below_version_8():
    c, h = ClientConnection(), HostConnection()
    h.receive_data(c.send(Hello("Ann", version=7, min_version=1)))
    h.next_event()
    c.receive_data(h.send(Welcome(0, "t" * 20, RuleSet(players=2), version=7)))
    c.next_event()
    with pytest.raises(LocalProtocolError, match="reject.args needs protocol version 8"):
        h.send(Reject(3, "illegal-action", ENGLISH, NOT_HELD))
    c.receive_data(encode_frame(Reject(3, "illegal-action", ENGLISH, NOT_HELD).to_wire(seq=h.our_seq)))
    with pytest.raises(RemoteProtocolError, match="reject.args needs protocol version 8"):
        c.next_event()


def test_reject_args_are_checked_as_a_tree_and_left_out_when_empty():
    wire = Reject(3, "illegal-action", ENGLISH, NOT_HELD).to_wire(seq=0)
    assert wire["args"] == NOT_HELD
    assert "args" not in Reject(3, "stale-state", "late").to_wire(seq=0)
    assert Reject.from_wire(wire) == dataclasses.replace(Reject(3, "illegal-action", ENGLISH, NOT_HELD))
    for bad in ([1, 2], "x", {"illegal": "\x1b[2J"}, {1: 2}):
        with pytest.raises(RemoteProtocolError, match="bad-field"):
            Reject.from_wire({**wire, "args": bad})


def test_the_table_sends_the_engines_reason():
    h = TableHarness(TableConfig(rules=RuleSet(players=2, rounds=4), turn_timeout=10.0, away_delay=1.0))
    a, b = h.connect("Ann"), h.connect("Bob")
    h.ready_all(a, b)
    mover = a if h.prompt_for(a) else b
    other = b if mover == a else a
    gid, version = h.table.dealer.game_id, h.table.dealer.state.version
    h.send(other, ActionMessage(gid, version, Action("pass")))
    rej = h.last(other, Reject)
    to_move = h.seat[mover]
    assert rej.code == "not-your-turn" and rej.args == {"illegal": {"code": "not-your-turn",
                                                                   "args": {"to_move": to_move}}}
    assert _said(rej, "zh") == f"还没轮到你：现在轮到{to_move}号位行动"  # said once, not twice
    assert _said(rej, "en") == f"Not your turn: seat {to_move} is to move"
    p = h.prompt_for(mover)
    hand = set(h.last(mover, Sync).observation["hand"])
    foreign = next(c for c in range(52) if c not in hand)
    bad = next(x for x in p.legal if x.cards)._replace(cards=(foreign,))
    h.send(mover, ActionMessage(gid, version, bad))
    rej = h.last(mover, Reject)
    assert rej.code == "illegal-action" and rej.args["illegal"]["code"] == "not-in-hand", rej
    zh = _said(rej, "zh")
    assert zh.startswith("现在不能这样行动。你的手牌中没有 ") and not re.search("[A-Za-z]{3,}", zh), zh


@pytest.mark.parametrize("args", [
    {"illegal": "not a map"},
    {"illegal": {"code": "a-newer-hosts-code", "args": {}}},
    {"illegal": {"code": "not-in-hand"}},  # its cards missing
    {"illegal": {"code": "not-in-hand", "args": [1, 2]}},
    {"illegal": {"code": 7, "args": {}}},
    {"illegal": {"code": "not-in-hand", "args": {"cards": {"deep": [[["x"]]]}}}},
    {"illegal": {"code": "not-in-hand", "args": {"cards": ["\x1b[2J\u202e" * 400]}}},
    {"illegal": {"code": "other", "args": {"text": "\x07 ring"}}},
    {"illegal": None},
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hostile_hosts_args_give_a_printable_fallback(args, lang):
    said = notice_text(NoticeLine("illegal-action", "the host said no", 0.0, True, args), lang)
    assert said and is_printable(said) and len(said) <= MAX_REFUSAL, said
    if lang == "zh":
        assert said.startswith("现在不能这样行动。"), said
    assert "\x1b" not in said and "\u202e" not in said


def test_a_refusal_the_session_makes_itself_is_said_in_the_language():
    """A player (a bot, a script) that answers with a move not among the legal ones: the
    session refuses it itself; the note was English ("Action(kind='pass', …) is not one
    of the legal actions") on a Chinese screen."""
    from jupai_net.engine import IllegalAction

    why = IllegalAction("not-legal-now", kind="attack")
    note = NoticeLine("illegal-action", why.reason, 0.0, True, {"illegal": why.to_wire()})
    assert notice_text(note, "zh") == "现在不能这样行动。现在不能用这些牌、武器或目标进攻"
    assert notice_text(note, "en") == "That move is not allowed now. attack with these cards/weapon/target is not legal now"
    assert refusal_text("illegal-action", "x", "zh") is None


def test_a_refused_move_through_jupai_join_in_chinese(tmp_path):
    """Through the command a person types (``jupai join --lang zh`` on a terminal): a host
    refuses with args — the reason is said in Chinese — and a hostile host's args give
    the lead alone; no English words in the notices, no traceback."""
    import threading

    import trio

    from .test_client_cli import ANSI, Terminal, _env
    from .test_net_hostile_host import IDENTITY, read_hello, serve, welcome
    from .test_net_play import JUPAI

    ready = threading.Event()
    port: list[int] = []
    stop = threading.Event()

    async def handler(tls, n):
        conn = await read_hello(tls)
        hostile = {"illegal": {"code": "a-newer-hosts-code", "args": {"cards": {"x": ["y"]}}}, "extra": [1]}
        await tls.send_all(welcome(conn) + conn.send(Reject(None, "illegal-action", ENGLISH, NOT_HELD))
                           + conn.send(Reject(None, "not-your-turn", "seat 1 is to move", hostile)))
        while not stop.is_set():
            await trio.sleep(0.05)
        from jupai_net.protocol.messages import Bye

        await tls.send_all(conn.send(Bye("host-shutdown")))
        await trio.sleep(0.5)

    async def host() -> None:
        async with trio.open_nursery() as nursery:
            port.append(await nursery.start(serve, handler))
            ready.set()
            while not stop.is_set():
                await trio.sleep(0.05)
            await trio.sleep(1)
            nursery.cancel_scope.cancel()

    thread = threading.Thread(target=trio.run, args=(host,), daemon=True)
    thread.start()
    assert ready.wait(10)
    env = _env(tmp_path, "config", "zh_CN.UTF-8")
    env.update(COLUMNS="80", LINES="24")
    term = Terminal(JUPAI + ["join", f"127.0.0.1:{port[0]}", "--code", IDENTITY.join_code, "--lang", "zh",
                             "--name", "Ann"], env, rows=24, cols=80)
    try:
        term.expect("你的手牌中没有 7♠", timeout=30)
        term.expect("还没轮到你", timeout=10)
        stop.set()
        term.wait(20)
        raw = term.raw.decode("utf-8", "replace")
        notices = [line for line in ANSI.sub("", raw).splitlines() if "现在不能这样行动" in line or "还没轮到你" in line]
        assert notices and "Traceback" not in term.text, term.text[-2000:]
        for line in notices:
            assert not re.search("[A-Za-z]{3,}", line), line
            assert "现在不能这样行动。你的手牌中没有 7♠" in line or "还没轮到你。" in line, line
    finally:
        stop.set()
        term.close()
        thread.join(10)
