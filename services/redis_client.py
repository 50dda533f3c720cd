"""Clients for the platform's Redis: one server (``redis://``, ``rediss://``, ``unix://``) or
a Redis Cluster (``redis+cluster://`` / ``rediss+cluster://`` naming any one node; the
clients discover the others and follow ``MOVED``/``ASK`` redirections and failovers).

A managed Redis (one endpoint) is a plain ``redis://``/``rediss://`` URL; a managed cluster
in cluster mode is ``rediss+cluster://``. Only the match store's keys are spread over the
cluster (services/engine/store.py keeps each match's keys, outbox and leases in one hash slot);
the Celery broker needs a plain Redis (kombu has no cluster transport).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
import redis.asyncio as aioredis

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


def sync_client(url: str, **kwargs: Any) -> redis.Redis | redis.RedisCluster:
    """A blocking client for ``url`` (cluster or not)."""
    if is_cluster(url):
        return redis.RedisCluster.from_url(node_url(url), **kwargs)
    return redis.Redis.from_url(url, **kwargs)
