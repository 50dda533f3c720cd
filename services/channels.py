"""The one way trusted code opens a gRPC channel to the engine server's internal listener.

Every channel made here attaches the platform's service credential
(:mod:`services.credentials`) to every call, unary and streaming, through a client
interceptor: the gateway (``gateway/engine_client.py``, ``gateway/ranked_routes.py``), the
Celery workers (``services/workers/tasks.py``, ``services/balance.py``), the health probe, the
benchmarks and the tests all come through here, so none of them can forget it. Bots never
do: the bot SDK (``sdk/python/src/fengsheng_bot/client.py``) talks to the bot listener with its bot
token only.

>>> channel = engine_channel("127.0.0.1:50051")          # doctest: +SKIP
>>> stub = EngineServiceStub(channel)                     # every call carries the credential
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import grpc

from services.credentials import METADATA_KEY, service_token

Options = Sequence[tuple[str, Any]]


class _Details(NamedTuple):
    """``grpc.ClientCallDetails`` with the credential added to its metadata."""

    method: str
    timeout: float | None
    metadata: Any
    credentials: Any
    wait_for_ready: bool | None
    compression: Any


class _SyncDetails(_Details, grpc.ClientCallDetails):
    pass


def _with_token(metadata: Any, token: str) -> list[tuple[str, Any]]:
    return [*(metadata or ()), (METADATA_KEY, token)]


class _SyncCredential(
    grpc.UnaryUnaryClientInterceptor,
    grpc.UnaryStreamClientInterceptor,
    grpc.StreamUnaryClientInterceptor,
    grpc.StreamStreamClientInterceptor,
):
    """Adds the service credential to every call of a blocking channel."""

    def __init__(self, token: str) -> None:
        self.token = token

    def _details(self, d: grpc.ClientCallDetails) -> grpc.ClientCallDetails:
        return _SyncDetails(d.method, d.timeout, _with_token(d.metadata, self.token), d.credentials,
                            getattr(d, "wait_for_ready", None), getattr(d, "compression", None))  # fmt: skip

    def intercept_unary_unary(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        return continuation(self._details(client_call_details), request)

    def intercept_unary_stream(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        return continuation(self._details(client_call_details), request)

    def intercept_stream_unary(self, continuation: Any, client_call_details: Any, request_iterator: Any) -> Any:
        return continuation(self._details(client_call_details), request_iterator)

    def intercept_stream_stream(self, continuation: Any, client_call_details: Any, request_iterator: Any) -> Any:
        return continuation(self._details(client_call_details), request_iterator)


def _aio_details(d: grpc.aio.ClientCallDetails, token: str) -> grpc.aio.ClientCallDetails:
    return grpc.aio.ClientCallDetails(d.method, d.timeout, grpc.aio.Metadata(*_with_token(d.metadata, token)),
                                      d.credentials, d.wait_for_ready)  # fmt: skip


class _AioUnaryUnary(grpc.aio.UnaryUnaryClientInterceptor):
    def __init__(self, token: str) -> None:
        self.token = token

    async def intercept_unary_unary(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        return await continuation(_aio_details(client_call_details, self.token), request)


class _AioUnaryStream(grpc.aio.UnaryStreamClientInterceptor):
    def __init__(self, token: str) -> None:
        self.token = token

    async def intercept_unary_stream(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        return await continuation(_aio_details(client_call_details, self.token), request)


class _AioStreamUnary(grpc.aio.StreamUnaryClientInterceptor):
    def __init__(self, token: str) -> None:
        self.token = token

    async def intercept_stream_unary(self, continuation: Any, client_call_details: Any, request_iterator: Any) -> Any:
        return await continuation(_aio_details(client_call_details, self.token), request_iterator)


class _AioStreamStream(grpc.aio.StreamStreamClientInterceptor):
    def __init__(self, token: str) -> None:
        self.token = token

    async def intercept_stream_stream(self, continuation: Any, client_call_details: Any, request_iterator: Any) -> Any:
        return await continuation(_aio_details(client_call_details, self.token), request_iterator)


def engine_channel(target: str, options: Options = (), *, token: str | None = None) -> grpc.Channel:
    """A blocking channel to the engine's internal listener at ``target``; every call
    carries the service credential (``token``, default :func:`service_token`, which raises
    :class:`services.credentials.CredentialError` when none is configured)."""
    secret = service_token() if token is None else token
    return grpc.intercept_channel(grpc.insecure_channel(target, options=list(options)), _SyncCredential(secret))


def engine_aio_channel(target: str, options: Options = (), *, token: str | None = None) -> grpc.aio.Channel:
    """:func:`engine_channel` for ``grpc.aio`` (make it inside the event loop that uses it)."""
    secret = service_token() if token is None else token
    interceptors: list[grpc.aio.ClientInterceptor] = [
        _AioUnaryUnary(secret), _AioUnaryStream(secret), _AioStreamUnary(secret), _AioStreamStream(secret),
    ]  # fmt: skip
    return grpc.aio.insecure_channel(target, options=list(options), interceptors=interceptors)
