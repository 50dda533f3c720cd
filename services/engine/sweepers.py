"""The sweepers every engine server runs: they send again the Celery tasks that a write queued
but that never reached a worker, so no decision of a bot seat or of a timed seat waits forever.

* **Outbox** (:func:`sweep_outbox`): a write adds its new decision's member to the slot's
  outbox atomically with the state; the writer removes it once the task is sent. An entry
  older than a grace period means the writer died in between: send the task (if the decision
  is still open) and clear the entry.
* **Leases** (:func:`sweep_leases`): a sent task (or a chained bot turn handed to a worker,
  ``ActRequest.play_next_bot``) is leased until it should have answered. A lease that runs
  out with its decision still open means the task was lost after it was sent: one replica
  claims it (removes it while it is still expired) and sends it again.

Tasks are idempotent by decision number, so a second send is harmless (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from fengsheng.redis_errors import STORE_UNAVAILABLE

if TYPE_CHECKING:
    from services.engine.matches import MatchService

log = logging.getLogger(__name__)


async def sweep_outbox(service: MatchService, grace_s: float = 3.0) -> int:
    """Send again the tasks of decisions whose writer died before sending them (outbox
    entries older than ``grace_s``); returns how many were re-sent."""
    sent = 0
    members = await service.store.overdue(int((time.time() - grace_s) * 1000))
    for member in members:
        sent += await service._resend(member)
        await service.store.outbox_done(member)
    if sent:
        log.warning("outbox sweep re-sent %d task(s)", sent)
    return sent


async def sweep_leases(service: MatchService) -> int:
    """Send again the tasks whose lease expired with their decision still open (the task
    was lost after it was sent); returns how many were re-sent."""
    sent = 0
    now_ms = int(time.time() * 1000)
    for member in await service.store.expired_leases(now_ms):
        if not await service.store.claim_lease(member, now_ms):
            continue  # another replica took it (and may have renewed it since we read it)
        sent += await service._resend(member)
    if sent:
        log.warning("lease sweep re-sent %d lost task(s)", sent)
    return sent


async def run(service: MatchService, every_s: float = 1.0, grace_s: float = 3.0) -> None:
    """Sweep the outbox and the task leases forever."""
    while True:
        try:
            await sweep_outbox(service, grace_s)
            await sweep_leases(service)
        except asyncio.CancelledError:
            raise
        except STORE_UNAVAILABLE as exc:  # Redis restarting: expected, the next sweep retries
            log.warning("outbox sweep skipped, the store is unavailable: %s", exc)
        except Exception:
            log.warning("outbox sweep failed", exc_info=True)
        await asyncio.sleep(every_s)
