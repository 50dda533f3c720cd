"""Request guard: malformed request bytes get ``INVALID_ARGUMENT``, not ``UNKNOWN``.

Without it, grpcio raises the protobuf ``DecodeError`` inside its own handler and the caller
gets ``UNKNOWN`` ("Unexpected DecodeError"), with a traceback in the log: a malformed
request would look like a server bug. Found by ``tests/integration/test_fuzz_grpc.py``.

Each unary-request method handler is wrapped once, when the servicer is registered
(:class:`GuardedRegistry` stands in for the server in the generated
``add_*Servicer_to_server`` functions): bytes that fail to parse become an
:class:`Undecodable` marker, and the wrapped behaviour aborts with ``INVALID_ARGUMENT``
(trailing metadata ``fs-error: malformed``) before any service code runs. Streaming-request
handlers (server reflection) are left as they are.

This is not a ``grpc.aio.ServerInterceptor``: an interceptor runs for every call and
builds a new handler each time, which cost about 40 µs of the engine process's CPU per
action (``bench/service_load.py``); the wrapping here is done once per method.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import grpc


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
#: (``services.grpc_server._unary`` does): it then only gets the checking deserializer, not
#: one more coroutine around it.
CHECKS_UNDECODABLE = "_fs_checks_undecodable"


def guard(handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """``handler`` with its request bytes checked (see the module docstring)."""
    if handler is None or handler.request_streaming:
        return handler
    if handler.unary_unary is not None:
        behaviour = handler.unary_unary
        if not getattr(behaviour, CHECKS_UNDECODABLE, False):
            inner_uu = handler.unary_unary

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
        inner_us = handler.unary_stream

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
        self.cache: dict[str, grpc.RpcMethodHandler] = {}

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler | None:
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

    def add_registered_method_handlers(self, service: str, handlers: dict[str, grpc.RpcMethodHandler]) -> None:
        self.server.add_registered_method_handlers(service, {name: guard(h) for name, h in handlers.items()})
