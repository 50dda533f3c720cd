"""The match store on Redis: snapshot + version (compare-and-set), action history, event
stream, notifications.

Key layout (``{id}`` is a Redis Cluster hash tag, so one match's keys share a slot):

==========================  ======  ==========================================================
key                         type    holds
==========================  ======  ==========================================================
``fs:m:{ID}``               hash    ``version`` (int, 1 after create, +1 per action),
                                    ``snapshot`` (``game_pb2.Snapshot`` bytes, a checkpoint),
                                    ``snap_hist`` (how many history entries the snapshot
                                    includes: the state is the snapshot plus the history
                                    entries after it, re-applied),
                                    ``settings`` (``MatchSettings`` bytes, seed filled in),
                                    ``decision`` / ``seat`` (open decision number and seat,
                                    -1 when over), ``over`` (0/1), ``last`` (the last history
                                    entry), ``created`` (ms since the epoch)
``fs:m:{ID}:h``             list    one entry per applied action: ``DECISION\\tSEAT\\tORIGIN\\tACTION``
``fs:m:{ID}:e``             stream  one entry per write, holding its events (see :data:`_XADD_WRITE`)
``fs:m:{ID}:n``             pubsub  the new version, published after every write
==========================  ======  ==========================================================

Every write is one Lua script, so one Redis round trip per action. The snapshot is a
checkpoint written every few actions (and at game over), not at every action: restoring is
``Game.restore(snapshot)`` plus the history entries after ``snap_hist`` re-applied (the
engine guarantees a restored game continues exactly as the original), and encoding a full
snapshot is the most expensive step of an action.
"""

from __future__ import annotations

import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import redis.asyncio as aioredis

from fengsheng.retention import DEFAULT_FINISHED_TTL_S, Retention
from services.engine.redis_cluster_pipe import ClusterPipelinedConnection
from services.engine.redis_pipe import PipelinedConnection
from services.errors import UnsupportedFormat
from services.redis_client import async_client

_PLAIN_KWARGS = ("password", "username", "ssl", "ssl_ca_certs", "ssl_cert_reqs", "socket_connect_timeout")

#: A finished match's keys expire after this long (a week by default,
#: ``FENGSHENG_MATCH_FINISHED_TTL_MS``): replays stay available, Redis does not grow forever.
#: An unfinished match's keys expire ``FENGSHENG_MATCH_IDLE_TTL_MS`` (a day) after its last
#: write, so abandoned matches go too (fengsheng/retention.py; the gateway's seat table uses
#: the same numbers).
FINISHED_TTL_S = DEFAULT_FINISHED_TTL_S

#: The format of the event stream's entries, written in each entry's ``f`` field; a reader
#: refuses any other (:func:`decode_write`). 2: one entry per write (below); 1 (older builds,
#: refused): one entry per engine event, whose ids' ``SEQ`` counted entries other seats
#: could not see.
STREAM_FORMAT = 2

#: One stream entry per write (an action, or the match's creation), whatever its events'
#: audiences, so the entry's id (``MS-SEQ``) is the same for every viewer and says nothing
#: about what only other seats saw (docs/security.md, "Event ids"). Fields: ``f`` the
#: format (:data:`STREAM_FORMAT`); ``v`` version after the write; ``p`` ``Decision`` bytes
#: (the decision open after the write); ``o`` ``Outcome`` bytes (only when the game is
#: over); ``n`` the number of engine events, then for each event ``K`` (0-based) ``iK`` its
#: engine event index, ``aK`` its audience (comma-separated seats, empty = public) and
#: ``eK`` its ``Event`` bytes. Readers filter the events per viewer (services/engine/matches.py).
_XADD_WRITE = """
local function add_write(stream, v, pending, outcome, n, first)
  local f = {'f', 'STREAM_FORMAT', 'v', v, 'p', pending, 'n', n}
  if outcome ~= '' then f[#f + 1] = 'o'; f[#f + 1] = outcome end
  for k = 0, n - 1 do
    local b = first + 3 * k
    f[#f + 1] = 'i' .. k; f[#f + 1] = ARGV[b]
    f[#f + 1] = 'a' .. k; f[#f + 1] = ARGV[b + 1]
    f[#f + 1] = 'e' .. k; f[#f + 1] = ARGV[b + 2]
  end
  return redis.call('XADD', stream, '*', unpack(f))
end
""".replace("STREAM_FORMAT", str(STREAM_FORMAT))

