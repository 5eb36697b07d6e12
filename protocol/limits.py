"""Every size limit of the wire protocol, in one place (specs/protocol.md § Limits).

Sizes of frames, strings and byte strings are in **bytes** (msgpack counts a
string's UTF-8 bytes); text lengths checked after decoding (names, chat, error
text) are in **characters**. Changing a limit that a peer can observe is a wire
change: raise :data:`PROTOCOL_VERSION` with it.
"""

from __future__ import annotations

from jupai_net.rules import MAX_PLAYERS as _MAX_PLAYERS

#: The protocol version this program speaks best (hello ``version``).
#: Version 2 = version 1 plus the optional ``bot`` key of ``hello``; version 3 = version 2
#: plus the optional ``watch`` key of ``hello`` (spectators) and the host's ``series``
#: message (the scoreboard of games in a row), one release (specs/protocol.md §6).
#: Version 4 = version 3 plus dealer-blind games: the client's ``blind`` message and the
#: optional ``dealer`` key of ``start`` (specs/protocol.md §13), and the optional ``args``
#: key of ``notice`` (§7a). Version 5 = version 4 plus hash-chained fairness statements
#: (body version 2, specs/fairness.md §6.5): no message changes, only what ``statement``
#: carries (specs/protocol.md §6). Version 6 = version 5 plus deferred signatures (body
#: version 3, specs/fairness.md §6.6): a ``statement``'s ``sig`` may be empty. Version 7 =
#: version 6 plus the optional ``args`` key of ``error`` (the values of its sentence, as
#: ``notice.args``: the seat a waiting list keeps, specs/protocol.md § Errors). Version 8
#: = version 7 plus the optional ``args`` key of ``reject`` (why an action was refused,
#: as the engine's :class:`~jupai_net.engine.IllegalAction` code and values, so a client
#: says it in its own language, specs/protocol.md §7b).
PROTOCOL_VERSION = 8
#: Every version this program can speak, lowest first (hello ``min_version``..``version``).
SUPPORTED_VERSIONS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
#: The first version with ``hello.bot``: a hello with ``bot`` true has ``min_version`` at least this.
BOT_HELLO_VERSION = 2
#: The first version with ``hello.watch``: a spectator's hello has ``min_version`` at least this.
WATCH_HELLO_VERSION = 3
#: The first version with the ``series`` message: a host sends it only to clients that
#: negotiated this version or a later one.
SERIES_VERSION = 3
#: The first version with dealer-blind games (``blind`` messages, ``start.dealer``): a
#: host deals blind only when every seat's client negotiated this version or a later one.
BLIND_VERSION = 4
#: The dealer schemes a ``start`` may name (specs/fairness.md Part A, Part B).
DEALERS: tuple[str, ...] = ("trusted", "blind")
#: The first version with ``notice.args``: a host sends the args only to clients that
#: negotiated this version or a later one (older ones get the English ``text`` alone).
NOTICE_ARGS_VERSION = 4
#: The first version with ``error.args``: a host sends them only to a connection whose
#: hello negotiated this version or a later one (an older client refuses an ``error``
#: with a key it does not know, and reads the English ``message`` alone).
ERROR_ARGS_VERSION = 7
#: The first version with ``reject.args``: a host sends them only to a connection whose
#: hello negotiated this version or a later one (an older client refuses a ``reject``
#: with a key it does not know, and reads the English ``message`` alone).
REJECT_ARGS_VERSION = 8
#: The first version whose clients read hash-chained statements (body version 2,
#: specs/fairness.md §6.5): a host chains the stream of a seat whose client negotiated
#: it (or a later one) and of its own bots, and the spectators' stream; an older
#: spectator gets the spectators' stream in version-1 bodies.
CHAIN_VERSION = 5
#: The first version whose clients read version-3 bodies (specs/fairness.md §6.6): a
#: host defers the signatures of the ``step`` statements to a seat whose client
#: negotiated it (or a later one), and of its own bots, except the step after which
#: that seat is to move; a ``statement`` to such a seat may carry an empty ``sig``.
DEFER_VERSION = 6
#: The first version whose ``welcome`` carries the table's name (``table``, an
#: informative optional key, specs/protocol.md §4, §6): a host leaves it out for older
#: connections, whose clients may be of a release that refuses keys it does not know.
TABLE_NAME_VERSION = 5

