"""Casual and challenge tables: matches created at once, outside the ranked queue, never
rated (docs/bots.md, "Casual tables and challenges").

A bot or a person opens a table of a ruleset with chosen seats: itself (``me``), house
bots (``heuristic``, ``random``) and registered bots it challenges by id. The match is
created in the engine right away; each registered bot and person at the table gets a
ticket in state ``matched`` (published to it, so a bot's live stream plays its seat at
once). With no seats named it is the caller and house bots: a bots-only table that fills
at once. Ranked play is untouched: the queue, the ladder, a queued ranked ticket.

What bounds it: a bot pays a request of its rate for a table, and neither the caller nor a
challenged bot may pass its concurrent-match limit; people open tables through the
gateway, whose creation routes are rate limited per address. Tables and their tickets
expire (:data:`services.ranked.CASUAL_TTL_MS`).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from fengsheng.v1 import engine_service_pb2 as es
from services.errors import BadRequest, MatchNotFound
from services.ranked import SeatPlan, bot_holder, bot_key, player_of

if TYPE_CHECKING:
    from services.ranked_service import BotIdentity, RankedService

HOUSE_KINDS = {"heuristic": es.BOT_HEURISTIC, "random": es.BOT_RANDOM}
MAX_SEATS = 12


async def open_table(svc: RankedService, holder: str, name: str, *, bot: BotIdentity | None, ruleset: str,
                     players: int, seats: list[str]) -> dict[str, Any]:  # fmt: skip
    """Create a casual table; the caller's ticket (state ``matched``)."""
    from services.matchmaking import Schedule
    from services.ranked_service import Exhausted

    if bot is not None:
        await svc.take(bot)
        holder, name = bot_holder(bot.bot_id), bot.name
    if not holder:
        raise BadRequest("a table needs its caller (a player or a bot token)")
    spec = [s.strip() for s in seats] or ["me"] + ["heuristic"] * ((players or 5) - 1)
    if len(spec) > MAX_SEATS or spec.count("me") != 1:
        raise BadRequest(f"seats name 'me' exactly once and at most {MAX_SEATS} seats")
    if players and players != len(spec):
        raise BadRequest(f"{len(spec)} seats for {players} players")
    challenged = [s for s in spec if s not in HOUSE_KINDS and s != "me"]
    if len(set(challenged)) != len(challenged) or (bot is not None and bot.bot_id in challenged):
        raise BadRequest("a bot sits at most once at a table")
    limit = svc.limits.max_matches
    for bot_id in ([bot.bot_id] if bot is not None else []) + challenged:
        known = bot_id.startswith("b_") and await asyncio.to_thread(svc.store.redis.exists, bot_key(bot_id))
        if not known:
            raise MatchNotFound(f"no bot {bot_id[:40]!r} (seats: me, heuristic, random or a bot id)")
        if await asyncio.to_thread(svc.store.bot_load, bot_id) >= limit:
            raise Exhausted(f"bot {bot_id} already plays {limit} matches", kind="too_many_matches", retry_after_s=5.0)
    timeout = Schedule.from_env().turn_timeout_s
    plan: list[SeatPlan] = []
    kinds: list[es.SeatKind] = []
    for seat, who in enumerate(spec):
        tid = "t_" + secrets.token_hex(8)
        if who == "me":
            plan.append(SeatPlan(seat, "external" if bot else "human", player_of(holder), name, bot is not None,
                                 holder, tid))  # fmt: skip
            kinds.append(es.BOT_EXTERNAL if bot else es.HUMAN)
        elif who in HOUSE_KINDS:
            plan.append(SeatPlan(seat, who, f"house-{who}-{seat}", f"house {who} {seat}", True))
            kinds.append(HOUSE_KINDS[who])
        else:
            raw = await asyncio.to_thread(svc.store.redis.hget, bot_key(who), "name")
            plan.append(SeatPlan(seat, "external", who, (raw or b"").decode(), True, bot_holder(who), tid))
            kinds.append(es.BOT_EXTERNAL)
    match_id = "cs-" + secrets.token_hex(6)
    settings = es.MatchSettings(ruleset=ruleset, players=len(spec), seats=kinds, turn_timeout_s=timeout)
    await svc.matches.create_match(settings, match_id)  # a bad ruleset or count: BadRequest
    await asyncio.to_thread(svc.store.open_casual, match_id, plan, timeout, ruleset or "return")
    mine = next(s for s in plan if s.holder == holder)
    ticket = await asyncio.to_thread(svc.store.ticket, mine.ticket_id)
    assert ticket is not None
    return ticket
