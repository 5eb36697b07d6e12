"""Message types of the wire protocol (specs/protocol.md § Messages).

Every message is a frozen dataclass with a class attribute ``type`` (the wire name)
and a keyword-only ``seq`` (the per-connection sequence number; ``None`` on a
message built locally, set on a message received; the connection stamps it when
sending, so callers never set it). Constructors validate every field and raise
:class:`~.errors.FieldError` (a ``ValueError``) on a bad value; whatever a
constructor accepts, a peer's decoder accepts too.

On the wire a message is one msgpack map: ``{"type": str, "seq": int, <fields>}``,
every field present (``None`` travels as nil) except an *optional key* at its
default (``hello.bot`` since version 2, ``hello.watch`` since version 3), no other keys —
except that a client ignores the keys it does not know in the informative host
messages (``welcome``, ``lobby``, ``notice``, ``chat``, ``series`` and their player
and standing entries: ``_lenient``), so that a newer host may add information to
them. ``to_wire()`` builds that map; ``from_wire(map)`` checks it and raises
:class:`~.errors.RemoteProtocolError` (``bad-field``) on any problem.

Message equality ignores ``seq``.

``Cls.trusted(...)`` builds a message without the constructor's field checks: only
for messages a program builds from its own state (the host's ``sync``, ``prompt``,
``statement``…), never for anything a peer or a person supplied. The peer's decoder
checks every received message in full either way (specs/performance.md § Host).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from jupai_net.actions import Action
from jupai_net.printable import first_unprintable, is_printable
from jupai_net.rules import RuleSet

from .errors import BAD_FIELD, FieldError, RemoteProtocolError, _short
from .framing import SharedPacker, encode_frame, frame_payload, map_header
from .limits import (
    COMMITMENT_LEN,
    DEALERS,
    MAX_BLIND_LEN,
    GAME_ID_LEN,
    LANGS,
    MAX_ARRAY_LEN,
    MAX_BIN_LEN,
    MAX_CHAT_LEN,
    MAX_CODE_LEN,
    MAX_LEGAL,
    MAX_MAP_LEN,
    MAX_NAME_LEN,
    MAX_TABLE_NAME,
    MAX_NONCE,
    MAX_PENDING_LEN,
    MAX_SEATS,
    MAX_SEQ,
    MAX_STANDINGS,
    MAX_SIG_LEN,
    MAX_STATE_ID,
    MAX_STATEMENT_LEN,
    MAX_STR_LEN,
    MAX_TEXT_LEN,
    MAX_TIMEOUT_MS,
    MAX_TOKEN_LEN,
    MAX_TREE_DEPTH,
    MAX_TREE_NODES,
    MIN_TOKEN_LEN,
    BOT_HELLO_VERSION,
    PROTOCOL_VERSION,
    WATCH_HELLO_VERSION,
    SEED_LEN,
    SUPPORTED_VERSIONS,
)

_CODE_RE = re.compile(rf"[a-z][a-z0-9_.-]{{0,{MAX_CODE_LEN - 1}}}")
_TOKEN_RE = re.compile(rf"[A-Za-z0-9_-]{{{MIN_TOKEN_LEN},{MAX_TOKEN_LEN}}}")
_INT_MIN, _UINT_MAX = -(2**63), 2**64 - 1  # what msgpack can carry
_UNCHECKED = threading.local()  # .on is True while Message.trusted() builds a message


# --- field checks (raise FieldError) ------------------------------------------------


def _check_int(name: str, v: Any, lo: int, hi: int, *, optional: bool = False) -> None:
    if v is None and optional:
        return
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        null = " or null" if optional else ""
        raise FieldError(name, f"must be a whole number {lo}..{hi}{null}, got {_short(v)}")


def _check_bool(name: str, v: Any) -> None:
    if not isinstance(v, bool):
        raise FieldError(name, f"must be true or false, got {_short(v)}")


def _check_text(name: str, v: Any, lo: int, hi: int) -> None:
    """Text printable to a person (:func:`jupai_net.printable.is_printable`: no
    control, escape, line-break or bidi characters; emoji sequences with joiners are
    fine), lo..hi characters."""
    if not isinstance(v, str) or not lo <= len(v) <= hi or not is_printable(v):
        raise FieldError(name, f"must be {lo}..{hi} printable characters, got {_short(v)}")


def name_fault(v: Any) -> tuple[str, dict[str, Any]] | None:
    """Why ``v`` cannot be a player's name, as a code and its args (said in a person's
    language from the catalog key ``name.why.CODE``), or None when it can: ``("text",
    {"got": repr})``, ``("empty", {})``, ``("long", {"length": n})``, ``("unprintable",
    {"char": "\\t", "char_name": "a control character", "category": "Cc"})`` (the
    character's Unicode name, lower case, and general category), ``("spaces", {})``."""
    if not isinstance(v, str):
        return "text", {"got": _short(v)}
    if not v:
        return "empty", {}
    if len(v) > MAX_NAME_LEN:
        return "long", {"length": len(v)}
    if not is_printable(v):
        bad = v[first_unprintable(v) or 0]
        return "unprintable", {"char": ascii(bad)[1:-1], "category": unicodedata.category(bad),
                               "char_name": unicodedata.name(bad, "a control character").lower()}
    if v != v.strip():
        return "spaces", {}
    return None


#: The English of each :func:`name_fault` code (the catalog's ``name.why.CODE`` has
#: the same text and the Chinese).
NAME_FAULTS = {
    "text": "a name must be text, got {got}",
    "empty": "the name is empty",
    "long": "the name has {length} characters",
    "unprintable": "the name holds {char} ({char_name})",
    "spaces": "the name starts or ends with a space",
}


def name_problem(v: Any) -> str | None:
    """Why ``v`` cannot be a player's name (``hello.name``, lobby and chat names), in
    English, e.g. ``the name holds \\t (a control character)``, or None when it can: 1..24
    characters printable to a person, no space at either end (:func:`name_fault`; the
    command line says it in the run's language with the rule after it, ``cli.bad_name``
    in :mod:`jupai_net.client.i18n`)."""
    fault = name_fault(v)
    return None if fault is None else NAME_FAULTS[fault[0]].format(**fault[1])


def _check_name(name: str, v: Any) -> None:
    _check_text(name, v, 1, MAX_NAME_LEN)
    if v != v.strip():
        raise FieldError(name, f"must not start or end with a space, got {_short(v)}")


def _check_code(name: str, v: Any, *, allow_empty: bool = False) -> None:
    if allow_empty and v == "":
        return
    if not isinstance(v, str) or not _CODE_RE.fullmatch(v):
        raise FieldError(
            name, f"must be a code of 1..{MAX_CODE_LEN} characters a-z 0-9 _ . - (starting a-z), got {_short(v)}"
        )


def _check_token(name: str, v: Any, *, optional: bool = False) -> None:
    if v is None and optional:
        return
    if not isinstance(v, str) or not _TOKEN_RE.fullmatch(v):
        null = " or null" if optional else ""
        raise FieldError(name, f"must be {MIN_TOKEN_LEN}..{MAX_TOKEN_LEN} characters A-Z a-z 0-9 _ -{null}")


def _check_bytes(obj: Any, name: str, lo: int, hi: int) -> None:
    """bytes of lo..hi length; a bytearray/memoryview is stored as bytes."""
    v = getattr(obj, name)
    if isinstance(v, (bytearray, memoryview)):
        v = bytes(v)
        object.__setattr__(obj, name, v)
    if not isinstance(v, bytes) or not lo <= len(v) <= hi:
        size = f"exactly {lo}" if lo == hi else f"{lo}..{hi}"
        got = f"{len(v)} bytes" if isinstance(v, bytes) else _short(v)
        raise FieldError(name, f"must be {size} bytes, got {got}")


def _as_tuple(obj: Any, name: str) -> tuple[Any, ...]:
    v = getattr(obj, name)
    if isinstance(v, list):
        v = tuple(v)
        object.__setattr__(obj, name, v)
    if not isinstance(v, tuple):
        raise FieldError(name, f"must be a list, got {_short(v)}")
    return v


def _check_tree(name: str, root: Any) -> None:
    """A map with string keys, holding only msgpack-friendly values, within the tree limits;
    every string (map keys too) printable to a person (:func:`_check_leaf`).

    Every value counts as a node (map keys too, the root too); only containers are
    subject to the depth limit. Exact built-in types take a fast path (a tree is
    checked on every ``sync``); subclasses and anything else go through
    :func:`_check_leaf`.
    """
    if not isinstance(root, dict):
        raise FieldError(name, f"must be a map, got {_short(root)}")
    nodes = 1
    stack: list[tuple[Any, int]] = [(root, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        v, depth = pop()
        if depth > MAX_TREE_DEPTH:
            raise FieldError(name, f"nests deeper than {MAX_TREE_DEPTH} levels")
        if isinstance(v, dict):
            if len(v) > MAX_MAP_LEN:
                raise FieldError(name, f"holds a map of more than {MAX_MAP_LEN} keys")
            nodes += 2 * len(v)
            if nodes > MAX_TREE_NODES:
                raise FieldError(name, f"holds more than {MAX_TREE_NODES} values")
            for k, x in v.items():
                if type(k) is not str or not k.isascii() or not k.isprintable() or len(k) > MAX_STR_LEN:
                    if not isinstance(k, str):
                        raise FieldError(name, f"map keys must be strings, got {_short(k)}")
                    _check_leaf(name, k)
                t = type(x)
                if t is int:
                    if not _INT_MIN <= x <= _UINT_MAX:
                        raise FieldError(name, f"holds an integer msgpack cannot carry: {_short(x)}")
                elif t is dict or t is list or t is tuple:
                    push((x, depth + 1))
                elif x is None or t is bool or (t is str and x.isascii() and x.isprintable() and len(x) <= MAX_STR_LEN):
                    pass
                elif isinstance(x, (dict, list, tuple)):
                    push((x, depth + 1))
                else:
                    _check_leaf(name, x)
        else:
            if len(v) > MAX_ARRAY_LEN:
                raise FieldError(name, f"holds a list of more than {MAX_ARRAY_LEN} items")
            nodes += len(v)
            if nodes > MAX_TREE_NODES:
                raise FieldError(name, f"holds more than {MAX_TREE_NODES} values")
            for x in v:
                t = type(x)
                if t is int:
                    if not _INT_MIN <= x <= _UINT_MAX:
                        raise FieldError(name, f"holds an integer msgpack cannot carry: {_short(x)}")
                elif t is dict or t is list or t is tuple:
                    push((x, depth + 1))
                elif x is None or t is bool or (t is str and x.isascii() and x.isprintable() and len(x) <= MAX_STR_LEN):
                    pass
                elif isinstance(x, (dict, list, tuple)):
                    push((x, depth + 1))
                else:
                    _check_leaf(name, x)


def _check_leaf(name: str, v: Any) -> None:
    """One non-container value of a tree (see :func:`_check_tree`)."""
    if isinstance(v, str):
        try:
            size = len(v.encode("utf-8"))
        except UnicodeEncodeError:
            raise FieldError(name, f"holds a string that is not valid Unicode: {_short(v)}") from None
        if size > MAX_STR_LEN:
            raise FieldError(name, f"holds a string of more than {MAX_STR_LEN} bytes")
        if not is_printable(v):
            raise FieldError(name, f"holds a string that is not printable (a control, escape or bidi character): "
                             f"{_short(v)}")
    elif isinstance(v, bytes):
        if len(v) > MAX_BIN_LEN:
            raise FieldError(name, f"holds bytes longer than {MAX_BIN_LEN}")
    elif isinstance(v, bool) or v is None:
        pass
    elif isinstance(v, int):
        if not _INT_MIN <= v <= _UINT_MAX:
            raise FieldError(name, f"holds an integer msgpack cannot carry: {_short(v)}")
    elif isinstance(v, float):
        if not math.isfinite(v):
            raise FieldError(name, f"holds a non-finite number: {v}")
    else:
        raise FieldError(name, f"holds a {type(v).__name__}, which the protocol cannot carry")


def _check_action(name: str, v: Any) -> None:
    """An :class:`Action` that survives ``Action.from_wire(a.to_wire())`` (what the peer will do)."""
    if type(v) is Action and v.exact():
        return  # exact field types: the round trip below cannot fail
    if not isinstance(v, Action):
        raise FieldError(name, f"must be an Action, got {_short(v)}")
    try:
        Action.from_wire(v.to_wire())
    except (ValueError, TypeError) as exc:
        raise FieldError(name, f"is not a valid action: {exc}") from None


# --- wire decoders for fields that are not plain values (raise FieldError) -------------


def _decode_action(v: Any) -> Action:
    try:
        return Action.from_wire(v)
    except (ValueError, TypeError) as exc:
        raise FieldError("action", f"is not a valid action: {exc}") from None


def _decode_actions(v: Any) -> tuple[Action, ...]:
    if not isinstance(v, list):
        raise FieldError("legal", f"must be a list of actions, got {_short(v)}")
    try:
        return tuple(Action.from_wire(a) for a in v)
    except (ValueError, TypeError) as exc:
        raise FieldError("legal", f"holds an invalid action: {exc}") from None


def _decode_rules(v: Any) -> RuleSet:
    try:
        return RuleSet.from_wire(v)
    except (ValueError, TypeError) as exc:
        raise FieldError("rules", f"is not a valid rule set: {exc}") from None


def _decode_players(v: Any) -> tuple["PlayerInfo", ...]:
    if not isinstance(v, list):
        raise FieldError("players", f"must be a list of players, got {_short(v)}")
    return tuple(PlayerInfo.from_wire(p) for p in v)


_PLAIN_SCALARS = frozenset({int, str, bool, float, bytes, type(None)})


#: ``id(action) -> (action, its wire map)``: the engine's legal actions are mostly
#: pre-built objects, listed again in a ``prompt`` on every move, so each is turned into
#: its wire map once (specs/performance.md § Host). The entry holds the action itself,
#: so its id cannot be reused while it is cached; the maps are shared: read-only.
_ACTION_WIRE: dict[int, tuple[Action, dict[str, Any]]] = {}
_ACTION_WIRE_MAX = 4096  # then it starts again (about 1,100 distinct objects in 30 games)


def _action_wire(a: Action) -> dict[str, Any]:
    """``a.to_wire()``, made once per action object (:data:`_ACTION_WIRE`)."""
    hit = _ACTION_WIRE.get(id(a))
    if hit is not None and hit[0] is a:
        return hit[1]
    if len(_ACTION_WIRE) >= _ACTION_WIRE_MAX:
        _ACTION_WIRE.clear()
    wire = a.to_wire()
    _ACTION_WIRE[id(a)] = (a, wire)
    return wire


def _plain(v: Any) -> Any:
    """Python value -> msgpack-friendly value (to_wire of nested objects, tuples as lists)."""
    t = type(v)
    if t in _PLAIN_SCALARS:
        return v
    if t is dict:
        return {k: x if type(x) in _PLAIN_SCALARS else _plain(x) for k, x in v.items()}
    if t is list:
        return [x if type(x) in _PLAIN_SCALARS else _plain(x) for x in v]
    if t is Action:
        return _action_wire(v)
    if isinstance(v, (Action, RuleSet, _Record)):
        return v.to_wire()
    if t is tuple:
        return [_action_wire(x) if type(x) is Action else _plain(x) for x in v]
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _known_keys(data: dict[Any, Any], names: frozenset[str]) -> dict[Any, Any]:
    """``data`` without its unknown *string* keys: how a lenient message or record
    (``_lenient``) reads a newer host's extra keys (specs/protocol.md §6, Forward
    compatibility). A key that is not a string stays, for :func:`_check_keys` to refuse."""
    if data.keys() <= names:
        return data
    return {k: v for k, v in data.items() if k in names or not isinstance(k, str)}


def _check_keys(what: str, data: dict[Any, Any], names: frozenset[str]) -> None:
    missing = names - data.keys()
    if missing:
        raise FieldError(sorted(missing)[0], f"is missing from {what} (missing: {', '.join(sorted(missing))})")
    extra = [k for k in data if k not in names]
    if extra:
        shown = ", ".join(_short(k, 24) for k in extra[:5])
        # a peer's key may hold escapes or line breaks, and the message is logged: repr unless printable
        key = extra[0]
        field = key[:32] if isinstance(key, str) and key.isprintable() else _short(key, 32)
        raise FieldError(field, f"is not a field of {what} (unknown: {shown})")


# --- nested records ---------------------------------------------------------------------


class _Record:
    """Base of the records nested in a message (a list of maps on the wire, every field
    present, no other key): ``to_wire``/``from_wire`` for every record type.
    ``_field``: the message field that holds them; ``_what``: how an error names one."""

    __slots__ = ()
    _field: ClassVar[str] = ""
    _what: ClassVar[str] = ""
    #: unknown string keys are ignored, not refused (specs/protocol.md §6, Forward compatibility)
    _lenient: ClassVar[bool] = False

    def to_wire(self) -> dict[str, Any]:
        """The record's fields as a map, e.g. ``{"seat", "name", "ready", "bot", "connected"}``."""
        return {name: getattr(self, name) for name in _field_names(type(self))}

    @classmethod
    def from_wire(cls, data: Any) -> Any:
        """Inverse of :meth:`to_wire`; raises :class:`FieldError` (naming the message
        field, e.g. ``players``) on a bad entry."""
        if not isinstance(data, dict):
            raise FieldError(cls._field, f"must hold maps, got {_short(data)}")
        try:
            if cls._lenient:
                data = _known_keys(data, _field_set(cls))
            _check_keys(cls._what, data, _field_set(cls))
            return cls(**data)
        except FieldError as exc:
            raise FieldError(cls._field, f"holds a bad entry: {exc}") from None


@dataclass(frozen=True, slots=True)
class PlayerInfo(_Record):
    """One occupied seat as shown in the lobby: ``seat`` 0..5, ``name``, ``ready``,
    ``bot`` (a bot plays it), ``connected`` (a human's connection is up)."""

    _field: ClassVar[str] = "players"
    _what: ClassVar[str] = "a player entry"
    _lenient: ClassVar[bool] = True
    seat: int
    name: str
    ready: bool = False
    bot: bool = False
    connected: bool = True

    def __post_init__(self) -> None:
        _check_int("seat", self.seat, 0, MAX_SEATS - 1)
        _check_name("name", self.name)
        for name in ("ready", "bot", "connected"):
            _check_bool(name, getattr(self, name))



@dataclass(frozen=True, slots=True)
class SeriesStanding(_Record):
    """One player's line of a ``series`` scoreboard: ``name``; ``points`` (0..2³²−1) in
    the series so far; ``wins`` (first places) and ``played`` (games sat in), 0..2³²−1;
    ``last``: the points scored in the game just over (0..5), ``None`` when the player
    was not in it or it was abandoned (specs/rules.md § 15)."""

    _field: ClassVar[str] = "standings"
    _what: ClassVar[str] = "a standings entry"
    _lenient: ClassVar[bool] = True
    name: str
    points: int = 0
    wins: int = 0
    played: int = 0
    last: int | None = None

    def __post_init__(self) -> None:
        _check_name("name", self.name)
        for name in ("points", "wins", "played"):
            _check_int(name, getattr(self, name), 0, MAX_NONCE)
        _check_int("last", self.last, 0, MAX_SEATS - 1, optional=True)



def _decode_standings(v: Any) -> tuple[SeriesStanding, ...]:
    if not isinstance(v, list):
        raise FieldError("standings", f"must be a list of standings, got {_short(v)}")
    return tuple(SeriesStanding.from_wire(x) for x in v)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The dataclass field names of a record or message class, in field order (looked
    up once per class: ``dataclasses.fields`` on every message received cost the host
    about 2 % of its CPU, specs/performance.md § Host)."""
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.cache
def _field_set(cls: type) -> frozenset[str]:
    """The keys a record's wire map must have: its fields."""
    return frozenset(_field_names(cls))


@functools.cache
def _wire_keys(cls: type) -> frozenset[str]:
    """The keys a message class's wire map must have: its fields and ``type``."""
    return _field_set(cls) | {"type"}


# --- messages ---------------------------------------------------------------------------

_AS_IS, _PLAIN = object(), object()
#: message class -> ((field name, _AS_IS | _PLAIN | the optional key's default), ...), in
#: field order without ``seq``: what ``to_wire`` does with each field (built once per class)
_WIRE_PLANS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _wire_plan(cls: type) -> tuple[tuple[str, Any], ...]:
    plan = tuple(
        (f.name, cls._optional[f.name] if f.name in cls._optional  # type: ignore[attr-defined]
         else _AS_IS if f.name in cls._trees else _PLAIN)  # type: ignore[attr-defined]
        for f in dataclasses.fields(cls) if f.name != "seq"
    )
    _WIRE_PLANS[cls] = plan
    return plan


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message. ``type``: wire name (class attribute); ``seq``: sequence
    number (keyword-only, ``None`` until sent or received; not part of equality)."""

    type: ClassVar[str] = ""
    #: field name -> decoder from the wire form, for fields that are not plain values
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {}
    #: free-form tree fields (checked by ``_check_tree``): passed to the wire as they are
    _trees: ClassVar[frozenset[str]] = frozenset()
    #: optional keys -> their default: left out of the wire map at the default, and
    #: taken as the default when a peer leaves them out
    _optional: ClassVar[dict[str, Any]] = {}
    #: an informative host message (welcome, lobby, notice, chat, series): a key this
    #: release does not know is ignored, not refused, so a newer host of the same
    #: version may add information (specs/protocol.md §6, Forward compatibility);
    #: every other message, and anything signed, stays strict
    _lenient: ClassVar[bool] = False

    seq: int | None = field(default=None, kw_only=True, compare=False)

    def __post_init__(self) -> None:
        if getattr(_UNCHECKED, "on", False):
            return
        _check_int("seq", self.seq, 0, MAX_SEQ, optional=True)
        self._validate()

    @classmethod
    def trusted(cls, *args: Any, **kwargs: Any) -> Any:
        """``cls(*args, **kwargs)`` without the field checks, for a message built from
        this program's own state (the host's observations, legal actions, signed
        statements), where checking costs the host more than building. Fields must
        already have their stored types (tuples, bytes). Never for values from a peer
        or a person: use the constructor or :meth:`from_wire`."""
        _UNCHECKED.on = True
        try:
            return cls(*args, **kwargs)
        finally:
            _UNCHECKED.on = False

    def _validate(self) -> None:
        """Check the message's own fields; raise :class:`FieldError`."""

    def encode(self, seq: int, max_frame: int) -> bytes:
        """The frame of this message with sequence number ``seq``:
        ``encode_frame(self.to_wire(seq=seq), max_frame)`` (raises as that does)."""
        return encode_frame(self.to_wire(seq=seq), max_frame)

    def to_wire(self, seq: int | None = None) -> dict[str, Any]:
        """The wire map ``{"type", "seq", <fields>}``; ``seq`` overrides ``self.seq``."""
        out: dict[str, Any] = {"type": self.type, "seq": self.seq if seq is None else seq}
        plan = _WIRE_PLANS.get(type(self)) or _wire_plan(type(self))
        for name, how in plan:
            value = getattr(self, name)
            if how is _AS_IS:
                out[name] = value  # a tree field: checked plain data already
            elif how is _PLAIN or value != how:  # an optional key at its default stays off the wire
                out[name] = value if type(value) in _PLAIN_SCALARS else _plain(value)
        return out

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> "Message":
        """Build from a wire map whose ``type`` is this class's. Raises
        :class:`RemoteProtocolError` ``bad-field`` naming the field on any problem."""
        try:
            if cls._optional:
                data = {**{k: v for k, v in cls._optional.items()}, **data}
            if cls._lenient:
                data = _known_keys(data, _wire_keys(cls))
            _check_keys(f"a {cls.type} message", data, _wire_keys(cls))
            kwargs = {}
            for name in _field_names(cls):
                decode = cls._decoders.get(name)
                kwargs[name] = decode(data[name]) if decode else data[name]
            return cls(**kwargs)
        except FieldError as exc:
            raise RemoteProtocolError(BAD_FIELD, f"{cls.type} message: {exc}") from None


# --- client -> host ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """``hello`` (client → host, first message). Opens the handshake.

    ``name``: 1..24 printable characters, no surrounding spaces. ``lang``: ``"en"``
    or ``"zh"``. ``seat``: the seat asked for (0..5) or ``None`` for any free seat.
    ``token``: the session token of an earlier ``welcome`` to take a seat back
    after a disconnect, else ``None``. ``version``/``min_version``: the protocol
    versions the client speaks (highest/lowest); the host picks the highest it
    shares, or fails with ``version-mismatch``. ``bot`` (optional key, version 2):
    a program, not a person, plays this client's seat; the lobby shows it as a bot.
    A hello with ``bot`` true needs ``min_version`` ≥ 2 (a version-1 host then
    answers ``version-mismatch`` instead of failing on an unknown key); at its default
    ``False`` the key is left out, so a person's hello is also a valid version-1 hello.
    ``watch`` (optional key, version 3): the client joins as a spectator — it takes no
    seat and gets the public view only. A spectator's hello has ``min_version`` ≥ 3,
    ``seat`` and ``token`` nil and ``bot`` false (a spectator holds no seat to ask
    for, take back or give to a bot).
    """

    type: ClassVar[str] = "hello"
    _optional: ClassVar[dict[str, Any]] = {"bot": False, "watch": False}
    name: str
    lang: str = "en"
    seat: int | None = None
    token: str | None = None
    version: int = PROTOCOL_VERSION
    min_version: int = SUPPORTED_VERSIONS[0]
    bot: bool = False
    watch: bool = False

    def _validate(self) -> None:
        _check_int("version", self.version, 0, MAX_NONCE)
        _check_int("min_version", self.min_version, 0, self.version)
        _check_bool("bot", self.bot)
        if self.bot and self.min_version < BOT_HELLO_VERSION:
            raise FieldError("bot", f"needs min_version {BOT_HELLO_VERSION} or more (hello.bot is new in version "
                             f"{BOT_HELLO_VERSION}), got min_version {self.min_version}")
        _check_bool("watch", self.watch)
        if self.watch:
            if self.min_version < WATCH_HELLO_VERSION:
                raise FieldError("watch", f"needs min_version {WATCH_HELLO_VERSION} or more (hello.watch is new in "
                                 f"version {WATCH_HELLO_VERSION}), got min_version {self.min_version}")
            for other in ("seat", "token"):
                if getattr(self, other) is not None:
                    raise FieldError("watch", f"a spectator holds no seat: '{other}' must be null, got "
                                     f"{_short(getattr(self, other))}")
            if self.bot:
                raise FieldError("watch", "a spectator holds no seat for a bot to play: 'bot' must be false")
        _check_name("name", self.name)
        if self.lang not in LANGS:
            raise FieldError("lang", f"must be one of {', '.join(LANGS)}, got {_short(self.lang)}")
        _check_int("seat", self.seat, 0, MAX_SEATS - 1, optional=True)
        _check_token("token", self.token, optional=True)


@dataclass(frozen=True, slots=True)
class Ready(Message):
    """``ready`` (client → host, lobby): the player is (``True``) or is no longer ready to start."""

    type: ClassVar[str] = "ready"
    ready: bool = True

    def _validate(self) -> None:
        _check_bool("ready", self.ready)


@dataclass(frozen=True, slots=True)
class SeedCommit(Message):
    """``seed_commit`` (client → host, game): the player's seed commitment c_i
    (32 bytes) for the game ``game_id`` (16 bytes, from ``start``)."""

    type: ClassVar[str] = "seed_commit"
    game_id: bytes
    commitment: bytes

    def _validate(self) -> None:
        _check_bytes(self, "game_id", GAME_ID_LEN, GAME_ID_LEN)
        _check_bytes(self, "commitment", COMMITMENT_LEN, COMMITMENT_LEN)


@dataclass(frozen=True, slots=True)
class SeedReveal(Message):
    """``seed_reveal`` (client → host, game): the player's seed s_i (32 bytes) for ``game_id``."""

    type: ClassVar[str] = "seed_reveal"
    game_id: bytes
    seed: bytes

    def _validate(self) -> None:
        _check_bytes(self, "game_id", GAME_ID_LEN, GAME_ID_LEN)
        _check_bytes(self, "seed", SEED_LEN, SEED_LEN)


@dataclass(frozen=True, slots=True)
class Blind(Message):
    """``blind`` (client → host, game; version 4): one message of this seat's
    dealer-blind participant for game ``game_id`` (specs/fairness.md B.5: its
    ``hello``, a shuffle or re-lock pass, lock keys, its seed), ``msg``:
    1..32768 bytes, opaque to the protocol (signed by the participant, checked by
    :class:`~jupai_net.fairness.blind_ledger.BlindLedger`). The host relays it to every
    viewer inside a signed ``blind`` statement."""

    type: ClassVar[str] = "blind"
    game_id: bytes
    msg: bytes

    def _validate(self) -> None:
        _check_bytes(self, "game_id", GAME_ID_LEN, GAME_ID_LEN)
        _check_bytes(self, "msg", 1, MAX_BLIND_LEN)


@dataclass(frozen=True, slots=True)
class ActionMessage(Message):
    """``action`` (client → host, game): play ``action`` in answer to the state
    ``state_id`` (the engine's action count, from ``prompt``/``sync``) of game
    ``game_id``. The host refuses a stale one with ``reject`` and a ``sync``."""

    type: ClassVar[str] = "action"
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"action": _decode_action}
    game_id: bytes
    state_id: int
    action: Action

    def _validate(self) -> None:
        _check_bytes(self, "game_id", GAME_ID_LEN, GAME_ID_LEN)
        _check_int("state_id", self.state_id, 0, MAX_STATE_ID)
        _check_action("action", self.action)


@dataclass(frozen=True, slots=True)
class Chat(Message):
    """``chat`` (client → host, lobby or game): 1..300 printable characters to say at the table."""

    type: ClassVar[str] = "chat"
    text: str

    def _validate(self) -> None:
        _check_text("text", self.text, 1, MAX_CHAT_LEN)


# --- both directions -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ping(Message):
    """``ping`` (either side, lobby or game): the peer answers ``pong`` with the same ``nonce`` (0..2³²−1)."""

    type: ClassVar[str] = "ping"
    nonce: int = 0

    def _validate(self) -> None:
        _check_int("nonce", self.nonce, 0, MAX_NONCE)


@dataclass(frozen=True, slots=True)
class Pong(Message):
    """``pong`` (either side, lobby or game): answer to ``ping``, same ``nonce``."""

    type: ClassVar[str] = "pong"
    nonce: int = 0

    def _validate(self) -> None:
        _check_int("nonce", self.nonce, 0, MAX_NONCE)


@dataclass(frozen=True, slots=True)
class Bye(Message):
    """``bye`` (either side, any state): a clean goodbye; the sender sends nothing more.
    ``reason``: a code (e.g. ``quit``, ``host-shutdown``) or ``""``."""

    type: ClassVar[str] = "bye"
    reason: str = ""

    def _validate(self) -> None:
        _check_code("reason", self.reason, allow_empty=True)


@dataclass(frozen=True, slots=True)
class ErrorMessage(Message):
    """``error`` (either side, any state): a fatal problem; the sender closes the connection.
    ``code``: machine code (specs/protocol.md § Errors); ``message``: 0..500 printable characters.
    ``args`` (optional key, version 7; default empty): a map (tree limits) of values the
    receiver acts on or says in its own language, e.g. ``{"seat": 2}`` for the seat a
    ``game-running`` refusal keeps at the next game; left out when empty, and never sent
    on a connection of an older version (its client would refuse the unknown key)."""

    type: ClassVar[str] = "error"
    _trees: ClassVar[frozenset[str]] = frozenset({"args"})
    _optional: ClassVar[dict[str, Any]] = {"args": {}}
    code: str
    message: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    def _validate(self) -> None:
        _check_code("code", self.code)
        _check_text("message", self.message, 0, MAX_TEXT_LEN)
        _check_tree("args", self.args)


# --- host -> client ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """``welcome`` (host → client, answer to ``hello``): the client is admitted.

    ``version``: the negotiated protocol version. ``seat``: the client's seat
    (0..rules.players−1) or ``None`` for a spectator. ``token``: the session token
    to give in a later ``hello`` to take the seat back. ``rules``: the table's
    :class:`RuleSet` (wire form: ``RuleSet.to_wire()``); ``players``: the occupied
    seats (:class:`PlayerInfo`, unique seats). ``dealer`` (optional key, version 4):
    the scheme the table deals with its seats as they are now, ``"trusted"`` (the key
    is left out) or ``"blind"`` (specs/protocol.md §13); during a game, the running
    game's. ``table`` (optional key, version 5, informative: specs/protocol.md §6, Forward
    compatibility): the table's name as its host calls it (``Ann's table``; 1..40
    printable characters, no space at either end), for the player's screens and
    history; ``None`` (left out): not said, as by an older host.
    """

    type: ClassVar[str] = "welcome"
    _lenient: ClassVar[bool] = True
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"rules": _decode_rules, "players": _decode_players}
    _optional: ClassVar[dict[str, Any]] = {"dealer": "trusted", "table": None}
    seat: int | None
    token: str
    rules: RuleSet
    players: tuple[PlayerInfo, ...] = ()
    version: int = PROTOCOL_VERSION
    dealer: str = "trusted"
    table: str | None = None

    def _validate(self) -> None:
        _check_int("version", self.version, 0, MAX_NONCE)
        if not isinstance(self.rules, RuleSet):
            raise FieldError("rules", f"must be a RuleSet, got {_short(self.rules)}")
        _check_int("seat", self.seat, 0, self.rules.players - 1, optional=True)
        _check_token("token", self.token)
        _check_players(self)
        _check_dealer(self)
        if self.table is not None:
            _check_text("table", self.table, 1, MAX_TABLE_NAME)
            if self.table != self.table.strip():
                raise FieldError("table", f"must not start or end with a space, got {_short(self.table)}")


def _check_dealer(msg: Any) -> None:
    if msg.dealer not in DEALERS:
        raise FieldError("dealer", f"must be one of {', '.join(DEALERS)}, got {_short(msg.dealer)}")


def _check_players(msg: Any) -> None:
    players = _as_tuple(msg, "players")
    if len(players) > MAX_SEATS or not all(isinstance(p, PlayerInfo) for p in players):
        raise FieldError("players", f"must be at most {MAX_SEATS} PlayerInfo entries")
    if len({p.seat for p in players}) != len(players):
        raise FieldError("players", "names a seat twice")


@dataclass(frozen=True, slots=True)
class Lobby(Message):
    """``lobby`` (host → client, lobby or game): who holds which seat now
    (:class:`PlayerInfo` entries, unique seats; empty seats are absent). ``dealer``
    (optional key, version 4): the scheme the next game deals with these seats
    (during a game, the running game's), ``"trusted"`` (left out) or ``"blind"``."""

    type: ClassVar[str] = "lobby"
    _lenient: ClassVar[bool] = True
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"players": _decode_players}
    _optional: ClassVar[dict[str, Any]] = {"dealer": "trusted"}
    players: tuple[PlayerInfo, ...] = ()
    dealer: str = "trusted"

    def _validate(self) -> None:
        _check_players(self)
        _check_dealer(self)


