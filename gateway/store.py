"""What the gateway itself remembers: which seats of a match are human and who claimed them.

The engine service holds the game; the gateway only keeps the seat table of the matches
created through it. With a Redis URL the table lives in Redis (so any gateway replica
serves any match, and a seat is claimed once with ``HSETNX``); without one it lives in
memory (one gateway process, for tests and ``fengsheng gateway`` without Redis).

One guest holds at most one seat of a match (a second seat would show them a second
hand): :meth:`MatchStore.claim` refuses a player who already holds another seat, atomically
(one Lua script on Redis).

A record lives as long as the engine's match (fengsheng/retention.py): it is written with
the idle lifetime, :meth:`MatchStore.touch` renews it (the finished lifetime once the match
is over) whenever the gateway sees the match alive, and :meth:`MatchStore.forget` drops it
as soon as the engine says the match is gone.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from fengsheng.retention import Retention
from gateway import keys
from gateway.auth import Player
from gateway.chat import chat_keys


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
        return cls(**json.loads(text))


class MatchStore(Protocol):
    async def add_match(self, record: MatchRecord) -> bool:
        """Record a new match; false (and nothing written) when its id is already recorded."""
        ...

    async def get_match(self, match_id: str) -> MatchRecord | None: ...

    async def claim(self, match_id: str, seat: int, player: Player) -> bool:
        """Claim a seat for a player; true when the seat is now (or already was) theirs.
        False when another player holds it, or when this player holds another seat."""
        ...

    async def claims(self, match_id: str) -> dict[int, dict[str, str]]: ...

    async def touch(self, match_id: str, *, over: bool) -> None:
        """The engine still has the match: keep its record as long as the engine keeps it."""
        ...

    async def forget(self, match_id: str) -> None:
        """The engine no longer has the match (expired, or it could not be created): drop its
        record, seats and list entry."""
        ...

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

    async def add_match(self, record: MatchRecord) -> bool:
        if record.match_id in self._matches:
            return False
        self._matches[record.match_id] = record
        self._claims.setdefault(record.match_id, {})
        return True

    async def get_match(self, match_id: str) -> MatchRecord | None:
        return self._matches.get(match_id)

    async def claim(self, match_id: str, seat: int, player: Player) -> bool:
        table = self._claims.setdefault(match_id, {})
        if any(s != seat and c["pid"] == player.pid for s, c in table.items()):
            return False
        holder = table.setdefault(seat, {"pid": player.pid, "name": player.name})
        return holder["pid"] == player.pid

    async def claims(self, match_id: str) -> dict[int, dict[str, str]]:
        return dict(self._claims.get(match_id, {}))

    async def touch(self, match_id: str, *, over: bool) -> None:
        return None

    async def forget(self, match_id: str) -> None:
        self._matches.pop(match_id, None)
        self._claims.pop(match_id, None)

    async def recent(self, limit: int) -> list[MatchRecord]:
        records = sorted(self._matches.values(), key=lambda r: r.created_at, reverse=True)
        return records[:limit]

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        return None


#: Claim a seat. KEYS: claims hash (seat -> holder JSON), players hash (pid -> seat).
#: ARGV: seat, holder JSON, pid, TTL (s). Returns 1 (the seat is the player's), 0 (another
#: player's) or -1 (the player holds another seat of this match).
_CLAIM = """
local held = redis.call('HGET', KEYS[2], ARGV[3])
if held and held ~= ARGV[1] then return -1 end
local ok = redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
if ok == 0 then
  local cur = cjson.decode(redis.call('HGET', KEYS[1], ARGV[1]))
  if cur['pid'] ~= ARGV[3] then return 0 end
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""


class RedisStore:
    """The seat table in Redis (one node or a cluster): ``gw:{ID}:match`` (JSON),
    ``gw:{ID}:claims`` (hash seat -> holder) and ``gw:{ID}:players`` (hash player id ->
    seat), each expiring with the match (:class:`fengsheng.retention.Retention`), and
    ``gw:recent`` (the lobby's index). A match's keys share one hash slot (gateway/keys.py)."""

    #: sorted set of match ids by creation time (for the lobby's list of matches)
    RECENT_KEY = keys.RECENT_KEY
    #: the lobby index keeps at most this many ids (older ones are dropped)
    RECENT_MAX = 10_000

    def __init__(self, url: str, retention: Retention | None = None) -> None:
        from services.redis_client import shared_client  # redis is imported only with a Redis store

        self._redis = shared_client(url)
        self.retention = retention or Retention.from_env()
        self._claim = self._redis.register_script(_CLAIM)

    @staticmethod
    def _keys(match_id: str) -> list[str]:
        # the chat's keys (gateway/chat.py) live and die with the seat table
        return [keys.match_key(match_id), keys.claims_key(match_id), keys.players_key(match_id), *chat_keys(match_id)]

    async def add_match(self, record: MatchRecord) -> bool:
        key = keys.match_key(record.match_id)
        if not await self._redis.set(key, record.to_json(), ex=self.retention.idle_s, nx=True):
            return False
        pipe = self._redis.pipeline(transaction=False)
        pipe.zadd(self.RECENT_KEY, {record.match_id: record.created_at})
        # keep the index bounded: ids whose record expired are dropped when listed (recent)
        pipe.zremrangebyrank(self.RECENT_KEY, 0, -self.RECENT_MAX - 1)
        await pipe.execute()
        return True

    async def get_match(self, match_id: str) -> MatchRecord | None:
        raw = await self._redis.get(keys.match_key(match_id))
        return None if raw is None else MatchRecord.from_json(raw)

    async def claim(self, match_id: str, seat: int, player: Player) -> bool:
        claims, players = self._keys(match_id)[1:3]
        value = json.dumps({"pid": player.pid, "name": player.name})
        result = await self._claim(keys=[claims, players], args=[str(seat), value, player.pid, self.retention.idle_s])
        return int(result) == 1

    async def claims(self, match_id: str) -> dict[int, dict[str, str]]:
        raw = await self._redis.hgetall(keys.claims_key(match_id))
        return {int(k): json.loads(v) for k, v in raw.items()}

    async def touch(self, match_id: str, *, over: bool) -> None:
        ttl = self.retention.ttl(over=over)
        pipe = self._redis.pipeline(transaction=False)
        for key in self._keys(match_id):
            pipe.expire(key, ttl)
        await pipe.execute()

    async def forget(self, match_id: str) -> None:
        pipe = self._redis.pipeline(transaction=False)
        pipe.delete(*self._keys(match_id))
        pipe.zrem(self.RECENT_KEY, match_id)
        await pipe.execute()

    async def recent(self, limit: int) -> list[MatchRecord]:
        ids = [_text(i) for i in await self._redis.zrevrange(self.RECENT_KEY, 0, max(limit, 1) - 1)]
        if not ids:
            return []
        # one GET per record in one pipeline: the records live in as many slots as matches
        # (an MGET of keys of several slots is refused by a cluster)
        pipe = self._redis.pipeline(transaction=False)
        for i in ids:
            pipe.get(keys.match_key(i))
        raws = await pipe.execute()
        gone = [i for i, raw in zip(ids, raws, strict=True) if raw is None]
        if gone:  # expired records: drop them from the index too
            await self._redis.zrem(self.RECENT_KEY, *gone)
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
