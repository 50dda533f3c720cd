"""Which Redis failures mean "the store is not there right now", shared by the engine service
and the gateway (each keeps its own Redis; neither imports the other).

The connection dropped or timed out, Redis is restarting or still loading its AOF
(``LOADING`` -> ``BusyLoadingError``, a ``ConnectionError``), a replica not yet promoted
(``READONLY``, ``MASTERDOWN``, ``TRYAGAIN``): not "the request is wrong". Every caller maps
them to gRPC ``UNAVAILABLE`` / HTTP 503 with ``Retry-After``, which clients retry with
backoff (docs/operations.md, "Redis restarts").
"""

from __future__ import annotations

import redis.exceptions

STORE_UNAVAILABLE: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.TryAgainError,
)
