"""Table talk: a chat for the seated players of a match and a separate one for its spectators.

Chat is text anyone can write (a guest account costs nothing), so every message is checked
here before it is kept (docs/web-client.md, *Chat*):

- **length**: at most :attr:`ChatLimits.max_len` characters (default 200) after invisible
  characters (controls, bidi controls, zero-width) are removed and whitespace is collapsed to
  single spaces; empty is refused; more than four combining marks in a row are refused
  (fengsheng/display_text.py, the one cleaner of names and chat);
- **rate**: a token bucket per player and match (default one message every 2 s, bursts of 5);
- **escaping**: the text is kept and sent as it was written (JSON strings); the web client
  puts it on the page with ``textContent`` only, never as HTML;
- **lifetime**: the messages live in Redis beside the match and expire with it
  (:class:`fengsheng.retention.Retention`: the idle lifetime while it runs, the finished
  lifetime once it is over); a channel keeps its last :attr:`ChatLimits.keep` messages.

A message is either free text or a *quick phrase* (one of :data:`PHRASES`), which each
reader's client shows in the reader's language.

Who reads what (the hidden-information rule of the platform: a channel never carries a seat's
view to someone who may not have it):

- ``table``: written by seated players (seat token). While the match runs only seated players
  read it; once it is over anyone may (the result screen, the replay).
- ``spectators``: written by guests holding no seat of the match (player token). Anyone may
  read it (spectators see public information only, so it can hold nothing hidden), but the
  seated players' client does not show it until the match is over, so spectators cannot
  coach a player from the rail.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from typing import Any, Literal, Protocol

from fengsheng import display_text
from fengsheng.ratelimit import Bucket, RedisTokenBucket, TokenBucket
from fengsheng.retention import Retention
from gateway.keys import chat_key, chat_seq_key

Channel = Literal["table", "spectators"]
CHANNELS: tuple[Channel, ...] = ("table", "spectators")
#: a match's channels and the lobby's one channel (gateway/lobby.py: written with a player
#: token, under the same limits, kept apart from every match)
AnyChannel = Literal["table", "spectators", "lobby"]

#: the quick phrases (the web client has their zh and en text under ``chat.phrase.<id>``)
PHRASES: tuple[str, ...] = ("hello", "gl", "gg", "nice", "thinking", "hurry", "sorry", "thanks", "wow")


class ChatError(Exception):
    """A message that may not be kept: ``status`` is the HTTP status, ``code`` the error code."""

    def __init__(self, status: int, code: str, message: str, *, retry_after_s: float = 0.0) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class ChatLimits:
    """The checks every message passes (environment ``FENGSHENG_CHAT_*``)."""

    #: longest message, in characters
    max_len: int = 200
    #: messages per second a player may send in one match (refill rate of the bucket)
    rate: float = 0.5
    #: messages a player may send at once
    burst: int = 5
    #: messages a channel keeps (older ones are dropped)
    keep: int = 500

    @classmethod
    def from_env(cls) -> ChatLimits:
        env = os.environ
        return cls(
            max_len=int(env.get("FENGSHENG_CHAT_MAX_LEN", cls.max_len)),
            rate=float(env.get("FENGSHENG_CHAT_RATE", cls.rate)),
            burst=int(env.get("FENGSHENG_CHAT_BURST", cls.burst)),
            keep=int(env.get("FENGSHENG_CHAT_KEEP", cls.keep)),
        )


@dataclass(frozen=True)
class ChatMessage:
    """One line of table talk."""

    #: 1, 2, 3... per match (both channels share the counter)
    id: int
    channel: str
    #: the writer's seat, -1 for a spectator
    seat: int
    #: the writer's player id (what the client mutes)
    pid: str
    name: str
    #: free text ("" for a quick phrase)
    text: str
    #: a quick phrase id ("" for free text)
    phrase: str
    #: when it was kept (Unix ms)
    at_ms: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def clean_text(raw: str, max_len: int) -> str:
    """The text as kept (:func:`fengsheng.display_text.clean_text`, the one cleaner of names
    and chat): invisible characters removed (no bidi overrides, no zero-width tricks), runs
    of whitespace made one space, trimmed. Raises :class:`ChatError` (422) when nothing is
    left, it is longer than ``max_len``, or more than
    :data:`~fengsheng.display_text.MAX_MARKS` combining marks are stacked."""
    try:
        return display_text.clean_text(raw, kind="message", max_len=max_len)
    except display_text.TextRefused as exc:
        raise ChatError(422, exc.code, str(exc)) from exc


class ChatStore(Protocol):
    async def append(self, match_id: str, channel: str, message: dict[str, Any], ttl: int) -> int:
        """Keep a message (without its id); returns the id given to it."""
        ...

    async def read(self, match_id: str, channel: str, after: int) -> list[dict[str, Any]]:
        """The channel's messages with an id above ``after``, oldest first."""
        ...

    async def close(self) -> None: ...


