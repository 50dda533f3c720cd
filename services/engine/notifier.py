"""Match notifications for watchers: one Redis pattern subscription per process
(``fs:m:{*}:n``, published by every write script of :mod:`services.engine.store`) that wakes the
watchers of a match when its version changes. Watchers also poll, so a lost notification
costs latency, never data."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

from services.engine.store import NOTIFY_PATTERN, MatchStore, match_id_of_channel

log = logging.getLogger(__name__)


class Notifier:
    """One pattern subscription per process; wakes the watchers of a match when its
    version changes. Watchers also poll, so a lost notification costs latency, not data."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._task: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def listen(self, match_id: str) -> Iterator[asyncio.Event]:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        ev = asyncio.Event()
        self._waiters.setdefault(match_id, set()).add(ev)
        try:
            yield ev
        finally:
            waiters = self._waiters.get(match_id)
            if waiters is not None:
                waiters.discard(ev)
                if not waiters:
                    del self._waiters[match_id]

    async def _run(self) -> None:
        while True:
            pubsub = self.store.pubsub()
            try:
                await pubsub.psubscribe(NOTIFY_PATTERN)
                while True:
                    msg = await pubsub.get_message(timeout=5.0)
                    if msg is None:
                        continue
                    channel = msg["channel"]
                    mid = match_id_of_channel(channel.decode() if isinstance(channel, bytes) else channel)
                    for ev in self._waiters.get(mid, ()):
                        ev.set()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis went away: wake everyone (they re-read) and retry
                log.warning("notification subscription lost; retrying", exc_info=True)
                for waiters in self._waiters.values():
                    for ev in waiters:
                        ev.set()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