@dataclass(frozen=True, slots=True)
class Start(Message):
    """``start`` (host → client, lobby → game): a game begins. ``game_id``: 16 random
    bytes naming it (echoed in seed and action messages); ``rules``: its
    :class:`RuleSet`. Also sent to a player who reconnects into a running game.
    ``dealer`` (optional key, version 4): ``"trusted"`` (specs/fairness.md Part A; the
    key is left out) or ``"blind"`` (Part B: the seat's client plays a dealer-blind
    participant and the host cannot see its cards)."""

    type: ClassVar[str] = "start"
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"rules": _decode_rules}
    _optional: ClassVar[dict[str, Any]] = {"dealer": "trusted"}
    game_id: bytes
    rules: RuleSet
    dealer: str = "trusted"

    def _validate(self) -> None:
        _check_bytes(self, "game_id", GAME_ID_LEN, GAME_ID_LEN)
        if not isinstance(self.rules, RuleSet):
            raise FieldError("rules", f"must be a RuleSet, got {_short(self.rules)}")
        _check_dealer(self)


@dataclass(frozen=True, slots=True)
class Statement(Message):
    """``statement`` (host → client, lobby or game): a signed fairness statement,
    opaque to the protocol (made and checked by :mod:`jupai_net.fairness`).
    ``kind``: a code naming it (for dispatch; the signed ``body`` is authoritative);
    ``body``: 1..65536 bytes; ``sig``: 0..256 bytes (empty: a deferred signature,
    protocol version 6, specs/fairness.md §6.6)."""

    type: ClassVar[str] = "statement"
    kind: str
    body: bytes
    sig: bytes

    def _validate(self) -> None:
        _check_code("kind", self.kind)
        _check_bytes(self, "body", 1, MAX_STATEMENT_LEN)
        _check_bytes(self, "sig", 0, MAX_SIG_LEN)

    def encode(self, seq: int, max_frame: int) -> bytes:
        """As :meth:`Message.encode`, byte for byte, in one msgpack call (a host sends
        every seat a ``statement`` after every action; specs/performance.md § Host)."""
        if type(self.kind) is not str or type(self.body) is not bytes or type(self.sig) is not bytes:
            return Message.encode(self, seq, max_frame)
        return frame_payload(_VIEW_PACKER._packer.pack(
            {"type": "statement", "seq": seq, "kind": self.kind, "body": self.body, "sig": self.sig}), max_frame)


