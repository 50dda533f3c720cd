"""Task leases: a task lost after it was sent (a worker killed between popping the broker
message and recording it as unacked) is sent again once its lease expires, by whichever
replica claims the lease; the write that answers the decision drops the lease.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from fengsheng.v1 import engine_service_pb2 as es
from services.engine.matches import MatchService
from services.engine.scheduler import RecordingScheduler
from services.engine.store import MatchStore, leases_key, outbox_member

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


def _db(redis_url: str, db: int) -> str:
    base = redis_url.rsplit("/", 1)[0] if redis_url.count("/") > 2 else redis_url
    return f"{base}/{db}"


@asynccontextmanager
async def _two_replicas(url: str) -> AsyncIterator[tuple[MatchService, MatchService]]:
    """Two engine replicas on database ``url`` with 0.3 s task leases and recording
    schedulers, the database emptied before and after (test_json_shapes.py's platform also
    used database 11 and may have left leases)."""
    a = MatchService(MatchStore.from_url(url), RecordingScheduler(), task_lease_s=0.3)
    b = MatchService(MatchStore.from_url(url), RecordingScheduler(), task_lease_s=0.3)
    try:
        await a.store.redis.flushdb()
        yield a, b
    finally:
        await a.store.redis.flushdb()
        for s in (a, b):
            await s.close()
            await s.store.close()


def test_an_expired_lease_resends_the_task_once_and_answering_drops_it(redis_url: str) -> None:
    url = _db(redis_url, 11)  # no other engine sweeps this database's leases

    async def main() -> None:
        async with _two_replicas(url) as (a, b):
            sched_a, sched_b = a.scheduler, b.scheduler
            assert isinstance(sched_a, RecordingScheduler) and isinstance(sched_b, RecordingScheduler)
            match_id, pending = await a.create_match(es.MatchSettings(seed=777, seats=[es.BOT_RANDOM] * 5))
            member = outbox_member(match_id, pending.number)
            assert ("bot", match_id, pending.number, pending.seat) in sched_a.calls
            first = await a.store.redis.zscore(leases_key(match_id), member)
            assert first is not None
            # nothing happens while the lease runs
            assert await a.sweep_leases() == 0 and await b.sweep_leases() == 0
            await asyncio.sleep(0.4)
            # expired: exactly one replica claims it and sends the task again, with a new lease
            swept_at_ms = time.time() * 1000
            sent = await asyncio.gather(a.sweep_leases(), b.sweep_leases())
            assert sorted(sent) == [0, 1]
            resent = [c for c in sched_a.calls + sched_b.calls if c[2] == pending.number]
            assert len(resent) == 2  # the first send + one re-send
            renewed = await a.store.redis.zscore(leases_key(match_id), member)
            # a new lease of task_lease_s from the sweep (not compared with the clock after
            # it: a slow machine may stall the loop past the 0.3 s lease before this line)
            assert renewed is not None and renewed > first and renewed >= swept_at_ms + 300 - 5
            # answering the decision drops its lease in the same write
            legal = await a.legal_actions(match_id, pending.seat)
            await b.act(match_id, pending.seat, pending.number, legal.actions[0])
            assert await a.store.redis.zscore(leases_key(match_id), member) is None

    asyncio.run(main())


def test_a_lease_renewed_by_another_replica_after_a_sweep_read_it_is_not_claimed_again(redis_url: str) -> None:
    """Two sweeps read the same expired lease; the first claims it and renews it (it sent the
    task again) before the second claims: the second must not take the renewed lease (a plain
    ``ZREM`` did, and both replicas sent the task), and a lease not yet due is never claimed."""
    url = _db(redis_url, 11)

    async def main() -> None:
        async with _two_replicas(url) as (a, b):
            match_id, pending = await a.create_match(es.MatchSettings(seed=778, seats=[es.BOT_RANDOM] * 5))
            member = outbox_member(match_id, pending.number)
            due = await a.store.lease_of(member)
            assert due is not None
            assert not await b.store.claim_lease(member, int(due) - 1)  # still running: kept
            now_ms = int(due) + 1
            assert member in await a.store.expired_leases(now_ms)
            assert member in await b.store.expired_leases(now_ms)
            assert await a.store.claim_lease(member, now_ms)
            await a.store.task_sent(member, outbox=False, lease_until_ms=now_ms + 60_000)
            assert not await b.store.claim_lease(member, now_ms)
            assert await a.store.lease_of(member) == now_ms + 60_000
            assert await b.store.claim_lease(member, now_ms + 60_000)  # once the renewed lease runs out

    asyncio.run(main())
