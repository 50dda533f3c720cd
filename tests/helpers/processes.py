"""Real processes for integration tests: the engine gRPC server, Celery workers, health waits.

Every process runs ``python -m fengsheng.cli …`` (the same code path as the CLI), writes
its output to a log file (read it with :meth:`ServiceProcess.log`), and is stopped by
:meth:`ServiceProcess.stop` (SIGTERM, then SIGKILL) or killed with
:meth:`ServiceProcess.kill` (SIGKILL, for crash tests).

>>> engine = start_engine_server(redis_url, tmp_path)            # doctest: +SKIP
>>> worker = start_worker(redis_url, engine.address, tmp_path)   # doctest: +SKIP

Children get the session's service credential (``FENGSHENG_SERVICE_TOKEN``, set by
tests/conftest.py) in their environment; the tests' channels to the internal listener come
from :func:`services.channels.engine_channel`, which sends it. An engine server's bot
listener is on a free port too: ``engine.extra["bot_address"]``.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.channels import engine_channel
from services.credentials import ENV as SERVICE_TOKEN_ENV
from services.credentials import service_token

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ServiceProcess:
    """A child process with its log file; ``address`` is set for servers."""

    name: str
    process: subprocess.Popen[bytes]
    log_path: Path
    address: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL, no clean-up: a crash."""
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self, timeout: float = 10.0) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def _env(extra: Mapping[str, str] | None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    env[SERVICE_TOKEN_ENV] = service_token()  # the session's credential (tests/conftest.py)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if extra:
        env.update(extra)
    return env


def redis_env(redis_url: str) -> dict[str, str]:
    """A child's environment naming ``redis_url``, which may carry a password (so it must not
    go on the command line: ``--redis-url`` refuses one)."""
    return {"FENGSHENG_REDIS_URL": redis_url}


def spawn(name: str, args: list[str], log_dir: Path, env: Mapping[str, str] | None = None) -> ServiceProcess:
    """Start ``python -m fengsheng.cli ARGS`` with output to ``log_dir/NAME-PID.log``."""
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"{name}-{time.monotonic_ns()}.log"
    fh = log_path.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "fengsheng.cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=fh,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
        env=_env(env),
        start_new_session=True,
    )
    fh.close()
    return ServiceProcess(name, proc, log_path)


def wait_for(predicate: Callable[[], bool], timeout: float, what: str, interval: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout}s waiting for {what}")


def wait_for_log(proc: ServiceProcess, pattern: str, timeout: float = 30.0) -> re.Match[str]:
    """Wait until the process's log matches ``pattern``; fail early if it exits."""
    rx = re.compile(pattern)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = rx.search(proc.log())
        if m:
            return m
        if not proc.alive():
            raise RuntimeError(f"{proc.name} exited with {proc.process.returncode}:\n{proc.log()[-3000:]}")
        time.sleep(0.05)
    raise TimeoutError(f"{proc.name}: no {pattern!r} in its log after {timeout}s:\n{proc.log()[-3000:]}")


def wait_for_health(address: str, service: str = "", timeout: float = 20.0) -> None:
    """Wait until the gRPC health service at ``address`` reports SERVING."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    with engine_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            try:
                res = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1.0)
                if res.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError as exc:
                last = exc
            time.sleep(0.05)
    raise TimeoutError(f"{address} not healthy after {timeout}s: {last}")


def start_engine_server(
    redis_url: str,
    log_dir: Path,
    *,
    port: int = 0,
    bot_port: int = 0,
    celery: bool = True,
    env: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> ServiceProcess:
    """``fengsheng engine-server`` on loopback; returns once it is healthy. ``address`` is
    the internal listener, ``extra["bot_address"]`` the bot listener."""
    args = ["engine-server", "--host", "127.0.0.1", "--port", str(port), "--bot-port", str(bot_port)]
    if not celery:
        args.append("--no-celery")
    env = {**redis_env(redis_url), **(env or {})}  # the URL may carry a password: never on argv
    proc = spawn("engine", args, log_dir, env)
    m = wait_for_log(proc, r"listening on (\S+:\d+) bots on (\S+:\d+)", timeout)
    proc.address = m.group(1)
    proc.extra["bot_address"] = m.group(2)
    wait_for_health(proc.address, timeout=timeout)
    return proc


#: Broker settings that make a killed worker's task come back within seconds.
FAST_REDELIVERY_ENV = {"FENGSHENG_VISIBILITY_TIMEOUT_MS": "3000", "FENGSHENG_RESTORE_INTERVAL_MS": "1000"}


def start_worker(
    redis_url: str,
    engine_address: str,
    log_dir: Path,
    *,
    concurrency: int = 2,
    env: Mapping[str, str] | None = None,
    timeout: float = 40.0,
) -> ServiceProcess:
    """``fengsheng worker`` (threads pool); returns once Celery says it is ready."""
    args = [
        "worker",
        "--engine",
        engine_address,
        "--concurrency",
        str(concurrency),
    ]
    proc = spawn("worker", args, log_dir, {**FAST_REDELIVERY_ENV, **redis_env(redis_url), **(env or {})})
    wait_for_log(proc, r"ready\.", timeout)
    return proc
