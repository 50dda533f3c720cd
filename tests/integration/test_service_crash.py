"""Crashes: SIGKILL the engine service mid-match, SIGKILL a Celery worker mid-move.

Each test uses its own Redis database, so its tasks are not taken by the shared worker.
"""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import pytest
import redis
from helpers.processes import start_engine_server, start_worker, wait_for_log
from service_util import check_stream_and_history, replay_matches, wait_decision, wait_over

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.engine.store import HistoryEntry, history_key, state_key
from services.redis_server import free_port

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

BOTS = [es.BOT_RANDOM, es.BOT_HEURISTIC, es.BOT_RANDOM, es.BOT_HEURISTIC, es.BOT_RANDOM]


def _db(redis_url: str, db: int) -> str:
    base = redis_url.rsplit("/", 1)[0] if redis_url.count("/") > 2 else redis_url
    return f"{base}/{db}"


def test_engine_killed_mid_match_another_takes_over(redis_url: str, tmp_path: Path) -> None:
    url = _db(redis_url, 3)
    rdb = redis.Redis.from_url(url)
    port = free_port()
    first = start_engine_server(url, tmp_path, port=port)
    worker = start_worker(url, first.address, tmp_path, concurrency=2)
    second = None
    try:
        with engine_channel(first.address) as channel:
            stub = es_grpc.EngineServiceStub(channel)
            settings = es.MatchSettings(players=5, seed=99, seats=BOTS, bot_delay_ms=2)
            match_id = stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id
            wait_decision(rdb, match_id, 60)
            first.kill()
            time.sleep(0.2)  # a script the dead process had already sent may still run
            killed_at = int(rdb.hget(state_key(match_id), "decision") or 0)
            time.sleep(0.3)
            assert int(rdb.hget(state_key(match_id), "decision") or 0) == killed_at  # nobody moves
            second = start_engine_server(url, tmp_path, port=port)
            wait_over(stub, match_id, timeout=90)
            assert int(rdb.hget(state_key(match_id), "decision") or 0) > killed_at
            check_stream_and_history(rdb, match_id)
            replay_matches(stub, match_id)
    finally:
        worker.stop()
        if second is not None:
            second.stop()
        first.stop()
        rdb.flushdb()
        rdb.close()


def test_worker_killed_mid_move_is_redelivered_once(redis_url: str, tmp_path: Path) -> None:
    url = _db(redis_url, 4)
    rdb = redis.Redis.from_url(url)
    engine = start_engine_server(url, tmp_path)
    doomed = start_worker(url, engine.address, tmp_path, concurrency=1)
    rescuer = None
    try:
        with engine_channel(engine.address) as channel:
            stub = es_grpc.EngineServiceStub(channel)
            # the bot's move is due 4 s after it is queued (its countdown): the worker holds
            # the message, unacknowledged, until then, and the kill lands in between
            settings = es.MatchSettings(players=5, seed=5, seats=BOTS, bot_delay_ms=4000)
            res = stub.CreateMatch(es.CreateMatchRequest(settings=settings))
            first = res.pending.number
            wait_for_log(doomed, r"Task bots\.move\[[0-9a-f-]+\] received", 20)
            doomed.kill()
            assert rdb.llen(history_key(res.match_id)) == 0  # the move did not happen
            rescuer = start_worker(url, engine.address, tmp_path, concurrency=1)
            wait_decision(rdb, res.match_id, first + 1, timeout=40)
            wait_for_log(rescuer, rf"bots\.move done match={res.match_id} seat=\d+ decision={first}\b", 10)
            entries = [HistoryEntry.decode(x) for x in rdb.lrange(history_key(res.match_id), 0, -1)]
            assert [e.decision for e in entries][:1] == [first]
            assert sum(1 for e in entries if e.decision == first) == 1
            check_stream_and_history(rdb, res.match_id)
    finally:
        if rescuer is not None:
            rescuer.stop()
        doomed.stop()
        engine.stop()
        rdb.flushdb()
        rdb.close()


def test_store_down_is_unavailable_not_internal(tmp_path: Path) -> None:
    """With Redis gone, calls fail with UNAVAILABLE (clients and tasks retry those)."""
    from services.redis_server import RedisServer

    server = RedisServer().start()
    engine = start_engine_server(server.url, tmp_path, celery=False)
    try:
        with engine_channel(engine.address) as channel:
            stub = es_grpc.EngineServiceStub(channel)
            res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(seed=12)))
            server.stop()
            with pytest.raises(grpc.RpcError) as info:
                stub.Act(
                    es.ActRequest(match_id=res.match_id, seat=res.pending.seat, decision=res.pending.number,
                                  action="declare"),
                    timeout=30,
                )  # fmt: skip
            assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        engine.stop()
        server.stop()
