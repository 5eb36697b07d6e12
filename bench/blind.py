"""Benchmark of dealer-blind dealing (issue 9, specs/fairness.md Part B),
in process, against the trusted commit–reveal dealer in the same run.

Measured, interleaved blind/trusted per sample, medians:

* **setup** for 2, 4 and 6 players × 53 cards: hellos, every shuffle pass, every
  re-lock with its lock commitments, and the opening of the first hands (each seat's
  equipment and hand privately, the first round card publicly), every message checked
  by one ledger — against the trusted dealer's start/commit/reveal/deal with every
  seat's witness;
* **one card opening**: the other participants' key messages checked by the ledger and
  the holder's unlock;
* **verify**: a fresh ledger re-checks every message of a 4-player blind deal in which
  every card was opened (the most key traffic a game can have), then the audit
  recomputes every pass from the revealed seeds — against ``verify_transcript`` of a
  whole trusted 4-player game;
* optionally (``--proofs R``) the cost of one cut-and-choose shuffle proof of R rounds.

Wall-clock figures suffer from other processes on the machine; the ``cpu`` column
(``time.process_time`` of this process) does not.

Aims (issue 9): setup < 1 s for 4 players, opening < 20 ms, verify < 1 s.
Run: ``python bench/blind.py [--samples N] [--proofs R]``. Prints the load average:
other processes on the machine slow every figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from jupai_net.fairness import HostDealer, SeatWitness, generate_signing_key, make_game_id, verify_transcript
from jupai_net.fairness.blind import ParticipantSecrets, check_shuffle_proof, initial_deck, table_participants
from jupai_net.fairness.blind_ledger import BlindLedger, run_deal
from jupai_net.fairness.blind_schedule import deal_openings
from jupai_net.fairness.selfplay import deliver, play_game
from jupai_net.rules import RuleSet


def open_batch(people, ledger: BlindLedger, openings) -> list[int]:
    """Request ``openings``, one keys message per participant, then every holder unlocks."""
    for q, to in openings:
        ledger.request(q, to)
    for p in people:
        mine = [(q, to) for q, to in openings if to != p.pid]
        if mine:
            ledger.receive(p.keys(mine))
    by_pid = {p.pid: p for p in people}
    return [ledger.open_public(q) if to is None else by_pid[to].open(ledger, q) for q, to in openings]


def blind_setup(rules: RuleSet):
    people, ledger, messages = run_deal(make_game_id(), table_participants(rules.players))
    open_batch(people, ledger, deal_openings(rules))
    return people, ledger


def trusted_setup(rules: RuleSet) -> None:
    dealer = HostDealer(rules, generate_signing_key())
    ws = {s: SeatWitness(s) for s in range(rules.players)}
    deliver(dealer.start(), ws)
    for s in range(rules.players):
        deliver(dealer.commit(s, ws[s].commitment), ws)
    for s in range(rules.players):
        deliver(dealer.reveal(s, ws[s].seed_reveal()), ws)


def blind_game_record(rules: RuleSet):
    """A 4-player blind deal, every card opened (first hands, then the rest publicly),
    every seed revealed: (game id, the messages in order, the requests in order)."""
    gid = make_game_id()
    people, ledger, messages = run_deal(gid, table_participants(rules.players))
    log: list = []
    first = deal_openings(rules)
    rest = [(q, None) for q in range(53) if q not in {p for p, _ in first}]
    for batch in (first, rest):
        for q, to in batch:
            ledger.request(q, to)
            log.append(("request", q, to))
        for p in people:
            mine = [(q, to) for q, to in batch if to != p.pid]
            m = p.keys(mine)
            ledger.receive(m)
            log.append(("message", m))
    for p in people:
        m = p.seed()
        ledger.receive(m)
        log.append(("message", m))
    return gid, messages, log


def blind_verify(rules: RuleSet, gid: bytes, messages, log) -> list[int]:
    ledger = BlindLedger(gid, table_participants(rules.players))
    for m in messages:
        ledger.receive(m)
    for entry in log:
        if entry[0] == "request":
            ledger.request(entry[1], entry[2])
        else:
            ledger.receive(entry[1])
    return ledger.audit()


def _fmt(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:8.1f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=5, help="samples per figure (default 5)")
    ap.add_argument("--proofs", type=int, default=0, metavar="R", help="also time one shuffle proof of R rounds")
    args = ap.parse_args(argv)
    if args.samples < 1:
        ap.error("--samples must be at least 1")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}   cores: {os.cpu_count()}")
    print(f"{'figure (medians)':44} {'blind':>11} {'trusted':>11} {'ratio':>8} {'blind cpu':>11}")
    results = {}
    for players in (2, 4, 6):
        rules = RuleSet(players=players)
        b, t, c = [], [], []
        for _ in range(args.samples):  # interleaved
            t0, c0 = time.perf_counter(), time.process_time()
            blind_setup(rules)
            t1 = time.perf_counter()
            c.append(time.process_time() - c0)
            trusted_setup(rules)
            t2 = time.perf_counter()
            b.append(t1 - t0)
            t.append(t2 - t1)
        results[players] = statistics.median(b)
        print(f"{f'setup + first hands, {players} players':44} {_fmt(b)} {_fmt(t)} {statistics.median(b) / statistics.median(t):7.0f}× {_fmt(c)}")

    rules = RuleSet(players=4)
    people, ledger = blind_setup(rules)
    free = [q for q in range(53) if all(q != p for p, _ in deal_openings(rules))]
    o, oc = [], []
    for q in free[: max(args.samples, 10)]:
        t0, c0 = time.perf_counter(), time.process_time()
        open_batch(people, ledger, [(q, 1)])
        o.append(time.perf_counter() - t0)
        oc.append(time.process_time() - c0)
    print(f"{'one card opening (4 players, checked)':44} {_fmt(o)} {'—':>11} {'':>8} {_fmt(oc)}")

    vb, vt, vc = [], [], []
    for g in range(args.samples):
        record = blind_game_record(rules)
        trusted = play_game(rules, rng_seed=g).transcript(0)
        t0, c0 = time.perf_counter(), time.process_time()
        blind_verify(rules, *record)
        t1 = time.perf_counter()
        vc.append(time.process_time() - c0)
        v = verify_transcript(trusted)
        t2 = time.perf_counter()
        assert v.ok, v.reason
        vb.append(t1 - t0)
        vt.append(t2 - t1)
    print(f"{'verify a 4-player game (deal + audit)':44} {_fmt(vb)} {_fmt(vt)} {statistics.median(vb) / statistics.median(vt):7.0f}× {_fmt(vc)}")

    if args.proofs:
        gid = make_game_id()
        s = ParticipantSecrets(gid, 0)
        deck = initial_deck()
        out = s.shuffle(deck)
        pr, ch, prc, chc = [], [], [], []
        for _ in range(max(1, args.samples // 2)):
            t0, c0 = time.perf_counter(), time.process_time()
            proof = s.prove(0, deck, out, args.proofs)
            t1, c1 = time.perf_counter(), time.process_time()
            check_shuffle_proof(gid, 0, 0, deck, out, proof, args.proofs)
            t2, c2 = time.perf_counter(), time.process_time()
            pr.append(t1 - t0)
            ch.append(t2 - t1)
            prc.append(c1 - c0)
            chc.append(c2 - c1)
        print(f"{f'shuffle proof, {args.proofs} rounds: prove':44} {_fmt(pr)} {'':>11} {'':>8} {_fmt(prc)}")
        print(f"{f'shuffle proof, {args.proofs} rounds: check (each)':44} {_fmt(ch)} {'':>11} {'':>8} {_fmt(chc)}")
        four = 5 * (statistics.median(prc) + 4 * statistics.median(chc))
        print(f"  → proofs would add ≈ {four:.1f} s of CPU to a 4-player setup (5 passes, 4 checkers each)")

    om = statistics.median(o) * 1000
    print(f"aims: setup 4 players < 1 s: {'met' if results[4] < 1 else 'NOT met'} ({results[4]:.2f} s);"
          f" opening < 20 ms: {'met' if om < 20 else 'NOT met'} ({om:.1f} ms);"
          f" verify < 1 s: {'met' if statistics.median(vb) < 1 else 'NOT met'} ({statistics.median(vb):.2f} s)")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
