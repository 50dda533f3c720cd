"""What the gateway's routes depend on: the services built once per app (the composition
root), and the token checks that name the caller (a guest's player token, a seat token).

Route modules (app.py, chat_routes.py, lobby_routes.py, seat_socket.py …) import these from
here, so none of them imports the app module that installs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import grpc
from fastapi import Depends, FastAPI, Query, Request

from fengsheng.v1 import game_pb2
from gateway import errors
from gateway.auth import Player, SeatGrant, TokenError, TokenSigner
from gateway.chat import ChatService
from gateway.engine_client import EngineClient
from gateway.metrics import Metrics
from gateway.rematch import RematchService
from gateway.replay_steps import ReplaySteps
from gateway.rulesets import RulesetCatalog
from gateway.store import MatchStore


@dataclass
class Services:
    """What the routes need, built once per app in its lifespan (the composition root)."""

    engine: EngineClient
    store: MatchStore
    signer: TokenSigner
    metrics: Metrics
    replays: ReplaySteps
    rulesets: RulesetCatalog
    chat: ChatService
    rematch: RematchService


def _token_from(request_headers: Any, query_token: str | None) -> str:
    auth = request_headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return str(auth[7:].strip())
    if query_token:
        return query_token
    raise errors.unauthenticated("missing token: send `Authorization: Bearer <token>` or `?token=`")


def svc_of(app: FastAPI) -> Services:
    """The app's services (built in its lifespan)."""
    svc: Services = app.state.services
    return svc


def _services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


Svc = Annotated[Services, Depends(_services)]


def _player_of(svc: Svc, request: Request, token: Annotated[str | None, Query()] = None) -> Player:
    """The guest named by the request's player token."""
    try:
        return svc.signer.player(_token_from(request.headers, token))
    except TokenError as exc:
        raise errors.unauthenticated(str(exc)) from exc


def _optional_player(svc: Svc, request: Request, token: Annotated[str | None, Query()] = None) -> Player | None:
    if "authorization" not in request.headers and not token:
        return None
    return _player_of(svc, request, token)


def _seat_of(match_id: str, svc: Svc, request: Request, token: Annotated[str | None, Query()] = None) -> SeatGrant:
    """The seat named by the request's seat token, which must be for this match."""
    try:
        grant = svc.signer.seat(_token_from(request.headers, token))
    except TokenError as exc:
        raise errors.unauthenticated(str(exc)) from exc
    if grant.match_id != match_id:
        raise errors.forbidden("this seat token is for another match")
    return grant


Grant = Annotated[SeatGrant, Depends(_seat_of)]
PlayerDep = Annotated[Player, Depends(_player_of)]
OptionalPlayer = Annotated[Player | None, Depends(_optional_player)]


async def alive(svc: Services, match_id: str) -> game_pb2.Observation:
    """The spectator's observation of a match; when the engine no longer has it (expired),
    the gateway forgets its record too and answers 404."""
    try:
        observation: game_pb2.Observation = await svc.engine.observation(match_id, -1)
        return observation
    except grpc.aio.AioRpcError as exc:
        if exc.code() == grpc.StatusCode.NOT_FOUND:
            await svc.store.forget(match_id)
        raise