@dataclass(frozen=True, slots=True)
class Prompt(Message):
    """``prompt`` (host → client, game): the seat must act on state ``state_id``.

    ``legal``: the legal actions (0..4096 :class:`Action`; empty at a dealer-blind
    table, where the host cannot know them and the client computes its own,
    specs/protocol.md §13); ``timeout_ms``: how long
    the host waits from sending this prompt, in milliseconds (``None`` = no limit),
    after which it plays a default action; ``pending``: what is awaited, 0..200
    printable characters (e.g. ``"attack"``, ``"answer"``).
    """

    type: ClassVar[str] = "prompt"
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"legal": _decode_actions}
    state_id: int
    legal: tuple[Action, ...]
    timeout_ms: int | None = None
    pending: str = ""

    def _validate(self) -> None:
        _check_int("state_id", self.state_id, 0, MAX_STATE_ID)
        legal = _as_tuple(self, "legal")
        if not 0 <= len(legal) <= MAX_LEGAL:
            raise FieldError("legal", f"must hold 0..{MAX_LEGAL} actions, got {len(legal)}")
        for a in legal:
            _check_action("legal", a)
        _check_int("timeout_ms", self.timeout_ms, 0, MAX_TIMEOUT_MS, optional=True)
        _check_text("pending", self.pending, 0, MAX_PENDING_LEN)


