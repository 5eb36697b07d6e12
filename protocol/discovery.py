"""Finding a table on the LAN: what a host announces with DNS-SD over multicast DNS
(RFC 6763 / RFC 6762), sans-IO (specs/protocol.md § Discovery).

A host announces one service instance of type :data:`SERVICE_TYPE` per table, named
after the table (``Ann's table._jupai._tcp.local.``), with its IPv4 addresses, its TCP
port and these TXT keys (UTF-8 values)::

    v      protocol version the host speaks (decimal)
    seats  seats at the table, 2..6
    free   seats still free for people, 0..seats
    state  "lobby" or "playing"
    code   the first group of the host's join code, e.g. "WYSM3": enough to
           tell tables apart and to compare with the host's screen, never trusted
           (the whole code is checked against the certificate as usual)

Everything an announcement carries is untrusted: :func:`table_from_service` checks every
field and returns a :class:`TableAd` or raises :class:`DiscoveryError`. The IO (python-
zeroconf) lives in ``jupai_net.host.announce`` and ``jupai_net.client.discover``.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .limits import MAX_TABLE_NAME

#: The DNS-SD service type of a jupai table.
SERVICE_TYPE = "_jupai._tcp.local."
_MAX_LABEL_BYTES = 63
#: TXT keys, in the order written.
TXT_KEYS = ("v", "seats", "free", "state", "code")
STATES = ("lobby", "playing")


class DiscoveryError(ValueError):
    """An announcement that cannot be a jupai table; ``str(exc)`` says why."""


@dataclass(frozen=True, slots=True)
class TableAd:
    """One announced table.

    ``name``: the table's name (printable, at most :data:`MAX_TABLE_NAME` characters);
    ``addresses``: IPv4 addresses as dotted strings, as announced; ``port``: TCP port;
    ``seats``/``free``: table size and seats still free for people; ``version``: the
    protocol version the host speaks; ``state``: ``"lobby"`` or ``"playing"``;
    ``code``: the start of the host's join code (for people to compare, never trusted)."""

    name: str
    addresses: tuple[str, ...]
    port: int
    seats: int
    free: int
    version: int
    state: str = "lobby"
    code: str = ""

    @property
    def address(self) -> str:
        """The first announced address (what ``jupai join`` dials)."""
        return self.addresses[0]


def clean_name(name: str) -> str:
    """``name`` as a table name: white space folded, control and format characters
    dropped, cut to :data:`MAX_TABLE_NAME` characters and to what fits one DNS label.
    Raises :class:`DiscoveryError` when nothing printable is left."""
    kept = "".join(c for c in name if unicodedata.category(c)[0] != "C" or c == " ")
    text = " ".join(kept.split())[:MAX_TABLE_NAME]
    while len(text.encode("utf-8")) > _MAX_LABEL_BYTES:
        text = text[:-1]
    text = text.rstrip(".").strip()
    if not text:
        raise DiscoveryError("a table name needs at least one printable character")
    return text


def instance_name(table_name: str) -> str:
    """The DNS-SD service instance name of a table: ``<name>.`` + :data:`SERVICE_TYPE`."""
    return f"{clean_name(table_name)}.{SERVICE_TYPE}"


def txt_properties(ad: TableAd) -> dict[str, str]:
    """The TXT record of ``ad`` (keys :data:`TXT_KEYS`)."""
    return {"v": str(ad.version), "seats": str(ad.seats), "free": str(ad.free), "state": ad.state, "code": ad.code}


def code_prefix(join_code: str, groups: int = 1) -> str:
    """The first ``groups`` dash-separated groups of a join code (``ABCD-EFGH``)."""
    return "-".join(join_code.split("-")[:groups])


def _text(props: Mapping[bytes | str, bytes | str | None], key: str) -> str:
    for k in (key, key.encode()):
        if k in props:
            value = props[k]
            if value is None:
                break
            if isinstance(value, bytes):
                try:
                    value = value.decode("utf-8")
                except UnicodeDecodeError:
                    raise DiscoveryError(f"TXT key {key!r} is not UTF-8") from None
            return value
    raise DiscoveryError(f"TXT key {key!r} is missing")


def _int(props: Mapping, key: str, low: int, high: int) -> int:
    text = _text(props, key)
    if not text.isascii() or not text.isdigit() or not low <= int(text) <= high:
        raise DiscoveryError(f"TXT key {key!r} must be a whole number {low}..{high}, not {text[:20]!r}")
    return int(text)


def table_from_service(instance: str, addresses: Iterable[str], port: int,
                       properties: Mapping[bytes | str, bytes | str | None]) -> TableAd:
    """A :class:`TableAd` from a resolved service: its instance name (with or without the
    ``._jupai._tcp.local.`` suffix), addresses, port and TXT properties. Raises
    :class:`DiscoveryError` naming the first bad field."""
    label = instance[: -len(SERVICE_TYPE) - 1] if instance.endswith("." + SERVICE_TYPE) else instance
    name = clean_name(label)
    addrs = []
    for a in addresses:
        try:
            ip = ipaddress.ip_address(a)
        except ValueError:
            raise DiscoveryError(f"{a[:40]!r} is not an IP address") from None
        if ip.version == 4 and not ip.is_unspecified and not ip.is_multicast:
            addrs.append(str(ip))
    if not addrs:
        raise DiscoveryError("the announcement has no IPv4 address")
    if not isinstance(port, int) or not 1 <= port <= 65535:
        raise DiscoveryError(f"port {port!r} is not 1..65535")
    seats = _int(properties, "seats", 2, 6)
    free = _int(properties, "free", 0, seats)
    version = _int(properties, "v", 1, 999)
    state = _text(properties, "state")
    if state not in STATES:
        raise DiscoveryError(f"TXT key 'state' must be one of {', '.join(STATES)}")
    code = _text(properties, "code")
    if len(code) > 40 or not all(c.isascii() and (c.isalnum() or c == "-") for c in code):
        raise DiscoveryError("TXT key 'code' must be letters, digits and dashes")
    return TableAd(name, tuple(dict.fromkeys(addrs)), port, seats, free, version, state, code)


def find_table(tables: Iterable[TableAd], name: str) -> TableAd | None:
    """The table called ``name`` (case and white space ignored), else the only table whose
    name starts with it, else ``None`` (none, or several that start with it)."""
    want = " ".join(name.split()).casefold()
    tables = list(tables)
    exact = [t for t in tables if t.name.casefold() == want]
    if exact:
        return exact[0]
    starts = [t for t in tables if t.name.casefold().startswith(want)]
    return starts[0] if len(starts) == 1 else None
