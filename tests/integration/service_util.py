"""Small helpers shared by the engine-service integration tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from typing import Any

import grpc
import redis

from engine import Game
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.engine.store import decode_write, events_key, history_key, state_key


def wait_over(stub: es_grpc.EngineServiceStub, match_id: str, timeout: float = 60.0) -> es.LegalActions:
    """Poll until the match is over (seat_to_act == -1)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1), timeout=5)
            if last.seat_to_act == -1:
                return last
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.UNAVAILABLE:
                raise
        time.sleep(0.1)
    raise TimeoutError(f"match {match_id} not over after {timeout}s (last: {last})")


def wait_decision(rdb: redis.Redis, match_id: str, at_least: int, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        raw = rdb.hget(state_key(match_id), "decision")
        if raw is not None and int(raw) >= at_least:
            return int(raw)
        time.sleep(0.02)
    raise TimeoutError(f"match {match_id} did not reach decision {at_least}")


def stored(rdb: redis.Redis, match_id: str) -> tuple[int, bytes, int, int]:
    """(version, snapshot, history length, stream length: one entry per write) straight from Redis."""
    version, snapshot = rdb.hmget(state_key(match_id), ["version", "snapshot"])
    return int(version), bytes(snapshot), rdb.llen(history_key(match_id)), rdb.xlen(events_key(match_id))


def check_stream_and_history(rdb: redis.Redis, match_id: str) -> int:
    """Every engine event exactly once, in order; every decision answered exactly once."""
    writes = [decode_write(eid.decode(), f) for eid, f in rdb.xrange(events_key(match_id))]
    indices = [e.index for w in writes for e in w.events]
    assert indices == list(range(len(indices))), "event stream has a gap or a duplicate"
    decisions = [int(x.split(b"\t", 1)[0]) for x in rdb.lrange(history_key(match_id), 0, -1)]
    first = decisions[0] if decisions else 1
    assert decisions == list(range(first, first + len(decisions))), "history skips or repeats a decision"
    return len(decisions)


def replay_matches(stub: es_grpc.EngineServiceStub, match_id: str) -> es.Replay:
    """GetReplay re-applied to a fresh Game reproduces the final snapshot byte for byte."""
    replay = stub.GetReplay(es.GetReplayRequest(match_id=match_id))
    s = replay.settings
    game = Game.new(ruleset=s.ruleset, players=s.players, seed=s.seed, tutorial=s.tutorial, characters=s.characters)
    for a in replay.actions:
        assert game.decision_number == a.decision
        game.apply(a.seat, a.action)
    assert game.snapshot() == replay.final_snapshot
    return replay


async def check_acknowledged(
    client: Any, match_ids: Iterable[str], acked: dict[str, list[tuple[int, int, str]]], *, only: bool = False
) -> None:
    """Each match is over, its history answers every decision once, and every acknowledged
    ``(decision, seat, action)`` is stored as it was acknowledged; with ``only``, nothing
    else was applied. ``client``: an asyncio Redis client (a cluster's or one node's)."""
    for match_id in match_ids:
        assert int(await client.hget(state_key(match_id), "over")) == 1
        raw = await client.lrange(history_key(match_id), 0, -1)
        entries = [x.decode().split("\t", 3) for x in raw]
        decisions = [int(e[0]) for e in entries]
        assert decisions == list(range(decisions[0], decisions[0] + len(decisions))), "a decision twice"
        stored = {int(e[0]): (int(e[1]), e[3]) for e in entries}
        for decision, seat, action in acked[match_id]:
            assert stored.get(decision) == (seat, action), f"{match_id}: acknowledged {decision} lost"
        if only:
            assert len(stored) == len(acked[match_id]), f"{match_id}: an action applied that was not acknowledged"


async def play_acknowledged(
    svc: Any, match_id: str, rng: Any, acked: list[tuple[int, int, str]], *, retry_s: float = 0.1
) -> None:
    """Answer each decision of ``match_id`` through the match service (``svc``:
    services.engine.matches.MatchService) with one of its seat's legal actions until the game
    is over, recording each ``(decision, seat, action)`` the service acknowledged. A store
    error (a failover, a slot on the move) or a decision that moved on: read again after
    ``retry_s``."""
    while True:
        try:
            legal = await svc.legal_actions(match_id, -1)
            if legal.seat_to_act == -1:
                return
            mine = await svc.legal_actions(match_id, legal.seat_to_act)
            action = rng.choice(list(mine.actions))
            await svc.act(match_id, mine.seat_to_act, mine.decision, action, origin="bot")
        except Exception:
            await asyncio.sleep(retry_s)
            continue
        acked.append((mine.decision, mine.seat_to_act, action))
