"""Bot matches end to end: gRPC engine service + Celery workers on a real Redis."""

from __future__ import annotations

import grpc
import pytest
import redis
from helpers.processes import ServiceProcess, start_engine_server
from service_util import check_stream_and_history, replay_matches, stored, wait_over

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.engine.store import history_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

BOTS = [es.BOT_RANDOM, es.BOT_HEURISTIC, es.BOT_RANDOM, es.BOT_HEURISTIC, es.BOT_RANDOM]


def test_five_bot_match_plays_to_a_winner_and_replays(
    stub: es_grpc.EngineServiceStub, worker: ServiceProcess, rdb: redis.Redis
) -> None:
    res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=2024, seats=BOTS)))
    # a spectator's stream, from the start to the end of the match
    items = list(stub.Watch(es.WatchRequest(match_id=res.match_id, seat=-1), timeout=90))
    wait_over(stub, res.match_id)
    assert items[-1].outcome.over and items[-1].outcome.winners
    assert all(not i.HasField("event") or not i.event.audience or -1 in i.event.audience for i in items)
    n = check_stream_and_history(rdb, res.match_id)
    assert n > 20
    replay = replay_matches(stub, res.match_id)
    assert replay.outcome.over and list(replay.outcome.winners) == list(items[-1].outcome.winners)
    assert len(replay.actions) == n
    assert {h.split(b"\t")[2] for h in rdb.lrange(history_key(res.match_id), 0, -1)} == {b"bot"}


def test_watch_resumes_after_an_event_id(stub: es_grpc.EngineServiceStub, worker: ServiceProcess) -> None:
    res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=4, seed=77, seats=BOTS[:4])))
    wait_over(stub, res.match_id)
    everything = list(stub.Watch(es.WatchRequest(match_id=res.match_id, seat=2)))
    cut = len(everything) // 2
    rest = list(stub.Watch(es.WatchRequest(match_id=res.match_id, seat=2, from_event_id=everything[cut].event_id)))
    assert [i.event_id for i in rest] == [i.event_id for i in everything[cut + 1 :]]
    seen = [i.event.index for i in everything if i.HasField("event")]
    assert seen == sorted(set(seen))
    assert all(not i.event.audience or 2 in i.event.audience for i in everything if i.HasField("event"))


def test_two_replicas_serve_one_match(
    redis_url: str, proc_logs: object, stub: es_grpc.EngineServiceStub, rdb: redis.Redis, tmp_path: object
) -> None:
    """Alternate actions between two engine processes: each notices the other's writes
    (version check / compare-and-set) and the history stays exact."""
    other = start_engine_server(redis_url, tmp_path, celery=False)  # type: ignore[arg-type]
    try:
        with engine_channel(other.address) as channel:
            stub2 = es_grpc.EngineServiceStub(channel)
            res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=31)))
            for i in range(40):
                s = stub if i % 2 == 0 else stub2
                legal = s.ListLegalActions(es.ListLegalActionsRequest(match_id=res.match_id, seat=-1))
                if legal.seat_to_act < 0:
                    break
                mine = s.ListLegalActions(es.ListLegalActionsRequest(match_id=res.match_id, seat=legal.seat_to_act))
                # act through the *other* replica, whose cache may be behind
                (stub2 if s is stub else stub).Act(
                    es.ActRequest(
                        match_id=res.match_id, seat=legal.seat_to_act, decision=legal.decision, action=mine.actions[-1]
                    )
                )
            version, *_ = stored(rdb, res.match_id)
            assert version == 1 + check_stream_and_history(rdb, res.match_id)
            replay_matches(stub2, res.match_id)
    finally:
        other.stop()


def test_watch_wakes_on_notification(stub: es_grpc.EngineServiceStub) -> None:
    """A watcher hears about a write within a fraction of the 2 s re-read interval
    (the pub/sub notification path works)."""
    import queue
    import threading
    import time

    res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=55)))
    got: queue.Queue[tuple[float, es.WatchEvent]] = queue.Queue()
    call = stub.Watch(es.WatchRequest(match_id=res.match_id, seat=-1))

    def pump() -> None:
        try:
            for item in call:
                got.put((time.monotonic(), item))
        except grpc.RpcError:
            pass

    threading.Thread(target=pump, daemon=True).start()
    first = got.get(timeout=5)[1]  # the creation's entries
    while not got.empty():
        got.get()
    assert first.pending.number == res.pending.number
    time.sleep(0.3)  # let the watcher block
    legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=res.match_id, seat=res.pending.seat))
    t0 = time.monotonic()
    stub.Act(es.ActRequest(match_id=res.match_id, seat=res.pending.seat, decision=legal.decision, action="declare"))
    arrived, item = got.get(timeout=5)
    call.cancel()
    assert arrived - t0 < 0.5
    assert item.pending.number >= legal.decision


def test_bot_levels_play_through_the_celery_workers(
    stub: es_grpc.EngineServiceStub, worker: ServiceProcess, rdb: redis.Redis
) -> None:
    """Issue 14: normal (BOT_V2) and hard (BOT_SEARCH, heuristic v2 until a search bot is
    registered) seats are answered by the bot workers like the older kinds."""
    seats = [es.BOT_V2, es.BOT_SEARCH, es.BOT_RANDOM, es.BOT_V2, es.BOT_SEARCH]
    res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=99, seats=seats)))
    wait_over(stub, res.match_id)
    obs = stub.GetObservation(es.GetObservationRequest(match_id=res.match_id, seat=-1))
    assert obs.outcome.over and obs.outcome.winners
    assert check_stream_and_history(rdb, res.match_id) > 20
