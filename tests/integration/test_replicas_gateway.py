"""Two engine replicas behind one gateway (``fengsheng gateway --engine A,B``, round-robin).

Concurrent actions on one match, sent through the gateway (which alternates between the
replicas) and straight to both replicas at once, lose nothing and apply nothing twice:
every action answered 200 is in the history exactly once, the history answers every
decision exactly once, the event stream has every engine event exactly once, and the
engine's own replay of the history reproduces the stored snapshot. Then one replica is
SIGKILLed and the gateway carries on through the other. (``fengsheng up
--engine-replicas 2`` is checked in ``test_replicas_up.py``.)
"""

from __future__ import annotations

import concurrent.futures
import random
import re
from collections.abc import Iterator
from pathlib import Path

import grpc
import httpx
import pytest
import redis
from helpers.gateway_procs import start_gateway
from helpers.processes import ServiceProcess, start_engine_server
from service_util import check_stream_and_history, replay_matches

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.engine.store import HistoryEntry, history_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

DB = 7


def _db(redis_url: str, db: int) -> str:
    base = redis_url.rsplit("/", 1)[0] if redis_url.count("/") > 2 else redis_url
    return f"{base}/{db}"


@pytest.fixture()
def replicas(redis_url: str, tmp_path: Path) -> Iterator[tuple[str, list[ServiceProcess], ServiceProcess]]:
    url = _db(redis_url, DB)
    engines = [start_engine_server(url, tmp_path, celery=False) for _ in range(2)]
    gateway = start_gateway(",".join(e.address for e in engines), tmp_path, redis_url=url)
    try:
        yield url, engines, gateway
    finally:
        gateway.stop()
        for e in engines:
            e.stop()
        rdb = redis.Redis.from_url(url)
        rdb.flushdb()
        rdb.close()


def _seat_tokens(http: httpx.Client, players: int) -> tuple[str, dict[int, str]]:
    """A match of ``players`` human seats, each claimed by its own guest; its seat tokens."""
    tokens: dict[int, str] = {}
    creator = http.post("/api/guests", json={"name": "p0"}).json()["token"]
    created = http.post(
        "/api/matches",
        json={"players": players, "humans": players, "turn_timeout_ms": 0},
        headers={"Authorization": f"Bearer {creator}"},
    )
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    tokens[created.json()["seat"]] = created.json()["seat_token"]
    for i in range(1, players):
        guest = http.post("/api/guests", json={"name": f"p{i}"}).json()["token"]
        joined = http.post(f"/api/matches/{match_id}/join", headers={"Authorization": f"Bearer {guest}"})
        assert joined.status_code == 200, joined.text
        tokens[joined.json()["seat"]] = joined.json()["seat_token"]
    assert sorted(tokens) == list(range(players))
    return match_id, tokens


def test_concurrent_actions_through_both_replicas_lose_nothing_apply_nothing_twice(
    replicas: tuple[str, list[ServiceProcess], ServiceProcess],
) -> None:
    url, engines, gateway = replicas
    rdb = redis.Redis.from_url(url)
    rng = random.Random(7)
    channels = [engine_channel(e.address) for e in engines]
    stubs = [es_grpc.EngineServiceStub(c) for c in channels]
    acked: list[tuple[int, int, str]] = []  # (decision, seat, action) answered 200 / OK
    rejected = 0
    with (
        httpx.Client(base_url=gateway.extra["url"], timeout=20) as http,
        concurrent.futures.ThreadPoolExecutor(12) as pool,
    ):
        match_id, tokens = _seat_tokens(http, 5)

        def via_gateway(decision: int, seat: int, action: str) -> tuple[int, int, str] | None:
            reply = http.post(
                f"/api/matches/{match_id}/act",
                json={"decision": decision, "action": action},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            assert reply.status_code in (200, 400, 409), reply.text
            return (decision, seat, action) if reply.status_code == 200 else None

        def via_grpc(replica: int, decision: int, seat: int, action: str) -> tuple[int, int, str] | None:
            try:
                stubs[replica].Act(
                    es.ActRequest(match_id=match_id, seat=seat, decision=decision, action=action, origin="test"),
                    timeout=20,
                )
            except grpc.RpcError as exc:
                assert exc.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT), exc
                return None
            return (decision, seat, action)

        steps = 0
        while steps < 120:
            legal = stubs[steps % 2].ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1))
            if legal.seat_to_act < 0:
                break
            seat, decision = legal.seat_to_act, legal.decision
            options = list(stubs[0].ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=seat)).actions)
            # six racers for one decision: the same action twice, others, an out-of-turn seat
            picks = [rng.choice(options) for _ in range(3)]
            other = (seat + 1) % 5
            futures = [
                pool.submit(via_gateway, decision, seat, picks[0]),
                pool.submit(via_gateway, decision, seat, picks[0]),
                pool.submit(via_grpc, 0, decision, seat, picks[1]),
                pool.submit(via_grpc, 1, decision, seat, picks[2]),
                pool.submit(via_gateway, decision, other, options[0]),
                # a decision that cannot be open yet: rejected. (Not decision + 1: when the same
                # seat answers the next decision too, a late request for it is a valid move.)
                pool.submit(via_gateway, decision + 1000, seat, picks[0]),
            ]
            won = [f.result() for f in futures]
            applied = [w for w in won if w is not None]
            rejected += len(won) - len(applied)
            assert len(applied) == 1, f"decision {decision}: {applied}"
            acked.extend(applied)
            steps += 1
    for c in channels:
        c.close()

    entries = [HistoryEntry.decode(x) for x in rdb.lrange(history_key(match_id), 0, -1)]
    # an action may expand into several entries (consecutive decisions): match on the first
    by_decision = {e.decision: e for e in entries}
    for decision, seat, _action in acked:
        assert decision in by_decision and by_decision[decision].seat == seat
    answered = check_stream_and_history(rdb, match_id)
    assert answered >= len(acked) >= 60
    assert rejected >= 5 * len(acked)
    with engine_channel(engines[1].address) as channel:
        replay_matches(es_grpc.EngineServiceStub(channel), match_id)

    # both replicas served the gateway's calls
    metrics = httpx.get(gateway.extra["url"] + "/metrics").text
    for e in engines:
        m = re.search(
            rf'fengsheng_gateway_engine_replica_calls_total{{replica="{re.escape(e.address)}"}} (\S+)', metrics
        )
        assert m and float(m.group(1)) > 50, metrics[-2000:]
    rdb.close()


def test_gateway_fails_over_when_a_replica_dies(replicas: tuple[str, list[ServiceProcess], ServiceProcess]) -> None:
    _url, engines, gateway = replicas
    with httpx.Client(base_url=gateway.extra["url"], timeout=20) as http:
        match_id, tokens = _seat_tokens(http, 5)
        engines[0].kill()
        for _ in range(20):
            legal = http.get(f"/api/matches/{match_id}/legal-actions", headers={"Authorization": f"Bearer {tokens[0]}"})
            assert legal.status_code == 200, legal.text
            data = legal.json()
            seat = data["seat_to_act"]
            actions = http.get(
                f"/api/matches/{match_id}/legal-actions", headers={"Authorization": f"Bearer {tokens[seat]}"}
            ).json()["actions"]
            reply = http.post(
                f"/api/matches/{match_id}/act",
                json={"decision": data["decision"], "action": actions[0]},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            assert reply.status_code == 200, reply.text
        assert http.get("/healthz").status_code == 200
        metrics = http.get("/metrics").text
        assert re.search(r"fengsheng_gateway_engine_failovers_total\{method=\"\w+\"\} [1-9]", metrics)
