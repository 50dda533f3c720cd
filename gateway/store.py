"""What the gateway itself remembers: which seats of a match are human and who claimed them.

The engine service holds the game; the gateway only keeps the seat table of the matches
created through it. With a Redis URL the table lives in Redis (so any gateway replica
serves any match, and a seat is claimed once with ``HSETNX``); without one it lives in
memory (one gateway process, for tests and ``fengsheng gateway`` without Redis).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from gateway.auth import Player


@dataclass
class MatchRecord:
    """A match created through the gateway."""

    match_id: str
    #: one per seat: "human", "random", "heuristic" or "external"
    seats: list[str]
    settings: dict[str, Any]
    created_by: str = ""
    created_at: float = field(default_factory=time.time)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> MatchRecord:
        data = json.loads(text)
        return cls(**data)


class MatchStore(Protocol):
    async def put_match(self, record: MatchRecord) -> None: ...

    async def add_match(self, record: MatchRecord) -> bool:
        """Record a new match; false (and nothing written) when its id is already recorded."""
        ...

    async def forget_match(self, match_id: str) -> None:
        """Drop a match's record and seats (its engine match could not be created)."""
        ...

    async def get_match(self, match_id: str) -> MatchRecord | None: ...

    async def claim(self, match_id: str, seat: int, player: Player) -> bool:
        """Claim a seat for a player; true when the seat is now (or already was) theirs."""
        ...

    async def claims(self, match_id: str) -> dict[int, dict[str, str]]: ...

    async def recent(self, limit: int) -> list[MatchRecord]:
        """The matches created most recently through the gateway, newest first."""
        ...

    async def ping(self) -> bool: ...

    async def close(self) -> None: ...


class MemoryStore:
    """The seat table in this process's memory."""

    def __init__(self) -> None:
        self._matches: dict[str, MatchRecord] = {}
        self._claims: dict[str, dict[int, dict[str, str]]] = {}

    async def put_match(self, record: MatchRecord) -> None:
        self._matches[record.match_id] = record
        self._claims.setdefault(record.match_id, {})

    async def add_match(self, record: MatchRecord) -> bool:
        if record.match_id in self._matches:
            return False
        await self.put_match(record)
        return True

    async def forget_match(self, match_id: str) -> None:
        self._matches.pop(match_id, None)
        self._claims.pop(match_id, None)

    async def get_match(self, match_id: str) -> MatchRecord | None:
        return self._matches.get(match_id)

    async def claim(self, match_id: str, seat: int, player: Player) -> bool:
        table = self._claims.setdefault(match_id, {})
        holder = table.setdefault(seat, {"pid": player.pid, "name": player.name})
        return holder["pid"] == player.pid

    async def claims(self, match_id: str) -> dict[int, dict[str, str]]:
        return dict(self._claims.get(match_id, {}))

    async def recent(self, limit: int) -> list[MatchRecord]:
        records = sorted(self._matches.values(), key=lambda r: r.created_at, reverse=True)
        return records[:limit]

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        return None


class RedisStore:
    """The seat table in Redis: ``gw:match:{id}`` (JSON) and ``gw:claims:{id}`` (hash)."""

    #: matches are forgotten a week after their creation
    TTL_S = 7 * 24 * 3600
    #: sorted set of match ids by creation time (for the lobby's list of matches)
    RECENT_KEY = "gw:recent"

    def __init__(self, url: str) -> None:
        import redis.asyncio as aredis

        self._redis = aredis.Redis.from_url(url)

    async def put_match(self, record: MatchRecord) -> None:
        await self._redis.set(f"gw:match:{record.match_id}", record.to_json(), ex=self.TTL_S)
        await self._redis.zadd(self.RECENT_KEY, {record.match_id: record.created_at})
        # keep the index small: forget entries older than the records themselves
        await self._redis.zremrangebyscore(self.RECENT_KEY, "-inf", time.time() - self.TTL_S)

    async def add_match(self, record: MatchRecord) -> bool:
        if not await self._redis.set(f"gw:match:{record.match_id}", record.to_json(), ex=self.TTL_S, nx=True):
            return False
        await self._redis.zadd(self.RECENT_KEY, {record.match_id: record.created_at})
        await self._redis.zremrangebyscore(self.RECENT_KEY, "-inf", time.time() - self.TTL_S)
        return True

    async def forget_match(self, match_id: str) -> None:
        pipe = self._redis.pipeline(transaction=True)
        pipe.delete(f"gw:match:{match_id}", f"gw:claims:{match_id}")
        pipe.zrem(self.RECENT_KEY, match_id)
        await pipe.execute()

    async def get_match(self, match_id: str) -> MatchRecord | None:
        raw = await self._redis.get(f"gw:match:{match_id}")
        return None if raw is None else MatchRecord.from_json(raw)

    async def claim(self, match_id: str, seat: int, player: Player) -> bool:
        key = f"gw:claims:{match_id}"
        value = json.dumps({"pid": player.pid, "name": player.name})
        if await self._redis.hsetnx(key, str(seat), value):
            await self._redis.expire(key, self.TTL_S)
            return True
        raw = await self._redis.hget(key, str(seat))
        return raw is not None and json.loads(raw)["pid"] == player.pid

    async def claims(self, match_id: str) -> dict[int, dict[str, str]]:
        raw = await self._redis.hgetall(f"gw:claims:{match_id}")
        return {int(k): json.loads(v) for k, v in raw.items()}

    async def recent(self, limit: int) -> list[MatchRecord]:
        ids = await self._redis.zrevrange(self.RECENT_KEY, 0, max(limit, 1) - 1)
        if not ids:
            return []
        raws = await self._redis.mget([f"gw:match:{_text(i)}" for i in ids])
        return [MatchRecord.from_json(raw) for raw in raws if raw is not None]

    async def ping(self) -> bool:
        try:
            return bool(await self._redis.ping())
        except Exception:
            return False

    async def close(self) -> None:
        await self._redis.aclose()


def open_store(redis_url: str | None) -> MatchStore:
    return RedisStore(redis_url) if redis_url else MemoryStore()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
