"""The interceptors every gRPC server of the platform runs (:func:`interceptors`): the
internal listener's door (:class:`RequireServiceToken`), and :class:`MapErrors`, the one
place where what a servicer raises becomes a gRPC status.

Servicer methods (``EngineService``, ``RankedService``, ``BotService``) just raise the
service layer's typed errors (:mod:`services.errors`); :class:`MapErrors` answers

* a :class:`~services.errors.ServiceError` with the code of :data:`STATUS_CODES`, its message
  (plus ``; legal: a | b`` when it lists legal actions) and the trailing metadata of
  :func:`error_metadata` (docs/protocol.md): ``fs-error`` (its kind), ``fs-decision``,
  ``fs-seat-to-act``, ``fs-legal`` (a JSON list, ASCII-escaped), ``fs-retry-after-ms``;
* Redis down, restarting or loading (:data:`fengsheng.redis_errors.STORE_UNAVAILABLE`) with
  ``UNAVAILABLE`` (``fs-error: store_unavailable``), which every client retries, never
  ``INTERNAL``, which they take as final;
* anything else with ``INTERNAL`` (logged with its traceback);
* request bytes that do not parse with ``INVALID_ARGUMENT`` (``fs-error: malformed``), not
  grpcio's ``UNKNOWN`` ("Unexpected DecodeError") with a traceback in the log, which would
  make a malformed request look like a server bug (found by
  ``tests/integration/test_fuzz_grpc.py``).

The same for every kind of call: unary, server streaming (``Watch``, ``Follow``: an error in
the middle of the stream ends it with that status) and bidirectional (``Connect``,
``ActStream``). Request-streaming methods keep grpcio's parser unless they answer an
:class:`Undecodable` message themselves (:data:`CHECKS_UNDECODABLE`: ``ActStream`` sends an
error response and the stream goes on).

Per call, :class:`MapErrors` costs one interceptor step and a dict lookup: each method's
handler is wrapped once, on its first call, and the wrapped handler is kept (a
``grpc.aio.ServerInterceptor`` that built a new handler per call cost about 40 µs of the
engine's CPU per action, ``bench/service_load.py``). Likewise :class:`RequireServiceToken`
hands back the registered handler itself when the caller passes.
"""
from __future__ import annotations

import asyncio
import inspect
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import grpc

from fengsheng.redis_errors import STORE_UNAVAILABLE
from services.credentials import METADATA_KEY, same_token
from services.errors import (
    BadRequest,
    Conflict,
    Exhausted,
    Forbidden,
    IllegalActionError,
    MatchExists,
    MatchNotFound,
    NotOver,
    OutOfTurn,
    Replaced,
    Revoked,
    ServiceError,
    StaleDecision,
    Unauthenticated,
    UnsupportedFormat,
)

log = logging.getLogger(__name__)

#: The one place where service errors become gRPC status codes (a subclass takes its
#: nearest listed base's: ``NameTaken`` is a ``MatchExists``).
STATUS_CODES: dict[type[ServiceError], grpc.StatusCode] = {
    MatchNotFound: grpc.StatusCode.NOT_FOUND,
    MatchExists: grpc.StatusCode.ALREADY_EXISTS,
    BadRequest: grpc.StatusCode.INVALID_ARGUMENT,
    IllegalActionError: grpc.StatusCode.INVALID_ARGUMENT,
    StaleDecision: grpc.StatusCode.FAILED_PRECONDITION,
    OutOfTurn: grpc.StatusCode.FAILED_PRECONDITION,
    NotOver: grpc.StatusCode.FAILED_PRECONDITION,
    UnsupportedFormat: grpc.StatusCode.FAILED_PRECONDITION,
    Conflict: grpc.StatusCode.ABORTED,
    Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
    Forbidden: grpc.StatusCode.PERMISSION_DENIED,
    Exhausted: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Replaced: grpc.StatusCode.ABORTED,
    Revoked: grpc.StatusCode.UNAUTHENTICATED,
}


def status_of(exc: ServiceError) -> grpc.StatusCode:
    """The status code of ``exc`` (``UNKNOWN`` for a class the table does not know)."""
    for cls in type(exc).__mro__:
        code = STATUS_CODES.get(cls)
        if code is not None:
            return code
    return grpc.StatusCode.UNKNOWN


def error_details(exc: ServiceError) -> str:
    """The status message of ``exc``: its message, and the legal actions when it has them."""
    details = exc.message
    if exc.legal is not None and "legal:" not in details:
        details += "; legal: " + " | ".join(exc.legal)
    return details


def error_metadata(exc: ServiceError) -> tuple[tuple[str, str], ...]:
    """The trailing metadata of ``exc``: its machine-readable parts (docs/protocol.md)."""
    md: list[tuple[str, str]] = [("fs-error", exc.kind)]
    if exc.decision is not None:
        md.append(("fs-decision", str(exc.decision)))
    if exc.seat_to_act is not None:
        md.append(("fs-seat-to-act", str(exc.seat_to_act)))
    if exc.legal is not None:
        md.append(("fs-legal", json.dumps(exc.legal, ensure_ascii=True)))
    retry = getattr(exc, "retry_after_s", 0.0)
    if retry > 0:  # the gateway's 429 carries it as Retry-After (docs/bots.md, "Limits")
        md.append(("fs-retry-after-ms", str(max(1, round(retry * 1000)))))
    return tuple(md)


