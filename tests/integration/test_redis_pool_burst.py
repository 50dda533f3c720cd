"""A burst of Redis commands larger than a connection pool waits for a free connection
instead of failing: 500 concurrent matches made the gateway's store answer
``MaxConnectionsError: Too many connections`` (redis-py's default asyncio pool refuses its
101st connection; bench/soak.py --matches 500). The gateway's store, chat and rate-limit
buckets use :func:`services.redis_client.node_client`."""

from __future__ import annotations

import asyncio

import redis
import redis.asyncio as aioredis

from fengsheng.ratelimit import RedisTokenBucket
from gateway.chat import RedisChatStore
from gateway.store import RedisStore
from services.redis_client import node_client

BURST = 300  # more than redis-py's default pool (100) and node_client's (128)


def _paused(redis_url: str, ms: int) -> None:
    """Hold every client's commands for ``ms`` so that the burst needs BURST connections."""
    redis.Redis.from_url(redis_url).execute_command("CLIENT", "PAUSE", ms, "ALL")


async def _burst(client: aioredis.Redis, redis_url: str) -> list[object]:
    await client.ping()
    _paused(redis_url, 300)
    try:
        return await asyncio.gather(*(client.incr(f"test:burst:{i % 7}") for i in range(BURST)), return_exceptions=True)
    finally:
        await client.aclose()


def test_a_burst_beyond_the_pool_waits_instead_of_failing(redis_url: str) -> None:
    results = asyncio.run(_burst(node_client(redis_url), redis_url))
    assert [r for r in results if isinstance(r, Exception)] == []


def test_redis_py_default_pool_would_have_failed(redis_url: str) -> None:
    """The failure this guards against is real on this redis-py (else the test above proves nothing)."""
    results = asyncio.run(_burst(aioredis.Redis.from_url(redis_url), redis_url))
    assert any(isinstance(r, redis.exceptions.MaxConnectionsError) for r in results)


def test_the_gateways_redis_clients_use_a_blocking_pool(redis_url: str) -> None:
    async def clients() -> list[aioredis.Redis]:
        return [
            RedisStore(redis_url)._redis,
            RedisChatStore(redis_url)._redis,
            RedisTokenBucket(redis_url, rate=10, burst=20).redis,
        ]

    for client in asyncio.run(clients()):
        assert isinstance(client.connection_pool, aioredis.BlockingConnectionPool), client
