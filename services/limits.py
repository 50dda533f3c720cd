"""Per-bot limits of the external bot API (docs/bots.md, "Limits").

- **Request rate**: a token bucket per bot (``FENGSHENG_BOT_RATE`` units/s, burst
  ``FENGSHENG_BOT_BURST``) in Redis, shared by every engine replica. Each message a bot sends
  on its stream (action, queue request) takes one unit. The bucket is the gateway's
  :class:`fengsheng.ratelimit.RedisTokenBucket` (one Lua script on the Redis clock), reused
  here under the key prefix ``lim:bot:``.
- **Concurrent matches**: queued tickets plus unfinished ranked and casual matches plus
  pending challenges it sent (services/ranked/casual.py) of one bot at most
  ``FENGSHENG_BOT_MAX_MATCHES``; joining the queue or challenging past it is refused.
- **Streams**: one live ``BotService.Connect`` stream per bot: a new one replaces the older
  (services/ranked/service.py, ``open_stream``); each Connect takes one unit of the rate.

Past a limit: gRPC ``RESOURCE_EXHAUSTED`` (a ``BotError`` with that code on the stream), HTTP
429 at the gateway.

Also the platform bots' thinking time: a match's ``bot_delay_ms`` is at most
:data:`MAX_BOT_DELAY_S` (CreateMatch refuses more with ``INVALID_ARGUMENT``; the scheduler
clamps a stored one), and it is the countdown of the queued ``bots.move`` task, never a
sleep in a worker thread (docs/operations.md, "Bot delays").
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from fengsheng.ratelimit import RedisTokenBucket

#: The longest pause (seconds) before a platform bot's move, per match. The gateway's
#: ``CreateMatchIn`` answers 422 past it; the service layer refuses it too (a direct gRPC
#: caller), and :class:`services.engine.scheduler.CeleryScheduler` never queues a longer countdown.
MAX_BOT_DELAY_S = 5.0
#: The longest human decision timer (``turn_timeout_ms`` / 1000) a match may ask for.
MAX_TURN_TIMEOUT_S = 3600.0


@dataclass(frozen=True)
class BotLimits:
    rate: float = 20.0
    burst: int = 40
    max_matches: int = 4

    @classmethod
    def from_env(cls) -> BotLimits:
        env = os.environ.get
        return cls(
            rate=float(env("FENGSHENG_BOT_RATE") or cls.rate),
            burst=int(env("FENGSHENG_BOT_BURST") or cls.burst),
            max_matches=int(env("FENGSHENG_BOT_MAX_MATCHES") or cls.max_matches),
        )


class LimitExceeded(Exception):
    """A bot went past one of its limits (RESOURCE_EXHAUSTED / HTTP 429)."""

    def __init__(self, message: str, *, kind: str = "rate_limited", retry_after_s: float = 0.0) -> None:
        super().__init__(message)
        self.kind = kind
        self.retry_after_s = retry_after_s


class RateLimiter:
    """The per-bot request buckets."""

    def __init__(self, redis_url: str, limits: BotLimits) -> None:
        self.limits = limits
        self._bucket = RedisTokenBucket(redis_url, limits.rate, limits.burst, prefix="lim:bot:")

    async def take(self, bot_id: str) -> None:
        wait = await self._bucket.take(bot_id)
        if wait > 0:
            raise LimitExceeded(
                f"bot {bot_id}: more than {self.limits.rate:g} requests/s (burst {self.limits.burst}); "
                f"retry in {max(wait, 0.01):.2f} s",
                retry_after_s=wait,
            )

    async def close(self) -> None:
        await self._bucket.close()
