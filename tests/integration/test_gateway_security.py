"""Hidden information at the gateway (issue 11, branch gatehard): seeds, seats, ranked ids,
bad input. The gateway runs in-process (Starlette's TestClient) against the real engine
server and a real Redis; ranked matchmaking runs against the same engine.

Each test names the finding it holds (docs/security/gatehard.md).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis
from fastapi.testclient import TestClient
from helpers.processes import ServiceProcess

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from gateway.app import create_app
from gateway.auth import Player
from gateway.store import RedisStore
from services.ranked import matchmaking
from services.ranked.matchmaking import Schedule, tick
from services.ranked.store import RankedStore

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


@pytest.fixture(scope="module")
def gw(engine: ServiceProcess, redis_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(engine.address, "security-secret", redis_url=redis_url)) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(gw: TestClient, name: str) -> str:
    reply = gw.post("/api/guests", json={"name": name})
    assert reply.status_code == 201, reply.text
    token: str = reply.json()["token"]
    return token


def dealt_seed(stub: es_grpc.EngineServiceStub, match_id: str) -> int:
    """The seed the engine dealt with (a trusted read: GetReplay)."""
    return int(stub.GetReplay(es.GetReplayRequest(match_id=match_id)).settings.seed)


def error_of(reply: Any) -> dict[str, Any]:
    body: dict[str, Any] = reply.json()["error"]
    return body


#: a stream position after every event: a socket opened there streams nothing more, so the
#: test can close it without racing the server's sends
LATER = "9999999999999-0"


def first_messages(gw: TestClient, path: str) -> list[str]:
    """What a socket sends when it opens (``hello``, ``observation``, and a ``prompt`` when
    its seat must act), as text."""
    with gw.websocket_connect(f"{path}{'&' if '?' in path else '?'}from={LATER}") as ws:
        hello, observation = ws.receive_json(), ws.receive_json()
        messages = [hello, observation]
        if observation["observation"]["pending"]["seat"] == hello["seat"] >= 0:
            messages.append(ws.receive_json())
            assert messages[-1]["type"] == "prompt", messages
    return [str(m) for m in messages]


# ---- seeds (critical: a client-chosen seed, published) -------------------------------------


def test_server_deals_a_csprng_seed_and_never_shows_it(gw: TestClient, stub: es_grpc.EngineServiceStub) -> None:
    ann, ben = guest(gw, "ann"), guest(gw, "ben")
    created = gw.post("/api/matches", json={"players": 5, "humans": 2}, headers=bearer(ann))
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    joined = gw.post(f"/api/matches/{match_id}/join", headers=bearer(ben))
    assert joined.status_code == 200, joined.text
    seat_tokens = [created.json()["seat_token"], joined.json()["seat_token"]]

    seed = dealt_seed(stub, match_id)
    other = gw.post("/api/matches", json={"players": 5, "humans": 2}, headers=bearer(ann)).json()["match_id"]
    assert seed != 0 and dealt_seed(stub, other) not in (0, seed)  # drawn afresh, never "0 = fixed"

    readable: list[str] = [created.text, joined.text]
    info = gw.get(f"/api/matches/{match_id}")
    assert info.status_code == 200 and "seed" not in info.json()["settings"], info.text
    listed = gw.get("/api/matches", params={"limit": 100})
    mine = [m for m in listed.json()["matches"] if m["match_id"] == match_id]
    assert mine and "seed" not in mine[0]["settings"]
    readable += [info.text, listed.text, gw.get("/api/matches", params={"live": True}).text]
    for token in seat_tokens:
        for path in ("observation?events=true", "legal-actions"):
            reply = gw.get(f"/api/matches/{match_id}/{path}", headers=bearer(token))
            assert reply.status_code == 200, reply.text
            readable.append(reply.text)
        readable += first_messages(gw, f"/ws/matches/{match_id}?token={token}")
    readable += first_messages(gw, f"/ws/matches/{match_id}/spectate")
    for path in ("replay", "replay/steps"):  # an unfinished match's replay would show it
        reply = gw.get(f"/api/matches/{match_id}/{path}")
        assert reply.status_code == 409, reply.text
        readable.append(reply.text)
    leaked = [text[:200] for text in readable if str(seed) in text]
    assert not leaked


def test_chosen_seed_only_for_a_practice_match_of_its_creator(gw: TestClient, stub: es_grpc.EngineServiceStub) -> None:
    ann = guest(gw, "ann")
    refused = [
        ({"players": 5, "humans": 2, "seed": 424242}, bearer(ann)),  # the reproduction: a second guest joins
        ({"players": 3, "humans": 1, "seed": 424242}, {}),  # no creator seat: anyone may take it
        ({"seats": ["human", "external", "random"], "seed": 424242}, bearer(ann)),  # an outside bot's seat
        ({"seats": ["external", "random", "random"], "seed": 424242}, bearer(ann)),
    ]
    for body, headers in refused:
        reply = gw.post("/api/matches", json=body, headers=headers)
        assert reply.status_code == 422, (body, reply.text)
        assert error_of(reply)["code"] == "malformed_request" and "seed" in error_of(reply)["message"]

    practice = gw.post("/api/matches", json={"players": 3, "humans": 1, "seed": 424242}, headers=bearer(ann))
    assert practice.status_code == 201, practice.text
    match_id = practice.json()["match_id"]
    assert dealt_seed(stub, match_id) == 424242  # the creator's own deal...
    info = gw.get(f"/api/matches/{match_id}")
    assert "seed" not in info.json()["settings"] and "424242" not in info.text  # ...shown to no one
    bots = gw.post("/api/matches", json={"players": 3, "humans": 0, "bot": "random", "seed": 4242})
    assert bots.status_code == 201, bots.text  # no seat anyone can take: a chosen deal hurts no one


def test_the_gateways_record_never_holds_the_seed(gw: TestClient, redis_url: str) -> None:
    """The seed is stored by the engine only: the gateway's own record of a match (what the
    lobby and ``GET /api/matches/{id}`` read) holds none, even of a creator's chosen deal."""
    ann = guest(gw, "ann")
    made = gw.post("/api/matches", json={"players": 3, "humans": 1, "seed": 987654321987}, headers=bearer(ann))
    assert made.status_code == 201, made.text
    rdb = redis.Redis.from_url(redis_url)
    try:
        raw = rdb.get(f"gw:{{{made.json()['match_id']}}}:match")
        assert raw is not None
        record = json.loads(raw)
        assert "seed" not in record["settings"] and b"987654321987" not in raw, record
    finally:
        rdb.close()


