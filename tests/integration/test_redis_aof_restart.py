"""Redis with AOF (``appendonly yes``, data in a temp dir) SIGKILLed mid-match and restarted
on the same port and directory: the matches resume where they were and finish, with every
decision answered exactly once, every engine event exactly once, and the engine's replay
of the history reproducing the stored snapshot.

While Redis is down the engine answers UNAVAILABLE and the bot tasks retry with backoff;
the Celery broker (the same Redis) reconnects, and the queued tasks come back from the AOF.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis
from helpers.processes import start_engine_server, start_worker
from service_util import check_stream_and_history, replay_matches, wait_over

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.engine.store import history_key, state_key
from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

BOTS = [es.BOT_RANDOM, es.BOT_HEURISTIC, es.BOT_RANDOM, es.BOT_HEURISTIC, es.BOT_RANDOM]


def test_matches_resume_after_redis_restart_with_aof(tmp_path: Path) -> None:
    data = tmp_path / "redis-data"
    data.mkdir()
    server = RedisServer(appendonly=True, data_dir=data).start()
    port = server.port
    engine = start_engine_server(server.url, tmp_path)
    worker = start_worker(server.url, engine.address, tmp_path, concurrency=2)
    rdb = redis.Redis.from_url(server.url)
    try:
        with engine_channel(engine.address) as channel:
            stub = es_grpc.EngineServiceStub(channel)
            ids = []
            for seed in (31, 32, 33):
                settings = es.MatchSettings(players=5, seed=seed, seats=BOTS, bot_delay_ms=10)
                ids.append(stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id)
            # a human match too: its state must come back as it was, byte for byte
            human = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=34))).match_id
            legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=human, seat=-1))
            seat_legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=human, seat=legal.seat_to_act))
            stub.Act(
                es.ActRequest(
                    match_id=human, seat=legal.seat_to_act, decision=legal.decision, action=seat_legal.actions[0]
                )
            )
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and min(rdb.llen(history_key(m)) for m in ids) < 15:
                time.sleep(0.05)
            assert assert_progress(rdb, ids, 15)
            before_human = rdb.hgetall(state_key(human))
            server.kill()
            rdb.close()
            killed_at = time.monotonic()
            time.sleep(1.5)  # tasks fail UNAVAILABLE and retry meanwhile
            # the same port, directory and password: the clients reconnect as they were
            server = RedisServer(port=port, appendonly=True, data_dir=data, password=server.password).start()
            rdb = redis.Redis.from_url(server.url)
            after_human = rdb.hgetall(state_key(human))
            assert after_human == before_human  # the AOF brought back the state as it was
            resumed = {m: rdb.llen(history_key(m)) for m in ids}
            assert min(resumed.values()) >= 15
            for m in ids:
                wait_over(stub, m, timeout=120)
                assert rdb.llen(history_key(m)) > resumed[m]
                check_stream_and_history(rdb, m)
                replay_matches(stub, m)
            # the human match goes on from where it was
            legal2 = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=human, seat=-1))
            assert legal2.decision == legal.decision + 1 or legal2.decision > legal.decision
            assert time.monotonic() - killed_at < 150
    finally:
        worker.stop()
        engine.stop()
        rdb.close()
        server.stop()


def assert_progress(rdb: redis.Redis, ids: list[str], at_least: int) -> bool:
    lengths = [rdb.llen(history_key(m)) for m in ids]
    assert min(lengths) >= at_least, f"matches did not progress before the kill: {lengths}"
    return True
