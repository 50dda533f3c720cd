"""Prometheus metrics of one gateway app (its own registry, so several apps can coexist)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


class Metrics:
    """The gateway's counters, histograms and gauges, served at ``/metrics``."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "fengsheng_gateway_requests_total",
            "HTTP requests by route template, method and status",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.request_seconds = Histogram(
            "fengsheng_gateway_request_seconds",
            "HTTP request latency by route template",
            ["route"],
            registry=self.registry,
        )
        self.engine_calls = Counter(
            "fengsheng_gateway_engine_calls_total",
            "gRPC calls to the engine service by method and status code",
            ["method", "code"],
            registry=self.registry,
        )
        self.engine_seconds = Histogram(
            "fengsheng_gateway_engine_call_seconds",
            "gRPC call latency to the engine service by method",
            ["method"],
            registry=self.registry,
        )
        self.websockets = Gauge(
            "fengsheng_gateway_websockets",
            "open WebSocket connections by kind (seat, spectator)",
            ["kind"],
            registry=self.registry,
        )
        self.actions = Counter(
            "fengsheng_gateway_actions_total",
            "actions submitted by humans through the gateway, by transport and result",
            ["transport", "result"],
            registry=self.registry,
        )
        self.engine_replica_calls = Counter(
            "fengsheng_gateway_engine_replica_calls_total",
            "gRPC call attempts by engine replica address (round-robin over --engine A,B)",
            ["replica"],
            registry=self.registry,
        )
        self.engine_failovers = Counter(
            "fengsheng_gateway_engine_failovers_total",
            "engine calls resent to the next replica after UNAVAILABLE, by method",
            ["method"],
            registry=self.registry,
        )
