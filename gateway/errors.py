"""Every error the gateway returns, in one place.

Every error body has the same shape, over HTTP and on every WebSocket (docs/bots.md,
"Errors")::

    {"error": {"status": 409, "code": "failed_precondition", "kind": "stale", "message": "...", ...}}

``status`` is the HTTP status, ``code`` its stable lower-case name, ``kind`` the finer reason
(the engine's kind when it gave one, else the same as ``code``).

| cause | HTTP | ``code`` |
|---|---|---|
| missing token | 401 | ``unauthenticated`` |
| forged / malformed token, wrong token kind | 401 | ``unauthenticated`` |
| a valid seat token used for another match or another seat | 403 | ``forbidden`` |
| malformed body or query (validation) | 422 | ``malformed_request`` |
| gRPC ``INVALID_ARGUMENT`` (illegal action, bad settings) | 400 | ``invalid_argument`` + ``legal_actions`` |
| gRPC ``FAILED_PRECONDITION`` (stale / duplicate decision, out of turn) | 409 | ``failed_precondition`` |
| gRPC ``NOT_FOUND`` / unknown match | 404 | ``not_found`` |
| gRPC ``ALREADY_EXISTS`` / ``ABORTED`` | 409 | ``already_exists`` / ``aborted`` |
| gRPC ``UNAVAILABLE`` / ``DEADLINE_EXCEEDED`` | 503 / 504 | ``unavailable`` / ``deadline_exceeded`` |
| the gateway's Redis down, restarting or loading | 503 | ``unavailable`` |
| any other gRPC failure | 502 | the gRPC code, lower case |

A 429 carries ``Retry-After`` (whole seconds, at least 1) and the exact ``retry_after_ms`` in
the body (the bot API's rate or match limit: how long until the same request can succeed).
A 503 carries ``Retry-After`` (seconds) and ``retry_after_ms`` in the body: the engine or
Redis is restarting, the request did nothing (or, for an action, may have been applied:
resending it is safe and answers ``duplicate``). On a WebSocket the same body is sent as an
``error`` message and the socket is closed with ``4000 + status`` (``4503``).

Errors from the engine service also carry, when it sent them in trailing metadata, its
error ``kind`` (``stale_decision``, ``out_of_turn``, ``illegal_action``...), the open
``decision``, the ``seat_to_act`` and the ``legal_actions``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import time
from typing import Any, cast

import grpc
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ExceptionHandler
from starlette.websockets import WebSocketDisconnect, WebSocketState

from fengsheng.display_text import TextRefused, clean_name
from fengsheng.redis_errors import STORE_UNAVAILABLE

log = logging.getLogger("fengsheng.gateway")

#: Seconds a client is told to wait (``Retry-After``) before retrying a 503.
RETRY_AFTER_S = 2

#: gRPC status -> HTTP status.
GRPC_TO_HTTP: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
}

#: WebSocket close codes for the same failures (4000 + the HTTP status).
WS_UNAUTHORIZED = 4401
WS_FORBIDDEN = 4403
WS_NOT_FOUND = 4404
#: a binary frame on a socket that speaks JSON text (RFC 6455 "unsupported data", docs/protocol.md)
WS_UNSUPPORTED_DATA = 1003


class BinaryFrame(Exception):
    """A client sent a binary frame where every message is JSON text."""


async def receive_text(websocket: WebSocket) -> str:
    """The next text message of ``websocket``; :class:`BinaryFrame` for a binary one (Starlette's
    ``receive_text`` fails with ``KeyError: 'text'`` there), ``WebSocketDisconnect`` once closed."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise BinaryFrame("binary frames are not accepted: send JSON text")
    return str(text)


async def close_binary(websocket: WebSocket) -> None:
    """Close ``websocket`` after a binary frame: code 1003, a reason, nothing logged."""
    with contextlib.suppress(Exception):
        await websocket.close(code=WS_UNSUPPORTED_DATA, reason="binary frames are not accepted: send JSON text")


class ApiError(Exception):
    """An error with its HTTP status, a stable ``code`` and optional extra fields."""

    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra
        #: more response headers (``Retry-After`` of a 429)
        self._headers = headers

    def body(self) -> dict[str, Any]:
        body = {"status": self.status, "code": self.code, "kind": self.code, "message": self.message}
        return {"error": {**body, **self.extra}}

    def headers(self) -> dict[str, str] | None:
        """The response headers: those given, and ``Retry-After`` for a retryable error
        (``retry_after_ms``: a 429 or 503) unless given; none when there are none."""
        out = dict(self._headers or {})
        retry = self.extra.get("retry_after_ms")
        if retry is not None and "Retry-After" not in out:
            out["Retry-After"] = str(max(1, math.ceil(int(retry) / 1000)))
        return out or None


def unavailable(message: str, **extra: Any) -> ApiError:
    """503: the engine or Redis is down, restarting or loading; retry after ``RETRY_AFTER_S``."""
    return ApiError(503, "unavailable", message, retry_after_ms=RETRY_AFTER_S * 1000, **extra)


def unauthenticated(message: str) -> ApiError:
    return ApiError(401, "unauthenticated", message)


