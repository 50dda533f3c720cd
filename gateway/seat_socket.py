"""A seat's actions and the match's live stream, for the gateway's REST and WebSocket routes
(gateway/app.py): apply one action for a seat token's seat, and pump the engine's Watch
stream to a socket (a seat's or a spectator's) while reading a seat's actions from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING, Any

import grpc
from fastapi import WebSocket, WebSocketDisconnect

from fengsheng.v1 import game_pb2
from gateway import errors
from gateway.auth import SeatGrant
from gateway.convert import now_ms, to_dict
from gateway.schemas import ActIn

if TYPE_CHECKING:
    from gateway.deps import Services


async def act(
    svc: Services, grant: SeatGrant, decision: int, action: str, seat: int | None, *, transport: str
) -> dict[str, Any]:
    if seat is not None and seat != grant.seat:
        svc.metrics.actions.labels(transport=transport, result="forbidden").inc()
        raise errors.forbidden("a seat token acts only for its own seat")
    try:
        result = await svc.engine.act(grant.match_id, grant.seat, decision, action)
    except grpc.aio.AioRpcError as exc:
        svc.metrics.actions.labels(transport=transport, result=exc.code().name.lower()).inc()
        err = errors.from_grpc(exc)
        if exc.code() == grpc.StatusCode.INVALID_ARGUMENT and "legal_actions" not in err.extra:
            with contextlib.suppress(grpc.aio.AioRpcError):
                legal = await svc.engine.legal_actions(grant.match_id, grant.seat)
                err.extra.update(
                    decision=legal.decision, seat_to_act=legal.seat_to_act, legal_actions=list(legal.actions)
                )
        raise err from exc
    svc.metrics.actions.labels(transport=transport, result="ok").inc()
    # the engine renewed the match's lifetime: renew the seat table's too (best effort: the
    # action is applied whatever happens here)
    with contextlib.suppress(Exception):
        await svc.store.touch(grant.match_id, over=result.outcome.over)
    return to_dict(result)


async def refuse(websocket: WebSocket, err: errors.ApiError, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", **err.body(), "server_ms": now_ms()})
        await websocket.close(code=close_code, reason=err.code)


async def stream(websocket: WebSocket, svc: Services, match_id: str, grant: SeatGrant | None, *, kind: str) -> None:
    """Pump the engine's Watch stream to the socket, and (for a seat) the socket's actions to Act."""
    seat = grant.seat if grant is not None else -1
    send_lock = asyncio.Lock()

    async def send(message: dict[str, Any]) -> None:
        async with send_lock:
            await websocket.send_json({**message, "server_ms": now_ms()})

    svc.metrics.websockets.labels(kind=kind).inc()
    try:
        try:
            observation = await svc.engine.observation(match_id, seat)
        except grpc.aio.AioRpcError as exc:
            err = errors.from_grpc(exc)
            await refuse(websocket, err, 4000 + err.status)
            return
        await send({"type": "hello", "match_id": match_id, "seat": seat})
        await send({"type": "observation", "observation": to_dict(observation)})

        last_prompt = -1

        async def prompt(view: game_pb2.Observation) -> None:
            """The seat's decision is open in ``view``: prompt it once, with the legal actions
            the view carries (pushed by the engine: no request)."""
            nonlocal last_prompt
            pending = view.pending
            if grant is None or pending.seat != seat or view.outcome.over or pending.number == last_prompt:
                return
            if not view.legal_actions:
                return
            last_prompt = pending.number
            await send(
                {
                    "type": "prompt",
                    "decision": pending.number,
                    "kind": pending.kind,
                    "prompt": pending.prompt,
                    # the prompt's row in the ruleset's text table and its arguments
                    # (engine/text.py): clients render it in their language
                    "template": pending.template,
                    "args": dict(pending.args),
                    # the same arguments typed (EventArg, as an event's): what clients render
                    "arguments": [to_dict(a) for a in pending.arguments],
                    "legal_actions": list(view.legal_actions),
                    # the same actions as values (docs/protocol.md "Actions as values")
                    "legal": [to_dict(a) for a in view.legal],
                }
            )

        async def prompt_pulled(pending: game_pb2.Decision) -> None:
            if pending.number == last_prompt:
                return
            legal = await svc.engine.legal_actions(match_id, seat)
            if legal.decision == pending.number and legal.seat_to_act == seat:
                view = game_pb2.Observation(pending=pending, legal_actions=legal.actions, legal=legal.legal)
                await prompt(view)

        await prompt(observation)

        async def pump() -> None:
            # push, not pull: the newest write's event carries the seat's observation (with
            # its legal actions), forwarded as an `observation` message: the client needs no
            # request per event, and the gateway none for the prompt
            from_id = websocket.query_params.get("from", "")
            pushing = False  # the engine attaches observations (it does unless it is older)
            async for event in svc.engine.watch(match_id, seat, from_id, with_observation=True):
                await send(
                    {
                        "type": "event",
                        "event_id": event.event_id,
                        "event": to_dict(event.event),
                        "pending": to_dict(event.pending),
                        "outcome": to_dict(event.outcome),
                    }
                )
                if event.HasField("observation"):
                    pushing = True
                    await send({"type": "observation", "observation": to_dict(event.observation)})
                    await prompt(event.observation)
                elif not pushing and grant is not None and event.pending.seat == seat and not event.outcome.over:
                    # an engine that pushes no observation (older, mid-upgrade): ask for the
                    # legal actions, as before push
                    await prompt_pulled(event.pending)
                if event.outcome.over:
                    await send({"type": "game_over", "outcome": to_dict(event.outcome)})

        async def receive() -> None:
            while True:
                text = await errors.receive_text(websocket)
                try:
                    message = json.loads(text)
                except ValueError:
                    await send({"type": "error", **errors.ApiError(422, "malformed_request", "not JSON").body()})
                    continue
                if grant is None:
                    await send({"type": "error", **errors.forbidden("spectators cannot act").body()})
                    continue
                if isinstance(message, dict) and message.get("type") == "options":
                    await options(message)
                    continue
                if not isinstance(message, dict) or message.get("type", "act") != "act":
                    await send(
                        {
                            "type": "error",
                            **errors.ApiError(422, "malformed_request", "unknown message").body(),
                        }
                    )
                    continue
                async with acting:  # the game may end meanwhile: this answer still goes out
                    try:
                        body = ActIn.model_validate({k: v for k, v in message.items() if k != "type"})
                        result = await act(svc, grant, body.decision, body.action, body.seat, transport="ws")
                        await send({"type": "result", "decision": body.decision, "result": result})
                    except errors.ApiError as refused:
                        await send({"type": "error", "decision": message.get("decision"), **refused.body()})
                    except ValueError as invalid:
                        malformed = errors.ApiError(422, "malformed_request", str(invalid).splitlines()[0])
                        await send({"type": "error", **malformed.body()})

        async def options(message: dict[str, Any]) -> None:
            """``{"type": "options", "auto_pass": bool}``: the seat's auto-pass on or off
            (services/engine/answer_window.py); answered with the setting, then, if an open
            pass-only decision of the seat now asks for an answer, with its prompt."""
            assert grant is not None
            auto = message.get("auto_pass")
            if not isinstance(auto, bool):
                bad = errors.ApiError(422, "malformed_request", "options: auto_pass must be true or false")
                await send({"type": "error", **bad.body()})
                return
            try:
                set_to = await svc.engine.set_seat_options(grant.match_id, grant.seat, ask_every_decision=not auto)
                await send({"type": "options", "auto_pass": not set_to.ask_every_decision})
                await prompt(await svc.engine.observation(grant.match_id, grant.seat))
            except grpc.aio.AioRpcError as exc:
                await send({"type": "error", **errors.from_grpc(exc).body()})

        acting = asyncio.Lock()  # held while an action read from the socket is being applied
        tasks = [asyncio.create_task(pump()), asyncio.create_task(receive())]
        done, pending_tasks = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if tasks[0] in done and tasks[1] in pending_tasks:
            # the game is over (the watch ended): the action that ended it, or any other one
            # in flight, still gets its result before the socket closes
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(10):
                    await acting.acquire()
                    acting.release()
        for task in pending_tasks:
            task.cancel()
        for task in pending_tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for task in done:
            failure = task.exception()
            if isinstance(failure, grpc.aio.AioRpcError):
                engine_error = errors.from_grpc(failure)
                await refuse(websocket, engine_error, 4000 + engine_error.status)
                return
            if isinstance(failure, errors.BinaryFrame):
                await errors.close_binary(websocket)
                return
            if failure is not None and not isinstance(failure, WebSocketDisconnect):
                raise failure
        with contextlib.suppress(Exception):
            await websocket.close(code=1000)
    except WebSocketDisconnect:
        pass
    finally:
        svc.metrics.websockets.labels(kind=kind).dec()
