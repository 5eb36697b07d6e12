"""The host and hash-chained statements (protocol version 5, specs/protocol.md §6 and
§12, specs/fairness.md §6.5): a seat's stream is chained when its client speaks
version 5 (and a bot's), an older client's stream keeps version-1 bodies, spectators
of both kinds read one public stream each in their format, a late one from its start,
and an older client cannot take back a chained seat."""

from __future__ import annotations

from jupai_net.fairness.statements import split_statement, unpack
from jupai_net.host.table import TableConfig
from jupai_net.messages import t
from jupai_net.protocol import End, ErrorMessage, Statement, Welcome
from jupai_net.rules import RuleSet

from .test_net_support import TableHarness


def versions(h: TableHarness, cid: int) -> list[int]:
    """The body version of every statement ``cid`` received."""
    return [unpack(split_statement(_raw(m))[0])["v"] for m in h.all(cid, Statement)]


def _raw(m: Statement) -> bytes:
    from jupai_net.fairness.statements import join_statement

    return join_statement(m.body, m.sig)


def table(players: int = 3, bots: int = 1) -> TableHarness:
    return TableHarness(TableConfig(rules=RuleSet(players=players, rounds=1, hand_size=2), bots=bots,
                                    dealer="trusted", ready_timeout=None))


def test_each_stream_in_the_format_its_client_reads_and_every_witness_follows():
    h = table()
    new, old = h.connect("Ann"), h.connect("Old", version=4)
    watcher, old_watcher = h.connect("Eve", watch=True), h.connect("Vic", watch=True, version=3)
    h.ready_all(new, old)
    assert h.table.dealer.chained == {h.seat[new], 2, None}  # seat 2: the host's bot
    late = h.connect("Late", watch=True, version=4)  # from the start of the public stream, in version 1
    h.advance(3600)  # the host plays every seat's turn at its time-out: the game runs to its end
    assert h.last(new, End) is not None and h.table.games_started == 1
    assert set(versions(h, new)) == {2} and set(versions(h, watcher)) == {2}
    assert set(versions(h, old)) == set(versions(h, old_watcher)) == set(versions(h, late)) == {1}
    assert len(versions(h, late)) == len(versions(h, watcher)) == len(versions(h, old_watcher))
    for cid in (new, old, watcher, old_watcher, late):  # every witness checked each statement at once
        assert h.witness[cid].verify().status in ("verified", "unverified"), h.witness[cid].verify().reason
    assert h.witness[watcher].verify().ok and h.witness[late].verify().ok


def test_an_older_client_cannot_take_back_a_chained_seat_but_may_take_back_its_own():
    h = table(bots=0)
    seen = []
    h.table.observer = lambda kind, data: seen.append((kind, data))
    new, old, third = h.connect("Ann"), h.connect("Old", version=4), h.connect("Cy")
    h.auto_seed = True
    h.ready_all(new, old, third)
    tokens = {cid: h.last(cid, Welcome).token for cid in (new, old)}
    h.drop(new)
    again = h.connect("Ann", token=tokens[new], version=4)
    err = h.closed[again]
    assert isinstance(err, ErrorMessage) and err.code == "version-mismatch" and "protocol version 5" in err.message
    refused = next(data for kind, data in seen if kind == "refused")  # the host's console says why, en and zh
    assert refused["why"] == "chained-game"
    assert "protocol 4" in t("host.refused.chained-game", "en", **refused["args"])
    assert "协议 5" in t("host.refused.chained-game", "zh", **refused["args"])
    back = h.connect("Ann", token=tokens[new], resume=new)  # the same client, version 5
    assert back not in h.closed and h.last(back, Welcome).seat == h.seat[new]
    h.drop(old)
    old_back = h.connect("Old", token=tokens[old], version=4, resume=old)
    assert old_back not in h.closed and set(versions(h, old_back)) == {1}
