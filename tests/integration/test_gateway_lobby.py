"""The lobby through the real gateway (Redis, engine service, Celery worker): issue 28 §6.

Who is online (appears with a player token, expires when the lobby stops pinging, is
capped, names no match or seat), the lobby's chat under the table chat's limits (length,
rate, token, the last N lines, expiry) and an invitation sent to a player from the list
(docs/web-client.md, *Lobby*).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from helpers.gateway_procs import start_gateway
from helpers.processes import ServiceProcess
from websockets.sync.client import connect

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

TTL_MS = 1500
CAP = 3
KEEP = 5
ENV = {
    "FENGSHENG_LOBBY_ONLINE_TTL_MS": str(TTL_MS),
    "FENGSHENG_LOBBY_ONLINE_CAP": str(CAP),
    "FENGSHENG_LOBBY_CHAT_KEEP": str(KEEP),
    "FENGSHENG_LOBBY_CHAT_TTL_MS": "30000",
    "FENGSHENG_LOBBY_BURST": "5",
}
LOBBY_KEYS = ("gw:{lobby}:online", "gw:{lobby}:names", "gw:{lobby}:chat:lobby", "gw:{lobby}:chatseq")


@pytest.fixture(scope="module")
def http(
    redis_url: str, rdb: redis.Redis, engine: ServiceProcess, worker: ServiceProcess, proc_logs: Path
) -> Iterator[httpx.Client]:
    rdb.delete(*LOBBY_KEYS)  # the lobby is one per database: start from an empty one
    proc = start_gateway(engine.address, proc_logs, redis_url=redis_url, env=ENV)
    with httpx.Client(base_url=proc.extra["url"], timeout=10) as client:
        yield client
    proc.stop()


def guest(http: httpx.Client, name: str) -> dict[str, Any]:
    reply = http.post("/api/guests", json={"name": name})
    assert reply.status_code == 201, reply.text
    made: dict[str, Any] = reply.json()
    return made


def bearer(who: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {who['token']}"}


def test_who_is_online(http: httpx.Client, rdb: redis.Redis) -> None:
    ann, bo = guest(http, "ann"), guest(http, "bo")
    # no token, or a token that is no player token: not in the lobby
    assert http.post("/api/lobby/presence").status_code == 401
    assert http.get("/api/lobby/online").status_code == 401
    assert http.post("/api/lobby/presence", headers={"Authorization": "Bearer forged.x"}).status_code == 401

    seen = http.post("/api/lobby/presence", headers=bearer(ann))
    assert seen.status_code == 200, seen.text
    assert {"player_id": ann["player_id"], "name": "ann"} in seen.json()["players"]
    assert seen.json()["ttl_ms"] == TTL_MS and seen.json()["cap"] == CAP
    listed = http.get("/api/lobby/online", headers=bearer(bo)).json()
    assert [p["name"] for p in listed["players"]] == ["ann"]  # bo only reads: not on the list
    # each entry is a player id and a name, nothing about matches or seats
    assert all(set(p) == {"player_id", "name"} for p in listed["players"])

    # ann's lobby closes: off the list at once
    assert http.delete("/api/lobby/presence", headers=bearer(ann)).status_code == 200
    assert http.get("/api/lobby/online", headers=bearer(bo)).json()["players"] == []

    # bo stops pinging: gone after the lifetime (and pruned from Redis at the next ping)
    http.post("/api/lobby/presence", headers=bearer(bo))
    time.sleep(TTL_MS / 1000 + 0.3)
    cy = guest(http, "cy")
    after = http.post("/api/lobby/presence", headers=bearer(cy)).json()
    assert [p["name"] for p in after["players"]] == ["cy"] and after["count"] == 1, after
    assert rdb.zscore("gw:{lobby}:online", bo["player_id"]) is None
    assert not rdb.hexists("gw:{lobby}:names", bo["player_id"])
    assert 0 < rdb.pttl("gw:{lobby}:online") <= TTL_MS

    # capped: five online, the list shows the three heard from last, and says five
    more = [guest(http, f"p{i}") for i in range(4)]
    for p in more:
        assert http.post("/api/lobby/presence", headers=bearer(p)).status_code == 200
    full = http.get("/api/lobby/online", headers=bearer(cy)).json()
    assert full["count"] == 5 and len(full["players"]) == CAP, full
    assert [p["name"] for p in full["players"]] == ["p3", "p2", "p1"]


def test_presence_is_rate_limited(http: httpx.Client) -> None:
    dee = guest(http, "dee")
    codes = [http.post("/api/lobby/presence", headers=bearer(dee)).status_code for _ in range(6)]
    assert codes[:5] == [200] * 5 and codes[5] == 429, codes  # a burst of 5, then 0.5 a second
    limited = http.get("/api/lobby/online", headers=bearer(dee))
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert limited.json()["error"]["code"] == "rate_limited"


def test_lobby_chat(http: httpx.Client, rdb: redis.Redis) -> None:
    eve, fay = guest(http, "eve"), guest(http, "fay")
    # writers and readers hold a player token; a seat token is not one
    assert http.post("/api/lobby/chat", json={"text": "hi"}).status_code == 401
    assert http.get("/api/lobby/chat").status_code == 401
    made = http.post("/api/matches", json={"players": 3, "bot": "random"}, headers=bearer(eve)).json()
    seat = {"Authorization": f"Bearer {made['seat_token']}"}
    assert http.post("/api/lobby/chat", json={"text": "hi"}, headers=seat).status_code == 401

    # the table chat's checks: cleaned, kept as plain text, length, phrases
    xss = '<img src=x onerror="window.__pwned=1">'
    said = http.post("/api/lobby/chat", json={"text": f" hi\u202e {xss} "}, headers=bearer(eve))
    assert said.status_code == 201, said.text
    line = said.json()
    assert (line["text"], line["name"], line["pid"], line["channel"], line["seat"]) == (
        f"hi {xss}", "eve", eve["player_id"], "lobby", -1)  # fmt: skip
    for body in ({"text": " "}, {"text": "x" * 201}, {"phrase": "nope"}, {"phrase": "gg", "text": "x"}):
        assert http.post("/api/lobby/chat", json=body, headers=bearer(fay)).status_code == 422, body
    assert http.post("/api/lobby/chat", json={"phrase": "gg"}, headers=bearer(fay)).json()["phrase"] == "gg"

    # rate: a burst of 5 per player (eve said one already), then 429 with Retry-After
    codes = [http.post("/api/lobby/chat", json={"text": f"m{i}"}, headers=bearer(eve)).status_code for i in range(5)]
    assert codes == [201] * 4 + [429], codes
    limited = http.post("/api/lobby/chat", json={"text": "more"}, headers=bearer(eve))
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1
    # fay is not limited by eve's bucket
    assert http.post("/api/lobby/chat", json={"text": "hello eve"}, headers=bearer(fay)).status_code == 201

    # the channel keeps its last KEEP lines, read by any guest, after an id
    read = http.get("/api/lobby/chat", headers=bearer(fay)).json()
    texts = [m["text"] or m["phrase"] for m in read["messages"]]
    assert texts == ["m0", "m1", "m2", "m3", "hello eve"], texts  # "hi" and "gg" dropped
    ids = [m["id"] for m in read["messages"]]
    later = http.get("/api/lobby/chat", params={"after": ids[-2]}, headers=bearer(eve)).json()["messages"]
    assert [m["text"] for m in later] == ["hello eve"]
    # the lines expire (FENGSHENG_LOBBY_CHAT_TTL_MS), renewed by each line
    for key in ("gw:{lobby}:chat:lobby", "gw:{lobby}:chatseq"):
        assert 0 < rdb.ttl(key) <= 30, key
    assert rdb.llen("gw:{lobby}:chat:lobby") == KEEP


def test_invite_from_the_online_list(http: httpx.Client) -> None:
    """Inviting is the profile's challenge (``POST /api/casual`` naming the player): the
    invited player's ``/ws/ranked`` gets an ``invited`` ticket, as their lobby's Invitations."""
    gus, hal = guest(http, "gus"), guest(http, "hal")
    http.post("/api/lobby/presence", headers=bearer(hal))
    online = http.post("/api/lobby/presence", headers=bearer(gus)).json()["players"]
    target = next(p for p in online if p["name"] == "hal")
    ws_url = str(http.base_url).rstrip("/").replace("http", "ws", 1) + "/ws/ranked"
    with connect(f"{ws_url}?token={hal['token']}") as ws:
        time.sleep(0.5)  # subscribed
        opened = http.post("/api/casual", json={"seats": ["me", target["player_id"], "random"]}, headers=bearer(gus))
        assert opened.status_code == 201 and opened.json()["state"] == "pending", opened.text
        pushed = json.loads(ws.recv(timeout=10))
    assert pushed["type"] == "ticket" and pushed["ticket"]["state"] == "invited", pushed
    assert pushed["ticket"]["challenger"] == "gus"
    declined = http.post(f"/api/casual/{pushed['ticket']['ticket_id']}/answer", json={"accept": False},
                         headers=bearer(hal))  # fmt: skip
    assert declined.status_code == 200 and declined.json()["state"] == "declined", declined.text
