"""Missed decisions (issue 17, defect 4): a seat whose turn timer ran out
``FENGSHENG_AWAY_AFTER`` times in a row (default 3) is away and answered at once by the house
policy for the rest of the match (issue 29: a late answer does not bring it back); a match
with only away seats finishes quickly. A real
engine server and a real Celery worker (the session fixtures)."""

from __future__ import annotations

import time

import grpc
import pytest
import redis
from helpers.processes import ServiceProcess
from service_util import check_stream_and_history, replay_matches

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.engine.store import HistoryEntry, history_key, state_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

AWAY_AFTER = 3  # the default


def _entries(rdb: redis.Redis, match_id: str) -> list[HistoryEntry]:
    return [HistoryEntry.decode(x.decode()) for x in rdb.lrange(history_key(match_id), 0, -1)]


def _over(rdb: redis.Redis, match_id: str) -> bool:
    return rdb.hget(state_key(match_id), "over") == b"1"


def test_a_match_of_absent_humans_goes_away_and_finishes_quickly(
    stub: es_grpc.EngineServiceStub, worker: ServiceProcess, rdb: redis.Redis
) -> None:
    timeout_s = 0.5
    settings = es.MatchSettings(players=3, seed=7117, seats=[es.HUMAN] * 3, turn_timeout_ms=round(timeout_s * 1000))
    match_id = stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id
    t0 = time.monotonic()
    while not _over(rdb, match_id):
        assert time.monotonic() - t0 < 90, "a match of absent players did not finish"
        time.sleep(0.1)
    entries = _entries(rdb, match_id)
    # every seat missed exactly AWAY_AFTER decisions on its timer, then was answered at once
    for seat in range(3):
        origins = [e.origin for e in entries if e.seat == seat]
        assert origins[:AWAY_AFTER] == ["timer"] * AWAY_AFTER, (seat, origins)
        assert set(origins[AWAY_AFTER:]) <= {"away"}, (seat, origins)
    timers = sum(1 for e in entries if e.origin == "timer")
    assert timers <= 3 * AWAY_AFTER and len(entries) > timers, "the house policy never answered"
    check_stream_and_history(rdb, match_id)
    replay_matches(stub, match_id)


def test_an_away_seat_stays_away_for_the_rest_of_the_match(
    stub: es_grpc.EngineServiceStub, worker: ServiceProcess, rdb: redis.Redis
) -> None:
    """Issue 29: a late answer (a stale action) no longer brings the seat back, and the away
    seat's own actions are refused (kind ``away``) until the match ends."""
    seats = [es.HUMAN, es.BOT_HEURISTIC, es.BOT_HEURISTIC]
    settings = es.MatchSettings(players=3, seed=3131, seats=seats, turn_timeout_ms=400)
    match_id = stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id
    deadline = time.monotonic() + 60
    while not any(e.seat == 0 and e.origin == "away" for e in _entries(rdb, match_id)):
        assert time.monotonic() < deadline and not _over(rdb, match_id), "seat 0 never went away"
        time.sleep(0.05)
    # the player's late answer is refused as away, whatever decision it names
    with pytest.raises(grpc.RpcError) as err:
        stub.Act(es.ActRequest(match_id=match_id, seat=0, decision=0, action="pass", origin="human"))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "away" in (err.value.details() or "")
    while not _over(rdb, match_id):
        assert time.monotonic() < deadline, "the match of an away seat did not finish"
        time.sleep(0.05)
    origins = [e.origin for e in _entries(rdb, match_id) if e.seat == 0]
    assert origins[:AWAY_AFTER] == ["timer"] * AWAY_AFTER and set(origins[AWAY_AFTER:]) == {"away"}, origins