def checked_name(raw: str, max_len: int) -> str:
    """A guest's or bot's name as kept (:func:`fengsheng.display_text.clean_name`), or a 422
    whose code says why (``invisible_character``, ``too_many_marks``, ``empty_name``,
    ``name_too_long``)."""
    try:
        return clean_name(raw, max_len)
    except TextRefused as exc:
        raise ApiError(422, exc.code, str(exc)) from exc


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message)


def not_found(message: str) -> ApiError:
    return ApiError(404, "not_found", message)


def conflict(message: str) -> ApiError:
    return ApiError(409, "conflict", message)


def engine_error_fields(exc: grpc.aio.AioRpcError) -> dict[str, Any]:
    """The machine-readable parts the engine service puts in trailing metadata.

    ``fs-error`` -> ``kind``, ``fs-decision`` -> ``decision``, ``fs-seat-to-act`` ->
    ``seat_to_act``, ``fs-legal`` (JSON list) -> ``legal_actions``, ``fs-retry-after-ms`` ->
    ``retry_after_ms``.
    """
    fields: dict[str, Any] = {}
    try:
        metadata = exc.trailing_metadata() or ()
    except Exception:
        return fields
    for key, value in metadata:
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        try:
            if key == "fs-error":
                fields["kind"] = text
            elif key == "fs-decision":
                fields["decision"] = int(text)
            elif key == "fs-seat-to-act":
                fields["seat_to_act"] = int(text)
            elif key == "fs-retry-after-ms":
                fields["retry_after_ms"] = max(1, int(text))
            elif key == "fs-legal":
                legal = json.loads(text)
                if isinstance(legal, list):
                    fields["legal_actions"] = [str(a) for a in legal]
        except ValueError:
            continue
    return fields


def from_grpc(exc: grpc.aio.AioRpcError, **extra: Any) -> ApiError:
    """Translate a failed engine call (the one mapping of gRPC codes to HTTP)."""
    code = exc.code()
    status = GRPC_TO_HTTP.get(code, 502)
    name = code.name.lower() if code is not None else "unknown"
    if status == 503:
        extra = {"retry_after_ms": RETRY_AFTER_S * 1000, **extra}
    message = exc.details() or name
    if code in _OPAQUE:
        # the engine's own failure: its text (an exception's message, which may quote the game
        # state) is for the logs, never for an untrusted client
        log.error("engine call failed: %s: %s", name, message)
        message = f"the engine failed ({name}); the error is logged"
    return ApiError(status, name, message, **{**engine_error_fields(exc), **extra})


#: gRPC codes whose details are the engine's internals, not an answer to the request
_OPAQUE = frozenset({grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS})


async def close_socket(websocket: WebSocket, err: ApiError, close_code: int | None = None) -> None:
    """Send ``err`` as an ``error`` message and close the socket (``4000 + status``)."""
    code = close_code if close_code is not None else 4000 + err.status
    with contextlib.suppress(Exception):
        if websocket.client_state == WebSocketState.CONNECTING:
            await websocket.accept()
        await websocket.send_json({"type": "error", **err.body(), "server_ms": int(time.time() * 1000)})
        await websocket.close(code=code, reason=err.code)


async def _respond(conn: Request | WebSocket, err: ApiError) -> JSONResponse | None:
    """The error as a JSON response, or (a WebSocket) as a message and a close code."""
    if isinstance(conn, WebSocket):
        await close_socket(conn, err)
        return None
    return JSONResponse(err.body(), status_code=err.status, headers=err.headers())


def install_handlers(app: FastAPI) -> None:
    """Make every error leave the app in the shape above."""

    async def api_error(conn: Request, exc: Exception) -> JSONResponse | None:
        assert isinstance(exc, ApiError)
        return await _respond(conn, exc)

    async def grpc_error(conn: Request, exc: Exception) -> JSONResponse | None:
        assert isinstance(exc, grpc.aio.AioRpcError)
        return await _respond(conn, from_grpc(exc))

    async def store_error(conn: Request, exc: Exception) -> JSONResponse | None:
        log.warning("gateway store unavailable: %s: %s", type(exc).__name__, exc)
        return await _respond(conn, unavailable(f"the match store is unavailable ({type(exc).__name__}); retry"))

    async def validation_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        details = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in exc.errors()
        ]
        err = ApiError(422, "malformed_request", "the request body or query is malformed", details=details)
        return JSONResponse(err.body(), status_code=err.status)

    async def http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = {401: "unauthenticated", 403: "forbidden", 404: "not_found", 405: "method_not_allowed"}
        err = ApiError(exc.status_code, code.get(exc.status_code, "http_error"), str(exc.detail))
        return JSONResponse(err.body(), status_code=err.status, headers=getattr(exc, "headers", None))

    # these three answer a request (a response) and a WebSocket (None, the socket closed): one
    # handler for both kinds, which Starlette's handler type (one kind or the other) cannot say
    app.add_exception_handler(ApiError, cast(ExceptionHandler, api_error))
    app.add_exception_handler(grpc.aio.AioRpcError, cast(ExceptionHandler, grpc_error))
    for cls in STORE_UNAVAILABLE:
        app.add_exception_handler(cls, cast(ExceptionHandler, store_error))
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
