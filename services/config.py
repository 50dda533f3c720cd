"""Settings read from the environment (one place), with the CLI flags overriding them.

=================================  ============================================  ==========
variable                           meaning                                       default
=================================  ============================================  ==========
``FENGSHENG_REDIS_URL``            Redis for the store and the Celery broker     ``redis://127.0.0.1:6379/0``
``FENGSHENG_ENGINE_ADDR``          engine gRPC address the workers call          ``127.0.0.1:50051``
``FENGSHENG_VISIBILITY_TIMEOUT``   seconds before an unacked task is redelivered ``120``
``FENGSHENG_RESTORE_INTERVAL``     seconds between sweeps for unacked tasks      ``10``
``FENGSHENG_TASK_ROUTES``          ``1``: route tasks to per-kind queues          off
                                   (bots, timers, matchmaking, ladder)
``FENGSHENG_WORKER_METRICS_PORT``  a worker serves Prometheus ``/metrics`` here  off
``FENGSHENG_GROUP_COMMIT_MS``      engine: longest wait to share an action write  ``2``
                                   with others (0 = off; services/redis_pipe.py)
=================================  ============================================  ==========
"""

from __future__ import annotations

import os

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_ENGINE_ADDR = "127.0.0.1:50051"


def redis_url() -> str:
    return os.environ.get("FENGSHENG_REDIS_URL") or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def engine_addr() -> str:
    return os.environ.get("FENGSHENG_ENGINE_ADDR") or DEFAULT_ENGINE_ADDR


def visibility_timeout() -> float:
    return float(os.environ.get("FENGSHENG_VISIBILITY_TIMEOUT") or 120)


def restore_interval() -> float:
    return float(os.environ.get("FENGSHENG_RESTORE_INTERVAL") or 10)


#: see :func:`group_commit_ms`
DEFAULT_GROUP_COMMIT_MS = 2.0


def group_commit_ms() -> float:
    """How long (ms) the engine may hold an action's write so that the writes of concurrent
    matches go to Redis together. It holds only while writes come closer together than
    that, so a quiet server writes each action at once (services/redis_pipe.py)."""
    raw = os.environ.get("FENGSHENG_GROUP_COMMIT_MS")
    return DEFAULT_GROUP_COMMIT_MS if raw is None or raw == "" else float(raw)


def task_routes() -> bool:
    """Route tasks to per-kind queues (``bots``, ``timers``, ``matchmaking``, ``ladder``)."""
    return (os.environ.get("FENGSHENG_TASK_ROUTES") or "").lower() in ("1", "true", "yes", "on")