#: Apply one action. KEYS: state hash, history list, event stream, outbox (or the leases,
#: for a decision its caller plays itself: :meth:`MatchStore.commit`), leases.
#: ARGV: 1 expected version, 2 snapshot ("" = no new checkpoint), 3 decision, 4 seat, 5 over (0/1), 6 pending
#: ``Decision`` bytes, 7 ``Outcome`` bytes or "", 8 outbox member ("" = the new decision
#: needs no task), 9 outbox score (ms), 10 history entry count h (an action the engine
#: expands, e.g. ``choose 3 7``, is several entries), then h entries, then the event count
#: n, then n triples (index, audience, ``Event`` bytes).
#: Returns ``{1, new_version, stream_id}`` (the write's one entry) on success, ``{0, current_version}`` when
#: the version moved on (nothing written), ``{-1, 0}`` when the match does not exist.
#: Every write sets the match's keys (state, history, events) to expire after the idle
#: lifetime; the write that ends the game, after the finished one (``IDLE_TTL_S`` and
#: ``FINISHED_TTL_S`` are filled in from :class:`fengsheng.retention.Retention`).
#:
#: Only keys that exist are declared, so that on a cluster an action keeps going while its
#: slot migrates: Redis runs a script of several keys there only on a node that holds every
#: one of them (the old owner while none has moved, the new one after ``ASK`` once all have
#: moved) and answers ``TRYAGAIN`` otherwise, until the slot is handed over. So:
#:
#: - the notify channel ``fs:m:{ID}:n`` (:func:`notify_channel`, built here from ``KEYS[1]``)
#:   is not a KEY: it is never a key, so declaring it made every write of a migrating slot
#:   wait for the hand-over. ``PUBLISH`` declares no key (a script may publish anywhere),
#:   and on a cluster it reaches subscribers on every node: the notifier subscribes to a
#:   pattern (:data:`NOTIFY_PATTERN`), which sharded pub/sub (``SPUBLISH``, whose channel
#:   hashes to a slot and would have to be declared) has no form of;
#: - the slot's outbox and leases, which empty out, hold an anchor member on a cluster
#:   (:data:`ANCHOR`, written before the first write of the slot: :meth:`MatchStore._anchor`),
#:   so they exist as long as the match's own keys do. The history list exists from the
#:   first action on; a match's first action during a migration may still meet
#:   ``TRYAGAIN``, as may a match whose keys the migration has split between the nodes.
ACT_SCRIPT = (
    _XADD_WRITE
    + """
local cur = redis.call('HGET', KEYS[1], 'version')
if not cur then return {-1, 0} end
cur = tonumber(cur)
if cur ~= tonumber(ARGV[1]) then return {0, cur} end
local v = cur + 1
local h = tonumber(ARGV[10])
local answered = redis.call('HGET', KEYS[1], 'decision')
if KEYS[5] and answered then
  redis.call('ZREM', KEYS[5], string.match(KEYS[1], '{(.*)}$') .. '\t' .. answered)
end
redis.call('HSET', KEYS[1], 'version', v, 'decision', ARGV[3],
           'seat', ARGV[4], 'over', ARGV[5], 'last', ARGV[10 + h])
local hl = 0
for k = 1, h do hl = redis.call('RPUSH', KEYS[2], ARGV[10 + k]) end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'snapshot', ARGV[2], 'snap_hist', hl) end
local id = add_write(KEYS[3], v, ARGV[6], ARGV[7], tonumber(ARGV[11 + h]), 12 + h)
if ARGV[8] ~= '' then redis.call('ZADD', KEYS[4], ARGV[9], ARGV[8]) end
local ttl = IDLE_TTL_S
if ARGV[5] == '1' then ttl = FINISHED_TTL_S end
for k = 1, 3 do redis.call('EXPIRE', KEYS[k], ttl) end
redis.call('PUBLISH', KEYS[1] .. ':n', v)  -- notify_channel(ID): not a key
return {1, v, id}
"""
)

