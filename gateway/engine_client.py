"""The gateway's only way to the engine: the ``EngineService`` gRPC stub, timed for metrics.

Its channels come from :func:`services.channels.engine_aio_channel`: every call carries the
platform's service credential (``$FENGSHENG_SERVICE_TOKEN`` or ``$FENGSHENG_SERVICE_TOKEN_FILE``).

Several engine replicas: ``address`` may list them comma-separated (``A:50051,B:50051``).
The client keeps one channel per replica and sends each call to the next replica in turn
(round-robin). A call that fails with ``UNAVAILABLE`` (the replica is down or restarting)
is sent to the next replica, up to once per replica: every engine RPC is safe to resend
(reads are reads; ``Act`` names its decision number, so a resend of an action the dead
replica had applied answers ``FAILED_PRECONDITION``/``duplicate`` and applies nothing). A
``Watch`` cut by a dying replica resumes on the next one after the last event it got.
Each channel also uses gRPC's ``round_robin`` policy, so one DNS name resolving to several
pods (a Kubernetes headless Service, ``dns:///engine:50051``) is spread too.

When every replica answers ``UNAVAILABLE`` (the engine restarting, or its Redis down or
still loading its AOF), the call is tried again after a pause that doubles from
:data:`RETRY_FIRST_S` to :data:`RETRY_MAX_S`, for :data:`RETRY_BUDGET_S` in all; then the
error goes back to the route (HTTP 503 with ``Retry-After``). A ``CreateMatch`` retried after
an ``UNAVAILABLE`` that answers ``ALREADY_EXISTS`` for the id it named was created by the
attempt whose answer was lost: it counts as created.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from fengsheng.v1 import engine_service_pb2 as pb
from fengsheng.v1 import engine_service_pb2_grpc as pb_grpc
from fengsheng.v1 import game_pb2
from gateway.metrics import Metrics
from services.channels import engine_aio_channel

#: deadline of every unary engine call
CALL_TIMEOUT_S = 15.0
#: a Watch cut by UNAVAILABLE is resumed (over every replica in turn, with backoff) until it
#: has gone this long without an event
WATCH_RETRY_BUDGET_S = 30.0
#: unary calls: backoff between rounds over the replicas, and the time given to retries
RETRY_FIRST_S = 0.1
RETRY_MAX_S = 1.0
RETRY_BUDGET_S = 4.0


def backoff(first_s: float = RETRY_FIRST_S, max_s: float = RETRY_MAX_S) -> Iterator[float]:
    """Pauses between retries: ``first_s``, doubling up to ``max_s``, with +-20 % jitter
    (so gateway replicas do not retry in step)."""
    delay = first_s
    while True:
        yield delay * random.uniform(0.8, 1.2)
        delay = min(max_s, delay * 2)


class _Tries:
    """What happened to one call's attempts (read by :meth:`EngineClient.create_match`)."""

    __slots__ = ("unavailable",)

    def __init__(self) -> None:
        self.unavailable = 0


#: idle ``ActStream`` calls kept open per engine replica (more are opened under load, and
#: closed again when they come back to a full pool)
ACT_STREAMS_PER_REPLICA = 8


def stream_error(error: pb.ActError) -> grpc.aio.AioRpcError:
    """An ``ActStream`` refusal as the error the unary ``Act`` raises: the same status code,
    details and trailing metadata (``fs-error``, ``fs-decision``, ``fs-seat-to-act``,
    ``fs-legal``), so callers handle both alike."""
    code = next((c for c in grpc.StatusCode if c.value[0] == error.code), grpc.StatusCode.UNKNOWN)
    md: list[tuple[str, str]] = [("fs-error", error.kind)] if error.kind else []
    if error.HasField("decision"):
        md.append(("fs-decision", str(error.decision)))
    if error.HasField("seat_to_act"):
        md.append(("fs-seat-to-act", str(error.seat_to_act)))
    if error.legal:
        md.append(("fs-legal", json.dumps(list(error.legal), ensure_ascii=True)))
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(*md), details=error.message)


