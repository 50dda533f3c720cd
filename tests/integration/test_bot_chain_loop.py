"""A worker's bot chains on its event loop (issue 15, point 3; services/workers/chains.py).

The ``bots.move`` task body runs here in-process against a real engine server whose broker
no worker consumes, so every move of the match is this task's. What must hold: with one
engine address the chain's moves go over the process's chain loop (the task's own thread
makes no gRPC call), with several over the blocking path; both play a chain of many house
bot decisions, each once, in order, and leave no lease behind; a decision that has moved on
is a no-op.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import redis
from helpers.processes import ServiceProcess, start_engine_server

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.engine.store import HistoryEntry, history_key, leases_key
from services.redis_server import RedisServer
from services.workers import chains, tasks

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

SEATS = [es.BOT_RANDOM, es.BOT_HEURISTIC, es.BOT_V2, es.BOT_RANDOM, es.BOT_HEURISTIC]


@pytest.fixture(scope="module")
def lone_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServiceProcess, str]]:
    """An engine server on a Redis of its own: its bot tasks reach no worker."""
    with RedisServer() as server:
        proc = start_engine_server(server.url, Path(tmp_path_factory.mktemp("chain-loop-logs")))
        try:
            yield proc, server.url
        finally:
            proc.stop()


def _new_match(address: str) -> tuple[str, int, int]:
    with engine_channel(address) as channel:
        stub = es_grpc.EngineServiceStub(channel)
        res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=4242, seats=SEATS)))
        legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=res.match_id, seat=-1))
        return res.match_id, legal.seat_to_act, legal.decision


def _history(redis_url: str, match_id: str) -> tuple[list[HistoryEntry], list[bytes]]:
    rdb = redis.Redis.from_url(redis_url)
    try:
        entries = [HistoryEntry.decode(x) for x in rdb.lrange(history_key(match_id), 0, -1)]
        leased = [m for m in rdb.zrange(leases_key(match_id), 0, -1) if m.startswith(match_id.encode())]
        return entries, leased
    finally:
        rdb.close()


@pytest.mark.parametrize("path", ["loop", "blocking"])
def test_a_task_plays_a_chain_of_bot_moves(
    lone_engine: tuple[ServiceProcess, str], path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    proc, redis_url = lone_engine
    address = proc.address if path == "loop" else f"{proc.address},{proc.address}"
    monkeypatch.setenv("FENGSHENG_ENGINE_ADDR", address)
    if path == "loop":
        assert chains.chain_loop() is not None

        def no_blocking_stub() -> es_grpc.EngineServiceStub:
            raise AssertionError("a chain on the loop made a blocking call from the task's thread")

        monkeypatch.setattr(tasks, "engine_stub", no_blocking_stub)  # no search bot here
    else:
        assert chains.chain_loop() is None
    match_id, seat, decision = _new_match(proc.address)

    assert tasks.bot_move(match_id, seat, decision, policy="random") == "applied"

    entries, leased = _history(redis_url, match_id)
    assert len(entries) > 10, "the task played one move, not a chain"
    assert {e.origin for e in entries} == {"bot"}
    decisions = [e.decision for e in entries]
    assert decisions == list(range(decision, decision + len(decisions)))  # each once, in order
    assert len(decisions) <= tasks.CHAIN_MAX_MOVES
    # the chain's own turns are answered; only the next decision's task (on the broker) is leased
    assert [m.split(b"\t")[1] for m in leased] in ([], [str(decisions[-1] + 1).encode()])


def test_a_decision_that_moved_on_is_a_no_op(lone_engine: tuple[ServiceProcess, str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    proc, redis_url = lone_engine
    monkeypatch.setenv("FENGSHENG_ENGINE_ADDR", proc.address)
    match_id, seat, decision = _new_match(proc.address)
    assert tasks.bot_move(match_id, seat, decision + 5, policy="random") == "stale"
    assert _history(redis_url, match_id)[0] == []


def test_an_unknown_match_is_dropped_not_retried(lone_engine: tuple[ServiceProcess, str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    proc, _ = lone_engine
    monkeypatch.setenv("FENGSHENG_ENGINE_ADDR", proc.address)
    try:
        result = tasks.bot_move("m-does-not-exist", 0, 1, policy="random")
    except grpc.RpcError as exc:  # pragma: no cover - the assertion below says what happened
        pytest.fail(f"an unknown match raised {exc.code()} instead of being dropped")
    assert result == "dropped"
