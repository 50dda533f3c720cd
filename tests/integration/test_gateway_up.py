"""``fengsheng up`` from the working tree: SIGTERM, a dying child, an external Redis.

(The fresh-clone run with Ctrl-C is ``test_fresh_clone_up.py``.)
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest
from helpers.gateway_procs import alive, descendants
from helpers.processes import ROOT, _env

pytestmark = pytest.mark.integration


class Up:
    """A running ``fengsheng up`` with its output and the processes it started."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "fengsheng.cli", "up", "--port", "0", "--quiet", *args],
            cwd=ROOT,
            env=_env(None),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.ready.wait(90) and self.process.poll() is None, self.text()[-3000:]
        pids = re.search(r"pids\s+(.+)", self.text())
        assert pids, self.text()
        self.children = {name: int(pid) for name, pid in re.findall(r"(\w+)=(\d+)", pids.group(1))}
        self.started = descendants(self.process.pid)
        assert set(self.children.values()) <= self.started
        url = re.search(r"gateway\s+(http://\S+)", self.text())
        assert url
        self.url = url.group(1)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in iter(self.process.stdout.readline, ""):
            self.lines.append(line)
            if line.startswith("Ctrl-C stops everything"):
                self.ready.set()
        self.ready.set()

    def text(self) -> str:
        return "".join(self.lines)

    def wait_all_gone(self, timeout: float = 30.0) -> int:
        """Wait for ``up`` to exit; every process it started must be gone. Its exit status."""
        try:
            status = self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in self.started):
            time.sleep(0.1)
        left = {pid for pid in self.started if alive(pid)}
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"left behind: {left}\n{self.text()[-3000:]}"
        return status


def test_sigterm_stops_everything() -> None:
    up = Up()
    assert set(up.children) == {"redis", "engine", "worker", "gateway"}
    assert httpx.get(f"{up.url}/healthz", timeout=5).json()["status"] == "ok"
    up.process.send_signal(signal.SIGTERM)
    assert up.wait_all_gone() == 0
    assert "up: stopped" in up.text()


def test_a_dying_child_stops_the_rest_with_an_external_redis(redis_url: str) -> None:
    up = Up("--redis-url", redis_url)
    assert set(up.children) == {"engine", "worker", "gateway"}  # no embedded Redis
    assert f"redis     {redis_url} (external)" in up.text()
    os.kill(up.children["engine"], signal.SIGKILL)
    assert up.wait_all_gone() == 1
    assert "engine exited" in up.text()
