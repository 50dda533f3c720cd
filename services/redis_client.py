"""Clients for the platform's Redis: one server (``redis://``, ``rediss://``, ``unix://``) or
a Redis Cluster (``redis+cluster://`` / ``rediss+cluster://`` naming any one node; the
clients discover the others and follow ``MOVED``/``ASK`` redirections and failovers).

A managed Redis (one endpoint) is a plain ``redis://``/``rediss://`` URL; a managed cluster
in cluster mode is ``rediss+cluster://``. The match store (services/engine/store.py keeps
each match's keys, outbox and leases in one hash slot), the ranked store (``mm:{mm}``,
``rk:{rk}``, ``bot:{bot}``) and the gateway's store (``gw:{ID}:…`` per match) may be
clusters; the Celery broker needs a plain Redis (kombu has no cluster transport).
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterPipeline

CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")


def is_cluster(url: str) -> bool:
    """Whether ``url`` names a Redis Cluster."""
    return urlsplit(url).scheme in CLUSTER_SCHEMES


def node_url(url: str) -> str:
    """The plain URL of the node a cluster URL names (database 0), or ``url`` itself."""
    parts = urlsplit(url)
    if parts.scheme not in CLUSTER_SCHEMES:
        return url
    return urlunsplit((parts.scheme.split("+")[0], parts.netloc, "", parts.query, parts.fragment))


def async_client(url: str, *, max_connections: int = 64, **kwargs: Any) -> aioredis.Redis | aioredis.RedisCluster:
    """An asyncio client for ``url``: a :class:`redis.asyncio.RedisCluster` for a cluster URL,
    else a :class:`redis.asyncio.Redis` over a blocking pool (a burst beyond
    ``max_connections`` waits for a free connection instead of failing)."""
    if is_cluster(url):
        return aioredis.RedisCluster.from_url(node_url(url), max_connections=max_connections, **kwargs)
    return node_client(url, max_connections=max_connections, **kwargs)


def node_client(url: str, *, max_connections: int = 128, **kwargs: Any) -> aioredis.Redis:
    """An asyncio client of one Redis node over a blocking pool: a burst of commands beyond
    ``max_connections`` waits (up to 10 s) for a free connection. redis-py's own default pool
    holds 100 connections and refuses the 101st at once (``MaxConnectionsError: Too many
    connections``), which 500 concurrent matches at a gateway reached (bench/soak.py)."""
    pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=10, **kwargs)
    return aioredis.Redis.from_pool(pool)


def shared_client(url: str, *, max_connections: int = 128, **kwargs: Any) -> aioredis.Redis | aioredis.RedisCluster:
    """An asyncio client for many concurrent callers (the gateway's store, chat and rate-limit
    buckets): :func:`node_client` for one node, a :class:`BlockingRedisCluster` for a cluster
    URL. Either way a burst beyond ``max_connections`` waits (up to 10 s) instead of failing."""
    if is_cluster(url):
        return BlockingRedisCluster.from_url(node_url(url), max_connections=max_connections, **kwargs)
    return node_client(url, max_connections=max_connections, **kwargs)


#: set while a task holds a slot of a :class:`BlockingRedisCluster` (a pipeline's redirected
#: commands are resent through the client: they must not wait for a second slot)
_holding: contextvars.ContextVar[bool] = contextvars.ContextVar("fengsheng_redis_holding", default=False)


class BlockingRedisCluster(aioredis.RedisCluster):
    """A :class:`redis.asyncio.RedisCluster` whose commands and pipelines wait for one of
    ``max_connections`` slots (up to ``wait_s``) before they run: redis-py's cluster client
    keeps at most ``max_connections`` connections per node and refuses one more at once
    (``MaxConnectionsError``), like its default single-node pool. A command or pipeline in
    flight uses at most one connection per node, so no node's pool is ever exhausted."""

    def __init__(self, *args: Any, wait_s: float = 10.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._slots = asyncio.Semaphore(int(kwargs.get("max_connections", 100)))
        self._wait_s = wait_s

    async def _acquire(self) -> contextvars.Token[bool] | None:
        if _holding.get():
            return None
        try:
            await asyncio.wait_for(self._slots.acquire(), self._wait_s)
        except TimeoutError as exc:
            raise redis.exceptions.ConnectionError("no Redis connection free within the wait") from exc
        return _holding.set(True)

    def _release(self, token: contextvars.Token[bool] | None) -> None:
        if token is not None:
            _holding.reset(token)
            self._slots.release()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        token = await self._acquire()
        try:
            return await super().execute_command(*args, **kwargs)
        finally:
            self._release(token)

    def pipeline(self, transaction: Any | None = None, shard_hint: Any | None = None) -> _BlockingPipeline:
        if shard_hint:
            raise redis.exceptions.RedisClusterException("shard_hint is deprecated in cluster mode")
        return _BlockingPipeline(self, transaction)  # type: ignore[abstract]  # built as RedisCluster.pipeline() does


class _BlockingPipeline(ClusterPipeline):
    """A pipeline of a :class:`BlockingRedisCluster`: its execution holds one slot."""

    _blocking: BlockingRedisCluster

    def __init__(self, client: BlockingRedisCluster, transaction: Any | None = None) -> None:
        super().__init__(client, transaction)
        self._blocking = client

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> list[Any]:
        token = await self._blocking._acquire()
        try:
            return await super().execute(raise_on_error, allow_redirections)
        finally:
            self._blocking._release(token)


def subscriber_url(url: str, client: Any) -> str:
    """Where to ``SUBSCRIBE`` to hear every ``PUBLISH`` made through ``client``: ``url`` itself
    for one node; for a cluster (whose nodes forward every classic ``PUBLISH`` to each other)
    a primary picked at random among those ``client`` (a blocking cluster client) knows, as a
    plain URL with ``url``'s credentials, so a lost node is replaced at the next subscription."""
    if not is_cluster(url):
        return url
    import random

    parts = urlsplit(node_url(url))
    node = random.choice(client.get_primaries())
    userinfo = parts.netloc.rpartition("@")[0]
    host = f"[{node.host}]" if ":" in node.host else node.host
    netloc = (f"{userinfo}@" if userinfo else "") + f"{host}:{node.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def sync_client(url: str, **kwargs: Any) -> redis.Redis | redis.RedisCluster:
    """A blocking client for ``url`` (cluster or not)."""
    if is_cluster(url):
        return redis.RedisCluster.from_url(node_url(url), **kwargs)
    return redis.Redis.from_url(url, **kwargs)