# ---- ranked ids (medium: pre-created rk- ids) -----------------------------------------------


def test_clients_cannot_choose_match_ids(gw: TestClient, stub: es_grpc.EngineServiceStub) -> None:
    ann = guest(gw, "ann")
    for match_id in ("rk-0123456789abcd", "my-own-id"):
        body = {"players": 3, "humans": 1, "match_id": match_id}
        reply = gw.post("/api/matches", json=body, headers=bearer(ann))
        assert reply.status_code == 422, reply.text
        assert any(d["loc"][-1] == "match_id" for d in error_of(reply)["details"])
        with pytest.raises(grpc.RpcError) as gone:
            stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=-1))
        assert gone.value.code() == grpc.StatusCode.NOT_FOUND


@pytest.fixture()
def ranked_store(redis_url: str) -> Iterator[RankedStore]:
    client = redis.Redis.from_url(re.sub(r"/\d*$", "", redis_url) + "/9")
    client.flushdb()
    yield RankedStore(client)
    client.flushdb()
    client.close()


def test_matchmaking_never_seats_players_in_a_squatted_id(
    ranked_store: RankedStore,
    engine: ServiceProcess,
    stub: es_grpc.EngineServiceStub,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from services.ranked.tasks import create_match

    monkeypatch.setenv("FENGSHENG_ENGINE_ADDR", engine.address)
    squatted, fresh = "rk-5a5a5a5a5a5a5a", "rk-f0f0f0f0f0f0f0"
    # the squatter's match: their own seed, every seat human
    settings = es.MatchSettings(players=3, seed=424242, seats=[es.HUMAN] * 3)
    stub.CreateMatch(es.CreateMatchRequest(settings=settings, match_id=squatted))
    ids = iter([squatted, fresh])
    monkeypatch.setattr(matchmaking, "new_match_id", lambda: next(ids))
    for i in range(3):
        ranked_store.join(f"h:g_{i}", f"p{i}", bot=False, rating=25.0, min_players=3, max_players=3, now_ms=0)

    result = tick(ranked_store, create_match, Schedule(window_base=50, fill_after_ms=0, turn_timeout_ms=0))

    assert list(result["formed"]) == [fresh], result
    assert ranked_store.match(squatted) is None
    for tid in result["formed"][fresh]:
        ticket = ranked_store.ticket(tid)
        assert ticket is not None and ticket["state"] == "matched" and ticket["match_id"] == fresh
    assert dealt_seed(stub, fresh) not in (0, 424242)
    assert dealt_seed(stub, squatted) == 424242  # the squatter's match is left as it was, unseated


# ---- bad input (low: findings 10, 11, 12, 14; bot_delay_ms) ---------------------------------


def test_oversized_numbers_and_names_are_4xx(gw: TestClient) -> None:
    ann = guest(gw, "ann")
    created = gw.post("/api/matches", json={"players": 3, "humans": 1}, headers=bearer(ann)).json()
    match_id, token = created["match_id"], created["seat_token"]
    for body in (
        {"decision": 2**63, "action": "pass"},
        {"decision": 10**30, "action": "pass"},
        {"decision": 1, "action": "pass", "seat": 2**63},
    ):
        reply = gw.post(f"/api/matches/{match_id}/act", json=body, headers=bearer(token))
        assert reply.status_code == 422 and error_of(reply)["code"] == "malformed_request", reply.text
    with gw.websocket_connect(f"/ws/matches/{match_id}?token={token}&from={LATER}") as ws:
        ws.receive_json()
        ws.receive_json()
        ws.send_json({"decision": 2**63, "action": "pass"})
        while (message := ws.receive_json())["type"] in ("prompt", "event"):
            pass
        assert message["type"] == "error" and message["error"]["status"] == 422, message

    reply = gw.get("/api/cards", params={"ruleset": "x" * 5000})
    assert reply.status_code == 422 and error_of(reply)["code"] == "malformed_request", reply.text
    assert gw.get("/api/cards", params={"ruleset": "nosuchedition"}).status_code == 404
    assert gw.get("/api/cards").status_code == 200


def test_bot_delay_is_capped_at_the_api_and_in_the_service(gw: TestClient, stub: es_grpc.EngineServiceStub) -> None:
    body = {"players": 3, "humans": 0, "bot": "random"}
    reply = gw.post("/api/matches", json={**body, "bot_delay_ms": 30000})
    assert reply.status_code == 422 and any(d["loc"][-1] == "bot_delay_ms" for d in error_of(reply)["details"])
    assert gw.post("/api/matches", json={**body, "bot_delay_ms": 5010}).status_code == 422
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=3, bot_delay_ms=30000)))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "bot_delay_ms" in str(refused.value.details())
    with pytest.raises(grpc.RpcError) as negative:
        stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=3, bot_delay_ms=-1)))
    assert negative.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    body = {"players": 3, "humans": 1, "bot_delay_ms": 5000}
    reply = gw.post("/api/matches", json=body, headers=bearer(guest(gw, "a")))
    assert reply.status_code == 201, reply.text