#: Create a match. KEYS as above. ARGV: 1 snapshot, 2 settings, 3 decision, 4 seat,
#: 5 over, 6 created (ms), 7 pending, 8 outcome or "", 9 outbox member or "", 10 outbox
#: score, 11 event count n, then n triples.
#: Returns ``{1, 1, stream_id}``, or ``{0, version}`` when the id is taken. The keys
#: expire after the idle lifetime (the first action renews it).
CREATE_SCRIPT = (
    _XADD_WRITE
    + """
local cur = redis.call('HGET', KEYS[1], 'version')
if cur then return {0, tonumber(cur)} end
redis.call('HSET', KEYS[1], 'version', 1, 'snapshot', ARGV[1], 'snap_hist', 0, 'settings', ARGV[2],
           'decision', ARGV[3], 'seat', ARGV[4], 'over', ARGV[5], 'last', '', 'created', ARGV[6])
local id = add_write(KEYS[3], 1, ARGV[7], ARGV[8], tonumber(ARGV[11]), 12)
if ARGV[9] ~= '' then redis.call('ZADD', KEYS[4], ARGV[10], ARGV[9]) end
local ttl = IDLE_TTL_S
if ARGV[5] == '1' then ttl = FINISHED_TTL_S end
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[3], ttl)
redis.call('PUBLISH', KEYS[1] .. ':n', 1)  -- notify_channel(ID): not a key
return {1, 1, id}
"""
)

#: Read a match in one round trip: KEYS: state hash, history list. Returns nil, or
#: ``{version, snapshot, settings, last, snap_hist, tail}`` where ``tail`` is the history
#: after the checkpoint.
LOAD_SCRIPT = """
local f = redis.call('HMGET', KEYS[1], 'version', 'snapshot', 'settings', 'last', 'snap_hist')
if not f[1] then return nil end
local tail = redis.call('LRANGE', KEYS[2], tonumber(f[5] or '0'), -1)
return {f[1], f[2], f[3], f[4], f[5], tail}
"""

#: The transactional outbox: ``MATCH_ID\tDECISION`` members scored by the time (ms) the
#: decision opened, for decisions that need a Celery task (bot move or turn timer). The
#: write script adds the member atomically with the state; the process that wrote removes
#: it once the task is sent. A process that dies in between leaves it for any replica's
#: sweeper (:meth:`MatchStore.overdue`) to send again: tasks are idempotent by decision.
#:
#: One outbox per Redis Cluster hash slot, ``fs:outbox:{TAG}`` where ``TAG`` hashes to the
#: slot of the match's own keys (:func:`slot_tag`), so the act script touches keys of one
#: slot only (a single ``fs:outbox`` was a ``CROSSSLOT`` error on a cluster). The slots that
#: ever held an outbox entry are listed in :data:`SLOTS_KEY`, which the sweepers walk.
OUTBOX_PREFIX = "fs:outbox:"

#: Task leases: ``MATCH_ID\tDECISION`` members scored by the time (ms) by which the task sent
#: for that open decision should have answered it. Added once the task is sent; the write that
#: answers the decision removes it (in the act script). A lease that expires means the task was
#: lost after it was sent (a broker message popped by a worker that was killed before it
#: recorded the message as unacked: kombu's Redis transport is at most once in that window), so
#: any replica's sweeper claims it (:data:`CLAIM_LEASE_SCRIPT`), sends the task again and
#: renews the lease. One per hash slot like the outbox: ``fs:leases:{TAG}``.
LEASES_PREFIX = "fs:leases:"

