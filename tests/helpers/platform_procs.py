"""A whole platform for one test module: an engine server, a Celery worker and (optionally) the
gateway, on a Redis database of the module's own (its queue, ladder and broker apart).

>>> with own_platform(redis_url, logs, db=12, env=ENV) as procs:    # doctest: +SKIP
...     httpx.get(procs.gateway.extra["url"] + "/healthz")
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import redis

from helpers.gateway_procs import start_gateway
from helpers.processes import ServiceProcess, start_engine_server, start_worker


@dataclass
class PlatformProcs:
    """The platform's processes and the Redis URL of its database."""

    url: str
    engine: ServiceProcess
    worker: ServiceProcess
    gateway: ServiceProcess | None


@contextlib.contextmanager
def own_platform(redis_url: str, logs: Path, *, db: int, env: Mapping[str, str] | None = None,
                 concurrency: int = 2, gateway: bool = True) -> Iterator[PlatformProcs]:  # fmt: skip
    """Flush database ``db`` of ``redis_url``'s server and start the platform on it; stops
    every process it started on the way out."""
    url = re.sub(r"/\d*$", "", redis_url) + f"/{db}"
    redis.Redis.from_url(url).flushdb()
    engine = start_engine_server(url, logs, env=env)
    started = [engine]
    try:
        worker = start_worker(url, engine.address, logs, concurrency=concurrency, env=env)
        started.append(worker)
        gw = None
        if gateway:
            gw = start_gateway(engine.address, logs, redis_url=url, bot_address=engine.extra["bot_address"])
            started.append(gw)
        yield PlatformProcs(url, engine, worker, gw)
    finally:
        for proc in reversed(started):
            proc.stop()
