"""The host of a dealer-blind table, and any coalition with it, learns no person's
card before the rules make it public (issue 9, "A test proves blindness";
specs/fairness.md B.1, B.11, B.16.2).

One 3-seat game over TCP+TLS (two clients, the host's bot in seat 2), and everything
the host process leaves behind or shows is searched for a card of a person's seat:

* its log (every record at DEBUG that is not a client's) and its console (the host
  screen's lines, in English and Chinese), scanned for card names (``10♥``, ``K♠``,
  ``JK``/``小王``) at the state each line was written;
* its saved transcripts up to the end (before the seeds of the audit), decoded: the
  deck positions each statement names, mapped through the audited deck, and every
  position the host can open from those statements with its own secrets (the host's
  participant and its bot's);
* the pool of the host and one seat (every frame that seat received, both programs'
  secrets), which must open no card of the other seat before it is public: the
  engine-level pool of tests/test_blind_game.py pools the engines' card tables; this
  one pools the bytes that travelled, and tries every key in them.

What each may know at each state is the trusted replay's ``known_cards`` on the
audited deck. Every check is shown to fail on a leak (a seat's own hand)."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterable
from typing import Any

import msgpack
import trio
from rich.console import Console

from jupai_net.blind_game import trusted_record
from jupai_net.cards import card_name
from jupai_net.client.card_words import cards_text
from jupai_net.fairness import VERIFIED
from jupai_net.fairness.blind import CardTable, scalar_from_bytes, table_participants, unlock
from jupai_net.fairness.blind_ledger import BlindParticipant, decode_message
from jupai_net.fairness.statements import decode_body, split_statement
from jupai_net.fairness.transcript import decode_transcript
from jupai_net.host import cli as host_cli

from .test_net_blind import tapped_clients
from .test_net_support import card_ids, host_config, known_by_version, start_host

SEATS, BOT = 3, 2  # two clients (seats 0 and 1) and the host's bot (seat 2)

#: Card names as the host's log and screen spell them (jupai_net.cards.card_name; the
#: small joker is "JK", "小王" in Chinese).
_NAME = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[♠♥♣♦]|(?<![A-Za-z])JK(?![A-Za-z])|小王")
_CARD_OF = {**{card_name(c): c for c in range(53)}, "小王": 52}


def cards_named(text: str) -> set[int]:
    """Every card id whose name appears in ``text``."""
    return {_CARD_OF[m] for m in _NAME.findall(text)}


def leaky_lines(lines: Iterable[tuple[int, str]], allowed: list[frozenset[int]]) -> list[tuple[int, str, list[int]]]:
    """``(state, line, cards)`` for every line written at ``state`` that names a card
    outside ``allowed[state]``."""
    out = []
    for v, text in lines:
        extra = cards_named(text) - allowed[min(v, len(allowed) - 1)]
        if extra:
            out.append((v, text, sorted(extra)))
    return out


def statements(raws: Iterable[bytes]) -> list[dict[str, Any]]:
    """The bodies of a stream's statements, up to its ``end``/``abandon`` (the seeds of
    the audit come after it)."""
    out = []
    for raw in raws:
        body = decode_body(split_statement(raw)[0])
        out.append(body)
        if body["kind"] in ("end", "abandon"):
            break
    return out


def pooled_openings(bodies: list[dict[str, Any]], secrets: dict[int, Any]) -> dict[int, tuple[int, int]]:
    """What a coalition holding ``secrets`` (pid → ``ParticipantSecrets``) opens from the
    statements ``bodies`` (in stream order): ``{position: (card, state)}``, ``state``
    being the game's state (a claim of state v counts as v + 1: its cards open to
    everyone) when the last key it lacked came. It tries every key any message carries
    for a position, whoever it was sent to, with its own lock keys, on the final locked
    deck (the last re-lock pass)."""
    pids = table_participants(SEATS)
    points = CardTable()
    keys: dict[int, dict[int, int]] = {}
    deck: list[bytes] | None = None
    relocks, state = 0, 0
    opened: dict[int, tuple[int, int]] = {}

    def attempt(qs: Iterable[int]) -> None:
        for q in qs:
            have = {**keys.get(q, {}), **{p: s.lock_key(q) for p, s in secrets.items()}}
            if q in opened or deck is None or set(have) != set(pids):
                continue
            card = points.card(unlock(deck[q], have.values()))
            assert card is not None, f"position {q} opens to no card with every key"
            opened[q] = (card, state)

    for body in bodies:
        if body["kind"] == "claim":
            state = body["version"] + 1
        if body["kind"] != "blind":
            continue
        msg = decode_message(body["msg"])[0]
        if msg["kind"] == "relock":
            relocks += 1
            if relocks == len(pids):
                deck = list(msg["deck"])
                attempt(range(len(deck)))
        elif msg["kind"] == "keys":
            for q, _to, key in msg["keys"]:
                keys.setdefault(q, {})[msg["from"]] = scalar_from_bytes(key)
            attempt({q for q, _, _ in msg["keys"]})
    return opened


def late(opened: dict[int, tuple[int, int]], allowed: list[frozenset[int]]) -> list[tuple[int, int, int]]:
    """``(position, card, state)`` of every opening of a card not in ``allowed`` at its state."""
    return [(q, c, v) for q, (c, v) in sorted(opened.items()) if c not in allowed[min(v, len(allowed) - 1)]]


async def test_the_host_and_a_coalition_with_one_seat_learn_no_persons_card_before_it_is_public(
        tmp_path, monkeypatch, caplog):
    made: list[BlindParticipant] = []  # every participant the programs of this process make
    init = BlindParticipant.__init__

    def record(self, *a, **kw):
        init(self, *a, **kw)
        made.append(self)

    monkeypatch.setattr(BlindParticipant, "__init__", record)
    box: dict[str, Any] = {}

    def state_now() -> int:
        table = box["server"].tables[0] if "server" in box and box["server"].tables else None
        play = table.blind.play if table is not None and table.blind is not None else None
        return play.version if play is not None else 0

    logged: list[tuple[int, str]] = []

    class Host(logging.Handler):
        def emit(self, rec: logging.LogRecord) -> None:
            if not rec.name.startswith("jupai.client"):  # the clients run in this process too
                logged.append((state_now(), rec.getMessage() + (self.formatException(rec.exc_info)
                                                                if rec.exc_info else "")))

    handler = Host(logging.DEBUG)
    caplog.set_level(logging.DEBUG)
    logging.getLogger().addHandler(handler)
    screens = [(io.StringIO(), lang) for lang in ("en", "zh")]
    screens = [(out, host_cli.HostScreen(Console(file=out, width=200, color_system=None), lang=lang))
               for out, lang in screens]
    shown: list[tuple[int, str]] = []

    def observer(tid: int, kind: str, data: dict[str, Any]) -> None:
        for out, screen in screens:
            start = len(out.getvalue())
            screen(tid, kind, data)
            shown.extend((state_now(), line) for line in out.getvalue()[start:].splitlines())

    config = host_config(SEATS, bots=1, dealer="blind", rounds=3, transcript_dir=tmp_path / "host")
    results, taps = {}, {}
    try:
        async with trio.open_nursery() as nursery:
            box["server"] = server = await start_host(nursery, config, observer=observer)
            await tapped_clients(server.port, SEATS - 1, taps, results, name="p")
            with trio.fail_after(20):
                await server.done.wait()
            nursery.cancel_scope.cancel()
    finally:
        logging.getLogger().removeHandler(handler)
    assert {r.seat for r in results.values()} == {0, 1}
    assert all(r.status == "finished" and r.verdict.status == VERIFIED for r in results.values()), results
    table = server.tables[0]
    deck = table.blind.ledger.audit()
    record_ = trusted_record(table.blind.play.game.state.record(), deck)
    public = known_by_version(record_, None)
    known = {s: known_by_version(record_, s) for s in range(SEATS)}
    host_may = [public[v] | known[BOT][v] for v in range(len(public))]  # its bot's cards are the host's
    hand = {s: known[s][0] - public[0] for s in range(SEATS)}  # each seat's deal, hidden from the others
    assert len(public) > 4 and all(hand.values())

    # 1. the host's log and console: no card name of a person's seat before it is public
    assert logged and any("dealer-blind" in text for _, text in logged)
    assert any(cards_named(text) for _, text in shown), "the host screen showed no card at all"
    assert leaky_lines(logged, host_may) == [] and leaky_lines(shown, host_may) == []
    for seat in (0, 1):  # the check fails on a line that names a person's hand
        assert leaky_lines([(0, f"seat {seat} holds {cards_text(sorted(hand[seat]))}")], host_may)

    # 2. the host's saved transcripts up to the end: the positions they name, and what
    # the host's own secrets open from them
    host_secrets = {pid: p.secrets for pid, p in table.blind.actor.people.items()}
    assert set(host_secrets) == {0xFF, BOT}
    files = sorted((tmp_path / "host").glob("*.jupai"))
    assert len(files) == SEATS
    for path in files:
        bodies = statements(decode_transcript(path.read_bytes()).statements)
        assert bodies[-1]["kind"] == "end" and any(b["kind"] == "claim" for b in bodies)
        for b in bodies:  # a claim's positions are public once its step is made (B.16.3)
            v = min(b.get("version", len(public) - 1) + (b["kind"] == "claim"), len(public) - 1)
            cards = {deck[q] for q in card_ids(b)}
            assert cards <= host_may[v], (b["kind"], v, sorted(cards - host_may[v]))
        opened = pooled_openings(bodies, host_secrets)
        assert late(opened, host_may) == []
        assert {c for c, _ in opened.values()} >= hand[BOT]  # not vacuous: it opens its bot's hand
        everyone = {**host_secrets, **{p.pid: p.secrets for p in made if p.pid in (0, 1)
                                       and p.game_id == table.dealer.game_id}}
        assert late(pooled_openings(bodies, everyone), host_may)  # with the persons' keys it would know

    # 3. the host pooled with one seat: every frame that seat received, both secrets
    for victim, friend in ((0, 1), (1, 0)):
        frames = taps[next(i for i, r in results.items() if r.seat == friend)].frames()
        bodies = statements(msgpack.packb([f["body"], f["sig"]]) for f in frames if f["type"] == "statement")
        friend_p = next(p for p in made if p.pid == friend and p.game_id == table.dealer.game_id)
        coalition = {**host_secrets, friend: friend_p.secrets}
        may = [host_may[v] | known[friend][v] for v in range(len(public))]
        opened = pooled_openings(bodies, coalition)
        assert late(opened, may) == [], f"the host and seat {friend} learn seat {victim}'s cards"
        assert {c for c, _ in opened.values()} >= hand[friend] | hand[BOT]
        assert not {c for c, _ in opened.values()} & (hand[victim] - public[-1])
        victim_p = next(p for p in made if p.pid == victim and p.game_id == table.dealer.game_id)
        assert late(pooled_openings(bodies, {**coalition, victim: victim_p.secrets}), may)
