"""Property (issue 7): whatever a hostile host does — drop the game, restart it under a
new game id, abandon at any point, stop sending, replay statements or a whole game from
another game, re-sign with another key, grind its seed against a seed it has seen —
the honest seat's verdict is never **verified** unless the deck was fixed (the host
seed committed in `start`) before the host saw that seat's seed; and a game stopped
after the seat sent its seed is never less than **suspicious** (specs/fairness.md §1,
§9). In memory, no TCP: the host is the dealer of the hostile tests (``RiggedDealer``,
whose bot seed the host picks so it can grind), with the forging helpers of
tests/test_fairness_hostile.py; the honest seat follows the client session's rules
(a new witness and a fresh seed for every game id once its `start` is in; an unfinished
game is noted ``host_gone`` when another starts or the host goes)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupai_net.fairness import (
    SUSPICIOUS,
    TAMPERED,
    VERIFIED,
    FairnessViolation,
    SeatWitness,
    verify_transcript,
)
from jupai_net.fairness.primitives import shuffle_deck
from jupai_net.fairness.statements import pack, split_statement
from jupai_net.rules import RuleSet

from .test_fairness_hostile import KEY, OTHER, body, cert_for, signed
from .test_net_hostile_session import RiggedDealer

RULES = RuleSet(players=2, rounds=2, hand_size=2)
VICTIM, BOT = 0, 1
CERT = cert_for(KEY)  # the certificate the victim pinned: it carries KEY

STOPS = ("end", "abandon-before-seed", "abandon-after-seed", "abandon-after-seed-seedless", "withhold-seeds",
         "restart-after-seed", "abandon-mid", "abandon-mid-seedless", "vanish-mid", "restart-mid", "forged-end")
TAMPERS = (None, None, "other-key", "foreign-statement", "resign-start")
seed32 = st.binary(min_size=32, max_size=32)
game_plan = st.fixed_dictionaries({
    "replay": st.booleans(), "grind": st.booleans(), "stop": st.sampled_from(STOPS), "steps": st.integers(0, 8),
    "tamper": st.sampled_from(TAMPERS), "at": st.integers(0, 8), "game_id": st.binary(min_size=16, max_size=16),
    "host_seed": seed32, "bot_seed": seed32, "rng": st.integers(0, 2**16),
})


class Victim:
    """The honest seat, by the client session's rules (client/session.py ``_on_start``,
    ``_retire``, ``_on_statement``, ``_seed_step``): the host's (unsigned) start message
    of a new game id makes a new witness with a fresh seed, retiring an unfinished one;
    the same game id again means its statements are resent; every statement goes to
    the current witness, which answers ``start`` with its commitment and ``commitments``
    with its seed; the game ends at its end, its first failed check, or the host gone."""

    def __init__(self, timeline: list):
        self.timeline = timeline
        self.w: SeatWitness | None = None
        self.games: list[SeatWitness] = []
        self.sent: list[bytes] = []
        self.resent: int | None = None  # after a start of the running game: statements resent

    @property
    def over(self) -> bool:
        """The current game has ended for this seat (over, refused, or the host gone)."""
        w = self.w
        return w is None or w.finished or w.violation is not None or w.host_gone_note is not None

    def announce(self, game_id: bytes) -> None:
        """The host's start message for ``game_id``."""
        self.resent = None
        if not self.over and self.w.game_id in (game_id, None):
            self.resent = 0  # the running game again (a reconnect): resent from the start
            return
        if not self.over:
            self.w.host_gone("the host started another game before this one ended")
        self.w = SeatWitness(VICTIM, host_cert=CERT)  # a fresh seed, made now
        self.games.append(self.w)

    def receive(self, raw: bytes):
        """Take one statement; returns ``("commit", c)``, ``("reveal", seed)`` or None."""
        w = self.w
        if self.over:
            return None  # nobody is listening any more
        if self.resent is not None:
            if self.resent < len(w._raw) and w._raw[self.resent] == raw:
                self.resent += 1
                return None  # already checked
            self.resent = None
        try:
            st_ = self.w.receive(raw)
        except FairnessViolation:
            return None
        if st_.kind == "start":  # the deck is fixed from here (the host commitment)
            self.timeline.append(("start", w.game_id))
            return "commit", self.w.commitment
        if st_.kind == "commitments":
            seed = self.w.seed_reveal()
            self.sent.append(seed)
            return "reveal", seed
        return None

    def host_gone(self) -> None:
        if self.w is not None and not self.w.finished:
            self.w.host_gone("connection lost")


