"""The port through which the service layer asks for bot moves and turn timers.

:class:`CeleryScheduler` sends Celery tasks by name (``bots.move``, ``timers.expire``),
so the engine service never imports the task code; :class:`NullScheduler` schedules
nothing (clients act for every seat, e.g. the load benchmark's first mode);
:class:`RecordingScheduler` remembers what it was asked, for tests.

A bot's thinking time (``delay_s``) is the task's Celery ``countdown``: the broker message
carries its ETA and the worker holds it without a thread until then, so a slow bot never
holds a worker thread that other matches' bots need (docs/operations.md, "Bot delays").
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from services.limits import MAX_BOT_DELAY_S

if TYPE_CHECKING:
    from celery import Celery


class Scheduler(Protocol):
    async def bot_move(
        self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float, origin: str = "bot",
        clock_ms: int = 0,
    ) -> None:
        """Queue ``bots.move`` for the open decision of a bot seat (or an away seat, with
        ``origin="away"``), to run ``delay_s`` from now; ``clock_ms``: the match's per-decision
        clock (0: untimed), which the house bots' pace follows (services/bot_timing.py)."""

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        """Queue ``timers.expire`` to fire after ``countdown_s`` seconds."""


class NullScheduler:
    async def bot_move(
        self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float, origin: str = "bot",
        clock_ms: int = 0,
    ) -> None:
        return None

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        return None


@dataclass
class RecordingScheduler:
    calls: list[tuple[str, str, int, int | float]] = field(default_factory=list)
    #: the countdown of each ``bot_move``, in call order
    bot_countdowns: list[float] = field(default_factory=list)

    async def bot_move(
        self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float, origin: str = "bot",
        clock_ms: int = 0,
    ) -> None:
        self.calls.append(("bot" if origin == "bot" else origin, match_id, decision, seat))
        self.bot_countdowns.append(bot_countdown(delay_s))

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        self.calls.append(("timer", match_id, decision, countdown_s))


def bot_countdown(delay_s: float) -> float:
    """The countdown of a bot's move: its match's ``bot_delay_ms`` in seconds, within 0..MAX_BOT_DELAY_S
    (a stored value written by hand cannot hold a task longer)."""
    if not math.isfinite(delay_s) or delay_s <= 0:
        return 0.0
    return min(delay_s, MAX_BOT_DELAY_S)


class CeleryScheduler:
    """Sends tasks with ``send_task`` (a blocking kombu publish) on a worker thread."""

    def __init__(self, app: Celery) -> None:
        self.app = app

    async def bot_move(
        self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float, origin: str = "bot",
        clock_ms: int = 0,
    ) -> None:
        countdown = bot_countdown(delay_s)
        await asyncio.to_thread(
            self.app.send_task,
            "bots.move",
            args=(match_id, seat, decision),
            kwargs={"policy": policy, "clock_ms": clock_ms} if origin == "bot"
            else {"policy": policy, "origin": origin, "clock_ms": clock_ms},
            countdown=countdown or None,
        )

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        await asyncio.to_thread(self.app.send_task, "timers.expire", args=(match_id, decision), countdown=countdown_s)

    async def game_over(self, match_id: str) -> None:
        """Queue ``ladder.update`` (a no-op for unranked matches; once per match)."""
        await asyncio.to_thread(self.app.send_task, "ladder.update", args=(match_id,))
