"""Per-step views of a finished match, for the web client's replay viewer.

The gateway never imports :mod:`engine`, so it asks the engine service to do the work:
it creates a scratch match with the replay's settings (seed included; every seat
``HUMAN`` and no turn timer, so no bot or timer task is ever queued for it), applies the
recorded actions one by one with ``Act``, and after each one reads ``GetObservation`` for
the spectator and for every seat. The events of each view come from ``Watch`` on the
original match; each event carries the decision open after it, which places it at its step.

The result is cached in the gateway's memory (a few matches): a replay never changes. The
scratch match stays in Redis under ``{match_id}.rp.{nonce}`` like any finished match.
(A ``GetReplaySteps`` RPC in the engine service would avoid the scratch match: see the
web-client notes in docs/web-client.md.)
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import OrderedDict
from typing import Any

from fengsheng.v1 import engine_service_pb2 as pb
from gateway.convert import to_dict
from gateway.engine_client import EngineClient

#: how many computed replays the gateway keeps in memory
CACHE_SIZE = 8
#: how long to wait for one view's event stream of a finished match
WATCH_TIMEOUT_S = 20.0


class ReplaySteps:
    """Computes and caches the per-step views of finished matches."""

    def __init__(self, engine: EngineClient) -> None:
        self._engine = engine
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}

    async def get(self, match_id: str) -> dict[str, Any]:
        if match_id in self._cache:
            self._cache.move_to_end(match_id)
            return self._cache[match_id]
        lock = self._locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            if match_id not in self._cache:
                self._cache[match_id] = await self._compute(match_id)
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        self._locks.pop(match_id, None)
        return self._cache[match_id]

    async def _compute(self, match_id: str) -> dict[str, Any]:
        replay = await self._engine.replay(match_id)
        settings = pb.MatchSettings()
        settings.CopyFrom(replay.settings)
        players = settings.players
        del settings.seats[:]
        settings.seats.extend([pb.HUMAN] * players)
        settings.turn_timeout_s = 0
        settings.bot_delay_s = 0
        scratch = f"{match_id}.rp.{secrets.token_hex(4)}"[:64]
        created = await self._engine.create_match(settings, scratch)
        viewers = list(range(-1, players))

        async def views() -> dict[str, dict[str, Any]]:
            observations = await asyncio.gather(*(self._engine.observation(scratch, v) for v in viewers))
            return {str(v): _strip(to_dict(o)) for v, o in zip(viewers, observations, strict=True)}

        steps: list[dict[str, Any]] = [
            {"step": 0, "seat": -1, "action": "", "decision": 0, "pending": created.pending.number}
        ]
        frames = [await views()]
        for i, entry in enumerate(replay.actions, start=1):
            result = await self._engine.act(scratch, entry.seat, entry.decision, entry.action)
            steps.append(
                {
                    "step": i,
                    "seat": entry.seat,
                    "action": entry.action,
                    "decision": entry.decision,
                    "pending": result.pending.number,
                }
            )
            frames.append(await views())

        pending_numbers = [s["pending"] for s in steps]
        events = dict(
            zip(
                (str(v) for v in viewers),
                await asyncio.gather(*(self._events(match_id, v, pending_numbers) for v in viewers)),
                strict=True,
            )
        )
        by_index: dict[int, dict[str, Any]] = {}
        for seat_events in events.values():
            for e in seat_events:
                by_index.setdefault(e["index"], e)
        events["all"] = [by_index[k] for k in sorted(by_index)]
        for frame in frames:
            frame["all"] = _reveal(frame, players)
        return {
            "match_id": match_id,
            "players": players,
            "settings": to_dict(replay.settings),
            "outcome": to_dict(replay.outcome),
            "steps": steps,
            "frames": frames,
            "events": events,
        }

    async def _events(self, match_id: str, seat: int, pending_numbers: list[int]) -> list[dict[str, Any]]:
        """The events ``seat`` saw, each with the step after which it had happened."""
        out: list[dict[str, Any]] = []

        async def read() -> None:
            async for item in self._engine.watch(match_id, seat):
                if item.HasField("event") and item.event.kind:
                    event = to_dict(item.event)
                    event["step"] = _step_of(item.pending.number, pending_numbers)
                    out.append(event)
                if item.outcome.over:
                    return

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(read(), WATCH_TIMEOUT_S)
        return out


def _step_of(pending: int, pending_numbers: list[int]) -> int:
    """The first step whose open decision is at or after ``pending`` (0 if none)."""
    for i, number in enumerate(pending_numbers):
        if number >= pending:
            return i
    return len(pending_numbers) - 1


def _strip(observation: dict[str, Any]) -> dict[str, Any]:
    observation.pop("events", None)
    return observation


def _reveal(frame: dict[str, dict[str, Any]], players: int) -> dict[str, Any]:
    """Everything at once: the spectator's view with each seat as that seat sees itself,
    and every card some seat sees in the transit and the chain."""
    out: dict[str, Any] = {**frame["-1"], "viewer": -2}
    out["seats"] = [frame[str(s)]["seats"][s] for s in range(players)]
    transit = dict(out.get("transit", {}))
    chain = [dict(c) for c in out.get("chain", [])]
    for s in range(players):
        view = frame[str(s)]
        card = view.get("transit", {}).get("card", 0)
        if card and not transit.get("card"):
            transit["card"] = card
        for i, item in enumerate(view.get("chain", [])):
            if i < len(chain):
                if item.get("card") and not chain[i].get("card"):
                    chain[i]["card"] = item["card"]
                if item.get("code") and not chain[i].get("code"):
                    chain[i]["code"] = item["code"]
    out["transit"] = transit
    out["chain"] = chain
    out["legal_actions"] = []
    return out
