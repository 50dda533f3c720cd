"""Gateway processes and process-tree checks for integration tests.

>>> gw = start_gateway(engine.address, tmp_path, redis_url=redis_url)   # doctest: +SKIP
>>> httpx.get(gw.extra["url"] + "/healthz")                               # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import redis

from helpers.processes import ServiceProcess, redis_env, spawn, start_engine_server, start_worker, wait_for_log


def start_gateway(
    engine_address: str,
    log_dir: Path,
    *,
    redis_url: str | None = None,
    secret: str = "integration-secret",
    bot_address: str = "",
    timeout: float = 30.0,
    env: Mapping[str, str] | None = None,
) -> ServiceProcess:
    """``fengsheng gateway --port 0``; returns once ``/healthz`` answers 200 (``extra["url"]``).
    ``bot_address`` (the engine's ``extra["bot_address"]``) is what ``/api/bots/connect-info``
    tells bots (``$FENGSHENG_BOT_ADDR``); the service credential comes with the environment;
    ``env``: more of it (e.g. ``FENGSHENG_TRUSTED_PROXIES``)."""
    args = ["gateway", "--engine", engine_address, "--port", "0"]
    env = {"FENGSHENG_SECRET": secret, **(env or {})}  # secrets by environment, never on argv
    if redis_url:
        env.update(redis_env(redis_url))
    if bot_address:
        env["FENGSHENG_BOT_ADDR"] = bot_address
    proc = spawn("gateway", args, log_dir, env)
    m = wait_for_log(proc, r"listening on (http://\S+)", timeout)
    url = m.group(1)
    proc.address = url.removeprefix("http://")
    proc.extra["url"] = url
    wait_until(lambda: httpx.get(f"{url}/healthz", timeout=2).status_code == 200, timeout, "gateway health")
    return proc


@dataclass
class Platform:
    """A whole platform's processes on one Redis database: engine server (with its bot
    listener), a Celery worker (its embedded beat runs matchmaking) and the gateway."""

    redis_url: str
    engine: ServiceProcess
    worker: ServiceProcess
    gateway: ServiceProcess


@contextlib.contextmanager
def platform_on(redis_url: str, db: int, log_dir: Path, env: Mapping[str, str], *, concurrency: int = 2,
                gateway_env: Mapping[str, str] | None = None) -> Iterator[Platform]:  # fmt: skip
    """Start a :class:`Platform` on database ``db`` of ``redis_url``'s server (flushed first:
    its queue and broker are its own) with ``env`` for the engine and worker (and
    ``gateway_env`` for the gateway); stop it all on exit."""
    url = re.sub(r"/\d*$", "", redis_url) + f"/{db}"
    redis.Redis.from_url(url).flushdb()
    engine = start_engine_server(url, log_dir, env=env)
    worker = gateway = None
    try:
        worker = start_worker(url, engine.address, log_dir, concurrency=concurrency, env=env)
        gateway = start_gateway(engine.address, log_dir, redis_url=url, bot_address=engine.extra["bot_address"],
                                env=gateway_env)  # fmt: skip
        yield Platform(url, engine, worker, gateway)
    finally:
        for proc in (gateway, worker, engine):
            if proc is not None:
                proc.stop()


def wait_until(check: Callable[[], bool], timeout: float, what: str, interval: float = 0.05) -> None:
    """Poll ``check`` (exceptions count as false) until it is true or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception as exc:
            last = exc
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout}s waiting for {what} (last error: {last})")


def poll_json(
    client: httpx.Client, path: str, until: Callable[[Any], bool], timeout: float = 60.0, **kwargs: Any
) -> Any:
    """GET ``path`` until ``until(json)`` holds; return that JSON."""
    deadline = time.monotonic() + timeout
    data: Any = None
    while time.monotonic() < deadline:
        reply = client.get(path, **kwargs)
        reply.raise_for_status()
        data = reply.json()
        if until(data):
            return data
        time.sleep(0.1)
    raise TimeoutError(f"GET {path}: condition not met after {timeout}s; last: {str(data)[:2000]}")


def guest_bearer(http: httpx.Client, name: str = "bot-owner", **kwargs: Any) -> dict[str, str]:
    """The ``authorization`` header of a new guest (``POST /api/guests``): a player token,
    what registering a bot takes (its owner)."""
    reply = http.post("/api/guests", json={"name": name}, **kwargs)
    assert reply.status_code == 201, reply.text
    return {"authorization": f"Bearer {reply.json()['token']}"}


def register_bot(http: httpx.Client, name: str, owner: dict[str, str] | None = None) -> dict[str, Any]:
    """``POST /api/bots`` for a bot named ``name`` owned by the player of the ``owner``
    header (default: a new guest of its own); the answer (``bot_id``, ``token``, ...)."""
    reply = http.post("/api/bots", json={"name": name}, headers=owner or guest_bearer(http, f"{name[:26]}-owner"))
    assert reply.status_code == 201, reply.text
    made: dict[str, Any] = reply.json()
    return made


def _ppid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    # the command name (field 2) may hold spaces or parentheses: split after the last ")"
    return int(stat.rsplit(")", 1)[1].split()[1])


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (children, grandchildren...), from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            ppid = _ppid(int(entry))
            if ppid is not None:
                parents[int(entry)] = ppid
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
