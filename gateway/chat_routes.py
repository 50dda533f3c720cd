"""The chat routes: ``POST`` and ``GET /api/matches/{id}/chat`` (gateway/chat.py has the rules).

Thin: check the token, ask the engine whether the match is alive and over, call the chat
service, translate its refusal into the gateway's error shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Query, Request
from pydantic import BaseModel, Field

from gateway import errors
from gateway.auth import TokenError
from gateway.chat import Channel, ChatError
from gateway.ratelimit import retry_ms

if TYPE_CHECKING:
    from gateway.app import Services
    from gateway.ranked_routes import SeatHolders


class LineIn(BaseModel):
    """One message: free ``text`` or a quick ``phrase`` id (the lobby's chat takes this)."""

    text: str = Field("", max_length=2000)
    phrase: str = Field("", max_length=40)


class ChatIn(LineIn):
    """One message of a match's ``channel``."""

    channel: Channel = "table"


def refusal(exc: ChatError) -> errors.ApiError:
    """A message the chat would not keep, in the gateway's error shape (429: with when to retry)."""
    if exc.status == 429:
        return errors.ApiError(429, exc.code, str(exc), retry_after_ms=retry_ms(exc.retry_after_s))
    return errors.ApiError(exc.status, exc.code, str(exc))


def _bearer(request: Request, token: str | None) -> str:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return str(auth[7:].strip())
    return token or ""


def install_chat(app: FastAPI, ranked_seats: SeatHolders) -> None:
    """Add the chat routes to ``app`` (whose ``state.services`` has ``engine``, ``store``,
    ``signer`` and ``chat``); ``ranked_seats`` names who sits at a ranked or casual match."""

    async def seated(svc: Services, match_id: str, pid: str) -> bool:
        """Whether ``pid`` holds a seat of ``match_id``: in the gateway's seat table (matches
        made at ``POST /api/matches``) or in the ranked service's record (ranked and casual
        matches, which never enter that table)."""
        claims = await svc.store.claims(match_id)
        if any(c.get("pid") == pid for c in claims.values()):
            return True
        return pid in await ranked_seats(match_id)

    async def over_of(svc: Services, match_id: str) -> bool:
        from gateway.app import _alive  # the one "is it still there" check (404 when gone)

        return bool((await _alive(svc, match_id)).outcome.over)

    @app.post("/api/matches/{match_id}/chat", tags=["chat"], status_code=201)
    async def post_chat(
        match_id: str, body: ChatIn, request: Request, token: str | None = Query(None)
    ) -> dict[str, Any]:
        """Say something: at the table with your seat token, among the spectators with your
        player token. Length and rate limited (docs/web-client.md, *Chat*)."""
        svc: Services = request.app.state.services
        raw = _bearer(request, token)
        if not raw:
            raise errors.unauthenticated("missing token: send `Authorization: Bearer <token>` or `?token=`")
        over = await over_of(svc, match_id)
        try:
            if body.channel == "table":
                grant = svc.signer.seat(raw)
                if grant.match_id != match_id:
                    raise errors.forbidden("this seat token is for another match")
                seat, pid, name = grant.seat, grant.pid, grant.name
            else:
                player = svc.signer.player(raw)
                if not over and await seated(svc, match_id, player.pid):
                    raise errors.forbidden("you hold a seat of this match: talk at the table until it is over")
                seat, pid, name = -1, player.pid, player.name
        except TokenError as exc:
            raise errors.unauthenticated(str(exc)) from exc
        try:
            message = await svc.chat.post(
                match_id, body.channel, seat=seat, pid=pid, name=name, text=body.text, phrase=body.phrase, over=over
            )
        except ChatError as exc:
            raise refusal(exc) from exc
        return message.to_dict()

    @app.get("/api/matches/{match_id}/chat", tags=["chat"])
    async def get_chat(
        match_id: str,
        request: Request,
        channel: Channel = "table",
        after: int = Query(0, ge=0),
        token: str | None = Query(None),
    ) -> dict[str, Any]:
        """The channel's messages after id ``after``. The table's chat needs a seat token of
        the match while it runs; afterwards, and for the spectators' chat, none."""
        svc: Services = request.app.state.services
        over = await over_of(svc, match_id)
        if channel == "table" and not over:
            try:
                grant = svc.signer.seat(_bearer(request, token))
            except TokenError as exc:
                message = f"the table's chat is for its players until the match ends ({exc})"
                raise errors.unauthenticated(message) from exc
            if grant.match_id != match_id:
                raise errors.forbidden("this seat token is for another match")
        messages: list[dict[str, Any]] = await svc.chat.read(match_id, channel, after)
        return {"match_id": match_id, "channel": channel, "over": over, "messages": messages}
