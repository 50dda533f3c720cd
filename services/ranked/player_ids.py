"""Canonical player ids: letters, digits, ``_`` and ``-`` only, so an id goes into a URL
path as it is (``GET /api/ranked/players/house-heuristic-2/history``), never URL-encoded.

House bots were ``house-heuristic#2`` (and arena entrants ``random#1``) before; the
``#`` had to be sent as ``%23``. :func:`migrate_ladder_ids` renames the ladder's keys
of such ids, and :func:`migrate_match_ids` the seats of the ranked match records
(``GET /api/ranked/matches/{id}``), once each, at the ranked service's start
(idempotent, marked done in Redis).
"""

from __future__ import annotations

import logging
from typing import Any

from services.ranked.ladder import NAMES_KEY

log = logging.getLogger(__name__)

#: set once the ladder's ``#`` ids were renamed
MIGRATED_KEY = "rk:{rk}:migrated:ids-v1"
#: set once the ranked match records' ``#`` ids were renamed
MATCHES_MIGRATED_KEY = "mm:{mm}:migrated:ids-v1"


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


def migrate_match_ids(redis: Any) -> int:
    """Rewrite the seats of every ranked (and casual) match record whose ``player_id``
    holds ``#`` to canonical ids; how many records changed. Once per Redis (a marker key
    then skips it); a record is rewritten only while it still holds the old JSON, so a
    concurrent writer is never overwritten."""
    import json

    if redis.exists(MATCHES_MIGRATED_KEY):
        return 0
    changed = 0
    for raw in redis.scan_iter(match="mm:\\{mm\\}:m:*", count=500):
        key = _s(raw)
        record = redis.hget(key, "record")
        if record is None or b"#" not in (record if isinstance(record, bytes) else record.encode()):
            continue
        seats = json.loads(record)
        for seat in seats:
            seat["player_id"] = canonical(str(seat.get("player_id", "")))
        with redis.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(key)
                if pipe.hget(key, "record") != record:
                    continue
                pipe.multi()
                pipe.hset(key, "record", json.dumps(seats))
                pipe.execute()
                changed += 1
            except Exception as exc:  # WatchError: changed meanwhile, it is a new record anyway
                if type(exc).__name__ != "WatchError":
                    raise
    redis.set(MATCHES_MIGRATED_KEY, "1")
    if changed:
        log.info("ranked matches: %d records of seats with '#' ids rewritten to canonical ids", changed)
    return changed
