"""Casual and challenge tables: matches outside the ranked queue, never rated
(docs/bots.md, "Casual tables and challenges").

A bot or a person opens a table of a ruleset with chosen seats: itself (``me``), house
bots (``heuristic``, ``random``), registered bots (``b_...``) and players (``g_...``) it
challenges by id. House bots always accept: a table of the caller and house bots only is
created in the engine at once and the caller's ticket is ``matched`` (with no seats named
it is the caller and house bots: a bots-only table that fills at once).

A table that challenges someone is a *challenge*: the caller's ticket is ``pending`` and
each challenged bot or player is sent (published to its holder: a bot's live stream, a
person's ``/ws/ranked``) a ticket in state ``invited``, naming the ``challenger`` and when
the invitation ``expires_ms`` (``FENGSHENG_CHALLENGE_TIMEOUT_MS``, default 30000 ms, at most
:data:`MAX_CHALLENGE_TIMEOUT_S`). Each
answers (:func:`answer`): ``accepted``; once all have, the match is created and every
ticket becomes ``matched``. One decline ends it (every ticket ``declined``); so does the
deadline (``expired``). An answer is one atomic Lua step, so two last acceptances never
create the match twice. Ranked play is untouched: the queue, the ladder, a queued ranked
ticket.

What bounds it (docs/bots.md, "Limits of challenges"): a bot pays a request of its rate for
a table and for an answer; a challenger's pending challenges count toward its concurrent-match
limit (``FENGSHENG_BOT_MAX_MATCHES``, people too), and a challenged bot may not pass that limit
either; a bot or player holds at most :func:`max_invitations` open invitations
(``FENGSHENG_MAX_INVITATIONS``, default 5): a challenge past either limit is refused
(``RESOURCE_EXHAUSTED``, kinds ``too_many_matches`` / ``too_many_invitations``). Both checks
and the records they count are one Lua step, so a burst of challenges cannot slip past them.
People open tables through the gateway, whose creation routes are rate limited per address.
A challenge and its tickets are deleted :data:`CHALLENGE_KEEP_S` after its deadline (a match
it made keeps its tickets, :data:`services.ranked.store.CASUAL_TTL_MS`); one task per process
expires the open challenges at their deadlines (:class:`services.ranked.deadlines.Deadlines`),
and a ticket read past its deadline is expired then (a restarted process lost its timers).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
import time
from typing import TYPE_CHECKING, Any

from fengsheng.v1 import engine_service_pb2 as es
from services import config
from services.engine.clock import TimeControl, time_control
from services.errors import BadRequest, MatchNotFound
from services.ranked.deadlines import Deadlines
from services.ranked.store import (
    CASUAL_TTL_MS,
    SeatPlan,
    bot_holder,
    bot_key,
    challenges_key,
    human_holder,
    invitations_key,
    player_of,
    ticket_key,
)

if TYPE_CHECKING:
    from services.ranked.service import BotIdentity, RankedService

log = logging.getLogger(__name__)

HOUSE_KINDS = {"heuristic": es.BOT_HEURISTIC, "random": es.BOT_RANDOM}
MAX_SEATS = 12
#: how long a challenge waits for its answers (``FENGSHENG_CHALLENGE_TIMEOUT_MS``)
DEFAULT_CHALLENGE_TIMEOUT_S = 30.0
#: the longest wait a challenge may be given: a larger setting is taken as this
MAX_CHALLENGE_TIMEOUT_S = 600.0
#: how long a challenge's records outlive its deadline (its tickets can still be read: declined, expired)
CHALLENGE_KEEP_S = 300
#: open invitations one bot or player may hold (``FENGSHENG_MAX_INVITATIONS``)
DEFAULT_MAX_INVITATIONS = 5
#: a player's id as a seat names it (guest accounts: ``g_`` and hex, gateway/auth.py)
PLAYER_ID = re.compile(r"^g_[0-9a-f]{4,32}$")
#: the states a challenge's tickets end in when it does not come about
CLOSED = ("declined", "expired")
#: the bots-only queue's fill timers of this process (kept so none is collected early)
_timers: set[asyncio.Task[None]] = set()


def challenge_timeout_s() -> float:
    """How long (seconds) a challenge waits for its answers: ``FENGSHENG_CHALLENGE_TIMEOUT_MS``
    (ms, default 30000), within 0.5 s..MAX_CHALLENGE_TIMEOUT_S; the older
    ``FENGSHENG_CHALLENGE_TIMEOUT_S`` is refused (:func:`services.config.ms_env`)."""
    value = config.ms_env("FENGSHENG_CHALLENGE_TIMEOUT_MS", DEFAULT_CHALLENGE_TIMEOUT_S * 1000,
                          was="FENGSHENG_CHALLENGE_TIMEOUT_S") / 1000  # fmt: skip
    return min(max(0.5, value), MAX_CHALLENGE_TIMEOUT_S)


def max_invitations() -> int:
    """How many open invitations (``invited``, or ``accepted`` while others answer) one bot
    or player may hold (``FENGSHENG_MAX_INVITATIONS``, default 5)."""
    raw = os.environ.get("FENGSHENG_MAX_INVITATIONS", "") or str(DEFAULT_MAX_INVITATIONS)
    try:
        value = int(raw)
    except ValueError as exc:
        raise ValueError(f"FENGSHENG_MAX_INVITATIONS must be a whole number, not {raw!r}") from exc
    return max(1, value)


def challenge_key(challenge_id: str) -> str:
    """A challenge: its seat plan, settings, state and how many answers it still waits for."""
    return f"mm:{{mm}}:ch:{challenge_id}"


# KEYS: challenge, ticket; ARGV: accept (1/0), name ("" keeps it), now ms. Returns {code, state}:
# 0 nothing changed (the ticket or challenge is past answering: its state), 1 accepted (others
# still to answer), 2 closed (declined, or found expired), 3 accepted last: create the match.
_ANSWER = """
local c = redis.call('HMGET', KEYS[1], 'state', 'expires')
if not c[1] then return {0, 'gone'} end
local st = redis.call('HGET', KEYS[2], 'state')
if c[1] ~= 'pending' then return {0, st or ''} end
if tonumber(ARGV[3]) > tonumber(c[2]) then
  redis.call('HSET', KEYS[1], 'state', 'expired')
  return {2, 'expired'}
