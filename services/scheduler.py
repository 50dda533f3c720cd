"""The port through which the service layer asks for bot moves and turn timers.

:class:`CeleryScheduler` sends Celery tasks by name (``bots.move``, ``timers.expire``),
so the engine service never imports the task code; :class:`NullScheduler` schedules
nothing (clients act for every seat, e.g. the load benchmark's first mode);
:class:`RecordingScheduler` remembers what it was asked, for tests.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from celery import Celery


class Scheduler(Protocol):
    async def bot_move(self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float) -> None:
        """Queue ``bots.move`` for the open decision of a bot seat."""

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        """Queue ``timers.expire`` to fire after ``countdown_s`` seconds."""


class NullScheduler:
    async def bot_move(self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float) -> None:
        return None

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        return None


@dataclass
class RecordingScheduler:
    calls: list[tuple[str, str, int, int | float]] = field(default_factory=list)

    async def bot_move(self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float) -> None:
        self.calls.append(("bot", match_id, decision, seat))

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        self.calls.append(("timer", match_id, decision, countdown_s))


class CeleryScheduler:
    """Sends tasks with ``send_task`` (a blocking kombu publish) on a worker thread."""

    def __init__(self, app: Celery) -> None:
        self.app = app

    async def bot_move(self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float) -> None:
        await asyncio.to_thread(
            self.app.send_task,
            "bots.move",
            args=(match_id, seat, decision),
            kwargs={"policy": policy, "delay_s": delay_s},
        )

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        await asyncio.to_thread(self.app.send_task, "timers.expire", args=(match_id, decision), countdown=countdown_s)

    async def game_over(self, match_id: str) -> None:
        """Queue ``ladder.update`` (a no-op for unranked matches; once per match)."""
        await asyncio.to_thread(self.app.send_task, "ladder.update", args=(match_id,))