@dataclass(frozen=True, slots=True)
class Sync(Message):
    """``sync`` (host → client, game): the full view of state ``state_id`` for this
    seat: ``observation``, the engine's per-seat observation, a map with string keys
    holding only nil/bool/int/finite float/str/bytes/list/map, at most 16 levels deep
    and 50 000 values. Received lists and maps are ``list``/``dict``."""

    type: ClassVar[str] = "sync"
    _trees: ClassVar[frozenset[str]] = frozenset({"observation"})
    state_id: int
    observation: dict[str, Any]

    def _validate(self) -> None:
        _check_int("state_id", self.state_id, 0, MAX_STATE_ID)
        _check_tree("observation", self.observation)

    def encode(self, seq: int, max_frame: int) -> bytes:
        """As :meth:`Message.encode`, byte for byte, with the observation's ``log`` and
        ``players`` entries packed once per entry object (:data:`_VIEW_PACKER`: the
        engine shares them between seats and versions and never changes them; a host
        sends every seat a ``sync`` after every action)."""
        if type(self.observation) is not dict:
            return Message.encode(self, seq, max_frame)
        head = _VIEW_PACKER._packer.pack({"type": self.type, "seq": seq, "state_id": self.state_id})
        return frame_payload(map_header(4) + head[1:] + _OBSERVATION_KEY + _VIEW_PACKER.pack_map(self.observation),
                             max_frame)


