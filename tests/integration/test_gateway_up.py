"""``fengsheng up`` from the working tree: SIGTERM, a dying child, an external Redis.

(The fresh-clone run with Ctrl-C is ``test_fresh_clone_up.py``.)
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
import pytest
from helpers.up_proc import Up

from services.config import redacted

pytestmark = pytest.mark.integration


def test_sigterm_stops_everything(tmp_path: Path) -> None:
    up = Up("--data-dir", str(tmp_path / "data"))
    assert set(up.children) == {"redis", "engine", "worker", "gateway"}
    assert httpx.get(f"{up.url}/healthz", timeout=5).json()["status"] == "ok"
    up.process.send_signal(signal.SIGTERM)
    assert up.wait_all_gone() == 0
    assert "up: stopped" in up.text()


def test_a_dying_child_stops_the_rest_with_an_external_redis(redis_url: str, tmp_path: Path) -> None:
    # the URL may carry a password: it goes by environment, never on the command line
    up = Up("--external-redis", "--data-dir", str(tmp_path / "data"), env={"FENGSHENG_REDIS_URL": redis_url})
    assert set(up.children) == {"engine", "worker", "gateway"}  # no embedded Redis
    assert f"redis     {redacted(redis_url)} (external)" in up.text()
    os.kill(up.children["engine"], signal.SIGKILL)
    assert up.wait_all_gone() == 1
    assert "engine exited" in up.text()
