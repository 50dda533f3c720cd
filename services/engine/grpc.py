"""The engine gRPC service (``grpc.aio``): a thin servicer over :class:`MatchService`, the
standard health service and server reflection; :func:`build_server` hosts them and the
ranked-play servicers (:mod:`services.ranked.grpc`) behind the platform's interceptors
(:func:`services.grpc_guard.interceptors`), which turn what a servicer raises into a status.

Two listeners, two doors (docs/protocol.md, docs/security/doors.md):

* the internal listener (``--port``, default 50051): ``EngineService``, ``RankedService``,
  ``BotService``, health and reflection, for the platform's own services only: every call
  but a health check must carry the service credential
  (:class:`services.grpc_guard.RequireServiceToken`);
* the bot listener (``--bot-port``, default 50052): ``BotService`` (every stream
  authenticated by the bot's token) and health, nothing else: no reflection, no
  ``EngineService``, no ``RankedService`` (``UNIMPLEMENTED``).

Error details: the status message is human-readable; trailing metadata carries the
machine-readable parts (docs/protocol.md; :func:`services.grpc_guard.error_metadata`):
``fs-error`` (the error kind), ``fs-decision`` (the open decision number),
``fs-seat-to-act`` and ``fs-legal`` (a JSON list of the legal actions, ASCII-escaped).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import grpc
import redis.exceptions
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from fengsheng.redis_errors import STORE_UNAVAILABLE
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from fengsheng.v1 import game_pb2
from services.engine import metrics
from services.engine.matches import MatchService
from services.engine.replay import ReplayService
from services.engine.rulesets import rulesets
from services.engine.scheduler import Scheduler
from services.engine.store import MatchStore
from services.engine.stream_view import parse_cursor
from services.errors import BadRequest, ServiceError
from services.grpc_guard import CHECKS_UNDECODABLE, Timer, Undecodable, interceptors, refusal

if TYPE_CHECKING:
    # health.aio.HealthServicer (the stubs' ``health.aio`` is a module alias, not usable in a type)
    from grpc_health.v1._async import HealthServicer as AioHealthServicer

log = logging.getLogger(__name__)

SERVICE_NAME = "fengsheng.v1.EngineService"


def _engine_timer(method: str) -> Timer | None:
    """``fengsheng_rpc_seconds{method=...}`` times the EngineService's unary methods."""
    service, _, name = method.rpartition("/")
    return metrics.RPC_SECONDS.labels(name) if service == "/" + SERVICE_NAME else None


