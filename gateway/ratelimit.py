"""Per-token rate limits for the gateway: a token bucket per bearer token, answering 429.

Every request that carries a token (``Authorization: Bearer T`` or ``?token=T``, player or
seat token alike, valid or not) draws one unit from the bucket of ``sha256(T)``; every
WebSocket message a client sends draws one from the bucket of the token it connected with.
A bucket holds at most ``burst`` units and refills at ``rate`` units per second. An empty
bucket answers HTTP 429 ``{"error": {"status": 429, "code": "rate_limited", "retry_after_ms": MS}}``
with a ``Retry-After`` header; on a WebSocket, the message is dropped (never reaches the
engine) and the client gets ``{"type": "error", "error": {... 429 ...}}`` instead.
Requests without a token (guest creation, spectating, health, metrics) are limited per
client address only when ``anonymous_rate`` > 0 (off by default: ``/healthz`` and
``/metrics`` are polled by probes and Prometheus).

Two bucket stores, chosen by ``redis_url``:

- **in-process** (no Redis): a dict of buckets in the gateway's memory, pruned as they
  refill. Exact for one gateway process; with N replicas behind a load balancer a token
  gets up to N times the rate.
- **Redis** (the gateway's ``--redis-url``): one hash per bucket (``gw:rl:{sha256}``),
  updated atomically by a Lua script (one round trip, the Redis server's clock, expiring
  when full again): exact across every gateway replica. If Redis fails, the request is
  let through (fail open) and counted in ``fengsheng_gateway_rate_limit_errors_total``.

**Creation limits.** Guest accounts, matches and bot accounts cost nothing to ask for, and
a token is free to mint, so ``POST /api/guests``, ``POST /api/matches`` and ``POST /api/bots``
are limited per *client address* (with or without a token) and by one global bucket
(:class:`CreationLimits`, environment ``FENGSHENG_CREATE_*``); 429 with ``Retry-After``
(``code: rate_limited``, ``scope: address`` or ``global``).

**Client address.** :class:`services.client_address.ClientAddress`: the peer address of the
connection, unless that peer is a trusted proxy (``FENGSHENG_TRUSTED_PROXIES``: addresses or
CIDRs, comma-separated; default none): then the forwarding header (``FENGSHENG_PROXY_HEADER``)
is read from the right, skipping trusted hops, and the first untrusted hop is the client.

Rejections are counted in ``fengsheng_gateway_rate_limited_total{transport}``. The limiter
is a plain ASGI wrapper (:class:`RateLimiter`), so it is installed around the app without
touching its routes; the ranked-play bot API can reuse :class:`TokenBucket` /
:class:`RedisTokenBucket` for bot tokens (``await bucket.take(key)`` -> seconds to wait, 0 = allowed).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

log = logging.getLogger("fengsheng.gateway.ratelimit")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: defaults of ``fengsheng gateway --rate-limit / --rate-burst``
DEFAULT_RATE = 50.0
DEFAULT_BURST = 200


# The buckets live in fengsheng/ratelimit.py, shared with services/limits.py.
from fengsheng.ratelimit import Bucket, RedisTokenBucket, TokenBucket  # noqa: E402
from services.client_address import (  # noqa: E402  (one rule: the gateway's and the bot listener's)
    ClientAddress,
    proxy_header_from_env,
    trusted_proxies_from_env,
)

__all__ = [
    "Bucket",
    "ClientAddress",
    "CreationLimits",
    "RateLimiter",
    "RedisTokenBucket",
    "TokenBucket",
    "install",
    "token_key",
]

#: the routes that create something (an account or a match): limited per client address
CREATION_ROUTES = frozenset(
    {("POST", "/api/guests"), ("POST", "/api/matches"), ("POST", "/api/bots"), ("POST", "/api/casual")}
)


@dataclass(frozen=True)
class CreationLimits:
    """Limits of the creation routes (environment variables in brackets; a rate of 0 turns
    that bucket off)."""

    #: creations per second per client address [FENGSHENG_CREATE_RATE]
    rate: float = 1.0
    #: creations one address may make at once [FENGSHENG_CREATE_BURST]
    burst: int = 60
    #: creations per second, all clients together [FENGSHENG_CREATE_GLOBAL_RATE]
    global_rate: float = 50.0
    #: creations at once, all clients together [FENGSHENG_CREATE_GLOBAL_BURST]
    global_burst: int = 500
    #: proxies whose forwarding header is believed, addresses or CIDRs [FENGSHENG_TRUSTED_PROXIES]
    trusted_proxies: tuple[str, ...] = ()
    #: ``x-forwarded-for`` or ``forwarded`` [FENGSHENG_PROXY_HEADER]
    proxy_header: str = "x-forwarded-for"

    @classmethod
    def from_env(cls) -> CreationLimits:
        env = os.environ.get
        return cls(
            rate=float(env("FENGSHENG_CREATE_RATE") or cls.rate),
            burst=int(env("FENGSHENG_CREATE_BURST") or cls.burst),
            global_rate=float(env("FENGSHENG_CREATE_GLOBAL_RATE") or cls.global_rate),
            global_burst=int(env("FENGSHENG_CREATE_GLOBAL_BURST") or cls.global_burst),
            trusted_proxies=trusted_proxies_from_env(),
            proxy_header=proxy_header_from_env(),
        )


def token_key(token: str) -> str:
    """The bucket key of a token: never the token itself (it is a credential)."""
    return "t:" + hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:32]


def _token_of(scope: Scope) -> str:
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            text: str = value.decode("latin-1")
            if text[:7].lower() == "bearer ":
                return text[7:].strip()
    query: bytes = scope.get("query_string") or b""
    if b"token=" in query:
        values = parse_qs(query.decode("latin-1")).get("token")
        if values:
            return values[0]
    return ""


def retry_ms(wait_s: float) -> int:
    """A wait in seconds as the ``retry_after_ms`` clients are told: rounded up, at least 1."""
    return max(1, math.ceil(wait_s * 1000))


def limited_body(wait_s: float, message: str = "too many requests for this token; retry later",
                 **extra: Any) -> dict[str, Any]:  # fmt: skip
    return {
        "error": {
            "status": 429,
            "code": "rate_limited",
            "kind": "rate_limited",
            "message": message,
            "retry_after_ms": retry_ms(wait_s),
            **extra,
        }
    }


class RateLimiter:
    """ASGI wrapper: per-token buckets for HTTP requests and WebSocket messages."""

    def __init__(
        self,
        app: ASGIApp,
        bucket: Bucket | None,
        *,
        anonymous: Bucket | None = None,
        exempt: frozenset[str] = frozenset({"/healthz", "/metrics"}),
        ws_exempt: frozenset[str] = frozenset({"/ws/bots"}),
        creation: Bucket | None = None,
        creation_global: Bucket | None = None,
        client_address: ClientAddress | None = None,
    ) -> None:
        """``bucket``: per token (None: off); ``anonymous``: per address for requests without
        a token; ``creation`` / ``creation_global``: the creation routes, per address and all
        together; ``client_address``: how the address is found (default: the peer)."""
        self.app = app
        self.bucket = bucket
        self.anonymous = anonymous
        self.exempt = exempt
        #: sockets whose messages are not drawn from the token's bucket here: the bot API's,
        #: limited per bot by the engine, where answers to pushed decisions are free (docs/bots.md)
        self.ws_exempt = ws_exempt
        self.creation = creation
        self.creation_global = creation_global
        self.client_address = client_address or ClientAddress()
        self._counters: Any = None

    def __getattr__(self, name: str) -> Any:  # the wrapped app's attributes (state, routes...)
        return getattr(self.app, name)

    # ---- metrics (registered lazily in the wrapped gateway's registry, once it exists) ----
    def _count(self, what: str, label: str) -> None:
        if self._counters is None:
            from prometheus_client import CollectorRegistry, Counter

            registry: CollectorRegistry | None = None
            try:
                registry = self.app.state.services.metrics.registry  # type: ignore[attr-defined]
            except AttributeError:
                registry = CollectorRegistry()
            self._counters = {
                "limited": Counter(
                    "fengsheng_gateway_rate_limited_total",
                    "requests and WebSocket messages refused with 429 by the per-token rate limit",
                    ["transport"],
                    registry=registry,
                ),
                "errors": Counter(
                    "fengsheng_gateway_rate_limit_errors_total",
                    "rate-limit checks that failed (Redis down): let through",
                    registry=registry,
                ),
            }
        counter = self._counters[what]
        (counter.labels(transport=label) if what == "limited" else counter).inc()

    async def _take(self, bucket: Bucket | None, key: str) -> float:
        if bucket is None:
            return 0.0
        try:
            return await bucket.take(key)
        except Exception as exc:  # fail open: a broken limiter must not take the gateway down
            log.warning("rate limit check failed, letting the request through: %s", exc)
            self._count("errors", "")
            return 0.0

    async def _wait(self, scope: Scope, token: str) -> float:
        if token:
            return await self._take(self.bucket, token_key(token))
        return await self._take(self.anonymous, "a:" + self.client_address(scope))

    async def _creation_wait(self, scope: Scope) -> tuple[float, str]:
        """Seconds to wait before this creation (0: go ahead) and which bucket said so."""
        wait = await self._take(self.creation, "c:" + self.client_address(scope))
        if wait > 0:
            return wait, "address"
        return await self._take(self.creation_global, "c:*"), "global"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope.get("type")
        if kind == "http" and scope.get("path") not in self.exempt:
            wait = await self._wait(scope, _token_of(scope))
            if wait > 0:
                self._count("limited", "http")
                await _send_429(send, wait)
                return
            if (scope.get("method"), scope.get("path")) in CREATION_ROUTES:
                wait, which = await self._creation_wait(scope)
                if wait > 0:
                    self._count("limited", "create")
                    message = (
                        "too many new accounts or matches from this address; retry later"
                        if which == "address"
                        else "the server is creating too many accounts or matches; retry later"
                    )
                    await _send_429(send, wait, limited_body(wait, message, scope=which))
                    return
        elif kind == "websocket":
            token = _token_of(scope)
            wait = await self._wait(scope, token)
            if wait > 0:
                self._count("limited", "ws_connect")
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 4429, "reason": "rate_limited"})
                return
            if scope.get("path") not in self.ws_exempt:
                receive, send = self._limited_socket(scope, receive, send, token)
        await self.app(scope, receive, send)

    def _limited_socket(self, scope: Scope, receive: Receive, send: Send, token: str) -> tuple[Receive, Send]:
        """Draw one unit per message the client sends once the socket is accepted."""
        accepted = False

        async def wrapped_send(message: Message) -> None:
            nonlocal accepted
            if message.get("type") == "websocket.accept":
                accepted = True
            await send(message)

        async def limited() -> Message:
            while True:
                message = await receive()
                if message.get("type") != "websocket.receive" or not accepted:
                    return message
                wait = await self._wait(scope, token)
                if wait <= 0:
                    return message
                self._count("limited", "ws")
                await send({"type": "websocket.send", "text": json.dumps({"type": "error", **limited_body(wait)})})

        return limited, wrapped_send


async def _send_429(send: Send, wait: float, payload: dict[str, Any] | None = None) -> None:
    body = json.dumps(payload or limited_body(wait)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(max(1, math.ceil(wait))).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def install(
    app: ASGIApp,
    *,
    rate: float = DEFAULT_RATE,
    burst: int = DEFAULT_BURST,
    redis_url: str | None = None,
    anonymous_rate: float = 0.0,
    anonymous_burst: int = DEFAULT_BURST,
    creation: CreationLimits | None = None,
) -> ASGIApp:
    """``app`` wrapped in a :class:`RateLimiter`: per-token buckets (``rate <= 0``: none) and
    the creation limits (``creation``, default :meth:`CreationLimits.from_env`); ``app``
    unchanged when every limit is off."""
    limits = creation if creation is not None else CreationLimits.from_env()

    def make(r: float, b: int, prefix: str = "gw:rl:") -> Bucket | None:
        if r <= 0:
            return None
        return RedisTokenBucket(redis_url, r, b, prefix=prefix) if redis_url else TokenBucket(r, b)

    bucket = make(rate, burst)
    per_address = make(limits.rate, limits.burst)
    overall = make(limits.global_rate, limits.global_burst)
    if bucket is None and per_address is None and overall is None:
        return app
    return RateLimiter(
        app,
        bucket,
        anonymous=make(anonymous_rate, anonymous_burst),
        creation=per_address,
        creation_global=overall,
        client_address=ClientAddress(limits.trusted_proxies, limits.proxy_header),
    )
