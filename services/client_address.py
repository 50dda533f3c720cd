"""Who is asking: a client's address as the platform sees it, one rule everywhere.

The peer address of the connection, unless that peer is a trusted proxy
(``FENGSHENG_TRUSTED_PROXIES``: addresses or CIDRs, comma-separated; default none): then the
forwarding header (``FENGSHENG_PROXY_HEADER``: ``x-forwarded-for``, the default, or
``forwarded``, RFC 7239) is read from the right, skipping trusted hops, and the first
untrusted hop is the client. A forwarding header from an untrusted peer is ignored (anyone
can write one).

The gateway applies it to every HTTP request and WebSocket (creation limits, replay limits,
and the address a ranked ticket records: docs/ranked.md, "What a rated table forbids"); the
engine's bot listener applies it to a bot's gRPC stream (its peer, and the stream's metadata
as the headers): :func:`grpc_scope`.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


#: the gRPC metadata in which the gateway names the client address of a bot it proxies
#: (``/ws/bots`` -> ``BotService.Connect``); believed on the engine's internal listener only
CLIENT_ADDRESS_METADATA = "fengsheng-client-address"


def trusted_proxies_from_env() -> tuple[str, ...]:
    """``FENGSHENG_TRUSTED_PROXIES`` as a tuple (addresses or CIDRs; empty: trust no proxy)."""
    return tuple(p.strip() for p in (os.environ.get("FENGSHENG_TRUSTED_PROXIES") or "").split(",") if p.strip())


def proxy_header_from_env() -> str:
    """``FENGSHENG_PROXY_HEADER`` (lower case; default ``x-forwarded-for``)."""
    return (os.environ.get("FENGSHENG_PROXY_HEADER") or "x-forwarded-for").lower()


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address written as ``1.2.3.4``, ``1.2.3.4:80``, ``::1`` or ``[::1]:80``; None if it is none."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


class ClientAddress:
    """Who is asking: the peer, or what a trusted proxy says the client was (see the module doc)."""

    @classmethod
    def from_env(cls) -> ClientAddress:
        """The rule as configured (``FENGSHENG_TRUSTED_PROXIES``, ``FENGSHENG_PROXY_HEADER``)."""
        return cls(trusted_proxies_from_env(), proxy_header_from_env())

    def __init__(self, trusted_proxies: tuple[str, ...] = (), header: str = "x-forwarded-for") -> None:
        if header not in ("x-forwarded-for", "forwarded"):
            raise ValueError(f"FENGSHENG_PROXY_HEADER must be x-forwarded-for or forwarded, not {header!r}")
        try:
            self.trusted: tuple[IPNetwork, ...] = tuple(ipaddress.ip_network(p, strict=False) for p in trusted_proxies)
        except ValueError as exc:
            raise ValueError(f"FENGSHENG_TRUSTED_PROXIES: {exc}") from exc
        self.header = header.encode("latin-1")

    def _is_trusted(self, ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
        return ip is not None and any(ip in net for net in self.trusted)

    def _hops(self, scope: Scope) -> list[str]:
        """The forwarding header's addresses, the client's first, the nearest proxy's last."""
        values = [v.decode("latin-1") for k, v in scope.get("headers") or () if k == self.header]
        hops = [h.strip() for v in values for h in v.split(",") if h.strip()]
        if self.header == b"forwarded":
            found = []
            for element in hops:
                pairs = dict(p.strip().partition("=")[::2] for p in element.split(";"))
                found.append({k.strip().lower(): v for k, v in pairs.items()}.get("for", ""))
            hops = found
        return hops

    def __call__(self, scope: Scope) -> str:
        peer = str((scope.get("client") or ("", 0))[0])
        if not self.trusted or not self._is_trusted(_ip(peer)):
            return peer
        for hop in reversed(self._hops(scope)):
            ip = _ip(hop)
            if not self._is_trusted(ip):
                return str(ip) if ip is not None else hop.strip()[:64]
        return peer


def grpc_scope(peer: str, metadata: Iterable[tuple[str, str | bytes]]) -> Scope:
    """A gRPC call seen as an ASGI scope for :class:`ClientAddress`: its peer (``ipv4:1.2.3.4:5``,
    ``ipv6:[::1]:5``) as the client, its metadata as the headers."""
    kind, _, rest = peer.partition(":")
    host = ""
    if kind in ("ipv4", "ipv6"):
        ip = _ip(rest)
        host = str(ip) if ip is not None else ""
    headers = [(k.lower().encode("latin-1"), v if isinstance(v, bytes) else v.encode("latin-1", "replace"))
               for k, v in metadata]  # fmt: skip
    return {"client": (host or peer, 0), "headers": headers}


def address_key(address: str) -> str:
    """What one client address counts as when accounts are compared (docs/ranked.md, "What a
    rated table forbids"): an IPv4 address itself (an IPv4-mapped IPv6 address too); an IPv6
    address its /64 network, since one host or home is given a whole /64 and may take any
    address in it; anything else (a Unix socket) as it is."""
    ip = _ip(address)
    if ip is None:
        return address.strip()
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
