"""The client session library: one player at one table, from TLS to verdict
(specs/host.md § Client session).

:func:`run_session` connects over TLS, checks the host certificate, says hello,
readies up in the lobby, takes part in commit–reveal seeding with a fresh 256-bit
seed, feeds every signed statement to a :class:`~jupai_net.fairness.SeatWitness`
(card reveals are checked the moment they arrive), keeps a :class:`ClientView` up to
date, asks a :class:`Player` for an action on every prompt, reconnects with its
session token if the connection drops, and at the end verifies and saves the
transcript and returns a :class:`SessionResult`.

A user interface implements :class:`Player` (see :class:`PlayerBase` for defaults);
:class:`jupai_net.client.bot.BotPlayer` is the headless one.

With ``watch=True`` the session is a **spectator** (``jupai watch``; specs/protocol.md
§12): it says ``hello`` with ``watch``, holds no seat, never readies, commits or acts,
sees the public view and the public statement stream, verifies and saves each game it
saw to its end, and stays for the next game until the host says bye or the watcher
leaves.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import re
import secrets
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import trio

from jupai_net.actions import Action
from jupai_net.fairness import FairnessViolation, SeatWitness, Verdict
from jupai_net.fairness.pin import cert_statement_key
from jupai_net.fairness.statements import join_statement, split_statement
from jupai_net.messages import t
from jupai_net.messages.verdicts import said, verdict_sentence
from jupai_net.printable import is_printable, printable, printable_tree
from jupai_net.protocol import (
    EOF,
    NEED_DATA,
    ActionMessage,
    Blind,
    Bye,
    Chat,
    ChatRelay,
    ClientConnection,
    End,
    ErrorMessage,
    Hello,
    LocalProtocolError,
    Lobby,
    Message,
    Notice,
    Ping,
    PlayerInfo,
    Pong,
    Prompt,
    Ready,
    Reject,
    RemoteProtocolError,
    SeedCommit,
    SeedReveal,
    Series,
    Start,
    Statement,
    Sync,
    Welcome,
)
from jupai_net.protocol.limits import BOT_HELLO_VERSION, MAX_CHAT_LEN, MAX_SEATS, SUPPORTED_VERSIONS, WATCH_HELLO_VERSION
from jupai_net.rules import RuleSet

from .series_check import SeriesCheck, signed_ranking
from .signed_view import SignedFacts, replay_observations, same_action
from .resume import ResumeLock, ResumeState, drop_resume, find_resume, load_resume, save_resume
from .tls import cert_fingerprint, client_ssl_context, code_matches, config_dir, join_code, peer_certificate

log = logging.getLogger("jupai.client")

#: Seconds without a byte from the host, while this seat's turn timer runs, after which
#: the screen says the connection is lost and pauses the timer; the session pings the
#: host after :data:`PING_AFTER` quiet seconds so a live host always answers in time.
STALL_AFTER, PING_AFTER = 3.0, 1.0

#: How many chat lines, notices and events a :class:`ClientView` keeps (newest last;
#: the events of a whole game, for `/log`).
KEEP_CHAT, KEEP_NOTICES, KEEP_EVENTS = 100, 50, 5000

# Session phases (ClientView.phase).
CONNECTING, LOBBY, SEEDING, PLAYING, OVER = "connecting", "lobby", "seeding", "playing", "over"


class HostRefused(Exception):
    """The host certificate failed the check (wrong join code, or the pinning callback
    refused it). ``fingerprint`` is the certificate's SHA-256 (hex)."""

    def __init__(self, message: str, fingerprint: str = ""):
        super().__init__(message)
        self.fingerprint = fingerprint


