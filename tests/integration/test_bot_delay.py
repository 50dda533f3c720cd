"""Bots that cannot be stalled (issue 11, finding 3).

A bot's thinking time is the countdown of its ``bots.move`` task, held by the worker without
a thread, so matches with slow bots do not take the worker threads an unrelated all-bot match
needs; ``bot_delay_ms`` is capped in the service layer; and resending an applied action (a
duplicate) queues no task.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import redis
from helpers.processes import ServiceProcess, start_engine_server, start_worker

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.engine.matches import MatchService
from services.engine.scheduler import CeleryScheduler, RecordingScheduler
from services.engine.store import MatchStore, history_key
from services.errors import StaleDecision
from services.limits import MAX_BOT_DELAY_S
from services.redis_server import RedisServer
from services.workers.celery_app import make_app

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

#: the worker's broker visibility timeout here: longer than any countdown, so the held
#: delayed tasks are not handed out a second time while they wait
WORKER_ENV = {"FENGSHENG_VISIBILITY_TIMEOUT_MS": "60000", "FENGSHENG_RESTORE_INTERVAL_MS": "5000"}


@pytest.fixture()
def own_redis() -> Iterator[RedisServer]:
    """A Redis of this test only: its broker queue and its matches are the test's alone."""
    with RedisServer() as server:
        yield server


def _decisions(rdb: redis.Redis, match_id: str) -> int:
    return int(rdb.llen(history_key(match_id)))


def _over(stub: es_grpc.EngineServiceStub, match_id: str) -> bool:
    legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1), timeout=10)
    return legal.seat_to_act == -1


def test_slow_bots_do_not_stall_an_unrelated_bot_match(own_redis: RedisServer, tmp_path: Path) -> None:
    """Four matches whose bots think MAX_BOT_DELAY_S each, on a worker with 2 threads: an
    all-bot match without delay still plays at full speed, and the slow matches' tasks wait
    as scheduled (ETA) tasks, not in a thread (before: each slow task slept 5 s in one of the
    two threads, and the unrelated match made a decision every few seconds)."""
    engine = start_engine_server(own_redis.url, tmp_path)
    worker: ServiceProcess | None = None
    rdb = redis.Redis.from_url(own_redis.url)
    control = make_app(own_redis.url)
    try:
        worker = start_worker(own_redis.url, engine.address, tmp_path, concurrency=2, env=WORKER_ENV)
        with engine_channel(engine.address) as channel:
            stub = es_grpc.EngineServiceStub(channel)
            slow = [
                stub.CreateMatch(
                    es.CreateMatchRequest(
                        settings=es.MatchSettings(
                            players=3, seed=500 + i, seats=[es.BOT_RANDOM] * 3,
                            bot_delay_ms=round(MAX_BOT_DELAY_S * 1000),
                        )
                    )
                ).match_id
                for i in range(4)
            ]
            time.sleep(1.5)  # the slow matches' first tasks are on the worker now
            fast = stub.CreateMatch(
                es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=77, seats=[es.BOT_RANDOM] * 5))
            ).match_id
            window_s = 6.0
            time.sleep(window_s)
            played = _decisions(rdb, fast)
            assert played >= 25 or _over(stub, fast), (
                f"the unrelated bot match made only {played} decisions in {window_s} s next to slow bots"
            )

            # the slow matches' moves are scheduled (held with an ETA), none runs in a thread
            inspect = control.control.inspect(timeout=5.0)
            scheduled = inspect.scheduled() or {}
            waiting = {
                entry["request"]["args"][0]
                for entries in scheduled.values()
                for entry in entries
                if entry["request"]["name"] == "bots.move"
            }
            assert len(waiting & set(slow)) >= 3, f"slow bots' tasks are not scheduled: {scheduled}"
            slow_running = 0
            for _ in range(5):
                active = inspect.active() or {}
                slow_running += sum(
                    1
                    for entries in active.values()
                    for task in entries
                    if task["name"] == "bots.move" and task["args"][0] in slow  # (matchmaking ticks: no args)
                )
                time.sleep(0.2)
            # (before: both threads slept in slow bots' tasks nearly all the time: up to 10)
            assert slow_running < 5, f"slow bots hold worker threads: {slow_running} sightings in 5 samples"
            # the slow matches do move, one decision per countdown
            assert all(_decisions(rdb, m) >= 1 for m in slow)
        assert worker.alive()
    finally:
        if worker is not None:
            worker.stop()
        engine.stop()
        rdb.close()
        control.close()


