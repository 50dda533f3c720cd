"""The service layer's compare-and-set, idempotency, outbox and lease logic, fast: on the
in-memory store (services/engine/fake_store.py) instead of Redis. The same properties against a real
Redis and real processes: tests/integration/test_service_cas.py, test_replicas_task_lease.py,
test_bot_chain.py."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from fengsheng.v1 import engine_service_pb2 as es
from services.engine.fake_store import FakeMatchStore
from services.engine.matches import MatchService
from services.engine.scheduler import RecordingScheduler
from services.engine.store import outbox_member
from services.errors import StaleDecision


def _service(store: FakeMatchStore, scheduler: Any = None, **kw: Any) -> MatchService:
    return MatchService(store, scheduler or RecordingScheduler(), **kw)  # type: ignore[arg-type]


def test_two_replicas_one_decision_one_write() -> None:
    """Replica B acts on a stale cache after replica A applied the decision: its write is
    refused by the version check, it reloads, and answers ``duplicate`` (same action) or
    ``stale`` (another one); the decision is in the history once."""

    async def main() -> None:
        store = FakeMatchStore()
        a, b = _service(store), _service(store)
        match_id, p = await a.create_match(es.MatchSettings(players=5, seed=11))
        await b.observation(match_id, p.seat)  # B caches version 1
        legal = await a.legal_actions(match_id, p.seat)
        first, other = legal.actions[0], legal.actions[-1]
        await a.act(match_id, p.seat, p.number, first)
        with pytest.raises(StaleDecision) as same:
            await b.act(match_id, p.seat, p.number, first)
        assert same.value.kind == "duplicate"
        assert store.conflicts == 1  # B's cached write was refused, not applied
        if other != first:
            with pytest.raises(StaleDecision) as different:
                await b.act(match_id, p.seat, p.number, other)
            assert different.value.kind == "stale"
        history = await store.history(match_id)
        assert [h.decision for h in history].count(p.number) == 1

    asyncio.run(main())


def test_a_resent_action_queues_nothing() -> None:
    async def main() -> None:
        store = FakeMatchStore()
        recorder = RecordingScheduler()
        svc = _service(store, recorder)
        match_id, p = await svc.create_match(es.MatchSettings(players=5, seed=12, seats=[es.BOT_RANDOM] * 5))
        legal = await svc.legal_actions(match_id, p.seat)
        await svc.act(match_id, p.seat, p.number, legal.actions[0], origin="bot")
        queued = len(recorder.calls)
        assert queued == 2  # the first move's task and the next one's
        for _ in range(20):
            with pytest.raises(StaleDecision):
                await svc.act(match_id, p.seat, p.number, legal.actions[0], origin="bot")
        assert len(recorder.calls) == queued
        assert store.writes == 1

    asyncio.run(main())


class _Down(RecordingScheduler):
    """A scheduler whose broker is down: every send fails."""

    async def bot_move(self, *args: Any, **kw: Any) -> None:
        raise ConnectionError("broker down")


def test_a_task_lost_before_it_was_sent_is_sent_by_the_outbox_sweep() -> None:
    async def main() -> None:
        store = FakeMatchStore()
        down = _service(store, _Down())
        match_id, p = await down.create_match(es.MatchSettings(players=3, seed=5, seats=[es.BOT_RANDOM] * 3))
        member = outbox_member(match_id, p.number)
        assert member in store.outbox and member not in store.leases  # written, not sent
        recorder = RecordingScheduler()
        sweeper = _service(store, recorder)
        assert await sweeper.sweep_outbox(grace_s=0) == 1
        assert recorder.calls == [("bot", match_id, p.number, p.seat)]
        assert member not in store.outbox and member in store.leases
        assert await sweeper.sweep_outbox(grace_s=0) == 0  # once

    asyncio.run(main())


def test_a_chained_bot_turn_is_leased_and_sent_again_when_the_lease_runs_out() -> None:
    async def main() -> None:
        store = FakeMatchStore()
        recorder = RecordingScheduler()
        svc = _service(store, recorder, task_lease_s=0.05)
        match_id, p = await svc.create_match(es.MatchSettings(players=3, seed=5, seats=[es.BOT_RANDOM] * 3))
        obs = await svc.observation(match_id, p.seat)
        res = await svc.act(match_id, p.seat, p.number, obs.legal_actions[0], origin="bot", play_next_bot=True)
        turn = res.next_bot
        assert turn is not None and turn.observation.viewer == turn.seat
        member = outbox_member(match_id, turn.decision)
        assert member in store.leases and member not in store.outbox
        assert outbox_member(match_id, p.number) not in store.leases  # the answered one's lease went
        sent = len(recorder.calls)
        time.sleep(0.1)
        assert await svc.sweep_leases() == 1
        assert recorder.calls[sent:] == [("bot", match_id, turn.decision, turn.seat)]

    asyncio.run(main())
