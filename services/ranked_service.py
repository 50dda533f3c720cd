"""The ranked-play service layer: what the ``RankedService`` and ``BotService`` servicers
(:mod:`services.ranked_grpc`) call. Async; Redis work runs in threads on the synchronous
:class:`services.ranked.RankedStore` (the same code the Celery tasks use).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fengsheng.v1 import game_pb2
from services.errors import BadRequest, MatchNotFound, ServiceError
from services.ladder import (
    ALL_TIME,
    BOT,
    HUMAN,
    RedisLadder,
    Standing,
    current_season,
    known_ruleset,
    season_scope,
)
from services.limits import BotLimits, LimitExceeded, RateLimiter
from services.matches import ActResult, MatchService
from services.matchmaking import queue_settings
from services.ranked import RankedStore, bot_holder, notify_channel

#: a Connect stream's lease in the per-bot stream count; refreshed while it lives
STREAM_LEASE_S = 30.0


class Unauthenticated(ServiceError):
    """No valid bot token."""

    kind = "unauthenticated"


class Forbidden(ServiceError):
    """The token's bot does not hold this seat of this match (or this ticket)."""

    kind = "forbidden"


class Exhausted(ServiceError):
    """A per-bot limit: request rate, concurrent matches or streams."""

    kind = "rate_limited"

    def __init__(self, message: str, *, kind: str = "rate_limited") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class BotIdentity:
    bot_id: str
    name: str

    @property
    def holder(self) -> str:
        return bot_holder(self.bot_id)


@dataclass(frozen=True)
class Decision:
    """One decision of a bot's seat, as pushed on its stream."""

    match_id: str
    seat: int
    number: int
    observation: game_pb2.Observation
    legal: list[str]
    default_action: str
    deadline_ms: int