def test_bot_delay_over_the_cap_is_refused(stub: es_grpc.EngineServiceStub) -> None:
    """A direct gRPC caller cannot ask for bots slower than MAX_BOT_DELAY_S (or a negative delay)."""
    for delay in (round(MAX_BOT_DELAY_S * 1000) + 1, 30000, 2**62, -1):
        settings = es.MatchSettings(players=3, seats=[es.BOT_RANDOM] * 3, bot_delay_ms=delay)
        with pytest.raises(grpc.RpcError) as info:
            stub.CreateMatch(es.CreateMatchRequest(settings=settings))
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, delay
        assert "bot_delay_ms" in info.value.details()
    ok = es.MatchSettings(players=3, seats=[es.HUMAN] * 3, bot_delay_ms=round(MAX_BOT_DELAY_S * 1000))
    assert stub.CreateMatch(es.CreateMatchRequest(settings=ok)).match_id


def test_a_stored_delay_over_the_cap_is_clamped(own_redis: RedisServer) -> None:
    """A match stored with a longer delay (before the cap) still queues its bot moves with a
    countdown of at most MAX_BOT_DELAY_S."""

    async def main() -> None:
        recorder = RecordingScheduler()
        svc = MatchService(MatchStore.from_url(own_redis.url), recorder)
        try:
            match_id, _ = await svc.create_match(es.MatchSettings(players=3, seed=9, seats=[es.BOT_RANDOM] * 3))
            cached = svc._cache[match_id]
            cached.settings.bot_delay_ms = 30000  # as an old engine would have stored it
            await svc._schedule(cached)
            assert recorder.bot_countdowns == [0.0, MAX_BOT_DELAY_S]
        finally:
            await svc.close()
            await svc.store.close()

    asyncio.run(main())


async def _human_after_one_action(svc: MatchService) -> tuple[str, int, int, str]:
    """A human match with a turn timer (every open decision needs a task), one action in:
    (match id, seat, decision, action) of that applied action."""
    match_id, pending = await svc.create_match(es.MatchSettings(players=5, seed=4242, turn_timeout_ms=60000))
    legal = await svc.legal_actions(match_id, pending.seat)
    action = legal.actions[0]
    await svc.act(match_id, pending.seat, pending.number, action)
    return match_id, pending.seat, pending.number, action


def test_duplicates_queue_no_task(own_redis: RedisServer) -> None:
    """Sixty resends of an applied action: sixty ``duplicate`` rejections and not one more
    task, counted both at the scheduler and in the broker's queue (before: one task each)."""
    duplicates = 60

    async def main() -> None:
        recorder = RecordingScheduler()
        svc = MatchService(MatchStore.from_url(own_redis.url), recorder)
        try:
            match_id, seat, decision, action = await _human_after_one_action(svc)
            calls = len(recorder.calls)
            for _ in range(duplicates):
                with pytest.raises(StaleDecision) as info:
                    await svc.act(match_id, seat, decision, action)
                assert info.value.kind == "duplicate"
            assert len(recorder.calls) == calls
        finally:
            await svc.close()
            await svc.store.close()

        # the same through the real broker: the Celery queue grows by nothing
        app = make_app(own_redis.url)
        broker = redis.Redis.from_url(own_redis.url)
        queue = app.conf.task_default_queue
        celery_svc = MatchService(MatchStore.from_url(own_redis.url), CeleryScheduler(app))
        try:
            match_id, seat, decision, action = await _human_after_one_action(celery_svc)
            queued = broker.llen(queue)
            assert queued >= 2  # the timers of the first two decisions: the count is real
            for _ in range(duplicates):
                with pytest.raises(StaleDecision):
                    await celery_svc.act(match_id, seat, decision, action)
            assert broker.llen(queue) == queued
        finally:
            await celery_svc.close()
            await celery_svc.store.close()
            broker.close()
            app.close()

    asyncio.run(main())
