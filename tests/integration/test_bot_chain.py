"""Chained bot moves (issue 15, point 3): a ``bots.move`` task plays its match's following
house bot decisions itself (``ActRequest.play_next_bot``) instead of a broker round trip per
move.

What must hold: the engine hands the task exactly the next bot seat's own observation (never
another seat's hand), queues no task for a chained decision but leases it, so a lost worker
costs a lease's length and not the match; seats with a think delay or human seats are never
chained; and a real worker plays an all-bot match to its end this way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
import redis
from helpers.processes import ServiceProcess

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from fengsheng.v1 import game_pb2
from services.engine.matches import MatchService
from services.engine.scheduler import RecordingScheduler
from services.engine.store import HistoryEntry, MatchStore, history_key, leases_key, outbox_key, outbox_member
from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


@pytest.fixture()
def own_redis() -> Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


def _no_foreign_hands(obs: game_pb2.Observation, seat: int) -> None:
    """A seat's observation shows its own hand only (others: counts, no cards)."""
    for view in obs.seats:
        if view.seat != seat:
            assert not view.hand, f"seat {seat}'s observation shows seat {view.seat}'s hand"


def test_a_chained_turn_is_the_next_seats_own_observation_and_is_leased(own_redis: RedisServer) -> None:
    async def main() -> None:
        recorder = RecordingScheduler()
        svc = MatchService(MatchStore.from_url(own_redis.url), recorder, task_lease_s=30)
        rdb = redis.Redis.from_url(own_redis.url)
        try:
            settings = es.MatchSettings(players=5, seed=77, seats=[es.BOT_RANDOM, es.BOT_HEURISTIC] * 2 + [es.BOT_V2])
            match_id, pending = await svc.create_match(settings)
            assert recorder.calls == [("bot", match_id, pending.number, pending.seat)]  # the first, on the broker
            seat, decision = pending.seat, pending.number
            obs = await svc.observation(match_id, seat)
            chained = 0
            for _ in range(40):
                res = await svc.act(match_id, seat, decision, obs.legal_actions[0], origin="bot", play_next_bot=True)
                if res.next_bot is None:
                    break
                turn = res.next_bot
                chained += 1
                assert (turn.seat, turn.decision) == (res.pending.seat, res.pending.number)
                # exactly what GetObservation gives that seat: its own view, nothing more
                own = await svc.observation(match_id, turn.seat)
                assert turn.observation == own
                assert list(turn.observation.legal_actions)
                _no_foreign_hands(turn.observation, turn.seat)
                assert turn.policy in ("random", "heuristic", "v2")
                # no task on the broker for it, no outbox entry; a lease instead
                member = outbox_member(match_id, turn.decision)
                assert rdb.zscore(outbox_key(match_id), member) is None
                lease = rdb.zscore(leases_key(match_id), member)
                assert lease is not None and lease > time.time() * 1000 + 20_000
                seat, decision, obs = turn.seat, turn.decision, turn.observation
            assert chained >= 20
            assert len(recorder.calls) == 1  # still only the first move's task
            # the previous decisions' leases went with the writes that answered them
            leased = rdb.zrange(leases_key(match_id), 0, -1)
            assert leased == [outbox_member(match_id, decision).encode()]
        finally:
            rdb.close()
            await svc.close()
            await svc.store.close()

    asyncio.run(main())


def test_a_lost_chain_is_sent_again_when_its_lease_runs_out(own_redis: RedisServer) -> None:
    async def main() -> None:
        recorder = RecordingScheduler()
        svc = MatchService(MatchStore.from_url(own_redis.url), recorder, task_lease_s=0.2)
        try:
            settings = es.MatchSettings(players=3, seed=5, seats=[es.BOT_RANDOM] * 3)
            match_id, pending = await svc.create_match(settings)
            obs = await svc.observation(match_id, pending.seat)
            res = await svc.act(
                match_id, pending.seat, pending.number, obs.legal_actions[0], origin="bot", play_next_bot=True
            )
            assert res.next_bot is not None
            calls = len(recorder.calls)
            # the worker that was handed the turn dies: nothing happens until the lease ends
            assert await svc.sweep_leases() == 0
            await asyncio.sleep(0.4)
            assert await svc.sweep_leases() == 1
            assert recorder.calls[calls:] == [("bot", match_id, res.next_bot.decision, res.next_bot.seat)]
        finally:
            await svc.close()
            await svc.store.close()

    asyncio.run(main())


def test_no_chain_for_humans_delays_or_other_origins(own_redis: RedisServer) -> None:
    async def main() -> None:
        recorder = RecordingScheduler()
        svc = MatchService(MatchStore.from_url(own_redis.url), recorder)
        try:
            # think delay: each move is a task with its countdown
            slow = es.MatchSettings(players=3, seed=5, seats=[es.BOT_RANDOM] * 3, bot_delay_ms=500)
            match_id, p = await svc.create_match(slow)
            obs = await svc.observation(match_id, p.seat)
            res = await svc.act(match_id, p.seat, p.number, obs.legal_actions[0], origin="bot", play_next_bot=True)
            assert res.next_bot is None
            assert recorder.calls[-1] == ("bot", match_id, res.pending.number, res.pending.seat)
            assert recorder.bot_countdowns[-1] == 0.5
            # a human caller asking for it gets nothing (only a house bot's worker chains)
            fast = es.MatchSettings(players=3, seed=5, seats=[es.BOT_RANDOM] * 3)
            match_id, p = await svc.create_match(fast)
            obs = await svc.observation(match_id, p.seat)
            res = await svc.act(match_id, p.seat, p.number, obs.legal_actions[0], origin="human", play_next_bot=True)
            assert res.next_bot is None
            # the next seat is a human: no turn handed out
            mixed = es.MatchSettings(players=3, seed=5, seats=[es.BOT_RANDOM, es.HUMAN, es.HUMAN])
            match_id, p = await svc.create_match(mixed)
            while p.seat == 0:
                obs = await svc.observation(match_id, 0)
                res = await svc.act(match_id, 0, p.number, obs.legal_actions[0], origin="bot", play_next_bot=True)
                assert res.next_bot is None or res.next_bot.seat == 0
                p = res.pending
        finally:
            await svc.close()
            await svc.store.close()

    asyncio.run(main())


def test_a_worker_plays_an_all_bot_match_in_chains(
    stub: es_grpc.EngineServiceStub, worker: ServiceProcess, redis_url: str
) -> None:
    """Through the real engine server and Celery worker: the match ends, every action is a
    house bot's, each decision answered once, and no lease is left behind."""
    settings = es.MatchSettings(players=5, seats=[es.BOT_HEURISTIC, es.BOT_RANDOM, es.BOT_V2, es.BOT_RANDOM, es.BOT_V2])
    match_id = stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1))
        if legal.seat_to_act == -1:
            break
        time.sleep(0.2)
    else:
        pytest.fail("the bot match did not finish")
    replay = stub.GetReplay(es.GetReplayRequest(match_id=match_id))
    assert replay.outcome.over and len(replay.actions) > 10
    rdb = redis.Redis.from_url(redis_url)
    try:
        entries = [HistoryEntry.decode(x) for x in rdb.lrange(history_key(match_id), 0, -1)]
        assert {e.origin for e in entries} == {"bot"}
        decisions = [e.decision for e in entries]
        assert decisions == list(range(decisions[0], decisions[0] + len(decisions)))  # none twice
        leased = [m for m in rdb.zrange(leases_key(match_id), 0, -1) if m.startswith(match_id.encode())]
        assert leased == []
    finally:
        rdb.close()
