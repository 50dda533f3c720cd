"""Ranked play's state in Redis: bot accounts, queue tickets, ranked match records.

Synchronous redis-py (the Celery tasks call it directly; the async gRPC servicers through
``asyncio.to_thread``). Every state change of a ticket is one Lua script, so a ticket is
claimed by at most one match even when several matchmaking ticks run at once: the claim
script checks that every ticket of the group is still ``queued`` and, only then, marks
them all ``matched`` in the same atomic step (docs/ranked.md, "Redis layout").

Keys share the hash tag ``{mm}`` (one slot on Redis Cluster, so the scripts may touch any
ticket); bot accounts live under ``bot:{bot}:`` (one slot too: an account's record, token,
name claim, token list and owner's list are written in one ``MULTI``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from services.config import ms_env
from services.ranked.ladder import DEFAULT_RULESET

QUEUE_KEY = "mm:{mm}:q"
ACTIVE_KEY = "mm:{mm}:active"


def ticket_key(ticket_id: str) -> str:
    return f"mm:{{mm}}:t:{ticket_id}"


def holder_key(holder: str) -> str:
    return f"mm:{{mm}}:holder:{holder}"


def invitations_key(holder: str) -> str:
    """The holder's open challenge invitations (services/ranked/casual.py): ticket ids scored by
    their deadline (ms), so a stream that connects late is sent them (:meth:`RankedStore.open_invitations`)."""
    return f"mm:{{mm}}:inv:{holder}"


def challenges_key(holder: str) -> str:
    """The holder's pending challenges as challenger (services/ranked/casual.py): challenge ids
    scored by their deadline (ms); they count toward its concurrent-match limit."""
    return f"mm:{{mm}}:chq:{holder}"


def match_key(match_id: str) -> str:
    return f"mm:{{mm}}:m:{match_id}"


def bot_matches_key(bot_id: str) -> str:
    return f"mm:{{mm}}:botm:{bot_id}"


def seen_key(holder: str) -> str:
    """The client addresses a ticket holder was seen from (zset: address -> last seen, ms),
    kept for the address window only (docs/ranked.md, "What a rated table forbids")."""
    return f"mm:{{mm}}:seen:{holder}"


def notify_channel(holder: str) -> str:
    return f"mm:notify:{holder}"


#: every bot-account key starts so (hash tag ``{bot}``: one slot on a Redis Cluster)
BOT_PREFIX = "bot:{bot}:"
#: a token's key is this and its SHA-256 (hex)
TOKEN_PREFIX = BOT_PREFIX + "tok:"


def bot_key(bot_id: str) -> str:
    """The account's record (hash ``name owner created``)."""
    return BOT_PREFIX + bot_id


def token_hash_key(token: str) -> str:
    return TOKEN_PREFIX + hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def bot_name_key(name: str) -> str:
    """The claim on a bot name (case-insensitive): names are unique while the account lives."""
    return BOT_PREFIX + "name:" + hashlib.sha256(name.strip().casefold().encode("utf-8", "replace")).hexdigest()


def token_id_of(token: str) -> str:
    """A token's public name (the first 16 hex digits of its SHA-256): listed, revoked by."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:16]


def bot_tokens_key(bot_id: str) -> str:
    """A bot's live tokens: token id -> JSON ``{"h": sha256 hex, "created": ms}``."""
    return f"{BOT_PREFIX}toks:{bot_id}"


def owned_key(owner: str) -> str:
    """The bots a player registered (ids)."""
    return f"{BOT_PREFIX}owned:{owner}"


def bot_live_key(bot_id: str) -> str:
    """The bot's live stream id: only that stream's actions are taken (one live stream per bot)."""
    return f"{BOT_PREFIX}live:{bot_id}"


def bot_holder(bot_id: str) -> str:
    return f"b:{bot_id}"


def human_holder(player_id: str) -> str:
    return f"h:{player_id}"


def player_of(holder: str) -> str:
    return holder.split(":", 1)[1] if ":" in holder else holder


