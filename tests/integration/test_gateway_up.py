"""``fengsheng up`` from the working tree: a quiet start, SIGTERM, a crash loop, an external Redis.

(The fresh-clone run with Ctrl-C is ``test_fresh_clone_up.py``; a child killed during a bot
match and restarted is ``test_up_supervision.py``.)
"""

from __future__ import annotations

import os
import re
import signal
import socket
import time
from pathlib import Path

import httpx
import pytest
from helpers.up_proc import Up

from services.config import redacted

pytestmark = pytest.mark.integration

#: lines ``fengsheng up`` may print before the line with the URL (issue 16 §7: a short banner)
MAX_LINES_BEFORE_URL = 3


def test_a_quiet_start_then_sigterm_stops_everything(tmp_path: Path) -> None:
    data = tmp_path / "data"
    up = Up("--data-dir", str(data))
    assert set(up.children) == {"redis", "engine", "worker", "gateway"}
    assert httpx.get(f"{up.url}/healthz", timeout=5).json()["status"] == "ok"
    lines = up.text().splitlines()
    first_url = next(i for i, line in enumerate(lines) if up.url in line)
    assert first_url <= MAX_LINES_BEFORE_URL, "\n".join(lines[: first_url + 1])
    # where the data lives, how to stop
    assert re.search(rf"data\s+{re.escape(str(data.resolve()))}", up.text()), up.text()
    assert "Ctrl-C stops everything" in up.text()
    # the services' logs go to the data directory, not the terminal
    for name in ("redis", "engine", "worker", "gateway"):
        assert f"[{name}]" not in up.text()
    logs = data / "logs"
    assert "listening on" in (logs / "engine.log").read_text()
    assert "listening on" in (logs / "gateway.log").read_text()
    assert "Redis version=" in (logs / "redis.log").read_text()  # redis-server's own log, at level warning
    assert "loglevel warning" in (data / "redis.conf").read_text()
    if os.geteuid() == 0:  # Celery warns a root worker (JSON only here: no reason to)
        assert "superuser privileges" not in (logs / "worker.log").read_text()
    up.process.send_signal(signal.SIGTERM)
    assert up.wait_all_gone() == 0
    assert "up: stopped" in up.text()
    warnings = [line for line in up.text().splitlines() if re.search(r"warn", line, re.IGNORECASE)]
    assert not warnings, up.text()


def test_a_crash_looping_child_stops_the_rest_with_an_external_redis(redis_url: str, tmp_path: Path) -> None:
    # the URL may carry a password: it goes by environment, never on the command line
    up = Up(
        "--external-redis",
        "--data-dir",
        str(tmp_path / "data"),
        "--max-restarts",
        "2",
        env={"FENGSHENG_REDIS_URL": redis_url},
    )
    assert set(up.children) == {"engine", "worker", "gateway"}  # no embedded Redis
    assert f"redis     {redacted(redis_url)} (external)" in up.text()
    port = int(re.search(r"engine\s+127\.0\.0\.1:(\d+) \(gRPC\)", up.text()).group(1))  # type: ignore[union-attr]
    os.kill(up.children["engine"], signal.SIGKILL)
    # someone else takes the engine's port: every restart fails to bind and exits at once
    with socket.socket() as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        deadline = time.monotonic() + 5
        while True:
            try:
                squatter.bind(("127.0.0.1", port))
                break
            except OSError:
                assert time.monotonic() < deadline, f"port {port} stayed busy"
                time.sleep(0.05)
        squatter.listen()
        up.track()
        assert up.wait_all_gone(timeout=90) == 1
    text = up.text()
    assert "up: engine exited with status -9; restarting it in 0.5 s" in text
    assert re.search(r"up: engine exited with status 1; restarting it in 1\.0 s", text), text
    assert "up: engine keeps crashing" in text and "giving up" in text
    assert "Failed to bind" in text  # the child's last lines say why
    assert "up: stopped" in text