#: Packs the ``sync`` observations a host sends (:meth:`Sync.encode`).
_VIEW_PACKER = SharedPacker(frozenset({"log", "players"}))
_OBSERVATION_KEY = _VIEW_PACKER._packer.pack("observation")


@dataclass(frozen=True, slots=True)
class Reject(Message):
    """``reject`` (host → client, lobby or game): the client's ``action`` (or seed message)
    was refused, not fatal. ``state_id``: the state the refused action named (``None``
    for a seed message); ``code``: e.g. ``stale-state``; ``message``: 0..500 printable
    characters (English). After ``stale-state`` the host sends a ``sync``. ``args``
    (optional key, version 8; default empty): a map (tree limits) of why, e.g.
    ``{"illegal": {"code": "not-in-hand", "args": {"cards": ["7♠"]}}}`` — the engine's
    :class:`~jupai_net.engine.IllegalAction` code and values
    (:meth:`~jupai_net.engine.IllegalAction.to_wire`), from which a client says the
    reason in its own language (specs/protocol.md §7b); left out when empty, and never
    sent on a connection of an older version (its client would refuse the unknown key)."""

    type: ClassVar[str] = "reject"
    _trees: ClassVar[frozenset[str]] = frozenset({"args"})
    _optional: ClassVar[dict[str, Any]] = {"args": {}}
    state_id: int | None
    code: str
    message: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    def _validate(self) -> None:
        _check_int("state_id", self.state_id, 0, MAX_STATE_ID, optional=True)
        _check_code("code", self.code)
        _check_text("message", self.message, 0, MAX_TEXT_LEN)
        _check_tree("args", self.args)


