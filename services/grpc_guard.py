"""A server interceptor that answers ``INVALID_ARGUMENT`` for request bytes that do not parse.

Without it, grpcio raises the protobuf ``DecodeError`` inside its own handler and the caller
gets ``UNKNOWN`` ("Unexpected DecodeError"), with a traceback in the log: a malformed
request would look like a server bug. Found by ``tests/integration/test_fuzz_grpc.py``.

The interceptor wraps each unary-request handler's deserializer: bytes that fail to parse
become an :class:`Undecodable` marker, and the wrapped behaviour aborts with
``INVALID_ARGUMENT`` (trailing metadata ``fs-error: malformed``) before any service code
runs. Streaming-request handlers (server reflection) are left as they are.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
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


async def _reject(context: grpc.aio.ServicerContext[Any, Any], request: Undecodable) -> None:
    context.set_trailing_metadata((("fs-error", "malformed"),))
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"malformed request: {request.error}")


class MalformedRequestInterceptor(grpc.aio.ServerInterceptor):
    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None or handler.request_streaming:
            return handler
        if handler.unary_unary is not None:
            inner_uu = handler.unary_unary

            async def unary_unary(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                if isinstance(request, Undecodable):
                    await _reject(context, request)
                return await inner_uu(request, context)

            return grpc.unary_unary_rpc_method_handler(
                unary_unary,
                request_deserializer=_safe(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            inner_us = handler.unary_stream

            async def unary_stream(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                if isinstance(request, Undecodable):
                    await _reject(context, request)
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