def test_a_blank_bearer_does_not_read_another_players_ticket(gw: TestClient) -> None:
    ann, ben = guest(gw, "ann"), guest(gw, "ben")
    queued = gw.post("/api/ranked/queue", json={"min_players": 7}, headers=bearer(ann))
    assert queued.status_code == 201, queued.text
    ticket_id = queued.json()["ticket_id"]
    try:
        for headers, params in (
            ({"Authorization": "Bearer \u00a0".encode("latin-1")}, {}),  # one non-breaking space
            ({"Authorization": "Bearer \u00a0".encode()}, {}),  # the same, sent as UTF-8
            ({"Authorization": b"Bearer  \t "}, {}),
            ({}, {"token": " "}),
        ):
            reply = gw.get(f"/api/ranked/queue/{ticket_id}", headers=headers, params=params)
            assert reply.status_code == 401, reply.text
            assert "ann" not in reply.text and "holder" not in reply.text
            assert gw.delete(f"/api/ranked/queue/{ticket_id}", headers=headers, params=params).status_code == 401
        assert gw.get(f"/api/ranked/queue/{ticket_id}", headers=bearer(ben)).status_code == 403
        assert gw.get(f"/api/ranked/queue/{ticket_id}", headers=bearer(ann)).json()["state"] == "queued"
    finally:
        gw.delete(f"/api/ranked/queue/{ticket_id}", headers=bearer(ann))


def test_one_seat_per_guest_per_match(gw: TestClient) -> None:
    ann, ben = guest(gw, "ann"), guest(gw, "ben")
    created = gw.post("/api/matches", json={"seats": ["human", "human", "external", "random"]}, headers=bearer(ann))
    match_id = created.json()["match_id"]
    assert created.json()["seat"] == 0
    for seat in (1, 2):  # the reproduction: the creator asks for a second hand
        reply = gw.post(f"/api/matches/{match_id}/join", json={"seat": seat}, headers=bearer(ann))
        assert reply.status_code == 409 and "one seat" in error_of(reply)["message"], reply.text
    again = gw.post(f"/api/matches/{match_id}/join", headers=bearer(ann))
    assert again.status_code == 200 and again.json()["seat"] == 0  # rejoining gives the same seat
    assert gw.post(f"/api/matches/{match_id}/join", json={"seat": 0}, headers=bearer(ann)).json()["seat"] == 0
    joined = gw.post(f"/api/matches/{match_id}/join", json={"seat": 1}, headers=bearer(ben))
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert gw.post(f"/api/matches/{match_id}/join", json={"seat": 2}, headers=bearer(ben)).status_code == 409
    claims = gw.get(f"/api/matches/{match_id}").json()["seats"]
    assert [s["player"] for s in claims] == ["ann", "ben", None, None]


def test_concurrent_claims_give_a_guest_one_seat(redis_url: str) -> None:
    """The one-seat rule holds when one guest races for several seats (one Lua script)."""

    async def race() -> list[bool]:
        store = RedisStore(redis_url)
        try:
            player = Player(pid="g_racer", name="racer")
            match_id = "race-" + str(id(store))
            return list(await asyncio.gather(*(store.claim(match_id, seat, player) for seat in range(7))))
        finally:
            await store.close()

    for _ in range(5):
        assert sorted(asyncio.run(race())) == [False] * 6 + [True]