@dataclass(frozen=True)
class Refusal:
    """How a call answers an exception: the status, its message and trailing metadata."""

    code: grpc.StatusCode
    #: the machine-readable word (``fs-error``): the error's kind, ``store_unavailable``, ``internal``
    kind: str
    details: str
    metadata: tuple[tuple[str, str], ...] = ()


def refusal(name: str, exc: Exception) -> Refusal:
    """The one mapping from what method ``name`` raised to what its caller is told (logged
    when it is not the caller's doing). ``ActStream`` answers each action with it, too."""
    if isinstance(exc, ServiceError):
        return Refusal(status_of(exc), exc.kind, error_details(exc), error_metadata(exc))
    if isinstance(exc, STORE_UNAVAILABLE):
        # Redis down, restarting or still loading: UNAVAILABLE, which every client retries
        # with backoff; never INTERNAL, which they take as final
        log.warning("%s: Redis unavailable: %s: %s", name, type(exc).__name__, exc)
        return Refusal(grpc.StatusCode.UNAVAILABLE, "store_unavailable",
                       f"{name}: store unavailable ({type(exc).__name__}), retry",
                       (("fs-error", "store_unavailable"),))  # fmt: skip
    log.error("%s failed", name, exc_info=exc)
    return Refusal(grpc.StatusCode.INTERNAL, "internal", f"{name}: internal error: {type(exc).__name__}: {exc}")


async def _answer(context: grpc.aio.ServicerContext[Any, Any], name: str, exc: BaseException) -> None:
    """End the call with :func:`refusal` of ``exc``. Go on as they are: ``AbortError`` (the
    servicer ended the call itself), cancellation, what is not an ``Exception``, and an error
    after which grpcio answers with the status the method set (``UNIMPLEMENTED``)."""
    if isinstance(exc, grpc.aio.AbortError | asyncio.CancelledError) or not isinstance(exc, Exception):
        raise exc
    if not isinstance(exc, ServiceError) and context.code() not in (None, grpc.StatusCode.OK):
        raise exc  # the method set its status itself: the generated base classes' UNIMPLEMENTED
    answer = refusal(name, exc)
    if answer.metadata:
        context.set_trailing_metadata(answer.metadata)
    await context.abort(answer.code, answer.details)
    raise AssertionError("unreachable") from exc  # abort raises


class Undecodable:
    """Stands in for a request message whose bytes did not parse."""

    __slots__ = ("error",)

    def __init__(self, error: str) -> None:
        self.error = error


def _safe(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    if deserializer is None:
        return None

    def parse(data: bytes) -> Any:
        try:
            return deserializer(data)
        except Exception as exc:
            return Undecodable(f"{type(exc).__name__}: {exc}")

    return parse


async def reject(context: grpc.aio.ServicerContext[Any, Any], request: Undecodable) -> None:
    """Abort the call with ``INVALID_ARGUMENT`` (``fs-error: malformed``)."""
    context.set_trailing_metadata((("fs-error", "malformed"),))
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"malformed request: {request.error}")


#: Set (true) on a request-streaming behaviour that answers an :class:`Undecodable` message
#: itself (``ActStream``): its messages then get the checking deserializer too.
CHECKS_UNDECODABLE = "_fs_checks_undecodable"


#: Methods of the internal listener that answer without the service credential: health
#: checks (Kubernetes' native gRPC probe and load balancers send no metadata; the answer
#: is SERVING / NOT_SERVING per service name and reveals nothing about any match).
OPEN_METHODS = frozenset({"/grpc.health.v1.Health/Check", "/grpc.health.v1.Health/Watch"})