end
if st ~= 'invited' then return {0, st or ''} end
if ARGV[1] == '1' then
  redis.call('HSET', KEYS[2], 'state', 'accepted')
  if ARGV[2] ~= '' then redis.call('HSET', KEYS[2], 'name', ARGV[2]) end
  if redis.call('HINCRBY', KEYS[1], 'waiting', -1) <= 0 then
    redis.call('HSET', KEYS[1], 'state', 'creating')
    return {3, 'creating'}
  end
  return {1, 'accepted'}
end
redis.call('HSET', KEYS[1], 'state', 'declined')
return {2, 'declined'}
"""

# KEYS: challenge; ARGV: now ms. 1 when this call expired a pending challenge past its deadline.
_EXPIRE = """
local c = redis.call('HMGET', KEYS[1], 'state', 'expires')
if c[1] ~= 'pending' or tonumber(ARGV[1]) < tonumber(c[2]) then return 0 end
redis.call('HSET', KEYS[1], 'state', 'expired')
return 1
"""


# KEYS: the challenger's pending challenges, then each challenged holder's open invitations.
# ARGV: now ms, deadline ms, challenge id, the challenger's other load (matches, a queued
# ticket), its limit, the invitations limit, how long the sets live (ms), then each challenged
# holder's ticket id. Checks both limits and records the challenge in every set, or nothing:
# {0, 0} done; {-1, soonest deadline} the challenger is full; {i, soonest} challenged holder i is.
_RESERVE = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - 1)
if tonumber(ARGV[4]) + redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {-1, tonumber(first[2] or now)}
end
for i = 2, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, now - 1)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[6]) then
    local first = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    return {i - 1, tonumber(first[2] or now)}
  end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[6 + i])
  redis.call('PEXPIRE', KEYS[i], ARGV[7])
end
return {0, 0}
"""


def _seat_spec(seats: list[str], players: int) -> list[str]:
    spec = [s.strip() for s in seats] or ["me"] + ["heuristic"] * ((players or 5) - 1)
    if len(spec) > MAX_SEATS or spec.count("me") != 1:
        raise BadRequest(f"seats name 'me' exactly once and at most {MAX_SEATS} seats")
    if players and players != len(spec):
        raise BadRequest(f"{len(spec)} seats for {players} players")
    return spec