#: Longest table name (characters): ``welcome.table`` and the LAN announcement's name
#: (specs/protocol.md §4; DNS-SD instance labels hold at most 63 bytes of UTF-8).
MAX_TABLE_NAME = 40

# --- framing -----------------------------------------------------------------
#: Bytes of the big-endian unsigned length prefix of a frame.
HEADER_SIZE = 4
#: Largest payload (the msgpack map, without the 4-byte prefix). Checked on the
#: prefix alone, before any byte of the payload is buffered.
MAX_FRAME = 256 * 1024

# --- msgpack unpacker limits (per object, in one frame) ------------------------
#: Longest msgpack str (UTF-8 bytes).
MAX_STR_LEN = 4096
#: Longest msgpack bin (bytes); the statement body is the largest.
MAX_BIN_LEN = 64 * 1024
#: Most elements in one msgpack array.
MAX_ARRAY_LEN = 4096
#: Most pairs in one msgpack map.
MAX_MAP_LEN = 1024
#: msgpack ext types are not used: any ext object is refused.
MAX_EXT_LEN = 0

# --- free-form trees (sync observation, end result) ----------------------------
#: Deepest nesting of maps/arrays in a tree, the tree itself being depth 1.
MAX_TREE_DEPTH = 16
#: Most values (maps, arrays and scalars together) in one tree.
MAX_TREE_NODES = 50_000

# --- fields ---------------------------------------------------------------------
#: Seats are 0..MAX_SEATS-1 (the rules engine's largest table).
MAX_SEATS = _MAX_PLAYERS
#: Player names: 1..24 printable characters, no leading/trailing space.
MAX_NAME_LEN = 24
#: Chat text: 1..300 printable characters.
MAX_CHAT_LEN = 300
#: Error, notice and reject text: 0..500 printable characters.
MAX_TEXT_LEN = 500
#: Prompt ``pending`` description: 0..200 printable characters.
MAX_PENDING_LEN = 200
#: Machine codes (error/notice/reject codes, bye reasons, statement kinds, end
#: reasons): 1..32 chars ``[a-z][a-z0-9_.-]*``.
MAX_CODE_LEN = 32
#: Session tokens: 16..64 chars ``[A-Za-z0-9_-]`` (e.g. ``secrets.token_urlsafe(24)``).
MIN_TOKEN_LEN, MAX_TOKEN_LEN = 16, 64
#: Game ids are exactly 16 random bytes (128 bit).
GAME_ID_LEN = 16
#: Seed commitments and seeds are exactly 32 bytes.
COMMITMENT_LEN = 32
SEED_LEN = 32
#: Signed fairness statements: body 1..MAX_STATEMENT_LEN bytes, signature 1..MAX_SIG_LEN bytes.
MAX_STATEMENT_LEN = MAX_BIN_LEN
MAX_SIG_LEN = 256
#: A participant message of a dealer-blind deal (specs/fairness.md B.5): 1..MAX_BLIND_LEN
#: bytes (a 53-card re-lock pass is about 3.5 KB).
MAX_BLIND_LEN = 32 * 1024
#: Most legal actions in one prompt.
MAX_LEGAL = MAX_ARRAY_LEN
#: Sequence numbers and ping nonces are 0..MAX_SEQ; state ids 0..MAX_STATE_ID.
MAX_SEQ = 2**63 - 1
MAX_NONCE = 2**32 - 1
MAX_STATE_ID = 2**32 - 1
#: Prompt timeout, milliseconds (at most one day).
MAX_TIMEOUT_MS = 86_400_000
#: Players in one ``series`` scoreboard (people who left and bots that took their seats
#: included); a series with more lists the best ones.
MAX_STANDINGS = 64
#: Language codes a client may ask for.
LANGS: tuple[str, ...] = ("en", "zh")

#: Keyword arguments for :func:`msgpack.unpackb` that enforce the limits above.
UNPACK_LIMITS = dict(
    raw=False,
    strict_map_key=True,
    use_list=True,
    max_str_len=MAX_STR_LEN,
    max_bin_len=MAX_BIN_LEN,
    max_array_len=MAX_ARRAY_LEN,
    max_map_len=MAX_MAP_LEN,
    max_ext_len=MAX_EXT_LEN,
)
