"""Settings read from the environment (one place), with the CLI flags overriding them.

=================================  ============================================  ==========
variable                           meaning                                       default
=================================  ============================================  ==========
``FENGSHENG_REDIS_URL``            Redis for the store and the Celery broker     ``redis://127.0.0.1:6379/0``
``FENGSHENG_ENGINE_ADDR``          engine gRPC address the workers call          ``127.0.0.1:50051``
``FENGSHENG_VISIBILITY_TIMEOUT``   seconds before an unacked task is redelivered ``120``
``FENGSHENG_RESTORE_INTERVAL``     seconds between sweeps for unacked tasks      ``10``
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