async def open_table(svc: RankedService, holder: str, name: str, *, bot: BotIdentity | None, ruleset: str,
                     players: int, seats: list[str], clock_ms: int = 0, bank_ms: int = 0
                     ) -> dict[str, Any]:  # fmt: skip
    """Open a casual table: the caller's ticket, ``matched`` (house bots only) or
    ``pending`` (a challenge, until every challenged bot and player answers). ``clock_ms``,
    ``bank_ms``: its time control (:func:`services.engine.clock.time_control`; 0: the default
    of a table of bots only, or of one with a person)."""
    from services.errors import Exhausted
    from services.ranked.matchmaking import queue_settings

    if bot is not None:
        await svc.take(bot)
        holder, name = bot_holder(bot.bot_id), bot.name
    if not holder:
        raise BadRequest("a table needs its caller (a player or a bot token)")
    spec = _seat_spec(seats, players)
    try:
        ruleset, _, _ = queue_settings(ruleset, len(spec), len(spec))
    except (ValueError, KeyError) as exc:
        raise BadRequest(str(exc).strip("'\"")) from exc
    challenged = [s for s in spec if s not in HOUSE_KINDS and s != "me"]
    if len(set(challenged)) != len(challenged) or player_of(holder) in challenged:
        raise BadRequest("a bot or player sits at most once at a table")
    limit = svc.limits.max_matches
    bots = [s for s in challenged if not PLAYER_ID.match(s)]
    for bot_id in ([bot.bot_id] if bot is not None else []) + bots:
        known = bot_id.startswith("b_") and await asyncio.to_thread(svc.store.redis.exists, bot_key(bot_id))
        if not known:
            raise MatchNotFound(f"no bot {bot_id[:40]!r} (seats: me, heuristic, random, a bot id or a player id)")
        if await asyncio.to_thread(svc.store.bot_load, bot_id) >= limit:
            raise Exhausted(f"bot {bot_id} already plays {limit} matches", kind="too_many_matches", retry_after_s=5.0)
    plan: list[SeatPlan] = []
    for seat, who in enumerate(spec):
        tid = "t_" + secrets.token_hex(8)
        if who == "me":
            plan.append(SeatPlan(seat, "external" if bot else "human", player_of(holder), name, bot is not None,
                                 holder, tid))  # fmt: skip
        elif who in HOUSE_KINDS:
            plan.append(SeatPlan(seat, who, f"house-{who}-{seat}", f"house {who} {seat}", True))
        elif PLAYER_ID.match(who):
            plan.append(SeatPlan(seat, "human", who, "", False, human_holder(who), tid))
        else:
            raw = await asyncio.to_thread(svc.store.redis.hget, bot_key(who), "name")
            plan.append(SeatPlan(seat, "external", who, (raw or b"").decode(), True, bot_holder(who), tid))
    clock = time_control(clock_ms, bank_ms, bots_only=all(s.kind != "human" for s in plan))
    match_id = "cs-" + secrets.token_hex(6)
    if challenged:
        return await _challenge(svc, match_id, holder, name, plan, clock, ruleset)
    await _create(svc, match_id, plan, clock, ruleset)
    mine = next(s for s in plan if s.holder == holder)
    ticket = await asyncio.to_thread(svc.store.ticket, mine.ticket_id)
    assert ticket is not None
    return ticket


async def _create(svc: RankedService, match_id: str, plan: list[SeatPlan], clock: TimeControl, ruleset: str) -> None:
    """The table in the engine (with its time control), its record, and every ticket
    ``matched`` (published)."""
    kinds = [es.HUMAN if s.kind == "human" else es.BOT_EXTERNAL if s.kind == "external" else HOUSE_KINDS[s.kind]
             for s in plan]  # fmt: skip
    settings = es.MatchSettings(ruleset=ruleset, players=len(plan), seats=kinds, turn_timeout_ms=clock.clock_ms,
                                time_bank_ms=clock.bank_ms)  # fmt: skip
    await svc.matches.create_match(settings, match_id)  # a bad ruleset or count: BadRequest
    await asyncio.to_thread(svc.store.open_casual, match_id, plan, clock.clock_s, ruleset)


# ---- challenges ----------------------------------------------------------------------------


