"""The host and hash-chained statements (protocol versions 5 and 6, specs/protocol.md §6
and §12, specs/fairness.md §6.5, §6.6): a seat's stream is in version-3 bodies (steps
signed only for the seat to move) when its client speaks version 6 (and a bot's),
chained in version-2 bodies when it speaks version 5, an older client's stream keeps
version-1 bodies, spectators of both kinds read one public stream each in their
format, a late one from its start, and an older client cannot take back a seat whose
stream is in a newer format."""

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
    h = table(players=4)
    new, mid, old = h.connect("Ann"), h.connect("Mia", version=5), h.connect("Old", version=4)
    watcher, old_watcher = h.connect("Eve", watch=True), h.connect("Vic", watch=True, version=3)
    h.ready_all(new, mid, old)
    assert h.table.dealer.chained == {h.seat[new], h.seat[mid], 3, None}  # seat 3: the host's bot
    assert h.table.dealer.deferred == {h.seat[new], 3}
    late = h.connect("Late", watch=True, version=4)  # from the start of the public stream, in version 1
    h.advance(3600)  # the host plays every seat's turn at its time-out: the game runs to its end
    assert h.last(new, End) is not None and h.table.games_started == 1
    assert set(versions(h, new)) == {3} and set(versions(h, mid)) == {2} and set(versions(h, watcher)) == {2}
    assert set(versions(h, old)) == set(versions(h, old_watcher)) == set(versions(h, late)) == {1}
    assert len(versions(h, late)) == len(versions(h, watcher)) == len(versions(h, old_watcher))
    # only the version-6 client's steps may come unsigned; its last statement (end) is signed
    assert any(not m.sig for m in h.all(new, Statement)) and h.all(new, Statement)[-1].sig
    assert all(m.sig for cid in (mid, old, watcher, old_watcher, late) for m in h.all(cid, Statement))
    for cid in (new, mid, old, watcher, old_watcher, late):  # every witness checked each statement at once
        assert h.witness[cid].verify().status in ("verified", "unverified"), h.witness[cid].verify().reason
    assert h.witness[watcher].verify().ok and h.witness[late].verify().ok


def test_an_older_client_cannot_take_back_a_chained_seat_but_may_take_back_its_own():
    h = table(players=4, bots=0)
    seen = []
    h.table.observer = lambda kind, data: seen.append((kind, data))
    new, old, third, mid = h.connect("Ann"), h.connect("Old", version=4), h.connect("Cy"), h.connect("Mia", version=5)
    h.auto_seed = True
    h.ready_all(new, old, third, mid)
    tokens = {cid: h.last(cid, Welcome).token for cid in (new, old, mid)}
    h.drop(new)
    again = h.connect("Ann", token=tokens[new], version=4)
    err = h.closed[again]
    assert isinstance(err, ErrorMessage) and err.code == "version-mismatch" and "protocol version 6" in err.message
    refused = next(data for kind, data in seen if kind == "refused")  # the host's console says why, en and zh
    assert refused["why"] == "chained-game"
    assert "protocol 4" in t("host.refused.chained-game", "en", **refused["args"])
    assert "协议 6" in t("host.refused.chained-game", "zh", **refused["args"])
    again = h.connect("Ann", token=tokens[new], version=5)  # version 5 reads chained bodies, not version 3
    assert "protocol version 6" in h.closed[again].message
    back = h.connect("Ann", token=tokens[new], resume=new)  # the same client, version 6
    assert back not in h.closed and h.last(back, Welcome).seat == h.seat[new]
    h.drop(mid)  # a version-2 stream: a version-4 client is refused, version 5 or 6 takes it back
    again = h.connect("Mia", token=tokens[mid], version=4)
    assert "protocol version 5" in h.closed[again].message
    mid_back = h.connect("Mia", token=tokens[mid], resume=mid)
    assert mid_back not in h.closed and set(versions(h, mid_back)) == {2}
    h.drop(old)
    old_back = h.connect("Old", token=tokens[old], version=4, resume=old)
    assert old_back not in h.closed and set(versions(h, old_back)) == {1}
