"""Announcing a table on the LAN with DNS-SD over multicast DNS (python-zeroconf)
(specs/host.md § Announcing the table, specs/protocol.md § Discovery).

:class:`Announcer` registers one service instance for the table and updates its TXT
record as seats fill. python-zeroconf runs its own threads and its register/update/
unregister calls block for a moment (it probes and announces), so the trio host calls
them through :func:`trio.to_thread.run_sync` (:meth:`Announcer.run`).

The host never announces when it listens on a loopback address only (``jupai play``,
every test), with ``--no-announce``, or when ``$JUPAI_NO_MULTICAST`` is set.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from jupai_net.protocol.discovery import SERVICE_TYPE, TableAd, instance_name, txt_properties

log = logging.getLogger("jupai_net.host.announce")


def should_announce(bind: str, no_announce: bool = False, environ: dict[str, str] | None = None) -> bool:
    """True when a host listening on ``bind`` ("" = every interface) should announce:
    not ``--no-announce``, no ``$JUPAI_NO_MULTICAST``, and not a loopback-only address."""
    env = os.environ if environ is None else environ
    if no_announce or env.get("JUPAI_NO_MULTICAST"):
        return False
    if bind in ("", "0.0.0.0", "::"):
        return True
    try:
        return not ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return bind != "localhost"


class Announcer:
    """One table announced on the LAN while the host runs.

    ``ad`` is what to announce (:class:`TableAd`; its ``addresses`` are the host's LAN
    addresses); ``zeroconf_factory`` makes the python-zeroconf object (tests inject a
    fake transport). :meth:`start`, :meth:`update` and :meth:`close` block: call them
    from a thread (:meth:`run` does, from trio). Network errors are logged, never raised:
    a table that cannot be announced can still be joined by address."""

    def __init__(self, ad: TableAd, zeroconf_factory: Callable[[], Any] | None = None):
        self.ad = ad
        self._factory = zeroconf_factory
        self._zc: Any = None
        self._info: Any = None

    def _service_info(self, ad: TableAd) -> Any:
        from zeroconf import ServiceInfo

        return ServiceInfo(
            SERVICE_TYPE,
            instance_name(ad.name),
            addresses=[socket.inet_aton(a) for a in ad.addresses],
            port=ad.port,
            properties=txt_properties(ad),
            server=f"{socket.gethostname().split('.')[0] or 'jupai'}.local.",
        )

    def start(self) -> bool:
        """Register the service (allowing a renamed instance on a name clash); True when
        announced."""
        try:
            if self._factory is not None:
                self._zc = self._factory()
            else:
                from zeroconf import IPVersion, Zeroconf

                self._zc = Zeroconf(ip_version=IPVersion.V4Only)
            self._info = self._service_info(self.ad)
            self._zc.register_service(self._info, allow_name_change=True)
        except Exception as exc:  # noqa: BLE001 - no multicast here: still joinable by address
            log.warning("cannot announce the table on the LAN: %s", exc)
            self.close()
            return False
        log.info("announced %r on the LAN (%s)", self.ad.name, SERVICE_TYPE)
        return True

    def update(self, *, free: int | None = None, state: str | None = None) -> None:
        """Announce new ``free`` seats / ``state`` (no-op when unchanged or not started)."""
        new = replace(self.ad, free=self.ad.free if free is None else free, state=self.ad.state if state is None else state)
        if new == self.ad or self._zc is None:
            self.ad = new
            return
        self.ad = new
        try:
            info = self._service_info(new)
            info.name = self._info.name  # keep the name the network agreed to
            self._zc.update_service(info)
            self._info = info
        except Exception as exc:  # noqa: BLE001
            log.warning("cannot update the table's announcement: %s", exc)

    def close(self) -> None:
        """Withdraw the announcement and stop python-zeroconf (idempotent)."""
        zc, self._zc = self._zc, None
        if zc is None:
            return
        try:
            if self._info is not None:
                zc.unregister_service(self._info)
        except Exception as exc:  # noqa: BLE001
            log.debug("unregister failed: %s", exc)
        try:
            zc.close()
        except Exception as exc:  # noqa: BLE001
            log.debug("zeroconf close failed: %s", exc)

    async def run(self, updates: Any) -> None:
        """Announce until cancelled, applying every ``(free, state)`` pair received on the
        trio channel ``updates``; withdraws the announcement on the way out."""
        import trio

        started = await trio.to_thread.run_sync(self.start)
        try:
            async for free, state in updates:
                if started:
                    await trio.to_thread.run_sync(lambda f=free, s=state: self.update(free=f, state=s))
        finally:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(self.close)


class Listening(NamedTuple):
    """One address the host answers on: ``address`` as a player types it (an IPv6
    link-local one with its ``%interface``) and its ``scope``: ``lan`` (IPv4, IPv6
    global or unique-local: other machines reach it), ``link-local`` (only from the same
    network link) or ``loopback`` (only from this machine)."""

    address: str
    scope: str


def get_adapters() -> Sequence[Any]:
    """This machine's interfaces and their addresses (``ifaddr.get_adapters()``; tests
    replace it with a list of their own, never with the real network)."""
    import ifaddr

    return ifaddr.get_adapters()


def listen_addresses(adapters: Sequence[Any] | None = None, families: str = "46") -> list[Listening]:
    """Every address of every interface (``adapters``, default :func:`get_adapters`) of
    the IP ``families`` (``"4"``, ``"6"`` or both) that a host listening on all of them
    (``0.0.0.0`` and ``[::]``) answers on: LAN addresses first (IPv4, then IPv6), then
    link-local, then loopback; each once. Unspecified and multicast addresses are left out."""
    found: list[Listening] = []
    for adapter in get_adapters() if adapters is None else adapters:
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]  # ifaddr: IPv6 as (address, flow, scope id)
            try:
                addr = ipaddress.ip_address(text.split("%", 1)[0])
            except ValueError:
                continue
            if str(addr.version) not in families or addr.is_unspecified or addr.is_multicast:
                continue
            if addr.is_loopback:
                entry = Listening(str(addr), "loopback")
            elif addr.is_link_local:
                scope = _scope(adapter, ip.ip)
                entry = Listening(f"{addr}%{scope}" if addr.version == 6 and scope else str(addr), "link-local")
            else:
                entry = Listening(str(addr), "lan")
            if entry not in found:
                found.append(entry)
    order = {"lan": 0, "link-local": 1, "loopback": 2}
    return sorted(found, key=lambda e: (order[e.scope], ":" in e.address))


#: Windows names an IPv6 link-local address's interface by its number (``fe80::1%12``):
#: ifaddr's adapter name there is a GUID, which no address parser takes.
_SCOPE_BY_NUMBER = os.name == "nt"


def _scope(adapter: Any, ip: Any) -> str:
    """The ``%scope`` of an IPv6 link-local address as a player types it: the interface's
    name (``eth0``; POSIX), on Windows its number (ifaddr's scope id, ``ip[2]``); "" when
    unknown."""
    if _SCOPE_BY_NUMBER:
        number = ip[2] if isinstance(ip, tuple) and len(ip) > 2 else None
        return str(number) if type(number) is int and number > 0 else ""
    return getattr(adapter, "name", "") or ""


def lan_addresses(adapters: Sequence[Any] | None = None) -> list[str]:
    """Every IPv4 address of this machine that another machine could reach (the LAN
    announcement's addresses): :func:`listen_addresses` of scope ``lan``, IPv4 only.
    Empty when there is none."""
    return [e.address for e in listen_addresses(adapters, "4") if e.scope == "lan"]