#: a casual table's record and tickets expire after this long whatever happens (2 days)
CASUAL_TTL_MS = 2 * 86400 * 1000

# ARGV: ticket, holder, name, bot, rating, min, max, enqueue ms, ruleset, owner, address. The
# holder's queued ticket with the same settings is the answer; one with other settings is replaced.
_JOIN = """
local cur = redis.call('GET', KEYS[3])
local replaced = ''
if cur then
  local tk = 'mm:{mm}:t:' .. cur
  local t = redis.call('HMGET', tk, 'state', 'min', 'max', 'ruleset')
  if t[1] == 'queued' then
    if t[2] == ARGV[6] and t[3] == ARGV[7] and t[4] == ARGV[9] then return {0, cur, ''} end
    redis.call('ZREM', KEYS[1], cur)
    redis.call('HSET', tk, 'state', 'replaced', 'left', ARGV[8], 'replaced_by', ARGV[1])
    replaced = cur
  end
end
redis.call('HSET', KEYS[2], 'holder', ARGV[2], 'name', ARGV[3], 'bot', ARGV[4], 'rating', ARGV[5],
           'min', ARGV[6], 'max', ARGV[7], 'enq', ARGV[8], 'state', 'queued', 'ruleset', ARGV[9],
           'owner', ARGV[10], 'addr', ARGV[11])
redis.call('PEXPIRE', KEYS[2], 7 * 86400000)
redis.call('ZADD', KEYS[1], ARGV[8], ARGV[1])
redis.call('SET', KEYS[3], ARGV[1])
return {1, ARGV[1], replaced}
"""

_LEAVE = """
local t = redis.call('HMGET', KEYS[1], 'holder', 'state')
if not t[1] then return {-1, ''} end
if t[1] ~= ARGV[2] then return {-2, t[2]} end
if t[2] ~= 'queued' then return {0, t[2]} end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[1], 'state', 'left', 'left', ARGV[3])
if redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
return {1, 'left'}
"""

# ARGV: match id, now ms, record JSON, season, turn timeout, seats JSON, n, ruleset, then
# n x (ticket, seat)
_CLAIM = """
local n = tonumber(ARGV[7])
for i = 1, n do
  local tid = ARGV[8 + 2 * i - 1]
  if not redis.call('ZSCORE', 'mm:{mm}:q', tid) then return {0, tid} end
  if redis.call('HGET', 'mm:{mm}:t:' .. tid, 'state') ~= 'queued' then return {0, tid} end
end
for i = 1, n do
  local tid = ARGV[8 + 2 * i - 1]
  local tk = 'mm:{mm}:t:' .. tid
  redis.call('ZREM', 'mm:{mm}:q', tid)
  redis.call('HSET', tk, 'state', 'claimed', 'match_id', ARGV[1], 'seat', ARGV[8 + 2 * i],
             'seats', ARGV[6], 'matched', ARGV[2], 'timeout', ARGV[5])
  local holder = redis.call('HGET', tk, 'holder')
  if redis.call('GET', 'mm:{mm}:holder:' .. holder) == tid then redis.call('DEL', 'mm:{mm}:holder:' .. holder) end
  if string.sub(holder, 1, 2) == 'b:' then
    redis.call('SADD', 'mm:{mm}:botm:' .. string.sub(holder, 3), ARGV[1])
  end
end
redis.call('HSET', 'mm:{mm}:m:' .. ARGV[1], 'record', ARGV[3], 'season', ARGV[4], 'created', ARGV[2],
           'timeout', ARGV[5], 'ruleset', ARGV[8])
redis.call('ZADD', 'mm:{mm}:active', ARGV[2], ARGV[1])
return {1, ARGV[1]}
"""

