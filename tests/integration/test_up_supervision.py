"""Issue 15 §4: ``fengsheng up`` restarts a crashed child while the others keep serving.

One ``up`` (embedded Redis with its AOF); for each child in turn (engine, worker, gateway,
Redis) a match of five bots starts through the gateway, the child is SIGKILLed a few turns
in, and the test checks that ``up`` restarts it, that ``/healthz`` answers ``ok`` again and
that the match plays to its end. A killed worker's task comes back through the engine's
lease sweeper (``FENGSHENG_TASK_LEASE_MS``, shortened here from 30 s), a killed Redis reloads
its AOF with the same password and data directory, a killed engine or gateway comes back on
the port the others already use. At the end SIGTERM stops everything, the restarted
processes included.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers.up_proc import Up

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.timeout(600)]


def _get(http: httpx.Client, path: str) -> Any:
    """The JSON at ``path``, or ``None`` while the platform cannot answer (a child is down)."""
    try:
        reply = http.get(path)
    except httpx.HTTPError:
        return None
    return reply.json() if reply.status_code == 200 else None


def _wait(http: httpx.Client, path: str, until: Any, timeout: float, up: Up) -> Any:
    deadline = time.monotonic() + timeout
    data = None
    while time.monotonic() < deadline:
        data = _get(http, path)
        if data is not None and until(data):
            return data
        assert up.process.poll() is None, up.text()[-3000:]
        time.sleep(0.3)
    raise AssertionError(f"GET {path}: not there after {timeout}s; last {str(data)[:1500]}\n{up.text()[-3000:]}")


#: the children ``up`` starts, killed in this order
VICTIMS = ("engine", "worker", "gateway", "redis")


def test_each_killed_child_is_restarted_and_the_bot_match_finishes(tmp_path: Path) -> None:
    up = Up("--data-dir", str(tmp_path / "data"), env={"FENGSHENG_TASK_LEASE_MS": "5000"})
    try:
        with httpx.Client(base_url=up.url, timeout=10) as http:
            for victim in VICTIMS:
                created = http.post(
                    "/api/matches", json={"players": 5, "humans": 0, "bot": "random", "bot_delay_ms": 50}
                )
                assert created.status_code == 201, created.text
                match_id = created.json()["match_id"]
                path = f"/api/matches/{match_id}"
                _wait(http, path, lambda d: d["observation"]["turn_number"] >= 3, 60, up)
                before = up.pid(victim)
                os.kill(before, signal.SIGKILL)
                after = up.wait_restarted(victim, before)
                assert after != before
                assert f"up: {victim} exited with status -9; restarting it in 0.5 s" in up.text()
                _wait(http, "/healthz", lambda d: d.get("status") == "ok", 60, up)
                info = _wait(http, path, lambda d: d["observation"]["outcome"]["over"], 180, up)
                assert info["observation"]["outcome"]["winners"], (victim, info["observation"]["outcome"])
                up.track()
    finally:
        status = up.stop()
    assert status == 0, up.text()[-3000:]
    assert "giving up" not in up.text()
