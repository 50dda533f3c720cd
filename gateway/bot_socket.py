"""The bot API as JSON over a WebSocket (``/ws/bots``, docs/bots.md, "The protocol"): a
proxy of ``BotService.Connect`` on the engine server's internal listener.

One JSON shape for everything it sends (the same as the gateway's HTTP routes):

- messages are ``{"<kind>": {...}}`` with the proto's field names, every field present;
- 64-bit integers (``decision``, ``deadline_ms``, ``enqueued_ms``...) are JSON **numbers**
  (all of them stay below 2^53, exact in JavaScript); enums are their **names**
  (``"LATENT"``), never numbers (:func:`gateway.convert.to_dict`);
- an error is ``{"error": {"status", "code", "kind", "message", ...}}`` exactly as an HTTP
  error body (gateway/errors.py): ``status`` the HTTP status, ``code`` its lower-case name,
  ``kind`` the finer reason; a refused action adds ``match_id``, ``seat``, ``decision`` and
  ``legal_actions``; a rate limit adds ``retry_after_ms``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from fastapi import WebSocket, WebSocketDisconnect
from google.protobuf import json_format

from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from gateway import errors
from gateway.convert import now_ms, to_dict
from services.client_address import CLIENT_ADDRESS_METADATA

#: errors that end a bot's stream, and the WebSocket close code each closes it with (4000 +
#: the HTTP status of the gRPC status the stream then ends with: ABORTED 409, UNAUTHENTICATED 401)
ENDING = {"replaced": (4409, "aborted"), "revoked": (4401, "unauthenticated")}
#: the WebSocket's wording of a missing or unknown bot token (the engine speaks of gRPC metadata)
UNAUTHENTICATED = "missing or unknown bot token: send `Authorization: Bearer <token>` or `?token=<token>`"


def error_body(err: bs.BotError) -> dict[str, Any]:
    """A ``BotError`` of the stream in the gateway's one error shape."""
    try:
        code = grpc.StatusCode[err.code]
    except KeyError:
        code = grpc.StatusCode.UNKNOWN
    body: dict[str, Any] = {
        "status": errors.GRPC_TO_HTTP.get(code, 502),
        "code": code.name.lower(),
        "kind": err.kind or code.name.lower(),
        "message": err.message,
    }
    if err.match_id:
        body.update(match_id=err.match_id, seat=err.seat, decision=err.decision)
    if err.legal_actions:
        body["legal_actions"] = list(err.legal_actions)
    if err.retry_after_ms > 0:
        body["retry_after_ms"] = err.retry_after_ms
    return {"error": body}


def message_json(msg: bs.ServerMessage) -> dict[str, Any]:
    """One ``ServerMessage`` as the socket sends it."""
    kind = msg.WhichOneof("kind")
    if kind == "error":  # the gateway's one error shape, with the stream's clock beside it
        return {**error_body(msg.error), "server_ms": msg.server_ms}
    return to_dict(msg)


async def serve(websocket: WebSocket, token: str, bots: Callable[[], bs_grpc.BotServiceStub], address: str) -> None:
    """Pump one bot's ``Connect`` stream to and from the (accepted) socket; ``address`` is the
    socket's client address, passed on for the bot's tickets (the internal listener believes it)."""
    outgoing: asyncio.Queue[bs.BotMessage | None] = asyncio.Queue()

    async def requests() -> AsyncIterator[bs.BotMessage]:
        while True:
            msg = await outgoing.get()
            if msg is None:
                return
            yield msg

    metadata = (("authorization", f"Bearer {token}"), (CLIENT_ADDRESS_METADATA, address))
    call = bots().Connect(requests(), metadata=metadata)
    told: list[str] = []  # the kind of the error that ended the stream, once sent

    async def pump() -> None:
        async for msg in call:
            await websocket.send_json(message_json(msg))
            if msg.WhichOneof("kind") == "error" and msg.error.kind in ENDING and not msg.error.match_id:
                told.append(msg.error.kind)
                return  # the stream ends here: close now, with no second error

    async def receive() -> None:
        while True:
            text = await errors.receive_text(websocket)
            try:
                outgoing.put_nowait(json_format.Parse(text, bs.BotMessage()))
            except json_format.ParseError as exc:
                err = errors.ApiError(422, "malformed_request", str(exc).splitlines()[0])
                await websocket.send_json({**err.body(), "server_ms": now_ms()})

    failure = await run_both(pump(), receive())
    outgoing.put_nowait(None)
    call.cancel()
    if isinstance(failure, errors.BinaryFrame):
        await errors.close_binary(websocket)
        return
    if told:  # the stream said why it ends (replaced, revoked): close at once, with that one error
        with contextlib.suppress(Exception):
            code, reason = ENDING[told[0]]
            await websocket.close(code=code, reason=reason)
        return
    if isinstance(failure, grpc.aio.AioRpcError):
        err = errors.from_grpc(failure)
        if failure.code() == grpc.StatusCode.UNAUTHENTICATED and "revoked" not in (failure.details() or ""):
            err.message = UNAUTHENTICATED  # a revoked token's stream keeps its own reason
        with contextlib.suppress(Exception):
            await websocket.send_json({**err.body(), "server_ms": now_ms()})
            await websocket.close(code=4000 + err.status, reason=err.code)
        return
    with contextlib.suppress(Exception):
        await websocket.close()


async def run_both(a: Any, b: Any) -> BaseException | None:
    """Run two coroutines until the first ends; cancel the other; the first's failure."""
    tasks: list[asyncio.Future[Any]] = [asyncio.ensure_future(a), asyncio.ensure_future(b)]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    for task in done:
        exc = task.exception()
        if exc is not None and not isinstance(exc, WebSocketDisconnect):
            return exc
    return None
