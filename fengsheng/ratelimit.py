"""Token buckets: the rate limiter shared by the gateway (per-token HTTP/WebSocket limits,
gateway/ratelimit.py) and the services (per-bot limits of the bot API, services/limits.py).

Two stores: :class:`TokenBucket` in process memory, :class:`RedisTokenBucket` in Redis (one
Lua script on the Redis clock, exact across replicas). ``await bucket.take(key)`` returns
0.0 when a unit was taken, else the seconds until one refills.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol


class Bucket(Protocol):
    async def take(self, key: str) -> float:
        """Take one unit from ``key``'s bucket: 0.0 if allowed, else seconds until one refills."""


class TokenBucket:
    """In-process token buckets (one gateway process)."""

    def __init__(self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (units, last refill time)
        self._last_prune = clock()

    def take_now(self, key: str) -> float:
        now = self._clock()
        units, last = self._buckets.get(key, (float(self.burst), now))
        units = min(float(self.burst), units + (now - last) * self.rate)
        if units >= 1.0:
            self._buckets[key] = (units - 1.0, now)
            wait = 0.0
        else:
            self._buckets[key] = (units, now)
            wait = (1.0 - units) / self.rate
        if now - self._last_prune > 60.0:
            self._prune(now)
        return wait

    async def take(self, key: str) -> float:
        return self.take_now(key)

    def _prune(self, now: float) -> None:
        """Forget buckets that are full again (they behave exactly like new ones)."""
        full_after = self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full_after}
        self._last_prune = now


#: KEYS[1] bucket hash; ARGV: rate (units/s), burst. Returns {allowed 0/1, wait_ms}.
_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'u', 't')
local units = tonumber(b[1])
local last = tonumber(b[2])
if units == nil then units = burst; last = now end
units = math.min(burst, units + (now - last) * rate / 1000)
local allowed = 0
local wait = 0
if units >= 1 then
  units = units - 1
  allowed = 1
else
  wait = math.ceil((1 - units) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'u', tostring(units), 't', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return {allowed, wait}
"""


class RedisTokenBucket:
    """Token buckets in Redis, shared by every gateway replica (atomic Lua, Redis clock)."""

    def __init__(self, redis_url: str, rate: float, burst: int, *, prefix: str = "gw:rl:") -> None:
        from services.redis_client import shared_client  # redis is imported only with a Redis bucket

        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self.prefix = prefix
        self.redis = shared_client(redis_url)  # one node or a cluster: one key per script
        self._script = self.redis.register_script(_LUA)

    async def take(self, key: str) -> float:
        allowed, wait_ms = await self._script(keys=[self.prefix + key], args=[self.rate, self.burst])
        return 0.0 if int(allowed) else int(wait_ms) / 1000.0

    async def close(self) -> None:
        await self.redis.aclose()