@dataclass(frozen=True, slots=True)
class ChatRelay(Message):
    """``chat`` (host → client, lobby or game): a line of chat. ``seat``: the speaker's
    seat, ``None`` for the host itself or a spectator; ``name``: the speaker's name;
    ``text``: 1..300 printable characters."""

    type: ClassVar[str] = "chat"
    _lenient: ClassVar[bool] = True
    seat: int | None
    name: str
    text: str

    def _validate(self) -> None:
        _check_int("seat", self.seat, 0, MAX_SEATS - 1, optional=True)
        _check_name("name", self.name)
        _check_text("text", self.text, 1, MAX_CHAT_LEN)


@dataclass(frozen=True, slots=True)
class Notice(Message):
    """``notice`` (host → client, lobby or game): information, no answer expected.
    ``code``: e.g. ``turn-timeout``; ``text``: 0..500 printable characters (English;
    clients may translate by code). ``args`` (optional key, version 4; default empty):
    a map (tree limits) of the sentence's values, e.g. ``{"name": "Ann", "seat": 2}``,
    from which a client says the notice in its own language
    (:mod:`jupai_net.messages.notices`); left out when empty, and never sent to a
    client of an older version."""

    type: ClassVar[str] = "notice"
    _lenient: ClassVar[bool] = True
    _trees: ClassVar[frozenset[str]] = frozenset({"args"})
    _optional: ClassVar[dict[str, Any]] = {"args": {}}
    code: str
    text: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    def _validate(self) -> None:
        _check_code("code", self.code)
        _check_text("text", self.text, 0, MAX_TEXT_LEN)
        _check_tree("args", self.args)