#: the details gRPC gives a call that failed inside its core (not a status a server sent)
CORE_INTERNAL = "Internal error from Core"


def _stream_failure(code: grpc.StatusCode, details: str) -> grpc.aio.AioRpcError:
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details=details)


class _ActStreams:
    """Long-lived ``ActStream`` calls to one replica: an action takes an idle one (or opens
    one), writes its request, reads its response and gives the stream back. One unary call
    per action costs the engine several times the CPU of one message on an open stream
    (bench/service_load.py, ``--unary``)."""

    def __init__(self, stub: pb_grpc.EngineServiceStub, size: int = ACT_STREAMS_PER_REPLICA) -> None:
        self.stub = stub
        self.size = size
        self.idle: list[Any] = []

    async def act(self, request: pb.ActRequest) -> pb.ActResponse:
        """The response to ``request``; raises ``AioRpcError`` for a refusal (as ``Act``
        does) and for a broken stream (which is dropped)."""
        call = self.idle.pop() if self.idle else self.stub.ActStream()
        try:
            await call.write(request)
            res = await asyncio.wait_for(call.read(), CALL_TIMEOUT_S)
        except TimeoutError:
            call.cancel()
            raise _stream_failure(grpc.StatusCode.DEADLINE_EXCEEDED, "ActStream timed out") from None
        except grpc.aio.AioRpcError:
            call.cancel()
            raise
        except Exception as exc:  # e.g. writing to a call that has ended
            call.cancel()
            raise _stream_failure(grpc.StatusCode.UNAVAILABLE, f"ActStream broken: {type(exc).__name__}") from exc
        except BaseException:
            call.cancel()
            raise
        if res is grpc.aio.EOF:
            call.cancel()
            raise _stream_failure(grpc.StatusCode.UNAVAILABLE, "ActStream ended")
        if len(self.idle) < self.size:
            self.idle.append(call)
        else:
            call.cancel()
        if res.HasField("error"):
            raise stream_error(res.error)
        result: pb.ActResponse = res
        return result

    def close(self) -> None:
        for call in self.idle:
            call.cancel()
        self.idle.clear()