@dataclass
class RankedService:
    matches: MatchService
    store: RankedStore
    redis_url: str
    limits: BotLimits = field(default_factory=BotLimits.from_env)
    _limiter: RateLimiter | None = None

    def __post_init__(self) -> None:
        self.ladder = RedisLadder(self.store.redis)

    @property
    def limiter(self) -> RateLimiter:
        if self._limiter is None:
            self._limiter = RateLimiter(self.redis_url, self.limits)
        return self._limiter

    async def close(self) -> None:
        if self._limiter is not None:
            await self._limiter.close()

    # ---- accounts -----------------------------------------------------------------------
    async def register_bot(self, name: str, owner: str = "") -> tuple[str, str]:
        name = name.strip()
        if not 1 <= len(name) <= 40 or not name.isprintable():
            raise BadRequest("a bot name has 1 to 40 printable characters")
        return await asyncio.to_thread(self.store.register_bot, name, owner)

    async def authenticate(self, token: str) -> BotIdentity:
        found = await asyncio.to_thread(self.store.bot_of_token, token)
        if found is None:
            raise Unauthenticated("missing or unknown bot token (metadata `authorization: Bearer <token>`)")
        return BotIdentity(*found)

    async def take(self, bot: BotIdentity) -> None:
        """One request of ``bot`` against its rate limit."""
        try:
            await self.limiter.take(bot.bot_id)
        except LimitExceeded as exc:
            raise Exhausted(str(exc)) from exc

    async def open_stream(self, bot: BotIdentity, stream_id: str) -> None:
        """Count one more open stream of ``bot`` (refused past ``max_streams``)."""
        key = f"lim:bot:streams:{bot.bot_id}"
        now = time.time()

        def lease() -> int:
            pipe = self.store.redis.pipeline(transaction=True)
            pipe.zremrangebyscore(key, "-inf", now - STREAM_LEASE_S)
            pipe.zadd(key, {stream_id: now})
            pipe.zcard(key)
            pipe.expire(key, int(STREAM_LEASE_S * 2))
            return int(pipe.execute()[2])

        if await asyncio.to_thread(lease) > self.limits.max_streams:
            await self.close_stream(bot, stream_id)
            raise Exhausted(
                f"bot {bot.bot_id}: at most {self.limits.max_streams} open streams", kind="too_many_streams"
            )

    async def refresh_stream(self, bot: BotIdentity, stream_id: str) -> None:
        await asyncio.to_thread(self.store.redis.zadd, f"lim:bot:streams:{bot.bot_id}", {stream_id: time.time()})

    async def close_stream(self, bot: BotIdentity, stream_id: str) -> None:
        await asyncio.to_thread(self.store.redis.zrem, f"lim:bot:streams:{bot.bot_id}", stream_id)

    # ---- queue --------------------------------------------------------------------------
    async def join(
        self, holder: str, name: str, *, bot: BotIdentity | None, min_players: int, max_players: int,
        ruleset: str = "",
    ) -> dict[str, Any]:
        """Queue ``holder`` for a ranked match of ``ruleset`` (default ``return``) with a
        player range that ruleset allows; the holder's queued ticket with other settings is
        replaced. The ticket's rating is the holder's all-time mu on that ruleset's ladder."""
        try:
            ruleset, lo, hi = queue_settings(ruleset, min_players, max_players)
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        if bot is not None:
            await self.take(bot)
            load = await asyncio.to_thread(self.store.bot_load, bot.bot_id)
            if load >= self.limits.max_matches:
                raise Exhausted(
                    f"bot {bot.bot_id}: at most {self.limits.max_matches} concurrent ranked matches "
                    f"(queued or playing: {load})",
                    kind="too_many_matches",
                )
            holder, name = bot.holder, bot.name
        if not holder:
            raise BadRequest("a ticket needs a holder")
        ladder = BOT if bot is not None else HUMAN
        rating = await asyncio.to_thread(self.ladder.rating, ladder, holder.split(":", 1)[-1], ALL_TIME, ruleset)
        _, ticket = await asyncio.to_thread(
            self.store.join, holder, name, bot=bot is not None, rating=rating.mu, min_players=lo, max_players=hi,
            ruleset=ruleset,
        )
        return ticket

    async def leave(self, ticket_id: str, holder: str) -> dict[str, Any]:
        if not ticket_id:
            current = await asyncio.to_thread(self.store.holder_ticket, holder)
            if current is None:
                raise MatchNotFound("no queued ticket")
            ticket_id = current["ticket_id"]
        result, ticket = await asyncio.to_thread(self.store.leave, ticket_id, holder)
        if result == "not_found" or (ticket is None and result != "forbidden"):
            raise MatchNotFound(f"no ticket {ticket_id!r}")
        if result == "forbidden":
            raise Forbidden("this ticket belongs to someone else")
        assert ticket is not None
        return ticket

    async def ticket(self, ticket_id: str, holder: str) -> dict[str, Any]:
        ticket = await asyncio.to_thread(self.store.ticket, ticket_id)
        if ticket is None:
            raise MatchNotFound(f"no ticket {ticket_id!r}")
        if holder and ticket["holder"] != holder:
            raise Forbidden("this ticket belongs to someone else")
        return ticket

    async def follow(self, holder: str) -> AsyncIterator[dict[str, Any]]:
        """The holder's current ticket (if any), then every change published for it."""
        import redis.asyncio as aredis
        import redis.exceptions as redis_errors

        client = aredis.Redis.from_url(self.redis_url)
        try:
            while True:  # resubscribe (and re-read the current ticket) if Redis drops us
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                try:
                    await pubsub.subscribe(notify_channel(holder))
                    current = await asyncio.to_thread(self.store.holder_ticket, holder)
                    if current is not None:
                        yield current
                    while True:
                        msg = await pubsub.get_message(timeout=5.0)
                        if msg is not None:
                            yield json.loads(msg["data"])
                except (ConnectionError, OSError, redis_errors.ConnectionError, redis_errors.TimeoutError):
                    await asyncio.sleep(0.5)
                finally:
                    await pubsub.aclose()
        finally:
            await client.aclose()

    # ---- ladders ------------------------------------------------------------------------
    async def leaderboard(self, ladder: str, season: str, limit: int, ruleset: str = ""
                          ) -> tuple[str, str, str, list[Standing]]:  # fmt: skip
        """``(ladder, season, ruleset, rows)`` of one ruleset's ladder (default ``return``)."""
        ladder = ladder or HUMAN
        if ladder not in (HUMAN, BOT):
            raise BadRequest("ladder is human or bot")
        try:
            ruleset = known_ruleset(ruleset)
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        if season == "current":
            season = current_season()
        scope = season_scope(season) if season else ALL_TIME
        rows = await asyncio.to_thread(
            self.ladder.leaderboard, ladder, scope, min(max(limit or 50, 1), 500), 0, ruleset
        )
        return ladder, season or "all", ruleset, rows

    async def history(self, ladder: str, player_id: str, limit: int, ruleset: str = "") -> list[dict[str, Any]]:
        """A player's rated matches, newest first: of ``ruleset``, or of every ruleset (``""``)."""
        ladder = ladder or HUMAN
        if ladder not in (HUMAN, BOT):
            raise BadRequest("ladder is human or bot")
        try:
            only = known_ruleset(ruleset) if ruleset else None
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        return await asyncio.to_thread(self.ladder.history, ladder, player_id, min(max(limit or 50, 1), 200), only)

    async def ranked_match(self, match_id: str) -> tuple[dict[str, Any], bool]:
        record = await asyncio.to_thread(self.store.match, match_id)
        if record is None:
            raise MatchNotFound(f"no ranked match {match_id!r}")
        return record, await asyncio.to_thread(self.ladder.rated, match_id)

    # ---- bots at the table --------------------------------------------------------------
    async def seats_of(self, bot: BotIdentity, match_id: str) -> tuple[list[int], float, int]:
        """``bot``'s seats in a ranked match, the match's turn timer and its player count."""
        record = await asyncio.to_thread(self.store.match, match_id)
        if record is None:
            return [], 0.0, 0
        seats = [s.seat for s in record["seats"] if s.holder == bot.holder]
        return seats, record["turn_timeout_s"], len(record["seats"])

    async def active_matches(self, bot: BotIdentity) -> list[str]:
        return await asyncio.to_thread(self.store.bot_matches, bot.bot_id)

    async def act(self, bot: BotIdentity, match_id: str, seat: int, decision: int, action: str,
                  use_default: bool) -> ActResult:  # fmt: skip
        await self.take(bot)
        seats, _, _ = await self.seats_of(bot, match_id)
        if seat not in seats:
            raise Forbidden(f"bot {bot.bot_id} does not play seat {seat} of match {match_id!r}")
        return await self.matches.act(match_id, seat, decision, action, origin="bot-external",
                                      use_default=use_default)  # fmt: skip

    async def decisions(self, bot: BotIdentity, match_id: str, seat: int, timeout_s: float
                        ) -> AsyncIterator[Decision | game_pb2.Outcome]:  # fmt: skip
        """Each decision of ``seat`` as it opens (once), then the outcome."""
        prompted: set[int] = set()
        async for item in self.matches.watch(match_id, seat):
            if item.outcome is not None and item.outcome.over:
                yield item.outcome
                return
            p = item.pending
            if p is None or p.seat != seat or p.number in prompted:
                continue
            obs = await self.matches.observation(match_id, seat)
            if obs.pending.number != p.number or obs.pending.seat != seat:
                continue  # an old decision replayed from the stream
            prompted.add(p.number)
            legal = await self.matches.legal_actions(match_id, seat)
            opened_ms = int(item.event_id.split("-", 1)[0])
            deadline = opened_ms + int(timeout_s * 1000) if timeout_s > 0 else 0
            yield Decision(match_id, seat, p.number, obs, list(legal.actions), legal.default_action, deadline)
