"""The gateway's only way to the engine: the ``EngineService`` gRPC stub, timed for metrics."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from fengsheng.v1 import engine_service_pb2 as pb
from fengsheng.v1 import engine_service_pb2_grpc as pb_grpc
from fengsheng.v1 import game_pb2
from gateway.metrics import Metrics

#: deadline of every unary engine call
CALL_TIMEOUT_S = 15.0


class EngineClient:
    """One ``grpc.aio`` channel to the engine service, shared by every request."""

    def __init__(self, address: str, metrics: Metrics) -> None:
        self.address = address
        self._metrics = metrics
        self._channel = grpc.aio.insecure_channel(
            address,
            options=[("grpc.keepalive_time_ms", 30_000), ("grpc.enable_retries", 1)],
        )
        self._stub = pb_grpc.EngineServiceStub(self._channel)  # type: ignore[no-untyped-call]
        self._health = health_pb2_grpc.HealthStub(self._channel)

    async def close(self) -> None:
        await self._channel.close()

    async def _call(self, method: str, request: Any) -> Any:
        start = time.perf_counter()
        code = "OK"
        try:
            return await getattr(self._stub, method)(request, timeout=CALL_TIMEOUT_S)
        except grpc.aio.AioRpcError as exc:
            code = exc.code().name if exc.code() is not None else "UNKNOWN"
            raise
        finally:
            self._metrics.engine_calls.labels(method=method, code=code).inc()
            self._metrics.engine_seconds.labels(method=method).observe(time.perf_counter() - start)

    async def create_match(self, settings: pb.MatchSettings, match_id: str = "") -> pb.CreateMatchResponse:
        result: pb.CreateMatchResponse = await self._call(
            "CreateMatch", pb.CreateMatchRequest(settings=settings, match_id=match_id)
        )
        return result

    async def observation(self, match_id: str, seat: int, *, events: bool = False) -> game_pb2.Observation:
        result: game_pb2.Observation = await self._call(
            "GetObservation", pb.GetObservationRequest(match_id=match_id, seat=seat, include_events=events)
        )
        return result

    async def legal_actions(self, match_id: str, seat: int) -> pb.LegalActions:
        result: pb.LegalActions = await self._call(
            "ListLegalActions", pb.ListLegalActionsRequest(match_id=match_id, seat=seat)
        )
        return result

    async def act(self, match_id: str, seat: int, decision: int, action: str) -> pb.ActResponse:
        request = pb.ActRequest(match_id=match_id, seat=seat, decision=decision, action=action, origin="human")
        result: pb.ActResponse = await self._call("Act", request)
        return result

    async def replay(self, match_id: str) -> pb.Replay:
        result: pb.Replay = await self._call("GetReplay", pb.GetReplayRequest(match_id=match_id))
        return result

    async def watch(self, match_id: str, seat: int, from_event_id: str = "") -> AsyncIterator[pb.WatchEvent]:
        """The seat's events (``seat = -1``: public ones) until the stream ends."""
        call = self._stub.Watch(pb.WatchRequest(match_id=match_id, seat=seat, from_event_id=from_event_id))
        try:
            async for event in call:
                yield event
        finally:
            call.cancel()

    async def healthy(self, timeout: float = 2.0) -> str:
        """The engine's health status name (``SERVING`` when all is well)."""
        try:
            reply = await self._health.Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout)
            return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.UNIMPLEMENTED:
                return exc.code().name if exc.code() is not None else "UNKNOWN"
        # no health service: a reachable channel is the best we can say
        try:
            await asyncio.wait_for(self._channel.channel_ready(), timeout)
            return "SERVING"
        except Exception:
            return "UNAVAILABLE"
