"""Checking a seat's stream of signed statements, at once and after the game
(specs/fairness.md §8, §9).

:class:`GameChecker` is fed the signed statements one by one, in the order the seat
received them. Each :meth:`GameChecker.feed` does the checks that can be done at once
(signature, game id, addressee, sequence number, order of kinds, seed reveals
against their commitments, card reveals against the deck commitments).
:meth:`GameChecker.conclude` does the rest once the host seed is known: recompute
the deck, setup and salts, compare with every commitment and every reveal, and
REPLAY the game with the rules engine, comparing every announced outcome.

:func:`verify_transcript` runs both over a transcript file and returns a
:class:`Verdict`; it never raises for bad input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from types import ModuleType
from typing import Any

from ..actions import Action
from ..cards import DECK_SIZE, card_name
from ..rules import RuleError, RuleSet
from .primitives import (
    HOST_SEAT,
    CardReveal,
    Deal,
    FairnessError,
    card_commitment,
    check_private_reveal,
    check_public_reveal,
    check_seed,
    derive_deal,
    find_committed_card,
    key_fingerprint,
    seed_commitment,
)
from ..messages.verdicts import said
from .pin import cert_join_code, cert_statement_key, normalize_code
from .positions import PositionRule
from .replay import due_reveals, load_engine
from .statements import (
    ABANDON,
    BLIND,
    CLAIM,
    HELLOS,
    BAD_SIGNATURE as _BAD_SIGNATURE,
    COMMITMENTS,
    DEAL,
    END,
    SEEDS,
    START,
    STEP,
    CHAIN_BODY_VERSIONS,
    DEFERRED_BODY_VERSION,
    Statement,
    StatementError,
    canonical,
    chain_link,
    chain_start,
    decode_body,
    pack,
    split_statement,
    unpack,
    verify_signature,
)
from .status import EXIT_CODES, MALFORMED, STATUSES, SUSPICIOUS, TAMPERED, UNVERIFIED, VERIFIED  # noqa: F401 - re-exported
from .transcript import Transcript, TranscriptError, decode_transcript


_NEXT = {
    None: (START,),
    START: (COMMITMENTS, HELLOS, ABANDON),
    # a dealer-blind game (specs/fairness.md B.15.1, B.16.8): the hellos, then the
    # seats' claims (``blind`` statements may come between any two statements after
    # the hellos: they do not move this order)
    HELLOS: (CLAIM, END, ABANDON),
    CLAIM: (CLAIM, END, ABANDON),
    COMMITMENTS: (SEEDS, ABANDON),
    SEEDS: (DEAL, ABANDON),
    DEAL: (STEP, END, ABANDON),
    STEP: (STEP, END, ABANDON),
    END: (),
    ABANDON: (),
}


#: How a verdict names the scheme that dealt the game (``details["scheme"]``).
SCHEME_WORDS = {"trusted": "trusted dealer", "dealer-blind": "dealer-blind"}


def named_scheme(reason: str, scheme: str) -> str:
    """``reason`` beginning with the name of ``scheme`` (a key of
    :data:`SCHEME_WORDS`): ``trusted dealer: fair game: …``; unchanged when it names
    it already (``dealer-blind: fair game: …``, ``dealer-blind audit after the game: …``)."""
    words = SCHEME_WORDS[scheme]
    return reason if reason.startswith(words) else f"{words}: {reason}"


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking a transcript.

    ``status`` is one of :data:`STATUSES`; ``reason`` one plain sentence in English,
    ``code``/``args`` the same in every language. When a check
    failed, ``message`` is the 0-based index of the statement concerned and ``kind``
    its kind, ``position`` the deck position (or ``None``), ``expected`` / ``found`` the
    two values that differ (printable strings or numbers). ``game_id`` (hex), ``seat``,
    ``host_key`` (fingerprint) and ``statements`` (count) describe the transcript as
    far as it could be read. ``host_code`` is the join code of the host certificate the
    seat pinned when the statements are signed by the key that certificate carries
    (``None`` when the transcript records no pinned certificate).
    """

    status: str
    reason: str
    message: int | None = None
    kind: str | None = None
    position: int | None = None
    expected: Any = None
    found: Any = None
    game_id: str | None = None
    seat: int | None = None
    host_key: str | None = None
    statements: int = 0
    details: dict[str, Any] = field(default_factory=dict)
    host_code: str | None = None
    #: the reason as a stable code and its values (specs/fairness.md §9.1): the catalog
    #: key ``verdict.reason.CODE`` (jupai_net.messages.verdicts) said with ``args`` is
    #: ``reason`` in English and the same verdict in every other language
    #: (:func:`~jupai_net.messages.verdicts.verdict_sentence`); None only for a verdict
    #: made from an English sentence alone (a newer verifier's, a test's)
    code: str | None = None
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True only for a fully verified game."""
        return self.status == VERIFIED

    @property
    def exit_code(self) -> int:
        """Exit code of ``jupai verify`` for this verdict (:data:`EXIT_CODES`)."""
        return EXIT_CODES[self.status]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of every field plus ``exit_code``: the English ``reason`` and
        its ``code``/``args``."""
        import json

        d = asdict(self)
        d["exit_code"] = self.exit_code
        return json.loads(json.dumps(d, default=_printable))

    def where(self, lang: str = "en") -> str:
        """``'statement #5 (step), position 12'`` (``第 5 条声明（出牌），位置 12``) or ``''``."""
        from ..messages import t
        from ..messages.verdicts import kind_words

        parts = []
        if self.message is not None:
            parts.append(t("verdict.where.statement_kind", lang, n=self.message, kind=kind_words(self.kind, lang))
                         if self.kind else t("verdict.where.statement", lang, n=self.message))
        if self.position is not None:
            parts.append(t("verdict.where.position", lang, position=self.position))
        return t("verdict.where.sep", lang).join(parts)


class FairnessViolation(FairnessError):
    """Raised by :meth:`GameChecker.feed` (and so by ``SeatWitness.receive``) the moment
    a statement fails a check; ``verdict`` says what and where."""

    def __init__(self, verdict: Verdict):
        super().__init__(verdict.reason, position=verdict.position, expected=verdict.expected, found=verdict.found)
        self.verdict = verdict


def why_of(error: Any) -> dict[str, Any]:
    """The nested reason of a lower layer's error (a ``FairnessError``): its code and args,
    or ``unexplained`` with its English words as the ``detail`` when it has no code."""
    code = getattr(error, "code", None)
    if code:
        return said(code, getattr(error, "code_args", {}))
    return said("unexplained", {"detail": getattr(error, "reason", None) or str(error)})


class _Problem(Exception):
    """A failed check: ``status`` and the reason's ``code``/``args`` (the English
    ``reason`` is the catalog's, :func:`~jupai_net.messages.verdicts.verdict_sentence`)."""

    def __init__(self, status: str, code: str, args: dict[str, Any] | None = None, *, position: int | None = None,
                 expected: Any = None, found: Any = None, message: int | None = None, kind: str | None = None):
        from ..messages.verdicts import verdict_sentence

        self.code, self.code_args = code, dict(args or {})
        reason = verdict_sentence(code, self.code_args, "en")
        super().__init__(reason)
        self.status, self.reason, self.position = status, reason, position
        self.expected, self.found = expected, found
        self.message, self.kind = message, kind


def _printable(x: Any) -> Any:
    if isinstance(x, (bytes, bytearray)):
        return bytes(x).hex()
    if isinstance(x, (set, frozenset, tuple)):
        return list(x)
    return repr(x)


