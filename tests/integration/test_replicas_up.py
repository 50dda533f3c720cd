"""``fengsheng up --engine-replicas 2``: two engine processes, the gateway (and the worker)
round-robin over both, and a bots match created through the gateway plays to the end.
(Failover when a replica dies: ``test_replicas_gateway.py`` and ``bench/soak.py``.)
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from helpers.processes import ROOT, _env

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


def test_up_with_two_engine_replicas(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "data")]  # not the checkout's .fengsheng
    proc = subprocess.Popen(
        [sys.executable, "-m", "fengsheng.cli", "up", "--port", "0", "--quiet", "--engine-replicas", "2", *data],
        cwd=ROOT,
        env=_env(None),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in iter(proc.stdout.readline, ""):
            lines.append(line)
            if line.startswith("Ctrl-C stops everything"):
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert ready.wait(120) and proc.poll() is None, "".join(lines)[-3000:]
        text = "".join(lines)
        pids = dict(re.findall(r"(\w+)=(\d+)", re.search(r"pids\s+(.+)", text).group(1)))  # type: ignore[union-attr]
        assert {"engine", "engine2", "worker", "gateway"} <= set(pids)
        engines = re.search(r"engine\s+(\S+) \(gRPC\)", text).group(1).split(",")  # type: ignore[union-attr]
        assert len(engines) == 2 and engines[0] != engines[1]
        base = re.search(r"gateway\s+(http://\S+)", text).group(1)  # type: ignore[union-attr]
        bots = re.search(r"bots\s+(\S+) \(gRPC", text).group(1)  # type: ignore[union-attr]
        with httpx.Client(base_url=base, timeout=20) as http:
            # bots are told the bot listener, never an engine's internal address
            assert http.get("/api/bots/connect-info").json()["grpc"] == bots
            assert bots not in engines
            created = http.post(
                "/api/matches", json={"players": 5, "humans": 0, "bot": "random", "bot_delay_ms": 0}
            ).json()
            match_id = created["match_id"]
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                obs = http.get(f"/api/matches/{match_id}").json()["observation"]
                if obs.get("outcome", {}).get("over"):
                    break
                time.sleep(0.3)
            else:
                raise AssertionError(f"the bots match did not finish: {obs}")
            metrics = http.get("/metrics").text
            for address in engines:
                series = f'fengsheng_gateway_engine_replica_calls_total{{replica="{address}"}}'
                m = re.search(re.escape(series) + r" (\S+)", metrics)
                assert m and float(m.group(1)) >= 1, f"the gateway never called {address}"
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(60)