class EngineClient:
    """``grpc.aio`` channels to the engine replicas (one each), shared by every request."""

    def __init__(self, address: str, metrics: Metrics) -> None:
        self.address = address
        self.addresses = parse_addresses(address)
        self._metrics = metrics
        self._channels = [
            engine_aio_channel(  # every call carries the service credential (services/channels.py)
                target,
                options=[
                    ("grpc.keepalive_time_ms", 30_000),
                    ("grpc.enable_retries", 1),
                    ("grpc.lb_policy_name", "round_robin"),
                    ("grpc.initial_reconnect_backoff_ms", 200),
                    ("grpc.max_reconnect_backoff_ms", 2_000),
                ],
            )
            for target in self.addresses
        ]
        self._stubs = [pb_grpc.EngineServiceStub(c) for c in self._channels]
        # Any: the stubs' HealthStub declares no methods (Check, Watch are set per channel)
        self._healths: list[Any] = [health_pb2_grpc.HealthStub(c) for c in self._channels]
        self._channel = self._channels[0]
        self._stub = self._stubs[0]
        self._health = self._healths[0]
        self._turn = itertools.count()
        self._act_streams = [_ActStreams(stub) for stub in self._stubs]

    def _order(self) -> list[int]:
        """Replica indices to try for one call: the next one in turn first, then the others."""
        n = len(self._stubs)
        first = next(self._turn) % n
        return [(first + k) % n for k in range(n)]

    async def close(self) -> None:
        for streams in self._act_streams:
            streams.close()
        for channel in self._channels:
            await channel.close()

    async def _call(self, method: str, request: Any, tries: _Tries | None = None) -> Any:
        """One engine call: each replica in turn on ``UNAVAILABLE``, then again after a
        backoff pause, until :data:`RETRY_BUDGET_S` has passed."""
        start = time.perf_counter()
        deadline = time.monotonic() + RETRY_BUDGET_S
        pauses = backoff()
        code = "OK"
        tries = tries or _Tries()
        try:
            while True:
                order = self._order()
                for attempt, index in enumerate(order):
                    self._metrics.engine_replica_calls.labels(replica=self.addresses[index]).inc()
                    try:
                        return await getattr(self._stubs[index], method)(request, timeout=CALL_TIMEOUT_S)
                    except grpc.aio.AioRpcError as exc:
                        retry = exc.code() == grpc.StatusCode.UNAVAILABLE
                        pause = next(pauses) if retry and attempt + 1 == len(order) else 0.0
                        if not retry or time.monotonic() + pause > deadline:
                            code = exc.code().name if exc.code() is not None else "UNKNOWN"
                            raise
                        tries.unavailable += 1
                        self._metrics.engine_failovers.labels(method=method).inc()
                        if pause:
                            await asyncio.sleep(pause)
        finally:
            self._metrics.engine_calls.labels(method=method, code=code).inc()
            self._metrics.engine_seconds.labels(method=method).observe(time.perf_counter() - start)

    async def create_match(self, settings: pb.MatchSettings, match_id: str = "") -> pb.CreateMatchResponse:
        """Create the engine match; with a ``match_id``, safe to retry (see the module doc)."""
        tries = _Tries()
        try:
            result: pb.CreateMatchResponse = await self._call(
                "CreateMatch", pb.CreateMatchRequest(settings=settings, match_id=match_id), tries
            )
        except grpc.aio.AioRpcError as exc:
            if not (match_id and tries.unavailable and exc.code() == grpc.StatusCode.ALREADY_EXISTS):
                raise
            # an earlier attempt made it and its answer was lost: the match is ours
            observation = await self.observation(match_id, -1)
            return pb.CreateMatchResponse(match_id=match_id, pending=observation.pending)
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

    async def set_seat_options(self, match_id: str, seat: int, *, ask_every_decision: bool) -> pb.SeatOptions:
        """Turn the seat's auto-pass off (``ask_every_decision``) or on (``SetSeatOptions``)."""
        options = pb.SeatOptions(ask_every_decision=ask_every_decision)
        result: pb.SeatOptions = await self._call(
            "SetSeatOptions", pb.SeatOptionsRequest(match_id=match_id, seat=seat, options=options)
        )
        return result

    async def act(self, match_id: str, seat: int, decision: int, action: str) -> pb.ActResponse:
        """One action, over a long-lived ``ActStream`` to the next replica in turn. A stream
        that breaks (its replica went away) is dropped and the action goes out as a unary
        ``Act`` with the usual failover and retries: safe, since an action names its decision
        (a second delivery answers ``duplicate`` and applies nothing)."""
        request = pb.ActRequest(match_id=match_id, seat=seat, decision=decision, action=action, origin="human")
        index = self._order()[0]
        streams = self._act_streams[index]
        start = time.perf_counter()
        code = "OK"
        self._metrics.engine_replica_calls.labels(replica=self.addresses[index]).inc()
        try:
            return await streams.act(request)
        except grpc.aio.AioRpcError as exc:
            code = exc.code().name if exc.code() is not None else "UNKNOWN"
            if not _broken(exc):
                raise  # a refusal: the answer
        finally:
            # (as method "Act", the same series whichever way the action went)
            self._metrics.engine_calls.labels(method="Act", code=code).inc()
            self._metrics.engine_seconds.labels(method="Act").observe(time.perf_counter() - start)
        self._metrics.engine_failovers.labels(method="Act").inc()
        result: pb.ActResponse = await self._call("Act", request)
        return result

    async def replay(self, match_id: str) -> pb.Replay:
        result: pb.Replay = await self._call("GetReplay", pb.GetReplayRequest(match_id=match_id))
        return result

    async def replay_steps(
        self,
        match_id: str,
        view: int,
        *,
        from_step: int = 0,
        max_steps: int = 0,
        last: bool = False,
        finished_only: bool = False,
    ) -> pb.ReplaySteps:
        """A page of the match's steps as ``view`` saw them (``GetReplaySteps``)."""
        request = pb.GetReplayStepsRequest(
            match_id=match_id,
            view=view,
            from_step=from_step,
            max_steps=max_steps,
            last=last,
            finished_only=finished_only,
        )
        result: pb.ReplaySteps = await self._call("GetReplaySteps", request)
        return result

    async def rulesets(self) -> pb.Rulesets:
        """The rulesets the engine plays (``ListRulesets``): ids, player counts, decks."""
        result: pb.Rulesets = await self._call("ListRulesets", pb.ListRulesetsRequest())
        return result

    async def watch(
        self, match_id: str, seat: int, from_event_id: str = "", *, with_observation: bool = False
    ) -> AsyncIterator[pb.WatchEvent]:
        """The seat's events (``seat = -1``: public ones) until the stream ends;
        ``with_observation``: the newest write's event also carries the seat's observation.

        A stream cut by ``UNAVAILABLE`` (its replica died, or the engine's Redis is
        restarting) resumes on the next replica after the last event received, pausing with
        backoff once every replica was tried, until :data:`WATCH_RETRY_BUDGET_S` passes
        without an event."""
        last = from_event_id
        failures = 0
        index = self._order()[0]
        pauses = backoff()
        progress = time.monotonic()
        while True:
            request = pb.WatchRequest(
                match_id=match_id, seat=seat, from_event_id=last, with_observation=with_observation
            )
            call = self._stubs[index].Watch(request)
            try:
                async for event in call:
                    failures = 0
                    pauses = backoff()
                    progress = time.monotonic()
                    last = event.event_id
                    yield event
                return
            except grpc.aio.AioRpcError as exc:
                failures += 1
                if exc.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() - progress > WATCH_RETRY_BUDGET_S:
                    raise
                self._metrics.engine_failovers.labels(method="Watch").inc()
                # the next replica after the one that failed; pause once every replica was tried
                index = (index + 1) % len(self._stubs)
                if failures % len(self._stubs) == 0:
                    await asyncio.sleep(next(pauses))
            finally:
                call.cancel()

    async def healthy(self, timeout: float = 2.0) -> str:
        """``SERVING`` when at least one replica is serving, else the first replica's status name."""
        statuses = await asyncio.gather(*(self._replica_health(i, timeout) for i in range(len(self._stubs))))
        return "SERVING" if "SERVING" in statuses else statuses[0]

    async def replica_health(self, timeout: float = 2.0) -> dict[str, str]:
        """Each replica's health status name, by address."""
        statuses = await asyncio.gather(*(self._replica_health(i, timeout) for i in range(len(self._stubs))))
        return dict(zip(self.addresses, statuses, strict=True))

    async def _replica_health(self, index: int, timeout: float) -> str:
        try:
            reply = await self._healths[index].Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout)
            return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.UNIMPLEMENTED:
                return exc.code().name if exc.code() is not None else "UNKNOWN"
        # no health service: a reachable channel is the best we can say
        try:
            await asyncio.wait_for(self._channels[index].channel_ready(), timeout)
            return "SERVING"
        except Exception:
            return "UNAVAILABLE"


def _broken(exc: grpc.aio.AioRpcError) -> bool:
    """Whether an ``ActStream`` failure is the stream's (retry as a unary call), not a refusal.
    Refusals come as responses carrying ``fs-error``; a broken stream has none."""
    kinds = [v for k, v in (exc.trailing_metadata() or ()) if k == "fs-error"]
    if kinds:
        return kinds[0] == "store_unavailable"
    if exc.code() == grpc.StatusCode.INTERNAL and exc.details() == CORE_INTERNAL:
        # gRPC's own word for a write that raced the call's end (the replica ended the
        # stream: it is stopping); the status the
        # replica sent is lost, and the engine never words its own failures so
        return True
    return exc.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)


def parse_addresses(address: str) -> list[str]:
    """``"A:1, B:2"`` -> ``["A:1", "B:2"]`` (one or more gRPC targets, comma-separated).

    A target with a scheme that itself holds commas (``ipv4:1.2.3.4:1,1.2.3.4:2``) is kept whole.
    """
    text = address.strip()
    if re.match(r"^(ipv4|ipv6):", text):
        return [text]
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise ValueError("no engine address given")
    return parts