def _show(x: Any, limit: int = 200) -> Any:
    """A compact printable form of a compared value."""
    if x is None or isinstance(x, (bool, int, float)):
        return x
    if isinstance(x, (bytes, bytearray)):
        return bytes(x).hex()
    if isinstance(x, str):
        return x if len(x) <= limit else x[:limit] + "…"
    import json

    try:
        s = json.dumps(x, default=_printable, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        s = repr(x)
    return s if len(s) <= limit else s[:limit] + "…"


def same_wire(expected: Any, found: Any) -> bool:
    """True when both values encode to the same msgpack bytes: equal, with the same types
    (unlike ``==``: ``True`` is not ``1``, ``1.0`` is not ``1``, bytes are not str) and the
    same map order. The fast check before :func:`first_difference` on every replayed step."""
    try:
        return pack(expected) == pack(found)
    except (TypeError, ValueError, OverflowError):
        return False


def _signed_as(st: Statement, **fields: Any) -> bool:
    """True when ``st``'s body with ``fields`` put in place of its own encodes to exactly
    the signed body bytes: every field in ``fields`` then encodes as the signed one
    (msgpack is self-delimiting and the rest is the signed body itself, whose encoding
    :func:`~.statements.decode_body` checked), as strict as :func:`same_wire`."""
    try:
        return pack({**st.body, **fields}) == st.body_bytes
    except (TypeError, ValueError, OverflowError):
        return False


def first_difference(expected: Any, found: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place where two decoded msgpack values differ: ``(path, expected, found)``
    with a path like ``'events[2].total'``, or ``None`` if they are equal."""
    if type(expected) is not type(found) and not (isinstance(expected, int) and isinstance(found, int) and not isinstance(expected, bool) and not isinstance(found, bool)):
        return path or "value", expected, found
    if isinstance(expected, dict):
        for key in list(expected) + [k for k in found if k not in expected]:
            if key not in found or key not in expected:
                return f"{path}.{key}" if path else str(key), expected.get(key, "<absent>"), found.get(key, "<absent>")
            d = first_difference(expected[key], found[key], f"{path}.{key}" if path else str(key))
            if d:
                return d
        return None
    if isinstance(expected, list):
        for i, (a, b) in enumerate(zip(expected, found)):
            d = first_difference(a, b, f"{path}[{i}]")
            if d:
                return d
        if len(expected) != len(found):
            return f"{path} (length)", len(expected), len(found)
        return None
    return None if expected == found else (path or "value", expected, found)


def _positions_text(positions: list[int], deck: Any = None) -> str:
    if not positions:
        return "—"
    return ", ".join(str(k) for k in positions)


class GameChecker:
    """Checks one seat's statement stream (specs/fairness.md §8–§9).

    ``seat`` is the receiving seat (``None`` for a spectator) and ``seed`` its own
    32-byte seed (``None`` for a spectator). ``engine`` replaces
    :mod:`jupai_net.engine` (tests only). ``all_signatures`` (the default, and always
    at once): every statement's signature is checked; ``False`` (the offline fast path,
    :func:`check_decoded`): in a chained stream (specs/fairness.md §6.5) only the
    signature of a statement fed with ``last=True``, the chain links vouching for the
    ones before it.
    """

    def __init__(self, seat: int | None, seed: bytes | None, *, engine: ModuleType | None = None,
                 host_cert: bytes | None = None, blind: Any = None, all_signatures: bool = True):
        self.all_signatures = all_signatures
        #: True/False once statement #0 tells whether the stream is chained (§6.5).
        self.chained: bool | None = None
        #: The body version of statement #0, which every statement of the stream has (§6.5, §6.6).
        self.body_version: int | None = None
        self._prev: bytes | None = None  # ``prev`` the next statement of a chained stream must carry
        self.seat = seat
        self.seed = seed
        #: This seat's own dealer-blind participant (a ``BlindParticipant``), whose hello
        #: the ``hellos`` statement must carry unchanged (specs/fairness.md B.9); None
        #: for a spectator, the offline verifier, or a trusted game.
        self.blind = blind
        #: The ledger of a dealer-blind game (``BlindLedger``), from the ``hellos`` statement on.
        self.ledger: Any = None
        #: The game on deck positions of a dealer-blind game (``BlindPlay``), from the
        #: moment the deck is locked; it opens this seat's own cards when ``blind`` is given.
        self.play: Any = None
        #: DER of the host certificate the seat pinned (None: not recorded); its statement
        #: key must be the key of statement #0 (specs/fairness.md §3.5).
        self.host_cert = host_cert
        self._engine = engine
        self.statements: list[Statement | None] = []
        self.failure: Verdict | None = None
        self.host_key: bytes | None = None
        self.game_id: bytes | None = None
        self.rules: RuleSet | None = None
        self.seats = 0
        self.host_commitment: bytes | None = None
        self.seat_commitments: list[bytes] | None = None
        self.seat_seeds: list[bytes] | None = None
        self.deck_commitments: list[bytes] | None = None
        self.host_seed: bytes | None = None
        self.last_kind: str | None = None
        self.version = 0
        #: position -> (card, salt, statement index) of every card revealed to this seat.
        self.revealed: dict[int, tuple[int, bytes, int]] = {}
        self._card_at: dict[int, int] = {}
        self.index_of: dict[str, int] = {}
        #: Join code of the pinned certificate, once statement #0's key matched it.
        self.pinned_code: str | None = None
        #: The deck positions due to this seat, checked at once (None for a spectator).
        self.positions: PositionRule | None = None

    # ------------------------------------------------------------------ at once

    @property
    def fingerprint(self) -> str | None:
        """Fingerprint of the host key (:func:`key_fingerprint`), once known."""
        return key_fingerprint(self.host_key) if self.host_key else None

    def feed(self, raw: bytes, *, last: bool = False) -> Statement:
        """Check the next signed statement ``raw`` at once and record it (``last``: it is
        the last one of the transcript; its signature is checked even on the fast path).
        Raises :class:`FairnessViolation` on the first failure (and on every later call)."""
        i = len(self.statements)
        self.statements.append(None)
        if self.failure is not None:
            raise FairnessViolation(self.failure)
        try:
            st = self._check(i, raw, self.all_signatures or last)
        except _Problem as p:
            self.failure = self._verdict(p, message=i)
            raise FairnessViolation(self.failure) from None
        except Exception as exc:  # defensive: a hostile statement must never crash the caller
            p = _Problem(MALFORMED, "statement_not_checked", {"n": i, "detail": f"{type(exc).__name__}: {exc}"})
            self.failure = self._verdict(p, message=i)
            raise FairnessViolation(self.failure) from None
        self.statements[i] = st
        return st

    def _verdict(self, p: _Problem, *, message: int | None = None) -> Verdict:
        msg = p.message if p.message is not None else message
        kind = p.kind
        if kind is None and msg is not None and msg < len(self.statements) and self.statements[msg] is not None:
            kind = self.statements[msg].kind
        details: dict[str, Any] = {}
        reason = p.reason
        # every verdict names the scheme that dealt the game, once it is known: the
        # hellos (dealer-blind, specs/fairness.md B.15.6) or the seed commitments (trusted)
        scheme = "dealer-blind" if self.ledger is not None else "trusted" if COMMITMENTS in self.index_of else None
        if scheme is not None:
            details["scheme"] = scheme
            reason = named_scheme(reason, scheme)
        if self.ledger is not None and getattr(p, "culprit", None):
            details["culprit"] = p.culprit
        return Verdict(
            p.status,
            reason,
            msg,
            kind,
            p.position,
            _show(p.expected),
            _show(p.found),
            self.game_id.hex() if self.game_id else None,
            self.seat,
            self.fingerprint,
            len(self.statements),
            details=details,
            host_code=self.pinned_code,
            code=p.code,
            args=p.code_args,
        )

    def _signature(self, i: int, key: bytes, body_bytes: bytes, sig: bytes) -> None:
        """Check statement ``i``'s signature with the host key ``key`` (§8 step 2)."""
        try:
            verify_signature(key, body_bytes, sig)
        except StatementError as e:
            if i == 0:
                if e.reason == _BAD_SIGNATURE:
                    raise _Problem(TAMPERED, "start_bad_signature", kind=START) from None
                raise _Problem(TAMPERED, "statement_kind", {"n": 0, "kind": START, "why": why_of(e)}, kind=START) from None
            if e.reason == _BAD_SIGNATURE:
                raise _Problem(TAMPERED, "bad_signature", {"n": i, "key": self.fingerprint}) from None
            raise _Problem(TAMPERED, "statement", {"n": i, "why": why_of(e)}) from None

    def _check(self, i: int, raw: bytes, signature: bool = True) -> Statement:
        try:
            body_bytes, sig = split_statement(raw)
        except StatementError as e:
            raise _Problem(MALFORMED, "statement", {"n": i, "why": why_of(e)}) from None
        key = self._start_key(body_bytes) if i == 0 else self.host_key
        unsigned = not sig  # a deferred signature (§6.6): allowed on a version-3 step only
        if signature and not unsigned:
            self._signature(i, key, body_bytes, sig)
        self.host_key = key
        try:
            body = decode_body(body_bytes)
        except StatementError as e:
            if unsigned:
                raise _Problem(TAMPERED, "unsigned", {"n": i, "kind": "?"}) from None
            raise _Problem(TAMPERED, "signed_malformed", {"n": i, "why": why_of(e)}) from None
        version = body["v"]
        if unsigned and not (version == DEFERRED_BODY_VERSION and body["kind"] == STEP):
            raise _Problem(TAMPERED, "unsigned", {"n": i, "kind": body["kind"]}, kind=body["kind"])
        chained = version in CHAIN_BODY_VERSIONS
        if not signature and not chained:
            self._signature(i, key, body_bytes, sig)  # a version-1 body stands on its own signature
        if i == 0:
            self.game_id = body["game"]
            self.chained = chained
            self.body_version = version
        st = Statement(body, body_bytes, sig, bytes(raw))
        kind = st.kind
        if st.game_id != self.game_id:
            raise _Problem(TAMPERED, "other_game", {"n": i, "kind": kind}, expected=self.game_id, found=st.game_id, kind=kind)
        if st.to != self.seat:
            raise _Problem(TAMPERED, "misaddressed", {"n": i, "kind": kind, "to": st.to, "viewer": self.seat}, expected=self.seat, found=st.to, kind=kind)
        if st.n != i:
            raise _Problem(TAMPERED, "out_of_order", {"n": i, "kind": kind, "found": st.n}, expected=i, found=st.n, kind=kind)
        if version != self.body_version:
            began = self.body_version
            raise _Problem(TAMPERED, "mixed_versions", {"n": i, "kind": kind, "found": version, "began": began},
                           expected=began, found=version, kind=kind)
        if chained:
            want = chain_start(self.game_id, self.seat) if i == 0 else self._prev
            if st["prev"] != want:
                if i:
                    raise _Problem(TAMPERED, "not_chained", {"n": i, "kind": kind, "previous": i - 1},
                                   expected=want, found=st["prev"], kind=kind)
                raise _Problem(TAMPERED, "not_chained_start" if self.seat is not None else "not_chained_spectators",
                               {"n": i, "kind": kind}, expected=want, found=st["prev"], kind=kind)
            self._prev = chain_link(body_bytes)
        if kind == BLIND:
            if self.ledger is None:
                raise _Problem(TAMPERED, "blind_without_hellos", {"n": i, "kind": kind}, kind=kind)
        elif kind not in _NEXT[self.last_kind]:
            allowed = list(_NEXT[self.last_kind])
            raise _Problem(TAMPERED, "cannot_follow" if allowed else "cannot_follow_end",
                           {"n": i, "kind": kind, "last": self.last_kind, **({"allowed": allowed} if allowed else {})},
                           expected=" | ".join(allowed) or None, found=kind, kind=kind)
        try:
            getattr(self, "_on_" + kind)(i, st)
        except _Problem as p:
            p.kind = p.kind or kind
            raise
        if kind == BLIND:
            self.index_of.setdefault(kind, i)
            return st
        self.last_kind = kind
        self.index_of.setdefault(kind, i)
        return st

    def _start_key(self, body_bytes: bytes) -> bytes:
        """The host key statement #0 announces, read before its signature is checked (the
        key is in the signed body). A body too broken to name a kind and a 32-byte key is
        *malformed*; one that is not a ``start`` is *tampered* (specs/fairness.md §9.2)."""
        try:
            body = unpack(body_bytes)
        except Exception as exc:  # msgpack raises several types on hostile input
            raise _Problem(MALFORMED, "start_unreadable", {"detail": str(exc)}) from None
        kind = body.get("kind") if isinstance(body, dict) else None
        if not isinstance(kind, str):
            raise _Problem(MALFORMED, "start_no_kind")
        if kind != START:
            raise _Problem(TAMPERED, "start_not_first", {"found_kind": kind[:40]}, expected=START, found=kind[:40], kind=kind[:40])
        key = body.get("host_key")
        if not isinstance(key, bytes) or len(key) != 32:
            raise _Problem(MALFORMED, "start_no_key", kind=START)
        if self.host_cert is not None:
            self._check_pinned(key)
        return key

    def _check_pinned(self, key: bytes) -> None:
        """The start's host key must be the statement key of the pinned certificate."""
        try:
            pinned = cert_statement_key(self.host_cert)
            code = cert_join_code(self.host_cert)
        except ValueError as exc:
            raise _Problem(TAMPERED, "pin_unreadable", {"detail": str(exc)}, kind=START) from None
        if pinned is None:
            raise _Problem(TAMPERED, "pin_no_key", {"code": code}, kind=START)
        if pinned != key:
            raise _Problem(TAMPERED, "pin_other_key", {"key": key_fingerprint(key), "code": code, "pinned": key_fingerprint(pinned)},
                           expected=key_fingerprint(pinned), found=key_fingerprint(key), kind=START)
        self.pinned_code = code

    def _on_start(self, i: int, st: Statement) -> None:
        try:
            self.rules = RuleSet.from_wire(st["rules"])
        except (RuleError, TypeError) as exc:
            raise _Problem(TAMPERED, "bad_rules", {"n": i, "detail": str(exc)}) from None
        self.seats = st["seats"]
        if self.seats != self.rules.players:
            raise _Problem(TAMPERED, "seats_for_rules", {"n": i, "seats": self.seats, "players": self.rules.players}, expected=self.rules.players, found=self.seats)
        if self.seat is not None and self.seat >= self.seats:
            raise _Problem(TAMPERED, "seat_not_at_table", {"n": i, "seat": self.seat, "seats": self.seats})
        self.host_commitment = st["host_commitment"]
        if self.seat is not None:
            self.positions = PositionRule(self.rules, self.seat)

    def _on_hellos(self, i: int, st: Statement) -> None:
        from .blind import BlindError, table_participants
        from .blind_ledger import BlindLedger, decode_message

        pids = table_participants(self.seats)
        hellos = st["hellos"]
        if len(hellos) != len(pids):
            raise _Problem(TAMPERED, "hellos_count", {"n": i, "found": len(hellos), "expected": len(pids), "seats": self.seats}, expected=len(pids), found=len(hellos))
        try:
            self.ledger = BlindLedger(self.game_id, pids, own=self.blind)
            for pid, raw in zip(pids, hellos):
                body = decode_message(raw)[0]
                if body["kind"] != "hello" or body["from"] != pid:
                    raise BlindError(code="hellos_order", args={"found_kind": body["kind"], "author": body["from"], "who": pid},
                                     culprit=HOST_SEAT)
                self.ledger.receive(raw)
            self._blind_advance()
            if self.seat is not None and self.seed is not None:
                # a seat's transcript of a dealer-blind game keeps its participant's seed
                # as its seed: its own hello must commit to it (B.9), also offline
                from .blind import seed_commitment as blind_seed_commitment

                if self.ledger.seed_commitments[self.seat] != blind_seed_commitment(self.game_id, self.seat, self.seed):
                    raise BlindError(code="hello_replaced", args={"seat": self.seat}, culprit=HOST_SEAT)
        except BlindError as e:
            raise self._blind_problem(i, st, e) from None

    def _on_blind(self, i: int, st: Statement) -> None:
        from .blind import BlindError
        from .blind_actor import schedule
        from .blind_ledger import SEED, decode_message

        try:
            if self.last_kind in (END, ABANDON) and decode_message(st["msg"])[0]["kind"] != SEED:
                raise BlindError(code="after_end", args={"last": self.last_kind}, culprit=HOST_SEAT)
            self.ledger.receive(st["msg"])
            schedule(self.ledger, self.rules)
            self._blind_advance()
        except BlindError as e:
            raise self._blind_problem(i, st, e) from None

    def _blind_advance(self) -> None:
        """After each participant message: the game on deck positions starts once the
        deck is locked, then follows every opening (specs/fairness.md B.16.8)."""
        from .blind_ledger import DEALT
        from .blind_play import BlindPlay

        if self.ledger.failure is not None or self.last_kind in (END, ABANDON):
            return
        if self.play is not None:
            self.play.advance()
        elif self.ledger.phase == DEALT:
            actor = None
            if self.blind is not None:
                from .blind_actor import BlindActor

                actor = BlindActor([self.blind])
            try:
                self.play = BlindPlay(self.rules, self.ledger, viewer=self.seat if actor else None, actor=actor)
            except ValueError as exc:
                raise _Problem(TAMPERED, "blind_unplayable", {"detail": str(exc)}) from None

    def _on_claim(self, i: int, st: Statement) -> None:
        """A seat's claim, relayed by the host (B.16.4): it must come when the game waits
        for that seat's move at that state, and be legal on public information; the
        openings it calls for follow."""
        from .blind import BlindError
        from ..engine import IllegalAction

        if self.ledger is None:
            raise _Problem(TAMPERED, "claim_without_hellos", {"n": i})
        if self.play is None:
            raise _Problem(TAMPERED, "claim_before_deal", {"n": i})
        try:
            action = Action.from_wire(st["action"])
        except ValueError as exc:
            raise _Problem(TAMPERED, "claim_not_action", {"n": i, "detail": str(exc)}, found=st["action"]) from None
        try:
            self.play.on_claim(st["version"], st["actor"], action)
        except IllegalAction as exc:
            p = _Problem(TAMPERED, "claim_refused", {"n": i, "illegal": exc.to_wire()}, found=st["action"])
            p.culprit = "the host"
            raise p from None
        except BlindError as e:
            raise self._blind_problem(i, st, e) from None

    def _blind_problem(self, i: int, st: Statement, e: Any) -> "_Problem":
        """A dealer-blind check failed (specs/fairness.md B.9): tampered, naming the culprit."""
        from .blind import participant_name

        who = participant_name(e.culprit) if e.culprit is not None else None
        args = {"n": i, "kind": st.kind, "why": why_of(e)}
        p = (_Problem(TAMPERED, "blind_check_by", {**args, "culprit": e.culprit}, position=e.position) if who
             else _Problem(TAMPERED, "blind_check", args, position=e.position))
        p.culprit = who
        return p

    def _on_commitments(self, i: int, st: Statement) -> None:
        cs = st["commitments"]
        if len(cs) != self.seats:
            raise _Problem(TAMPERED, "commitments_count", {"n": i, "found": len(cs), "seats": self.seats}, expected=self.seats, found=len(cs))
        if self.seat is not None and self.seed is not None:
            mine = seed_commitment(self.game_id, self.seat, self.seed)
            if cs[self.seat] != mine:
                raise _Problem(TAMPERED, "commitment_not_mine", {"n": i, "seat": self.seat}, expected=mine, found=cs[self.seat])
        self.seat_commitments = list(cs)

    def _on_seeds(self, i: int, st: Statement) -> None:
        seeds = st["seeds"]
        if len(seeds) != self.seats:
            raise _Problem(TAMPERED, "seeds_count", {"n": i, "found": len(seeds), "seats": self.seats}, expected=self.seats, found=len(seeds))
        for s, seed in enumerate(seeds):
            try:
                check_seed(self.game_id, s, seed, self.seat_commitments[s])
            except FairnessError as e:
                raise _Problem(TAMPERED, "statement_kind", {"n": i, "kind": SEEDS, "why": why_of(e)}, expected=e.expected, found=e.found) from None
        self.seat_seeds = list(seeds)

    def _reveals(self, i: int, st: Statement) -> None:
        if self.seat is None and st["private"]:
            raise _Problem(TAMPERED, "private_to_spectator", {"n": i, "kind": st.kind}, position=st["private"][0][0])
        for scope in ("private", "public"):
            for entry in st[scope]:
                r = CardReveal.from_wire(entry)
                try:
                    if scope == "private":
                        check_private_reveal(self.game_id, self.deck_commitments, r, seat=self.seat, addressed_to=st.to)
                    else:
                        check_public_reveal(self.game_id, self.deck_commitments, r)
                except FairnessError as e:
                    raise _Problem(TAMPERED, "statement_kind", {"n": i, "kind": st.kind, "why": why_of(e)}, position=e.position, expected=e.expected, found=e.found) from None
                if r.position in self.revealed:
                    raise _Problem(TAMPERED, "revealed_twice", {"n": i, "kind": st.kind, "position": r.position, "first": self.revealed[r.position][2]}, position=r.position)
                if r.card in self._card_at:
                    k0 = self._card_at[r.card]
                    raise _Problem(TAMPERED, "card_twice", {"n": i, "kind": st.kind, "card": card_name(r.card), "position": r.position, "first": k0},
                                   position=r.position, expected=k0, found=r.position)
                self.revealed[r.position] = (r.card, r.salt, i)
                self._card_at[r.card] = r.position

    def _on_deal(self, i: int, st: Statement) -> None:
        self.deck_commitments = list(st["commitments"])
        self._reveals(i, st)
        if self.positions is not None:
            self._due(i, st, self.positions.deal(*self._opened(st)))

    def _on_step(self, i: int, st: Statement) -> None:
        if st["version"] != self.version + 1:
            raise _Problem(TAMPERED, "step_version", {"n": i, "found": st["version"], "expected": self.version + 1}, expected=self.version + 1, found=st["version"])
        self.version = st["version"]
        self._reveals(i, st)
        if self.positions is not None:
            self._due(i, st, self.positions.step(st["actor"], st["events"], *self._opened(st)))

    @staticmethod
    def _opened(st: Statement) -> tuple[list[int], list[int]]:
        """The positions of a statement's private and public openings."""
        return [r[0] for r in st["private"]], [r[0] for r in st["public"]]

    def _due(self, i: int, st: Statement, problem: tuple[int, str] | None) -> None:
        """Refuse at once a statement whose openings are not the positions due to this
        seat (:mod:`~jupai_net.fairness.positions`; specs/fairness.md §8)."""
        if problem is not None:
            k, why = problem
            raise _Problem(TAMPERED, "statement_kind", {"n": i, "kind": st.kind, "why": why}, position=k)

    def _on_end(self, i: int, st: Statement) -> None:
        self._host_seed(i, st)
        if self.ledger is not None:  # dealer-blind: the game on positions must be over, as announced
            state = self.play.game.state if self.play is not None else None
            if state is None or not state.is_over or not self.play.idle:
                raise _Problem(TAMPERED, "blind_end_not_over", {"n": i})
            if list(state.ranking) != st["ranking"] or state.winner != st["winner"]:
                raise _Problem(TAMPERED, "blind_end_ranking", {"n": i},
                               expected=list(state.ranking), found=st["ranking"])

    def _on_abandon(self, i: int, st: Statement) -> None:
        if st["host_seed"] is not None:
            self._host_seed(i, st)
        if self.ledger is not None:  # the seeds follow; the host may have refused messages before them (B.9)
            self.ledger.stop(st["reason"])

    def _host_seed(self, i: int, st: Statement) -> None:
        try:
            check_seed(self.game_id, HOST_SEAT, st["host_seed"], self.host_commitment)
        except FairnessError as e:
            raise _Problem(TAMPERED, "statement_kind", {"n": i, "kind": st.kind, "why": why_of(e)}, expected=e.expected, found=e.found) from None
        self.host_seed = st["host_seed"]

    # ------------------------------------------------------------------ after the game

    def conclude(self, host_gone: str | None = None, *, left: str | None = None,
                 seed_sent: int | None = None) -> Verdict:
        """The verdict on everything fed so far (specs/fairness.md §9). ``host_gone`` is the
        seat's own note that the host stopped answering, ``left`` its own note that it
        left before the end, ``seed_sent`` its own note that it sent its seed after that
        many statements (all three from the transcript file).

        Once this seat sent its seed (or the ``seeds`` statement is in) the host may know
        the deck: an abandon, or a host gone, from then on is *suspicious* with
        ``details["abort_after_reveal"] = True``, whatever reason the host gave."""
        try:
            return self._conclude(host_gone, left, seed_sent)
        except Exception as exc:  # defensive: never a traceback for a hostile transcript
            return self._final(MALFORMED, "not_checked", {"detail": f"{type(exc).__name__}: {exc}"})

    def _conclude(self, host_gone: str | None, left: str | None = None, seed_sent: int | None = None) -> Verdict:
        if self.failure is not None:
            return self.failure
        if not self.statements:
            return self._final(UNVERIFIED, "empty")
        if self.ledger is not None:
            return self._conclude_blind(host_gone, left)
        last, n = self.last_kind, len(self.statements) - 1
        seeds_out = self.seat_seeds is not None
        # after this point the host alone may know the deck (specs/fairness.md §1.2)
        sent = seeds_out or seed_sent is not None
        abort = {"abort_after_reveal": True}
        try:
            if last == END:
                self._check_deal_and_replay(final=True)
                if left is not None:
                    # a copy the host wrote for a seat that was gone at the end: it
                    # checks out, but the seat never saw it (specs/fairness.md §9)
                    return self._final(UNVERIFIED, "left_copy", {"left": left}, message=n, kind=END)
                return self._final(VERIFIED, "verified_public" if self.seat is None else "verified_seat", {"deck": DECK_SIZE})
            if last == ABANDON:
                ab = self.statements[n]
                why = ab["reason"] or "no reason given"
                if not sent:
                    return self._final(UNVERIFIED, "abandon_early", {"why": why}, message=n, kind=ABANDON)
                if not seeds_out:
                    return self._final(SUSPICIOUS, "abandon_unannounced", {"sent": seed_sent, "why": why}, message=n, kind=ABANDON, details=abort)
                if self.host_seed is None:
                    return self._final(SUSPICIOUS, "abandon_no_seed", {"why": why}, message=n, kind=ABANDON, details=abort)
                self._check_deal_and_replay(final=False)
                return self._final(SUSPICIOUS, "abandon_checked", {"why": why}, message=n, kind=ABANDON, details=abort)
        except _Problem as p:
            return self._verdict(p)
        if left is not None:
            return self._final(UNVERIFIED, "left", {"n": n, "last": last, "left": left}, message=n, kind=last)
        if host_gone is not None and sent:
            return self._final(SUSPICIOUS, "host_gone" if seeds_out else "host_gone_sent",
                               {"n": n, "last": last, "gone": host_gone, **({} if seeds_out else {"sent": seed_sent})},
                               message=n, kind=last, details=abort)
        return self._final(UNVERIFIED, "stops_gone" if host_gone is not None else "stops",
                           {"n": n, "last": last, **({"gone": host_gone} if host_gone is not None else {})}, message=n, kind=last)

    def with_cut_short(self, verdict: Verdict, entries: Sequence[tuple[int, int, int, int, int]]) -> Verdict:
        """``verdict`` (of :meth:`conclude`) with this seat's own record of turns the host
        cut short (the transcript's ``cut_short``, specs/fairness.md §9.3): the entries
        that name a signed step of this seat and whose times say cut short
        (:func:`~jupai_net.fairness.cut_short.counted`) go in ``details["cut_short"]``; a
        *verified* game with any becomes *suspicious*, code ``turns_cut_short`` ("fair
        deal, but the host cut this seat's turns short N times"), pointing at the first
        such step. A worse verdict stays as it is. A dealer-blind game (its clients play
        their own time-outs) and a spectator's copy have no such record."""
        from .cut_short import counted

        if not entries or self.seat is None or self.ledger is not None:
            return verdict
        steps = [(i, st) for i, st in enumerate(self.statements) if st is not None and st.kind == STEP]
        found = counted(entries, {st["version"]: st["actor"] for _, st in steps}, self.seat)
        if not found:
            return verdict
        if verdict.status != VERIFIED:
            return replace(verdict, details={**verdict.details, "cut_short": found})
        first = next(i for i, st in steps if st["version"] == found[0]["step"])
        return self._final(SUSPICIOUS, "turns_cut_short", {"count": len(found), "deck": DECK_SIZE},
                           message=first, kind=STEP, details={"cut_short": found})

    def _final(self, status: str, code: str, args: dict[str, Any] | None = None, *,
               details: dict[str, Any] | None = None, **kw: Any) -> Verdict:
        verdict = self._verdict(_Problem(status, code, args, **kw))
        return replace(verdict, details={**verdict.details, **details}) if details else verdict

    def _conclude_blind(self, host_gone: str | None, left: str | None) -> Verdict:
        """The verdict on a dealer-blind game (specs/fairness.md B.10, B.15.6). The host
        never knew a card it did not hold, so a stop is never suspicious for it; the
        audit after the game names the first wrong pass."""
        from .blind import BlindError

        last, n = self.last_kind, len(self.statements) - 1
        ledger = self.ledger
        missing = [p for p in ledger.participants if p not in ledger.seeds]
        from .blind_ledger import DEALT

        if last in (END, ABANDON) and not missing and ledger.phase == DEALT:
            try:
                ledger.audit()
            except BlindError as e:
                blamed = self._blind_problem(n, self.statements[n], e)
                p = (_Problem(TAMPERED, "blind_audit_by", {"why": why_of(e), "culprit": e.culprit}, position=e.position)
                     if blamed.culprit else _Problem(TAMPERED, "blind_audit", {"why": why_of(e)}, position=e.position))
                p.culprit = blamed.culprit
                return self._verdict(p)
        if last == END:
            return self._conclude_blind_end(missing, left)
        if last == ABANDON:
            n = self.index_of[ABANDON]  # (the seeds' blind statements follow it)
            why = self.statements[n]["reason"] or "no reason given"
            if ledger.phase != DEALT:
                return self._final(UNVERIFIED, "blind_mid_deal", {"phase": ledger.phase, "why": why}, message=n, kind=ABANDON)
            if missing:
                return self._final(UNVERIFIED, "blind_abandoned_unaudited", {"why": why, "names": missing}, message=n, kind=ABANDON)
            return self._final(UNVERIFIED, "blind_audited", {"why": why}, message=n, kind=ABANDON)
        if left is not None:
            return self._final(UNVERIFIED, "blind_left", {"n": n, "last": last, "left": left}, message=n, kind=last)
        return self._final(UNVERIFIED, "blind_stops_gone" if host_gone is not None else "blind_stops",
                           {"n": n, "last": last, **({"gone": host_gone} if host_gone is not None else {})}, message=n, kind=last)

    def _conclude_blind_end(self, missing: list[int], left: str | None) -> Verdict:
        """A dealer-blind game that ended: audit the deal, then replay the game with the
        trusted engine on the audited deck (``trusted_record``, B.16.6) and compare the
        ranking; every card opened during the game was checked against the deck by the
        audit."""
        from ..blind_game import trusted_record

        n = self.index_of[END]
        if missing:
            return self._final(UNVERIFIED, "blind_ended_unaudited", {"names": missing}, message=n, kind=END)
        deck = self.ledger.audit()  # (checked by the caller: it passes)
        try:
            engine = load_engine(self._engine)
            replayed = engine.replay(trusted_record(self.play.game.state.record(), deck))
        except Exception as exc:
            return self._final(TAMPERED, "blind_no_replay", {"detail": f"{type(exc).__name__}: {exc}"}, message=n, kind=END)
        end = self.statements[n]
        if not replayed.is_over or list(replayed.ranking) != end["ranking"] or replayed.winner != end["winner"]:
            return self._final(TAMPERED, "blind_other_outcome", message=n, kind=END,
                               expected=list(replayed.ranking), found=end["ranking"])
        if left is not None:
            return self._final(UNVERIFIED, "blind_left_copy", {"left": left}, message=n, kind=END)
        return self._final(VERIFIED, "blind_verified", message=None, kind=None)

    def derive(self) -> Deal:
        """Deck, setup and salts recomputed from the revealed seeds (after the host seed)."""
        return derive_deal(self.rules, self.game_id, self.host_seed, self.seat_seeds)

    def _check_deal_and_replay(self, *, final: bool) -> None:
        deal = self.derive()
        di = self.index_of[DEAL] if DEAL in self.index_of else None
        if di is not None:
            for k in range(DECK_SIZE):
                want = card_commitment(self.game_id, k, deal.deck[k], deal.salts[k])
                if want != self.deck_commitments[k]:
                    hidden = find_committed_card(self.game_id, k, deal.salts[k], self.deck_commitments[k])
                    card = card_name(deal.deck[k])
                    if hidden is not None:
                        raise _Problem(TAMPERED, "deck_commitment", {"n": di, "position": k, "hidden": card_name(hidden), "hidden_id": hidden, "card": card},
                                       position=k, expected=f"{card} (id {deal.deck[k]})", found=f"{card_name(hidden)} (id {hidden})", message=di, kind=DEAL)
                    raise _Problem(TAMPERED, "deck_commitment_none", {"n": di, "position": k, "card": card},
                                   position=k, expected=f"{card} (id {deal.deck[k]})", found=None, message=di, kind=DEAL)
            for k, (card, salt, mi) in sorted(self.revealed.items(), key=lambda kv: (kv[1][2], kv[0])):
                if card != deal.deck[k]:
                    raise _Problem(TAMPERED, "revealed_other_card", {"n": mi, "position": k, "found": card_name(card), "card": card_name(deal.deck[k])},
                                   position=k, expected=card_name(deal.deck[k]), found=card_name(card), message=mi)
                if salt != deal.salts[k]:
                    raise _Problem(TAMPERED, "salt_mismatch", {"n": mi, "position": k}, position=k, expected=deal.salts[k], found=salt, message=mi)
            self._replay(deal, final=final)

    def _replay(self, deal: Deal, *, final: bool) -> None:
        try:
            engine = load_engine(self._engine)
        except ImportError as exc:  # pragma: no cover - installation problem
            raise _Problem(UNVERIFIED, "no_engine", {"detail": str(exc)}) from None
        pos = deal.position_of()
        di = self.index_of[DEAL]
        try:
            state = engine.GameState.new(self.rules, deal.deck, deal.setup)
        except Exception as exc:
            raise _Problem(TAMPERED, "setup_fails", {"detail": str(exc)}, message=di, kind=DEAL) from None
        dst = self.statements[di]
        view = state.observation(self.seat)
        d = (None if _signed_as(dst, observation=view) or same_wire(view, dst["observation"])
             else first_difference(canonical(view), dst["observation"]))
        if d:
            raise _Problem(TAMPERED, "deal_view", {"n": di, "path": d[0]}, expected=d[1], found=d[2], message=di, kind=DEAL)
        shown: set[int] = set()
        self._compare_reveals(di, dst, state, shown, pos, deal)
        seat, history = self.seat, None
        for i in range(di + 1, len(self.statements)):
            st = self.statements[i]
            if st.kind != STEP:
                break
            if state.is_over:
                raise _Problem(TAMPERED, "step_after_over", {"n": i}, message=i, kind=STEP)
            if st["actor"] != state.to_move:
                raise _Problem(TAMPERED, "step_actor", {"n": i, "found": st["actor"], "expected": state.to_move}, expected=state.to_move, found=st["actor"], message=i, kind=STEP)
            try:
                action = Action.from_wire(st["action"])
            except ValueError as exc:
                raise _Problem(TAMPERED, "step_not_action", {"n": i, "detail": str(exc)}, found=st["action"], message=i, kind=STEP) from None
            try:
                events = state.apply(action)
            except engine.IllegalAction as exc:
                raise _Problem(TAMPERED, "step_illegal", {"n": i, "illegal": exc.to_wire()}, found=st["action"], message=i, kind=STEP) from None
            except Exception as exc:
                raise _Problem(TAMPERED, "step_rejected", {"n": i, "detail": f"{type(exc).__name__}: {exc}"}, found=st["action"], message=i, kind=STEP) from None
            history = getattr(state, "history", None)
            want = [e.to_wire(seat) for e in events]
            # the step as the replay writes it, byte for byte the signed body: version,
            # action and events all match (one encoding instead of four); else the
            # field-by-field checks below name the difference
            if not (_signed_as(st, version=state.version, action=history[-1].to_wire(), events=want) if history
                    else _signed_as(st, version=state.version, events=want)):
                self._step_differs(i, st, state, want)
            self._compare_reveals(i, st, state, shown, pos, deal)
        if final:
            ei = len(self.statements) - 1
            end = self.statements[ei]
            if not state.is_over:
                raise _Problem(TAMPERED, "end_not_over", {"n": ei}, message=ei, kind=END)
            if list(state.ranking) != end["ranking"]:
                raise _Problem(TAMPERED, "end_ranking", {"n": ei}, expected=list(state.ranking), found=end["ranking"], message=ei, kind=END)
            if state.winner != end["winner"]:
                raise _Problem(TAMPERED, "end_winner", {"n": ei}, expected=state.winner, found=end["winner"], message=ei, kind=END)

    @staticmethod
    def _step_differs(i: int, st: Statement, state: Any, want: list[Any]) -> None:
        """Raise the :class:`_Problem` naming where replayed step ``i`` differs from the
        signed one (version, then the action as the engine records it, then the events),
        a map in another key order being no difference."""
        if state.version != st["version"]:
            raise _Problem(TAMPERED, "step_version_replay", {"n": i, "found": st["version"], "expected": state.version}, expected=state.version, found=st["version"], message=i, kind=STEP)
        history = getattr(state, "history", None)
        if history:  # the signed action is the engine's own form of it (specs/fairness.md §6.4)
            recorded = history[-1].to_wire()
            d = None if same_wire(recorded, st["action"]) else first_difference(canonical(recorded), st["action"], "action")
            if d:
                raise _Problem(TAMPERED, "step_action_form", {"n": i, "path": d[0]}, expected=d[1], found=d[2], message=i, kind=STEP)
        d = None if same_wire(want, st["events"]) else first_difference(canonical(want), st["events"], "events")
        if d:
            raise _Problem(TAMPERED, "step_outcome", {"n": i, "path": d[0]}, expected=d[1], found=d[2], message=i, kind=STEP)

    def _compare_reveals(self, i: int, st: Statement, state: Any, shown: set[int], pos: dict[int, int], deal: Deal) -> None:
        private, public = due_reveals(state, self.seat, shown)
        if not private and not public and not st["private"] and not st["public"]:
            return  # nothing due, nothing opened (most steps)
        for scope, cards in (("private", private), ("public", public)):
            want = sorted(pos[c] for c in cards)
            got = [r[0] for r in st[scope]]
            if want != got:
                missing = sorted(set(want) - set(got))
                extra = sorted(set(got) - set(want))
                k = (missing or extra or [None])[0]
                other = "public" if scope == "private" else "private"
                args: dict[str, Any] = {"n": i, "kind": st.kind, "scope": scope}
                if missing and k in {r[0] for r in st[other]}:
                    code = "reveal_scope" if scope == "private" else "reveal_scope_public"
                    args.update(position=k, card=card_name(deal.deck[k]), other=other)
                elif missing:
                    code = "reveal_missing"
                    args.update(position=k, card=card_name(deal.deck[k]))
                elif extra:
                    code = "reveal_extra"
                    args.update(position=k)
                else:
                    code = "reveal_order"
                raise _Problem(TAMPERED, code, args, position=k, expected=_positions_text(want), found=_positions_text(got), message=i, kind=st.kind)
            shown.update(deal.deck[k] for k in want)


def verify_transcript(data: bytes, *, engine: ModuleType | None = None, code: str | None = None,
                      all_signatures: bool = False) -> Verdict:
    """Verify a transcript file (specs/fairness.md §9). Never raises for bad input:
    unreadable, truncated or malformed files give a ``malformed`` verdict.
    ``code``: a join code the user gives (``jupai verify --code``); the statements must
    then be signed by the key of the host with that code (:func:`check_code`).
    ``all_signatures``: check every statement's signature, also in a chained stream,
    where by default the last one vouches for the rest (§6.5, :func:`check_decoded`).
    ``engine`` replaces :mod:`jupai_net.engine` (tests only)."""
    try:
        t = decode_transcript(data)
    except TranscriptError as e:
        return file_verdict(e)
    return verify_decoded(t, engine=engine, code=code, all_signatures=all_signatures)


def file_verdict(error: TranscriptError) -> Verdict:
    """The *malformed* verdict of a file that is not a readable transcript."""
    why = why_of(error)
    return Verdict(MALFORMED, error.reason, details={"truncated": error.truncated}, code=why["code"], args=why["args"])


def verify_decoded(t: Transcript, *, engine: ModuleType | None = None, code: str | None = None,
                   all_signatures: bool = False) -> Verdict:
    """Verify an already decoded :class:`Transcript` (see :func:`verify_transcript`)."""
    verdict, _ = check_decoded(t, engine=engine, all_signatures=all_signatures)
    return check_code(verdict, code) if code is not None else verdict


def check_decoded(t: Transcript, *, engine: ModuleType | None = None,
                  all_signatures: bool = False) -> tuple[Verdict, GameChecker]:
    """:func:`verify_decoded` without the join-code check, also returning the
    :class:`GameChecker` fed with every statement it accepted (``jupai replay`` tells a
    dealer-blind game from its ledger and play, without checking the file twice).

    The fast path (specs/fairness.md §9 step 2): in a chained stream every ``prev``
    link is checked and only the LAST statement's signature, which through the links
    authenticates every body before it (a version-1 stream: every signature, as
    always). When that finds anything wrong (*tampered* or *malformed*), the full path
    runs (``all_signatures``: every signature, in order), so the verdict names the same
    statement and reason as checking every signature would."""
    if not all_signatures:
        verdict, checker = _check_stream(t, engine, all_signatures=False)
        if verdict.status not in (TAMPERED, MALFORMED):
            return verdict, checker
    return _check_stream(t, engine, all_signatures=True)


def _check_stream(t: Transcript, engine: ModuleType | None, *, all_signatures: bool) -> tuple[Verdict, GameChecker]:
    """Feed the statements of ``t`` up to its last signed one to a :class:`GameChecker`
    and conclude. Unsigned statements after it (deferred steps no signature covers,
    specs/fairness.md §6.6) are not evidence a third party can check: anyone holding the
    file could have written them, so their content is not checked (a seat cannot make
    the file say the host announced a false outcome, nor finish an unfinished game, by
    appending statements) and the verdict's ``details`` count them (``unsigned_tail``).
    Only their form is: one that is not a version-3 step may never go unsigned, so the
    record is **tampered** there ("carries no signature")."""
    checker = GameChecker(t.seat, t.seed, engine=engine, host_cert=t.host_cert, all_signatures=all_signatures)
    last = _last_signed(t.statements)
    tail = len(t.statements) - 1 - last
    try:
        for i, raw in enumerate(t.statements[:last + 1]):
            checker.feed(raw, last=i == last)
        stray = _not_deferred(t.statements, last + 1)
        if stray is not None:
            n, kind = stray
            verdict = checker._verdict(_Problem(TAMPERED, "unsigned", {"n": n, "kind": kind}, message=n, kind=kind))
        else:
            verdict = checker.with_cut_short(checker.conclude(t.host_gone, left=t.left, seed_sent=t.seed_sent),
                                             t.cut_short)
    except FairnessViolation as v:
        verdict = v.verdict
    except Exception as exc:  # pragma: no cover - defensive: never a traceback for a bad file
        verdict = problem_verdict(MALFORMED, "not_checked", {"detail": f"{type(exc).__name__}: {exc}"})
    if tail:
        verdict = replace(verdict, details={**verdict.details, "unsigned_tail": tail})
    return verdict, checker


def _not_deferred(statements: Sequence[bytes], start: int) -> tuple[int, str] | None:
    """``(index, kind)`` of the first statement from ``start`` on that could not be a
    deferred step (a version-3 ``step``, specs/fairness.md §6.6), or None."""
    for i in range(start, len(statements)):
        try:
            body = decode_body(split_statement(statements[i])[0])
        except StatementError:
            return i, "?"
        if not (body["v"] == DEFERRED_BODY_VERSION and body["kind"] == STEP):
            return i, body["kind"]
    return None


def _last_signed(statements: Sequence[bytes]) -> int:
    """Index of the last statement that carries a signature (or cannot be split: its
    check fails anyway), whose signature the fast path checks; the statements after it
    are deferred ones (specs/fairness.md §6.6) that no signature covers. The last index
    when none is signed (statement #0 then fails its check)."""
    for i in range(len(statements) - 1, -1, -1):
        try:
            if split_statement(statements[i])[1]:
                return i
        except StatementError:
            return i
    return len(statements) - 1


def nested(verdict: Verdict) -> dict[str, Any]:
    """``verdict``'s reason as another verdict's arg (``{"code", "args"}``)."""
    return said(verdict.code, verdict.args) if verdict.code else said("unexplained", {"detail": verdict.reason})


def reworded(verdict: Verdict, code: str, args: dict[str, Any], *, scheme: bool = True) -> Verdict:
    """``verdict`` with the reason ``code``/``args`` (its English ``reason`` from the
    catalog, naming the scheme as :meth:`GameChecker._verdict` does, unless ``scheme``
    is False)."""
    from ..messages.verdicts import verdict_sentence

    reason = verdict_sentence(code, args, "en")
    dealt = verdict.details.get("scheme")
    if scheme and isinstance(dealt, str) and dealt in SCHEME_WORDS:
        reason = named_scheme(reason, dealt)
    return replace(verdict, reason=reason, code=code, args=args)


def problem_verdict(status: str, code: str, args: dict[str, Any] | None = None) -> Verdict:
    """A verdict on no statement in particular (a file that cannot be read or checked),
    from a reason's code and args."""
    p = _Problem(status, code, args)
    return Verdict(status, p.reason, code=code, args=p.code_args)


def check_code(verdict: Verdict, code: str) -> Verdict:
    """``verdict`` checked against a join code the user gives (specs/fairness.md §3.5):

    * a *tampered* or *malformed* verdict stays as it is;
    * the pinned certificate's code (``verdict.host_code``) is ``code`` → unchanged,
      ``details["code"] = "matches"``;
    * another code → **tampered**: the statements are signed by the key of another host;
    * no pinned certificate in the transcript → a *verified* verdict becomes
      **unverified** (nothing ties the key to the code); others stay.

    ``code`` is compared after :func:`~jupai_net.fairness.pin.normalize_code`; one that
    cannot be a join code raises ``ValueError`` (the caller's usage error)."""
    want = normalize_code(code)
    if verdict.status in (TAMPERED, MALFORMED):
        return verdict
    if verdict.host_code is None:
        if verdict.status != VERIFIED:
            return replace(verdict, details={**verdict.details, "code": "not recorded"})
        return reworded(replace(verdict, status=UNVERIFIED, details={**verdict.details, "code": "not recorded"}), "code_unpinned",
                        {"reason": nested(verdict), "key": verdict.host_key, "code": want})
    if verdict.host_code != want:
        return reworded(replace(verdict, message=0, kind=START, position=None, expected=want, found=verdict.host_code,
                                status=TAMPERED, details={**verdict.details, "code": "differs"}),
                        "code_differs", {"found": verdict.host_code, "expected": want})
    return replace(verdict, details={**verdict.details, "code": "matches"})

def cross_check(files: list[bytes], verdicts: list[Verdict]) -> list[Verdict]:
    """``verdicts`` of ``files`` (in order), with every transcript of a game whose
    transcripts disagree (:mod:`.agree`: the host signed one seat another story than
    another) made **tampered**, naming the two seats and where they part; files
    already tampered or malformed keep their verdict."""
    from .agree import disagreement, public_facts

    by_game: dict[str, list[int]] = {}
    for i, v in enumerate(verdicts):
        if v.game_id is not None and v.status != MALFORMED:
            by_game.setdefault(v.game_id, []).append(i)
    out = list(verdicts)
    for game, idx in by_game.items():
        if len(idx) < 2:
            continue
        facts = {i: public_facts(files[i]) for i in idx}
        known = [i for i in idx if facts[i] is not None]
        found = next(((i, j, where) for k, i in enumerate(known) for j in known[k + 1:]
                      if (where := disagreement(facts[i], facts[j])) is not None), None)  # type: ignore[arg-type]
        if found is None:
            continue
        i, j, where = found
        who = [("-" if verdicts[x].seat is None else str(verdicts[x].seat)) for x in (i, j)]
        args = {"a": who[0], "b": who[1], "where": where}
        for x in idx:
            if out[x].status not in (TAMPERED, MALFORMED):
                out[x] = reworded(replace(out[x], status=TAMPERED, details={**out[x].details, "disagrees_at": where}),
                                  "disagree", args, scheme=False)
    return out



def verify_many(files: list[bytes], *, engine: ModuleType | None = None, code: str | None = None,
                all_signatures: bool = False) -> list[Verdict]:
    """Verify several transcript files (``jupai verify`` of several files or a folder,
    specs/fairness.md §10): each as :func:`verify_transcript`, then across them: a seat
    seed found in the transcripts of two different games makes each of those games
    *suspicious* unless it is already tampered or malformed — the host may have known
    that seed before it committed its own, and chosen the deal (issue 7 item 1; a
    client makes a new seed for every game); then :func:`cross_check` (transcripts of
    one game that disagree are *tampered*). One verdict per file, in order."""
    verdicts: list[Verdict] = []
    seeds: list[bytes | None] = []
    for data in files:
        try:
            t = decode_transcript(data)
        except TranscriptError as e:
            verdicts.append(file_verdict(e))
            seeds.append(None)
            continue
        verdicts.append(verify_decoded(t, engine=engine, code=code, all_signatures=all_signatures))
        seeds.append(t.seed)
    games: dict[bytes, set[str]] = {}
    for seed, v in zip(seeds, verdicts):
        if seed is not None and v.game_id is not None:
            games.setdefault(seed, set()).add(v.game_id)
    out = []
    for seed, v in zip(seeds, verdicts):
        others = sorted(games.get(seed, set()) - {v.game_id}) if seed is not None else []
        if others and v.status not in (TAMPERED, MALFORMED):
            v = reworded(replace(v, status=SUSPICIOUS, details={**v.details, "seed_reused_in": others}), "seed_reused",
                         {"game": others[0], "reason": nested(v)})
        out.append(v)
    return cross_check(files, out)
