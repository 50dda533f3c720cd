"""Request guards: the internal listener's door (:class:`RequireServiceToken`), and malformed
request bytes get ``INVALID_ARGUMENT``, not ``UNKNOWN``.

Without the request guard, grpcio raises the protobuf ``DecodeError`` inside its own handler and the caller
gets ``UNKNOWN`` ("Unexpected DecodeError"), with a traceback in the log: a malformed
request would look like a server bug. Found by ``tests/integration/test_fuzz_grpc.py``.

Each unary-request method handler is wrapped once, when the servicer is registered
(:class:`GuardedRegistry` stands in for the server in the generated
``add_*Servicer_to_server`` functions): bytes that fail to parse become an
:class:`Undecodable` marker, and the wrapped behaviour aborts with ``INVALID_ARGUMENT``
(trailing metadata ``fs-error: malformed``) before any service code runs. Streaming-request
handlers (server reflection) are left as they are, except those that answer an
:class:`Undecodable` message themselves (``ActStream``: an error response, the stream goes on).

This is not a ``grpc.aio.ServerInterceptor``: an interceptor runs for every call and
builds a new handler each time, which cost about 40 µs of the engine process's CPU per
action (``bench/service_load.py``); the wrapping here is done once per method.
(:class:`RequireServiceToken` is an interceptor, but it hands back the registered handler
itself when the caller passes: no handler is built per call.)
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import grpc

from services.credentials import METADATA_KEY, same_token


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


#: Set (true) on a unary-unary behaviour that rejects an :class:`Undecodable` request itself
#: (``services.engine.grpc._unary`` does): it then only gets the checking deserializer, not
#: one more coroutine around it.
CHECKS_UNDECODABLE = "_fs_checks_undecodable"


def guard(handler: grpc.RpcMethodHandler[Any, Any]) -> grpc.RpcMethodHandler[Any, Any]:
    """``handler`` with its request bytes checked (see the module docstring)."""
    if handler is None:
        return handler
    if handler.stream_stream is not None and getattr(handler.stream_stream, CHECKS_UNDECODABLE, False):
        # a request stream whose behaviour answers an Undecodable message itself (ActStream)
        return grpc.stream_stream_rpc_method_handler(
            handler.stream_stream,
            request_deserializer=_safe(handler.request_deserializer),
            response_serializer=handler.response_serializer,
        )
    if handler.request_streaming:
        return handler
    # the behaviours are typed Callable[..., Any]: the stubs describe grpc's synchronous API, a
    # grpc.aio server's are coroutine functions (and take a grpc.aio.ServicerContext)
    if handler.unary_unary is not None:
        behaviour: Callable[..., Any] = handler.unary_unary
        if not getattr(behaviour, CHECKS_UNDECODABLE, False):
            inner_uu: Callable[..., Any] = handler.unary_unary

            async def behaviour(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                if request.__class__ is Undecodable:
                    await reject(context, request)
                return await inner_uu(request, context)

        return grpc.unary_unary_rpc_method_handler(
            behaviour,
            request_deserializer=_safe(handler.request_deserializer),
            response_serializer=handler.response_serializer,
        )
    if handler.unary_stream is not None:
        inner_us: Callable[..., Any] = handler.unary_stream

        async def unary_stream(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            if request.__class__ is Undecodable:
                await reject(context, request)
            result = inner_us(request, context)
            if hasattr(result, "__aiter__"):
                async for item in result:
                    yield item
            else:  # a coroutine that writes with context.write()
                await result

        return grpc.unary_stream_rpc_method_handler(
            unary_stream,
            request_deserializer=_safe(handler.request_deserializer),
            response_serializer=handler.response_serializer,
        )
    return handler


class _GuardedGeneric(grpc.GenericRpcHandler):
    """A generic handler whose method handlers are guarded, each wrapped on first use."""

    def __init__(self, inner: grpc.GenericRpcHandler) -> None:
        self.inner = inner
        self.cache: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler[Any, Any] | None:
        method = handler_call_details.method
        cached = self.cache.get(method)
        if cached is None:
            found = self.inner.service(handler_call_details)
            if found is None:  # an unknown method: not cached (any name can be asked for)
                return None
            cached = self.cache[method] = guard(found)
        return cached


class GuardedRegistry:
    """Pass this instead of the server to ``add_*Servicer_to_server`` (and to anything else
    that registers handlers): the handlers reach the server guarded."""

    def __init__(self, server: grpc.aio.Server) -> None:
        self.server = server

    def add_generic_rpc_handlers(self, handlers: Sequence[grpc.GenericRpcHandler]) -> None:
        self.server.add_generic_rpc_handlers(tuple(_GuardedGeneric(h) for h in handlers))

    def add_registered_method_handlers(
        self, service: str, handlers: dict[str, grpc.RpcMethodHandler[Any, Any]]
    ) -> None:
        self.server.add_registered_method_handlers(service, {name: guard(h) for name, h in handlers.items()})


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
