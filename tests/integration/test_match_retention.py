"""Matches expire (issue 11, finding 13): an unfinished match's keys at the engine and its
record at the gateway live ``FENGSHENG_MATCH_IDLE_TTL_MS`` after the last activity, a
finished one ``FENGSHENG_MATCH_FINISHED_TTL_MS``; an expired match is a clean 404 at both.

A real engine server (its own Redis database, short lifetimes from the environment) and the
gateway in-process (TestClient) with the same lifetimes.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Iterator

import pytest
import redis
from fastapi.testclient import TestClient
from helpers.processes import ServiceProcess, start_engine_server
from starlette.websockets import WebSocketDisconnect

from fengsheng.retention import Retention
from fengsheng.v1 import engine_service_pb2 as es
from gateway.app import create_app
from services.engine.matches import MatchService
from services.engine.store import MatchStore, events_key, history_key, state_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

IDLE_S = 6
FINISHED_S = 40
TTL_ENV = {"FENGSHENG_MATCH_IDLE_TTL_MS": str(IDLE_S * 1000), "FENGSHENG_MATCH_FINISHED_TTL_MS": str(FINISHED_S * 1000)}


def _db(redis_url: str, db: int) -> str:
    return re.sub(r"/\d*$", "", redis_url) + f"/{db}"


@pytest.fixture(scope="module")
def url(redis_url: str) -> Iterator[str]:
    url = _db(redis_url, 11)
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


@pytest.fixture(scope="module")
def short_engine(url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    proc = start_engine_server(url, tmp_path_factory.mktemp("retention"), celery=False, env=TTL_ENV)
    yield proc
    proc.stop()


@pytest.fixture()
def gw(short_engine: ServiceProcess, url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    for name, value in TTL_ENV.items():
        monkeypatch.setenv(name, value)
    with TestClient(create_app(short_engine.address, "retention-secret", redis_url=url)) as client:
        yield client


@pytest.fixture()
def rdb(url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(url)
    yield client
    client.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def engine_keys(match_id: str) -> list[str]:
    return [state_key(match_id), history_key(match_id), events_key(match_id)]


def gateway_keys(match_id: str) -> list[str]:
    tag = f"gw:{{{match_id}}}"
    chat = [f"{tag}:chat:table", f"{tag}:chat:spectators", f"{tag}:chatseq"]
    return [f"{tag}:match", f"{tag}:claims", f"{tag}:players", *chat]


def human_match(gw: TestClient) -> tuple[str, dict[int, str]]:
    """A match of three human seats, each claimed by its own guest: (id, seat tokens)."""
    tokens: dict[int, str] = {}
    for i in range(3):
        token = gw.post("/api/guests", json={"name": f"p{i}"}).json()["token"]
        if i == 0:
            created = gw.post("/api/matches", json={"players": 3, "humans": 3}, headers=bearer(token)).json()
            match_id = created["match_id"]
            tokens[created["seat"]] = created["seat_token"]
        else:
            joined = gw.post(f"/api/matches/{match_id}/join", headers=bearer(token)).json()
            tokens[joined["seat"]] = joined["seat_token"]
    return match_id, tokens


def act_once(gw: TestClient, match_id: str, tokens: dict[int, str]) -> None:
    legal = gw.get(f"/api/matches/{match_id}/legal-actions", headers=bearer(tokens[0])).json()
    seat = legal["seat_to_act"]
    legal = gw.get(f"/api/matches/{match_id}/legal-actions", headers=bearer(tokens[seat])).json()
    body = {"decision": legal["decision"], "action": legal["actions"][0]}
    reply = gw.post(f"/api/matches/{match_id}/act", json=body, headers=bearer(tokens[seat]))
    assert reply.status_code == 200, reply.text


def test_idle_matches_expire_at_the_engine_and_the_gateway_together(gw: TestClient, rdb: redis.Redis) -> None:
    match_id, tokens = human_match(gw)
    untouched, _ = human_match(gw)  # never read again: its records go by their own TTL
    # both chat channels are kept with the match and go with it (gateway/chat.py)
    watcher = gw.post("/api/guests", json={"name": "rail"}).json()["token"]
    chat = f"/api/matches/{match_id}/chat"
    assert gw.post(chat, json={"text": "hi"}, headers=bearer(tokens[0])).status_code == 201
    assert gw.post(chat, json={"channel": "spectators", "text": "go"}, headers=bearer(watcher)).status_code == 201
    for key in engine_keys(match_id)[::2] + gateway_keys(match_id):
        assert 0 < rdb.pttl(key) <= IDLE_S * 1000, key

    time.sleep(IDLE_S / 2)
    act_once(gw, match_id, tokens)  # an action renews the engine's keys and the gateway's
    for key in engine_keys(match_id) + gateway_keys(match_id):
        assert IDLE_S * 1000 * 0.6 < rdb.pttl(key) <= IDLE_S * 1000, key
    time.sleep(1)
    assert gw.get(f"/api/matches/{match_id}").status_code == 200  # so does a read at the gateway
    for key in gateway_keys(match_id):
        assert IDLE_S * 1000 * 0.8 < rdb.pttl(key) <= IDLE_S * 1000, key
    assert 0 < rdb.pttl(state_key(untouched)) < IDLE_S * 1000 * 0.5

    with gw.websocket_connect(f"/ws/matches/{match_id}/spectate") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.receive_json()
        time.sleep(IDLE_S + 0.5)
        # the watcher learns that the match is gone instead of waiting forever
        while (message := ws.receive_json())["type"] in ("event", "observation"):  # what came so far first
            pass
        assert message["type"] == "error" and message["error"]["status"] == 404, message
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()

    for mid in (match_id, untouched):
        assert not any(rdb.exists(key) for key in engine_keys(mid)), mid
    assert not any(rdb.exists(key) for key in gateway_keys(untouched))
    reply = gw.get(f"/api/matches/{match_id}")
    assert reply.status_code == 404 and reply.json()["error"]["code"] == "not_found", reply.text
    assert not any(rdb.exists(key) for key in gateway_keys(match_id))  # forgotten on the 404
    guest = gw.post("/api/guests", json={"name": "late"}).json()["token"]
    for mid in (match_id, untouched):
        assert gw.post(f"/api/matches/{mid}/join", headers=bearer(guest)).status_code == 404
    assert gw.get(f"/api/matches/{match_id}/observation", headers=bearer(tokens[0])).status_code == 404
    listed = [m["match_id"] for m in gw.get("/api/matches", params={"limit": 100}).json()["matches"]]
    assert match_id not in listed and untouched not in listed
    assert rdb.zscore("gw:recent", match_id) is None and rdb.zscore("gw:recent", untouched) is None


def test_a_finished_match_keeps_the_finished_lifetime(url: str, rdb: redis.Redis) -> None:
    async def play() -> tuple[str, list[int]]:
        service = MatchService(MatchStore.from_url(url, retention=Retention(idle_s=IDLE_S, finished_s=FINISHED_S)))
        try:
            match_id, pending = await service.create_match(es.MatchSettings(players=3))
            idle = [rdb.pttl(state_key(match_id)), rdb.pttl(events_key(match_id))]
            assert all(0 < ttl <= IDLE_S * 1000 for ttl in idle), idle
            rng = random.Random(11)
            for _ in range(5000):
                legal = await service.legal_actions(match_id, pending.seat)
                result = await service.act(match_id, pending.seat, legal.decision, rng.choice(list(legal.actions)))
                if result.outcome is not None:
                    break
                pending = result.pending
            else:
                raise AssertionError("the game did not end")
            return match_id, [rdb.pttl(key) for key in engine_keys(match_id)]
        finally:
            await service.close()
            await service.store.close()

    match_id, ttls = asyncio.run(play())
    assert all((FINISHED_S - 10) * 1000 < ttl <= FINISHED_S * 1000 for ttl in ttls), ttls
    time.sleep(IDLE_S + 0.5)  # past the idle lifetime: a finished match (and its replay) stays
    assert all(rdb.exists(key) for key in engine_keys(match_id))


def test_retention_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_MATCH_IDLE_TTL_MS", "90000")
    monkeypatch.setenv("FENGSHENG_MATCH_FINISHED_TTL_MS", "")
    assert Retention.from_env() == Retention(idle_s=90, finished_s=7 * 24 * 3600)
    monkeypatch.setenv("FENGSHENG_MATCH_IDLE_TTL_MS", "0")
    with pytest.raises(ValueError, match="FENGSHENG_MATCH_IDLE_TTL_MS"):
        Retention.from_env()
    monkeypatch.setenv("FENGSHENG_MATCH_IDLE_TTL_MS", "90000")
    monkeypatch.setenv("FENGSHENG_MATCH_IDLE_TTL_S", "90")  # the older name: refused, not ignored
    with pytest.raises(ValueError, match="FENGSHENG_MATCH_IDLE_TTL_S is no longer read"):
        Retention.from_env()
