"""Table chat through the real gateway (Redis, engine service, Celery worker): issue 16 §4.

Who may write and read each channel, the length and rate limits, quick phrases, an XSS
payload kept as plain text, and the messages expiring with the match (docs/web-client.md, *Chat*).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
from helpers.gateway_procs import start_gateway
from helpers.processes import ServiceProcess

from fengsheng.retention import Retention

pytestmark = pytest.mark.integration

XSS = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


@pytest.fixture(scope="module")
def http(redis_url: str, engine: ServiceProcess, worker: ServiceProcess, proc_logs: Path) -> Iterator[httpx.Client]:
    proc = start_gateway(engine.address, proc_logs, redis_url=redis_url)
    with httpx.Client(base_url=proc.extra["url"], timeout=10) as client:
        yield client
    proc.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(http: httpx.Client, name: str) -> str:
    reply = http.post("/api/guests", json={"name": name})
    assert reply.status_code == 201, reply.text
    return str(reply.json()["token"])


def test_table_and_spectator_chat(http: httpx.Client, rdb: redis.Redis) -> None:
    player = guest(http, "ann")
    # one human seat and no timer: the match waits for ann, so it stays live
    made = http.post("/api/matches", json={"players": 3, "bot": "random"}, headers=bearer(player))
    assert made.status_code == 201, made.text
    match_id, seat_token = made.json()["match_id"], made.json()["seat_token"]
    url = f"/api/matches/{match_id}/chat"

    # the table: written with the seat token, kept as written (no HTML is made of it)
    said = http.post(url, json={"text": f"  hi\u202e {XSS}\x07 "}, headers=bearer(seat_token))
    assert said.status_code == 201, said.text
    msg = said.json()
    assert msg["text"] == f"hi {XSS}"  # control and bidi characters gone, spaces collapsed
    assert (msg["seat"], msg["name"], msg["channel"], msg["phrase"]) == (0, "ann", "table", "")
    assert http.post(url, json={"phrase": "gg"}, headers=bearer(seat_token)).json()["phrase"] == "gg"

    # while the match runs only its seats read the table's chat
    assert http.get(url).status_code == 401
    other = http.post("/api/matches", json={"players": 3, "bot": "random"}, headers=bearer(guest(http, "bo")))
    assert http.get(url, headers=bearer(other.json()["seat_token"])).status_code == 403
    assert http.post(url, json={"text": "x"}, headers=bearer(other.json()["seat_token"])).status_code == 403
    read = http.get(url, params={"after": 0}, headers=bearer(seat_token)).json()
    assert [m["id"] for m in read["messages"]] == [msg["id"], msg["id"] + 1] and read["over"] is False
    later = http.get(url, params={"after": msg["id"]}, headers=bearer(seat_token)).json()["messages"]
    assert [m["phrase"] for m in later] == ["gg"]

    # the spectators: any guest without a seat here; the seated player is sent to the table
    watcher = guest(http, "cy")
    cheer = http.post(url, json={"channel": "spectators", "text": "go ann"}, headers=bearer(watcher))
    assert cheer.status_code == 201 and cheer.json()["seat"] == -1
    assert http.post(url, json={"channel": "spectators", "text": "psst"}, headers=bearer(player)).status_code == 403
    assert http.post(url, json={"channel": "spectators", "text": "x"}, headers=bearer(seat_token)).status_code == 401
    public = http.get(url, params={"channel": "spectators"}).json()["messages"]
    assert [m["text"] for m in public] == ["go ann"]  # no table line in the spectators' channel

    # refused: empty, too long, unknown phrase, phrase with text
    for body in ({"text": " \n\t"}, {"text": "x" * 201}, {"phrase": "rm -rf"}, {"phrase": "gg", "text": "x"}):
        assert http.post(url, json=body, headers=bearer(seat_token)).status_code == 422, body
    assert http.post(url, json={"text": "长" * 200}, headers=bearer(seat_token)).status_code == 201

    # rate: a burst of 5 per player and match, then 429 with Retry-After
    codes = [
        http.post(url, json={"channel": "spectators", "text": f"spam {i}"}, headers=bearer(watcher)).status_code
        for i in range(6)
    ]
    assert codes[:4] == [201] * 4 and codes[-1] == 429, codes  # "go ann" was the first of the burst
    limited = http.post(url, json={"channel": "spectators", "text": "more"}, headers=bearer(watcher))
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert limited.json()["error"]["code"] == "rate_limited"

    # kept with the match: every chat key expires within the match's idle lifetime
    idle = Retention.from_env().idle_s
    for key in (f"gw:{{{match_id}}}:chat:table", f"gw:{{{match_id}}}:chat:spectators", f"gw:{{{match_id}}}:chatseq"):
        assert 0 < rdb.ttl(key) <= idle, key

    # an unknown match has no chat
    assert http.post("/api/matches/nope/chat", json={"text": "x"}, headers=bearer(seat_token)).status_code in (403, 404)
    assert http.get("/api/matches/nope/chat", params={"channel": "spectators"}).status_code == 404
