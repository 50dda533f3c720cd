"""The gateway while Redis is down (issue 11, finding 7): every route answers 503 with
``Retry-After`` (WebSockets: an ``error`` message and close code 4503), never 500; creating a
match in that state leaves nothing half-made; an engine call that fails ``UNAVAILABLE`` is
retried with backoff, so a short restart is invisible to the client.

The engine's Redis and the gateway's Redis are two servers here, so that each can be down
while the other is up (``fengsheng up`` uses one for both).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import redis
from helpers.gateway_procs import start_gateway
from helpers.processes import ServiceProcess, start_engine_server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


@dataclass
class Platform:
    engine_redis: RedisServer
    gateway_redis: RedisServer
    engine: ServiceProcess
    gateway: ServiceProcess
    data: Path

    @property
    def url(self) -> str:
        return self.gateway.extra["url"]

    def restart(self, which: str) -> None:
        """Start the stopped Redis ``which`` ("engine" or "gateway") again, same port and data."""
        old: RedisServer = getattr(self, f"{which}_redis")
        fresh = RedisServer(port=old.port, appendonly=True, data_dir=self.data / which, password=old.password).start()
        setattr(self, f"{which}_redis", fresh)


@pytest.fixture()
def platform(tmp_path: Path) -> Iterator[Platform]:
    for which in ("engine", "gateway"):
        (tmp_path / which).mkdir()
    engine_redis = RedisServer(appendonly=True, data_dir=tmp_path / "engine").start()
    gateway_redis = RedisServer(appendonly=True, data_dir=tmp_path / "gateway").start()
    engine = start_engine_server(engine_redis.url, tmp_path, celery=False)
    gateway = start_gateway(engine.address, tmp_path, redis_url=gateway_redis.url)
    p = Platform(engine_redis, gateway_redis, engine, gateway, tmp_path)
    try:
        yield p
    finally:
        gateway.stop()
        engine.stop()
        p.engine_redis.stop()
        p.gateway_redis.stop()


def _engine_matches(server: RedisServer) -> set[str]:
    with redis.Redis(host=server.host, port=server.port, password=server.password or None) as r:
        return {k.decode() for k in r.scan_iter("fs:m:{*}") if k.endswith(b"}")}


def _gateway_records(server: RedisServer) -> set[str]:
    with redis.Redis(host=server.host, port=server.port, password=server.password or None) as r:
        return {k.decode() for k in r.scan_iter("gw:{*}:match")}


def _assert_503(reply: httpx.Response) -> None:
    assert reply.status_code == 503, (reply.status_code, reply.text)
    assert int(reply.headers["retry-after"]) >= 1
    error = reply.json()["error"]
    assert error["code"] == "unavailable" and error["retry_after_ms"] >= 1000


HUMANS = {"players": 5, "humans": 5}


def test_gateway_redis_down_is_503_and_create_leaves_no_orphan(platform: Platform) -> None:
    with httpx.Client(base_url=platform.url, timeout=30) as http:
        token = http.post("/api/guests", json={"name": "ada"}).json()["token"]
        match_id = http.post("/api/matches", json=HUMANS).json()["match_id"]
        before = _engine_matches(platform.engine_redis)

        platform.gateway_redis.stop()
        _assert_503(http.post("/api/matches", json=HUMANS))
        # the engine match was not made either: nothing half-made (before: made, then 500)
        assert _engine_matches(platform.engine_redis) == before
        _assert_503(http.get(f"/api/matches/{match_id}"))
        _assert_503(http.get("/api/matches"))
        _assert_503(http.post(f"/api/matches/{match_id}/join", headers={"Authorization": f"Bearer {token}"}))

        platform.restart("gateway")
        # the first requests after the restart are answered, not 500
        assert http.get(f"/api/matches/{match_id}").status_code == 200
        created = http.post("/api/matches", json=HUMANS)
        assert created.status_code == 201, created.text
        assert created.json()["match_id"] in {m.removeprefix("fs:m:{").removesuffix("}") for m in
                                              _engine_matches(platform.engine_redis)}  # fmt: skip


def test_engine_redis_down_is_503_everywhere_and_forgets_the_record(platform: Platform) -> None:
    with httpx.Client(base_url=platform.url, timeout=30) as http:
        match_id = http.post("/api/matches", json=HUMANS).json()["match_id"]
        records = _gateway_records(platform.gateway_redis)

        platform.engine_redis.stop()
        _assert_503(http.post("/api/matches", json=HUMANS))
        # the gateway's record of the match it could not create is gone again
        assert _gateway_records(platform.gateway_redis) == records
        _assert_503(http.get(f"/api/matches/{match_id}"))
        # the ranked routes too (the RankedService answered UNKNOWN: 502)
        _assert_503(http.get("/api/ranked/leaderboard"))

        ws_url = platform.url.replace("http://", "ws://") + f"/ws/matches/{match_id}/spectate"
        with connect(ws_url, open_timeout=10) as ws:
            message = json.loads(ws.recv(timeout=30))
            assert message["type"] == "error" and message["error"]["status"] == 503, message
            assert message["error"]["retry_after_ms"] >= 1000
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503

        platform.restart("engine")
        assert http.get(f"/api/matches/{match_id}").status_code == 200


def test_a_short_engine_redis_restart_is_retried_not_an_error(platform: Platform) -> None:
    """The engine's Redis comes back 1.2 s into the request: the gateway's retries with
    backoff carry the request over it (before: 503 at once)."""
    with httpx.Client(base_url=platform.url, timeout=30) as http:
        platform.engine_redis.stop()
        back = threading.Timer(1.2, platform.restart, args=("engine",))
        back.start()
        started = time.monotonic()
        try:
            created = http.post("/api/matches", json=HUMANS)
        finally:
            back.join()
        assert created.status_code == 201, created.text
        assert time.monotonic() - started >= 1.0
        match_id = created.json()["match_id"]
        assert http.get(f"/api/matches/{match_id}").status_code == 200
        assert f"gw:{{{match_id}}}:match" in _gateway_records(platform.gateway_redis)
