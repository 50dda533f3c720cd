"""The ranked-play gRPC servicers, ``BotService`` and ``RankedService``
(proto/fengsheng/v1/bot_service.proto): both on the engine server's internal listener
(service credential required), ``BotService`` alone on its bot listener (services/engine/grpc.py).

Thin: translate, call :class:`services.ranked.service.RankedService`, translate back.
Errors about one stream message go back as ``BotError`` (the stream stays open); errors of
unary calls and of the stream's opening abort with the status of :data:`CODES`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Any

import grpc

from engine.rulesets import RULESET_IDS
from fengsheng.redis_errors import STORE_UNAVAILABLE
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from services.engine.grpc import STATUS_CODES, error_metadata, store_unavailable
from services.engine.matches import MatchService
from services.errors import ServiceError
from services.ranked.service import (
    FREE_ANSWERS,
    BotIdentity,
    Decision,
    Defaulted,
    Exhausted,
    Forbidden,
    RankedService,
    Replaced,
    Revoked,
    Started,
    Unauthenticated,
)
from services.ranked.store import RankedStore, human_holder, token_id_of

log = logging.getLogger(__name__)

CODES: dict[type[ServiceError], grpc.StatusCode] = {
    **STATUS_CODES,
    Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
    Forbidden: grpc.StatusCode.PERMISSION_DENIED,
    Exhausted: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Replaced: grpc.StatusCode.ABORTED,
    Revoked: grpc.StatusCode.UNAUTHENTICATED,
}
#: how often a stream checks that it is still its bot's live one
LIVE_CHECK_S = 1.0
SERVICE_NAMES = ("fengsheng.v1.BotService", "fengsheng.v1.RankedService")


def code_of(exc: ServiceError) -> grpc.StatusCode:
    for cls in type(exc).__mro__:
        if cls in CODES:
            return CODES[cls]
    return grpc.StatusCode.UNKNOWN


def _metadata(exc: ServiceError) -> tuple[tuple[str, str], ...]:
    md = error_metadata(exc)
    retry = getattr(exc, "retry_after_s", 0.0)
    if retry > 0:  # the gateway's 429 carries it as Retry-After (docs/bots.md, "Limits")
        md = (*md, ("fs-retry-after-ms", str(max(1, round(retry * 1000)))))
    return md


async def _abort(context: grpc.aio.ServicerContext[Any, Any], exc: ServiceError) -> None:
    context.set_trailing_metadata(_metadata(exc))
    await context.abort(code_of(exc), exc.message)


def ticket_pb(t: dict[str, Any]) -> bs.Ticket:
    return bs.Ticket(
        ticket_id=t["ticket_id"], holder=t["holder"], name=t["name"], bot=t["bot"], state=t["state"],
        min_players=t["min_players"], max_players=t["max_players"], rating=t["rating"],
        enqueued_ms=t["enqueued_ms"], match_id=t["match_id"], seat=t["seat"], seats=t["seats"],
        turn_timeout_s=t["turn_timeout_s"], ruleset=t.get("ruleset", ""), expires_ms=t.get("expires_ms", 0),
        challenger=t.get("challenger", ""),
    )  # fmt: skip


def bot_error(exc: ServiceError, **where: Any) -> bs.ServerMessage:
    return bs.ServerMessage(error=bs.BotError(code=code_of(exc).name, kind=exc.kind, message=exc.message,
                                              legal_actions=exc.legal or [],
                                              retry_after_s=getattr(exc, "retry_after_s", 0.0), **where))  # fmt: skip


def _tokens_pb(account: dict[str, Any]) -> bs.BotTokens:
    return bs.BotTokens(bot_id=account["bot_id"], name=account.get("name", ""),
                        created_ms=account.get("created_ms", 0),
                        tokens=[bs.BotTokenInfo(token_id=t["token_id"], created_ms=t["created_ms"])
                                for t in account.get("tokens", [])])  # fmt: skip


def _token(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            return text[7:].strip() if text.lower().startswith("bearer ") else text.strip()
    return ""


class RankedServicer(bs_grpc.RankedServiceServicer):
    def __init__(self, service: RankedService) -> None:
        self.service = service

    async def _call(self, context: grpc.aio.ServicerContext[Any, Any], coro: Any) -> Any:
        try:
            return await coro
        except ServiceError as exc:
            await _abort(context, exc)
        except STORE_UNAVAILABLE as exc:  # Redis restarting or loading: retryable, not UNKNOWN
            await store_unavailable(context, "RankedService", exc)

    async def RegisterBot(self, request: bs.RegisterBotRequest, context: Any) -> bs.BotAccount:
        bot_id, token = await self._call(context, self.service.register_bot(request.name, request.owner))
        return bs.BotAccount(bot_id=bot_id, name=request.name.strip(), token=token, token_id=token_id_of(token))

    async def ListBots(self, request: bs.ListBotsRequest, context: Any) -> bs.BotList:
        bots = await self._call(context, self.service.list_bots(request.owner, request.bot_token))
        return bs.BotList(bots=[_tokens_pb(b) for b in bots])

    async def RevokeToken(self, request: bs.RevokeTokenRequest, context: Any) -> bs.BotTokens:
        account = await self._call(context, self.service.revoke_token(request.bot_id, request.token_id,
                                                                      request.owner, request.bot_token))  # fmt: skip
        return _tokens_pb(account)

    async def RotateToken(self, request: bs.RotateTokenRequest, context: Any) -> bs.BotAccount:
        name, token, token_id = await self._call(
            context, self.service.rotate_token(request.bot_id, request.owner, request.bot_token)
        )
        return bs.BotAccount(bot_id=request.bot_id, name=name, token=token, token_id=token_id)

    async def OpenTable(self, request: bs.TableRequest, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        ticket = await self._call(context, self.service.open_table(
            request.holder, request.name, bot=bot, ruleset=request.ruleset, players=request.players,
            seats=list(request.seats), queue=request.queue, fill_after_s=request.fill_after_s))  # fmt: skip
        return ticket_pb(ticket)

    async def AnswerChallenge(self, request: bs.ChallengeAnswer, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        ticket, _ = await self._call(context, self.service.answer_challenge(
            request.ticket_id, request.holder, request.name, request.accept, bot=bot))  # fmt: skip
        return ticket_pb(ticket)

    async def _bot(self, context: Any, token: str) -> BotIdentity | None:
        if not token:
            return None
        result: BotIdentity = await self._call(context, self.service.authenticate(token))
        return result

    async def JoinQueue(self, request: bs.JoinQueueRequest, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        ticket = await self._call(
            context,
            self.service.join(
                request.holder, request.name, bot=bot, min_players=request.min_players, max_players=request.max_players,
                ruleset=request.ruleset,
            ),
        )
        return ticket_pb(ticket)

    async def LeaveQueue(self, request: bs.TicketRequest, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        holder = bot.holder if bot else request.holder
        return ticket_pb(await self._call(context, self.service.leave(request.ticket_id, holder)))

    async def GetTicket(self, request: bs.TicketRequest, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        holder = bot.holder if bot else request.holder
        return ticket_pb(await self._call(context, self.service.ticket(request.ticket_id, holder)))

    async def Follow(self, request: bs.FollowRequest, context: Any) -> AsyncIterator[bs.Ticket]:
        async for ticket in self.service.follow(request.holder):
            yield ticket_pb(ticket)

    async def Leaderboard(self, request: bs.LeaderboardRequest, context: Any) -> bs.LeaderboardResponse:
        ladder, season, ruleset, rows = await self._call(
            context, self.service.leaderboard(request.ladder, request.season, request.limit, request.ruleset)
        )
        return bs.LeaderboardResponse(ladder=ladder, season=season, ruleset=ruleset, rulesets=RULESET_IDS, standings=[
            bs.Standing(rank=r.rank, player_id=r.player_id, name=r.name, bot=r.bot, score=r.rating.score,
                        mu=r.rating.mu, sigma=r.rating.sigma, games=r.rating.games, wins=r.rating.wins,
                        provisional=r.rating.provisional) for r in rows])  # fmt: skip

    async def History(self, request: bs.HistoryRequest, context: Any) -> bs.HistoryResponse:
        import json

        entries = await self._call(
            context, self.service.history(request.ladder, request.player_id, request.limit, request.ruleset)
        )
        return bs.HistoryResponse(entries=[json.dumps(e) for e in entries])

    async def GetBot(self, request: bs.BotProfileRequest, context: Any) -> bs.BotProfile:
        import json

        p = await self._call(context, self.service.bot_profile(request.bot_id, request.limit))

        def view(r: Any) -> bs.RatingView:
            return bs.RatingView(score=r.score, mu=r.mu, sigma=r.sigma, games=r.games, wins=r.wins,
                                 provisional=r.provisional)  # fmt: skip

        return bs.BotProfile(
            bot_id=p["bot_id"], name=p["name"], created_ms=p["created_ms"], all_time=view(p["all_time"]),
            season=view(p["season"]), season_name=p["season_name"], active_matches=p["active_matches"],
            recent=[json.dumps(e) for e in p["recent"]],
        )  # fmt: skip

    async def GetRankedMatch(self, request: bs.RankedMatchRequest, context: Any) -> bs.RankedMatch:
        record, rated = await self._call(context, self.service.ranked_match(request.match_id))
        return bs.RankedMatch(
            match_id=request.match_id, season=record["season"], created_ms=record["created_ms"],
            turn_timeout_s=record["turn_timeout_s"], rated=rated, ruleset=record["ruleset"],
            seats=[bs.RankedSeat(seat=s.seat, kind=s.kind, player_id=s.player_id, name=s.name, bot=s.bot)
                   for s in record["seats"]],
        )  # fmt: skip


class BotServicer(bs_grpc.BotServiceServicer):
    def __init__(self, service: RankedService) -> None:
        self.service = service

    async def _call(self, context: grpc.aio.ServicerContext[Any, Any], coro: Any) -> Any:
        try:
            return await coro
        except ServiceError as exc:
            await _abort(context, exc)
        except STORE_UNAVAILABLE as exc:  # Redis restarting or loading: retryable, not UNKNOWN
            await store_unavailable(context, "BotService", exc)

    async def _own(self, context: Any) -> tuple[BotIdentity, str]:
        """The calling bot (its token in the metadata, as for Connect) and that token; the
        call is one request against the bot's rate."""
        token = _token(context)
        bot: BotIdentity = await self._call(context, self.service.authenticate(token))
        await self._call(context, self.service.take(bot))
        return bot, token

    async def ListTokens(self, request: bs.OwnTokenRequest, context: Any) -> bs.BotTokens:
        _, token = await self._own(context)
        bots = await self._call(context, self.service.list_bots("", token))
        return _tokens_pb(bots[0])

    async def RevokeToken(self, request: bs.OwnTokenRequest, context: Any) -> bs.BotTokens:
        bot, token = await self._own(context)
        account = await self._call(context, self.service.revoke_token(bot.bot_id, request.token_id, "", token))
        return _tokens_pb(account)

    async def RotateToken(self, request: bs.OwnTokenRequest, context: Any) -> bs.BotAccount:
        bot, token = await self._own(context)
        name, new, token_id = await self._call(context, self.service.rotate_token(bot.bot_id, "", token))
        return bs.BotAccount(bot_id=bot.bot_id, name=name, token=new, token_id=token_id)

    async def Connect(self, request_iterator: AsyncIterator[bs.BotMessage], context: Any
                      ) -> AsyncIterator[bs.ServerMessage]:  # fmt: skip
        svc = self.service
        token = _token(context)
        try:
            bot = await svc.authenticate(token)
        except ServiceError as exc:
            await _abort(context, exc)
            return
        stream_id = secrets.token_hex(6)
        try:
            await svc.open_stream(bot, stream_id)  # the bot's older stream is replaced: it notices and closes
        except ServiceError as exc:
            await _abort(context, exc)
            return
        out: asyncio.Queue[bs.ServerMessage | None] = asyncio.Queue()
        watching: dict[str, asyncio.Task[None]] = {}
        #: decisions pushed on this stream -> answers left that do not count against the rate
        pushed: dict[tuple[str, int, int], int] = {}

        async def watch(match_id: str) -> None:
            seats, timeout_s, players = await svc.seats_of(bot, match_id)
            if not seats:
                return
            try:
                async for item in svc.decisions(bot, match_id, seats[0], timeout_s):
                    if isinstance(item, Started):
                        out.put_nowait(bs.ServerMessage(match_start=bs.MatchStart(
                            match_id=match_id, seats=seats, players=players, turn_timeout_s=timeout_s,
                            events=item.events)))  # fmt: skip
                    elif isinstance(item, Decision):
                        pushed[(item.match_id, item.seat, item.number)] = FREE_ANSWERS
                        out.put_nowait(bs.ServerMessage(decision=bs.DecisionRequest(
                            match_id=item.match_id, seat=item.seat, decision=item.number,
                            observation=item.observation, legal_actions=item.legal,
                            default_action=item.default_action, deadline_ms=item.deadline_ms)))  # fmt: skip
                    elif isinstance(item, Defaulted):
                        pushed.pop((item.match_id, item.seat, item.number), None)
                        out.put_nowait(bs.ServerMessage(defaulted=bs.Defaulted(
                            match_id=item.match_id, seat=item.seat, decision=item.number, applied=item.applied,
                            reason=item.reason, away=item.away)))  # fmt: skip
                    else:
                        out.put_nowait(bs.ServerMessage(match_end=bs.MatchEnd(
                            match_id=match_id, outcome=item, seats=seats)))  # fmt: skip
                        for key in [k for k in pushed if k[0] == match_id]:
                            del pushed[key]
            except ServiceError as exc:
                out.put_nowait(bot_error(exc, match_id=match_id))

        def start(match_id: str) -> None:
            if match_id and match_id not in watching:
                watching[match_id] = asyncio.get_running_loop().create_task(watch(match_id))

        async def follow() -> None:
            async for ticket in svc.follow(bot.holder):
                out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
                if ticket["state"] == "matched":
                    start(ticket["match_id"])

        async def receive() -> None:
            try:
                await receive_all()
            except Exception:
                log.warning("bot %s: stream reader failed", bot.bot_id, exc_info=True)
            out.put_nowait(None)

        async def answer(a: bs.BotAction) -> None:
            key = (a.match_id, a.seat, a.decision)
            left = pushed.get(key, 0)
            if left > 0:  # an answer to a decision pushed here: never rate limited
                pushed[key] = left - 1
            res = await svc.act(bot, a.match_id, a.seat, a.decision, a.action, a.use_default, free=left > 0,
                                stream_id=stream_id)  # fmt: skip
            pushed.pop(key, None)
            out.put_nowait(bs.ServerMessage(result=bs.ActionResult(
                match_id=a.match_id, seat=a.seat, decision=a.decision, applied=res.applied)))  # fmt: skip

        async def receive_all() -> None:
            async for msg in request_iterator:
                kind = msg.WhichOneof("kind")
                try:
                    if kind == "action":
                        await answer(msg.action)
                    elif kind == "join_queue":
                        q = msg.join_queue
                        ticket = await svc.join("", "", bot=bot, min_players=q.min_players,
                                                max_players=q.max_players, ruleset=q.ruleset)  # fmt: skip
                        out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
                    elif kind == "table":
                        t = msg.table
                        ticket = await svc.open_table("", "", bot=bot, ruleset=t.ruleset, players=t.players,
                                                      seats=list(t.seats), queue=t.queue,
                                                      fill_after_s=t.fill_after_s)  # fmt: skip
                        out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
                        if ticket["state"] == "matched":  # a challenge's is "pending" until it comes about
                            start(ticket["match_id"])
                    elif kind == "answer":
                        a = msg.answer
                        ticket, published = await svc.answer_challenge(a.ticket_id, "", "", a.accept, bot=bot)
                        if not published:  # else follow() brings it: one message per change
                            out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
                    elif kind == "leave_queue":
                        await svc.take(bot)
                        ticket, published = await svc.leave_published(msg.leave_queue.ticket_id, bot.holder)
                        if not published:  # else follow() brings it: one message per change
                            out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
                    elif kind == "events":
                        await svc.take(bot)
                        r = msg.events
                        events = await svc.seat_events(bot, r.match_id, r.seat)
                        out.put_nowait(bs.ServerMessage(history=bs.EventHistory(
                            match_id=r.match_id, seat=r.seat, events=events)))  # fmt: skip
                except ServiceError as exc:
                    where: dict[str, Any] = {}
                    if kind == "action":
                        where = {"match_id": msg.action.match_id, "seat": msg.action.seat,
                                 "decision": msg.action.decision}  # fmt: skip
                    elif kind == "events":
                        where = {"match_id": msg.events.match_id, "seat": msg.events.seat}
                    out.put_nowait(bot_error(exc, **where))

        async def lease() -> None:
            while True:
                await asyncio.sleep(LIVE_CHECK_S)
                if not await svc.token_live(token):
                    out.put_nowait(bot_error(Revoked("this bot token was revoked; the stream is closed")))
                    out.put_nowait(None)
                    return
                if not await svc.is_live(bot, stream_id):
                    replaced = Replaced("a newer stream of this bot took over (same token); this one is closed")
                    out.put_nowait(bot_error(replaced))
                    out.put_nowait(None)
                    return

        active = await svc.active_matches(bot)
        yield bs.ServerMessage(welcome=bs.Welcome(
            bot_id=bot.bot_id, name=bot.name, max_concurrent_matches=svc.limits.max_matches,
            actions_per_s=svc.limits.rate, burst=svc.limits.burst, active_matches=active))  # fmt: skip
        loop = asyncio.get_running_loop()
        helpers = [loop.create_task(follow()), loop.create_task(receive()), loop.create_task(lease())]
        for match_id in active:
            start(match_id)
        replaced = revoked = False
        try:
            while True:
                msg = await out.get()
                if msg is None:
                    break
                replaced = (
                    msg.WhichOneof("kind") == "error" and msg.error.kind == Replaced.kind and not msg.error.match_id
                )
                revoked = msg.WhichOneof("kind") == "error" and msg.error.kind == Revoked.kind
                yield msg
        finally:
            for task in [*helpers, *watching.values()]:
                task.cancel()
            for task in [*helpers, *watching.values()]:
                with contextlib.suppress(BaseException):
                    await task
        if replaced:
            await context.abort(grpc.StatusCode.ABORTED, "replaced by a newer stream of this bot (same token)")
        if revoked:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "this bot token was revoked")


def add_ranked_services(server: grpc.aio.Server, matches: MatchService, redis_url: str) -> RankedService:
    """Serve ``BotService`` and ``RankedService`` on ``server`` (the internal listener, where
    the gateway's ``/ws/bots`` proxies bots); close the returned service when the server stops."""
    service = RankedService(matches, RankedStore.from_url(redis_url), redis_url)
    try:
        service.migrate()  # at startup: old '#' ladder ids get their canonical ids
    except Exception:  # Redis not up yet: the next start migrates; serving must not wait
        log.warning("ladder id migration skipped", exc_info=True)
    bs_grpc.add_RankedServiceServicer_to_server(RankedServicer(service), server)
    add_bot_service(server, service)
    return service


def add_bot_service(server: grpc.aio.Server, service: RankedService) -> None:
    """Serve ``BotService`` (only) on ``server``: the bot listener gets this and health."""
    bs_grpc.add_BotServiceServicer_to_server(BotServicer(service), server)


__all__ = ["CODES", "SERVICE_NAMES", "BotServicer", "RankedServicer", "add_bot_service", "add_ranked_services",
           "human_holder"]  # fmt: skip
