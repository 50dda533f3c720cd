"""The lobby's routes: who is online and the lobby's chat (gateway/lobby.py has the rules).

Every route takes a player token (a guest account, ``POST /api/guests``): anonymous
clients neither appear, nor read the list, nor talk. Inviting someone from the list is the
profile page's challenge (``POST /api/casual`` with their id among the seats), not a route
of its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from enum import Enum
from typing import Any

from fastapi import FastAPI, Query, Request

from gateway import errors
from gateway.app import PlayerDep
from gateway.chat import ChatError
from gateway.chat_routes import LineIn, refusal
from gateway.lobby import LobbyLimited, LobbyService
from gateway.ratelimit import retry_ms

TAGS: list[str | Enum] = ["lobby"]


def _lobby(request: Request) -> LobbyService:
    service: LobbyService = request.app.state.lobby
    return service


def _limited(exc: LobbyLimited) -> errors.ApiError:
    return errors.ApiError(429, "rate_limited", str(exc), retry_after_ms=retry_ms(exc.wait_s))


def install_lobby(app: FastAPI, redis_url: str | None) -> None:
    """Add the lobby's routes to ``app``; its :class:`LobbyService` (in Redis at
    ``redis_url``, else in memory) opens and closes with the app's lifespan."""
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as state:
            app.state.lobby = LobbyService.open(redis_url)
            try:
                yield state
            finally:
                await app.state.lobby.close()

    app.router.lifespan_context = lifespan

    @app.post("/api/lobby/presence", tags=TAGS)
    async def lobby_ping(player: PlayerDep, request: Request) -> dict[str, Any]:
        """You are in the lobby (your player token): on the list for ``ttl_ms`` more; send
        this every ``ping_ms`` to stay on it. Answers the list as ``GET /api/lobby/online``."""
        try:
            return await _lobby(request).ping(player.pid, player.name)
        except LobbyLimited as exc:
            raise _limited(exc) from exc

    @app.delete("/api/lobby/presence", tags=TAGS)
    async def lobby_leave(player: PlayerDep, request: Request) -> dict[str, Any]:
        """You left the lobby: off the list at once."""
        try:
            await _lobby(request).leave(player.pid)
        except LobbyLimited as exc:
            raise _limited(exc) from exc
        return {"player_id": player.pid, "online": False}

    @app.get("/api/lobby/online", tags=TAGS)
    async def lobby_online(player: PlayerDep, request: Request) -> dict[str, Any]:
        """Who is in the lobby: ``players`` (``player_id`` and ``name``, the most recently
        heard first, at most ``cap``) and ``count``. Nothing about matches or seats."""
        try:
            return await _lobby(request).online(player.pid)
        except LobbyLimited as exc:
            raise _limited(exc) from exc

    @app.post("/api/lobby/chat", tags=TAGS, status_code=201)
    async def lobby_say(body: LineIn, player: PlayerDep, request: Request) -> dict[str, Any]:
        """Say something in the lobby (your player token): free ``text`` or a quick
        ``phrase``, under the table chat's limits (docs/web-client.md, *Lobby*)."""
        try:
            message = await _lobby(request).say(player.pid, player.name, body.text, body.phrase)
        except ChatError as exc:
            raise refusal(exc) from exc
        return message.to_dict()

    @app.get("/api/lobby/chat", tags=TAGS)
    async def lobby_read(player: PlayerDep, request: Request, after: int = Query(0, ge=0)) -> dict[str, Any]:
        """The lobby's chat lines after id ``after``, oldest first (the last ones kept only)."""
        return {"channel": "lobby", "messages": await _lobby(request).lines(after)}
