"""Deadlines kept by one process: one task per event loop sleeps until the soonest and runs
an action for each one due (services/ranked/casual.py expires challenges with it)."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)


class Deadlines:
    """The deadlines of this process's open challenges: one task per event loop sleeps until
    the soonest and runs ``action(svc, challenge id)`` for each one due (in deadline order),
    instead of one sleeping task per challenge. A challenge answered in time is still in the
    heap; its action finds nothing to do. Kept in memory: a restarted process forgets them
    (casual.py then expires a challenge when one of its tickets is read)."""

    def __init__(self, action: Callable[[Any, str], Awaitable[object]]) -> None:
        self._action = action
        self._heap: list[tuple[float, int, str, Any]] = []
        self._order = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def __len__(self) -> int:
        return len(self._heap)

    def add(self, due_s: float, svc: Any, challenge_id: str) -> None:
        """Run the action for ``challenge_id`` at ``due_s`` (Unix seconds)."""
        heapq.heappush(self._heap, (due_s, next(self._order), challenge_id, svc))
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._wake = asyncio.Event()
            self._task = loop.create_task(self._run())
        else:
            self._wake.set()  # perhaps sooner than what the task sleeps for

    async def _run(self) -> None:
        while self._heap:
            delay = self._heap[0][0] - time.time()
            if delay > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)
                continue
            _, _, challenge_id, svc = heapq.heappop(self._heap)
            try:
                await self._action(svc, challenge_id)
            except Exception:  # the action's own fallback covers it (a challenge: the next read expires it)
                log.warning("deadline of %s: its action failed", challenge_id, exc_info=True)
        self._task = None
