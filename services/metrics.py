"""Prometheus metrics of the engine service (served by ``fengsheng engine-server
--metrics-port``)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

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
