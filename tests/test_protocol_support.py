"""Shared helpers for the protocol tests: one valid sample of every message, and
connections driven (through the real exchange) into each state. No tests here."""

from __future__ import annotations

from jupai_net.actions import Action
from jupai_net.protocol import (
    NEED_DATA,
    ActionMessage,
    Bye,
    Chat,
    ChatRelay,
    ClientConnection,
    End,
    ErrorMessage,
    Hello,
    HostConnection,
    Lobby,
    Message,
    Notice,
    Ping,
    PlayerInfo,
    Pong,
    Prompt,
    Ready,
    Reject,
    SeedCommit,
    SeedReveal,
    Blind,
    Series,
    SeriesStanding,
    Start,
    Statement,
    Sync,
    Welcome,
)
from jupai_net.protocol.framing import encode_frame
from jupai_net.rules import RuleSet

GAME_ID = bytes(range(16))
GAME_ID_2 = bytes(range(16, 32))
TOKEN = "tok_" + "A" * 28
RULES = RuleSet(players=4)
PLAYERS = (
    PlayerInfo(0, "Ann", ready=True),
    PlayerInfo(1, "李雷"),
    PlayerInfo(2, "Bot 2", ready=True, bot=True),
)

CLIENT_SAMPLES: dict[str, Message] = {
    "hello": Hello("Ann", lang="zh", seat=0, token=TOKEN),
    "ready": Ready(True),
    "seed_commit": SeedCommit(GAME_ID, b"\x01" * 32),
    "seed_reveal": SeedReveal(GAME_ID, b"\x02" * 32),
    "blind": Blind(GAME_ID, b"\x92\xc4\x01\x00\xc4\x40" + b"\x00" * 64),
    "action": ActionMessage(GAME_ID, 7, Action("attack", target=2, cards=(12,), weapon=True)),
    "chat": Chat("你好 — good luck!"),
    "ping": Ping(41),
    "pong": Pong(42),
    "bye": Bye("quit"),
    "error": ErrorMessage("bad-field", "prompt message: field 'legal' is missing"),
}

HOST_SAMPLES: dict[str, Message] = {
    "welcome": Welcome(seat=0, token=TOKEN, rules=RULES, players=PLAYERS),
    "lobby": Lobby(PLAYERS),
    "start": Start(GAME_ID, RULES),
    "statement": Statement("deal", b"\x93\x01\x02\x03" * 100, b"\x07" * 64),
    "prompt": Prompt(
        7,
        (Action("pass"), Action("attack", target=1, cards=(3,)), Action("supply-recovered", cards=(5,), recovered=(8, 9))),
        timeout_ms=30_000,
        pending="attack",
    ),
    "sync": Sync(7, {"seat": 0, "hand": [1, 2, 52], "players": [{"seat": 1, "identity": None}], "x": 1.5, "b": b"\x00"}),
    "reject": Reject(6, "stale-state", "state 6 is gone, the table is at state 7"),
    "chat": ChatRelay(1, "李雷", "hi"),
    "notice": Notice("turn-timeout", "seat 2 timed out; pass was played"),
    "end": End("finished", {"ranking": [0, 2, 1, 3]}),
    "series": Series(GAME_ID, 2, 3, False, (SeriesStanding("李雷", 5, 1, 2, 3), SeriesStanding("Ann", 1, 0, 1, None))),
    "ping": Ping(1),
    "pong": Pong(2),
    "bye": Bye("host-shutdown"),
    "error": ErrorMessage("table-full", "all 4 seats are taken"),
}


def frame(msg: Message, seq: int) -> bytes:
    """The raw frame of ``msg`` with ``seq``, bypassing any sender-side check."""
    return encode_frame(msg.to_wire(seq=seq))


def deliver(sender, receiver, msg: Message) -> Message:
    """``sender.send(msg)`` fed to ``receiver``; returns the one event it yields."""
    receiver.receive_data(sender.send(msg))
    event = receiver.next_event()
    assert receiver.next_event() is NEED_DATA
    return event


def pair(stage: str) -> tuple[ClientConnection, HostConnection]:
    """A client and a host connection that went through the real exchange up to ``stage``:
    ``new``, ``hello`` (hello sent and received), ``lobby`` (welcome), ``game``
    (start), ``lobby-after-game`` (start, then end)."""
    c, h = ClientConnection(), HostConnection()
    steps = ["hello", "lobby", "game", "lobby-after-game"]
    todo = steps[: steps.index(stage) + 1] if stage != "new" else []
    for step in todo:
        if step == "hello":
            deliver(c, h, Hello("Ann"))
        elif step == "lobby":
            deliver(h, c, Welcome(seat=0, token=TOKEN, rules=RULES))
        elif step == "game":
            deliver(h, c, Start(GAME_ID, RULES))
        else:
            deliver(h, c, End("finished"))
    return c, h