def _reserve(svc: RankedService, match_id: str, holder: str, plan: list[SeatPlan], expires_ms: int) -> None:
    """Count the challenge toward the challenger's limit and each challenged holder's open
    invitations, atomically; :class:`~services.errors.Exhausted` (nothing recorded) when the
    challenger is at its concurrent-match limit or a challenged holder holds
    :func:`max_invitations` open invitations already."""
    from services.errors import Exhausted

    store = svc.store
    now_ms = int(time.time() * 1000)
    invited = [s for s in plan if s.holder and s.holder != holder]
    caller = player_of(holder)
    base = store.bot_load(caller, challenges=False) if holder.startswith("b:") else 0
    limit, most = svc.limits.max_matches, max_invitations()
    keep_ms = expires_ms - now_ms + CHALLENGE_KEEP_S * 1000
    code, soonest = store.redis.eval(
        _RESERVE, 1 + len(invited), challenges_key(holder), *(invitations_key(s.holder) for s in invited),
        now_ms, expires_ms, match_id, base, limit, most, keep_ms, *(s.ticket_id for s in invited))  # fmt: skip
    code, wait_s = int(code), max(0.5, (int(soonest) - now_ms) / 1000)
    if code == -1:
        who = f"bot {caller}" if holder.startswith("b:") else "you"
        raise Exhausted(f"{who}: at most {limit} matches and pending challenges at once; wait for an answer",
                        kind="too_many_matches", retry_after_s=wait_s)  # fmt: skip
    if code > 0:
        full = invited[code - 1].player_id
        raise Exhausted(f"{'bot' if full.startswith('b_') else 'player'} {full} already holds {most} open "
                        "invitations (FENGSHENG_MAX_INVITATIONS); try again once one is answered or expires",
                        kind="too_many_invitations", retry_after_s=wait_s)  # fmt: skip


def _store_challenge(redis: Any, match_id: str, holder: str, name: str, plan: list[SeatPlan], clock: TimeControl,
                     ruleset: str, expires_ms: int) -> None:  # fmt: skip
    timeout = clock.clock_s
    now_ms = int(time.time() * 1000)
    keep_ms = expires_ms - now_ms + CHALLENGE_KEEP_S * 1000  # minutes, not the two days of a table
    kinds = json.dumps([s.kind for s in plan])
    pipe = redis.pipeline(transaction=True)
    invited = [s for s in plan if s.holder and s.holder != holder]
    pipe.hset(challenge_key(match_id), mapping={
        "plan": json.dumps([s.to_dict() for s in plan]), "timeout": timeout, "bank": clock.bank_s,
        "ruleset": ruleset, "state": "pending", "waiting": len(invited), "expires": expires_ms,
        "caller": holder})  # fmt: skip
    pipe.pexpire(challenge_key(match_id), keep_ms)
    for s in plan:
        if not s.holder:
            continue
        mine = s.holder == holder
        pipe.hset(ticket_key(s.ticket_id), mapping={
            "holder": s.holder, "name": s.name, "bot": int(s.bot), "state": "pending" if mine else "invited",
            "min": len(plan), "max": len(plan), "enq": now_ms, "seat": s.seat, "seats": kinds,
            "timeout": timeout, "ruleset": ruleset, "expires": expires_ms, "ch": match_id,
            "challenger": "" if mine else name})  # fmt: skip
        pipe.pexpire(ticket_key(s.ticket_id), keep_ms)
    pipe.execute()  # the invitations were recorded by _reserve (a stream that connects before the deadline gets them)


def _forget(redis: Any, match_id: str, caller: str, plan: list[SeatPlan]) -> None:
    """The challenge is over (declined, expired, or its match made): it no longer counts
    toward the challenger's limit nor among anyone's open invitations."""
    pipe = redis.pipeline(transaction=False)
    if caller:
        pipe.zrem(challenges_key(caller), match_id)
    for s in plan:
        if s.holder and s.holder != caller:
            pipe.zrem(invitations_key(s.holder), s.ticket_id)
    pipe.execute()


async def _challenge(svc: RankedService, match_id: str, holder: str, name: str, plan: list[SeatPlan],
                     clock: TimeControl, ruleset: str) -> dict[str, Any]:  # fmt: skip
    """Store the challenge, send each challenged bot and player its invitation, and start
    the timer that expires it; the caller's ``pending`` ticket."""
    wait_s = challenge_timeout_s()
    expires_ms = int(time.time() * 1000 + wait_s * 1000)
    await asyncio.to_thread(_reserve, svc, match_id, holder, plan, expires_ms)
    await asyncio.to_thread(_store_challenge, svc.store.redis, match_id, holder, name, plan, clock, ruleset,
                            expires_ms)  # fmt: skip
    for s in plan:
        if s.holder and s.holder != holder:
            invitation = await asyncio.to_thread(svc.store.ticket, s.ticket_id)
            if invitation is not None:
                await asyncio.to_thread(svc.store.publish, invitation)
    DEADLINES.add(expires_ms / 1000 + 0.05, svc, match_id)
    mine = next(s for s in plan if s.holder == holder)
    ticket = await asyncio.to_thread(svc.store.ticket, mine.ticket_id)
    assert ticket is not None
    return ticket


