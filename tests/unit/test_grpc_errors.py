"""One error mapping for every gRPC service (services/grpc_guard.py; issue 15, point 6).

The real servicers (``EngineService``, ``RankedService``, ``BotService``) over a service layer
that raises, on an in-process ``grpc.aio`` server on port 0 built with the platform's
interceptors: every typed error of :mod:`services.errors` reaches the caller with its status
code, its message and its ``fs-*`` metadata, from a unary call, a server stream (after a
first message) and a bidirectional stream alike. The expected codes are written out here, not
read from ``STATUS_CODES``: a new error class, or a servicer that stops letting its errors
through to the interceptor, fails this test.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from types import SimpleNamespace
from typing import Any

import grpc
import pytest
import redis.exceptions
from grpc_health.v1 import health, health_pb2_grpc

from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services import errors
from services.engine.grpc import EngineServicer
from services.grpc_guard import interceptors
from services.ranked.grpc import BotServicer, RankedServicer

C = grpc.StatusCode
EXPECTED: dict[str, grpc.StatusCode] = {
    "MatchNotFound": C.NOT_FOUND,
    "MatchExists": C.ALREADY_EXISTS,
    "NameTaken": C.ALREADY_EXISTS,
    "BadRequest": C.INVALID_ARGUMENT,
    "IllegalActionError": C.INVALID_ARGUMENT,
    "StaleDecision": C.FAILED_PRECONDITION,
    "OutOfTurn": C.FAILED_PRECONDITION,
    "NotOver": C.FAILED_PRECONDITION,
    "UnsupportedFormat": C.FAILED_PRECONDITION,
    "Conflict": C.ABORTED,
    "Unauthenticated": C.UNAUTHENTICATED,
    "Forbidden": C.PERMISSION_DENIED,
    "Exhausted": C.RESOURCE_EXHAUSTED,
    "Replaced": C.ABORTED,
    "Revoked": C.UNAUTHENTICATED,
}
ERRORS = sorted(
    (c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.ServiceError)
     and c is not errors.ServiceError),
    key=lambda c: c.__name__,
)  # fmt: skip


def test_every_service_error_has_its_expected_status() -> None:
    # a new ServiceError: give it a status here and in STATUS_CODES
    assert {c.__name__ for c in ERRORS} == set(EXPECTED)


class Raising:
    """A service layer (match, replay and ranked alike) whose every call raises ``error``;
    ``watch`` and ``follow`` send one item first."""

    def __init__(self) -> None:
        self.error: Exception = RuntimeError("unset")
        self.store = None

    def __getattr__(self, name: str) -> Callable[..., Coroutine[Any, Any, Any]]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            raise self.error

        return call

    async def watch(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        yield SimpleNamespace(event_id="1-0", event=None, pending=None, outcome=None, observation=None)
        raise self.error

    async def follow(self, holder: str) -> AsyncIterator[dict[str, Any]]:
        yield {"ticket_id": "t1", "holder": holder, "name": "n", "bot": False, "state": "queued", "min_players": 5,
               "max_players": 5, "rating": 0.0, "enqueued_ms": 0, "match_id": "", "seat": -1, "seats": [],
               "turn_timeout_s": 0.0}  # fmt: skip
        raise self.error


def example(cls: type[errors.ServiceError]) -> errors.ServiceError:
    if cls is errors.IllegalActionError:
        return cls("no such card", decision=7, seat_to_act=2, legal=["pass", "play 41 on 33"])
    if cls is errors.Exhausted:
        return errors.Exhausted("too many requests", retry_after_s=0.25)
    return cls(f"{cls.__name__} happened", decision=3)


def expected_details(exc: errors.ServiceError) -> str:
    return exc.message + ("; legal: " + " | ".join(exc.legal) if exc.legal else "")


def expected_metadata(exc: errors.ServiceError) -> dict[str, str]:
    md = {"fs-error": exc.kind, "fs-decision": str(exc.decision)}
    if exc.seat_to_act is not None:
        md["fs-seat-to-act"] = str(exc.seat_to_act)
    if exc.legal is not None:
        md["fs-legal"] = json.dumps(exc.legal)
    if isinstance(exc, errors.Exhausted):
        md = {"fs-error": exc.kind, "fs-retry-after-ms": "250"}
    return md


def failure(err: grpc.aio.AioRpcError) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    md = {k: v if isinstance(v, str) else v.decode() for k, v in (err.trailing_metadata() or ())}
    return err.code(), err.details() or "", md


async def serve(check: Callable[[grpc.aio.Channel, Raising], Coroutine[Any, Any, None]]) -> None:
    layer = Raising()
    server = grpc.aio.server(interceptors=interceptors())
    es_grpc.add_EngineServiceServicer_to_server(EngineServicer(layer, replays=layer), server)  # type: ignore[arg-type]
    bs_grpc.add_RankedServiceServicer_to_server(RankedServicer(layer), server)  # type: ignore[arg-type]
    bs_grpc.add_BotServiceServicer_to_server(BotServicer(layer, internal=False), server)  # type: ignore[arg-type]
    health_pb2_grpc.add_HealthServicer_to_server(health.aio.HealthServicer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            await check(channel, layer)
    finally:
        await server.stop(0)


def run(check: Callable[[grpc.aio.Channel, Raising], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(serve(check), 30))


@pytest.mark.parametrize("cls", ERRORS, ids=lambda c: c.__name__)
def test_a_service_error_is_its_status_from_every_kind_of_call(cls: type[errors.ServiceError]) -> None:
    exc = example(cls)
    want = (EXPECTED[cls.__name__], expected_details(exc), expected_metadata(exc))

    async def check(channel: grpc.aio.Channel, layer: Raising) -> None:
        layer.error = exc
        engine, ranked, bots = (es_grpc.EngineServiceStub(channel), bs_grpc.RankedServiceStub(channel),
                                bs_grpc.BotServiceStub(channel))  # fmt: skip

        async def unary_engine() -> None:
            await engine.GetObservation(es.GetObservationRequest(match_id="m", seat=0))

        async def unary_ranked() -> None:
            await ranked.GetTicket(bs.TicketRequest(ticket_id="t", holder="h"))

        async def server_stream() -> None:  # Watch: one event, then the error
            got = [item.event_id async for item in engine.Watch(es.WatchRequest(match_id="m", seat=0))]
            raise AssertionError(f"no error after {got}")

        async def server_stream_ranked() -> None:  # Follow: one ticket, then the error
            got = [t.ticket_id async for t in ranked.Follow(bs.FollowRequest(holder="h"))]
            raise AssertionError(f"no error after {got}")

        async def bidirectional() -> None:  # Connect: refused at its opening
            async def nothing() -> AsyncIterator[bs.BotMessage]:
                await asyncio.sleep(10)
                yield bs.BotMessage()

            got = [m async for m in bots.Connect(nothing(), metadata=(("authorization", "Bearer x"),))]
            raise AssertionError(f"no error after {got}")

        calls: dict[str, Callable[[], Coroutine[Any, Any, None]]] = {
            "GetObservation": unary_engine, "GetTicket": unary_ranked, "Watch": server_stream,
            "Follow": server_stream_ranked, "Connect": bidirectional,
        }  # fmt: skip
        for name, call in calls.items():
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await call()
            assert failure(info.value) == want, name

        # ActStream answers a refusal in the stream, with the same code and message
        stream = engine.ActStream()
        await stream.write(es.ActRequest(match_id="m", seat=0, decision=1, action="pass"))
        answer = await stream.read()
        await stream.done_writing()
        assert isinstance(answer, es.ActResponse)
        assert (answer.error.code, answer.error.kind, answer.error.message) == (
            want[0].value[0], exc.kind, want[1]), answer  # fmt: skip

    run(check)


def test_the_store_unavailable_internal_errors_malformed_bytes_and_unimplemented_methods() -> None:
    async def check(channel: grpc.aio.Channel, layer: Raising) -> None:
        engine, ranked = es_grpc.EngineServiceStub(channel), bs_grpc.RankedServiceStub(channel)

        layer.error = redis.exceptions.ConnectionError("Redis is restarting")
        for call, name in ((engine.GetObservation(es.GetObservationRequest(match_id="m")), "GetObservation"),
                           (ranked.GetTicket(bs.TicketRequest(ticket_id="t")), "GetTicket")):  # fmt: skip
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await call
            assert failure(info.value) == (C.UNAVAILABLE, f"{name}: store unavailable (ConnectionError), retry",
                                           {"fs-error": "store_unavailable"})  # fmt: skip

        layer.error = KeyError("seat 3")
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await engine.Act(es.ActRequest(match_id="m"))
        assert failure(info.value) == (C.INTERNAL, "Act: internal error: KeyError: 'seat 3'", {})

        raw = channel.unary_unary("/fengsheng.v1.EngineService/GetObservation")
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await raw(b"\xff\xff\xff")
        code, details, md = failure(info.value)
        assert (code, md) == (C.INVALID_ARGUMENT, {"fs-error": "malformed"}) and details.startswith("malformed request")

        # a method the servicer does not implement keeps grpcio's answer
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await channel.unary_unary("/grpc.health.v1.Health/List")(b"")
        assert info.value.code() == C.UNIMPLEMENTED

    run(check)