class HostileHost:
    """Plays one planned game after another against the victim."""

    def __init__(self):
        self.timeline: list = []
        self.victim = Victim(self.timeline)
        self.streams: list[list[bytes]] = []  # what the victim was sent, per game
        self.plans: dict[bytes, dict] = {}
        self.seen: bytes | None = None  # the victim's last seed, as the host saw it

    def send(self, out, plan, stream):
        reply = None
        for raw in out.get(VICTIM, ()):
            raw = self.tampered(raw, plan, len(stream))
            stream.append(raw)
            got = self.victim.receive(raw)
            if got is not None:
                reply = got
                if got[0] == "reveal":
                    self.seen = got[1]
                    self.timeline.append(("seen", got[1]))
        return reply

    def tampered(self, raw, plan, n):
        if plan["tamper"] is None or n != plan["at"] or plan.get("done"):
            return raw
        plan["done"] = True
        if plan["tamper"] == "other-key":  # one statement signed by another key
            return signed(split_statement(raw)[0], OTHER)
        if plan["tamper"] == "resign-start":  # the statement re-signed by another key, naming it
            b = body(raw)
            if b["kind"] == "start":
                b["host_key"] = OTHER.public_key().public_bytes_raw()
            return signed(pack(b), OTHER)
        old = [r for s in self.streams for r in s]  # a statement of another game
        return old[plan["at"] % len(old)] if old else signed(split_statement(raw)[0], OTHER)

    def play(self, plan) -> None:
        if plan["replay"] and self.streams:  # a whole earlier game, sent again as it was
            old = self.streams[plan["rng"] % len(self.streams)]
            self.victim.announce(body(old[0])["game"])
            for raw in old:
                self.victim.receive(raw)
            return
        host_seed = plan["host_seed"]
        if plan["grind"] and self.seen is not None:  # as if the victim would reuse its seed
            hand = range(2 * RULES.players, 2 * RULES.players + RULES.hand_size)
            best = min((bytes([i]) + host_seed[1:] for i in range(32)),
                       key=lambda hs: sum(shuffle_deck(plan["game_id"], hs, [self.seen, plan["bot_seed"]])[p] for p in hand))
            host_seed = best
            plan["ground"] = tuple(shuffle_deck(plan["game_id"], host_seed, [self.seen, plan["bot_seed"]]))
        self.plans[plan["game_id"]] = plan
        dealer = RiggedDealer(RULES, KEY, game_id=plan["game_id"], host_seed=host_seed, bot_seed=plan["bot_seed"])
        stream: list[bytes] = []
        self.streams.append(stream)
        stop = plan["stop"]
        self.victim.announce(plan["game_id"])
        reply = self.send(dealer.start(), plan, stream)
        dealer.commit_bot(BOT)
        if stop == "abandon-before-seed" or reply is None or reply[0] != "commit":
            self.send(dealer.abandon("not enough players"), plan, stream)
            return
        reply = self.send(dealer.commit(VICTIM, reply[1]), plan, stream)
        if reply is None or reply[0] != "reveal":
            self.send(dealer.abandon("a seat did not reveal"), plan, stream)
            return
        if stop.startswith("abandon-after-seed"):  # the host knows the deck; nobody else does
            self.send(dealer.abandon("seat 1 left", reveal_seed=not stop.endswith("seedless")), plan, stream)
            return
        if stop in ("withhold-seeds", "restart-after-seed"):
            if stop == "withhold-seeds":
                self.victim.host_gone()
            return
        self.send(dealer.reveal(VICTIM, reply[1]), plan, stream)
        rng = random.Random(plan["rng"])
        mid = stop.endswith("-mid") or stop.endswith("-mid-seedless")
        while not dealer.state.is_over and (not mid or dealer.state.version < plan["steps"]):
            state = dealer.state
            self.send(dealer.apply(rng.choice(state.legal_actions(state.to_move)))[1], plan, stream)
        if stop.startswith("abandon-mid"):
            self.send(dealer.abandon("the host was stopped", reveal_seed=not stop.endswith("seedless")), plan, stream)
        elif stop == "vanish-mid":
            self.victim.host_gone()
        elif stop == "end":
            self.send(dealer.finish(), plan, stream)
        elif stop == "forged-end":  # the end with another host seed, signed by the host
            out = dealer.finish()
            b = body(out[VICTIM][0])
            b["host_seed"] = bytes([b["host_seed"][0] ^ 1]) + b["host_seed"][1:]
            self.send({VICTIM: [signed(pack(b))]}, plan, stream)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans=st.lists(game_plan, min_size=1, max_size=3, unique_by=lambda p: p["game_id"]))
def test_the_honest_seat_never_verifies_a_deck_the_host_could_choose(plans):
    host = HostileHost()
    plans = [dict(p) for p in plans]
    for plan in plans:
        host.play(plan)
    forged = any(p.get("done") or p["replay"] or p["stop"] == "forged-end" for p in plans)
    host.victim.host_gone()  # the session notes the host gone when it ends unfinished
    victim = host.victim
    assert len(set(victim.sent)) == len(victim.sent), "a seed was sent to two games"
    order = {event: i for i, event in reversed(list(enumerate(host.timeline)))}  # first occurrence
    for w in victim.games:
        v = w.verify()
        again = verify_transcript(w.transcript())
        assert (again.status, again.reason) == (v.status, v.reason)
        plan = host.plans.get(w.game_id)
        if v.status == VERIFIED:
            # the deck was fixed (start, with the host commitment) before the host saw the
            # seed that went into it, and nothing hostile happened in this game
            assert order[("start", w.game_id)] < order[("seen", w.seed)]
            assert plan is not None and plan["stop"] == "end" and not plan.get("done"), (plan, v)
            if plan.get("ground"):
                assert tuple(w._checker.derive().deck) != plan["ground"]
            continue
        if w.seed_sent is not None and (plan is None or plan["stop"] != "end"):
            # stopped (any way) after the seed left: suspicious, or tampered when the
            # host also forged something (here or in a later game sent into this one)
            assert v.status in ((SUSPICIOUS, TAMPERED) if forged else (SUSPICIOUS,)), (plan, v)
            assert v.status == TAMPERED or v.details.get("abort_after_reveal"), v
        if plan is not None and plan["stop"] == "forged-end":
            assert v.status == TAMPERED, v
