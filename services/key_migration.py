"""Renaming Redis keys to a new layout once, at a service's start (issue 15, point 1).

The ranked store's bot accounts (``bot:ID`` → ``bot:{bot}:ID``) and the gateway's per-match
keys (``gw:claims:ID`` → ``gw:{ID}:claims``) moved under one hash tag per family so that a
Redis Cluster can hold them. A deployment on one node (``fengsheng up`` keeps an AOF data
directory) still has keys of the old layout: :func:`migrate` (blocking client) and
:func:`migrate_async` (asyncio client) ``SCAN`` for them and ``RENAMENX`` each to its new
name, keeping its value and time to live. Then they set a marker key, so every later start
costs one ``EXISTS``.

- Idempotent: a key already renamed is no longer found; a new name that exists already
  (written by the new code meanwhile) is never overwritten, and the old key is left as it is.
- Only on one node: a cluster was refused these roles before the new layout (services/config.py),
  so it holds no old key, and ``RENAME`` between two slots would fail there anyway. Moving a
  one-node deployment to a cluster: start the new version once on the node (it migrates),
  then copy the keys (``redis-cli --cluster import``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from redis.exceptions import ResponseError

log = logging.getLogger(__name__)

#: a ``SCAN`` pattern of old keys and the new name of each key it matches (None: not an old key)
Rule = tuple[str, Callable[[str], str | None]]


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _is_cluster(redis: Any) -> bool:
    import redis as redis_py
    import redis.asyncio as aioredis

    return isinstance(redis, redis_py.RedisCluster | aioredis.RedisCluster)


def migrate(redis: Any, marker: str, rules: Sequence[Rule], *, what: str) -> int:
    """Rename every old key ``rules`` find on ``redis`` (a blocking client) unless ``marker``
    exists; then set ``marker``. How many keys were renamed."""
    if _is_cluster(redis) or redis.exists(marker):
        return 0
    moved = kept = 0
    for pattern, new_name in rules:
        for raw in redis.scan_iter(match=pattern, count=500):
            old = _text(raw)
            new = new_name(old)
            if new is None or new == old:
                continue
            try:
                renamed = redis.renamenx(old, new)
            except ResponseError:  # gone since the scan found it (expired)
                continue
            if renamed:
                moved += 1
            elif redis.exists(old):
                kept += 1
    redis.set(marker, "1")
    _report(what, moved, kept)
    return moved


async def migrate_async(redis: Any, marker: str, rules: Sequence[Rule], *, what: str) -> int:
    """:func:`migrate` with an asyncio client."""
    if _is_cluster(redis) or await redis.exists(marker):
        return 0
    moved = kept = 0
    for pattern, new_name in rules:
        async for raw in redis.scan_iter(match=pattern, count=500):
            old = _text(raw)
            new = new_name(old)
            if new is None or new == old:
                continue
            try:
                renamed = await redis.renamenx(old, new)
            except ResponseError:  # gone since the scan found it (expired)
                continue
            if renamed:
                moved += 1
            elif await redis.exists(old):
                kept += 1
    await redis.set(marker, "1")
    _report(what, moved, kept)
    return moved


def _report(what: str, moved: int, kept: int) -> None:
    if moved:
        log.info("%s: %d keys renamed to the hash-tagged layout", what, moved)
    if kept:
        log.warning("%s: %d old keys left as they are (their new name exists already)", what, kept)