def _tickets_of(redis: Any, match_id: str) -> tuple[list[SeatPlan], dict[str, Any]]:
    raw = redis.hgetall(challenge_key(match_id))
    f = {k.decode(): v.decode() for k, v in raw.items()}
    return [SeatPlan(**s) for s in json.loads(f.get("plan", "[]"))], f


def _close(svc: RankedService, match_id: str, state: str) -> None:
    """Every open ticket of a challenge that will not come about: ``state`` (published)."""
    plan, f = _tickets_of(svc.store.redis, match_id)
    _forget(svc.store.redis, match_id, f.get("caller", ""), plan)
    for s in plan:
        if not s.holder:
            continue
        key = ticket_key(s.ticket_id)
        if (svc.store.redis.hget(key, "state") or b"").decode() in ("pending", "invited", "accepted"):
            svc.store.redis.hset(key, "state", state)
            ticket = svc.store.ticket(s.ticket_id)
            if ticket is not None:
                svc.store.publish(ticket)


async def expire(svc: RankedService, match_id: str) -> bool:
    """Expire a pending challenge past its deadline (every ticket ``expired``); false when it
    was answered in time (or is not past it yet)."""
    redis = svc.store.redis
    done = await asyncio.to_thread(redis.eval, _EXPIRE, 1, challenge_key(match_id), int(time.time() * 1000))
    if not int(done):
        return False
    await asyncio.to_thread(_close, svc, match_id, "expired")
    return True


#: this process's challenge deadlines (:func:`expire` at each)
DEADLINES = Deadlines(lambda svc, challenge_id: expire(svc, challenge_id))


async def expire_due(svc: RankedService, ticket: dict[str, Any]) -> dict[str, Any]:
    """``ticket`` as it is once its challenge's deadline is applied (an engine restart loses
    the timer; reading the ticket expires it then)."""
    if ticket["state"] in ("pending", "invited", "accepted") and 0 < ticket.get("expires_ms", 0) < time.time() * 1000:
        raw = await asyncio.to_thread(svc.store.redis.hget, ticket_key(ticket["ticket_id"]), "ch")
        if raw and await expire(svc, raw.decode()):
            fresh = await asyncio.to_thread(svc.store.ticket, ticket["ticket_id"])
            return fresh or ticket
    return ticket


async def answer(svc: RankedService, ticket_id: str, holder: str, name: str, accept: bool, *,
                 bot: BotIdentity | None) -> tuple[dict[str, Any], bool]:  # fmt: skip
    """Accept or decline the invitation ``ticket_id`` of ``holder`` (a bot: its token's):
    the ticket as it is then (``matched`` when this acceptance was the last one), and
    whether its change was published to the holder (false: the answer changed nothing, the
    invitation was answered before, or its challenge had ended)."""
    from services.errors import Exhausted, Forbidden

    if bot is not None:
        await svc.take(bot)
        holder, name = bot.holder, ""
        limit = svc.limits.max_matches
        if accept and await asyncio.to_thread(svc.store.bot_load, bot.bot_id) >= limit:
            raise Exhausted(f"bot {bot.bot_id} already plays {limit} matches: decline, or accept once one ends",
                            kind="too_many_matches", retry_after_s=5.0)  # fmt: skip
    ticket = await asyncio.to_thread(svc.store.ticket, ticket_id)
    if ticket is None:
        raise MatchNotFound(f"no ticket {ticket_id[:40]!r}")
    if ticket["holder"] != holder:
        raise Forbidden("this ticket belongs to someone else")
    raw = await asyncio.to_thread(svc.store.redis.hget, ticket_key(ticket_id), "ch")
    if not raw:
        raise BadRequest("this ticket is no challenge's invitation")
    match_id = raw.decode()
    code, _state = await asyncio.to_thread(svc.store.redis.eval, _ANSWER, 2, challenge_key(match_id),
                                           ticket_key(ticket_id), int(accept), name[:40],
                                           int(time.time() * 1000))  # fmt: skip
    code = int(code)
    if code == 1:
        accepted = await asyncio.to_thread(svc.store.ticket, ticket_id)
        if accepted is not None:  # None: gone meanwhile (its TTL), nothing to tell its holder
            await asyncio.to_thread(svc.store.publish, accepted)
    elif code == 2:
        await asyncio.to_thread(_close, svc, match_id, "declined" if not accept else "expired")
    elif code == 3:
        await _come_about(svc, match_id)
    fresh = await asyncio.to_thread(svc.store.ticket, ticket_id)
    return fresh or ticket, code > 0


