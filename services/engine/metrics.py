"""Prometheus metrics of the engine service (served by ``fengsheng engine-server
--metrics-port``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

ACTIONS = Counter("fengsheng_actions_total", "Actions applied", ["origin"])
REJECTED = Counter("fengsheng_actions_rejected_total", "Actions rejected", ["kind"])
CONFLICTS = Counter("fengsheng_cas_conflicts_total", "Compare-and-set conflicts (reloaded and re-checked)")
MATCHES = Counter("fengsheng_matches_created_total", "Matches created")
CACHE = Counter("fengsheng_cache_total", "Match cache lookups", ["result"])
RPC_SECONDS = Histogram(
    "fengsheng_rpc_seconds",
    "Engine service RPC latency",
    ["method"],
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
ACTIVE = Gauge(
    "fengsheng_active_matches",
    "Unfinished matches held in this replica's cache (the matches it served recently)",
)
CACHED = Gauge("fengsheng_cached_matches", "Matches held in this replica's cache")


def track_service(service: Any) -> None:
    """Point the cache gauges at ``service`` (a :class:`services.engine.matches.MatchService`)."""

    def active() -> int:
        return sum(1 for m in list(service._cache.values()) if not m.game.is_over)

    ACTIVE.set_function(active)
    CACHED.set_function(lambda: len(service._cache))
    _STORE_WRITES.service = service


class _StoreWrites(Collector):
    """The action writes' Redis traffic: commands sent and the socket writes that carried
    them (group commit: commands / writes is the mean group size; services/engine/redis_pipe.py)."""

    def __init__(self) -> None:
        self.service: Any = None

    def collect(self) -> Iterator[CounterMetricFamily]:
        stats = self.service.store.pipe.stats if self.service is not None else None
        commands = CounterMetricFamily(
            "fengsheng_store_commands", "Redis commands sent on the engine's pipelined connection"
        )
        writes = CounterMetricFamily(
            "fengsheng_store_writes", "Socket writes that carried them (fewer under group commit)"
        )
        commands.add_metric([], stats.commands if stats else 0)
        writes.add_metric([], stats.writes if stats else 0)
        yield commands
        yield writes


_STORE_WRITES = _StoreWrites()
REGISTRY.register(_STORE_WRITES)
