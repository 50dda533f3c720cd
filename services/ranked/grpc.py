"""The ranked-play gRPC servicers, ``BotService`` and ``RankedService``
(proto/fengsheng/v1/bot_service.proto): both on the engine server's internal listener
(service credential required), ``BotService`` alone on its bot listener (services/engine/grpc.py).

Thin: translate, call :class:`services.ranked.service.RankedService` (a bot's ``Connect``
stream: :class:`services.ranked.connection.BotConnection`), translate back. Errors are
raised as they are; the servers' interceptor (:class:`services.grpc_guard.MapErrors`) gives
them their status. Errors about one stream message go back as ``BotError`` (the stream
stays open).
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import grpc

from engine.rulesets import RULESET_IDS
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from services.client_address import CLIENT_ADDRESS_METADATA, ClientAddress, grpc_scope
from services.engine.matches import MatchService
from services.ranked.connection import BotConnection
from services.ranked.messages import ticket_pb, tokens_pb
from services.ranked.service import BotIdentity, RankedService
from services.ranked.store import RankedStore, token_id_of

log = logging.getLogger(__name__)

SERVICE_NAMES = ("fengsheng.v1.BotService", "fengsheng.v1.RankedService")


def _token(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            return text[7:].strip() if text.lower().startswith("bearer ") else text.strip()
    return ""


def stream_address(context: grpc.aio.ServicerContext[Any, Any], *, internal: bool, rule: ClientAddress) -> str:
    """A bot stream's client address. ``internal`` (the internal listener: every caller holds
    the service credential, i.e. is the gateway): the gateway's word in
    :data:`CLIENT_ADDRESS_METADATA`, else the peer. The bot listener (anyone): ``rule`` over
    the peer and the metadata, as the gateway reads a request (trusted proxies only)."""
    metadata = list(context.invocation_metadata() or ())
    if internal:
        for key, value in metadata:
            if key == CLIENT_ADDRESS_METADATA:
                return (value.decode("latin-1") if isinstance(value, bytes) else value).strip()[:64]
    return rule(grpc_scope(context.peer() or "", metadata))


class RankedServicer(bs_grpc.RankedServiceServicer):
    def __init__(self, service: RankedService) -> None:
        self.service = service

    async def RegisterBot(self, request: bs.RegisterBotRequest, context: Any) -> bs.BotAccount:
        bot_id, token = await self.service.register_bot(request.name, request.owner)
        return bs.BotAccount(bot_id=bot_id, name=request.name.strip(), token=token, token_id=token_id_of(token))

    async def ListBots(self, request: bs.ListBotsRequest, context: Any) -> bs.BotList:
        bots = await self.service.list_bots(request.owner, request.bot_token)
        return bs.BotList(bots=[tokens_pb(b) for b in bots])

    async def RevokeToken(self, request: bs.RevokeTokenRequest, context: Any) -> bs.BotTokens:
        return tokens_pb(await self.service.revoke_token(request.bot_id, request.token_id, request.owner,
                                                         request.bot_token))  # fmt: skip

    async def RotateToken(self, request: bs.RotateTokenRequest, context: Any) -> bs.BotAccount:
        name, token, token_id = await self.service.rotate_token(request.bot_id, request.owner, request.bot_token)
        return bs.BotAccount(bot_id=request.bot_id, name=name, token=token, token_id=token_id)

    async def OpenTable(self, request: bs.TableRequest, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        ticket = await self.service.open_table(
            request.holder, request.name, bot=bot, ruleset=request.ruleset, players=request.players,
            seats=list(request.seats), queue=request.queue, fill_after_s=request.fill_after_s,
            clock_ms=request.clock_ms, bank_ms=request.bank_ms)  # fmt: skip
        return ticket_pb(ticket)

    async def AnswerChallenge(self, request: bs.ChallengeAnswer, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        ticket, _ = await self.service.answer_challenge(
            request.ticket_id, request.holder, request.name, request.accept, bot=bot)  # fmt: skip
        return ticket_pb(ticket)

    async def Audit(self, request: bs.AuditRequest, context: Any) -> bs.AuditReport:
        body = await self.service.audit(request.ruleset, request.matches, request.all, request.limit, request.z)
        return bs.AuditReport(json=json.dumps(body))

    async def _bot(self, context: Any, token: str) -> BotIdentity | None:
        return await self.service.authenticate(token) if token else None

    async def JoinQueue(self, request: bs.JoinQueueRequest, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        ticket = await self.service.join(
            request.holder, request.name, bot=bot, min_players=request.min_players, max_players=request.max_players,
            ruleset=request.ruleset, address=request.client_address,
        )  # fmt: skip
        return ticket_pb(ticket)

    async def LeaveQueue(self, request: bs.TicketRequest, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        holder = bot.holder if bot else request.holder
        return ticket_pb(await self.service.leave(request.ticket_id, holder))

    async def GetTicket(self, request: bs.TicketRequest, context: Any) -> bs.Ticket:
        bot = await self._bot(context, request.bot_token)
        holder = bot.holder if bot else request.holder
        return ticket_pb(await self.service.ticket(request.ticket_id, holder))

    async def Follow(self, request: bs.FollowRequest, context: Any) -> AsyncIterator[bs.Ticket]:
        async for ticket in self.service.follow(request.holder):
            yield ticket_pb(ticket)

    async def Leaderboard(self, request: bs.LeaderboardRequest, context: Any) -> bs.LeaderboardResponse:
        ladder, season, ruleset, rows = await self.service.leaderboard(
            request.ladder, request.season, request.limit, request.ruleset
        )
        return bs.LeaderboardResponse(ladder=ladder, season=season, ruleset=ruleset, rulesets=RULESET_IDS, standings=[
            bs.Standing(rank=r.rank, player_id=r.player_id, name=r.name, bot=r.bot, score=r.rating.score,
                        mu=r.rating.mu, sigma=r.rating.sigma, games=r.rating.games, wins=r.rating.wins,
                        provisional=r.rating.provisional) for r in rows])  # fmt: skip

    async def History(self, request: bs.HistoryRequest, context: Any) -> bs.HistoryResponse:
        entries = await self.service.history(request.ladder, request.player_id, request.limit, request.ruleset)
        return bs.HistoryResponse(entries=[json.dumps(e) for e in entries])

    async def GetBot(self, request: bs.BotProfileRequest, context: Any) -> bs.BotProfile:
        p = await self.service.bot_profile(request.bot_id, request.limit, request.ruleset)

        def view(r: Any) -> bs.RatingView:
            return bs.RatingView(score=r.score, mu=r.mu, sigma=r.sigma, games=r.games, wins=r.wins,
                                 provisional=r.provisional)  # fmt: skip

        return bs.BotProfile(
            bot_id=p["bot_id"], name=p["name"], created_ms=p["created_ms"], all_time=view(p["all_time"]),
            season=view(p["season"]), season_name=p["season_name"], active_matches=p["active_matches"],
            recent=[json.dumps(e) for e in p["recent"]], ruleset=p["ruleset"],
            rulesets=[bs.RulesetRatings(ruleset=r["ruleset"], all_time=view(r["all_time"]), season=view(r["season"]))
                      for r in p["rulesets"]],
        )  # fmt: skip

    async def GetRankedMatch(self, request: bs.RankedMatchRequest, context: Any) -> bs.RankedMatch:
        record, rated = await self.service.ranked_match(request.match_id)
        return bs.RankedMatch(
            match_id=request.match_id, season=record["season"], created_ms=record["created_ms"],
            turn_timeout_s=record["turn_timeout_s"], rated=rated, ruleset=record["ruleset"],
            seats=[bs.RankedSeat(seat=s.seat, kind=s.kind, player_id=s.player_id, name=s.name, bot=s.bot)
                   for s in record["seats"]],
        )  # fmt: skip


class BotServicer(bs_grpc.BotServiceServicer):
    """``BotService``; ``internal``: on the internal listener (the gateway's ``/ws/bots``
    proxy names the bot's client address), else on the public bot listener."""

    def __init__(self, service: RankedService, *, internal: bool) -> None:
        self.service = service
        self.internal = internal
        self.client_address = ClientAddress.from_env()

    async def _own(self, context: Any) -> tuple[BotIdentity, str]:
        """The calling bot (its token in the metadata, as for Connect) and that token; the
        call is one request against the bot's rate."""
        token = _token(context)
        bot = await self.service.authenticate(token)
        await self.service.take(bot)
        return bot, token

    async def ListTokens(self, request: bs.OwnTokenRequest, context: Any) -> bs.BotTokens:
        _, token = await self._own(context)
        bots = await self.service.list_bots("", token)
        return tokens_pb(bots[0])

    async def RevokeToken(self, request: bs.OwnTokenRequest, context: Any) -> bs.BotTokens:
        bot, token = await self._own(context)
        return tokens_pb(await self.service.revoke_token(bot.bot_id, request.token_id, "", token))

    async def RotateToken(self, request: bs.OwnTokenRequest, context: Any) -> bs.BotAccount:
        bot, token = await self._own(context)
        name, new, token_id = await self.service.rotate_token(bot.bot_id, "", token)
        return bs.BotAccount(bot_id=bot.bot_id, name=name, token=new, token_id=token_id)

    async def Connect(self, request_iterator: AsyncIterator[bs.BotMessage], context: Any
                      ) -> AsyncIterator[bs.ServerMessage]:  # fmt: skip
        address = stream_address(context, internal=self.internal, rule=self.client_address)
        connection = await BotConnection.open(self.service, _token(context), address)
        async for message in connection.run(request_iterator):
            yield message


def add_ranked_services(server: grpc.aio.Server, matches: MatchService, redis_url: str) -> RankedService:
    """Serve ``BotService`` and ``RankedService`` on ``server`` (the internal listener, where
    the gateway's ``/ws/bots`` proxies bots); close the returned service when the server stops."""
    service = RankedService(matches, RankedStore.from_url(redis_url), redis_url)
    bs_grpc.add_RankedServiceServicer_to_server(RankedServicer(service), server)
    bs_grpc.add_BotServiceServicer_to_server(BotServicer(service, internal=True), server)
    return service


def add_bot_service(server: grpc.aio.Server, service: RankedService) -> None:
    """Serve ``BotService`` (only) on ``server``: the bot listener gets this and health."""
    bs_grpc.add_BotServiceServicer_to_server(BotServicer(service, internal=False), server)


__all__ = ["SERVICE_NAMES", "BotServicer", "RankedServicer", "add_bot_service", "add_ranked_services"]
