"""Issue 11, secrets: under ``fengsheng up`` no secret is on any command line, the embedded
Redis refuses clients without its password, and nothing acknowledged is lost across a
restart or a SIGKILLed Redis (AOF in the data directory, secrets kept there in 0600 files).
"""

from __future__ import annotations

import os
import re
import signal
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from helpers.gateway_procs import descendants, poll_json
from helpers.processes import start_engine_server, start_worker, wait_for_log
from helpers.up_proc import Up

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.engine.store import history_key
from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

SECRET_FILES = ("token.secret", "service.token", "redis.password")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def redis_port(up: Up) -> int:
    m = re.search(r"redis\s+redis://:\*\*\*@127\.0\.0\.1:(\d+)/0 \(embedded", up.text())
    assert m, up.text()
    return int(m.group(1))


@pytest.fixture(scope="module")
def up(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Up, Path]]:
    data = tmp_path_factory.mktemp("up") / "data"
    running = Up("--data-dir", str(data))
    try:
        yield running, data
    finally:
        assert running.stop() == 0


def test_no_secret_on_any_command_line_under_up(up: tuple[Up, Path]) -> None:
    running, data = up
    secrets = {name: (data / name).read_text().strip() for name in SECRET_FILES}
    assert all(len(value) >= 32 for value in secrets.values()), secrets.keys()
    pids = descendants(running.process.pid) | {running.process.pid}
    cmdlines = {pid: Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode() for pid in pids}
    roles = " | ".join(cmdlines.values())
    for role in ("redis-server", "engine-server", "worker", "gateway"):  # every kind of child was looked at
        assert role in roles, roles
    for pid, cmdline in cmdlines.items():
        for name, value in secrets.items():
            assert value not in cmdline, f"{name} is on the command line of pid {pid}: {cmdline[:200]}"
        assert "--secret" not in cmdline and "--redis-url" not in cmdline, cmdline
    for name, value in secrets.items():  # nor in what up prints (its banner shows the URL redacted)
        assert value not in running.text(), name
    # the secrets live in owner-only files in an owner-only directory
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    for name in (*SECRET_FILES, "redis.conf"):
        assert stat.S_IMODE((data / name).stat().st_mode) == 0o600, name


def test_embedded_redis_refuses_clients_without_its_password(up: tuple[Up, Path]) -> None:
    running, data = up
    with httpx.Client(base_url=running.url, timeout=30) as http:
        assert http.get("/healthz").json()["status"] == "ok"
        created = http.post("/api/matches", json={"players": 5, "humans": 0, "bot": "random", "seed": 11})
        assert created.status_code == 201, created.text
    port = redis_port(running)
    stranger = redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)
    with pytest.raises((redis.AuthenticationError, redis.ResponseError)) as refused:
        list(stranger.scan_iter("fs:m:*"))
    assert "auth" in str(refused.value).lower()
    wrong = redis.Redis(host="127.0.0.1", port=port, password="guessed", socket_timeout=5)
    with pytest.raises((redis.AuthenticationError, redis.ResponseError)):
        wrong.ping()
    password = (data / "redis.password").read_text().strip()
    owner = redis.Redis(host="127.0.0.1", port=port, password=password, socket_timeout=5)
    assert any(owner.scan_iter("fs:m:*")), "the platform wrote its matches to this Redis"
    assert owner.config_get("protected-mode") == {"protected-mode": "yes"}
    assert owner.config_get("bind")["bind"] == "127.0.0.1"
    assert owner.config_get("appendonly") == {"appendonly": "yes"}
    assert owner.config_get("appendfsync") == {"appendfsync": "always"}


def _act_once(http: httpx.Client) -> tuple[str, str, str, int]:
    """A guest, a match with that guest at seat 0, and one action acknowledged by the
    gateway: (guest token, match id, seat token, the decision answered)."""
    guest = http.post("/api/guests", json={"name": "ada"})
    assert guest.status_code == 201, guest.text
    token = guest.json()["token"]
    created = http.post(
        "/api/matches", json={"players": 5, "humans": 1, "bot": "random", "seed": 99}, headers=bearer(token)
    )
    assert created.status_code == 201, created.text
    match_id, seat_token, seat = created.json()["match_id"], created.json()["seat_token"], created.json()["seat"]
    legal: dict[str, Any] = poll_json(
        http,
        f"/api/matches/{match_id}/legal-actions",
        lambda d: d["seat_to_act"] == seat and bool(d["actions"]),
        timeout=60,
        headers=bearer(seat_token),
    )
    acted = http.post(
        f"/api/matches/{match_id}/act",
        json={"decision": legal["decision"], "action": legal["actions"][0]},
        headers=bearer(seat_token),
    )
    assert acted.status_code == 200, acted.text
    return token, match_id, seat_token, int(legal["decision"])