@dataclass(frozen=True, slots=True)
class End(Message):
    """``end`` (host → client, game → lobby): the game is over. ``reason``: a code
    (``finished``, ``aborted``, …); ``result``: a map like ``sync.observation``
    (e.g. the final standings), may be empty."""

    type: ClassVar[str] = "end"
    _trees: ClassVar[frozenset[str]] = frozenset({"result"})
    reason: str = "finished"
    result: dict[str, Any] = field(default_factory=dict)

    def _validate(self) -> None:
        _check_code("reason", self.reason)
        _check_tree("result", self.result)


@dataclass(frozen=True, slots=True)
class Series(Message):
    """``series`` (host → client, game or lobby; protocol version 3): the scoreboard of
    the series of games at this table (specs/rules.md § 15), sent right before the
    ``end`` of each game (so the ending screen shows it) to clients that negotiated
    version 3 or later.

    ``series_id``: 16 bytes naming the series; ``game``: the number of the game just
    over, 1..2³²−1; ``games``: the games the series has (``None``: until the host
    stops); ``final``: no game of this series follows (the last one was played, or the
    host stops); ``standings``: at most 64 :class:`SeriesStanding`, best first, unique
    names; ``abandoned`` (optional key, informative; left out at 0): how many of the
    ``game`` games so far were abandoned (0..``game``), so the final scoreboard can say
    ``1 game played, 2 abandoned`` (an older host leaves it out: read as 0).
    """

    type: ClassVar[str] = "series"
    _lenient: ClassVar[bool] = True
    _optional: ClassVar[dict[str, Any]] = {"abandoned": 0}
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"standings": _decode_standings}
    series_id: bytes
    game: int
    games: int | None = None
    final: bool = False
    standings: tuple[SeriesStanding, ...] = ()
    abandoned: int = 0

    def _validate(self) -> None:
        _check_bytes(self, "series_id", GAME_ID_LEN, GAME_ID_LEN)
        _check_int("game", self.game, 1, MAX_NONCE)
        _check_int("games", self.games, 1, MAX_NONCE, optional=True)
        _check_bool("final", self.final)
        _check_int("abandoned", self.abandoned, 0, self.game)
        standings = _as_tuple(self, "standings")
        if len(standings) > MAX_STANDINGS or not all(isinstance(x, SeriesStanding) for x in standings):
            raise FieldError("standings", f"must be at most {MAX_STANDINGS} SeriesStanding entries")
        if len({x.name for x in standings}) != len(standings):
            raise FieldError("standings", "names a player twice")


#: Message classes a client sends, by wire type.
CLIENT_MESSAGES: dict[str, type[Message]] = {
    cls.type: cls
    for cls in (Hello, Ready, SeedCommit, SeedReveal, Blind, ActionMessage, Chat, Ping, Pong, Bye, ErrorMessage)
}
#: Message classes a host sends, by wire type (``chat`` is :class:`ChatRelay` here).
HOST_MESSAGES: dict[str, type[Message]] = {
    cls.type: cls
    for cls in (
        Welcome, Lobby, Start, Statement, Prompt, Sync, Reject, ChatRelay, Notice, End, Series, Ping, Pong, Bye,
        ErrorMessage,
    )
}
