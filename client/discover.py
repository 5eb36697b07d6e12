"""Finding tables on the LAN: browse DNS-SD over multicast DNS for a few seconds
(python-zeroconf) and read what each host announces (specs/client.md § Finding a table).

:func:`browse` blocks (call it from a thread in trio code, or before trio starts).
Announcements are untrusted: :func:`jupai_net.protocol.discovery.table_from_service`
checks each; a bad one is skipped with a log line.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from jupai_net.protocol.discovery import SERVICE_TYPE, DiscoveryError, TableAd, table_from_service

log = logging.getLogger("jupai_net.client.discover")

#: How long ``jupai join`` listens for tables (seconds).
BROWSE_SECONDS = 3.0


def browse(seconds: float = BROWSE_SECONDS, *, until: Callable[[list[TableAd]], bool] | None = None,
           zeroconf_factory: Callable[[], Any] | None = None, browser_factory: Callable[..., Any] | None = None,
           clock: Callable[[], float] = time.monotonic) -> list[TableAd]:
    """The tables heard within ``seconds`` (sorted by name), or as soon as ``until(tables)``
    is true. ``zeroconf_factory``/``browser_factory`` replace python-zeroconf's
    ``Zeroconf`` and ``ServiceBrowser`` (tests inject a transport). Raises ``OSError``
    when multicast DNS cannot be used at all, or is turned off (``$JUPAI_NO_MULTICAST``:
    the test suite sets it, so no default run sends multicast on a real interface)."""
    if zeroconf_factory is None or browser_factory is None:
        import os

        if os.environ.get("JUPAI_NO_MULTICAST"):
            raise OSError(0, "multicast DNS is turned off ($JUPAI_NO_MULTICAST is set)")
        from zeroconf import IPVersion, ServiceBrowser, Zeroconf

        zeroconf_factory = zeroconf_factory or (lambda: Zeroconf(ip_version=IPVersion.V4Only))
        browser_factory = browser_factory or ServiceBrowser
    found: dict[str, TableAd] = {}
    names: list[str] = []
    changed = threading.Event()

    def on_change(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        kind = getattr(state_change, "name", str(state_change))
        if kind in ("Added", "Updated"):
            names.append(name)
        elif kind == "Removed":
            found.pop(name, None)
        changed.set()

    zc = zeroconf_factory()
    try:
        browser = browser_factory(zc, SERVICE_TYPE, handlers=[on_change])
        end = clock() + seconds
        while True:
            while names:
                name = names.pop(0)
                ad = _resolve(zc, name)
                if ad is not None:
                    found[name] = ad
            tables = sorted(found.values(), key=lambda t: (t.name.casefold(), t.address))
            if until is not None and until(tables):
                break
            left = end - clock()
            if left <= 0:
                break
            changed.wait(min(left, 0.1))
            changed.clear()
        try:
            browser.cancel()
        except Exception:  # noqa: BLE001
            pass
    finally:
        try:
            zc.close()
        except Exception:  # noqa: BLE001
            pass
    return sorted(found.values(), key=lambda t: (t.name.casefold(), t.address))


def _resolve(zc: Any, name: str) -> TableAd | None:
    try:
        info = zc.get_service_info(SERVICE_TYPE, name, timeout=1500)
    except Exception as exc:  # noqa: BLE001
        log.info("cannot resolve %r: %s", name, exc)
        return None
    if info is None:
        return None
    try:
        return table_from_service(name, info.parsed_addresses(), info.port, info.properties or {})
    except DiscoveryError as exc:
        log.warning("ignoring the announcement %r: %s", name[:80], exc)
        return None


class NoTable(Exception):
    """No table could be chosen; ``str(exc)`` is the sentence to show the player."""


def is_address(text: str, resolve: Callable[[str], bool] | None = None) -> bool:
    """True when ``text`` should be dialled as ``HOST[:PORT]`` rather than looked up as an
    announced table name: an IP address (IPv6 in brackets), ``localhost``, or a host name
    that resolves (``resolve``, by default ``socket.getaddrinfo``)."""
    import ipaddress

    from .cli import parse_address

    try:
        host, _ = parse_address(text)
    except ValueError:
        return False
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
        return True
    except ValueError:
        pass
    if host.lower() == "localhost" or host.lower().endswith(".local"):
        return True
    if resolve is None:
        def resolve(name: str) -> bool:
            import socket

            try:
                socket.getaddrinfo(name, None)
                return True
            except (OSError, UnicodeError):
                return False
    return resolve(host)


def state_text(ad: TableAd, lang: str) -> str:
    """What a table is doing, as the LAN list says it: ``2 of 4 seats free · waiting
    for players`` (the seat count as every screen says it, ``seats.free``), ``full``
    (a lobby with no free seat), ``game running``."""
    from .i18n import t

    if ad.state == "playing":
        return t("discover.playing", lang)
    if ad.free <= 0:
        return t("discover.full", lang)
    return t("discover.lobby", lang, seats=t("seats.free", lang, free=ad.free, total=ad.seats))


def table_lines(tables: list[TableAd], lang: str) -> list[str]:
    """One numbered line per table: name, address:port, free seats and state, code."""
    from .i18n import t

    return [t("discover.line", lang, n=i, name=ad.name, address=f"{ad.address}:{ad.port}",
              state=state_text(ad, lang), code=ad.code or "?")
            for i, ad in enumerate(tables, 1)]


def _for(key: str, watch: bool) -> str:
    """``key``, or its ``jupai watch`` wording (``key_watch``) when watching."""
    return key + "_watch" if watch else key


def pick_choices(count: int) -> str:
    """The numbers a pick may be, as every range is written (specs/client.md § Command
    line): ``1`` for one table (not ``1-1``), else ``1-3``."""
    return "1" if count == 1 else f"1-{count}"


def choose_table(name: str | None, lang: str, *, say: Callable[[str], None], read: Callable[[str], str] | None,
                 find: Callable[..., list[TableAd]] = browse, watch: bool = False) -> TableAd:
    """The table to join (``watch``: to watch, for ``jupai watch``): the one called
    ``name`` (:func:`find_table`), or, with no name, the one the player picks by number
    from the list heard on the LAN (``read`` asks ``Join which table? [1-3, q to
    quit]``, ``[1, q to quit]`` for one table, ``Watch which table?`` when watching;
    ``None`` when nobody can answer, then a single table is taken and several are
    listed with a request to name one). ``say`` shows a line. Raises
    :class:`NoTable` with the sentence to show."""
    from jupai_net.protocol.discovery import find_table

    from .i18n import t

    say(t("discover.listening", lang, seconds=f"{BROWSE_SECONDS:g}"))
    try:
        if name is not None:
            tables = find(until=lambda ts: find_table(ts, name) is not None)
        else:
            tables = find()
    except OSError as exc:
        raise NoTable(t(_for("discover.no_multicast", watch), lang, reason=exc.strerror or exc)) from None
    if name is not None:
        ad = find_table(tables, name)
        if ad is None:
            from jupai_net.messages import names_text

            heard = names_text((ad.name for ad in tables), lang) or t("discover.none_heard", lang)
            raise NoTable(t("discover.no_such", lang, name=name, heard=heard))
        return ad
    if not tables:
        raise NoTable(t(_for("discover.nothing", watch), lang))
    for line in table_lines(tables, lang):
        say(line)
    if len(tables) == 1 and read is None:
        return tables[0]
    if read is None:
        raise NoTable(t(_for("discover.name_one", watch), lang))
    while True:
        try:
            answer = read(t(_for("discover.pick", watch), lang,
                            choices=pick_choices(len(tables)))).strip()
        except EOFError:
            raise NoTable(t(_for("discover.name_one", watch), lang)) from None
        if answer.isdigit() and 1 <= int(answer) <= len(tables):
            return tables[int(answer) - 1]
        if answer.lower() in ("q", "quit"):
            raise NoTable(t("discover.cancelled", lang))
        say(t("discover.bad_pick_one", lang) if len(tables) == 1 else
            t("discover.bad_pick", lang, choices=pick_choices(len(tables))))
