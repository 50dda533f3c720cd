"""Client-side round-robin over several engine replicas, for blocking (sync) gRPC callers.

``FENGSHENG_ENGINE_ADDR`` / ``fengsheng worker --engine`` may list several replicas,
comma-separated (``engine-1:50051,engine-2:50051``). :class:`RoundRobinStub` keeps one
channel per replica and sends each call to the next one in turn; a call that fails with
``UNAVAILABLE`` (replica down or restarting) goes to the next replica, up to once per
replica. Every engine RPC is safe to resend: reads are reads, and ``Act`` names its
decision number (a resend of an action that the dead replica had applied answers
``FAILED_PRECONDITION``, which the tasks treat as done).

Each channel also uses gRPC's ``round_robin`` load-balancing policy, so a single DNS name
resolving to several pods (``dns:///engine-headless:50051``) is spread as well.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

import grpc

from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel

CHANNEL_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
    ("grpc.lb_policy_name", "round_robin"),
]


def split_addresses(address: str) -> list[str]:
    """``"A:1,B:2"`` -> ``["A:1", "B:2"]``; a target with a scheme holding commas is kept whole."""
    text = address.strip()
    if text.startswith(("ipv4:", "ipv6:")):
        return [text]
    return [p.strip() for p in text.split(",") if p.strip()]


class RoundRobinStub:
    """Quacks like ``EngineServiceStub`` for unary calls; spreads them over the replicas."""

    def __init__(self, addresses: list[str]) -> None:
        if not addresses:
            raise ValueError("no engine address")
        self.addresses = addresses
        self.channels = [engine_channel(a, CHANNEL_OPTIONS) for a in addresses]  # with the service credential
        self.stubs = [es_grpc.EngineServiceStub(c) for c in self.channels]
        self._turn = itertools.count()
        self._lock = threading.Lock()

    def _order(self) -> list[int]:
        with self._lock:
            first = next(self._turn) % len(self.stubs)
        return [(first + k) % len(self.stubs) for k in range(len(self.stubs))]

    def _unary(self, method: str) -> Callable[..., Any]:
        def call(request: Any, **kwargs: Any) -> Any:
            order = self._order()
            for attempt, index in enumerate(order):
                try:
                    return getattr(self.stubs[index], method)(request, **kwargs)
                except grpc.RpcError as exc:
                    if exc.code() == grpc.StatusCode.UNAVAILABLE and attempt + 1 < len(order):
                        continue
                    raise
            raise AssertionError("unreachable")

        return call

    def __getattr__(self, method: str) -> Callable[..., Any]:
        if method.startswith("_") or method in ("Watch",):
            raise AttributeError(method)
        return self._unary(method)

    def close(self) -> None:
        for channel in self.channels:
            channel.close()