#: Claim an expired task lease: remove member ``ARGV[1]`` from the leases ``KEYS[1]`` only while
#: its deadline is still at most ``ARGV[2]``, the claiming sweep's clock. A plain ``ZREM`` also
#: took a lease that another replica had claimed and renewed after this sweep read it as expired,
#: so both replicas sent the task again (a CI failure of test_replicas_task_lease.py).
CLAIM_LEASE_SCRIPT = """
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if due and tonumber(due) <= tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""

#: A set of the hash slots (decimal numbers) whose outbox or leases may hold entries. A
#: process adds a slot (``SADD``, once per slot per process) *before* its first write there,
#: so no entry exists in a slot the sweepers do not know. Never shrinks: at most 16,384
#: members, and a sweep costs two reads per listed slot.
SLOTS_KEY = "fs:outbox:slots"

#: The member that keeps a slot's outbox and leases in existence on a cluster, scored
#: ``+inf`` so that no range read by time (the sweepers', the metrics') ever counts it (see
#: :data:`ACT_SCRIPT`: a key a script declares must exist for it to run during a migration).
#: Never written on a single Redis.
ANCHOR = "anchor"

#: Redis Cluster's hash slot count.
N_SLOTS = 16384

_SLOT_TAGS: list[str] = []


def key_slot(key: str) -> int:
    """The Redis Cluster hash slot of ``key`` (CRC16 of its hash tag, or of the whole key)."""
    data = key.encode()
    start = data.find(b"{")
    if start >= 0:
        end = data.find(b"}", start + 1)
        if end > start + 1:
            data = data[start + 1 : end]
    return binascii.crc_hqx(data, 0) % N_SLOTS


def slot_tag(slot: int) -> str:
    """A short string whose hash slot is ``slot``: the hash tag of that slot's outbox and
    leases (the table is built once, on first use: about 0.1 s)."""
    if not _SLOT_TAGS:
        table = [""] * N_SLOTS
        missing, i = N_SLOTS, 0
        while missing:
            tag = f"s{i:x}"
            s = binascii.crc_hqx(tag.encode(), 0) % N_SLOTS
            if not table[s]:
                table[s] = tag
                missing -= 1
            i += 1
        _SLOT_TAGS[:] = table
    return _SLOT_TAGS[slot]


def match_slot(match_id: str) -> int:
    """The hash slot of every key of the match ``match_id``."""
    return key_slot(state_key(match_id))


def outbox_key(match_id: str) -> str:
    """The outbox of ``match_id``'s hash slot."""
    return OUTBOX_PREFIX + "{" + slot_tag(match_slot(match_id)) + "}"


def leases_key(match_id: str) -> str:
    """The task leases of ``match_id``'s hash slot."""
    return LEASES_PREFIX + "{" + slot_tag(match_slot(match_id)) + "}"


def state_key(match_id: str) -> str:
    return f"fs:m:{{{match_id}}}"


def history_key(match_id: str) -> str:
    return f"fs:m:{{{match_id}}}:h"


def events_key(match_id: str) -> str:
    return f"fs:m:{{{match_id}}}:e"


def notify_channel(match_id: str) -> str:
    return f"fs:m:{{{match_id}}}:n"


#: The pattern a process subscribes to for every match's notifications.
NOTIFY_PATTERN = "fs:m:{*}:n"


