"""Canonical player ids: letters, digits, ``_`` and ``-`` only, so an id goes into a URL
path as it is (``GET /api/ranked/players/house-heuristic-2/history``), never URL-encoded.

House bots were ``house-heuristic#2`` (and arena entrants ``random#1``) before; the
``#`` had to be sent as ``%23``. :func:`migrate_ladder_ids` renames the ladder's keys
of such ids once, at the ranked service's start (idempotent, marked done in Redis).
"""

from __future__ import annotations

import logging
from typing import Any

from services.ladder import NAMES_KEY

log = logging.getLogger(__name__)

#: set once the ladder's ``#`` ids were renamed
MIGRATED_KEY = "rk:{rk}:migrated:ids-v1"


def house_id(policy: str, k: int) -> str:
    """The ``k``-th house bot of a match playing ``policy``: ``house-heuristic-2``."""
    return f"house-{policy}-{k}"


def canonical(player_id: str) -> str:
    """A player id without ``#`` (the old separator of house bots' numbers)."""
    return player_id.replace("#", "-")


def _s(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def migrate_ladder_ids(redis: Any) -> int:
    """Rename every ladder key, leaderboard member and name of an id holding ``#`` to its
    canonical id; how many entries moved. Runs once per Redis (then a marker key skips it);
    an entry whose canonical id already exists is left as it is (never overwritten)."""
    if redis.exists(MIGRATED_KEY):
        return 0
    moved = 0
    # ratings (rk:{rk}:r:...) and histories (rk:{rk}:h:...): the id is the key's last part
    for pattern in ("rk:{rk}:r:*#*", "rk:{rk}:h:*#*"):
        for raw in redis.scan_iter(match=pattern.replace("{", "\\{").replace("}", "\\}"), count=500):
            key = _s(raw)
            head, _, pid = key.rpartition(":")
            if "#" in pid and redis.renamenx(key, f"{head}:{canonical(pid)}"):
                moved += 1
    for raw in redis.scan_iter(match="rk:\\{rk\\}:lb:*", count=500):
        board = _s(raw)
        for member, score in redis.zscan_iter(board, match="*#*"):
            old = _s(member)
            if redis.zadd(board, {canonical(old): score}, nx=True):
                moved += 1
            redis.zrem(board, old)
    for field_name, name in redis.hscan_iter(NAMES_KEY, match="*#*"):
        old = _s(field_name)
        redis.hsetnx(NAMES_KEY, canonical(old), name)
        redis.hdel(NAMES_KEY, old)
        moved += 1
    redis.set(MIGRATED_KEY, "1")
    if moved:
        log.info("ladder: %d entries of ids with '#' renamed to canonical ids", moved)
    return moved