class MemoryChatStore:
    """Chat in this process's memory (the gateway without Redis); nothing expires."""

    def __init__(self, keep: int = ChatLimits.keep) -> None:
        self._keep = keep
        self._seq: dict[str, int] = {}
        self._lines: dict[tuple[str, str], list[dict[str, Any]]] = {}

    async def append(self, match_id: str, channel: str, message: dict[str, Any], ttl: int) -> int:
        n = self._seq[match_id] = self._seq.get(match_id, 0) + 1
        lines = self._lines.setdefault((match_id, channel), [])
        lines.append({**message, "id": n})
        del lines[: -self._keep]
        return n

    async def read(self, match_id: str, channel: str, after: int) -> list[dict[str, Any]]:
        return [m for m in self._lines.get((match_id, channel), []) if m["id"] > after]

    async def close(self) -> None:
        return None


#: KEYS: the channel's list, the match's counter. ARGV: message JSON, keep, TTL (s).
_APPEND = """
local n = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[1], n .. ' ' .. ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return n
"""


def chat_keys(match_id: str) -> list[str]:
    """Every Redis key of a match's chat (the seat table's :meth:`touch` renews them too)."""
    return [chat_key(match_id, c) for c in CHANNELS] + [chat_seq_key(match_id)]


class RedisChatStore:
    """Chat in Redis: ``gw:{ID}:chat:CHANNEL`` (a list of ``"N JSON"``) and
    ``gw:{ID}:chatseq`` (the counter), expiring with the match (gateway/keys.py: one hash
    slot per match, so the append script runs on a Redis Cluster too)."""

    def __init__(self, url: str, keep: int = ChatLimits.keep) -> None:
        from services.redis_client import shared_client  # redis is imported only with a Redis store

        self._redis = shared_client(url)
        self._keep = keep
        self._append = self._redis.register_script(_APPEND)

    async def append(self, match_id: str, channel: str, message: dict[str, Any], ttl: int) -> int:
        keys = [chat_key(match_id, channel), chat_seq_key(match_id)]
        payload = json.dumps(message, ensure_ascii=False, sort_keys=True)
        return int(await self._append(keys=keys, args=[payload, self._keep, ttl]))

    async def read(self, match_id: str, channel: str, after: int) -> list[dict[str, Any]]:
        out = []
        for raw in await self._redis.lrange(chat_key(match_id, channel), 0, -1):
            text = raw.decode() if isinstance(raw, bytes) else str(raw)
            head, _, body = text.partition(" ")
            if int(head) > after:
                out.append({**json.loads(body), "id": int(head)})
        return out

    async def close(self) -> None:
        await self._redis.aclose()


class ChatService:
    """Posting and reading chat: the checks, the limits and the lifetime (one per gateway)."""

    def __init__(
        self,
        store: ChatStore,
        bucket: Bucket | None,
        *,
        limits: ChatLimits | None = None,
        retention: Retention | None = None,
    ) -> None:
        self.store = store
        self.bucket = bucket
        self.limits = limits or ChatLimits()
        self.retention = retention or Retention.from_env()

    @classmethod
    def open(cls, redis_url: str | None, *, keep: int | None = None, bucket_prefix: str = "gw:chatrl:"
             ) -> ChatService:  # fmt: skip
        """The service with the limits of the environment; ``keep`` (default
        :attr:`ChatLimits.keep`) and ``bucket_prefix`` let the lobby's chat keep its own
        number of lines and its own buckets under the same length and rate limits."""
        limits = ChatLimits.from_env()
        kept = limits.keep if keep is None else keep
        if redis_url:
            store: ChatStore = RedisChatStore(redis_url, kept)
            bucket: Bucket | None = RedisTokenBucket(redis_url, limits.rate, limits.burst, prefix=bucket_prefix)
        else:
            store, bucket = MemoryChatStore(kept), TokenBucket(limits.rate, limits.burst)
        return cls(store, bucket, limits=limits)

    async def post(
        self,
        match_id: str,
        channel: AnyChannel,
        *,
        seat: int,
        pid: str,
        name: str,
        text: str = "",
        phrase: str = "",
        over: bool = False,
        ttl_s: int | None = None,
    ) -> ChatMessage:
        """Keep one message of ``pid`` (at ``seat``, -1 for a spectator or the lobby) in
        ``channel``; it lives as long as the match (``over``: finished or running), or
        ``ttl_s`` seconds when given (the lobby's lines, which belong to no match)."""
        if phrase:
            if phrase not in PHRASES or text:
                raise ChatError(422, "bad_phrase", f"a quick phrase is one of {', '.join(PHRASES)}, without text")
        else:
            text = clean_text(text, self.limits.max_len)
        if self.bucket is not None:
            wait = await self.bucket.take(f"{match_id}:{pid}")
            if wait > 0:
                raise ChatError(429, "rate_limited", "too many messages; wait a moment", retry_after_s=wait)
        at_ms = int(time.time() * 1000)
        body: dict[str, Any] = {
            "channel": channel,
            "seat": seat,
            "pid": pid,
            "name": name[:40],
            "text": text,
            "phrase": phrase,
            "at_ms": at_ms,
        }
        ttl = self.retention.ttl(over=over) if ttl_s is None else ttl_s
        n = await self.store.append(match_id, channel, body, ttl)
        return ChatMessage(id=n, channel=channel, seat=seat, pid=pid, name=name[:40], text=text, phrase=phrase,
                           at_ms=at_ms)  # fmt: skip

    async def read(self, match_id: str, channel: AnyChannel, after: int = 0) -> list[dict[str, Any]]:
        return await self.store.read(match_id, channel, after)

    async def close(self) -> None:
        await self.store.close()
