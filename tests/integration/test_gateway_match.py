"""Matches through the gateway on the real platform: Redis, the engine gRPC service, Celery workers.

Issue 4, acceptance 1 (a 5-bot match created through the gateway plays to a winner and its
replay reproduces the final snapshot byte for byte) and 4 for the gateway (wrong token,
other seat's token, malformed body, stale / duplicate / out-of-turn / illegal actions each
get their documented HTTP error and the stored snapshot is unchanged), and a human seat
played through REST and the WebSocket.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from helpers.gateway_procs import poll_json, start_gateway
from helpers.processes import ServiceProcess
from service_util import check_stream_and_history, stored
from websockets.sync.client import connect

from engine import Game
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def gateway(
    redis_url: str, engine: ServiceProcess, worker: ServiceProcess, proc_logs: Path
) -> Iterator[ServiceProcess]:
    proc = start_gateway(engine.address, proc_logs, redis_url=redis_url)
    yield proc
    proc.stop()


@pytest.fixture()
def http(gateway: ServiceProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=gateway.extra["url"], timeout=10) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(http: httpx.Client, name: str) -> str:
    reply = http.post("/api/guests", json={"name": name})
    assert reply.status_code == 201, reply.text
    token: str = reply.json()["token"]
    return token


def replay_reproduces(http: httpx.Client, stub: es_grpc.EngineServiceStub, match_id: str) -> dict[str, Any]:
    """The gateway's replay (and the engine's GetReplay) re-applied to a fresh Game."""
    replay = http.get(f"/api/matches/{match_id}/replay").json()
    grpc_replay = stub.GetReplay(es.GetReplayRequest(match_id=match_id))
    final = base64.b64decode(replay["final_snapshot"])
    assert final == grpc_replay.final_snapshot
    s = replay["settings"]
    game = Game.new(
        ruleset=s["ruleset"], players=s["players"], seed=int(s["seed"]), tutorial=s["tutorial"], characters=False
    )
    for step in replay["actions"]:
        assert game.decision_number == step["decision"]
        game.apply(step["seat"], step["action"])
    assert game.is_over
    assert game.snapshot() == final
    return replay


def test_five_bot_match_plays_to_a_winner_and_replays(
    http: httpx.Client, stub: es_grpc.EngineServiceStub, rdb: redis.Redis
) -> None:
    created = http.post("/api/matches", json={"players": 5, "humans": 0, "bot": "heuristic", "seed": 4242})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    assert [s["kind"] for s in created.json()["seats"]] == ["heuristic"] * 5
    info = poll_json(http, f"/api/matches/{match_id}", lambda d: d["observation"]["outcome"]["over"], timeout=90)
    outcome = info["observation"]["outcome"]
    assert outcome["winners"], outcome
    replay = replay_reproduces(http, stub, match_id)
    assert replay["outcome"]["winners"] == outcome["winners"]
    assert check_stream_and_history(rdb, match_id) == len(replay["actions"])


def wait_turn(http: httpx.Client, match_id: str, token: str, seat: int) -> dict[str, Any]:
    legal: dict[str, Any] = poll_json(
        http,
        f"/api/matches/{match_id}/legal-actions",
        lambda d: d["seat_to_act"] == seat,
        timeout=30,
        headers=bearer(token),
    )
    return legal


def test_bad_requests_get_their_error_and_change_nothing(
    http: httpx.Client, rdb: redis.Redis, stub: es_grpc.EngineServiceStub
) -> None:
    creator = guest(http, "ann")
    created = http.post(
        "/api/matches", json={"players": 5, "humans": 2, "bot": "random", "seed": 77}, headers=bearer(creator)
    ).json()
    match_id, token0 = created["match_id"], created["seat_token"]
    assert created["seat"] == 0
    joined = http.post(f"/api/matches/{match_id}/join", headers=bearer(guest(http, "ben"))).json()
    assert joined["seat"] == 1
    token1 = joined["seat_token"]
    other = http.post("/api/matches", json={"players": 3, "humans": 1}, headers=bearer(creator)).json()

    # the human seat to act is "mine", the other human seat is "theirs"
    first = poll_json(
        http,
        f"/api/matches/{match_id}/legal-actions",
        lambda d: d["seat_to_act"] in (0, 1),
        timeout=30,
        headers=bearer(token0),
    )
    mine, theirs = first["seat_to_act"], 1 - first["seat_to_act"]
    token0, token1 = (token0, token1) if mine == 0 else (token1, token0)
    legal = wait_turn(http, match_id, token0, mine)
    decision, actions = legal["decision"], legal["actions"]
    url = f"/api/matches/{match_id}"
    before_obs = http.get(f"{url}/observation", headers=bearer(token0)).json()
    before = stored(rdb, match_id)
    forged = token0[:-4] + ("AAAA" if not token0.endswith("AAAA") else "BBBB")
    ok_body = {"decision": decision, "action": actions[0]}

    cases: list[tuple[str, dict[str, str], Any, int, str]] = [
        ("no token", {}, ok_body, 401, "unauthenticated"),
        ("forged token", bearer(forged), ok_body, 401, "unauthenticated"),
        ("player token, not a seat token", bearer(creator), ok_body, 401, "unauthenticated"),
        ("seat token of another match", bearer(other["seat_token"]), ok_body, 403, "forbidden"),
        ("other seat's token naming this seat", bearer(token1), {**ok_body, "seat": mine}, 403, "forbidden"),
        ("other seat's token, out of turn", bearer(token1), ok_body, 409, "failed_precondition"),
        ("malformed: decision not a number", bearer(token0), {"decision": "x", "action": "pass"}, 422, ""),
        ("malformed: no action", bearer(token0), {"decision": decision}, 422, "malformed_request"),
        ("malformed: unknown field", bearer(token0), {**ok_body, "extra": 1}, 422, "malformed_request"),
        ("stale decision", bearer(token0), {**ok_body, "decision": decision - 1}, 409, "failed_precondition"),
        ("future decision", bearer(token0), {**ok_body, "decision": decision + 5}, 409, "failed_precondition"),
        ("illegal action", bearer(token0), {"decision": decision, "action": "send 999 secret"}, 400, ""),
        ("not notation", bearer(token0), {"decision": decision, "action": "fly to the moon"}, 400, ""),
    ]
    for what, headers, body, status, code in cases:
        reply = http.post(f"{url}/act", json=body, headers=headers)
        assert reply.status_code == status, (what, reply.text)
        error = reply.json()["error"]
        assert error["status"] == status and (not code or error["code"] == code), (what, error)
        if status == 400:
            assert error["legal_actions"] == actions, (what, error)
        assert stored(rdb, match_id) == before, what
    raw = http.post(f"{url}/act", content=b"{not json", headers={**bearer(token0), "content-type": "application/json"})
    assert raw.status_code == 422 and raw.json()["error"]["code"] == "malformed_request"

    # a seat token sees only its own seat
    assert http.get(f"{url}/observation", params={"seat": theirs}, headers=bearer(token0)).status_code == 403
    seen = http.get(f"{url}/observation", headers=bearer(token1)).json()
    assert seen["viewer"] == theirs and seen["seats"][mine]["hand"] == [] and seen["seats"][theirs]["hand"]
    assert http.get(f"{url}/replay").status_code == 409  # not over: a replay would reveal hands
    after_obs = http.get(f"{url}/observation", headers=bearer(token0)).json()
    assert after_obs == before_obs

    # the right action is applied once; the same request again is a duplicate
    done = http.post(f"{url}/act", json=ok_body, headers=bearer(token0))
    assert done.status_code == 200, done.text
    assert stored(rdb, match_id)[0] > before[0]
    again = http.post(f"{url}/act", json=ok_body, headers=bearer(token0))
    assert again.status_code == 409 and again.json()["error"]["code"] == "failed_precondition"
    history = stub.GetReplay(es.GetReplayRequest(match_id=match_id)).actions
    assert [(a.seat, a.action) for a in history if a.decision == decision] == [(mine, actions[0])]


def test_a_human_seat_plays_through_rest_and_websocket(
    http: httpx.Client, gateway: ServiceProcess, stub: es_grpc.EngineServiceStub
) -> None:
    token = guest(http, "cora")
    created = http.post(
        "/api/matches", json={"players": 5, "humans": 1, "bot": "random", "seed": 99}, headers=bearer(token)
    ).json()
    match_id, seat_token, seat = created["match_id"], created["seat_token"], created["seat"]
    rng = random.Random(5)

    # two decisions through REST
    for _ in range(2):
        legal = wait_turn(http, match_id, seat_token, seat)
        reply = http.post(
            f"/api/matches/{match_id}/act",
            json={"decision": legal["decision"], "action": rng.choice(legal["actions"])},
            headers=bearer(seat_token),
        )
        assert reply.status_code == 200, reply.text

    # the rest through the WebSocket
    ws_url = f"ws://{gateway.address}/ws/matches/{match_id}?token={seat_token}"
    prompts = results = 0
    outcome: dict[str, Any] | None = None
    with connect(ws_url, open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello == {"type": "hello", "match_id": match_id, "seat": seat}
        observation = json.loads(ws.recv(timeout=10))["observation"]
        assert observation["viewer"] == seat
        assert all(s["hand"] == [] for s in observation["seats"] if s["seat"] != seat)
        if observation["outcome"]["over"]:
            outcome = observation["outcome"]
        while outcome is None:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "prompt":
                prompts += 1
                ws.send(json.dumps({"decision": message["decision"], "action": rng.choice(message["legal_actions"])}))
            elif message["type"] == "result":
                results += 1
            elif message["type"] == "event":
                audience = message["event"]["audience"]
                assert not audience or seat in audience, message
            elif message["type"] == "error":
                # a prompt can go stale if a timer fired; nothing else may fail
                assert message["error"]["status"] == 409, message
            elif message["type"] == "game_over":
                outcome = message["outcome"]
    assert outcome is not None and outcome["over"] and outcome["winners"]
    assert results <= prompts
    replay = replay_reproduces(http, stub, match_id)
    human_moves = [a for a in replay["actions"] if a["seat"] == seat]
    assert len(human_moves) == results + 2


def test_a_spectator_sees_public_events_only(http: httpx.Client, gateway: ServiceProcess) -> None:
    created = http.post("/api/matches", json={"players": 4, "humans": 0, "bot": "random", "seed": 12}).json()
    match_id = created["match_id"]
    events = 0
    with connect(f"ws://{gateway.address}/ws/matches/{match_id}/spectate", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["seat"] == -1
        observation = json.loads(ws.recv(timeout=10))["observation"]
        assert all(s["hand"] == [] for s in observation["seats"])
        while True:
            message = json.loads(ws.recv(timeout=60))
            assert message["type"] in ("event", "game_over"), message
            if message["type"] == "game_over":
                break
            events += 1
            audience = message["event"]["audience"]
            assert not audience or -1 in audience, message  # public, or explicitly shown to spectators
    assert events > 0
