"""Per-token rate limits for the gateway: a token bucket per bearer token, answering 429.

Every request that carries a token (``Authorization: Bearer T`` or ``?token=T``, player or
seat token alike, valid or not) draws one unit from the bucket of ``sha256(T)``; every
WebSocket message a client sends draws one from the bucket of the token it connected with.
A bucket holds at most ``burst`` units and refills at ``rate`` units per second. An empty
bucket answers HTTP 429 ``{"error": {"status": 429, "code": "rate_limited", "retry_after_s": S}}``
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
from collections.abc import Awaitable, Callable, MutableMapping
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

__all__ = ["Bucket", "RateLimiter", "RedisTokenBucket", "TokenBucket", "install", "token_key"]


def token_key(token: str) -> str:
    """The bucket key of a token: never the token itself (it is a credential)."""
    return "t:" + hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:32]


def _token_of(scope: Scope) -> str:
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            text = value.decode("latin-1")
            if text[:7].lower() == "bearer ":
                return text[7:].strip()
    query = scope.get("query_string") or b""
    if b"token=" in query:
        values = parse_qs(query.decode("latin-1")).get("token")
        if values:
            return values[0]
    return ""


def limited_body(wait_s: float) -> dict[str, Any]:
    return {
        "error": {
            "status": 429,
            "code": "rate_limited",
            "message": "too many requests for this token; retry later",
            "retry_after_s": round(wait_s, 3),
        }
    }


class RateLimiter:
    """ASGI wrapper: per-token buckets for HTTP requests and WebSocket messages."""

    def __init__(
        self,
        app: ASGIApp,
        bucket: Bucket,
        *,
        anonymous: Bucket | None = None,
        exempt: frozenset[str] = frozenset({"/healthz", "/metrics"}),
    ) -> None:
        self.app = app
        self.bucket = bucket
        self.anonymous = anonymous
        self.exempt = exempt
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

    async def _wait(self, scope: Scope, token: str) -> float:
        if token:
            bucket: Bucket | None = self.bucket
            key = token_key(token)
        else:
            bucket = self.anonymous
            client = scope.get("client") or ("", 0)
            key = "a:" + str(client[0])
        if bucket is None:
            return 0.0
        try:
            return await bucket.take(key)
        except Exception as exc:  # fail open: a broken limiter must not take the gateway down
            log.warning("rate limit check failed, letting the request through: %s", exc)
            self._count("errors", "")
            return 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope.get("type")
        if kind == "http" and scope.get("path") not in self.exempt:
            wait = await self._wait(scope, _token_of(scope))
            if wait > 0:
                self._count("limited", "http")
                await _send_429(send, wait)
                return
        elif kind == "websocket":
            token = _token_of(scope)
            wait = await self._wait(scope, token)
            if wait > 0:
                self._count("limited", "ws_connect")
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 4429, "reason": "rate_limited"})
                return
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


async def _send_429(send: Send, wait: float) -> None:
    body = json.dumps(limited_body(wait)).encode()
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
) -> ASGIApp:
    """``app`` wrapped in a :class:`RateLimiter` (``rate <= 0``: ``app`` unchanged)."""
    if rate <= 0:
        return app
    bucket: Bucket = RedisTokenBucket(redis_url, rate, burst) if redis_url else TokenBucket(rate, burst)
    anonymous: Bucket | None = None
    if anonymous_rate > 0:
        anonymous = (
            RedisTokenBucket(redis_url, anonymous_rate, anonymous_burst)
            if redis_url
            else TokenBucket(anonymous_rate, anonymous_burst)
        )
    return RateLimiter(app, bucket, anonymous=anonymous)
