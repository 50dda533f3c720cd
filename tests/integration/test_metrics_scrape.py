"""Every service's ``/metrics``: the engine service (``--metrics-port``), a Celery worker
(``FENGSHENG_WORKER_METRICS_PORT``) and the gateway. The named series exist and move when a
bot match plays and a person acts through the gateway.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
import redis
from helpers.gateway_procs import start_gateway, wait_until
from helpers.processes import redis_env, spawn, start_worker, wait_for_health, wait_for_log
from prometheus_client.parser import text_string_to_metric_families

from services.redis_server import free_port

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

DB = 8


def _db(redis_url: str, db: int) -> str:
    base = redis_url.rsplit("/", 1)[0] if redis_url.count("/") > 2 else redis_url
    return f"{base}/{db}"


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``{(sample name, sorted labels): value}`` of a Prometheus text page."""
    text = httpx.get(url, timeout=5).text
    out: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def total(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    """Sum of the samples named ``name`` whose labels include ``labels``; -1 when none exist."""
    found = [v for (n, ls), v in samples.items() if n == name and set(labels.items()) <= set(ls)]
    return sum(found) if found else -1.0


def test_every_service_serves_metrics_that_move(redis_url: str, tmp_path: Path) -> None:
    url = _db(redis_url, DB)
    engine_metrics, worker_metrics = free_port(), free_port()
    engine = spawn(
        "engine",
        ["engine-server", "--port", "0", "--bot-port", "0", "--metrics-port", str(engine_metrics)],
        tmp_path,
        redis_env(url),
    )
    engine.address = wait_for_log(engine, r"listening on (\S+:\d+)").group(1)
    wait_for_health(engine.address)
    worker = start_worker(url, engine.address, tmp_path, env={"FENGSHENG_WORKER_METRICS_PORT": str(worker_metrics)})
    gateway = start_gateway(engine.address, tmp_path, redis_url=url)
    urls = {
        "engine": f"http://127.0.0.1:{engine_metrics}/metrics",
        "worker": f"http://127.0.0.1:{worker_metrics}/metrics",
        "gateway": gateway.extra["url"] + "/metrics",
    }
    try:
        wait_until(lambda: httpx.get(urls["worker"], timeout=2).status_code == 200, 20, "worker metrics")
        before = {name: scrape(u) for name, u in urls.items()}
        with httpx.Client(base_url=gateway.extra["url"], timeout=10) as http:
            bots = http.post("/api/matches", json={"players": 5, "humans": 0, "bot": "random", "bot_delay_ms": 0})
            assert bots.status_code == 201, bots.text
            token = http.post("/api/guests", json={"name": "ada"}).json()["token"]
            mine = http.post(
                "/api/matches",
                json={"players": 5, "humans": 1, "bot": "random", "turn_timeout_ms": 0, "bot_delay_ms": 0},
                headers={"Authorization": f"Bearer {token}"},
            ).json()
            seat_token = mine["seat_token"]

            def my_turn() -> bool:
                data = http.get(
                    f"/api/matches/{mine['match_id']}/legal-actions", headers={"Authorization": f"Bearer {seat_token}"}
                ).json()
                return bool(data["actions"])

            wait_until(my_turn, 30, "the human seat's turn")
            legal = http.get(
                f"/api/matches/{mine['match_id']}/legal-actions", headers={"Authorization": f"Bearer {seat_token}"}
            ).json()
            acted = http.post(
                f"/api/matches/{mine['match_id']}/act",
                json={"decision": legal["decision"], "action": legal["actions"][0]},
                headers={"Authorization": f"Bearer {seat_token}"},
            )
            assert acted.status_code == 200, acted.text
            bad = http.post(
                f"/api/matches/{mine['match_id']}/act",
                json={"decision": legal["decision"], "action": legal["actions"][0]},
                headers={"Authorization": f"Bearer {seat_token}"},
            )
            assert bad.status_code == 409
        rdb = redis.Redis.from_url(url)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and rdb.llen(f"fs:m:{{{bots.json()['match_id']}}}:h") < 20:
            time.sleep(0.1)
        rdb.close()
        time.sleep(0.5)
        after = {name: scrape(u) for name, u in urls.items()}

        def moved(service: str, name: str, **labels: str) -> None:
            b, a = total(before[service], name, **labels), total(after[service], name, **labels)
            assert a > max(b, 0), f"{service}: {name}{labels} did not move ({b} -> {a})"

        def present(service: str, name: str, **labels: str) -> None:
            assert total(after[service], name, **labels) >= 0, f"{service}: no {name}{labels}"

        # engine service: actions, latency histogram, matches, active matches, rejections
        moved("engine", "fengsheng_actions_total", origin="bot")
        moved("engine", "fengsheng_actions_total", origin="human")
        # the gateway's actions reach the engine over its long-lived ActStream calls
        moved("engine", "fengsheng_rpc_seconds_count", method="ActStream")
        moved("engine", "fengsheng_rpc_seconds_bucket", method="ActStream", le="+Inf")
        moved("engine", "fengsheng_matches_created_total")
        moved("engine", "fengsheng_actions_rejected_total")
        assert total(after["engine"], "fengsheng_active_matches") >= 1
        present("engine", "fengsheng_cas_conflicts_total")
        moved("engine", "fengsheng_store_commands_total")
        moved("engine", "fengsheng_store_writes_total")
        assert total(after["engine"], "fengsheng_store_writes_total") <= total(
            after["engine"], "fengsheng_store_commands_total"
        )
        # worker: tasks by result, task latency, failures, queue sizes, outbox
        moved("worker", "fengsheng_tasks_total", task="bots.move", result="applied")
        moved("worker", "fengsheng_task_seconds_count", task="bots.move")
        present("worker", "fengsheng_task_failures_total", task="bots.move")
        present("worker", "fengsheng_task_retries_total", task="bots.move")
        present("worker", "fengsheng_queue_length", queue="fengsheng")
        present("worker", "fengsheng_outbox_size")
        present("worker", "fengsheng_task_leases")
        present("worker", "fengsheng_unacked_tasks")
        assert total(after["worker"], "fengsheng_broker_up") == 1
        # gateway: requests, latency, engine calls, human actions
        moved("gateway", "fengsheng_gateway_requests_total", route="/api/matches/{match_id}/act")
        moved("gateway", "fengsheng_gateway_request_seconds_count", route="/api/matches/{match_id}/act")
        moved("gateway", "fengsheng_gateway_engine_calls_total", method="Act")
        moved("gateway", "fengsheng_gateway_engine_call_seconds_count", method="Act")
        moved("gateway", "fengsheng_gateway_actions_total", result="ok")
        moved("gateway", "fengsheng_gateway_actions_total", result="failed_precondition")
        moved("gateway", "fengsheng_gateway_engine_replica_calls_total")
    finally:
        gateway.stop()
        worker.stop()
        engine.stop()
        rdb = redis.Redis.from_url(url)
        rdb.flushdb()
        rdb.close()
