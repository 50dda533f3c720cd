"""Upgrading a one-node deployment to the hash-tagged key layout loses nothing (issue 15,
point 1): bot accounts written as ``bot:ID``, ``bot:tok:HASH``… and a running match's seat
table and chat written as ``gw:claims:ID``, ``gw:chat:ID:CHANNEL``… are renamed when the
engine and the gateway start (services/key_migration.py), so every bot still authenticates
by its token and every seat claim and chat line still holds. A real Redis (its own), a real
engine and gateway, started before and after the keys are put back in the old layout."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
from helpers.gateway_procs import guest_bearer, register_bot, start_gateway
from helpers.processes import start_engine_server

from gateway.keys import MIGRATED_KEY as GW_MIGRATED
from services.ranked.store import BOT_KEYS_MIGRATED_KEY, BOT_PREFIX
from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _to_old_layout(rdb: redis.Redis) -> int:
    """Put every ranked/gateway key back under its name of the untagged layout (what a
    deployment of the previous release holds) and drop the migration markers."""
    rdb.delete(BOT_KEYS_MIGRATED_KEY, GW_MIGRATED)
    n = 0
    for raw in list(rdb.scan_iter(match="bot:{bot}:*")):
        key = raw.decode()
        rdb.rename(key, "bot:" + key[len(BOT_PREFIX) :])
        n += 1
    for raw in list(rdb.scan_iter(match="gw:{*}:*")):
        key = raw.decode()
        match_id, _, rest = key[len("gw:{") :].partition("}:")
        part, _, channel = rest.partition(":")
        old = f"gw:chat:{match_id}:{channel}" if part == "chat" else f"gw:{part}:{match_id}"
        rdb.rename(key, old)
        n += 1
    return n


def _old_release_bot(rdb: redis.Redis, bot_id: str, name: str, token: str, owner: str) -> None:
    """A bot account exactly as the previous release's ``register_bot`` wrote it."""
    digest = hashlib.sha256(token.encode()).hexdigest()
    ttl = 30 * 24 * 3600
    rdb.set("bot:name:" + hashlib.sha256(name.strip().casefold().encode()).hexdigest(), bot_id, ex=ttl)
    rdb.hset(f"bot:{bot_id}", mapping={"name": name, "owner": owner, "created": int(time.time())})
    rdb.expire(f"bot:{bot_id}", ttl)
    rdb.set(f"bot:tok:{digest}", bot_id, ex=ttl)
    rdb.hsetnx(f"bot:toks:{bot_id}", digest[:16], json.dumps({"h": digest, "created": int(time.time() * 1000)}))
    rdb.expire(f"bot:toks:{bot_id}", ttl)
    rdb.sadd(f"bot:owned:{owner}", bot_id)


@pytest.fixture(scope="module")
def server() -> Iterator[RedisServer]:
    with RedisServer() as s:
        yield s


def test_accounts_seats_and_chat_survive_the_upgrade(server: RedisServer, tmp_path: Path) -> None:
    rdb = redis.Redis.from_url(server.url)
    engine = start_engine_server(server.url, tmp_path)
    gateway = start_gateway(engine.address, tmp_path, redis_url=server.url, bot_address=engine.extra["bot_address"])
    try:
        with httpx.Client(base_url=gateway.extra["url"], timeout=20) as http:
            ann, bo, cy = (http.post("/api/guests", json={"name": n}).json()["token"] for n in ("ann", "bo", "cy"))
            made = http.post("/api/matches", json={"players": 3, "seats": ["human", "human", "random"]},
                             headers=bearer(ann))  # fmt: skip
            assert made.status_code == 201, made.text
            match_id, ann_seat = made.json()["match_id"], made.json()["seat_token"]
            joined = http.post(f"/api/matches/{match_id}/join", headers=bearer(bo))
            assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text
            said = http.post(f"/api/matches/{match_id}/chat", json={"text": "before the upgrade"},
                             headers=bearer(ann_seat))  # fmt: skip
            assert said.status_code == 201, said.text
            bots = [register_bot(http, f"upgraded {k}") for k in range(3)]
            assert all("token" in b for b in bots), bots
    finally:
        gateway.stop()
        engine.stop()

    assert _to_old_layout(rdb) >= 3 * 4 + 3 + 2  # accounts (4 keys each), seats, chat
    _old_release_bot(rdb, "b_0123456789ab", "Old Timer", "fsb_old-release-token", owner="p-gone")
    assert not rdb.keys("bot:{bot}:*") and not rdb.keys("gw:{*")

    engine = start_engine_server(server.url, tmp_path)
    gateway = start_gateway(engine.address, tmp_path, redis_url=server.url, bot_address=engine.extra["bot_address"])
    try:
        with httpx.Client(base_url=gateway.extra["url"], timeout=20) as http:
            # every bot authenticates by its token (listed with its live token)
            for bot in [*bots, {"bot_id": "b_0123456789ab", "name": "Old Timer", "token": "fsb_old-release-token"}]:
                listed = http.get("/api/bots", headers=bearer(bot["token"]))
                assert listed.status_code == 200, (bot, listed.text)
                (account,) = listed.json()["bots"]
                assert account["bot_id"] == bot["bot_id"] and len(account["tokens"]) == 1, account
            # names stay claimed
            me = guest_bearer(http)
            assert http.post("/api/bots", json={"name": "OLD TIMER"}, headers=me).status_code == 409
            assert http.post("/api/bots", json={"name": "upgraded 0"}, headers=me).status_code == 409
            # the seat table holds: ann and bo keep their seats, nobody else gets one
            info = http.get(f"/api/matches/{match_id}").json()
            assert [s["player"] for s in info["seats"]] == ["ann", "bo", None], info
            again = http.post(f"/api/matches/{match_id}/join", headers=bearer(ann))
            assert again.status_code == 200 and again.json()["seat"] == 0, again.text
            assert http.post(f"/api/matches/{match_id}/join", headers=bearer(cy)).status_code == 409
            # ... the chat too, and its counter goes on
            read = http.get(f"/api/matches/{match_id}/chat", headers=bearer(ann_seat)).json()["messages"]
            assert [m["text"] for m in read] == ["before the upgrade"]
            more = http.post(f"/api/matches/{match_id}/chat", json={"text": "after"}, headers=bearer(ann_seat))
            assert more.json()["id"] == read[0]["id"] + 1
        assert rdb.exists(BOT_KEYS_MIGRATED_KEY) and rdb.exists(GW_MIGRATED)
        leftovers = [k for k in rdb.scan_iter(match="bot:*") if not k.startswith(BOT_PREFIX.encode())]
        assert leftovers == [] and not rdb.keys("gw:claims:*") and not rdb.keys("gw:chat:*")
    finally:
        gateway.stop()
        engine.stop()
        rdb.close()
