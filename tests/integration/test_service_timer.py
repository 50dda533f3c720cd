"""A human seat that lets its turn timer run out gets the documented default action."""

from __future__ import annotations

import time

import pytest
import redis
from helpers.processes import ServiceProcess
from service_util import check_stream_and_history, replay_matches, wait_decision

from engine import Game
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.engine.store import HistoryEntry, history_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


def test_human_timeout_applies_default_and_match_goes_on(
    stub: es_grpc.EngineServiceStub, worker: ServiceProcess, rdb: redis.Redis
) -> None:
    seats = [es.HUMAN, es.BOT_RANDOM, es.BOT_RANDOM, es.BOT_HEURISTIC, es.BOT_HEURISTIC]
    settings = es.MatchSettings(players=5, seed=4242, seats=seats, turn_timeout_ms=300)
    res = stub.CreateMatch(es.CreateMatchRequest(settings=settings))
    # the human never acts: wait until three of its decisions were taken by the timer
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        entries = [HistoryEntry.decode(x) for x in rdb.lrange(history_key(res.match_id), 0, -1)]
        timed = [e for e in entries if e.origin == "timer"]
        if len(timed) >= 3 or rdb.hget(f"fs:m:{{{res.match_id}}}", "over") == b"1":
            break
        time.sleep(0.1)
    assert timed, "no timer fired"
    assert all(e.seat == 0 for e in timed)
    # after three timeouts in a row the seat is away: the house policy answers it ("away")
    assert all(e.origin in ("bot", "timer", "away") for e in entries)
    assert all(e.seat == 0 for e in entries if e.origin == "away")
    assert all(e.seat != 0 for e in entries if e.origin == "bot")
    # each timed-out decision got exactly Game.default_action, and the match went on past it
    game = Game.new(players=5, seed=4242)
    for e in entries:
        if e.origin == "timer":
            assert e.action == str(game.default_action(e.seat))
        game.apply(e.seat, e.action)
    wait_decision(rdb, res.match_id, timed[-1].decision + 1)
    check_stream_and_history(rdb, res.match_id)
    replay_matches(stub, res.match_id)
