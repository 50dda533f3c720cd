"""A running ``fengsheng up`` for integration tests.

>>> up = Up("--data-dir", str(tmp_path / "data"))      # doctest: +SKIP
>>> httpx.get(up.url + "/healthz")                       # doctest: +SKIP
>>> up.process.send_signal(signal.SIGTERM); up.wait_all_gone()   # doctest: +SKIP

``up`` restarts a child that dies (``up: NAME restarted (pid N)``): :meth:`Up.pid` is a
child's current pid, and :meth:`Up.track` adds the processes started since to those
:meth:`Up.wait_all_gone` checks.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping

from helpers.gateway_procs import alive, descendants
from helpers.processes import ROOT, _env
from services.credentials import ENV as SERVICE_TOKEN_ENV


class Up:
    """A running ``fengsheng up`` with its output and the processes it started; ``env`` adds
    to the environment (secrets go there, never on the command line). Unless ``env`` names
    one, ``up`` gets no service credential from the test session: like a new user's, it makes
    its own and keeps it in its data directory."""

    def __init__(self, *args: str, env: Mapping[str, str] | None = None, timeout: float = 90.0) -> None:
        child_env = _env(env)
        if SERVICE_TOKEN_ENV not in (env or {}):
            child_env.pop(SERVICE_TOKEN_ENV, None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "fengsheng.cli", "up", "--port", "0", *args],
            cwd=ROOT,
            env=child_env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.ready.wait(timeout) and self.process.poll() is None, self.text()[-3000:]
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

    def pid(self, name: str) -> int:
        """The current pid of the child ``name`` (the banner's, or that of its latest restart)."""
        restarts = re.findall(rf"^up: {re.escape(name)} restarted \(pid (\d+)\)$", self.text(), re.MULTILINE)
        return int(restarts[-1]) if restarts else self.children[name]

    def wait_restarted(self, name: str, after: int, timeout: float = 60.0) -> int:
        """Wait until ``up`` has restarted ``name`` (its pid is no longer ``after``); the new pid."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.pid(name)
            if pid != after:
                self.track()
                return pid
            assert self.process.poll() is None, self.text()[-3000:]
            time.sleep(0.1)
        raise AssertionError(f"{name} was not restarted within {timeout}s:\n{self.text()[-3000:]}")

    def track(self) -> None:
        """Add the processes ``up`` runs now to those that must be gone after it stops."""
        self.started |= descendants(self.process.pid)

    def stop(self) -> int:
        """SIGTERM ``up`` and wait until everything it started is gone; its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.wait_all_gone()

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