def match_id_of_channel(channel: str) -> str:
    """``fs:m:{ID}:n`` -> ``ID``."""
    return channel[len("fs:m:{") : -len("}:n")]


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One engine event as written: index, audience (empty = public), ``Event`` bytes."""

    index: int
    audience: tuple[int, ...]
    data: bytes


@dataclass(frozen=True, slots=True)
class StoredWrite:
    """One write as stored in the event stream: its stream id (``MS-SEQ``, one per write, the
    same for every viewer), the version after it, the decision open after it (``Decision``
    bytes), the ``Outcome`` bytes once the game is over (else empty) and its engine events,
    each with its audience, in order."""

    stream_id: str
    version: int
    pending: bytes
    outcome: bytes
    events: tuple[StoredEvent, ...]


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """The stored state of a match: the checkpoint and the history after it."""

    version: int
    snapshot: bytes
    settings: bytes
    last: str
    #: history entries included in ``snapshot``
    snap_hist: int
    #: history entries after the checkpoint, to re-apply
    tail: list[HistoryEntry]


@dataclass(frozen=True, slots=True)
class WriteResult:
    """``ok``: written, ``version`` is the new one. Otherwise ``missing`` or a CAS conflict
    (``version`` is then the stored one)."""

    ok: bool
    version: int
    missing: bool = False
    stream_id: str = ""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    decision: int
    seat: int
    origin: str
    action: str

    def encode(self) -> str:
        return f"{self.decision}\t{self.seat}\t{self.origin}\t{self.action}"

    @classmethod
    def decode(cls, raw: str | bytes) -> HistoryEntry:
        text = raw.decode() if isinstance(raw, bytes) else raw
        decision, seat, origin, action = text.split("\t", 3)
        return cls(int(decision), int(seat), origin, action)


def _event_args(events: Sequence[StoredEvent]) -> list[bytes | str | int]:
    args: list[bytes | str | int] = [len(events)]
    for e in events:
        args += [e.index, ",".join(map(str, e.audience)), e.data]
    return args


def _keys(match_id: str) -> list[str]:
    return [
        state_key(match_id),
        history_key(match_id),
        events_key(match_id),
        outbox_key(match_id),
        leases_key(match_id),
    ]


def outbox_member(match_id: str, decision: int) -> str:
    return f"{match_id}\t{decision}"


class MatchStore:
    """Reads and writes matches; every write is one script call (one round trip)."""

    def __init__(
        self,
        redis: aioredis.Redis | aioredis.RedisCluster,
        *,
        group_commit_s: float = 0.0,
        retention: Retention | None = None,
    ) -> None:
        """``group_commit_s``: how long an action's write may wait to go out with others
        (see :class:`services.engine.redis_pipe.PipelinedConnection`; 0 = never). ``retention``:
        the matches' lifetimes (default: from the environment, fengsheng/retention.py)."""
        self.redis = redis
        self.retention = retention or Retention.from_env()
        self._act = redis.register_script(self._with_ttls(ACT_SCRIPT))
        #: the hot path (action writes, version reads) skips redis-py's per-call cost
        #: (services/engine/redis_pipe.py)
        self.pipe: PipelinedConnection | ClusterPipelinedConnection
        if isinstance(redis, aioredis.RedisCluster):
            self.pipe = ClusterPipelinedConnection(redis, coalesce_s=group_commit_s)
        else:
            self.pipe = PipelinedConnection.like(redis, coalesce_s=group_commit_s)
        self._load = redis.register_script(LOAD_SCRIPT)
        self._create = redis.register_script(self._with_ttls(CREATE_SCRIPT))
        self._claim_lease = redis.register_script(CLAIM_LEASE_SCRIPT)
        self._node_turn = 0
        #: hash slots this process has listed in :data:`SLOTS_KEY`
        self._slots: set[int] = set()
        #: on a cluster: hash slots whose outbox and leases this process has anchored
        self._anchored: set[int] | None = set() if isinstance(redis, aioredis.RedisCluster) else None

    def _with_ttls(self, script: str) -> str:
        return script.replace("IDLE_TTL_S", str(self.retention.idle_s)).replace(
            "FINISHED_TTL_S", str(self.retention.finished_s)
        )

    @classmethod
    def from_url(
        cls, url: str, *, max_connections: int = 64, group_commit_s: float = 0.0, retention: Retention | None = None
    ) -> MatchStore:
        """``url``: one Redis or a cluster (``redis+cluster://``, services/redis_client.py). A
        blocking pool: a burst beyond max_connections waits for a free connection (up to 10 s)
        instead of failing with "Too many connections" (seen as UNAVAILABLE under load)."""
        client = async_client(url, max_connections=max_connections)
        return cls(client, group_commit_s=group_commit_s, retention=retention)

    def pubsub(self) -> aioredis.client.PubSub:
        """A subscription client: on a cluster, a plain connection to one of its nodes
        (published messages reach every node), another node at each call."""
        if isinstance(self.redis, aioredis.RedisCluster):
            nodes = self.redis.get_nodes()
            self._node_turn += 1
            node = nodes[self._node_turn % len(nodes)] if nodes else None
            if node is not None:
                kw = {k: v for k, v in self.redis.connection_kwargs.items() if k in _PLAIN_KWARGS}
                # int(): the stubs allow a str port; a cluster node's, read from CLUSTER SLOTS, is an int
                plain = aioredis.Redis(host=node.host, port=int(node.port), **kw)
                return plain.pubsub(ignore_subscribe_messages=True)
        return self.redis.pubsub(ignore_subscribe_messages=True)

    async def close(self) -> None:
        self.pipe.close()
        await self.redis.aclose()

    async def create(
        self,
        match_id: str,
        *,
        snapshot: bytes,
        settings: bytes,
        decision: int,
        seat: int,
        over: bool,
        created_ms: int,
        pending: bytes,
        outcome: bytes,
        events: Sequence[StoredEvent],
        outbox: str = "",
    ) -> WriteResult:
        args: list[bytes | str | int] = [
            snapshot,
            settings,
            decision,
            seat,
            int(over),
            created_ms,
            pending,
            outcome,
            outbox,
            created_ms,
            *_event_args(events),
        ]
        if outbox:
            await self._register(match_id)
        await self._anchor(match_id)
        res = await self.pipe.evalsha(self._create, _keys(match_id), args)
        return WriteResult(ok=res[0] == 1, version=int(res[1]), stream_id=_s(res[2]) if len(res) > 2 else "")

    async def commit(
        self,
        match_id: str,
        *,
        expected_version: int,
        snapshot: bytes,
        decision: int,
        seat: int,
        over: bool,
        entries: Sequence[HistoryEntry],
        pending: bytes,
        outcome: bytes,
        events: Sequence[StoredEvent],
        outbox: str = "",
        now_ms: int = 0,
        lease_until_ms: int = 0,
    ) -> WriteResult:
        """Compare-and-set one action: see :data:`ACT_SCRIPT`.

        ``lease_until_ms`` > 0: the new decision's member goes straight to the slot's task
        leases (due then) instead of its outbox: its caller plays that decision itself
        (a chained bot move, ``ActRequest.play_next_bot``), so there is no task to send, and
        a caller that is lost lets the lease run out, after which a sweeper sends the task."""
        args: list[bytes | str | int] = [
            expected_version,
            snapshot,
            decision,
            seat,
            int(over),
            pending,
            outcome,
            outbox,
            lease_until_ms or now_ms,
            len(entries),
            *(e.encode() for e in entries),
            *_event_args(events),
        ]
        if outbox:
            await self._register(match_id)
        await self._anchor(match_id)
        keys = _keys(match_id)
        if lease_until_ms:
            keys[3] = keys[4]  # the script's ZADD of the new decision goes to the leases
        res = await self.pipe.evalsha(self._act, keys, args)
        status = int(res[0])
        return WriteResult(
            ok=status == 1,
            version=int(res[1]),
            missing=status == -1,
            stream_id=_s(res[2]) if len(res) > 2 else "",
        )

    async def _register(self, match_id: str) -> None:
        """List the hash slot of ``match_id`` in :data:`SLOTS_KEY` before the first outbox or
        lease entry there (once per slot per process)."""
        slot = match_slot(match_id)
        if slot not in self._slots:
            await self.redis.sadd(SLOTS_KEY, slot)
            self._slots.add(slot)

    async def _anchor(self, match_id: str) -> None:
        """On a cluster, make sure the outbox and leases of ``match_id``'s slot exist (an
        :data:`ANCHOR` member in each, once per slot per process; see :data:`ACT_SCRIPT`)."""
        if self._anchored is None:
            return
        slot = match_slot(match_id)
        if slot not in self._anchored:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zadd(outbox_key(match_id), {ANCHOR: "+inf"}, nx=True)
            pipe.zadd(leases_key(match_id), {ANCHOR: "+inf"}, nx=True)
            await pipe.execute()
            self._anchored.add(slot)

    async def slots(self) -> list[int]:
        """The hash slots whose outbox or leases may hold entries."""
        return sorted(int(x) for x in await self.redis.smembers(SLOTS_KEY))

    async def _range(self, prefix: str, upto_ms: int, limit: int) -> list[str]:
        """Members scored at most ``upto_ms`` over every listed slot's ``prefix`` set (one
        pipelined read per slot; a cluster client sends each node its own slots)."""
        slots = await self.slots()
        found: list[str] = []
        for start in range(0, len(slots), 1024):
            pipe = self.redis.pipeline(transaction=False)
            for slot in slots[start : start + 1024]:
                pipe.zrangebyscore(prefix + "{" + slot_tag(slot) + "}", "-inf", upto_ms, start=0, num=limit)
            for raw in await pipe.execute():
                found += [_s(x) for x in raw]
            if len(found) >= limit:
                break
        return found[:limit]

    async def outbox_done(self, member: str) -> None:
        await self.redis.zrem(outbox_key(member.partition("\t")[0]), member)

    async def task_sent(self, member: str, *, outbox: bool, lease_until_ms: int) -> None:
        """The task of ``member``'s decision is on the broker: clear its outbox entry (when the
        write made one) and lease it until ``lease_until_ms`` (see :data:`LEASES_PREFIX`)."""
        match_id = member.partition("\t")[0]
        await self._register(match_id)
        pipe = self.redis.pipeline(transaction=False)
        if outbox:
            pipe.zrem(outbox_key(match_id), member)
        pipe.zadd(leases_key(match_id), {member: lease_until_ms})
        await pipe.execute()

    async def expired_leases(self, now_ms: int, *, limit: int = 100) -> list[str]:
        return await self._range(LEASES_PREFIX, now_ms, limit)

    async def lease_of(self, member: str) -> float | None:
        """The lease deadline (ms) of ``member``'s task, if leased."""
        score = await self.redis.zscore(leases_key(member.partition("\t")[0]), member)
        return None if score is None else float(score)

    async def claim_lease(self, member: str, now_ms: int) -> bool:
        """Take ``member``'s lease if it is still expired at ``now_ms`` (the time its sweep
        read it as expired): one replica wins it, and a lease renewed since is kept."""
        key = leases_key(member.partition("\t")[0])
        return bool(await self._claim_lease(keys=[key], args=[member, now_ms]))

    async def overdue(self, older_than_ms: int, *, limit: int = 100) -> list[str]:
        """Outbox members written before ``older_than_ms`` (their writer may have died)."""
        return await self._range(OUTBOX_PREFIX, older_than_ms, limit)

    async def version(self, match_id: str) -> int | None:
        raw = await self.pipe.execute("HGET", state_key(match_id), "version")
        return None if raw is None else int(raw)

    async def load(self, match_id: str) -> StoredMatch | None:
        """The checkpoint and the history after it, consistently (one script)."""
        raw = await self._load(keys=[state_key(match_id), history_key(match_id)])
        if raw is None:
            return None
        return StoredMatch(
            version=int(raw[0]),
            snapshot=bytes(raw[1] or b""),
            settings=bytes(raw[2] or b""),
            last=_s(raw[3] or b""),
            snap_hist=int(raw[4] or 0),
            tail=[HistoryEntry.decode(x) for x in raw[5]],
        )

    async def history(self, match_id: str, *, upto: int = -1) -> list[HistoryEntry]:
        """The first ``upto`` history entries (all with -1); the list is append-only, so
        a prefix read later is the same prefix."""
        raw = await self.redis.lrange(history_key(match_id), 0, upto - 1 if upto >= 0 else -1)
        return [HistoryEntry.decode(x) for x in raw]

    async def read_writes(
        self, match_id: str, *, after: str = "", count: int = 512, including: bool = False
    ) -> list[StoredWrite]:
        """The writes stored after the stream id ``after`` ("" = from the start; ``including``:
        from ``after`` itself on), oldest first. Raises
        :class:`~services.errors.UnsupportedFormat` on an entry of another format."""
        start = (after if including else f"({after}") if after else "-"
        # XRANGE answers a list of [id, fields] (the stubs' type is the one shared with XAUTOCLAIM,
        # where an entry's fields may be nil); our clients do not decode responses (bytes)
        entries = cast(
            "list[tuple[bytes | str, dict[bytes, bytes]]]",
            await self.redis.xrange(events_key(match_id), min=start, max="+", count=count),
        )
        return [decode_write(_s(eid), fields) for eid, fields in entries]


    async def last_write(self, match_id: str) -> StoredWrite | None:
        """The match's newest stored write (None: no stream, e.g. expired)."""
        entries = cast(
            "list[tuple[bytes | str, dict[bytes, bytes]]]",
            await self.redis.xrevrange(events_key(match_id), max="+", min="-", count=1),
        )
        return decode_write(_s(entries[0][0]), entries[0][1]) if entries else None