# ARGV: match id, n, then n tickets: undo a claim whose match could not be created
_RELEASE = """
local n = tonumber(ARGV[2])
for i = 1, n do
  local tid = ARGV[2 + i]
  local tk = 'mm:{mm}:t:' .. tid
  if redis.call('HGET', tk, 'match_id') == ARGV[1] then
    redis.call('HSET', tk, 'state', 'queued')
    redis.call('HDEL', tk, 'match_id', 'seat', 'seats', 'matched')
    redis.call('ZADD', 'mm:{mm}:q', redis.call('HGET', tk, 'enq'), tid)
    local holder = redis.call('HGET', tk, 'holder')
    redis.call('SET', 'mm:{mm}:holder:' .. holder, tid)
    if string.sub(holder, 1, 2) == 'b:' then
      redis.call('SREM', 'mm:{mm}:botm:' .. string.sub(holder, 3), ARGV[1])
    end
  end
end
redis.call('DEL', 'mm:{mm}:m:' .. ARGV[1])
redis.call('ZREM', 'mm:{mm}:active', ARGV[1])
return 1
"""


@dataclass(frozen=True)
class SeatPlan:
    """Who sits at one seat of a ranked match."""

    seat: int
    kind: str  # human, external (a registered bot), or the house policy (heuristic, random)
    player_id: str
    name: str
    bot: bool
    holder: str = ""  # "" for house bots
    ticket_id: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "player_id": self.player_id, "name": self.name,
                "bot": self.bot, "holder": self.holder, "ticket_id": self.ticket_id}  # fmt: skip


def ticket_dict(ticket_id: str, raw: dict[bytes, bytes]) -> dict[str, Any]:
    """A ticket hash as plain data (the shape of ``fengsheng.v1.Ticket``)."""
    f = {k.decode(): v.decode() for k, v in raw.items()}
    return {
        "ticket_id": ticket_id,
        "holder": f.get("holder", ""),
        "name": f.get("name", ""),
        "bot": f.get("bot") == "1",
        "state": f.get("state", ""),
        "min_players": int(f.get("min", 0)),
        "max_players": int(f.get("max", 0)),
        "rating": float(f.get("rating", 0)),
        "enqueued_ms": int(f.get("enq", 0)),
        "match_id": f.get("match_id", ""),
        "seat": int(f.get("seat", -1)),
        "seats": json.loads(f["seats"]) if f.get("seats") else [],
        "turn_timeout_s": float(f.get("timeout", 0)),
        "matched_ms": int(f.get("matched", 0)),
        "ruleset": f.get("ruleset", ""),  # every ticket is written naming its ruleset
        "expires_ms": int(f.get("expires", 0)),  # a challenge's (services/ranked/casual.py)
        "challenger": f.get("challenger", ""),
        # who stands behind the ticket (a person: themselves; a bot: its owner) and where it
        # queued from: what keeps accounts apart at a rated table (matchmaking.kept_apart)
        "owner": f.get("owner") or player_of(f.get("holder", "")),
        "address": f.get("addr", ""),
    }


#: A bot account nobody uses expires after this long (``FENGSHENG_BOT_IDLE_TTL_MS``, 30 days):
#: anyone may register one, so none may stay forever unused. Every use of its token (a
#: connection, a queue request) starts the time again.
DEFAULT_BOT_IDLE_TTL_S = 30 * 24 * 3600


