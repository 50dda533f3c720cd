"""Ranked play at the gateway: bot accounts, the ranked queue, ladders, and the bot API as
JSON over a WebSocket (docs/ranked.md, docs/bots.md).

Thin routes over the engine server's ``RankedService`` and ``BotService`` (gRPC). People
queue with their player token; bots with their API token (``Authorization: Bearer
fsb_...``); every bot is registered with a person's player token, its owner. Each queue
request and bot stream carries the client's address (:class:`ClientAddress`). A person's
matched ticket comes with a *seat token* for the usual seat routes and
``/ws/matches/{id}``. Ranked matches are not put in the gateway's seat table, so no one can
``/join`` a ranked seat.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Awaitable, Callable
from enum import Enum
from typing import Any, cast

import grpc
from fastapi import FastAPI, Query, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from fengsheng.v1 import game_pb2
from gateway import errors
from gateway.auth import Player, TokenError, TokenSigner
from gateway.bot_socket import run_both
from gateway.bot_socket import serve as serve_bot_socket
from gateway.convert import now_ms, to_dict
from gateway.engine_client import parse_addresses
from services.channels import engine_aio_channel
from services.client_address import ClientAddress

#: who sits at a match, by player id, as the ranked service records it (ranked and casual matches)
SeatHolders = Callable[[str], Awaitable[set[str]]]

#: the bot listener's address as bots should dial it (``GET /api/bots/connect-info``)
BOT_ADDR_ENV = "FENGSHENG_BOT_ADDR"
#: the engine server's default bot listener port (``fengsheng engine-server --bot-port``)
DEFAULT_BOT_PORT = 50052


def bot_address(engine_address: str) -> str:
    """Where bots dial ``BotService``: ``$FENGSHENG_BOT_ADDR`` (the bot listener's public
    address), else the first engine's host with the default bot port. Never the internal
    listener: it answers only platform services."""
    configured = os.environ.get(BOT_ADDR_ENV, "").strip()
    if configured:
        return configured
    first = parse_addresses(engine_address)[0]
    host = first.rsplit(":", 1)[0] if ":" in first else first
    return f"{host}:{DEFAULT_BOT_PORT}"


TAGS: list[str | Enum] = ["ranked"]  # the type FastAPI's tags= takes (list is invariant)


#: longest bot name, in characters (services/ranked/service.py refuses longer ones too)
BOT_NAME_MAX = 40


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=2 * BOT_NAME_MAX)


#: a ruleset id as a request may spell it (the engine service checks it against its registry)
RULESET_PATTERN = r"^[a-z][a-z0-9_]*$"


class QueueIn(BaseModel):
    """A queue request: the ruleset and the player-count range it allows (checked by the
    ranked service against the engine's registry: 422 when it does not)."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(default="return", min_length=1, max_length=32, pattern=RULESET_PATTERN)
    min_players: int | None = Field(None, ge=1, le=99, description="default 5 (or the ruleset's smallest table)")
    max_players: int | None = Field(None, ge=1, le=99, description="default min_players")


class TableIn(BaseModel):
    """A casual table: its ruleset and seats (``me``, ``heuristic``, ``random``, or the id of
    a bot or player challenged)."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(default="return", min_length=1, max_length=32, pattern=RULESET_PATTERN)
    players: int | None = Field(None, ge=1, le=12, description="with no seats: you and house bots (default 5)")
    seats: list[str] = Field(default_factory=list, max_length=12)
    queue: bool = Field(False, description="bots only, no seats: wait in the bots-only queue for other bots")
    fill_after_ms: int = Field(0, ge=0, le=600000, description="with queue: house bots fill the rest after "
                               "this many ms (0: at once)")
    clock_ms: int = Field(0, ge=0, le=30000, description="per-decision clock: 1000, 5000 or 30000 (0: 1000 "
                          "at a table of bots only, else 30000)")
    bank_ms: int = Field(0, ge=0, le=300000, description="each seat's bank: extra time over the match past "
                         "its clock (0 with clock_ms 0: the clock's default)")


class AnswerIn(BaseModel):
    """The answer to a challenge (an invited ticket)."""

    model_config = ConfigDict(extra="forbid")
    accept: bool


def _dict(msg: Any) -> dict[str, Any]:
    """JSON as every endpoint writes it: int64 as numbers, enums by name (gateway/convert.py)."""
    return to_dict(msg)


def _named(entry: dict[str, Any]) -> dict[str, Any]:
    """A ladder history entry with its ``identity`` by enum name, as everywhere else (docs/bots.md)."""
    identity = entry.get("identity")
    if isinstance(identity, int) and not isinstance(identity, bool):
        value = game_pb2.Identity.DESCRIPTOR.values_by_number.get(identity)
        entry["identity"] = value.name if value is not None else identity
    return entry


def history_body(player_id: str, ladder: str, ruleset: str, entries: list[str]) -> dict[str, Any]:
    """``GET /api/ranked/players/{id}/history``: the request's ``player_id``, ``ladder`` and
    ``ruleset`` (``""``: every ruleset) and its ``matches``, the ladder's JSON entries
    (``HistoryResponse.entries``, newest first) with each ``identity`` by enum name. The
    answer docs/ranked.md shows (tests/unit/test_ranked_doc.py)."""
    return {"player_id": player_id, "ladder": ladder, "ruleset": ruleset,
            "matches": [_named(json.loads(e)) for e in entries]}  # fmt: skip


async def _settings_checked(call: Any) -> Any:
    """Await a ranked call whose ``INVALID_ARGUMENT`` can only be about the request's own
    settings (ruleset, player range, ladder): a 422 with the service's reason."""
    try:
        return await call
    except grpc.aio.AioRpcError as exc:
        if exc.code() == grpc.StatusCode.INVALID_ARGUMENT:
            raise errors.ApiError(422, "malformed_request", exc.details() or "invalid settings") from exc
        raise


def _bearer(headers: Any, query_token: str | None) -> str:
    """The request's token; 401 when there is none, or only blanks: an empty holder must
    never reach the ranked service (it would read as "no owner to check")."""
    auth = headers.get("authorization", "")
    token = str(auth[7:]) if auth.lower().startswith("bearer ") else (query_token or "")
    token = token.strip()
    if not token:
        raise errors.unauthenticated("missing token: send `Authorization: Bearer <token>` or `?token=`")
    return token


def install_ranked(app: FastAPI, engine_address: str, signer: TokenSigner, client_address: ClientAddress
                   ) -> SeatHolders:  # fmt: skip
    """Add the ranked routes to ``app`` (the engine server at ``engine_address`` serves
    ``RankedService`` and ``BotService``); ``client_address`` finds who is asking (as the rate
    limiter does), recorded with each queue request and bot stream (docs/ranked.md). Returns
    who sits at a ranked or casual match (:data:`SeatHolders`), for the chat's spectators'
    channel."""
    address = parse_addresses(engine_address)[0]
    bots_dial = bot_address(engine_address)
    stubs: dict[str, Any] = {}

    def ranked() -> bs_grpc.RankedServiceStub:
        if "ranked" not in stubs:  # made inside the event loop (grpc.aio); sends the service credential
            stubs["channel"] = engine_aio_channel(address)
            stubs["ranked"] = bs_grpc.RankedServiceStub(stubs["channel"])
            stubs["bots"] = bs_grpc.BotServiceStub(stubs["channel"])
        return cast("bs_grpc.RankedServiceStub", stubs["ranked"])

    def who(token: str) -> tuple[Player | None, str]:
        """A player token names a person; anything else is taken as a bot's API token."""
        try:
            return signer.player(token), ""
        except TokenError:
            return None, token

    def with_seat(ticket: bs.Ticket, player: Player | None) -> dict[str, Any]:
        out = _dict(ticket)
        if player is not None and ticket.state == "matched" and ticket.match_id:
            out["seat_token"] = signer.new_seat(ticket.match_id, ticket.seat, player)
        return out

    @app.post("/api/bots", tags=TAGS, status_code=201)
    async def register_bot(body: BotIn, request: Request, token: str | None = Query(None)) -> dict[str, Any]:
        """Register a bot account with your player token: you own it (a rated table never
        seats it beside you or your other bots). The answer holds its API token (shown once).
        No token, or a bearer that is no player token: 401."""
        try:
            player, _ = who(_bearer(request.headers, token))
        except errors.ApiError:  # no token at all: the same answer, saying what it takes
            player = None
        if player is None:  # a bot token cannot own a bot: its owner is a person
            raise errors.unauthenticated("registering a bot needs a player token (POST /api/guests makes one): "
                                         "that player owns the bot")  # fmt: skip
        name = errors.checked_name(body.name, BOT_NAME_MAX)  # the service checks it again (gRPC callers)
        account = await ranked().RegisterBot(bs.RegisterBotRequest(name=name, owner=player.pid))
        return {"bot_id": account.bot_id, "name": account.name, "token": account.token,
                "token_id": account.token_id, "bot": True}  # fmt: skip

    def manager(request: Request, token: str | None) -> tuple[str, str]:
        """``(owner, bot_token)`` of a token-management request: a player token names the
        owner (checked against the bot's owner by the service), any other bearer is taken as
        a bot token (that bot only); none is a 401."""
        player, bot_token = who(_bearer(request.headers, token))
        return (player.pid if player else ""), bot_token

    @app.get("/api/bots", tags=TAGS)
    async def list_bots(request: Request, token: str | None = Query(None)) -> dict[str, Any]:
        """Your bots and their live tokens (by ``token_id``; tokens are never shown again):
        with a player token every bot it registered, with a bot token that bot."""
        owner, bot_token = manager(request, token)
        return _dict(await ranked().ListBots(bs.ListBotsRequest(owner=owner, bot_token=bot_token)))

    @app.delete("/api/bots/{bot_id}/tokens/{token_id}", tags=TAGS)
    async def revoke_token(bot_id: str, token_id: str, request: Request, token: str | None = Query(None)
                           ) -> dict[str, Any]:  # fmt: skip
        """Revoke one token of your bot (owner's player token, or a token of that bot); its
        live stream ends with an error of kind ``revoked``. The bot with its tokens left."""
        owner, bot_token = manager(request, token)
        req = bs.RevokeTokenRequest(bot_id=bot_id, token_id=token_id, owner=owner, bot_token=bot_token)
        return _dict(await ranked().RevokeToken(req))

    @app.post("/api/bots/{bot_id}/tokens/rotate", tags=TAGS)
    async def rotate_token(bot_id: str, request: Request, token: str | None = Query(None)) -> dict[str, Any]:
        """A new token for your bot (shown once); every older token is revoked."""
        owner, bot_token = manager(request, token)
        account = await ranked().RotateToken(bs.RotateTokenRequest(bot_id=bot_id, owner=owner, bot_token=bot_token))
        return {"bot_id": account.bot_id, "name": account.name, "token": account.token,
                "token_id": account.token_id, "bot": True}  # fmt: skip

    @app.get("/api/bots/connect-info", tags=TAGS)
    async def connect_info() -> dict[str, str]:
        """Where bots connect: the engine's bot listener (``BotService.Connect`` only, with the
        bot's token; ``$FENGSHENG_BOT_ADDR``) and the JSON WebSocket of this gateway."""
        return {"grpc": bots_dial, "websocket": "/ws/bots"}

    @app.get("/api/bots/{bot_id}", tags=TAGS)
    async def bot_profile(
        bot_id: str,
        limit: int = Query(10, ge=1, le=50),
        ruleset: str = Query("", max_length=32, pattern=r"^([a-z][a-z0-9_]*)?$"),
    ) -> dict[str, Any]:
        """A registered bot's public profile: name, ratings on the bot ladder of every ruleset
        (`rulesets`), `all_time` and `season` those of `ruleset` (default: the ruleset it
        played most), how many ranked matches it has queued or unfinished, recent matches (of
        `ruleset` when named, else of every ruleset, each naming its own)."""
        reply = await _settings_checked(ranked().GetBot(bs.BotProfileRequest(bot_id=bot_id, limit=limit,
                                                                              ruleset=ruleset)))  # fmt: skip
        out = _dict(reply)
        out["recent"] = [_named(json.loads(e)) for e in reply.recent]
        out["bot"] = True
        return out

    @app.post("/api/ranked/queue", tags=TAGS, status_code=201)
    async def join_queue(request: Request, body: QueueIn | None = None, token: str | None = Query(None)
                         ) -> dict[str, Any]:  # fmt: skip
        """Queue for a ranked match of a ruleset (player token or bot token); a range the
        ruleset does not allow, or an unknown ruleset, gets 422; a bot past its limits 429.
        Queueing again with other settings replaces the queued ticket."""
        body = body or QueueIn.model_validate({})
        player, bot_token = who(_bearer(request.headers, token))
        req = bs.JoinQueueRequest(min_players=body.min_players or 0, max_players=body.max_players or 0,
                                  ruleset=body.ruleset, client_address=client_address(request.scope))  # fmt: skip
        if player is not None:
            req.holder, req.name = f"h:{player.pid}", player.name
        else:
            req.bot_token = bot_token
        return with_seat(await _settings_checked(ranked().JoinQueue(req)), player)

    async def ticket_call(method: str, ticket_id: str, request: Request, token: str | None) -> dict[str, Any]:
        player, bot_token = who(_bearer(request.headers, token))
        req = bs.TicketRequest(ticket_id=ticket_id, holder=f"h:{player.pid}" if player else "", bot_token=bot_token)
        return with_seat(await getattr(ranked(), method)(req), player)

    @app.post("/api/casual", tags=TAGS, status_code=201)
    async def open_table(body: TableIn, request: Request, token: str | None = Query(None)) -> dict[str, Any]:
        """Open a casual table (never rated): ``seats`` in order, each ``me`` (you, once),
        ``heuristic`` / ``random`` (house bots) or a bot's or player's id (a challenge); none:
        you and house bots. Your ticket: ``matched`` at once without challenges (people: with
        a ``seat_token``), else ``pending`` until every challenged bot and player accepts
        (follow it on ``/ws/ranked`` or ``GET /api/ranked/queue/{ticket_id}``)."""
        player, bot_token = who(_bearer(request.headers, token))
        req = bs.TableRequest(ruleset=body.ruleset, players=body.players or 0, seats=body.seats, queue=body.queue,
                              fill_after_ms=body.fill_after_ms, clock_ms=body.clock_ms,
                              bank_ms=body.bank_ms)  # fmt: skip
        if player is not None:
            req.holder, req.name = f"h:{player.pid}", player.name
        else:
            req.bot_token = bot_token
        return with_seat(await _settings_checked(ranked().OpenTable(req)), player)

    @app.post("/api/casual/{ticket_id}/answer", tags=TAGS)
    async def answer_challenge(ticket_id: str, body: AnswerIn, request: Request, token: str | None = Query(None)
                               ) -> dict[str, Any]:  # fmt: skip
        """Accept or decline a challenge: your ticket in state ``invited`` (pushed on
        ``/ws/ranked``, or a bot's stream). The ticket as it is then: ``accepted`` (others
        still to answer), ``matched`` (you were the last; people: with a ``seat_token``),
        ``declined`` or ``expired``."""
        player, bot_token = who(_bearer(request.headers, token))
        req = bs.ChallengeAnswer(ticket_id=ticket_id, accept=body.accept)
        if player is not None:
            req.holder, req.name = f"h:{player.pid}", player.name
        else:
            req.bot_token = bot_token
        return with_seat(await ranked().AnswerChallenge(req), player)

    @app.get("/api/ranked/queue/{ticket_id}", tags=TAGS)
    async def get_ticket(ticket_id: str, request: Request, token: str | None = Query(None)) -> dict[str, Any]:
        """A ticket's state; once `matched`, its match and seat (and, for people, a seat token)."""
        return await ticket_call("GetTicket", ticket_id, request, token)

    @app.delete("/api/ranked/queue/{ticket_id}", tags=TAGS)
    async def leave_queue(ticket_id: str, request: Request, token: str | None = Query(None)) -> dict[str, Any]:
        """Leave the queue (state `left`); a ticket already matched stays matched."""
        return await ticket_call("LeaveQueue", ticket_id, request, token)

    @app.get("/api/ranked/leaderboard", tags=TAGS)
    async def leaderboard(
        ladder: str = "human",
        season: str = "",
        limit: int = Query(50, ge=1, le=500),
        ruleset: str = Query("return", min_length=1, max_length=32, pattern=RULESET_PATTERN),
    ) -> dict[str, Any]:
        """A ruleset's ladder (`human` or `bot`), all time or one season (`season=current` or
        a name); rows sorted by score = mu − 3·sigma; bots are labelled `"bot": true`. Each
        ruleset rates apart (`ruleset`, default `return`; `rulesets` lists them all)."""
        reply = await _settings_checked(
            ranked().Leaderboard(bs.LeaderboardRequest(ladder=ladder, season=season, limit=limit, ruleset=ruleset))
        )
        return _dict(reply)

    @app.get("/api/ranked/players/{player_id}/history", tags=TAGS)
    async def history(
        player_id: str,
        ladder: str = "human",
        limit: int = Query(50, ge=1, le=200),
        ruleset: str = Query("", max_length=32, pattern=r"^([a-z][a-z0-9_]*)?$"),
    ) -> dict[str, Any]:
        """A player's (or bot's) ranked matches as `matches`, newest first: each with the
        player's seat, its identity (enum name), won, the score before and after (fields as
        in docs/ranked.md); of one ruleset (`ruleset=classic`), or of all (default)."""
        reply = await _settings_checked(
            ranked().History(bs.HistoryRequest(ladder=ladder, player_id=player_id, limit=limit, ruleset=ruleset))
        )
        return history_body(player_id, ladder, ruleset, list(reply.entries))

    @app.get("/api/ranked/matches/{match_id}", tags=TAGS)
    async def ranked_match(match_id: str) -> dict[str, Any]:
        """Who sits where in a ranked match: each seat's kind, player and name, bots labelled
        `"bot": true` (house bots and registered bots alike); its season; `rated` once the
        ladder has counted it."""
        return _dict(await ranked().GetRankedMatch(bs.RankedMatchRequest(match_id=match_id)))

    @app.websocket("/ws/ranked")
    async def ranked_socket(websocket: WebSocket) -> None:
        """A person's queue events: `{"type": "ticket", "ticket": {...}}` on every change; when
        matched, the ticket holds `seat_token` (then follow `/ws/matches/{match_id}`)."""
        await websocket.accept()
        try:
            player = signer.player(_bearer(websocket.headers, websocket.query_params.get("token")))
        except (TokenError, errors.ApiError) as exc:
            await websocket.send_json({"type": "error", **errors.unauthenticated(str(exc)).body(),
                                       "server_ms": now_ms()})  # fmt: skip
            await websocket.close(code=errors.WS_UNAUTHORIZED)
            return
        call = ranked().Follow(bs.FollowRequest(holder=f"h:{player.pid}"))

        async def pump() -> None:
            async for ticket in call:
                message = {"type": "ticket", "ticket": with_seat(ticket, player), "server_ms": now_ms()}
                await websocket.send_json(message)

        async def drain() -> None:
            while True:
                await errors.receive_text(websocket)

        failure = await run_both(pump(), drain())
        call.cancel()
        if isinstance(failure, errors.BinaryFrame):
            await errors.close_binary(websocket)
            return
        with contextlib.suppress(Exception):
            await websocket.close()

    @app.websocket("/ws/bots")
    async def bot_socket(websocket: WebSocket) -> None:
        """``BotService.Connect`` as JSON: send `{"join_queue": {...}}`, `{"action": {...}}`,
        `{"leave_queue": {...}}`; receive `{"welcome"|"ticket"|"match_start"|"decision"|
        "result"|"error"|"match_end": {...}}` (field names as in bot_service.proto)."""
        await websocket.accept()
        try:
            token = _bearer(websocket.headers, websocket.query_params.get("token"))
        except errors.ApiError as exc:
            await websocket.send_json({**exc.body(), "server_ms": now_ms()})
            await websocket.close(code=errors.WS_UNAUTHORIZED)
            return
        ranked()
        address = client_address(websocket.scope)  # the bot's, passed on for its tickets
        await serve_bot_socket(websocket, token, lambda: stubs["bots"], address)  # gateway/bot_socket.py

    async def seat_holders(match_id: str) -> set[str]:
        """The ids of everyone seated at ``match_id`` when it is a ranked or casual match (the
        ranked service's record of it, the one these matches have: they never enter the
        gateway's seat table); empty for any other match."""
        try:
            record = await ranked().GetRankedMatch(bs.RankedMatchRequest(match_id=match_id))
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                return set()
            raise
        return {s.player_id for s in record.seats}

    return seat_holders
