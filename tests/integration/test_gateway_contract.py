"""The gateway's HTTP contract against a toy engine served over real gRPC.

These tests pin the gateway's own behaviour (tokens, error mapping, WebSocket messages)
with :mod:`helpers.gateway_fake_engine`; the same contract against the real engine
service, Redis and Celery workers is in ``test_gateway_match.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from fastapi.testclient import TestClient
from helpers.gateway_fake_engine import FakeEngine, start_fake_engine

from gateway.app import create_app

pytestmark = pytest.mark.integration


@pytest.fixture()
def fake() -> Iterator[tuple[str, FakeEngine]]:
    server, address, servicer = start_fake_engine(length=8)
    try:
        yield address, servicer
    finally:
        server.stop(0)


@pytest.fixture()
def client(fake: tuple[str, FakeEngine]) -> Iterator[TestClient]:
    with TestClient(create_app(fake[0], "test-secret")) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_match(client: TestClient, **body: Any) -> tuple[str, str, dict[str, Any]]:
    guest = client.post("/api/guests", json={"name": "ada"}).json()
    created = client.post("/api/matches", json={"players": 3, "humans": 1, **body}, headers=bearer(guest["token"]))
    assert created.status_code == 201, created.text
    data = created.json()
    return data["match_id"], data["seat_token"], data


def test_health_metrics_and_docs(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "engine": "SERVING", "store": "ok"}
    assert client.get("/docs").status_code == 200
    assert "/api/matches/{match_id}/act" in client.get("/openapi.json").json()["paths"]
    client.get("/api/matches/nope")
    text = client.get("/metrics").text
    assert "fengsheng_gateway_requests_total" in text
    assert "fengsheng_gateway_engine_call_seconds" in text


def test_guest_creates_and_plays_a_seat(client: TestClient) -> None:
    match_id, token, data = new_match(client)
    assert data["seat"] == 0
    assert [s["kind"] for s in data["seats"]] == ["human", "heuristic", "heuristic"]
    obs = client.get(f"/api/matches/{match_id}/observation", headers=bearer(token)).json()
    assert obs["viewer"] == 0 and obs["seats"][0]["hand"] == [1, 2] and obs["seats"][1]["hand"] == []
    legal = client.get(f"/api/matches/{match_id}/legal-actions", params={"token": token}).json()
    assert legal["actions"] == ["pass", "declare"] and legal["seat_to_act"] == 0
    result = client.post(
        f"/api/matches/{match_id}/act", json={"decision": legal["decision"], "action": "pass"}, headers=bearer(token)
    )
    assert result.status_code == 200, result.text
    assert result.json()["pending"]["seat"] == 0


def test_errors_leave_the_match_unchanged(client: TestClient, fake: tuple[str, FakeEngine]) -> None:
    match_id, token, _ = new_match(client)
    url = f"/api/matches/{match_id}"
    before = client.get(f"{url}/observation", headers=bearer(token)).json()
    decision = before["pending"]["number"]

    cases: list[tuple[dict[str, str], Any, int, str]] = [
        ({}, {"decision": decision, "action": "pass"}, 401, "unauthenticated"),
        (bearer("garbage"), {"decision": decision, "action": "pass"}, 401, "unauthenticated"),
        (bearer(token[:-3] + "AAA"), {"decision": decision, "action": "pass"}, 401, "unauthenticated"),
        (bearer(token), {"decision": decision, "action": "pass", "seat": 1}, 403, "forbidden"),
        (bearer(token), {"decision": "x", "action": "pass"}, 422, "malformed_request"),
        (bearer(token), {"action": "pass"}, 422, "malformed_request"),
        (bearer(token), {"decision": decision - 1, "action": "pass"}, 409, "failed_precondition"),
        (bearer(token), {"decision": decision, "action": "fly away"}, 400, "invalid_argument"),
    ]
    for headers, body, status, code in cases:
        reply = client.post(f"{url}/act", json=body, headers=headers)
        assert reply.status_code == status, (body, reply.text)
        assert reply.json()["error"]["code"] == code
    illegal = client.post(f"{url}/act", json={"decision": decision, "action": "fly away"}, headers=bearer(token))
    assert illegal.json()["error"]["legal_actions"] == ["pass", "declare"]

    # a player token is not a seat token; a seat token of another match is forbidden here
    guest = client.post("/api/guests", json={"name": "bob"}).json()
    assert client.get(f"{url}/observation", headers=bearer(guest["token"])).status_code == 401
    _, other_token, _ = new_match(client)
    assert client.get(f"{url}/observation", headers=bearer(other_token)).status_code == 403
    assert client.get(f"{url}/observation", params={"seat": 1}, headers=bearer(token)).status_code == 403
    assert client.get("/api/matches/nope/observation", headers=bearer(token)).status_code == 403
    assert client.get("/api/matches/nope").status_code == 404
    for junk in ["é.é", ".", "a.b.c", token.split(".")[0]]:
        assert client.get(f"{url}/observation", params={"token": junk}).status_code == 401, junk

    after = client.get(f"{url}/observation", headers=bearer(token)).json()
    assert after == before
    assert fake[1].matches[match_id].actions == []  # nothing was applied


def test_join_claims_each_human_seat_once(client: TestClient) -> None:
    created = client.post("/api/matches", json={"players": 3, "humans": 2}).json()
    match_id = created["match_id"]
    a = client.post("/api/guests", json={"name": "a"}).json()["token"]
    b = client.post("/api/guests", json={"name": "b"}).json()["token"]
    c = client.post("/api/guests", json={"name": "c"}).json()["token"]
    ja = client.post(f"/api/matches/{match_id}/join", headers=bearer(a)).json()
    assert client.post(f"/api/matches/{match_id}/join", headers=bearer(a)).json()["seat"] == ja["seat"]
    jb = client.post(f"/api/matches/{match_id}/join", headers=bearer(b)).json()
    assert {ja["seat"], jb["seat"]} == {0, 1}
    assert client.post(f"/api/matches/{match_id}/join", headers=bearer(c)).status_code == 409
    assert client.post(f"/api/matches/{match_id}/join", json={"seat": 2}, headers=bearer(c)).status_code == 409
    assert client.post(f"/api/matches/{match_id}/join").status_code == 401
    info = client.get(f"/api/matches/{match_id}").json()
    assert [s["player"] for s in info["seats"]] == ["a", "b", None]
    assert info["observation"]["viewer"] == -1

    bots = client.post("/api/matches", json={"seats": ["random", "external", "heuristic"]}).json()
    assert client.post(f"/api/matches/{bots['match_id']}/join", json={"seat": 0}, headers=bearer(c)).status_code == 409
    external = client.post(f"/api/matches/{bots['match_id']}/join", headers=bearer(c)).json()
    assert external["seat"] == 1 and external["seat_token"]


def test_websocket_streams_prompts_and_accepts_actions(client: TestClient) -> None:
    match_id, token, _ = new_match(client)
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        assert ws.receive_json()["type"] == "hello"
        assert ws.receive_json()["observation"]["viewer"] == 0
        finished = False
        while not finished:
            message = ws.receive_json()
            if message["type"] == "prompt":
                ws.send_json({"decision": message["decision"], "action": message["legal_actions"][0]})
            elif message["type"] == "error":
                raise AssertionError(message)
            elif message["type"] == "game_over":
                finished = True
    replay = client.get(f"/api/matches/{match_id}/replay").json()
    assert len(replay["actions"]) == 8


def test_websocket_refuses_bad_tokens(client: TestClient) -> None:
    match_id, token, _ = new_match(client)
    other_id, _, _ = new_match(client)
    for url, code in [
        (f"/ws/matches/{match_id}?token=nope", 4401),
        (f"/ws/matches/{match_id}", 4401),
        (f"/ws/matches/{other_id}?token={token}", 4403),
    ]:
        with client.websocket_connect(url) as ws:
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(Exception) as info:
                ws.receive_json()
            assert getattr(info.value, "code", None) == code


def test_spectator_sees_public_events_only(client: TestClient) -> None:
    match_id, token, _ = new_match(client)
    with client.websocket_connect(f"/ws/matches/{match_id}/spectate") as ws:
        hello = ws.receive_json()
        assert hello.pop("server_ms") > 0  # every message of a match socket: the gateway's clock
        assert hello == {"type": "hello", "match_id": match_id, "seat": -1}
        obs = ws.receive_json()["observation"]
        assert all(s["hand"] == [] for s in obs["seats"])
        ws.send_json({"decision": 1, "action": "pass"})
        assert ws.receive_json()["error"]["code"] == "forbidden"
        client.post(f"/api/matches/{match_id}/act", json={"decision": 1, "action": "pass"}, headers=bearer(token))
        event = ws.receive_json()
        assert event["type"] == "event" and event["event"]["text"] == "0: pass"


def test_unknown_engine_is_unavailable() -> None:
    with TestClient(create_app("127.0.0.1:1", "s")) as c:
        reply = c.get("/healthz")
        assert reply.status_code == 503
        assert c.post("/api/matches", json={"humans": 0}).status_code == 503
        assert grpc.StatusCode.UNAVAILABLE.name.lower() == c.post("/api/matches", json={}).json()["error"]["code"]