def bot_idle_ttl_s() -> int:
    """The bot accounts' idle lifetime from the environment (seconds, at least 1)."""
    ms = ms_env("FENGSHENG_BOT_IDLE_TTL_MS", DEFAULT_BOT_IDLE_TTL_S * 1000, was="FENGSHENG_BOT_IDLE_TTL_S")
    if ms < 1000:
        raise ValueError(f"FENGSHENG_BOT_IDLE_TTL_MS must be at least 1000 (one second), not {ms:g}")
    return -int(-ms // 1000)


class RankedStore:
    """Bot accounts, the queue and ranked match records on one Redis (sync client)."""

    def __init__(self, redis: Any, *, bot_ttl_s: int | None = None) -> None:
        self.redis = redis
        #: an unused bot account's lifetime (its record and its token's hash)
        self.bot_ttl_s = bot_idle_ttl_s() if bot_ttl_s is None else bot_ttl_s
        self._join = redis.register_script(_JOIN)
        self._leave = redis.register_script(_LEAVE)
        self._claim = redis.register_script(_CLAIM)
        self._release = redis.register_script(_RELEASE)

    @classmethod
    def from_url(cls, url: str) -> RankedStore:
        """A store on one node or, for a ``redis+cluster://`` URL, a Redis Cluster."""
        from services.redis_client import sync_client

        return cls(sync_client(url))

    # ---- bot accounts -----------------------------------------------------------------
    def register_bot(self, name: str, owner: str) -> tuple[str, str] | None:
        """A new bot account owned by the player ``owner`` (required: every bot has an owner,
        whom a rated table never seats beside it): ``(bot_id, token)``; None when another live
        account has that name (case-insensitive). Only the token's SHA-256 is stored."""
        if not owner:
            raise ValueError("a bot account needs an owner (the registering player's id)")
        bot_id = "b_" + secrets.token_hex(6)
        token = "fsb_" + secrets.token_urlsafe(32)
        if not self.redis.set(bot_name_key(name), bot_id, nx=True, ex=self.bot_ttl_s):
            return None
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(bot_key(bot_id), mapping={"name": name, "owner": owner, "created": int(time.time())})
        pipe.expire(bot_key(bot_id), self.bot_ttl_s)
        pipe.set(token_hash_key(token), bot_id, ex=self.bot_ttl_s)
        self._add_token(pipe, bot_id, token)
        pipe.sadd(owned_key(owner), bot_id)
        pipe.expire(owned_key(owner), self.bot_ttl_s)
        pipe.execute()
        return bot_id, token

    def _add_token(self, pipe: Any, bot_id: str, token: str) -> None:
        digest = hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
        entry = json.dumps({"h": digest, "created": int(time.time() * 1000)})
        pipe.hsetnx(bot_tokens_key(bot_id), digest[:16], entry)
        pipe.expire(bot_tokens_key(bot_id), self.bot_ttl_s)

    def bot_account(self, bot_id: str) -> dict[str, Any] | None:
        """A bot's name, owner, creation time (ms) and live tokens (oldest first), or None."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(bot_key(bot_id))
        pipe.hgetall(bot_tokens_key(bot_id))
        raw, toks = pipe.execute()
        if not raw:
            return None
        tokens = []
        for tid, entry in toks.items():
            info = json.loads(entry)
            if self.redis.exists(TOKEN_PREFIX + info["h"]):  # an idle token expired on its own
                tokens.append({"token_id": tid.decode(), "created_ms": int(info["created"])})
        tokens.sort(key=lambda t: (t["created_ms"], t["token_id"]))
        return {"bot_id": bot_id, "name": raw.get(b"name", b"").decode(), "owner": raw.get(b"owner", b"").decode(),
                "created_ms": int(raw.get(b"created", b"0") or 0) * 1000, "tokens": tokens}  # fmt: skip

    def owned_bots(self, owner: str) -> list[str]:
        return sorted(x.decode() for x in self.redis.smembers(owned_key(owner)))

    def revoke_token(self, bot_id: str, token_id: str) -> bool:
        """Revoke one token of ``bot_id``; False when it has no such token."""
        entry = self.redis.hget(bot_tokens_key(bot_id), token_id)
        if entry is None:
            return False
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(TOKEN_PREFIX + json.loads(entry)["h"])
        pipe.hdel(bot_tokens_key(bot_id), token_id)
        pipe.execute()
        return True

    def rotate_token(self, bot_id: str) -> tuple[str, str]:
        """A new token for ``bot_id``, every older one revoked: ``(token, token_id)``."""
        token = "fsb_" + secrets.token_urlsafe(32)
        old = [x.decode() for x in self.redis.hkeys(bot_tokens_key(bot_id))]
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(token_hash_key(token), bot_id, ex=self.bot_ttl_s)
        self._add_token(pipe, bot_id, token)
        pipe.execute()
        for tid in old:
            self.revoke_token(bot_id, tid)
        return token, token_id_of(token)

    def token_live(self, token: str) -> bool:
        return bool(token) and bool(self.redis.exists(token_hash_key(token)))

    def bot_of_token(self, token: str) -> tuple[str, str, str] | None:
        """``(bot_id, name, owner)`` of an API token, or None (unknown, or expired unused). A
        use: the account's idle lifetime starts again."""
        if not token:
            return None
        raw = self.redis.get(token_hash_key(token))
        if raw is None:
            return None
        bot_id = raw.decode()
        name, owner = self.redis.hmget(bot_key(bot_id), "name", "owner")
        if name is None or not owner:  # the account expired before its token: the token is dead too
            self.redis.delete(token_hash_key(token))
            return None
        pipe = self.redis.pipeline(transaction=False)
        pipe.expire(token_hash_key(token), self.bot_ttl_s)
        pipe.expire(bot_key(bot_id), self.bot_ttl_s)
        pipe.expire(bot_name_key(name.decode()), self.bot_ttl_s)  # the name stays claimed while the account lives
        pipe.expire(bot_tokens_key(bot_id), self.bot_ttl_s)  # the token list lives as long as the account
        pipe.execute()
        return bot_id, name.decode(), owner.decode()

    # ---- client addresses -------------------------------------------------------------
    def record_address(self, holder: str, address: str, window_s: float, now_ms: int | None = None) -> None:
        """``holder`` was seen from ``address`` now: kept ``window_s`` (nothing kept when the
        window is 0, the address rule off, or the address unknown)."""
        if window_s <= 0 or not holder or not address:
            return
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        window_ms = max(int(window_s * 1000), 1)
        pipe = self.redis.pipeline(transaction=True)
        pipe.zadd(seen_key(holder), {address: now_ms})
        pipe.zremrangebyscore(seen_key(holder), "-inf", f"({now_ms - window_ms}")
        pipe.pexpire(seen_key(holder), window_ms)
        pipe.execute()

    def recent_addresses(self, holders: list[str], window_s: float, now_ms: int | None = None
                         ) -> dict[str, frozenset[str]]:  # fmt: skip
        """Each holder's client addresses seen within the last ``window_s`` (none when 0)."""
        if window_s <= 0 or not holders:
            return {h: frozenset() for h in holders}
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        since = now_ms - int(window_s * 1000)
        pipe = self.redis.pipeline(transaction=False)
        for holder in holders:
            pipe.zrangebyscore(seen_key(holder), since, "+inf")
        found = pipe.execute()
        return {h: frozenset(a.decode() for a in addrs) for h, addrs in zip(holders, found, strict=True)}

    # ---- the queue --------------------------------------------------------------------
    def join(self, holder: str, name: str, *, bot: bool, rating: float, min_players: int, max_players: int,
             ruleset: str = DEFAULT_RULESET, owner: str = "", address: str = "",
             now_ms: int | None = None) -> tuple[bool, dict[str, Any]]:  # fmt: skip
        """Queue a ticket; ``(created, ticket)``. Not created: the holder's queued ticket has
        these settings (ruleset, player range) and is the answer. A queued ticket with
        other settings is replaced (state ``replaced``, out of the queue; both changes are
        published to the holder) by the new one. ``owner``: the person behind the ticket (a
        bot's owner; default: the holder itself); ``address``: the client address it queued
        from (matchmaking keeps both apart at a rated table)."""
        ticket_id = "t_" + secrets.token_hex(8)
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        created, tid, replaced = self._join(
            keys=[QUEUE_KEY, ticket_key(ticket_id), holder_key(holder)],
            args=[ticket_id, holder, name, int(bot), rating, min_players, max_players, now_ms, ruleset, owner,
                  address],
        )  # fmt: skip
        tid = tid.decode() if isinstance(tid, bytes) else tid
        replaced = replaced.decode() if isinstance(replaced, bytes) else replaced
        ticket = self.ticket(tid)
        assert ticket is not None
        if replaced:
            old = self.ticket(replaced)
            if old is not None:
                self.publish(old)
            self.publish(ticket)
        return bool(created), ticket

    def leave(self, ticket_id: str, holder: str) -> tuple[str, dict[str, Any] | None]:
        """``("left" | "unchanged" | "not_found" | "forbidden", ticket)``. ``"left"``: this
        call took a queued ticket out of the queue, and the change is published to the
        holder (``/ws/ranked``, the bot's stream) like every other change (issue 17 §7);
        ``"unchanged"``: the ticket was no longer queued (claimed, matched, left before:
        the ticket shows which), nothing is published."""
        code, _state = self._leave(
            keys=[ticket_key(ticket_id), QUEUE_KEY, holder_key(holder)],
            args=[ticket_id, holder, int(time.time() * 1000)],
        )
        code = int(code)
        if code == -1:
            return "not_found", None
        if code == -2:
            return "forbidden", None
        ticket = self.ticket(ticket_id)
        if code == 1 and ticket is not None:
            self.publish(ticket)
        return ("left" if code == 1 else "unchanged"), ticket

    def ticket(self, ticket_id: str) -> dict[str, Any] | None:
        raw = self.redis.hgetall(ticket_key(ticket_id))
        return ticket_dict(ticket_id, raw) if raw else None

    def holder_ticket(self, holder: str) -> dict[str, Any] | None:
        tid = self.redis.get(holder_key(holder))
        return self.ticket(tid.decode()) if tid else None

    def open_invitations(self, holder: str) -> list[dict[str, Any]]:
        """The holder's challenge invitations still to answer or awaiting the others
        (``invited``/``accepted``, deadline not passed), soonest deadline first."""
        now_ms = int(time.time() * 1000)
        ids = [x.decode() for x in self.redis.zrangebyscore(invitations_key(holder), now_ms, "+inf")]
        tickets = [self.ticket(tid) for tid in ids]
        return [t for t in tickets if t is not None and t["state"] in ("invited", "accepted")]

    def queued(self) -> list[dict[str, Any]]:
        """Every queued ticket, oldest first."""
        ids = [x.decode() for x in self.redis.zrange(QUEUE_KEY, 0, -1)]
        pipe = self.redis.pipeline(transaction=False)
        for tid in ids:
            pipe.hgetall(ticket_key(tid))
        return [ticket_dict(tid, raw) for tid, raw in zip(ids, pipe.execute(), strict=True) if raw]

    def claim(self, match_id: str, season: str, seats: list[SeatPlan], turn_timeout_s: float,
              ruleset: str = DEFAULT_RULESET) -> bool:  # fmt: skip
        """Atomically take every ticket of ``seats`` out of the queue for ``match_id`` of
        ``ruleset`` (state ``claimed`` until :meth:`confirm`); false (nothing changed) if any
        of them is no longer queued."""
        record = json.dumps([s.to_dict() for s in seats])
        kinds = json.dumps([s.kind for s in seats])
        pairs = [x for s in seats if s.ticket_id for x in (s.ticket_id, s.seat)]
        ok, _ = self._claim(
            keys=[QUEUE_KEY],
            args=[match_id, int(time.time() * 1000), record, season, turn_timeout_s, kinds, len(pairs) // 2, ruleset,
                  *pairs],
        )  # fmt: skip
        return bool(int(ok))

    def confirm(self, match_id: str, ticket_ids: list[str]) -> None:
        """The match exists in the engine: its claimed tickets become ``matched``."""
        pipe = self.redis.pipeline(transaction=True)
        for tid in ticket_ids:
            pipe.hset(ticket_key(tid), "state", "matched")
        pipe.execute()

    def release(self, match_id: str, ticket_ids: list[str]) -> None:
        self._release(keys=[QUEUE_KEY], args=[match_id, len(ticket_ids), *ticket_ids])

    def publish(self, ticket: dict[str, Any]) -> None:
        self.redis.publish(notify_channel(ticket["holder"]), json.dumps(ticket))

    # ---- ranked matches ---------------------------------------------------------------
    def match(self, match_id: str) -> dict[str, Any] | None:
        raw = self.redis.hgetall(match_key(match_id))
        if not raw:
            return None
        f = {k.decode(): v.decode() for k, v in raw.items()}
        return {
            "match_id": match_id,
            "seats": [SeatPlan(**s) for s in json.loads(f["record"])],
            "season": f.get("season", ""),
            "created_ms": int(f.get("created", 0)),
            "turn_timeout_s": float(f.get("timeout", 0)),
            "ruleset": f["ruleset"],  # every match record names its ruleset
            "casual": f.get("casual") == "1",
        }

    def active(self, limit: int = 100) -> list[str]:
        return [x.decode() for x in self.redis.zrange(ACTIVE_KEY, 0, limit - 1)]

    def bot_matches(self, bot_id: str) -> list[str]:
        return sorted(x.decode() for x in self.redis.smembers(bot_matches_key(bot_id)))

    def open_challenges(self, holder: str) -> int:
        """The holder's challenges still waiting for their answers (deadline not passed)."""
        return int(self.redis.zcount(challenges_key(holder), int(time.time() * 1000), "+inf"))

    def bot_load(self, bot_id: str, *, challenges: bool = True) -> int:
        """Unfinished ranked and casual matches plus a queued ticket plus (``challenges``)
        pending challenges the bot sent: what the concurrency limit counts."""
        queued = self.holder_ticket(bot_holder(bot_id))
        load = len(self.bot_matches(bot_id)) + int(queued is not None and queued["state"] == "queued")
        return load + (self.open_challenges(bot_holder(bot_id)) if challenges else 0)

    def open_casual(self, match_id: str, seats: list[SeatPlan], turn_timeout_s: float, ruleset: str) -> None:
        """Record a casual table just created in the engine (``casual``: never rated) and
        give each registered bot and person at it a ticket in state ``matched``, published
        to its holder: a bot's live stream starts playing its seat at once. Outside the
        queue: a queued ranked ticket of the same holder stays queued. Expires on its own."""
        now_ms = int(time.time() * 1000)
        kinds = json.dumps([s.kind for s in seats])
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(match_key(match_id), mapping={"record": json.dumps([s.to_dict() for s in seats]), "season": "",
                                                "created": now_ms, "timeout": turn_timeout_s, "ruleset": ruleset,
                                                "casual": 1})  # fmt: skip
        pipe.pexpire(match_key(match_id), CASUAL_TTL_MS)
        pipe.zadd(ACTIVE_KEY, {match_id: now_ms})  # the finished sweep forgets it (never rates it)
        for s in seats:
            if not s.holder:
                continue
            if s.holder.startswith("b:"):
                pipe.sadd(bot_matches_key(player_of(s.holder)), match_id)
            tk = ticket_key(s.ticket_id)
            pipe.hset(tk, mapping={"holder": s.holder, "name": s.name, "bot": int(s.bot), "state": "matched",
                                   "min": len(seats), "max": len(seats), "enq": now_ms, "match_id": match_id,
                                   "seat": s.seat, "seats": kinds, "timeout": turn_timeout_s, "matched": now_ms,
                                   "ruleset": ruleset})  # fmt: skip
            pipe.pexpire(tk, CASUAL_TTL_MS)
        pipe.execute()
        for s in seats:
            if s.holder:
                ticket = self.ticket(s.ticket_id)
                if ticket is not None:
                    self.publish(ticket)

    def finish(self, match_id: str, seats: list[SeatPlan]) -> None:
        """Forget a rated match's active entries (idempotent)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.zrem(ACTIVE_KEY, match_id)
        for s in seats:
            if s.holder.startswith("b:"):
                pipe.srem(bot_matches_key(player_of(s.holder)), match_id)
        pipe.hset(match_key(match_id), "finished", int(time.time() * 1000))
        pipe.pexpire(match_key(match_id), 30 * 86400 * 1000)
        pipe.execute()