def write_fields(version: int, pending: bytes, outcome: bytes, events: Sequence[StoredEvent]) -> dict[bytes, bytes]:
    """The fields of a write's one stream entry, as the scripts' ``add_write`` builds them
    (for the in-memory store of the unit tests, services/engine/fake_store.py)."""
    f: dict[bytes, bytes] = {
        b"f": str(STREAM_FORMAT).encode(),
        b"v": str(version).encode(),
        b"p": pending,
        b"n": str(len(events)).encode(),
    }
    if outcome:
        f[b"o"] = outcome
    for k, e in enumerate(events):
        f[b"i%d" % k] = str(e.index).encode()
        f[b"a%d" % k] = ",".join(map(str, e.audience)).encode()
        f[b"e%d" % k] = e.data
    return f


def decode_write(stream_id: str, fields: dict[bytes, bytes]) -> StoredWrite:
    """One stream entry (see :data:`_XADD_WRITE`) as a :class:`StoredWrite`; an entry of any
    other format is refused with :class:`~services.errors.UnsupportedFormat`."""
    fmt = fields.get(b"f")
    if fmt != str(STREAM_FORMAT).encode():
        found = "1 (one entry per event)" if fmt is None else repr(_s(fmt))[:20]
        raise UnsupportedFormat(
            f"event stream entry {stream_id} is in format {found}; this engine reads format {STREAM_FORMAT} "
            "(one entry per write) only: the match was stored by an older build and cannot be played or "
            "watched (docs/protocol.md, Redis layout)"
        )
    events = []
    for k in range(int(fields[b"n"])):
        aud = fields[b"a%d" % k]
        audience = tuple(int(x) for x in aud.split(b",")) if aud else ()
        events.append(StoredEvent(int(fields[b"i%d" % k]), audience, fields[b"e%d" % k]))
    return StoredWrite(stream_id, int(fields[b"v"]), fields[b"p"], fields.get(b"o", b""), tuple(events))


def _s(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