class EngineServicer(es_grpc.EngineServiceServicer):
    """Translate, call one function of the service layer, translate back. Errors are raised
    as they are: :class:`services.grpc_guard.MapErrors` turns them into statuses."""

    def __init__(self, service: MatchService, replays: ReplayService | None = None) -> None:
        self.service = service
        self.replays = replays or ReplayService(service.store)

    async def CreateMatch(
        self, request: es.CreateMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> es.CreateMatchResponse:
        match_id, pending = await self.service.create_match(request.settings, request.match_id)
        return es.CreateMatchResponse(match_id=match_id, pending=pending)

    async def GetObservation(
        self, request: es.GetObservationRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> game_pb2.Observation:
        return await self.service.observation(request.match_id, request.seat, include_events=request.include_events)

    async def SetSeatOptions(
        self, request: es.SeatOptionsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> es.SeatOptions:
        ask = await self.service.set_seat_options(request.match_id, request.seat,
                                                  ask=request.options.ask_every_decision)  # fmt: skip
        return es.SeatOptions(ask_every_decision=ask)

    async def ListLegalActions(
        self, request: es.ListLegalActionsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> es.LegalActions:
        return await self.service.legal_actions(request.match_id, request.seat)

    async def Act(self, request: es.ActRequest, context: grpc.aio.ServicerContext[Any, Any]) -> es.ActResponse:
        return await self._act(request)

    async def ActStream(
        self, requests: AsyncIterator[es.ActRequest | Undecodable], context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[es.ActResponse]:
        """Act over one stream: one response per request, in order; a refusal is a response
        with ``error`` (the unary Act's status and metadata), and the stream goes on."""
        hist = metrics.RPC_SECONDS.labels("ActStream")
        async for request in requests:
            t0 = time.perf_counter()
            if isinstance(request, Undecodable):  # bytes that did not parse (services/grpc_guard.py)
                yield es.ActResponse(
                    error=es.ActError(
                        code=grpc.StatusCode.INVALID_ARGUMENT.value[0],
                        kind="malformed",
                        message=f"malformed request: {request.error}",
                    )
                )
                continue
            try:
                out = await self._act(request)
            except Exception as exc:  # a refusal is an answer: the stream goes on
                answer = refusal("ActStream", exc)
                known = exc if isinstance(exc, ServiceError) else None
                out = es.ActResponse(
                    error=es.ActError(
                        code=answer.code.value[0],
                        kind=answer.kind,
                        message=answer.details,
                        decision=known.decision if known else None,
                        seat_to_act=known.seat_to_act if known else None,
                        legal=(known.legal or ()) if known else (),
                    )
                )
            hist.observe(time.perf_counter() - t0)
            yield out

    setattr(ActStream, CHECKS_UNDECODABLE, True)

    async def _act(self, request: es.ActRequest) -> es.ActResponse:
        res = await self.service.act(
            request.match_id,
            request.seat,
            request.decision,
            request.action,
            origin=request.origin,
            use_default=request.use_default,
            want_next_legal=request.want_next_legal,
            play_next_bot=request.play_next_bot,
            want_observation=request.want_observation,
        )
        out = es.ActResponse(version=res.version, pending=res.pending, applied=res.applied)
        if res.next_bot is not None:
            out.next_bot.CopyFrom(res.next_bot)
        if res.observation is not None:
            out.observation.CopyFrom(res.observation)
        if res.outcome is not None:
            out.outcome.CopyFrom(res.outcome)
        if res.next_legal is not None:
            out.next.CopyFrom(res.next_legal)
        return out

    async def Watch(
        self, request: es.WatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[es.WatchEvent]:
        parse_cursor(request.from_event_id)  # a malformed cursor: INVALID_ARGUMENT before any read
        try:
            async for item in self.service.watch(
                request.match_id, request.seat, request.from_event_id, with_observation=request.with_observation
            ):
                out = es.WatchEvent(event_id=item.event_id)
                if item.event is not None:
                    out.event.CopyFrom(item.event)
                if item.pending is not None:
                    out.pending.CopyFrom(item.pending)
                if item.outcome is not None:
                    out.outcome.CopyFrom(item.outcome)
                if item.observation is not None:
                    out.observation.CopyFrom(item.observation)
                yield out
        except STORE_UNAVAILABLE:  # before ResponseError (READONLY, TRYAGAIN are both): UNAVAILABLE
            raise
        except redis.exceptions.ResponseError as exc:  # a stream id Redis will not take
            raise BadRequest(f"bad from_event_id: {exc}") from exc

    async def GetReplay(self, request: es.GetReplayRequest, context: grpc.aio.ServicerContext[Any, Any]) -> es.Replay:
        return await self.service.replay(request.match_id)

    async def Determinize(
        self, request: es.DeterminizeRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> es.DeterminizeResponse:
        return await self.service.determinized(request.match_id, request.seat, request.seed)

    async def ListRulesets(
        self, request: es.ListRulesetsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> es.Rulesets:
        return rulesets()

    async def GetReplaySteps(
        self, request: es.GetReplayStepsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> es.ReplaySteps:
        return await self.replays.steps(
            request.match_id,
            request.view,
            request.from_step,
            request.max_steps,
            last=request.last,
            finished_only=request.finished_only,
        )


@dataclass
class EngineServer:
    """A built engine server: start it, then :meth:`stop` it (which closes the store)."""

    server: grpc.aio.Server
    port: int
    service: MatchService
    health: AioHealthServicer
    sweeper: asyncio.Task[None] | None = None
    #: more clean-ups at stop (the ranked-play services)
    on_stop: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    #: the bot listener (``BotService`` and health only), when one was asked for
    bot_server: grpc.aio.Server | None = None
    bot_port: int = 0
    bot_health: AioHealthServicer | None = None

    async def start(self) -> None:
        await self.server.start()
        if self.bot_server is not None:
            await self.bot_server.start()
        self.sweeper = asyncio.get_running_loop().create_task(self.service.run_sweeper())

    async def stop(self, grace: float | None = 1.0) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
        await self.health.enter_graceful_shutdown()  # NOT_SERVING: load balancers drain us
        if self.bot_health is not None:
            await self.bot_health.enter_graceful_shutdown()
        if self.bot_server is not None:
            await asyncio.gather(self.server.stop(grace), self.bot_server.stop(grace))
        else:
            await self.server.stop(grace)
        await self.service.close()
        for close in self.on_stop:
            await close()
        await self.service.store.close()


async def build_server(
    address: str,
    redis_url: str,
    *,
    scheduler: Scheduler | None = None,
    celery: bool = True,
    reuse_port: bool = False,
    group_commit_ms: float | None = None,
    bot_address: str | None = None,
    service_token: str | None = None,
    broker_url: str | None = None,
    ranked_url: str | None = None,
) -> EngineServer:
    """Build (not start) the engine server: its internal listener bound to ``address``
    (``host:0`` picks a port) and, with ``bot_address``, its bot listener.

    ``service_token`` (default :func:`services.credentials.service_token`) is the credential
    the internal listener asks of every caller; with none configured this raises
    :class:`services.credentials.CredentialError` (fail closed: never an open engine).
    ``redis_url`` holds the match store (one node or a ``redis+cluster://`` cluster);
    ``broker_url`` (the Celery broker) and ``ranked_url`` (bot accounts, ranked, ladder)
    default to it (services/config.py, ``RedisUrls``).
    ``scheduler`` defaults to a Celery scheduler on ``broker_url`` when ``celery`` is true,
    else to none (nothing is queued: clients act for every seat). ``group_commit_ms``
    defaults to ``$FENGSHENG_GROUP_COMMIT_MS`` (services/config.py).
    """
    from services.credentials import service_token as configured_token
    from services.engine.scheduler import CeleryScheduler, NullScheduler

    token = configured_token() if service_token is None else service_token  # before anything is opened
    if scheduler is None:
        if celery:
            from services.workers.celery_app import make_app

            scheduler = CeleryScheduler(make_app(broker_url or redis_url))
        else:
            scheduler = NullScheduler()
    from services import config

    commit_ms = config.group_commit_ms() if group_commit_ms is None else group_commit_ms
    service = MatchService(MatchStore.from_url(redis_url, group_commit_s=commit_ms / 1000), scheduler)
    metrics.track_service(service)
    options = [
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        ("grpc.max_receive_message_length", 16 * 1024 * 1024),
        ("grpc.max_send_message_length", 64 * 1024 * 1024),
    ]
    # the internal listener: platform services only (the service credential on every call);
    # on both listeners, what a servicer raises becomes a status in one place (MapErrors)
    server = grpc.aio.server(options=options, interceptors=interceptors(token, timer=_engine_timer))
    es_grpc.add_EngineServiceServicer_to_server(EngineServicer(service), server)
    from services.ranked.grpc import SERVICE_NAMES as RANKED_NAMES
    from services.ranked.grpc import add_bot_service, add_ranked_services

    ranked = add_ranked_services(server, service, ranked_url or redis_url)  # BotService, RankedService (docs/bots.md)
    health_servicer = await _add_health(server, (SERVICE_NAME, *RANKED_NAMES))
    reflection.enable_server_reflection(
        (SERVICE_NAME, *RANKED_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = server.add_insecure_port(address)
    if port == 0:
        raise RuntimeError(f"could not bind {address}")
    built = EngineServer(server, port, service, health_servicer, on_stop=[ranked.close])
    if bot_address is not None:
        # the bot listener: BotService (bot token per stream) and health, nothing else
        built.bot_server = grpc.aio.server(options=options, interceptors=interceptors())
        add_bot_service(built.bot_server, ranked)
        built.bot_health = await _add_health(built.bot_server, ("fengsheng.v1.BotService",))
        built.bot_port = built.bot_server.add_insecure_port(bot_address)
        if built.bot_port == 0:
            raise RuntimeError(f"could not bind the bot listener {bot_address}")
    return built


async def _add_health(server: grpc.aio.Server, services: tuple[str, ...]) -> AioHealthServicer:
    """The standard health service on ``server``: SERVING for the server and ``services``."""
    servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    for name in ("", *services):
        await servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return servicer


async def create_server(
    address: str, redis_url: str, *, scheduler: Scheduler | None = None, celery: bool = True
) -> tuple[grpc.aio.Server, int]:
    """``(server, port)`` for ``address`` (bind ``127.0.0.1:0`` in tests); see
    :func:`build_server`, which also hands back the service layer to close."""
    built = await build_server(address, redis_url, scheduler=scheduler, celery=celery)
    return built.server, built.port