def test_restart_and_a_killed_redis_keep_matches_and_tokens_and_fresh_empties(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Up("--data-dir", str(data))
    try:
        with httpx.Client(base_url=first.url, timeout=30) as http:
            guest, match_id, seat_token, decision = _act_once(http)
            # a crash of the embedded Redis right after the acknowledgement: up restarts it on
            # the same port, password and data directory, and the action is still there
            killed = first.children["redis"]
            os.kill(killed, signal.SIGKILL)
            first.wait_restarted("redis", killed)
            deadline = time.monotonic() + 60
            while True:
                legal = http.get(f"/api/matches/{match_id}/legal-actions", headers=bearer(seat_token))
                if legal.status_code == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.3)  # 503 while Redis restarts and loads its AOF
            assert legal.status_code == 200, legal.text
            assert legal.json()["decision"] > decision
    finally:
        assert first.stop() == 0
    assert "up: redis exited with status -9; restarting it" in first.text()

    second = Up("--data-dir", str(data))
    try:
        with httpx.Client(base_url=second.url, timeout=30) as http:
            legal = http.get(f"/api/matches/{match_id}/legal-actions", headers=bearer(seat_token))
            assert legal.status_code == 200, legal.text  # the old seat token is still valid
            assert legal.json()["decision"] > decision  # the acknowledged action survived the crash
            joined = http.post(f"/api/matches/{match_id}/join", headers=bearer(guest))
            assert joined.status_code == 200, joined.text  # the old guest token too, and its seat claim
            assert joined.json()["seat"] == 0
    finally:
        assert second.stop() == 0

    fresh = Up("--data-dir", str(data), "--fresh")
    try:
        with httpx.Client(base_url=fresh.url, timeout=30) as http:
            refused = http.get(f"/api/matches/{match_id}/legal-actions", headers=bearer(seat_token))
            assert refused.status_code == 401, refused.text  # a new token secret
            gone = http.get(f"/api/matches/{match_id}")
            assert gone.status_code == 404, gone.text  # no matches any more
    finally:
        assert fresh.stop() == 0


def test_sigkilled_redis_keeps_an_acknowledged_action(tmp_path: Path) -> None:
    data = tmp_path / "redis-data"
    data.mkdir()
    server = RedisServer(appendonly=True, appendfsync="always", data_dir=data).start()
    port, password = server.port, server.password
    engine = start_engine_server(server.url, tmp_path, celery=False)
    try:
        with engine_channel(engine.address) as channel:
            stub = es_grpc.EngineServiceStub(channel)
            settings = es.MatchSettings(players=5, seed=77)
            match_id = stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id
            legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1))
            seat_legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=legal.seat_to_act))
            stub.Act(
                es.ActRequest(
                    match_id=match_id, seat=legal.seat_to_act, decision=legal.decision, action=seat_legal.actions[0]
                )
            )  # acknowledged: the engine answered only after Redis did
            server.kill()  # SIGKILL, no chance to flush anything more
    finally:
        engine.stop()
    restarted = RedisServer(port=port, appendonly=True, appendfsync="always", data_dir=data, password=password)
    restarted.start(timeout=30)
    try:
        client = redis.Redis.from_url(restarted.url)
        history = client.lrange(history_key(match_id), 0, -1)
        assert [int(entry.split(b"\t", 1)[0]) for entry in history] == [legal.decision]
        assert history[0].split(b"\t")[-1].decode() == seat_legal.actions[0]
    finally:
        restarted.stop()
        server.stop()


def test_worker_metrics_listen_on_loopback_by_default(redis_url: str, tmp_path: Path) -> None:
    from services.redis_server import free_port

    port = free_port()
    worker = start_worker(
        redis_url, "127.0.0.1:1", tmp_path, concurrency=1, env={"FENGSHENG_WORKER_METRICS_PORT": str(port)}
    )
    try:
        wait_for_log(worker, rf"worker metrics on http://127\.0\.0\.1:{port}/metrics", 30)
        listening = _listening_addresses(port)
        assert listening == {"0100007F"}, listening  # 127.0.0.1 only, not 0.0.0.0
        assert httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).status_code == 200
    finally:
        worker.stop()


def _listening_addresses(port: int) -> set[str]:
    """Local IPv4 addresses (hex, as /proc/net/tcp shows them) listening on ``port``."""
    found: set[str] = set()
    deadline = time.monotonic() + 10
    while not found and time.monotonic() < deadline:
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            address, hex_port = fields[1].split(":")
            if int(hex_port, 16) == port and fields[3] == "0A":  # LISTEN
                found.add(address)
        time.sleep(0.1)
    return found


def test_the_test_fixture_redis_is_protected_the_same_way() -> None:
    with RedisServer() as server:
        assert server.password and server.password in server.url
        assert all(server.password not in arg for arg in server.argv())  # a config path, not --requirepass
        cmdline = Path(f"/proc/{server.process.pid}/cmdline").read_bytes() if server.process else b""
        assert cmdline and server.password.encode() not in cmdline
        with pytest.raises((redis.AuthenticationError, redis.ResponseError)) as refused:
            redis.Redis(host=server.host, port=server.port, socket_timeout=5).set("fs:m:{x}", "hand")
        assert "auth" in str(refused.value).lower()
        assert redis.Redis.from_url(server.url).set("fs:m:{x}", "hand")
