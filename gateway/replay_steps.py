"""The replay viewer's steps: pages of ``GetReplaySteps``, rate-limited per client.

The engine service computes the steps from the stored history (services/engine/replay.py); this
module decides what the caller may ask for, draws from the caller's replay bucket and turns
the answer into the JSON the web client reads.

- ``view``: ``all`` (everything revealed: only once the match is over, else 409), ``-1``
  (the spectator) or a seat number. A seat's view of a running match needs that seat's
  token; without it the engine is asked with ``finished_only`` and answers 409 until the
  match is over.
- Every request draws one unit from a token bucket keyed by the client's address
  (``FENGSHENG_REPLAY_RATE`` units per second, at most ``FENGSHENG_REPLAY_BURST``; in Redis
  when the gateway has one, so every replica shares it). An empty bucket answers 429 with
  ``Retry-After``.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping
from typing import Any

import grpc

from fengsheng.ratelimit import Bucket, RedisTokenBucket, TokenBucket
from fengsheng.v1 import engine_service_pb2 as pb
from gateway import errors
from gateway.auth import TokenError, TokenSigner
from gateway.convert import settings_dict, to_dict
from gateway.engine_client import EngineClient
from gateway.ratelimit import limited_body

log = logging.getLogger("fengsheng.gateway.replay")

#: ``GetReplayStepsRequest.view`` for everything revealed
VIEW_ALL = -2
#: replay requests per second per client, and the burst (``FENGSHENG_REPLAY_RATE`` / ``_BURST``)
DEFAULT_RATE = 2.0
DEFAULT_BURST = 30
#: no match has more seats than this (a larger view never reaches the engine)
MAX_SEAT = 99


def parse_view(view: str) -> int:
    """``all`` -> -2, ``-1`` -> -1, ``3`` -> 3; anything else is a 422 (a seat number the
    match does not have is a 422 too, from the engine's ``bad_view``)."""
    if view == "all":
        return VIEW_ALL
    try:
        number = int(view)
    except ValueError:
        number = -3
    if not -1 <= number <= MAX_SEAT:
        raise errors.ApiError(422, "malformed_request", "`view` must be all, -1 (spectator) or a seat number")
    return number


def holds_seat(
    signer: TokenSigner, headers: Mapping[str, str], query_token: str | None, match_id: str, seat: int
) -> bool:
    """Whether the request carries (``Authorization: Bearer`` or ``?token=``) a valid seat
    token for ``seat`` of ``match_id``: only then may it see that seat's view of a running match."""
    auth = headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else (query_token or "")
    if not token:
        return False
    try:
        grant = signer.seat(token)
    except TokenError:
        return False
    return grant.match_id == match_id and grant.seat == seat


class ReplaySteps:
    """Pages of a match's steps for one client, through the engine's ``GetReplaySteps``."""

    def __init__(self, engine: EngineClient, bucket: Bucket | None) -> None:
        self._engine = engine
        #: the per-client bucket; None = not limited (``FENGSHENG_REPLAY_RATE=0``)
        self.bucket = bucket

    @classmethod
    def from_env(cls, engine: EngineClient, redis_url: str | None = None) -> ReplaySteps:
        """The bucket from ``FENGSHENG_REPLAY_RATE`` / ``FENGSHENG_REPLAY_BURST`` (in Redis
        when ``redis_url`` is given, shared by every gateway replica; rate 0 = no limit)."""
        try:
            rate = float(os.environ.get("FENGSHENG_REPLAY_RATE") or DEFAULT_RATE)
            burst = int(os.environ.get("FENGSHENG_REPLAY_BURST") or DEFAULT_BURST)
        except ValueError as exc:
            raise ValueError(f"FENGSHENG_REPLAY_RATE / FENGSHENG_REPLAY_BURST: {exc}") from exc
        if rate <= 0:
            return cls(engine, None)
        bucket: Bucket = (
            RedisTokenBucket(redis_url, rate, max(1, burst), prefix="gw:rp:")
            if redis_url
            else TokenBucket(rate, max(1, burst))
        )
        return cls(engine, bucket)

    async def close(self) -> None:
        close = getattr(self.bucket, "close", None)
        if close is not None:
            await close()

    async def take(self, client: str) -> None:
        """One unit of ``client``'s replay bucket, or a 429 with ``Retry-After``."""
        if self.bucket is None:
            return
        try:
            wait = await self.bucket.take("replay:" + client)
        except Exception as exc:  # fail open like the gateway's other limits: Redis is down
            log.warning("replay rate limit check failed, letting the request through: %s", exc)
            return
        if wait > 0:
            message = "too many replay requests from this client; retry later"
            raise errors.ApiError(
                429,
                "rate_limited",
                message,
                retry_after_ms=limited_body(wait)["error"]["retry_after_ms"],
                headers={"Retry-After": str(max(1, math.ceil(wait)))},
            )

    async def page(
        self,
        match_id: str,
        view: int,
        *,
        from_step: int = 0,
        limit: int = 0,
        last: bool = False,
        finished_only: bool = False,
    ) -> dict[str, Any]:
        """One page of steps as the web client reads it: ``steps`` (who did what),
        ``observations`` (the view after each step), ``events`` (each with its ``step``)."""
        try:
            reply = await self._engine.replay_steps(
                match_id, view, from_step=from_step, max_steps=limit, last=last, finished_only=finished_only
            )
        except grpc.aio.AioRpcError as exc:
            if errors.engine_error_fields(exc).get("kind") == "bad_view":  # a seat this match does not have
                raise errors.ApiError(422, "malformed_request", exc.details() or "bad view") from exc
            raise
        return to_page(reply)


def to_page(reply: pb.ReplaySteps) -> dict[str, Any]:
    """``ReplaySteps`` -> the JSON of ``GET /api/matches/ID/replay/steps``."""
    steps: list[dict[str, Any]] = []
    observations: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for s in reply.steps:
        step = {"step": s.step, "seat": s.seat, "action": s.action, "decision": s.decision, "pending": s.pending}
        if s.HasField("acted"):  # the action as this view saw it, as a value (an Event)
            step["acted"] = to_dict(s.acted)
        steps.append(step)
        observation = to_dict(s.observation)
        observation.pop("events", None)
        observations.append(observation)
        events.extend({**to_dict(e), "step": s.step} for e in s.events)
    over = reply.outcome.over
    return {
        "match_id": reply.match_id,
        "ruleset": reply.settings.ruleset,
        "players": reply.players,
        "settings": settings_dict(reply.settings),
        "outcome": to_dict(reply.outcome),
        "over": over,
        "view": "all" if reply.view == VIEW_ALL else str(reply.view),
        "total_steps": reply.total_steps,
        "from_step": reply.from_step,
        "next_step": reply.next_step if reply.next_step < reply.total_steps else None,
        "steps": steps,
        "observations": observations,
        "events": events,
    }
