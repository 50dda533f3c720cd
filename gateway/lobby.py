"""The lobby: who is online and the lobby's chat (issue 28 §6; docs/web-client.md, *Lobby*).

**Who is online.** A guest whose lobby page is open says so every
:attr:`LobbyLimits.ping_ms` (``POST /api/lobby/presence``, with its player token). The
gateway keeps, per player, the time it last said so and its name; a player not heard from
for :attr:`LobbyLimits.online_ttl_ms` is no longer online (pruned at each ping, and never
listed). At most :attr:`LobbyLimits.online_keep` players are kept (the ones heard from
longest ago are dropped first) and a list shows at most :attr:`LobbyLimits.online_cap`,
the most recently heard first. Pings and reads of the list draw from a token bucket per
player (:attr:`LobbyLimits.rate`, :attr:`LobbyLimits.burst`).

What a list shows: each player's id (what a challenge names, as on the profile page) and
name, and how many are online. Nothing about where anyone sits: being online in the lobby
is all the list says (hidden information: no match, no seat, no ticket).

**Chat.** One channel, ``lobby``, written and read with a player token, under the table
chat's own checks (:class:`gateway.chat.ChatService`: the same length, cleaning, quick
phrases and rate; its own buckets). A line lives :attr:`LobbyLimits.chat_ttl_s` seconds
(the channel's keys are renewed by each line) and the channel keeps its last
:attr:`LobbyLimits.chat_keep`.

Redis keys (gateway/keys.py; one hash tag ``{lobby}``, so each script touches one slot):
``gw:{lobby}:online`` (sorted set player id -> last heard, Unix ms), ``gw:{lobby}:names``
(hash player id -> name), ``gw:{lobby}:chat:lobby`` and ``gw:{lobby}:chatseq`` (the chat),
``gw:lobbyrl:…`` and ``gw:lobbychatrl:…`` (the buckets).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Protocol

from fengsheng.ratelimit import Bucket, RedisTokenBucket, TokenBucket
from gateway.chat import ChatMessage, ChatService
from gateway.keys import LOBBY, lobby_names_key, lobby_online_key
from services.config import ms_env


@dataclass(frozen=True)
class LobbyLimits:
    """The lobby's limits (environment ``FENGSHENG_LOBBY_*``)."""

    #: a player not heard from for this long is no longer online
    online_ttl_ms: int = 45_000
    #: how often the web client says it is still there (told to clients)
    ping_ms: int = 15_000
    #: most players a list shows
    online_cap: int = 50
    #: most players kept (the longest silent are dropped first)
    online_keep: int = 1000
    #: presence pings and list reads per second a player may make (refill rate)
    rate: float = 0.5
    #: presence pings and list reads at once (a page opened again and again pings each time)
    burst: int = 10
    #: how long a lobby chat line lives, in seconds
    chat_ttl_s: int = 3600
    #: lines the lobby's chat keeps
    chat_keep: int = 100

    @classmethod
    def from_env(cls) -> LobbyLimits:
        env = os.environ

        def num(name: str, default: float) -> float:
            return float(env.get(f"FENGSHENG_LOBBY_{name}", default))

        def ms(name: str, default_ms: float, was: str = "") -> float:  # durations: services/config.py
            return ms_env(f"FENGSHENG_LOBBY_{name}", default_ms, was=f"FENGSHENG_LOBBY_{was}" if was else "")

        return cls(
            online_ttl_ms=int(ms("ONLINE_TTL_MS", cls.online_ttl_ms)),
            ping_ms=int(ms("PING_MS", cls.ping_ms)),
            online_cap=int(num("ONLINE_CAP", cls.online_cap)),
            online_keep=int(num("ONLINE_KEEP", cls.online_keep)),
            rate=num("RATE", cls.rate),
            burst=int(num("BURST", cls.burst)),
            chat_ttl_s=max(1, int(ms("CHAT_TTL_MS", cls.chat_ttl_s * 1000, was="CHAT_TTL_S") // 1000)),
            chat_keep=int(num("CHAT_KEEP", cls.chat_keep)),
        )


class PresenceStore(Protocol):
    async def seen(self, pid: str, name: str, now_ms: int, ttl_ms: int, keep: int) -> None:
        """Record that ``pid`` (named ``name``) is in the lobby at ``now_ms``; drop whoever
        was last heard ``ttl_ms`` or more ago and, beyond ``keep`` players, the longest silent."""
        ...

    async def gone(self, pid: str) -> None:
        """``pid`` left the lobby."""
        ...

    async def online(self, since_ms: int, cap: int) -> tuple[list[tuple[str, str]], int]:
        """``([(pid, name)...], count)``: at most ``cap`` players heard from after
        ``since_ms``, the most recent first, and how many there are in all."""
        ...

    async def close(self) -> None: ...


class MemoryPresence:
    """Presence in this process's memory (the gateway without Redis)."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[int, str]] = {}

    async def seen(self, pid: str, name: str, now_ms: int, ttl_ms: int, keep: int) -> None:
        self._seen[pid] = (now_ms, name)
        live = sorted(((at, p, n) for p, (at, n) in self._seen.items() if at > now_ms - ttl_ms), reverse=True)
        self._seen = {p: (at, n) for at, p, n in live[:keep]}

    async def gone(self, pid: str) -> None:
        self._seen.pop(pid, None)

    async def online(self, since_ms: int, cap: int) -> tuple[list[tuple[str, str]], int]:
        live = sorted(((at, p, n) for p, (at, n) in self._seen.items() if at > since_ms), reverse=True)
        return [(p, n) for _, p, n in live[:cap]], len(live)

    async def close(self) -> None:
        return None


#: KEYS: the online set, the names. ARGV: pid, name, now ms, ttl ms, keep.
_SEEN = """
local now, ttl, keep = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local drop = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
local n = redis.call('ZCARD', KEYS[1]) - #drop
if n > keep then
  for _, p in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. (now - ttl), '+inf', 'LIMIT', 0, n - keep)) do
    drop[#drop + 1] = p
  end
end
for i = 1, #drop, 500 do
  local part = {unpack(drop, i, math.min(i + 499, #drop))}
  redis.call('ZREM', KEYS[1], unpack(part))
  redis.call('HDEL', KEYS[2], unpack(part))
end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return n
"""


class RedisPresence:
    """Presence in Redis: ``gw:{lobby}:online`` and ``gw:{lobby}:names``, both expiring
    when no one has pinged for the online lifetime."""

    def __init__(self, url: str) -> None:
        from services.redis_client import shared_client  # redis is imported only with a Redis store

        self._redis = shared_client(url)
        self._seen = self._redis.register_script(_SEEN)

    async def seen(self, pid: str, name: str, now_ms: int, ttl_ms: int, keep: int) -> None:
        await self._seen(keys=[lobby_online_key(), lobby_names_key()], args=[pid, name, now_ms, ttl_ms, keep])

    async def gone(self, pid: str) -> None:
        await self._redis.zrem(lobby_online_key(), pid)
        await self._redis.hdel(lobby_names_key(), pid)

    async def online(self, since_ms: int, cap: int) -> tuple[list[tuple[str, str]], int]:
        key = lobby_online_key()
        raw = await self._redis.zrevrangebyscore(key, "+inf", f"({since_ms}", start=0, num=cap)
        pids = [p.decode() if isinstance(p, bytes) else str(p) for p in raw]
        count = int(await self._redis.zcount(key, f"({since_ms}", "+inf"))
        names = await self._redis.hmget(lobby_names_key(), pids) if pids else []
        out = [(p, n.decode() if isinstance(n, bytes) else str(n or p)) for p, n in zip(pids, names, strict=True)]
        return out, count

    async def close(self) -> None:
        await self._redis.aclose()


class LobbyLimited(Exception):
    """A player pinging or reading the list faster than :class:`LobbyLimits` allows."""

    def __init__(self, wait_s: float) -> None:
        super().__init__("too many lobby requests; wait a moment")
        self.wait_s = wait_s


class LobbyService:
    """Who is online and the lobby's chat (one per gateway)."""

    def __init__(self, presence: PresenceStore, bucket: Bucket, chat: ChatService, limits: LobbyLimits) -> None:
        self.presence = presence
        self.bucket = bucket
        self.chat = chat
        self.limits = limits

    @classmethod
    def open(cls, redis_url: str | None) -> LobbyService:
        limits = LobbyLimits.from_env()
        chat = ChatService.open(redis_url, keep=limits.chat_keep, bucket_prefix="gw:lobbychatrl:")
        if redis_url:
            presence: PresenceStore = RedisPresence(redis_url)
            bucket: Bucket = RedisTokenBucket(redis_url, limits.rate, limits.burst, prefix="gw:lobbyrl:")
        else:
            presence, bucket = MemoryPresence(), TokenBucket(limits.rate, limits.burst)
        return cls(presence, bucket, chat, limits)

    async def _take(self, pid: str) -> None:
        wait = await self.bucket.take(pid)
        if wait > 0:
            raise LobbyLimited(wait)

    async def ping(self, pid: str, name: str) -> dict[str, Any]:
        """``pid`` is in the lobby now; the list as it then is (:meth:`online`)."""
        await self._take(pid)
        now = int(time.time() * 1000)
        await self.presence.seen(pid, name[:40], now, self.limits.online_ttl_ms, self.limits.online_keep)
        return await self._listing(now)

    async def leave(self, pid: str) -> None:
        """``pid`` closed its lobby: off the list at once (no bucket: it only removes)."""
        await self.presence.gone(pid)

    async def online(self, pid: str) -> dict[str, Any]:
        """The list: ``players`` (``player_id``, ``name``; the most recently heard first, at
        most :attr:`LobbyLimits.online_cap`), ``count`` (all online), ``cap``, ``ttl_ms``
        and ``ping_ms`` (how often a client should ping to stay on it)."""
        await self._take(pid)
        return await self._listing(int(time.time() * 1000))

    async def _listing(self, now_ms: int) -> dict[str, Any]:
        players, count = await self.presence.online(now_ms - self.limits.online_ttl_ms, self.limits.online_cap)
        return {
            "players": [{"player_id": p, "name": n} for p, n in players],
            "count": count,
            "cap": self.limits.online_cap,
            "ttl_ms": self.limits.online_ttl_ms,
            "ping_ms": self.limits.ping_ms,
        }

    async def say(self, pid: str, name: str, text: str, phrase: str) -> ChatMessage:
        """One line in the lobby's chat (the table chat's checks; :class:`gateway.chat.ChatError`)."""
        return await self.chat.post(LOBBY, "lobby", seat=-1, pid=pid, name=name, text=text, phrase=phrase,
                                    ttl_s=self.limits.chat_ttl_s)  # fmt: skip

    async def lines(self, after: int) -> list[dict[str, Any]]:
        return await self.chat.read(LOBBY, "lobby", after)

    async def close(self) -> None:
        await self.presence.close()
        await self.chat.close()
        close = getattr(self.bucket, "close", None)
        if close is not None:
            await close()
