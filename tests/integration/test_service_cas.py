"""Compare-and-set between replicas: two service layers (two caches) on one Redis."""

from __future__ import annotations

import asyncio

import pytest

from fengsheng.v1 import engine_service_pb2 as es
from services.engine import metrics
from services.engine.matches import MatchService
from services.engine.store import MatchStore
from services.errors import StaleDecision

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


def test_race_for_one_decision_applies_exactly_one(redis_url: str) -> None:
    async def main() -> None:
        a = MatchService(MatchStore.from_url(redis_url))
        b = MatchService(MatchStore.from_url(redis_url))
        try:
            match_id, pending = await a.create_match(es.MatchSettings(players=5, seed=8080))
            legal = await a.legal_actions(match_id, pending.seat)
            await b.legal_actions(match_id, pending.seat)  # both replicas now cache version 1
            first, second = legal.actions[0], legal.actions[-1]
            assert first != second
            await b.act(match_id, pending.seat, pending.number, second)
            conflicts = metrics.CONFLICTS._value.get()
            # a's cache still shows the decision open: its write loses the compare-and-set,
            # it reloads, re-checks, and reports the decision as taken
            with pytest.raises(StaleDecision) as info:
                await a.act(match_id, pending.seat, pending.number, first)
            assert info.value.kind == "stale"
            assert metrics.CONFLICTS._value.get() == conflicts + 1
            replay = await a.replay(match_id)
            assert [x.action for x in replay.actions] == [second]
            # and a now serves the next decision from the fresh state
            nxt = await a.legal_actions(match_id, -1)
            assert nxt.decision == pending.number + 1
        finally:
            for s in (a, b):
                await s.close()
                await s.store.close()

    asyncio.run(main())


def test_concurrent_acts_in_one_process_are_serialised(redis_url: str) -> None:
    async def main() -> None:
        svc = MatchService(MatchStore.from_url(redis_url))
        try:
            match_id, pending = await svc.create_match(es.MatchSettings(players=5, seed=9090))
            legal = await svc.legal_actions(match_id, pending.seat)
            results = await asyncio.gather(
                *(svc.act(match_id, pending.seat, pending.number, a) for a in legal.actions[:5]),
                return_exceptions=True,
            )
            applied = [r for r in results if not isinstance(r, BaseException)]
            rejected = [r for r in results if isinstance(r, StaleDecision)]
            assert len(applied) == 1 and len(rejected) == len(results) - 1
            assert len((await svc.replay(match_id)).actions) == 1
        finally:
            await svc.close()
            await svc.store.close()

    asyncio.run(main())


class _BrokenBroker:
    """A scheduler whose broker is down (the process 'dies' before sending)."""

    async def bot_move(self, match_id: str, seat: int, decision: int, *, policy: str, delay_s: float,
                       origin: str = "bot", clock_ms: int = 0) -> None:  # fmt: skip
        raise ConnectionError("broker down")

    async def turn_timer(self, match_id: str, decision: int, *, countdown_s: float) -> None:
        raise ConnectionError("broker down")


def test_outbox_sweeper_resends_a_task_nobody_sent(redis_url: str) -> None:
    from services.engine.scheduler import RecordingScheduler
    from services.engine.store import outbox_key, outbox_member

    async def main() -> None:
        broken = MatchService(MatchStore.from_url(redis_url), _BrokenBroker())
        recording = RecordingScheduler()
        healthy = MatchService(MatchStore.from_url(redis_url), recording)
        try:
            seats = [es.BOT_RANDOM] * 5
            match_id, pending = await broken.create_match(es.MatchSettings(seed=4040, seats=seats))
            member = outbox_member(match_id, pending.number)
            assert await broken.store.redis.zscore(outbox_key(match_id), member) is not None
            assert await healthy.sweep_outbox(grace_s=0) >= 1
            assert ("bot", match_id, pending.number, pending.seat) in recording.calls
            assert await healthy.store.redis.zscore(outbox_key(match_id), member) is None
            # a decision that moved on is not re-sent
            await healthy.act(match_id, pending.seat, pending.number, "declare")
            await healthy.store.redis.zadd(outbox_key(match_id), {member: 0})
            recording.calls.clear()
            await healthy.sweep_outbox(grace_s=0)
            assert all(c[2] != pending.number for c in recording.calls)
        finally:
            for s in (broken, healthy):
                await s.close()
                await s.store.close()

    asyncio.run(main())