async def _come_about(svc: RankedService, match_id: str) -> None:
    """Every challenged bot and player accepted: create the table (names as they accepted)."""
    plan, f = await asyncio.to_thread(_tickets_of, svc.store.redis, match_id)
    seated = []
    for s in plan:
        if s.holder and not s.name:
            raw = await asyncio.to_thread(svc.store.redis.hget, ticket_key(s.ticket_id), "name")
            s = SeatPlan(s.seat, s.kind, s.player_id, (raw or b"").decode() or s.player_id, s.bot, s.holder,
                         s.ticket_id)  # fmt: skip
        seated.append(s)
    try:
        clock = TimeControl(int(float(f["timeout"]) * 1000), int(float(f.get("bank", 0)) * 1000))
        await _create(svc, match_id, seated, clock, f["ruleset"])
    except Exception:
        log.warning("challenge %s: its match could not be created", match_id, exc_info=True)
        await asyncio.to_thread(svc.store.redis.hset, challenge_key(match_id), "state", "expired")
        await asyncio.to_thread(_close, svc, match_id, "expired")
        raise
    await asyncio.to_thread(svc.store.redis.hset, challenge_key(match_id), "state", "accepted")
    await asyncio.to_thread(_forget, svc.store.redis, match_id, f.get("caller", ""), plan)


# ---- the bots-only casual queue -------------------------------------------------------------

#: the longest a bot may ask to wait for other bots before house bots fill its table
MAX_FILL_AFTER_S = 600.0


def bots_queue_key(ruleset: str, players: int) -> str:
    """The bots waiting for a casual table of ``ruleset`` at ``players`` seats (ticket ids by enqueue ms)."""
    return f"mm:{{mm}}:bq:{ruleset}:{players}"


def bots_queue_holder_key(holder: str) -> str:
    """A bot's ticket in the bots-only queue (one at a time)."""
    return f"mm:{{mm}}:bqh:{holder}"


# KEYS: the queue; ARGV: the ticket that asks, players, take now (1: with what waits, else only a
# full table). Takes the asking ticket (if still queued) and up to players - 1 of the oldest
# queued others out of the queue as one table: their ids (the asking one first), or {} when it
# is not there any more or (not now) the table is not full yet.
_TAKE = """
local me = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], me) then return {} end
if redis.call('HGET', 'mm:{mm}:t:' .. me, 'state') ~= 'queued' then
  redis.call('ZREM', KEYS[1], me)
  return {}
end
local want = tonumber(ARGV[2])
local took = {me}
for _, tid in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if #took >= want then break end
  if tid ~= me then
    if redis.call('HGET', 'mm:{mm}:t:' .. tid, 'state') == 'queued' then
      table.insert(took, tid)
    else
      redis.call('ZREM', KEYS[1], tid)
    end
  end
end
if #took < want and ARGV[3] ~= '1' then return {} end
for _, tid in ipairs(took) do
  redis.call('ZREM', KEYS[1], tid)
  redis.call('HSET', 'mm:{mm}:t:' .. tid, 'state', 'claimed')
end
return took
"""


