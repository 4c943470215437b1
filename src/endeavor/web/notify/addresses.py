"""The address guard: which IP addresses a webhook may not be on
(:func:`private_address`), and host names looked up with a time limit (:class:`Lookup`)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Final

from .settings import LOOKUPS

#: IPv6 addresses that carry an IPv4 address in their last 32 bits: IPv4-translated
#: (``::ffff:0:a.b.c.d``) and NAT64 (``64:ff9b::a.b.c.d``, ``64:ff9b:1::/48``)
_EMBEDDING: Final = (ipaddress.IPv6Network("::ffff:0:0:0/96"),
                     ipaddress.IPv6Network("64:ff9b::/96"),
                     ipaddress.IPv6Network("64:ff9b:1::/48"))


#: IPv4-compatible addresses (``::a.b.c.d``, deprecated: never a webhook's)
_COMPATIBLE: Final = ipaddress.IPv6Network("::/96")


def private_address(address: str) -> bool:
    """Whether the IP address ``address`` is one a webhook may not be on: loopback,
    private, link-local, site-local (``fec0::/10``), multicast or otherwise not global.
    An IPv6 address that carries an IPv4 one is judged by that too: IPv4-mapped
    (``::ffff:127.0.0.1``), IPv4-translated (``::ffff:0:127.0.0.1``), NAT64
    (``64:ff9b::127.0.0.1``), 6to4 (``2002:7f00:1::``) and Teredo; an IPv4-compatible
    one (``::127.0.0.1``) always is."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _COMPATIBLE or ip.is_site_local:
            return True
        carried: list[ipaddress.IPv4Address] = []
        if ip.ipv4_mapped is not None:
            carried.append(ip.ipv4_mapped)
        if any(ip in net for net in _EMBEDDING):
            carried.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if ip.sixtofour is not None:
            carried.append(ip.sixtofour)
        if ip.teredo is not None:
            carried.extend(ip.teredo)
        if any(not v4.is_global or v4.is_multicast for v4 in carried):
            return True
        if ip.ipv4_mapped is not None:  # a plain IPv4 address, as some systems give it
            return False
    return not ip.is_global or ip.is_multicast


class LookupTimeout(Exception):
    """A host name's look-up did not answer within ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no answer to the look-up within {seconds:g} s")
        self.seconds = seconds


#: a host's addresses as a look-up gives them: (family, socket address)
Addresses = list[tuple[int, Any]]


class Lookup:
    """Looks host names up (``socket.getaddrinfo``) on threads of their own, with a time
    limit: a resolver that hangs holds one of those threads until it answers (at most
    ``limit`` at once; past that a look-up fails at once), never its caller beyond the
    limit. An IP address needs no look-up and gets none."""

    def __init__(self, limit: int = LOOKUPS) -> None:
        self._slots = threading.BoundedSemaphore(max(1, limit))

    @staticmethod
    def literal(host: str, port: int) -> Addresses | None:
        """``host``'s address when it is an IP address (no look-up), else None."""
        try:
            ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return None
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_NUMERICHOST)
        return [(info[0], info[4]) for info in infos]

    def start(self, host: str, port: int) -> Future[Addresses]:
        """A look-up of ``host`` started on a thread of its own: its future."""
        future: Future[Addresses] = Future()
        if not self._slots.acquire(blocking=False):
            future.set_exception(socket.gaierror(socket.EAI_AGAIN, "too many look-ups "
                                                 "of host names are under way"))
            return future

        def run() -> None:
            try:
                infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
                result: Addresses = [(info[0], info[4]) for info in infos]
                with contextlib.suppress(Exception):  # cancelled: nobody waits
                    future.set_result(result)
            except BaseException as e:
                with contextlib.suppress(Exception):
                    future.set_exception(e)
            finally:
                self._slots.release()

        threading.Thread(target=run, name="endeavor-lookup", daemon=True).start()
        return future

    def __call__(self, host: str, port: int, timeout: float) -> Addresses:
        """``host``'s addresses, within ``timeout`` seconds (:class:`LookupTimeout`;
        ``socket.gaierror`` when it has none)."""
        known = self.literal(host, port)
        if known is not None:
            return known
        future = self.start(host, port)
        try:
            return future.result(max(0.0, timeout))
        except FutureTimeout:
            future.cancel()
            raise LookupTimeout(timeout) from None

    async def wait(self, host: str, port: int, timeout: float) -> Addresses:
        """The same, awaited by the event loop (no thread of the caller's waits)."""
        known = self.literal(host, port)
        if known is not None:
            return known
        try:
            return await asyncio.wait_for(asyncio.wrap_future(self.start(host, port)),
                                          max(0.0, timeout))
        except asyncio.TimeoutError:
            raise LookupTimeout(timeout) from None