# --------------------------------------------------------------------------- the view


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of chat: ``seat`` of the speaker (``None``: the host or a spectator),
    ``name``, ``text``, and ``at`` (``time.time()`` when it arrived)."""

    seat: int | None
    name: str
    text: str
    at: float


#: Seconds a dealer-blind game waits for the same keys before the screen says whose
#: (``ClientView.waiting``): keys that come at once make no redraw.
WAITING_SHOWN_AFTER = 0.6


def verdict_args(verdict: Any, says: str | None = None) -> dict[str, Any]:
    """The args of a ``fairness``/``blind-seat`` note: the verdict's reason as its code
    and args (``verdict``), said in the viewer's language by
    :func:`~jupai_net.client.status_words.notice_text`, and what the note ``says`` of
    it (``broke``: the host broke the protocol; ``dropped``: it dropped the game);
    ``verdict["scheme"]``: the scheme the reason names first, as the English does."""
    if not verdict.code:
        return {"says": says} if says else {}
    said: dict[str, Any] = {"code": verdict.code, "args": verdict.args}
    scheme = verdict.details.get("scheme")
    if isinstance(scheme, str):  # named first when the English reason names it
        from jupai_net.fairness.verify import SCHEME_WORDS

        if verdict.reason.startswith(SCHEME_WORDS.get(scheme, "\0")):
            said["scheme"] = scheme
    return {"verdict": said, **({"says": says} if says else {})}


@dataclass(frozen=True, slots=True)
class NoticeLine:
    """A host notice (``code`` e.g. ``turn-timeout``, ``player-left``; English ``text``),
    a refusal of this client's action (``code`` = the reject code, e.g.
    ``illegal-action``, with ``reject=True``), or a local note of the session
    (``code`` ``reconnecting``, ``reconnected``, ``fairness``, ``host-pinned``: the
    host was trusted on first use, compare its join code; ``welcome-back``: the seat
    was taken back, ``args`` ``{"seat": N, "moves": K}`` the moves a bot played for
    it, ``"waited": True`` at a dealer-blind table, where nobody plays for a seat;
    ``time-left``: the seconds a turn kept across a reconnect, until that turn ends; ``connection-stalled``: nothing from the host for a few seconds;
    ``away-too-long``: back after the game ended and the seat went to a bot, ``args``
    ``{"seat": N}``; ``seat-later``: so back while a game runs, seated when it ends). A
    refusal's ``args`` are the host's ``reject.args`` (protocol version 8: ``illegal``,
    the engine's reason as ``{"code", "args"}``), as a peer sent them.
    ``at``: ``time.time()``; ``args``: values for a translated text (i18n key
    ``notice.CODE``), or ``None``."""

    code: str
    text: str
    at: float
    reject: bool = False
    args: dict[str, Any] | None = None


@dataclass(frozen=True)
class ClientView:
    """Everything one player may know, as a snapshot (a new object on every change;
    never mutate it). Sequences are tuples.

    Identity and table:

    * ``name``: this player's name; ``seat``: its seat (``None`` until welcomed);
    * ``players``: the lobby list (:class:`~jupai_net.protocol.PlayerInfo`: seat,
      name, ready, bot, connected) of the occupied seats; :attr:`seats`: every seat in
      order, ``None`` for an empty one; ``names``: seat → name of every occupied seat;
    * ``rules``: the table's :class:`~jupai_net.rules.RuleSet` (``None`` until welcomed);
    * ``table``: the table's name (the host's ``welcome.table``, else the name the
      table was found by on the LAN, else ``""``: an older host, joined by address —
      the screens then name the address);
    * ``host``/``port``; ``fingerprint``: hex SHA-256 of the host's TLS certificate
      and ``join_code`` its short form; ``host_key``: fingerprint of the host's
      statement signing key (from the fairness ``start``; players may compare it);
    * ``token``: the session token that takes this seat back after a disconnect.

    Game:

    * ``phase``: ``"connecting"``, ``"lobby"``, ``"seeding"`` (commit–reveal),
      ``"playing"``, ``"over"``; ``game_id``: 16 bytes once a game started;
    * ``observation``: this seat's view of the table, exactly
      :meth:`jupai_net.engine.GameState.observation` for this seat (keys ``hand``,
      ``players``, ``round``, ``round_type``, ``R``, ``to_move``, ``pending``,
      ``discard_pile``, ``log``, ``result``, …), ``None`` before the deal;
      ``state_id``: the state it shows (number of actions played);
    * ``legal``: the legal :class:`~jupai_net.actions.Action` s when this player is
      asked to act, else ``()``; ``prompt_state``: the state id the prompt is for;
      ``pending``: what is asked (e.g. ``"attack round 3"``, ``"answer the attack of
      seat 1"``); ``timeout``: seconds allowed (``None``: no limit) and ``deadline``:
      when the host will play a default action instead, on the trio clock
      (:func:`trio.current_time`, so ``trio.fail_at(view.deadline)`` works; ``None``:
      no limit);
    * ``events``: the latest game events as this seat sees them (engine event dicts
      with ``kind``: ``deal``, ``round``, ``play``, ``contest``, ``discard``, ``supply``,
      ``pass``, ``rearm``, ``end``), newest last;
    * ``chat``: :class:`ChatLine` s; ``notices``: :class:`NoticeLine` s (newest last);
    * ``result``: the host's end result (``ranking`` best first, ``winner``,
      ``cards_left``, ``names``, ``reason``) once over; ``verdict``: the fairness
      :class:`~jupai_net.fairness.Verdict` once checked, and ``transcript_path`` where
      the game's transcript was saved (``None``: not saved, or not yet);
    * ``change``: what caused this snapshot: ``welcome``, ``lobby``, ``start``,
      ``statement``, ``sync``, ``prompt``, ``acted`` (our action was sent), ``reject``,
      ``notice``, ``chat``, ``end``, ``verdict``, ``reconnecting``, ``reconnected``,
      ``error``, ``stalled`` / ``unstalled``;
    * ``series``: the latest :class:`~jupai_net.protocol.Series` scoreboard of the
      games played in a row at this table (``None`` before the first game ended, or
      from a host older than protocol version 3);
    * ``stalled_left``: while nothing has come from the host for
      :data:`STALL_AFTER` seconds during a timed prompt, the seconds that were left
      then (the screen pauses the turn timer and says the connection is being
      retried); ``None`` otherwise.
    """

    name: str
    host: str = ""
    port: int = 0
    table: str = ""
    seat: int | None = None
    players: tuple[PlayerInfo, ...] = ()
    names: dict[int, str] = field(default_factory=dict)
    rules: RuleSet | None = None
    fingerprint: str = ""
    join_code: str = ""
    host_key: str | None = None
    token: str | None = None
    phase: str = CONNECTING
    game_id: bytes | None = None
    observation: dict[str, Any] | None = None
    state_id: int | None = None
    legal: tuple[Action, ...] = ()
    prompt_state: int | None = None
    pending: str = ""
    timeout: float | None = None
    deadline: float | None = None
    events: tuple[dict[str, Any], ...] = ()
    chat: tuple[ChatLine, ...] = ()
    notices: tuple[NoticeLine, ...] = ()
    #: ``"trusted"`` or ``"blind"`` (the dealing scheme of the current game, from ``start``)
    dealer: str = "trusted"
    #: the scheme the host deals its next game with the seats as they are (``welcome`` /
    #: ``lobby`` ``dealer``, specs/protocol.md §4; an older host says nothing: trusted);
    #: ``None`` before the welcome
    next_dealer: str | None = None
    #: dealer-blind: the cards this seat opened itself, deck position → card id
    blind_cards: dict[int, int] = field(default_factory=dict)
    #: dealer-blind: who the game waits for — the participants (seat numbers; 255 the
    #: host) that still owe a key for an opening in progress (a claim's cards, a draw),
    #: this seat aside; ``()`` while nothing is being opened
    waiting: tuple[int, ...] = ()
    result: dict[str, Any] | None = None
    verdict: Verdict | None = None
    change: str = ""
    stalled_left: float | None = None
    series: Series | None = None
    transcript_path: Path | None = None

    @property
    def seats(self) -> tuple[PlayerInfo | None, ...]:
        """Every seat of the table in order, empty ones included: the seat's
        :class:`~jupai_net.protocol.PlayerInfo`, or ``None`` for an empty seat
        (``rules.players`` entries; ``()`` before the ``welcome``). For a lobby screen
        that lists each seat."""
        if self.rules is None:
            return ()
        by_seat = {p.seat: p for p in self.players}
        return tuple(by_seat.get(s) for s in range(self.rules.players))

    @property
    def my_turn(self) -> bool:
        """True while this player is asked to act (``legal`` is not empty)."""
        return bool(self.legal)

    def seconds_left(self) -> float | None:
        """Seconds until the turn deadline (never negative), ``None`` without one; while
        the connection is stalled, the seconds left when it stalled (the timer pauses
        on screen: :attr:`stalled_left`)."""
        if self.stalled_left is not None:
            return self.stalled_left
        return None if self.deadline is None else max(0.0, self.deadline - trio.current_time())


@dataclass(frozen=True)
class SessionResult:
    """How a session ended.

    ``status``: ``"finished"`` (the game ran to its end), ``"aborted"`` (the host
    abandoned it), ``"left"`` (this player left), ``"error"`` (the host sent an error or
    broke the protocol; ``error`` says which), ``"host-gone"`` (the connection was lost
    and could not be restored), ``"refused"`` (the host did not admit us, or its
    certificate failed the check). ``verdict``: the fairness verdict of the game
    (``None`` if no game started); ``ranking``: seats best first; ``winner``; ``names``:
    seat → name; ``seat``; ``result``: the host's end result map; ``transcript_path``:
    where the transcript was saved; ``token``/``game_id``; ``error``: ``(code, text)``
    with a readable text: ``("bye", "the host was stopped")`` in the run's language (see
    :func:`bye_text`) when the host said bye, ``("abandoned", REASON)`` when the host
    abandoned the game (``status == "aborted"``; REASON as the host gave it).

    A session that stays at the table (``run_session(stay=True)``) plays several games:
    the result is the last game's, ``games`` holds every game's result in order (this
    one last; each with its own verdict and transcript), ``series`` the latest
    scoreboard. When the player leaves or the host closes *between* games, the result
    is the last game's as it ended (``status`` ``finished`` for a finished game).
    """

    status: str
    verdict: Verdict | None = None
    ranking: list[int] = field(default_factory=list)
    winner: int | None = None
    names: dict[int, str] = field(default_factory=dict)
    seat: int | None = None
    result: dict[str, Any] | None = None
    transcript_path: Path | None = None
    token: str | None = None
    game_id: bytes | None = None
    error: tuple[str, str] | None = None
    view: ClientView | None = None
    games: tuple["SessionResult", ...] = ()
    series: Series | None = None
    #: the host's goodbye (:func:`bye_text`, in the run's language) when the session
    #: ended with the host's ``bye`` (also after a game it abandoned); None otherwise
    host_bye: str | None = None
    #: the seat this session left mid-game is still the person's to take back with the
    #: same command while that game runs (the resume file kept, specs/client.md § Rejoin):
    #: ``"trusted"`` (left on purpose at a trusted table: a bot plays it meanwhile),
    #: ``"hung-up"`` (the terminal closed: kept as after a lost connection); None otherwise
    seat_kept: str | None = None


# --------------------------------------------------------------------------- the player


class SessionControl:
    """What a :class:`Player` may do besides choosing actions, handed to
    :meth:`Player.attach` once the session starts: :meth:`say` chat lines and
    :meth:`leave`. Safe to call from trio tasks of the same run (not from other threads:
    use ``trio.from_thread.run_sync``)."""

    def __init__(self) -> None:
        self._chat_send, self._chat_recv = trio.open_memory_channel[str](32)
        self._leave = trio.Event()
        self._hung_up = False
        self._ready_held = False
        self._ready_released = trio.Event()

    def say(self, text: str) -> None:
        """Queue a chat line (1..300 printable characters). Raises ``ValueError`` for an
        invalid line, and ``trio.WouldBlock`` if 32 lines are already waiting."""
        text = text.strip()
        if not 1 <= len(text) <= MAX_CHAT_LEN or not is_printable(text):  # the protocol's rule (emoji joiners ok)
            raise ValueError(f"a chat line is 1..{MAX_CHAT_LEN} printable characters")
        self._chat_send.send_nowait(text)

    def leave(self) -> None:
        """End the session now (a ``bye`` is sent; the result status is ``"left"``)."""
        self._leave.set()

    def hang_up(self) -> None:
        """The terminal went away (SIGHUP, a closed window): end the session now. Mid-game
        it is no decision of the person: no ``bye`` is sent and the resume file stays, so
        the host holds the seat as after a lost connection and the same command takes it
        back (``SessionResult.seat_kept`` ``"hung-up"``); in the lobby or between games
        it leaves as :meth:`leave` does (specs/client.md § `jupai join`)."""
        self._hung_up = True
        self._leave.set()

    @property
    def hung_up(self) -> bool:
        """True once :meth:`hang_up` was called."""
        return self._hung_up

    @property
    def leaving(self) -> bool:
        """True once :meth:`leave` was called."""
        return self._leave.is_set()

    def hold_ready(self) -> None:
        """Do not say ``ready`` in the lobby until :meth:`release_ready`: the person has
        something to read first (the trust-on-first-use warning), and the host must not
        start the game, nor its turn timer, meanwhile (specs/client.md § Pinning the host).
        Call it from ``on_update`` of the ``host-pinned`` notice, which comes before the
        ``hello``."""
        if not self._ready_released.is_set():
            self._ready_held = True

    def release_ready(self) -> None:
        """The person has read it: the session says ``ready`` now (in the lobby)."""
        self._ready_held = False
        self._ready_released.set()

    @property
    def ready_held(self) -> bool:
        """True between :meth:`hold_ready` and :meth:`release_ready`."""
        return self._ready_held


@runtime_checkable
class Player(Protocol):
    """A player: the session calls these from its trio task (never concurrently with
    themselves, except that :meth:`on_update` may run while :meth:`choose` awaits).

    * ``attach(control)`` — once, before connecting: keep the :class:`SessionControl`
      to send chat or leave.
    * ``on_update(view)`` — on every change (sync, prompt, notice, chat, statement,
      lobby…): a fresh :class:`ClientView`. Must return quickly (draw, don't block).
    * ``await choose(view)`` — on every prompt: return one of ``view.legal``. The
      session cancels this call (trio cancellation) when the prompt is no longer
      current: the turn timed out (the host played a default action) or a new state
      arrived; let the ``trio.Cancelled`` propagate. An action not in ``view.legal`` is
      not sent: a notice (``code`` ``illegal-action``) is added and ``choose`` is asked
      again. Raising ``trio.TooSlowError`` (giving up at ``view.deadline``) or any other
      exception sends nothing: the host plays the default action when the turn times out.
    * ``on_end(result)`` — once, with the :class:`SessionResult`.
    * ``await next_game(result)`` (optional; only when the session stays at the table)
      — after each game but the last of a series, with that game's
      :class:`SessionResult` (verdict checked, transcript saved, ``result.series`` the
      scoreboard): show the ending and return True to play the next game (the session
      sends ``ready``) or False to leave the table (``bye``). Messages keep arriving
      meanwhile (``on_update``); the call is cancelled when the session ends, and when
      the question has no meaning any more — the host freed the seat (away too long
      at the question) or another game started — in which case the session waits for
      the call to end before its next update, and sends nothing for it (specs/client.md
      § Staying at the table). Without the method the player stays.

    Subclass :class:`PlayerBase` to get no-op defaults for all but ``choose``.
    """

    def attach(self, control: SessionControl) -> None: ...

    def on_update(self, view: ClientView) -> None: ...

    async def choose(self, view: ClientView) -> Action: ...

    def on_end(self, result: SessionResult) -> None: ...


class PlayerBase:
    """No-op :class:`Player` hooks; subclasses must implement :meth:`choose`."""

    control: SessionControl | None = None

    def attach(self, control: SessionControl) -> None:
        """Keep ``control`` as :attr:`control`."""
        self.control = control

    def on_update(self, view: ClientView) -> None:
        """Ignore updates."""

    async def choose(self, view: ClientView) -> Action:  # pragma: no cover - abstract
        """Return one of ``view.legal``."""
        raise NotImplementedError

    def on_end(self, result: SessionResult) -> None:
        """Ignore the result."""

    async def next_game(self, result: SessionResult) -> bool:
        """Stay for the next game (True)."""
        return True


# --------------------------------------------------------------------------- fingerprints

#: ``check(host, port, fingerprint)``: raise to refuse the host; may return a short
#: note for the player (e.g. "pinned on first use: compare the code"), shown as a
#: ``host-pinned`` notice.
FingerprintCheck = Callable[[str, int, str], "str | None"]


def default_fingerprint_check(code: str | None) -> FingerprintCheck:
    """The certificate check used when none is given.

    With :mod:`jupai_net.client.known_hosts` available (the normal case): SSH-style
    pinning through ``KnownHosts().check`` — a given join ``code`` must match (and
    (re-)pins), an unknown host is pinned on first use, a changed certificate without
    ``code`` is refused. Without that module: a given ``code`` must match, else the
    certificate is accepted with a warning in the log. Raises :class:`HostRefused`
    (the pinning module's exception is its ``__cause__``). A host trusted without a
    ``code`` (first use) returns a note the session shows as a ``host-pinned``
    notice: compare the code with the host's screen."""

    def check(host: str, port: int, fingerprint: str) -> str | None:
        shown = join_code(fingerprint)
        try:
            from .known_hosts import KnownHosts
        except ImportError:
            KnownHosts = None  # type: ignore[assignment,misc]
        if KnownHosts is not None:
            try:
                pinned = KnownHosts().check(host, port, fingerprint, code=shown, explicit_code=code)
            except Exception as exc:  # WrongCode, HostKeyChanged, KnownHostsError
                raise HostRefused(str(exc), fingerprint) from exc
            if code is None and getattr(pinned, "status", None) == "new":
                log.warning("host %s:%d pinned on first use with join code %s (no code given to check)",
                            host, port, shown)
                return (f"first time at {host}:{port}: join code {shown} pinned without a check; "
                        "compare it with the code on the host's screen")
            return None
        if code is not None:
            if not code_matches(code, fingerprint):
                raise HostRefused(f"the host presents join code {shown}, not {code}", fingerprint)
            return None
        log.warning("accepting host %s:%d with join code %s unchecked (no --code given)", host, port, shown)
        return f"join code {shown} accepted without a check; compare it with the code on the host's screen"

    return check


# --------------------------------------------------------------------------- the session


class _Lost(Exception):
    """The transport broke (reconnect may help). ``code`` says why (``broken``,
    ``closed``, ``silent``, ``send-stuck``, ``not-connected``, ``host-error``: the
    catalog's ``lost.*``, :func:`~.status_words.lost_words`) with its ``values``, so
    every screen says it in the player's language; ``str()`` is the English sentence,
    never raw OpenSSL text (that goes to the log)."""

    def __init__(self, code: str = "broken", **values: Any) -> None:
        from .status_words import lost_words

        self.code, self.values = code, values
        super().__init__(lost_words(code, values, "en"))


#: Why the connection ended when the transport broke (TLS or TCP): what the player reads.
LOST_TEXT = "the connection broke without a goodbye from the host"


def _lost(exc: BaseException) -> _Lost:
    """A :class:`_Lost` for a transport exception ``exc`` (``BrokenResourceError``
    wrapping e.g. ``[SSL: UNEXPECTED_EOF_WHILE_READING]``): the detail is logged, the
    player gets :data:`LOST_TEXT`."""
    log.info("connection to the host lost: %s", exc.__cause__ or exc)
    return _Lost("broken")


#: The catalog keys (client/i18n.py ``bye.*``) of the reasons a host gives in ``bye``
#: (protocol codes); any other code is ``bye.other``.
BYE_KEYS = {
    "host-shutdown": "bye.host_shutdown",
    "quit": "bye.quit",
    "": "bye.none",
}


#: Hex digits of the game id in a transcript's default file name (48 bits: two of a
#: person's games never share them in practice), short enough that the path and the
#: ``jupai verify`` command fit a 60-column terminal (specs/client.md § The end of a game).
TRANSCRIPT_ID_DIGITS = 12


def default_transcript_path(game_id: bytes, seat: int | None) -> Path:
    """Where a game's transcript goes without ``--transcript``:
    ``<config>/transcripts/<first 12 hex digits of the game id>-seat<N>.jupai``
    (``-spectator`` for a spectator), e.g. ``674d463e2a68-seat0.jupai``."""
    who = "spectator" if seat is None else f"seat{seat}"
    return config_dir() / "transcripts" / f"{game_id.hex()[:TRANSCRIPT_ID_DIGITS]}-{who}.jupai"


def kept_seat(msg: ErrorMessage) -> int | None:
    """The seat a host keeps for this client at the next game, from its ``game-running``
    refusal (specs/protocol.md § Errors), or None: ``args.seat`` (protocol version 7);
    from a host of an older release, which says it only in words, the text's ``… you
    take seat N at the next game``. A host that sends ``args`` without a seat keeps none,
    whatever its text says; a seat that is not a whole number 0..5 is none."""
    args = getattr(msg, "args", None) or {}
    if args:
        seat = args.get("seat")
        return seat if type(seat) is int and 0 <= seat < MAX_SEATS else None
    found = re.search(r"\byou take seat ([0-5]) at the next game\b", msg.message)
    return int(found.group(1)) if found else None


def bye_text(reason: str, lang: str | None = None) -> str:
    """A readable text for a host's ``bye`` reason in ``lang`` (None: the run's
    language), e.g. ``host-shutdown`` → ``the host was stopped`` / ``主机已停止``; an
    unknown code (already checked by the protocol: letters, digits, hyphens) becomes
    ``an unknown reason (CODE)``."""
    if reason in BYE_KEYS:
        return t(BYE_KEYS[reason], lang)
    return t("bye.other", lang, code=reason)


#: Reconnect backoff (seconds): the first delay, and the most it grows to (doubling).
RECONNECT_FIRST, RECONNECT_MAX = 0.1, 5.0


def _backoff_delay(backoff: float) -> tuple[float, float]:
    """``(delay, next backoff)``: sleep a random time in ``[backoff/2, backoff]`` ("equal
    jitter", so clients dropped together do not come back together), then double the
    backoff up to :data:`RECONNECT_MAX`."""
    return random.uniform(backoff / 2, backoff), min(RECONNECT_MAX, backoff * 2)


def _action_text(action: dict[str, Any]) -> str:
    """A short English text of an action's wire form, e.g. ``attack seat 1 with [12]``."""
    parts = [str(action.get("kind"))]
    if action.get("target") is not None:
        parts.append(f"seat {action['target']}")
    if action.get("cards"):
        parts.append(f"with cards {list(action['cards'])}")
    if action.get("weapon"):
        parts.append("+ weapon")
    return " ".join(parts)


class _TokenExpired(Exception):
    """The host does not know our session token any more: hello again without it."""


class _SeatLater(Exception):
    """A seat that came back too late finds a game running: hello again when it may
    have ended (specs/client.md § Staying at the table)."""


#: Seconds between two hellos of a seat that came back too late while a game runs.
SEAT_RETRY = 3.0


class _Over(Exception):
    """The session is over; ``result`` says how."""

    def __init__(self, status: str, error: tuple[str, str] | None = None):
        super().__init__(status)
        self.status = status
        self.error = error


#: The ``error`` a client sends a host whose certificate it refused (wrong join code,
#: changed key), before closing: the host logs a refused handshake (specs/host.md §9).
HOST_REFUSED = ErrorMessage("host-refused", "this client does not trust the host's certificate "
                            "(the join code does not match, or the host's key changed)")


#: The notice a seat and a spectator get at each game's start (specs/client.md, issue 9):
#: which scheme deals, in plain words ``(code, English text)``; the screens translate by code.
DEALER_NOTICES: dict[tuple[str, bool], tuple[str, str]] = {
    ("blind", False): ("dealer-blind", "dealer-blind: the host cannot see your cards"),
    ("blind", True): ("dealer-blind-watch", "dealer-blind: the host cannot see the players' cards"),
    ("trusted", False): ("dealer-trusted", "trusted dealer: the host can see every hand"),
    ("trusted", True): ("dealer-trusted", "trusted dealer: the host can see every hand"),
}


#: The notice a seat and a spectator get in the lobby when the host names the scheme of
#: the next game (``welcome``/``lobby`` ``dealer``), and again whenever it changes.
NEXT_DEALER_NOTICES: dict[tuple[str, bool], tuple[str, str]] = {
    ("blind", False): ("next-dealer-blind", "the next game deals blind: the host cannot see your cards"),
    ("blind", True): ("next-dealer-blind-watch", "the next game deals blind: the host cannot see the players' cards"),
    ("trusted", False): ("next-dealer-trusted", "the next game deals trusted: the host can see every hand"),
    ("trusted", True): ("next-dealer-trusted", "the next game deals trusted: the host can see every hand"),
}


def stable_events(old: tuple[Any, ...], new: tuple[Any, ...]) -> tuple[Any, ...]:
    """The game's events so far: ``old`` (the events kept) followed by the events of
    ``new`` that come after them. ``new`` is the log tail of an observation (a
    dealer-blind seat's events come with each ``sync``, filled in from its own cards,
    specs/fairness.md B.16.5): where the longest suffix of ``old`` is a prefix of
    ``new`` the objects of ``old`` are kept, so a viewer that remembers the last event
    it showed (``PlainPlayer``, by identity) shows each event once, and ``/log`` has
    the whole game as at a trusted table. No overlap (a new game, a rejoin): ``new``."""
    for d in range(max(0, len(old) - len(new)), len(old)):
        n = len(old) - d
        if old[d:] == new[:n]:
            return old + new[n:]
    return new


def for_next_game(notice: NoticeLine) -> bool:
    """True when ``notice`` speaks of the next game only, so that it makes way when that
    game starts (specs/client.md § Staying at the table): what the lobby said of the
    next game's scheme (``next-dealer-*``), a bot seated for the next game
    (``bot-seated``), and a player who left with a stand-in taking the seat for the next
    game (``player-left`` with ``args["then"] == "stand-in"``). The screen drops them
    from the notices at the start; ``--plain`` holds their lines (``PlainPlayer``)."""
    if said_at_start(notice) or notice.code == "bot-seated":
        return True
    return notice.code == "player-left" and (notice.args or {}).get("then") == "stand-in"


def said_at_start(notice: NoticeLine) -> bool:
    """True when a game's start says ``notice`` again, in its own words: what the lobby
    said of the next game's scheme (``next-dealer-*``) — the start's notice
    (:func:`dealer_notice`) names the scheme of the game it starts. A printer that
    cannot take a line back (``--plain``) leaves such a line out once the game has
    started; the other notices :func:`for_next_game` names are still news then."""
    return notice.code.startswith("next-dealer")


def dealer_notice(dealer: str, *, watching: bool = False) -> tuple[str, str]:
    """``(code, text)`` of the notice that says which dealing scheme is in force
    (``dealer``: ``"blind"`` or ``"trusted"``; ``watching``: a spectator, who holds no
    cards). An unknown scheme is said as trusted: the host may see every hand."""
    return DEALER_NOTICES.get((dealer, watching), DEALER_NOTICES[("trusted", watching)])


async def _refuse_host(stream: trio.SSLStream) -> None:
    """Tell a host whose certificate was refused why the client hangs up (at most 1 s;
    nothing about the expected code is sent)."""
    with trio.move_on_after(1):
        try:
            await stream.send_all(ClientConnection().send(HOST_REFUSED))
        except (trio.BrokenResourceError, trio.ClosedResourceError, LocalProtocolError):
            pass


class _Session:
    def __init__(self, host: str, port: int, name: str, player: Any, *, seat: int | None, lang: str,
                 token: str | None, check: FingerprintCheck, ssl_context: ssl.SSLContext,
                 transcript_path: Path | None, wire_tap: Callable[[bytes], None] | None,
                 reconnect_for: float, connect_timeout: float, save_resume: bool, idle_timeout: float = 45.0,
                 control: SessionControl | None = None, bot: bool = False, watch: bool = False,
                 stay: bool = False, table_name: str | None = None, name_given: bool = False):
        self.host, self.port, self.name, self.player = host, port, name, player
        # what the caller asked for, before a saved session's seat and name: a rejoin that
        # is refused (or meant for another host) joins afresh with these (specs/client.md § Rejoin)
        self.asked_name, self.asked_seat, self.name_given = name, seat, name_given
        self.from_saved = False  # the token (and seat, name) came from the resume file
        self.table_name = table_name  # the table's name when the caller knows it (discovered, jupai play)
        self.want_seat, self.lang = seat, lang
        self.token = token
        self.caller_token = token  # a token the caller gave: if it is refused, say so (no new seat)
        self.check, self.ctx = check, ssl_context
        self.transcript_path = transcript_path
        self.wire_tap = wire_tap
        self.reconnect_for = reconnect_for
        self.connect_timeout = connect_timeout
        self.idle_timeout = idle_timeout
        self.give_up_at: float | None = None  # reconnect deadline, kept until a frame arrives
        self.backoff = RECONNECT_FIRST
        self.save_resume = save_resume
        self.control = control or SessionControl()
        self.view = ClientView(name=name, host=host, port=port, table=table_name or "")
        self.witness: SeatWitness | None = None
        #: DER of the host certificate pinned at the handshake (its statement key must sign every statement).
        self.host_cert: bytes | None = None
        self.witness_for: bytes | None = None  # the game id of the ``start`` that made the witness
        self.received: list[bytes] = []  # statements of the current game, as received
        self.kinds: set[str] = set()
        # Seeds already given to a game (commitment or reveal sent): seed -> game id. A
        # seed is bound to one game id and never sent for another (issue 7 item 1).
        self.spent_seeds: dict[bytes, bytes] = {}
        self.own_actions: dict[int, dict[str, Any]] = {}  # state id -> action this seat sent (this game)
        # states answered on this connection: the host gets that answer (TCP keeps it), so a
        # prompt for one of them sent again (after a stale move, say) is not answered twice
        self.answered_here: set[int] = set()
        self.host_moves: list[tuple[int, str]] = []  # (step version, "away" | "timeout") played by the host
        self.saved: ResumeState | None = None  # the resume state this session started from
        self.lock: ResumeLock | None = None
        self.catching_up = False  # statements resent after a token welcome, until the next sync
        self.away_moves = 0  # steps the host played for this seat while it was away (since the last welcome)
        self.welcomed_back = False
        self.rejoined_prompt = False  # the next prompt is the first after a token welcome
        self.heard_at = 0.0  # trio time of the last bytes from the host
        self.hello_token: str | None = None  # the token the last hello carried
        #: a step for this seat awaiting its time-out notice: (version, the reason's code and args)
        self.unexplained: tuple[int, dict[str, Any]] | None = None
        self.facts = SignedFacts(None)  # the signed facts of the current game (issue 7 item 4)
        self.shown: dict[int, Any] = {}  # state id -> observation the host showed (checked after the game)
        self.prompt_deadlines: dict[int, tuple[float, float]] = {}  # state id -> (deadline, timeout) of a prompt
        #: state id -> (trio time its prompt's bytes arrived, the turn's ms, whether it came
        #: on an up-to-date connection (not the catch-up after a rejoin), wall clock ms then)
        self.prompt_heard: dict[int, tuple[float, int, bool, int]] = {}
        self.earlier: list[tuple[Verdict, Path | None]] = []  # games the host dropped unfinished
        self.stmt_index = 0  # statements since the last start on this connection
        self.stream: trio.SSLStream | None = None
        self.conn: ClientConnection | None = None
        self.send_lock = trio.StrictFIFOLock()
        self.ask_scope: trio.CancelScope | None = None
        self.prompt: Prompt | None = None
        #: the question between games (``player.next_game``) while it is asked: (the
        #: game it follows, its cancel scope, set once it is closed) — :meth:`_withdraw_question`
        self.asking_next: tuple[bytes | None, trio.CancelScope, trio.Event] | None = None
        self.sent_commit = self.sent_reveal = self.sent_ready = False
        #: dealer-blind game: this seat's participant, played by a BlindActor (specs/protocol.md §13)
        self.blind_actor: Any = None
        self.blind_resync = False  # a new connection: send again what the host may have missed
        self.result: dict[str, Any] | None = None
        self.verdict: Verdict | None = None
        self.saved_path: Path | None = None
        self.nursery: trio.Nursery | None = None
        self.left = False
        self.keep_seat: str | None = None  # the seat left mid-game stays to take back (SessionResult.seat_kept)
        self.save_error: str | None = None
        self.save_args: dict[str, Any] | None = None  # the save error's path and why (said in the viewer's language)
        self.bot = bot
        self.watch = watch  # a spectator: no seat, the public view (specs/protocol.md §12)
        self.saved_for: bytes | None = None  # watch: the game whose verdict and transcript are done
        self.watch_end: tuple[str, tuple[str, str] | None] | None = None  # watch: how the last game ended
        self.host_bye: str | None = None  # the host's goodbye (bye_text), once it said bye
        self.stay = stay  # stay at the table after a game (a series, specs/host.md § 3a)
        self.games: list[SessionResult] = []  # the games over, in order (stay)
        self.closed_game: bytes | None = None  # game id of the last game verified and saved
        #: the seat came back after its game ended and went to a bot: it joins as a new
        #: arrival, and waits for a running game to end (specs/client.md § Staying at the table)
        self.back_too_late = False
        self.said_seat_later = False
        self.series: Series | None = None  # the latest scoreboard
        self.series_for: bytes | None = None  # the game id the scoreboard came with
        self.series_names: dict[int, str] = {}  # who sat where when the scoreboard came (before the lobby)
        self.series_check = SeriesCheck()  # this client's own tally, from the signed rankings
        self.series_disputed: list[str] = []  # names whose line the host's scoreboard got wrong
        self.ended_notices: tuple[NoticeLine, ...] = ()  # the notices on hand when the last game ended

    # ------------------------------------------------------------------ view plumbing

    def update(self, change: str, **fields: Any) -> None:
        # A shallow copy with some fields changed: what dataclasses.replace does, without
        # running __init__ again (this happens for every message of every game).
        view = object.__new__(ClientView)
        view.__dict__.update(self.view.__dict__)
        view.__dict__.update(fields, change=change)
        self.view = view
        try:
            self.player.on_update(self.view)
        except Exception:  # noqa: BLE001 - a UI bug must not break the game
            log.exception("player.on_update failed")

    def _fresh_notices(self) -> tuple[NoticeLine, ...]:
        """The notices without those of the game that ended (a time-out, who left):
        they make way when the next game starts (specs/client.md § Staying at the table)."""
        ended = {id(n) for n in self.ended_notices}
        return tuple(n for n in self.view.notices if id(n) not in ended)

    def _turn_over(self) -> tuple[NoticeLine, ...]:
        """The notices without ``time-left`` (the seconds a turn kept across a
        reconnect): it belongs to that turn's prompt and goes once the turn is answered
        or the table moves on, never to stay on later screens or the ending."""
        return tuple(n for n in self.view.notices if n.code != "time-left")

    def note(self, code: str, text: str, *, reject: bool = False, change: str = "notice",
             args: dict[str, Any] | None = None) -> None:
        line = NoticeLine(code, printable(text), time.time(), reject, args)
        self.update(change, notices=(self.view.notices + (line,))[-KEEP_NOTICES:])

    # ------------------------------------------------------------------ transport

    async def connect(self) -> None:
        with trio.fail_after(self.connect_timeout):
            tcp = await trio.open_tcp_stream(self.host, self.port)
            stream = trio.SSLStream(tcp, self.ctx, server_hostname=None)
            try:
                await stream.do_handshake()
            except BaseException:
                await trio.aclose_forcefully(tcp)
                raise
        self.host_cert = peer_certificate(stream)  # pinned below; names the key that must sign the statements
        fingerprint = cert_fingerprint(self.host_cert)
        try:
            pin_note = self.check(self.host, self.port, fingerprint)
        except BaseException as exc:
            if isinstance(exc, Exception):
                await _refuse_host(stream)
            await trio.aclose_forcefully(stream)
            if isinstance(exc, Exception) and not isinstance(exc, HostRefused):
                raise HostRefused(str(exc), fingerprint) from exc
            raise
        saved = self.saved
        if self.from_saved and saved is not None and saved.fingerprint not in (None, fingerprint) \
                and self.token == saved.token:
            self._forget_saved("it was given by another host at this address (another certificate)")
        try:  # read the pinned certificate's statement key now, not at the game's start (kept by pin.py)
            cert_statement_key(self.host_cert)
        except ValueError:
            pass  # the witness says so at the first statement, in the game's words
        self.view = dataclasses.replace(self.view, fingerprint=fingerprint, join_code=join_code(fingerprint))
        if isinstance(pin_note, str) and pin_note:
            self.note("host-pinned", pin_note)  # e.g. trusted on first use: the UI keeps showing it
        self.stream = stream
        self.heard_at = trio.current_time()
        self.conn = ClientConnection()
        self.stmt_index = 0
        self.sent_commit = self.sent_reveal = self.sent_ready = False
        if self.watch:  # a spectator asks for no seat and takes none back
            self.hello_token = None
            await self.send(Hello(self.name, lang=self.lang, watch=True, min_version=WATCH_HELLO_VERSION))
            return
        self.hello_token = self.token
        await self.send(Hello(self.name, lang=self.lang, seat=self.want_seat, token=self.token, bot=self.bot,
                              min_version=BOT_HELLO_VERSION if self.bot else SUPPORTED_VERSIONS[0]))

    async def send(self, msg: Message) -> None:
        """Encode and send one message; a broken transport raises :class:`_Lost`."""
        if self.conn is None or self.stream is None:
            raise _Lost("not-connected")
        async with self.send_lock:
            try:
                data = self.conn.send(msg)
            except LocalProtocolError as exc:
                log.debug("not sending %s: %s", msg.type, exc)
                return
            # Once encoded, the frame has taken its sequence number: it must go out whole
            # even if the caller is cancelled (a prompt that timed out meanwhile), or the
            # host sees a gap (bad-seq). A transport that takes longer is lost.
            with trio.CancelScope(shield=True), trio.move_on_after(self.connect_timeout) as stuck:
                try:
                    await self.stream.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                    raise _lost(exc) from None
            if stuck.cancelled_caught:
                raise _Lost("send-stuck", seconds=f"{self.connect_timeout:g}")

    async def close(self, bye: str | None = None) -> None:
        if self.stream is None:
            return
        if bye is not None:
            with trio.move_on_after(1):
                try:
                    await self.send(Bye(bye))
                except _Lost:
                    pass
        await trio.aclose_forcefully(self.stream)
        self.stream = None

    # ------------------------------------------------------------------ main loop

    async def run(self) -> SessionResult:
        attach = getattr(self.player, "attach", None)
        if callable(attach):
            attach(self.control)
        self._open_resume()
        status, error = "host-gone", None
        try:
            async with trio.open_nursery() as nursery:
                self.nursery = nursery
                nursery.start_soon(self._chat_pump)
                nursery.start_soon(self._ready_gate)
                nursery.start_soon(self._leave_watch)
                nursery.start_soon(self._stall_watch)
                try:
                    await self._connected_loop()
                except _Over as over:
                    status, error = over.status, over.error
                nursery.cancel_scope.cancel()
        finally:
            with trio.CancelScope(shield=True):
                # a closed terminal mid-game says no bye: the host holds the seat as for a lost connection
                polite = (self.left and self.keep_seat != "hung-up") or status in ("finished", "aborted")
                await self.close("quit" if polite else None)
        return await self._finish(status, error)

    # ------------------------------------------------------------------ resume state

    def _open_resume(self) -> None:
        """Take the resume lock and read what an earlier client of this config folder
        left for this host (specs/client.md § Rejoin): its token, seat and name, and
        (bound to its game id) its seed and the statements it received. A spectator
        takes nothing: it holds no seat, and a player of the same config folder may have
        saved one for this address (specs/client.md § Watch)."""
        if self.watch:
            return
        if self.save_resume:
            self.lock = ResumeLock.acquire(self.host, self.port)
            if self.lock is None:
                log.warning("another client in this config folder is playing at %s:%d; not resuming its seat",
                            self.host, self.port)
                self.save_resume = False
                if self.token is None:
                    return
        saved = find_resume(self.token) if self.token else load_resume(self.host, self.port)
        if saved is None or saved.token is None:
            return
        if self.token is None and self.name_given and not self.bot and saved.name != self.name:
            # the person asked to be someone else (--name): not a rejoin as the saved one
            log.info("the saved session at %s:%d is %r's, not %r's: joining as a new player", self.host, self.port,
                     saved.name, self.name)
            return
        self.saved = saved
        if self.token is None:
            self.from_saved = True
            self.token = saved.token
            if self.want_seat is None:
                self.want_seat = saved.seat
            self.name = saved.name
            self.view = dataclasses.replace(self.view, name=saved.name)
        log.info("resuming seat %s at %s:%d with the saved session token", saved.seat, self.host, self.port)

    def _persist(self) -> None:
        """Write the resume state (atomically, 0600) after a change."""
        if not self.save_resume or self.token is None:
            return
        w = self.witness
        playing = w is not None and w.game_id is not None and not w.finished
        save_resume(ResumeState(
            self.host, self.port, self.view.name, self.view.seat, self.token,
            game_id=w.game_id if playing else None,  # type: ignore[union-attr]
            seed=w.seed if playing else None,  # type: ignore[union-attr]
            statements=list(self.received) if playing else [],
            own_actions=dict(self.own_actions) if playing else {},
            host_moves=list(self.host_moves) if playing else [],
            blind=w.blind.save() if playing and w.blind is not None else None,  # type: ignore[union-attr]
            cut_short=list(w.cut_short) if playing else [],  # type: ignore[union-attr]
            fingerprint=self.view.fingerprint or None,
        ))

    def _forget_saved(self, why: str) -> None:
        """Drop the session taken from the resume file (its token, seat and name) and
        its file: the hello that follows joins as the caller asked (``why`` goes to
        the log). Only before this session has a seat of its own."""
        log.info("not taking the saved seat back at %s:%d: %s; joining as a new player", self.host, self.port, why)
        self.token, self.saved, self.from_saved = None, None, False
        self.want_seat, self.name = self.asked_seat, self.asked_name
        self.view = dataclasses.replace(self.view, name=self.asked_name)
        if self.save_resume:
            drop_resume(self.host, self.port)

    async def _leave_watch(self) -> None:
        await self.control._leave.wait()
        self.left = True
        self.keep_seat = self._seat_to_keep()
        if self.nursery is not None:
            self.nursery.cancel_scope.cancel()

    def _seat_to_keep(self) -> str | None:
        """Whether the seat the person leaves now stays theirs to take back with the same
        command while its game runs (specs/client.md § Rejoin): ``"hung-up"`` when the
        terminal closed mid-game (no decision: kept as after a lost connection),
        ``"trusted"`` when left on purpose mid-game at a trusted table (a bot plays it; the
        host keeps its token valid until the game ends); None — forgotten — in the lobby,
        between games, without a resume file, and at a dealer-blind table, whose game
        ends when the seat leaves on purpose."""
        w = self.witness
        if self.watch or not self.save_resume or self.token is None:
            return None
        if w is None or w.game_id is None or w.finished or w.game_id == self.closed_game:
            return None
        if self.control.hung_up:
            return "hung-up"
        return "trusted" if self.view.dealer != "blind" else None

    async def _stall_watch(self) -> None:
        """While this seat's turn timer runs: ping a quiet host, and after
        :data:`STALL_AFTER` seconds without a byte show the connection as lost (notice
        ``connection-stalled``) and pause the timer on screen until bytes come again."""
        nonce = 0
        while True:
            await trio.sleep(0.5)
            view = self.view
            quiet = trio.current_time() - self.heard_at
            if view.deadline is None or self.stream is None:
                continue
            if quiet >= STALL_AFTER and view.stalled_left is None:
                left = view.seconds_left()
                log.info("nothing from the host for %.1f s; the connection may be lost", quiet)
                self.note("connection-stalled", "connection to the host lost, retrying…",
                          args={"seconds": round(quiet)}, change="stalled")
                self.update("stalled", stalled_left=left)
            elif quiet >= PING_AFTER:
                nonce = (nonce + 1) % (1 << 31)
                try:
                    await self.send(Ping(nonce))
                except _Lost:
                    pass

    async def _chat_pump(self) -> None:
        async for text in self.control._chat_recv:
            try:
                await self.send(Chat(text))
            except _Lost:
                pass

    async def _ready_gate(self) -> None:
        """Say the ``ready`` held back by :meth:`SessionControl.hold_ready` once released."""
        await self.control._ready_released.wait()
        try:
            await self._ready()
        except _Lost:
            pass  # the read loop notices and reconnects (the welcome says ready again)

    async def _connected_loop(self) -> None:
        await self._connect_or_end()
        while True:
            try:
                await self._read_loop()
            except _Lost as exc:
                log.info("connection to %s:%d lost: %s", self.host, self.port, exc)
                self._cancel_ask()
                if not await self._reconnect(exc):
                    from .status_words import lost_words

                    why = lost_words(exc.code, exc.values, self.lang)  # said in the player's language
                    if self.give_up_at is not None:  # we tried to get back in
                        why = t("lost.gave_up", self.lang, why=why, seconds=f"{self.reconnect_for:g}")
                    raise _Over("host-gone", ("connection-lost", why)) from None
            except _TokenExpired:
                # The saved seat is gone (its game ended, or a lobby seat was freed):
                # join as a new player, asking for the same seat under the same name.
                await self.close()
                await self._connect_or_end()
            except _SeatLater:
                # back too late and a game is running: sit down when it has ended
                await self.close()
                await trio.sleep(SEAT_RETRY)
                await self._connect_or_end()

    async def _connect_or_end(self) -> None:
        """Connect and say hello; a refusal or a failure ends the session."""
        try:
            await self.connect()
        except HostRefused as exc:
            self.note("refused", str(exc), change="error")
            raise _Over("refused", ("fingerprint", str(exc))) from None
        except (OSError, trio.TooSlowError, trio.BrokenResourceError, ssl.SSLError, _Lost) as exc:
            why = self._connect_text(exc)
            self.note("connect-failed", f"cannot connect to {self.host}:{self.port}: {why}", change="error")
            raise _Over("host-gone", ("connect-failed", why)) from None

    def _connect_text(self, exc: BaseException) -> str:
        """A readable reason why connecting failed (OpenSSL's text goes to the log only)."""
        log.info("cannot connect to %s:%d: %r (%s)", self.host, self.port, exc, exc.__cause__ or "")
        if isinstance(exc, trio.TooSlowError):
            return f"no answer within {self.connect_timeout:g} s"
        if isinstance(exc, (ssl.SSLError, trio.BrokenResourceError)):
            return "the TLS handshake failed (is a jupai host listening on that port?)"
        if isinstance(exc, OSError):
            cause = exc.__cause__
            if isinstance(cause, ExceptionGroup) and cause.exceptions:  # trio: one error per address tried
                inner = cause.exceptions[-1]
                return getattr(inner, "strerror", None) or str(inner)
            return exc.strerror or str(exc) or type(exc).__name__
        return str(exc)

    async def _reconnect(self, lost: "_Lost") -> bool:
        """Take the seat back with the token after a lost connection (specs/host.md §10).

        One deadline (``reconnect_for``) runs from the first loss until a frame arrives
        on a new connection: a host that accepts and then hangs up does not restart it.
        Between attempts: exponential backoff with jitter (:func:`_backoff_delay`).
        ``lost``: why the connection was lost (its code and values go in the
        ``reconnecting`` notice's args, so it is said in the player's language).
        Returns True once connected (the hello is sent), False when giving up."""
        if (self.token is None and not self.watch) or self.reconnect_for <= 0 or self.view.phase not in (SEEDING, PLAYING):
            return False  # in the lobby the host frees the seat: the same call again takes it (§ Rejoin)
        await self.close()
        if self.give_up_at is None:
            self.give_up_at = trio.current_time() + self.reconnect_for
            self.note("reconnecting", f"connection lost ({lost}); reconnecting…", change="reconnecting",
                      args={"lost": lost.code, **lost.values})
        while True:
            delay, self.backoff = _backoff_delay(self.backoff)
            if trio.current_time() + delay >= self.give_up_at:
                return False
            await trio.sleep(delay)
            try:
                await self.connect()
            except HostRefused:
                return False
            except (OSError, trio.TooSlowError, trio.BrokenResourceError, ssl.SSLError, _Lost) as exc:
                log.debug("reconnect failed: %s", exc)
                continue
            return True

    def _frame_arrived(self) -> None:
        """A frame from the host on the current connection: a reconnect succeeded."""
        if self.give_up_at is not None:
            self.give_up_at = None
            self.backoff = RECONNECT_FIRST
            self.note("reconnected", "reconnected", change="reconnected")

    async def _read_loop(self) -> None:
        assert self.stream is not None and self.conn is not None
        conn = self.conn
        last_frame = trio.current_time()
        pinged = False
        while True:
            # Idleness counts frames, not bytes: a host that sends nothing (or a byte at
            # a time) for idle_timeout is gone. After a third of it, a ping asks for a pong.
            ping_at = last_frame + self.idle_timeout / 3
            with trio.move_on_at(last_frame + self.idle_timeout if pinged else ping_at) as quiet:
                try:
                    data = await self.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                    raise _lost(exc) from None
            if quiet.cancelled_caught:
                if pinged:
                    log.info("no frame from the host for %g s", self.idle_timeout)
                    raise _Lost("silent", seconds=f"{self.idle_timeout:g}")
                pinged = True
                if conn.version is not None:  # ping is allowed once welcomed
                    await self.send(Ping(secrets.randbelow(2**32)))
                continue
            self.heard_at = trio.current_time()
            if self.view.stalled_left is not None:
                self.note("connection-back", "the host is heard again")
                self.update("unstalled", stalled_left=None)
            if self.wire_tap is not None:
                self.wire_tap(bytes(data))
            conn.receive_data(bytes(data))
            while True:
                try:
                    event = conn.next_event()
                except RemoteProtocolError as exc:
                    log.warning("the host broke the protocol: %s", exc)
                    try:
                        await self.send(exc.to_message())
                    except _Lost:
                        pass
                    self._host_gone(f"protocol error: {exc}")
                    raise _Over("error", (exc.code, exc.message)) from None
                if event is NEED_DATA:
                    break
                if event is EOF:
                    raise _Lost("closed")
                last_frame, pinged = trio.current_time(), False
                self._frame_arrived()
                try:
                    await self._handle(event)  # type: ignore[arg-type]
                except (_Over, _Lost, _TokenExpired, _SeatLater, trio.Cancelled):
                    raise
                except Exception as exc:  # noqa: BLE001 - a host mistake ends the session, never the program
                    log.exception("cannot handle the host's %s message", getattr(event, "type", "?"))
                    self._host_gone(f"the host sent a {getattr(event, 'type', '?')} message this client cannot use")
                    raise _Over("error", ("host-error", f"the host sent a {getattr(event, 'type', '?')} message "
                                          f"this client cannot use ({type(exc).__name__})")) from None

    # ------------------------------------------------------------------ messages

    async def _handle(self, msg: Message) -> None:
        if self.unexplained is not None and not isinstance(msg, (Sync, Ping, ChatRelay, Notice, Statement)):
            self._check_unexplained()
        if isinstance(msg, Statement):
            if not self.catching_up:
                self.rejoined_prompt = False  # a move was made: the next prompt is a new turn
            await self._on_statement(msg)
        elif isinstance(msg, Sync):
            self._on_sync(msg)
        elif isinstance(msg, Prompt):
            self._on_prompt(msg)
        elif isinstance(msg, ChatRelay):
            line = ChatLine(msg.seat, msg.name, msg.text, time.time())
            self.update("chat", chat=(self.view.chat + (line,))[-KEEP_CHAT:])
        elif isinstance(msg, Notice):
            if self.unexplained is not None and msg.code == "turn-timeout":
                self._timed_out()
            self.note(msg.code, msg.text, args=msg.args or None)
        elif isinstance(msg, Reject):
            await self._on_reject(msg)
        elif isinstance(msg, Lobby):
            # after a game the ending keeps the names of who played it (seats freed or
            # taken by stand-ins meanwhile show in the lobby list); the next start renames
            names = self.view.names if self.view.phase == OVER else {p.seat: p.name for p in msg.players}
            self._next_dealer(msg.dealer)
            self.update("lobby", players=msg.players, names=names)
            await self._ready()
        elif isinstance(msg, Welcome):
            await self._on_welcome(msg)
        elif isinstance(msg, Start):
            # a game starts while the player is still asked about the next one (its
            # seat was made ready by a new connection): the game is the answer
            await self._withdraw_question("a game started", unless_game=msg.game_id)
            self._on_start(msg)
        elif isinstance(msg, End):
            await self._on_end(msg)
        elif isinstance(msg, Series):
            self.series = msg
            self.series_for = self.witness.game_id if self.witness is not None else None
            self.series_names = dict(self.view.names)
            self.update("series", series=msg)
        elif isinstance(msg, Ping):
            await self.send(Pong(msg.nonce))
        elif isinstance(msg, Bye):
            self._host_gone(f"the host said bye ({msg.reason})")
            self.host_bye = bye_text(msg.reason)
            if self.watch and self.view.phase == OVER and self.watch_end is not None:
                raise _Over(*self.watch_end)  # how the last game this spectator saw ended
            raise _Over("finished" if self.view.phase == OVER else "host-gone", ("bye", bye_text(msg.reason)))
        elif isinstance(msg, ErrorMessage):
            log.warning("host error %s: %r", msg.code, msg.message)
            kept = kept_seat(msg) if msg.code == "game-running" else None
            if msg.code == "game-running" and (self.back_too_late or (kept is not None and self.stay
                                                                      and not self.watch and self.token is None)):
                # the host keeps a seat for us at the next game (its waiting list), or we
                # came back too late: say so once, and hello again until seated
                self.back_too_late = True
                if not self.said_seat_later:
                    self.said_seat_later = True
                    if kept is not None:
                        self.note("seat-later", f"a game is running at the table: you take seat {kept} at the next "
                                  "game", args={"seat": kept})
                    else:
                        self.note("seat-later", "a game is running at the table: you take a seat when it ends")
                raise _SeatLater()
            if (msg.code == "bad-token" and self.token is not None and not self.watch
                    and self.witness is not None and self.witness.game_id is not None and not self.witness.finished
                    and self.token != self.caller_token):
                # our connection was lost in a game that ended while we were away: the
                # seat went to a bot; this seat's part of the game is closed, and we join
                # the table again as a new arrival (specs/client.md § Staying at the table)
                await self._away_too_long(msg.message)
            if (msg.code in ("idle-timeout", "slow-client") and self.stay and not self.watch and not self.left
                    and self.view.seat is not None and self.view.phase in (LOBBY, OVER)):
                # dropped between games for not answering (a frozen or stopped program):
                # the seat is gone, the table is not — join it again as a new arrival
                log.info("the host dropped this seat between games (%s); joining anew", msg.code)
                seat = self.view.seat
                # "ready for the next game?" has no meaning now: the seat is gone, and the
                # screen must show why (it draws nothing new while it asks)
                await self._withdraw_question("the host freed this seat")
                self.back_too_late = True
                self.want_seat, self.token, self.saved = None, None, None
                if self.save_resume:
                    drop_resume(self.host, self.port)
                self.result, self.verdict = None, None
                self.update("away", phase=LOBBY, seat=None, observation=None, state_id=None, legal=(), result=None,
                            verdict=None, events=(), transcript_path=None, notices=self._fresh_notices())
                self.note("away-too-long", f"you were away too long: the host freed your seat {seat}; "
                          "you join the table again as a new player", args={"seat": seat, "lobby": True})
                raise _TokenExpired()
            if (msg.code == "bad-token" and self.token is not None and (self.witness is None or self.witness.finished)
                    and (self.token != self.caller_token or self.view.seat is not None)):
                # nothing of a running game to take back: the seat of a game that is
                # over, or a lobby seat the host freed when the connection dropped
                log.info("the session token expired (%s); joining anew", msg.message)
                self.want_seat = self.view.seat if self.view.seat is not None else self.want_seat
                self.token = None
                self.saved = None
                if self.save_resume:
                    drop_resume(self.host, self.port)
                raise _TokenExpired()
            if self.view.seat is None and self.token is None and not self.watch and (
                    (msg.code == "seat-taken" and self.want_seat != self.asked_seat)
                    or (msg.code == "name-taken" and self.name != self.asked_name)):
                # a rejoin's token was refused and the fresh join asked for the saved seat
                # (or name), which another player has now (a new table at the address):
                # join again with the free seats (or the name the person asked for)
                log.info("the saved %s is not free (%s); joining with %s", "seat" if msg.code == "seat-taken" else
                         "name", msg.message, "the free seats" if msg.code == "seat-taken" else repr(self.asked_name))
                if msg.code == "seat-taken":
                    self.want_seat = self.asked_seat
                else:
                    self.name = self.asked_name
                    self.view = dataclasses.replace(self.view, name=self.asked_name)
                raise _TokenExpired()
            self.note(msg.code, msg.message, change="error")
            if msg.code in ("kicked",):
                self._host_gone(f"host error {msg.code}")
                raise _Over("error", (msg.code, msg.message))
            if self.view.phase in (SEEDING, PLAYING) and self.token and msg.code in (
                    "slow-client", "idle-timeout", "reconnect-limit"):
                raise _Lost("host-error", error=msg.code, message=msg.message)
            self._host_gone(f"host error {msg.code}: {msg.message}")
            status = "refused" if self.view.seat is None else "error"
            raise _Over(status, (msg.code, msg.message))

    async def _away_too_long(self, why: str) -> None:
        """The host refused this seat's token after its connection was lost in a game:
        the game ended while it was away and the seat went to a bot. Close this seat's
        part of the game as after any lost connection — the verdict says the host
        stopped answering this seat (a host could cut a seat off and refuse its token to
        drop a deal, so it is not called the player's choice), the transcript is saved
        as evidence (:attr:`earlier`) — say once that it was away too long (notice
        ``away-too-long``), and clear the game from the screen: the caller then joins
        the table again as a new arrival, waiting for the next game. The verdict goes to
        the log and the transcript (``jupai history`` lists it), not on the screen: this
        seat saw too little of the game to say more than that it lost it."""
        w = self.witness
        assert w is not None and w.game_id is not None
        seat = self.view.seat
        log.warning("away too long: the host refused this seat's token (%s); game %s is closed here", why,
                    w.game_id.hex())
        self._host_gone("this seat's connection was lost and the host refused its token (the game ended meanwhile)")
        for version, how in self.host_moves:
            w.host_moved(version, how)
        verdict = await trio.to_thread.run_sync(self._verify)
        path = await trio.to_thread.run_sync(self._save_transcript)
        self.earlier.append((verdict, path))
        self.witness, self.witness_for, self.blind_actor, self.prompt = None, None, None, None
        self.back_too_late = True
        self.want_seat = None  # a new arrival: any free seat (another may have taken this one)
        self.update("away", phase=LOBBY, seat=None, observation=None, state_id=None, legal=(), prompt_state=None,
                    pending="", timeout=None, deadline=None, events=(), result=None, verdict=None, game_id=None,
                    transcript_path=None, waiting=(), blind_cards={}, stalled_left=None,
                    notices=tuple(n for n in self.view.notices if n.code not in ("reconnecting", "error")))
        self.note("away-too-long", f"you were away too long: the game went on without you and a bot took your "
                  f"seat {seat}; you join the table again as a new player", args={"seat": seat})
        log.warning("the game this seat was away from: %s: %s (transcript %s)", verdict.status, verdict.reason, path)

    async def _on_welcome(self, msg: Welcome) -> None:
        back = self.token is not None and self.token == self.hello_token
        self.answered_here = set()  # a new connection: what the old one carried may be lost
        self.token = msg.token
        phase = self.view.phase if self.view.phase in (SEEDING, PLAYING) else LOBBY
        names = {p.seat: p.name for p in msg.players}
        # the host may have renamed a bot client whose name was taken ("random bot 2")
        name = names.get(msg.seat, self.view.name) if msg.seat is not None else self.view.name
        if phase == LOBBY:
            self._next_dealer(msg.dealer)
        if msg.table is not None:  # the host's own name for its table (an older host says none)
            self.table_name = msg.table
        self.update("welcome", seat=msg.seat, rules=msg.rules, players=msg.players,
                    names=names, token=msg.token, phase=phase, name=name, table=self.table_name or "")
        if back:
            # statements resent now happened while this seat was away; the first sync
            # ends the catch-up (then the player is told what the host played for it)
            self.welcomed_back, self.catching_up, self.away_moves = True, True, 0
            self.rejoined_prompt = True
        self._persist()
        await self._ready()

    def _next_dealer(self, dealer: str) -> None:
        """The host named the scheme of the next game (``welcome``/``lobby``): keep it
        for the lobby screen and say it when it is new (in the lobby only: during a game
        ``start`` said the running game's)."""
        if self.view.phase in (SEEDING, PLAYING) or dealer == self.view.next_dealer:
            return
        self.update("lobby", next_dealer=dealer)
        self.note(*NEXT_DEALER_NOTICES.get((dealer, self.watch), NEXT_DEALER_NOTICES[("trusted", self.watch)]))

    async def _ready(self) -> None:
        if self.control.ready_held:
            return  # the person reads a warning first (SessionControl.hold_ready)
        if self.view.phase == LOBBY and not self.sent_ready and self.view.seat is not None:
            self.sent_ready = True
            await self.send(Ready(True))

    def _on_start(self, msg: Start) -> None:
        seat = self.view.seat
        if self.witness is None or self.witness_for != msg.game_id:
            old = self.witness
            if old is not None and old.game_id is not None and not old.finished:
                self._retire(old)
            # A seed for THIS game id: the saved one only if it was made for this very
            # game (a rejoin), else a fresh 256-bit seed made now, after this game's
            # start (issue 7 item 1: a revealed seed is never sent to another game).
            saved = self.saved
            seed = saved.seed_for(msg.game_id) if saved is not None and seat is not None else None
            blind = self._blind_participant(msg, saved) if msg.dealer == "blind" else None
            if blind is not None:
                seed = blind.secrets.seed  # the transcript's seed: its own hello must commit to it (B.9)
            self.witness = SeatWitness(seat, seed, host_cert=self.host_cert, blind=blind)
            self.witness_for = msg.game_id
            self.received, self.kinds = [], set()
            self.own_actions, self.host_moves, self.answered_here = {}, [], set()
            self.facts, self.shown, self.prompt_deadlines, self.prompt_heard = SignedFacts(seat), {}, {}, {}
            if seed is not None and saved is not None:
                self._restore(saved)
            self.saved = None
        self.stmt_index = 0
        self.sent_commit = self.sent_reveal = False
        if msg.dealer == "blind" and self.witness.blind is not None:
            from jupai_net.fairness.blind_actor import BlindActor

            self.blind_actor = BlindActor([self.witness.blind])
            self.blind_resync = True
        else:
            self.blind_actor = None
        if msg.game_id != self.view.game_id:  # which scheme deals this game, said once per game
            self.note(*dealer_notice(msg.dealer, watching=self.watch))
        phase = PLAYING if "deal" in self.kinds else SEEDING
        # a new game: the last one's notices make way, and so does what was said of the
        # next game (its scheme: the start's own notice says the running game's; a
        # stand-in seated for it: it sits there now)
        notices = tuple(n for n in self._fresh_notices() if not for_next_game(n)) \
            if msg.game_id != self.view.game_id else self.view.notices
        if self.watch and self.saved_for is not None and self.saved_for != msg.game_id:
            # the next game: the last one's ending makes way (it was verified and saved)
            self.verdict, self.result, self.saved_path, self.saved_for = None, None, None, None
            self.watch_end = None
            self.update("start", phase=phase, game_id=msg.game_id, rules=msg.rules, result=None, verdict=None,
                        transcript_path=None, observation=None, events=(), dealer=msg.dealer, blind_cards={},
                        names={p.seat: p.name for p in self.view.players}, notices=notices)
        else:
            cards = self.view.blind_cards if msg.game_id == self.view.game_id else {}
            self.update("start", phase=phase, game_id=msg.game_id, rules=msg.rules, dealer=msg.dealer, blind_cards=cards,
                        notices=notices)
        self._persist()

    def _blind_participant(self, msg: Start, saved: ResumeState | None) -> Any:
        """This seat's dealer-blind participant for the game of ``msg``: the saved one
        when an earlier client of this seat played this very game (specs/fairness.md
        B.15.4), else a fresh one (a fresh seed and signing key). ``None`` for a spectator."""
        from jupai_net.fairness.blind import BlindError
        from jupai_net.fairness.blind_ledger import BlindParticipant

        seat = self.view.seat
        if seat is None:
            return None
        data = saved.blind_for(msg.game_id) if saved is not None else None
        if data is not None:
            try:
                me = BlindParticipant.resume(data)
                if (me.game_id, me.pid) == (msg.game_id, seat):
                    return me
            except BlindError as exc:
                log.error("the saved dealer-blind participant cannot be read: %s", exc.reason)
        return BlindParticipant(msg.game_id, seat)

    def _restore(self, saved: ResumeState) -> None:
        """Feed the statements an earlier client of this seat received (and checked) to
        the new witness, so the host's resent stream is compared with them byte for
        byte and the transcript covers the whole game."""
        assert self.witness is not None
        for raw in saved.statements:
            try:
                st = self.witness.receive(raw)
            except FairnessViolation as exc:
                log.error("the saved statements do not check: %s", exc.verdict.reason)
                self.verdict = exc.verdict
                raise _Over("error", ("tampered", exc.verdict.reason)) from None
            self.received.append(raw)
            self.kinds.add(st.kind)
            self.facts.feed(st.kind, st)
            if st.kind == "commitments":
                # the earlier client sent its seed right after this statement (or was
                # about to): from here the host may know the deck (specs/fairness.md §9)
                self.witness.seed_reveal()
        self.own_actions = dict(saved.own_actions)
        self.host_moves = list(saved.host_moves)
        self.witness.cut_short = list(saved.cut_short)  # the turns cut short before the restart (§9.3)
        if self.witness.game_id is not None:
            self.spent_seeds[self.witness.seed] = self.witness.game_id  # type: ignore[index]

    def _retire(self, old: SeatWitness) -> None:
        """The host started another game while ``old`` had not ended: keep ``old``'s
        transcript as evidence (its verdict is suspicious once the seeds were revealed:
        the host may have seen the cards and dropped the deal) and say so."""
        old.host_gone("the host started another game before this one ended")
        verdict = old.verify()
        path = None
        if old.game_id is not None:
            path = default_transcript_path(old.game_id, old.seat)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(old.transcript())
            except OSError as exc:
                log.error("cannot save the transcript to %s: %s", path, exc)
                path = None
        self.earlier.append((verdict, path))
        log.warning("the host dropped game %s unfinished and started another (%s)",
                    old.game_id.hex() if old.game_id else "?", verdict.status)
        self.note("fairness", f"the host dropped the previous game unfinished and started another: {verdict.reason}",
                  args=verdict_args(verdict, "dropped"))

    async def _on_statement(self, msg: Statement) -> None:
        if self.witness is None:
            raise _Over("error", ("unexpected-statement", "the host sent a statement before starting a game"))
        self._check_unexplained()
        raw = join_statement(msg.body, msg.sig)
        index = self.stmt_index
        self.stmt_index += 1
        if index < len(self.received):
            if self.received[index] == raw:
                return await self._seed_step(msg.kind)  # resent after a reconnect: already checked
            self._tampered(said("resent_other", {"n": index, "kind": msg.kind}))
        self.received.append(raw)
        try:
            st = self.witness.receive(raw)
        except FairnessViolation as exc:
            log.error("fairness check failed: %r", exc.verdict.reason)
            self.verdict = exc.verdict
            culprit = exc.verdict.details.get("culprit")
            if isinstance(culprit, str) and culprit.startswith("seat "):  # a dealer-blind participant, not the host
                self.note("blind-seat", exc.verdict.reason, change="verdict",
                          args={"seat": culprit[5:], **verdict_args(exc.verdict)})
            else:
                self.note("fairness", f"the host broke the fairness protocol: {exc.verdict.reason}", change="verdict",
                          args=verdict_args(exc.verdict, "broke"))
            self.update("verdict", verdict=exc.verdict)
            raise _Over("error", ("tampered", exc.verdict.reason)) from None
        kind = st.kind
        if kind == "start" and self.witness.game_id != self.witness_for:
            self._tampered(said("start_other_game"))
        if kind == "hellos" and self.view.dealer != "blind":
            self._tampered(said("trusted_sent_blind"))
        if kind == "commitments" and self.view.dealer == "blind":
            self._tampered(said("blind_sent_trusted"))
        self.kinds.add(kind)
        self.facts.feed(kind, st)
        fields: dict[str, Any] = {}
        if kind == "start":
            fields["host_key"] = self.witness.fingerprint
        if self.view.dealer == "blind" and self.witness.play is not None:
            fields.update(self._blind_events())
        if kind == "step":
            # signed statements are not checked by the protocol layer: their strings
            # (formulas, reasons) are made printable here, where they enter the client
            fields["events"] = (self.view.events + tuple(printable_tree(st["events"])))[-KEEP_EVENTS:]
            self._check_own_step(st["version"], st["actor"], st["action"])
        elif kind == "deal":
            fields["events"] = tuple(printable_tree(st["observation"].get("log", ())))[-KEEP_EVENTS:]
            fields["phase"] = PLAYING
        self.update("statement", **fields)
        if self.view.waiting and self.nursery is not None:
            self.nursery.start_soon(self._say_waiting, self.view.waiting)
        self._persist()
        await self._seed_step(kind)

    async def _say_waiting(self, waiting: tuple[int, ...]) -> None:
        """Show who a dealer-blind game waits for (``waiting``) once it has waited
        :data:`WAITING_SHOWN_AFTER` seconds for the same keys: a statement changes
        nothing on screen, and keys that come at once (every move's) are not worth
        a redraw; a seat that left (or is slow) is."""
        await trio.sleep(WAITING_SHOWN_AFTER)
        if self.view.waiting == waiting and self.view.change != "waiting":
            self.update("waiting")

    def _blind_events(self) -> dict[str, Any]:
        """Dealer-blind game: the phase once this seat's own engine has dealt (its events
        reach the screen with each ``sync``, from its own view, specs/fairness.md B.16.5),
        and who the game waits for (:attr:`ClientView.waiting`)."""
        play = self.witness.play  # type: ignore[union-attr]
        waiting = () if play.idle else tuple(p for p in play.owing() if p != self.view.seat)
        fields: dict[str, Any] = {"waiting": waiting}
        if play.idle and self.view.phase != OVER:
            fields["phase"] = PLAYING
        return fields

    async def _seed_step(self, kind: str) -> None:
        """Send this seat's commitment after ``start`` and its seed after
        ``commitments`` (once per connection; the host ignores an identical repeat)."""
        w = self.witness
        if self.blind_actor is not None:
            return await self._blind_step(kind)
        if self.view.seat is None or w is None or w.seed is None or w.game_id is None:
            return
        if self.spent_seeds.setdefault(w.seed, w.game_id) != w.game_id:  # defence in depth: cannot happen
            self._tampered(said("seed_sent_before"))
        if kind == "start" and "commitments" not in self.kinds and not self.sent_commit:
            self.sent_commit = True
            await self.send(SeedCommit(w.game_id, w.commitment))
        elif kind == "commitments" and "seeds" not in self.kinds and not self.sent_reveal:
            self.sent_reveal = True
            await self.send(SeedReveal(w.game_id, w.seed_reveal()))

    async def _blind_step(self, kind: str) -> None:
        """Dealer-blind game (specs/protocol.md §13): after each statement, send what this
        seat's participant owes now — its hello after ``start``, its passes in turn, its
        lock keys for every opening the public schedule calls for, its seed after
        ``end``/``abandon`` — and open its own cards once their keys are in."""
        from jupai_net.fairness.blind import BlindError

        w, actor = self.witness, self.blind_actor
        assert w is not None and w.game_id is not None
        ledger = w.ledger
        if self.blind_resync:
            self.blind_resync = False
            actor.resync(ledger)
        if ledger is None:
            if kind == "start" and not self.sent_commit:
                self.sent_commit = True
                for raw in actor.hellos():
                    await self.send(Blind(w.game_id, raw))
            return
        if kind in ("end", "abandon"):
            out = actor.seeds(ledger)
        else:
            out = actor.react(ledger)
        for raw in out:
            await self.send(Blind(w.game_id, raw))
        actor.prepare(ledger)  # its re-lock's keys, while the others shuffle (off the deal's critical path)
        try:
            new = actor.open_own(ledger)
        except BlindError as exc:
            from jupai_net.fairness.verify import why_of

            self._tampered(said("blind_own", {"why": why_of(exc)}))
        if new:
            cards = {**self.view.blind_cards, **{q: c for (_, q), c in new.items()}}
            self.update("blind", blind_cards=cards)

    def _tampered(self, why: dict[str, Any]) -> None:
        """Stop the game: the host showed this seat something the signed stream
        contradicts (issue 7 item 4); ``why`` is the reason's code and args
        (``{"code", "args"}``, :mod:`jupai_net.messages.verdicts`). Raises :class:`_Over`."""
        reason = verdict_sentence(why["code"], why.get("args") or {}, "en")
        log.error("the host tampered with the game: %s", reason)
        verdict = Verdict("tampered", reason, game_id=self.witness.game_id.hex() if self.witness and self.witness.game_id
                          else None, seat=self.view.seat, code=why["code"], args=dict(why.get("args") or {}))
        self.verdict = verdict
        self.note("fairness", f"the host tampered with the game: {reason}", change="verdict",
                  args=verdict_args(verdict, "tampered"))
        self.update("verdict", verdict=verdict)
        raise _Over("error", ("tampered", reason))

    def _check_own_step(self, version: int, actor: int, action: dict[str, Any]) -> None:
        """A signed step for this seat must be the action this seat sent for that state.
        One it did not send (or another one) is a move the host played for it: while
        the seat was away (resent after a token welcome: what it sent may not have
        arrived) it is counted and recorded; live, it must be
        followed at once by the host's ``turn-timeout`` notice (checked by
        :meth:`_check_unexplained`)."""
        if actor != self.view.seat:
            return
        sent = self.own_actions.get(version - 1)
        if sent is not None and same_action(sent, action):
            return
        if self.catching_up:
            # resent after a rejoin: the seat was away; a move it had sent may never
            # have reached the host (a crash right after sending), so a different one
            # is the host's bot too, not a lie
            self.host_moves.append((version, "away"))
            self.away_moves += 1
            return
        self.unexplained = (version, said("applied_other" if sent is not None else "applied_unsent",
                                          {"state": version - 1, "action": _action_text(action)}))

    def _wall_ms(self, at: float) -> int:
        """Wall-clock time (Unix ms) of the trio time ``at`` (a moment just past)."""
        return max(0, round((time.time() - (trio.current_time() - at)) * 1000))

    def _timed_out(self) -> None:
        """The host announced a time-out right after playing for this seat: accept it if
        this seat was asked at that state. The turn is measured from when the prompt's
        bytes arrived to when the time-out's arrived (both ``heard_at``, monotonic);
        when that is shorter than the turn's time by more than the tolerance
        (:func:`jupai_net.fairness.cut_short.is_cut_short`), the host cut the turn short:
        recorded as evidence in the transcript's ``cut_short`` (the verdict of a fair
        deal then says so, *suspicious*: specs/fairness.md §9.3) and told to the player
        (notice ``turn-cut-short``). A prompt heard during the catch-up after a rejoin
        is not evidence (the client read it late, having verified the statements resent
        before it: an honest host looked 3 s early at load 11, issue 12): the player is
        only warned (notice ``early-timeout``)."""
        from jupai_net.fairness.cut_short import is_cut_short

        assert self.unexplained is not None
        version, reason = self.unexplained
        asked = self.prompt_deadlines.get(version - 1)
        if asked is None:
            return  # not asked at that state: _check_unexplained will call it tampered
        heard = self.prompt_heard.get(version - 1)
        if heard is not None:
            prompt_at, timeout_ms, fresh, prompt_wall = heard
            after_ms = max(0, round((self.heard_at - prompt_at) * 1000))
            if is_cut_short(timeout_ms, after_ms):
                early = round((timeout_ms - after_ms) / 1000)
                log.warning("the host timed out state %d %.1f s into a %.1f s turn (by this client's clock%s)",
                            version - 1, after_ms / 1000, timeout_ms / 1000, "" if fresh else "; after a rejoin")
                if fresh and self.witness is not None:
                    self.witness.turn_cut_short(version, timeout_ms, prompt_wall, self._wall_ms(self.heard_at), after_ms)
                    self.note("turn-cut-short", f"The host timed your turn out {early} s early by this computer's clock "
                              "and played for you; recorded in your transcript", args={"seconds": early})
                else:
                    self.note("early-timeout", f"The host says your time ran out {early} s early by this computer's clock",
                              args={"seconds": early})
        self.unexplained = None
        self.host_moves.append((version, "timeout"))
        self._persist()

    def _welcome_back(self) -> None:
        """Tell the player the seat is theirs again and how many moves the host's bot
        played for them meanwhile (issue 8 §1)."""
        self.welcomed_back = False
        k, seat = self.away_moves, self.view.seat
        moves = "1 move" if k == 1 else f"{k} moves"
        if self.view.dealer == "blind":  # nobody can play a seat's cards: the game waited
            self.note("welcome-back", f"welcome back: you are seat {seat} again; the game waited for you",
                      args={"seat": seat, "moves": 0, "waited": True})
            return
        self.note("welcome-back", f"welcome back: you were seat {seat}; a bot played {moves} for you",
                  args={"seat": seat, "moves": k})

    def _check_unexplained(self) -> None:
        """Called before every message but a sync/ping/chat: a step the host played for
        this seat must have been explained by a ``turn-timeout`` notice by now."""
        if self.unexplained is not None:
            _, reason = self.unexplained
            self.unexplained = None
            self._tampered(reason)


    def _blind_observation(self, msg: Sync) -> dict[str, Any]:
        """Dealer-blind game: the host's view names deck positions; this seat fills it
        in from its own cards and checks it is its own engine's view of the same state
        (specs/fairness.md B.16.5). The host showing anything else tampered."""
        from jupai_net.blind_game import HiddenCard, fill_observation

        play = self.witness.play if self.witness is not None else None
        if play is None or not play.idle:
            self._tampered(said("blind_view_early", {"state": msg.state_id}))
        if msg.state_id != play.version:
            self._tampered(said("blind_view_state", {"state": msg.state_id, "game": play.version}))
        try:  # a seat's view names positions; a spectator's is the public view with card ids
            shown = msg.observation if self.view.seat is None else fill_observation(msg.observation, play.game.table)
        except HiddenCard as exc:
            self._tampered(said("blind_view_hidden", {"position": exc.position}))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            self._tampered(said("blind_view_unreadable", {"detail": type(exc).__name__}))
        own = play.game.card_observation(self.view.seat)
        if printable_tree(shown) != printable_tree(own):
            self._tampered(said("blind_view_differs"))
        return own

    def _on_sync(self, msg: Sync) -> None:
        if self.view.dealer == "blind" and self.witness is not None:
            msg = Sync(msg.state_id, self._blind_observation(msg))
        elif self.witness is not None:  # a seat's view, or a spectator's public one
            why = self.facts.check_sync(msg.state_id, msg.observation, set(self.witness.revealed.values()))
            if why is not None:
                self._tampered(why)
            self.shown[msg.state_id] = msg.observation
        if self.catching_up:
            self.catching_up = False
            if self.welcomed_back:
                self._welcome_back()
        fields: dict[str, Any] = {"observation": msg.observation, "state_id": msg.state_id}
        if self.view.dealer == "blind":
            log_now = tuple(printable_tree(list(msg.observation.get("log") or ())))
            fields["events"] = stable_events(self.view.events, log_now)[-KEEP_EVENTS:]
        if self.view.phase != OVER:
            fields["phase"] = PLAYING
        if self.prompt is not None and self.prompt.state_id != msg.state_id:
            self._cancel_ask()
            fields.update(legal=(), prompt_state=None, pending="", timeout=None, deadline=None)
        if self.prompt is None:
            fields["notices"] = self._turn_over()
        self.update("sync", **fields)

    def _on_prompt(self, msg: Prompt) -> None:
        # heard on an up-to-date connection, not in the catch-up after a rejoin (read
        # late, after checking what was resent): only then is its time evidence (§9.3)
        fresh = not (self.catching_up or self.rejoined_prompt)
        if self.witness is None or self.witness.game_id is None or self.view.seat is None:
            # a prompt before the game's signed start: no action could name the game
            log.warning("the host asked for a move before the game started")
            self._host_gone("the host asked for a move before the game started")
            raise _Over("error", ("unexpected-prompt", "the host asked for a move before the game started"))
        if self.received and not split_statement(self.received[-1])[1]:
            # a deferred signature (specs/fairness.md §6.6) is signed by the step after which
            # this seat is to move: asked to act before, the seat would act on statements
            # no signature covers, and a host that vanished then left it without evidence
            self._tampered(said("prompt_unsigned", {"state": msg.state_id, "n": len(self.received) - 1}))
        if self.view.dealer == "blind":
            msg = self._blind_prompt(msg)
        else:
            why = self.facts.check_prompt(msg.state_id, msg.legal, self.view.observation)
            if why is not None:
                self._tampered(why)
        if self.catching_up:  # (a prompt may come without a sync only before any move: never, but be safe)
            self.catching_up = False
            if self.welcomed_back:
                self._welcome_back()
        if msg.state_id in self.answered_here:
            # the host asks again for a state this seat answered on this connection: the
            # answer is on its way and the host applies it; a second, different answer
            # would make the signed step differ from what this seat "sent" (specs/protocol.md §5)
            log.debug("prompt for state %d sent again; its answer is already on the way", msg.state_id)
            return
        self._cancel_ask()
        self.prompt = msg
        timeout = None if msg.timeout_ms is None else msg.timeout_ms / 1000
        # the turn counts from when the prompt's bytes arrived (heard_at), not from when
        # this client got round to handling them (specs/fairness.md §9.3)
        deadline = None if timeout is None else self.heard_at + timeout
        if deadline is not None and timeout is not None:
            self.prompt_deadlines[msg.state_id] = (deadline, timeout)
            self.prompt_heard[msg.state_id] = (self.heard_at, int(msg.timeout_ms or 0), fresh, self._wall_ms(self.heard_at))
            if self.rejoined_prompt:
                # the first prompt after a reconnect: the turn kept its deadline (a
                # reconnect cannot buy time, specs/host.md § Reconnect)
                self.note("time-left", f"{timeout:.0f} s left for your move", args={"seconds": round(timeout)})
        self.rejoined_prompt = False
        self.update("prompt", legal=msg.legal, prompt_state=msg.state_id, pending=msg.pending,
                    timeout=timeout, deadline=deadline)
        self._start_ask(msg)

    def _blind_prompt(self, msg: Prompt) -> Prompt:
        """Dealer-blind game: the host sends no legal moves (it cannot know them); this
        seat's own engine gives them, in card ids (specs/fairness.md B.16.5)."""
        play = self.witness.play  # type: ignore[union-attr]
        if msg.legal or play is None or not play.idle or msg.state_id != play.version \
                or play.game.state.to_move != self.view.seat:
            self._tampered(said("blind_prompt_uncalled", {"state": msg.state_id}))
        game = play.game
        legal = tuple(sorted(game.card_action(a) for a in game.legal_actions()))
        if not legal:
            self._tampered(said("blind_prompt_none", {"state": msg.state_id}))
        return Prompt(msg.state_id, legal, msg.timeout_ms, msg.pending)

    def _blind_default(self) -> Action:
        """The default move this seat's client plays itself when its turn time is up at a
        dealer-blind table (the host cannot: it does not see the cards), in card ids."""
        from jupai_net.bots import get_bot

        play = self.witness.play  # type: ignore[union-attr]
        return play.game.card_action(play.game.bot_action(get_bot("greedy"), random.Random(secrets.randbits(64))))

    def _start_ask(self, prompt: Prompt) -> None:
        scope = trio.CancelScope()
        self.ask_scope = scope
        assert self.nursery is not None
        self.nursery.start_soon(self._ask, prompt, scope)

    def _cancel_ask(self) -> None:
        if self.ask_scope is not None:
            self.ask_scope.cancel()
            self.ask_scope = None
        self.prompt = None

    async def _ask(self, prompt: Prompt, scope: trio.CancelScope) -> None:
        with scope:
            blind = self.view.dealer == "blind"
            asked = self.prompt_deadlines.get(prompt.state_id)
            for _ in range(5):
                if scope.cancel_called or self.prompt is not prompt:
                    return  # withdrawn before this task ran (a newer state came first)
                action = None
                try:
                    if blind and asked is not None:  # the host cannot play for us: our own clock
                        with trio.move_on_at(asked[0]):
                            action = await self.player.choose(self.view)
                    else:
                        action = await self.player.choose(self.view)
                except trio.TooSlowError:
                    if not blind:
                        return  # the player gave up at the deadline: the host plays the default
                except Exception:  # noqa: BLE001 - a player bug must not end the session
                    log.exception("player.choose failed; the default action will be played")
                    self.note("player-error", "could not choose a move; the default one will be played",
                              args={"what": "choose"})
                    if not blind:
                        return
                if action is None:  # dealer-blind: the time is up, this client plays the default
                    action = self._blind_default()
                    self.note("blind-timeout", "your time was up: your client played the default move for you",
                              args={"seconds": round(asked[1]) if asked else 0})
                    break
                if action in prompt.legal:
                    break
                from jupai_net.engine import IllegalAction  # (loaded already: the witness replays with it)

                why = IllegalAction("not-legal-now", kind=str(getattr(action, "kind", "?")))
                self.note("illegal-action", why.reason, reject=True, args={"illegal": why.to_wire()})
            else:
                return
            if self.prompt is not prompt or self.witness is None:
                return
            self.own_actions[prompt.state_id] = action.to_wire()
            self.answered_here.add(prompt.state_id)
            self._persist()  # before sending: a rejoin must know this move was ours
            self.update("acted", legal=(), pending="", timeout=None, deadline=None, notices=self._turn_over())
            if self.view.dealer == "blind" and self.witness.play is not None:
                action = self.witness.play.game.position_action(action)  # the claim names deck positions
            try:
                await self.send(ActionMessage(self.witness.game_id, prompt.state_id, action))  # type: ignore[arg-type]
            except _Lost:
                pass  # the read loop notices too and reconnects
            except ValueError as exc:  # e.g. a prompt for a game that is not running: say so, never crash
                log.warning("cannot answer the host's prompt: %s", exc)
                self.note("player-error", "could not send the move; the host will play the default one",
                          args={"what": "send"})

    async def _on_reject(self, msg: Reject) -> None:
        self.note(msg.code, msg.message, reject=True, change="reject", args=msg.args or None)
        prompt = self.prompt
        if msg.code == "illegal-action" and prompt is not None and msg.state_id == prompt.state_id:
            self.answered_here.discard(prompt.state_id)  # refused, not applied: the seat answers again
            self._cancel_ask()
            self.prompt = prompt
            self.update("prompt", legal=prompt.legal, prompt_state=prompt.state_id)
            self._start_ask(prompt)

    async def _on_end(self, msg: End) -> None:
        self._cancel_ask()
        self.result = dict(msg.result)
        self.ended_notices = self.view.notices
        self.update("end", phase=OVER, result=self.result, legal=(), deadline=None)
        if self.watch:
            why = str(self.result.get("reason") or "").strip()
            self.watch_end = ("finished", None) if msg.reason == "finished" else (
                "aborted", ("abandoned", why) if why else None)
            await self._watched_to_the_end()
            return  # a spectator stays for the next game, until the host says bye or it leaves
        if msg.reason == "finished":
            status, error = "finished", None
        else:
            why = str(self.result.get("reason") or "").strip()
            status, error = "aborted", ("abandoned", why) if why else None
        if not self.stay:
            raise _Over(status, error)
        game = await self._close_game(status, error)
        if self.series is not None and self.series.final and self.series_for == self.witness_for:
            raise _Over(status, error)  # the last game of the series: nothing to wait for
        assert self.nursery is not None
        asking = (game.game_id, trio.CancelScope(), trio.Event())
        self.asking_next = asking
        self.nursery.start_soon(self._between, game, asking)

    async def _between(self, game: SessionResult,
                       asking: tuple[bytes | None, trio.CancelScope, trio.Event]) -> None:
        """Between two games: ask the player (``next_game``) and send ``ready``, or leave.
        The question is withdrawn (``asking``'s scope cancelled, :meth:`_withdraw_question`)
        when it no longer has a meaning: nothing is sent then."""
        _, scope, closed = asking
        ask = getattr(self.player, "next_game", None)
        go = True
        try:
            if callable(ask):
                with scope:
                    try:
                        go = bool(await ask(game))
                    except Exception:  # noqa: BLE001 - a player bug must not end the session badly
                        log.exception("player.next_game failed; leaving the table")
                        go = False
        finally:
            if self.asking_next is asking:
                self.asking_next = None
            closed.set()
        if scope.cancel_called:
            return  # withdrawn: the seat was freed, or the next game started
        if not go:
            self.control.leave()
            return
        if self.witness_for != game.game_id:
            return  # the next game started meanwhile (someone else's ready)
        self.sent_ready = False
        self.result, self.verdict = None, None
        self.update("lobby", phase=LOBBY, observation=None, state_id=None, events=(), transcript_path=None,
                    names={p.seat: p.name for p in self.view.players}, notices=self._fresh_notices())
        try:
            await self._ready()
        except _Lost:
            pass  # the read loop notices and ends the session

    async def _withdraw_question(self, why: str, *, unless_game: bytes | None = None) -> None:
        """Withdraw the question between games (``player.next_game``, "Ready for the
        next game?") when it has no meaning any more, and wait until the player has
        closed it, so that the next update is drawn (the terminal draws nothing new
        while it asks): the host freed the seat (away too long at the question), or a
        game other than ``unless_game``'s successor started. Nothing is sent for it."""
        asking = self.asking_next
        if asking is None or (unless_game is not None and asking[0] == unless_game):
            return
        log.info("the question about the next game is withdrawn: %s", why)
        self.asking_next = None
        asking[1].cancel()
        await asking[2].wait()

    async def _watched_to_the_end(self) -> None:
        """A spectator saw a game end: verify the public stream and save the transcript
        now (the next game replaces the witness)."""
        w = self.witness
        if w is None or w.game_id is None or not w.finished or self.saved_for == w.game_id:
            return
        self.verdict = await trio.to_thread.run_sync(self._verify)
        self._check_series(self.verdict)
        self.saved_path = await trio.to_thread.run_sync(self._save_transcript)
        self.saved_for = w.game_id
        self.update("verdict", verdict=self.verdict, transcript_path=self.saved_path)

    def _check_series(self, verdict: Verdict | None) -> None:
        """Add the game just verified to this client's own series tally (its signed
        ranking if it verified, else nothing scored) and compare the host's ``series``
        message with it (:mod:`.series_check`): a disagreement is said on screen
        (``series-mismatch``), kept in the transcript's meta (``series_check``), and the
        client's own figures replace the host's."""
        w = self.witness
        if self.series is None or w is None or w.game_id is None or self.series_for != w.game_id:
            return
        seats = self.view.rules.players if self.view.rules is not None else len(self.series_names)
        names = [self.series_names.get(s) for s in range(seats)]
        ranking = signed_ranking(w._raw) if verdict is not None and verdict.ok else None
        self.series_check.add(self.series.series_id, names, ranking)
        own, differ = self.series_check.compare(self.series)
        self.series_disputed = differ
        if not differ or own is None:
            return
        log.warning("the host's series scoreboard disagrees with the signed rankings for %s", differ)
        who = [printable(n) for n in differ]
        self.series = own
        self.note("series-mismatch", f"the host's scoreboard disagrees with the signed rankings for {', '.join(who)}; "
                  "showing this client's own figures", args={"names": tuple(who)}, change="series")
        self.update("series", series=own)

    def _host_gone(self, why: str) -> None:
        if self.witness is not None and not self.witness.finished:
            self.witness.host_gone(why)

    # ------------------------------------------------------------------ the end

    async def _finish(self, status: str, error: tuple[str, str] | None) -> SessionResult:
        if self.left and status not in ("finished", "aborted"):
            status = "left"
        w = self.witness
        if self.games and (w is None or w.game_id is None or w.game_id == self.closed_game):
            # the session ended between games (the player left, the host closed the
            # table): the result is the last game's, already verified and saved
            last = self.games[-1]
            status = last.status
            error = error or last.error
            res = dataclasses.replace(last, error=error, view=self.view, series=self.series, games=tuple(self.games))
        else:
            res = await self._close_game(status, error)
        if self.host_bye is not None:
            res = dataclasses.replace(res, host_bye=self.host_bye)
        # keep it after a lost connection (the same call rejoins, in a game or in the
        # lobby), a closed terminal mid-game, and a seat left on purpose mid-game at a
        # trusted table (a bot plays it; the same command takes it back while the game
        # runs); otherwise there is nothing to resume — a seat left on purpose in the
        # lobby, between games or at a dealer-blind table is not taken back by the next
        # command, which joins afresh (specs/client.md § Rejoin)
        kept = self.keep_seat if status == "left" else None
        if kept is not None:
            res = dataclasses.replace(res, seat_kept=kept)
        over = status in ("finished", "aborted", "refused", "error", "left") and kept is None
        if self.save_resume and over:
            # the game is over (or there is none to take back): nothing to resume
            drop_resume(self.host, self.port)
        if self.lock is not None:
            self.lock.release(remove=self.save_resume and over)
        on_end = getattr(self.player, "on_end", None)
        if callable(on_end):
            try:
                on_end(res)
            except Exception:  # noqa: BLE001
                log.exception("player.on_end failed")
        return res

    async def _close_game(self, status: str, error: tuple[str, str] | None) -> SessionResult:
        """The current game is over (or the session ends during it): record how the seat
        left it, verify it, save its transcript; the game's :class:`SessionResult`
        (also kept in :attr:`games`)."""
        verdict = self.verdict
        path = None
        if self.watch:
            # a spectator keeps the games it saw to their end (done at each end); a game
            # it left or lost in the middle says nothing about the host: no verdict, no file
            path = self.saved_path
            w = self.witness
            if w is None or w.game_id != self.saved_for:
                if verdict is not None and not verdict.ok and w is not None and w.game_id is not None:
                    self._host_gone(f"session ended: {status}")  # the host cheated: keep the evidence
                    path = await trio.to_thread.run_sync(self._save_transcript)
                else:
                    verdict = None
        elif self.witness is not None and self.witness.game_id is not None:
            if status == "left" and not self.witness.finished:
                # The player's own choice (or their terminal closed): the game is unverified
                # because WE left, which says nothing against the host (specs/fairness.md §9).
                self.witness.player_left("the terminal closed" if self.keep_seat == "hung-up"
                                         else "the player chose to leave")
            elif not self.witness.finished:
                # no signed end or abandon (whatever the host said): noted, so a game
                # stopped after this seat sent its seed reads as suspicious (§9)
                self._host_gone(f"session ended: {status}")
            # Replaying the game takes milliseconds: do it (and the file write) in a
            # worker thread so other tasks of this process (a UI, other sessions) go on.
            for version, why in self.host_moves:
                self.witness.host_moved(version, why)
            if verdict is None:
                verdict = await trio.to_thread.run_sync(self._verify)
            self._check_series(verdict)
            path = await trio.to_thread.run_sync(self._save_transcript)
            if self.save_error:
                self.note("transcript", self.save_error, args=self.save_args)
            self.verdict = verdict
            self.closed_game = self.witness.game_id
            self.update("verdict", verdict=verdict, transcript_path=path)
        if self.save_resume and self.stay and status in ("finished", "aborted"):
            self._persist()  # the game is over: the resume state keeps the seat, not the game
        result = self.result or {}
        names = {p.seat: p.name for p in self.view.players}
        series = self.series if self.series_for == self.witness_for else None
        res = SessionResult(
            status=status, verdict=verdict, ranking=list(result.get("ranking", [])), winner=result.get("winner"),
            names=names, seat=self.view.seat, result=self.result, transcript_path=path, token=self.token,
            game_id=self.view.game_id, error=error, view=self.view, series=series,
        )
        self.games.append(res)
        return dataclasses.replace(res, games=tuple(self.games))

    def _verify(self) -> Verdict:
        """The witness's verdict; for a verified game also replay it and compare every
        view the host showed this seat (``sync``) with the view the signed game gives
        (the parts :class:`SignedFacts` could not check at once); then this seat's
        record of turns the host cut short (a fair deal with any: suspicious,
        specs/fairness.md §9.3)."""
        assert self.witness is not None
        verdict = self.witness.verify(cut_short=False)  # the turns cut short last: the views are checked first
        seat = self.view.seat
        if verdict.ok and self.shown and self.witness.rules is not None:
            try:
                deal = self.witness._checker.derive()
                actions = [a for _, _, a in self.facts.steps]
                why = replay_observations(self.witness.rules, deal.deck, deal.setup, actions, seat, self.shown)
            except Exception as exc:  # noqa: BLE001 - a replay problem must not lose the game
                log.exception("replaying the shown views failed")
                why = said("views_not_replayed", {"detail": type(exc).__name__})
            if why is not None:
                reason = verdict_sentence(why["code"], why["args"], "en")
                log.error("the host showed a false view: %s", reason)
                verdict = dataclasses.replace(verdict, status="tampered", reason=reason, code=why["code"], args=why["args"])
        return self.witness.with_cut_short(verdict)  # a fair deal with turns cut short: suspicious (§9.3)

    def _transcript_meta(self) -> dict[str, Any]:
        """The transcript's unsigned ``meta`` for people: when, which table, who sat where."""
        import datetime as dt

        seats = max(list(self.view.names) + [self.view.seat or 0], default=-1) + 1
        if self.view.rules is not None:
            seats = max(seats, self.view.rules.players)
        names = [str(self.view.names.get(s, f"seat {s}"))[:64] for s in range(min(seats, 6))]
        address = f"{self.host}:{self.port}"
        meta = {"saved": dt.datetime.now().isoformat(timespec="seconds"), "table": (self.table_name or address)[:200],
                "address": address[:200], "names": names}
        if self.series is not None and self.series_for == self.witness_for:  # this game's scoreboard
            meta["series"], meta["game"] = self.series.series_id.hex(), str(self.series.game)
            if self.series_disputed:  # the host's scoreboard disagreed with the signed rankings
                meta["series_check"] = ("host disagrees: " + ", ".join(self.series_disputed))[:200]
        elif self.series is not None and not self.series.final and self.series_for is not None \
                and self.series_for == self.closed_game and self.witness_for not in (None, self.series_for):
            # a game this seat did not see to its end (it left, or lost the host): no
            # scoreboard came with it, but the one of the game before, which this session
            # played, numbers it: the next game of that series (specs/client.md § History)
            meta["series"], meta["game"] = self.series.series_id.hex(), str(self.series.game + 1)
        return meta

    def _save_transcript(self) -> Path | None:
        assert self.witness is not None and self.witness.game_id is not None
        path = self.transcript_path
        if path is not None and self.games:
            # the 2nd, 3rd … game of a series: FILE-2.jupai, FILE-3.jupai … next to FILE
            path = path.with_name(f"{path.stem}-{len(self.games) + 1}{path.suffix}")
        if path is None:
            path = default_transcript_path(self.witness.game_id, self.view.seat)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(self.witness.transcript(self._transcript_meta()))
        except OSError as exc:
            log.error("cannot save the transcript to %s: %s", path, exc)
            self.save_error = f"cannot save the transcript to {path}: {exc}"
            self.save_args = {"path": str(path), "why": _os_why(exc, self.lang)}
            return None
        return path


def _os_why(exc: OSError, lang: str) -> str:
    """Why a file could not be written, in ``lang`` for the common causes (catalog
    ``file.why.*``), else the system's own words."""
    import errno

    key = {errno.ENOENT: "file.why.missing", errno.EACCES: "file.why.write-denied", errno.EISDIR: "file.why.folder",
           errno.ENOTDIR: "file.why.missing", errno.EROFS: "file.why.read-only",
           errno.ENOSPC: "file.why.full"}.get(exc.errno or 0)
    return t(key, lang) if key else (exc.strerror or str(exc))


async def run_session(
    host: str,
    port: int,
    *,
    name: str,
    player: Player,
    code: str | None = None,
    check_fingerprint: FingerprintCheck | None = None,
    ssl_context: ssl.SSLContext | None = None,
    transcript_path: str | Path | None = None,
    token: str | None = None,
    seat: int | None = None,
    lang: str = "en",
    reconnect_for: float = 30.0,
    connect_timeout: float = 10.0,
    idle_timeout: float = 45.0,
    save_resume: bool = True,
    wire_tap: Callable[[bytes], None] | None = None,
    control: SessionControl | None = None,
    bot: bool | None = None,
    watch: bool = False,
    stay: bool = False,
    table_name: str | None = None,
    name_given: bool = False,
) -> SessionResult:
    """Play at the host ``host``:``port`` as ``name``, with ``player`` choosing: one game,
    or with ``stay`` every game of the series until the player leaves.

    Certificate check, right after the TLS handshake and before anything is sent:
    ``check_fingerprint(host, port, fingerprint)`` (hex SHA-256 of the certificate;
    raise to refuse), by default :func:`default_fingerprint_check` with ``code`` (the
    join code shown by the host). ``ssl_context`` defaults to
    :func:`~jupai_net.client.tls.client_ssl_context` (TLS 1.3, the check above instead
    of a CA).

    ``seat``: the seat to ask for (``None``: any). ``token``: a session token from an
    earlier session to take its seat back; its seed (bound to its game id) and the
    statements it received are read from the resume file it saved
    (:mod:`jupai_net.client.resume`). ``save_resume``: keep that resume file for
    ``host``:``port`` (written atomically after every change, removed when the game is
    over), and, without ``token``, take the seat it names back: the same call after a
    crash rejoins the running game (specs/client.md § Rejoin). A seed is only ever
    used for the game id it was made for: every new game gets a fresh one.
    ``reconnect_for``: seconds to keep trying to reconnect with the token after the
    connection drops mid-game (0: never): one deadline from the loss until a frame
    arrives on a new connection, exponential backoff with jitter between attempts.
    ``idle_timeout``: seconds without a frame from the host before the connection counts
    as lost (after a third of it the session pings the host, which answers at once; the
    host itself pings a quiet client every 15 s). ``connect_timeout``: seconds for TCP +
    TLS. ``lang``: ``"en"`` or ``"zh"`` (hello).
    ``transcript_path``: where to save the transcript (default:
    ``<config dir>/transcripts/<game id>-seat<N>.jupai``). ``wire_tap``: called with
    every chunk of decrypted bytes received (tests, debugging). ``control``: the
    :class:`SessionControl` to use (make one first to wire chat and leave into a UI
    before the session starts; it is also given to ``player.attach``). ``bot``: tell
    the host a program plays this seat (``hello.bot``: the lobby shows it as a bot);
    default: the player's ``is_bot`` attribute (True for
    :class:`~jupai_net.client.bot.BotPlayer`). ``watch``: join as a spectator
    (``hello.watch``, specs/protocol.md §12): no seat, ``seat``/``token``/``bot`` are
    ignored and no resume file is kept; ``player.choose`` is never called; the session
    lasts over several games until the host says bye (status ``finished`` if the last
    game it saw ended, verdict and transcript of that game) or ``control.leave()``
    (status ``left``). ``stay``: stay at the table after each
    game (specs/host.md § 3a): the game is verified and its transcript saved, then the
    player's ``next_game(result)`` decides between ``ready`` for the next game and
    leaving; the session ends when the player leaves, after the last game of the
    series (the host's ``series`` message says ``final``) or when the host closes.
    Each game gets its own fresh seed and transcript file. ``table_name``: the table's
    name when the caller knows it (a table picked from the LAN or joined by its name,
    ``jupai play``'s own), kept in each transcript's ``meta`` with the address
    (specs/fairness.md § 7); the protocol does not carry it. ``name_given``: the person
    chose ``name`` (``--name``): a saved session under another name is not taken back
    (specs/client.md § Rejoin); otherwise the saved session's name wins.

    Returns a :class:`SessionResult` (never raises for network or host problems; only
    for cancellation, and ``ValueError`` for bad arguments — a name, seat or token the
    protocol refuses — before connecting).
    """
    # bad arguments raise here, before any nursery (not inside an exception group)
    if watch:
        seat = token = None
        bot, save_resume = False, False
        Hello(name, lang=lang, watch=True, min_version=WATCH_HELLO_VERSION)
    else:
        Hello(name, lang=lang, seat=seat, token=token)  # FieldError (a ValueError) names the bad one
    ctx = ssl_context or client_ssl_context()
    check = check_fingerprint or default_fingerprint_check(code)
    session = _Session(
        host, port, name, player, seat=seat, lang=lang, token=token, check=check, ssl_context=ctx,
        transcript_path=Path(transcript_path) if transcript_path is not None else None, wire_tap=wire_tap,
        reconnect_for=reconnect_for, connect_timeout=connect_timeout, idle_timeout=idle_timeout,
        save_resume=save_resume, control=control,
        bot=bool(getattr(player, "is_bot", False)) if bot is None else bool(bot), watch=watch, stay=stay,
        table_name=table_name, name_given=name_given,
    )
    return await session.run()


__all__ = [
    "ChatLine", "ClientView", "HostRefused", "NoticeLine", "Player", "PlayerBase", "SessionControl", "SessionResult",
    "default_fingerprint_check", "run_session",
]