async def join_bots_queue(svc: RankedService, bot: BotIdentity, *, ruleset: str, players: int,
                          fill_after_s: float) -> dict[str, Any]:  # fmt: skip
    """Queue ``bot`` for a bots-only casual table: seated with other bots waiting for the same
    ruleset and table size as soon as there are enough, or, after ``fill_after_s`` (0: at
    once), with those waiting and house bots in the seats still free. Never rated. The
    bot's ticket: ``queued`` (then ``matched``, published), or ``matched`` already."""
    from services.errors import Exhausted
    from services.ranked.matchmaking import queue_settings

    await svc.take(bot)
    try:
        ruleset, players, _ = queue_settings(ruleset, players, players)
    except (ValueError, KeyError) as exc:
        raise BadRequest(str(exc).strip("'\"")) from exc
    if not 0 <= fill_after_s <= MAX_FILL_AFTER_S:
        raise BadRequest(f"fill_after_s is 0 to {MAX_FILL_AFTER_S:.0f} seconds")
    limit = svc.limits.max_matches
    if await asyncio.to_thread(svc.store.bot_load, bot.bot_id) >= limit:
        raise Exhausted(f"bot {bot.bot_id} already plays {limit} matches", kind="too_many_matches", retry_after_s=5.0)
    redis = svc.store.redis
    held = await asyncio.to_thread(redis.get, bots_queue_holder_key(bot.holder))
    if held:
        current = await asyncio.to_thread(svc.store.ticket, held.decode())
        if current is not None and current["state"] in ("queued", "claimed"):
            return current  # one ticket in the bots-only queue at a time
    ticket_id = "t_" + secrets.token_hex(8)
    now_ms = int(time.time() * 1000)
    queue = bots_queue_key(ruleset, players)

    def enqueue() -> None:
        pipe = redis.pipeline(transaction=True)
        pipe.hset(ticket_key(ticket_id), mapping={
            "holder": bot.holder, "name": bot.name, "bot": 1, "state": "queued", "min": players, "max": players,
            "enq": now_ms, "ruleset": ruleset, "bq": queue})  # fmt: skip
        pipe.pexpire(ticket_key(ticket_id), CASUAL_TTL_MS)
        pipe.set(bots_queue_holder_key(bot.holder), ticket_id, px=CASUAL_TTL_MS)
        pipe.zadd(queue, {ticket_id: now_ms})
        pipe.execute()

    await asyncio.to_thread(enqueue)
    await _take_table(svc, queue, ticket_id, ruleset, players, now=fill_after_s == 0)
    ticket = await asyncio.to_thread(svc.store.ticket, ticket_id)
    assert ticket is not None
    if ticket["state"] == "queued" and fill_after_s > 0:

        async def fill_later() -> None:
            await asyncio.sleep(fill_after_s)
            try:
                await _take_table(svc, queue, ticket_id, ruleset, players, now=True)
            except Exception:
                log.warning("bots-only queue: filling %s failed", ticket_id, exc_info=True)

        task = asyncio.get_running_loop().create_task(fill_later())
        _timers.add(task)
        task.add_done_callback(_timers.discard)
    return ticket


async def _take_table(svc: RankedService, queue: str, ticket_id: str, ruleset: str, players: int, *,
                      now: bool) -> None:  # fmt: skip
    """Seat ``ticket_id`` with the bots waiting in ``queue`` (and, ``now``, house bots in the
    seats left): the table is created and every ticket ``matched`` (published)."""
    import random

    took = await asyncio.to_thread(svc.store.redis.eval, _TAKE, 1, queue, ticket_id, players, int(now))
    ids = [t.decode() if isinstance(t, bytes) else str(t) for t in took or []]
    if not ids:
        return
    tickets = [await asyncio.to_thread(svc.store.ticket, tid) for tid in ids]
    order = list(range(players))
    random.SystemRandom().shuffle(order)
    plan = []
    for seat, t in zip(order, tickets, strict=False):
        assert t is not None
        plan.append(SeatPlan(seat, "external", player_of(t["holder"]), t["name"], True, t["holder"], t["ticket_id"]))
    for seat in order[len(tickets) :]:
        plan.append(SeatPlan(seat, "heuristic", f"house-heuristic-{seat}", f"house heuristic {seat}", True))
    plan.sort(key=lambda s: s.seat)
    match_id = "cs-" + secrets.token_hex(6)
    try:
        await _create(svc, match_id, plan, time_control(0, 0, bots_only=True), ruleset)
    except Exception:  # the engine refused: the bots wait again (their tickets back in the queue)
        pipe = svc.store.redis.pipeline(transaction=True)
        for t in tickets:
            assert t is not None
            pipe.hset(ticket_key(t["ticket_id"]), "state", "queued")
            pipe.zadd(queue, {t["ticket_id"]: t["enqueued_ms"]})
        await asyncio.to_thread(pipe.execute)
        raise