def _refusal(message: str) -> grpc.RpcMethodHandler[Any, Any]:
    """A handler that refuses the call ``UNAUTHENTICATED`` without reading the request.

    Stream-stream, so that it fits every kind of call: the server does not wait for a
    request message (a bidirectional client may send none before it hears back)."""

    async def refuse(request_iterator: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        context.set_trailing_metadata((("fs-error", "unauthenticated"),))
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    return grpc.stream_stream_rpc_method_handler(refuse)


class RequireServiceToken(grpc.aio.ServerInterceptor):
    """The internal listener's door: every method (``EngineService``, ``RankedService``,
    ``BotService``, reflection, any method added later) answers only a caller whose metadata
    carries the platform's service credential (:data:`services.credentials.METADATA_KEY`),
    compared in constant time; everyone else gets ``UNAUTHENTICATED`` before the method is
    even looked up. Only :data:`OPEN_METHODS` (health) answer everyone.

    A call that passes goes to the registered handler itself (no new handler per call), so
    the door costs one metadata scan and one comparison per call."""

    def __init__(self, token: str, open_methods: frozenset[str] = OPEN_METHODS) -> None:
        if not token:
            raise ValueError("RequireServiceToken needs a credential")
        self._expected = token.encode()
        self._key = METADATA_KEY
        self._open = open_methods
        self._missing = _refusal(f"this listener is for platform services only: send the service credential "
                                 f"in `{METADATA_KEY}` (bots: use the bot listener, see docs/bots.md)")  # fmt: skip
        self._wrong = _refusal(f"wrong service credential in `{METADATA_KEY}`")

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        if handler_call_details.method in self._open:
            return await continuation(handler_call_details)
        presented = None
        for key, value in handler_call_details.invocation_metadata or ():
            if key == self._key:
                presented = value
                break
        if presented is None:
            return self._missing
        if not same_token(presented, self._expected):
            return self._wrong
        return await continuation(handler_call_details)


class Timer(Protocol):
    """Where :class:`MapErrors` records a method's call durations (a Prometheus histogram child)."""

    def observe(self, amount: float) -> None: ...


Behaviour = Callable[..., Any]


class MapErrors(grpc.aio.ServerInterceptor):
    """Every method's errors become statuses the same way (see the module docstring).

    ``timer(method)`` (``/package.Service/Method``) may give a :class:`Timer` that records
    the durations of that unary method's calls; ``None``: not timed. (A stream times what it
    likes itself: ``ActStream`` each of its actions.)"""

    def __init__(self, *, timer: Callable[[str], Timer | None] | None = None) -> None:
        self._timer = timer
        #: method -> (the handler found, its wrapped handler): wrapped once per method
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler[Any, Any], grpc.RpcMethodHandler[Any, Any]]] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        found = await continuation(handler_call_details)
        if found is None:  # an unknown method: nothing kept (any name can be asked for)
            return None
        method = handler_call_details.method
        kept = self._wrapped.get(method)
        if kept is not None and kept[0] is found:
            return kept[1]
        wrapped = self.wrap(method, found)
        self._wrapped[method] = (found, wrapped)
        return wrapped

    def wrap(self, method: str, handler: grpc.RpcMethodHandler[Any, Any]) -> grpc.RpcMethodHandler[Any, Any]:
        """``handler`` with its errors mapped and its request bytes checked."""
        name = method.rsplit("/", 1)[-1]
        # the behaviours are typed Callable[..., Any]: the stubs describe grpc's synchronous
        # API, a grpc.aio server's are coroutine functions (and take a grpc.aio.ServicerContext)
        if handler.unary_unary is not None:
            timer = self._timer(method) if self._timer is not None else None
            return grpc.unary_unary_rpc_method_handler(
                _unary(name, handler.unary_unary, timer, check=True),
                request_deserializer=_safe(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(
                _streaming(name, handler.unary_stream, check=True),
                request_deserializer=_safe(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        # request streams: checked message by message only by a behaviour that answers an
        # Undecodable message itself (ActStream); the others keep grpcio's parser
        if handler.stream_unary is not None:
            return grpc.stream_unary_rpc_method_handler(
                _unary(name, handler.stream_unary, None, check=False),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.stream_stream is not None:
            checks = getattr(handler.stream_stream, CHECKS_UNDECODABLE, False)
            return grpc.stream_stream_rpc_method_handler(
                _streaming(name, handler.stream_stream, check=False),
                request_deserializer=_safe(handler.request_deserializer) if checks else handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler


def _unary(name: str, inner: Behaviour, timer: Timer | None, *, check: bool) -> Behaviour:
    """A behaviour with one response (unary-unary, stream-unary), its errors mapped."""

    async def behaviour(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        if check and request.__class__ is Undecodable:
            await reject(context, request)
        t0 = time.perf_counter()
        try:
            return await inner(request, context)
        except BaseException as exc:
            await _answer(context, name, exc)
        finally:
            if timer is not None:
                timer.observe(time.perf_counter() - t0)

    return behaviour


def _streaming(name: str, inner: Behaviour, *, check: bool) -> Behaviour:
    """A behaviour with a response stream (unary-stream, stream-stream), its errors mapped:
    an async generator for an async generator, a coroutine for one that writes with
    ``context.write()``."""
    if inspect.isasyncgenfunction(inner):

        async def generator(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[Any]:
            if check and request.__class__ is Undecodable:
                await reject(context, request)
            responses = inner(request, context)
            try:
                async for response in responses:
                    yield response
            except BaseException as exc:
                await _answer(context, name, exc)
            finally:
                await responses.aclose()  # its clean-up now, also when the call ends early

        return generator
    return _unary(name, inner, None, check=check)


def interceptors(token: str | None = None, *, timer: Callable[[str], Timer | None] | None = None
                 ) -> list[grpc.aio.ServerInterceptor]:  # fmt: skip
    """The interceptors of a platform gRPC server, in order: with ``token``, the service
    credential's door (the internal listener), then :class:`MapErrors`."""
    door: list[grpc.aio.ServerInterceptor] = [RequireServiceToken(token)] if token is not None else []
    return [*door, MapErrors(timer=timer)]
