"""``BotService`` / ``RankedService`` messages (proto/fengsheng/v1/bot_service.proto) built
from the ranked service layer's values: what the servicers (:mod:`services.ranked.grpc`)
and a bot's connection (:mod:`services.ranked.connection`) send."""

from __future__ import annotations

import math
from typing import Any

from fengsheng.v1 import bot_service_pb2 as bs
from services.errors import ServiceError
from services.grpc_guard import status_of


def ticket_pb(t: dict[str, Any]) -> bs.Ticket:
    return bs.Ticket(
        ticket_id=t["ticket_id"], holder=t["holder"], name=t["name"], bot=t["bot"], state=t["state"],
        min_players=t["min_players"], max_players=t["max_players"], rating=t["rating"],
        enqueued_ms=t["enqueued_ms"], match_id=t["match_id"], seat=t["seat"], seats=t["seats"],
        turn_timeout_ms=round(t["turn_timeout_s"] * 1000), ruleset=t.get("ruleset", ""),
        expires_ms=t.get("expires_ms", 0),
        challenger=t.get("challenger", ""),
    )  # fmt: skip


def tokens_pb(account: dict[str, Any]) -> bs.BotTokens:
    return bs.BotTokens(bot_id=account["bot_id"], name=account.get("name", ""),
                        created_ms=account.get("created_ms", 0),
                        tokens=[bs.BotTokenInfo(token_id=t["token_id"], created_ms=t["created_ms"])
                                for t in account.get("tokens", [])])  # fmt: skip


def bot_error(exc: ServiceError, **where: Any) -> bs.ServerMessage:
    """An error about one message of a bot's stream (the stream stays open): its status code
    is the one :data:`services.grpc_guard.STATUS_CODES` gives a call that fails with ``exc``."""
    return bs.ServerMessage(error=bs.BotError(code=status_of(exc).name, kind=exc.kind, message=exc.message,
                                              legal_actions=exc.legal or [],
                                              retry_after_ms=retry_after_ms(exc), **where))  # fmt: skip


def retry_after_ms(exc: ServiceError) -> int:
    """How long (ms) to wait before the refused request can succeed: 0 when it says nothing,
    else at least 1 (a wait in seconds is rounded up, never down to "at once")."""
    retry = float(getattr(exc, "retry_after_s", 0.0))
    return max(1, math.ceil(retry * 1000)) if retry > 0 else 0
