"""Prometheus metrics of a Celery worker, served by the worker itself.

Set ``FENGSHENG_WORKER_METRICS_PORT`` (and optionally ``FENGSHENG_METRICS_HOST``, default
``127.0.0.1``: the series name queues and tasks, which is nobody's business outside the
cluster; a container sets ``0.0.0.0`` and keeps the port unpublished) in a worker's
environment and, once the worker is ready, it serves ``/metrics`` on that port
(``fengsheng worker`` and ``celery -A services.workers.celery_app worker`` alike; the ``threads``
and ``solo`` pools, where tasks run in the worker's own process):

| series | what |
|---|---|
| ``fengsheng_tasks_total{task, result}`` | tasks finished, by name and result |
|  | (``applied``, ``stale``, ``dropped``, ``retry``, ``failure``, ...) |
| ``fengsheng_task_failures_total{task}`` | tasks that raised (after their retries, or not retryable) |
| ``fengsheng_task_retries_total{task}`` | retries scheduled |
| ``fengsheng_task_seconds{task}`` | task run time (histogram) |
| ``fengsheng_queue_length{queue}`` | messages waiting in each Celery queue on the broker (read at scrape time) |
| ``fengsheng_unacked_tasks`` | messages delivered to some worker and not yet acknowledged |
| ``fengsheng_outbox_size`` | decisions whose task the engine has not yet confirmed sent (``fs:outbox:{TAG}``, summed) |
| ``fengsheng_task_leases`` | sent tasks whose decision is not yet answered (``fs:leases:{TAG}``, summed) |

The queue series are read from the broker (Redis ``LLEN``/``HLEN``/``ZCARD``) when Prometheus
scrapes, so any one worker reports the whole cluster's queues.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from prometheus_client import REGISTRY, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from services.engine.store import LEASES_PREFIX, OUTBOX_PREFIX, SLOTS_KEY, slot_tag

log = logging.getLogger("fengsheng.worker_metrics")

#: the interface of the worker's ``/metrics`` unless ``FENGSHENG_METRICS_HOST`` says otherwise
DEFAULT_METRICS_HOST = "127.0.0.1"

#: the Celery queues the platform uses (``fengsheng`` is the default one)
QUEUES = ("fengsheng", "bots", "timers", "matchmaking", "ladder")

TASKS = Counter("fengsheng_tasks_total", "Celery tasks finished, by task name and result", ["task", "result"])
FAILURES = Counter("fengsheng_task_failures_total", "Celery tasks that raised", ["task"])
RETRIES = Counter("fengsheng_task_retries_total", "Celery task retries scheduled", ["task"])
SECONDS = Histogram(
    "fengsheng_task_seconds",
    "Celery task run time",
    ["task"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

_started: dict[str, float] = {}
_lock = threading.Lock()
_installed = False


class BrokerCollector(Collector):
    """Queue lengths, unacked messages and the engine's outbox, read from Redis at scrape time."""

    def __init__(self, redis_url: str, queues: Iterable[str] = QUEUES, *, match_url: str | None = None) -> None:
        """``redis_url``: the broker; ``match_url``: the match store holding the outbox and
        the leases (default: the broker's Redis; may be a cluster)."""
        import redis

        from services.redis_client import sync_client

        self.redis = redis.Redis.from_url(redis_url, socket_timeout=2.0, socket_connect_timeout=2.0)
        self.matches: Any = (
            sync_client(match_url, socket_timeout=2.0, socket_connect_timeout=2.0)
            if match_url and match_url != redis_url
            else self.redis
        )
        self.queues = tuple(queues)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        lengths = GaugeMetricFamily("fengsheng_queue_length", "Messages waiting in a Celery queue", labels=["queue"])
        unacked = GaugeMetricFamily("fengsheng_unacked_tasks", "Celery messages delivered and not yet acknowledged")
        outbox = GaugeMetricFamily("fengsheng_outbox_size", "Decisions whose task is not yet confirmed sent")
        leases = GaugeMetricFamily("fengsheng_task_leases", "Sent tasks whose decision is not yet answered")
        up = GaugeMetricFamily("fengsheng_broker_up", "1 when the broker answered this scrape")
        try:
            pipe = self.redis.pipeline(transaction=False)
            for q in self.queues:
                pipe.llen(q)
            pipe.hlen("unacked")
            values = pipe.execute()
            # one outbox and one lease set per hash slot (services/engine/store.py)
            tags = [slot_tag(int(x)) for x in self.matches.smembers(SLOTS_KEY)]
            pipe = self.matches.pipeline(transaction=False)
            for tag in tags:  # scored by time: not the cluster's anchor members, at +inf
                pipe.zcount(OUTBOX_PREFIX + "{" + tag + "}", "-inf", "(+inf")
                pipe.zcount(LEASES_PREFIX + "{" + tag + "}", "-inf", "(+inf")
            counts = pipe.execute()
            values += [sum(counts[0::2]), sum(counts[1::2])]
        except Exception as exc:
            log.warning("broker metrics unavailable: %s", exc)
            up.add_metric([], 0)
            yield up
            return
        for q, n in zip(self.queues, values, strict=False):
            lengths.add_metric([q], int(n))
        unacked.add_metric([], int(values[len(self.queues)]))
        outbox.add_metric([], int(values[len(self.queues) + 1]))
        leases.add_metric([], int(values[len(self.queues) + 2]))
        up.add_metric([], 1)
        yield from (lengths, unacked, outbox, leases, up)


def _task_name(sender: Any, task: Any = None) -> str:
    t = task or sender
    return str(getattr(t, "name", None) or t or "unknown")


def install(redis_url: str | None = None, *, registry: Any = REGISTRY) -> None:
    """Connect the Celery signals (once per process); start the HTTP server when the worker is
    ready if ``FENGSHENG_WORKER_METRICS_PORT`` is set."""
    global _installed
    if _installed:
        return
    _installed = True
    from celery import signals

    for name in ("bots.move", "timers.expire"):  # present (at 0) before the first task
        FAILURES.labels(name)
        RETRIES.labels(name)

    @signals.task_prerun.connect(weak=False)
    def _prerun(task_id: str | None = None, task: Any = None, **_: Any) -> None:
        if task_id:
            with _lock:
                _started[task_id] = time.perf_counter()

    @signals.task_postrun.connect(weak=False)
    def _postrun(task_id: str | None = None, task: Any = None, retval: Any = None, state: str = "", **_: Any) -> None:
        name = _task_name(task)
        with _lock:
            t0 = _started.pop(task_id or "", None)
        if t0 is not None:
            SECONDS.labels(name).observe(time.perf_counter() - t0)
        if state == "SUCCESS":
            result = retval if isinstance(retval, str) and len(retval) <= 32 else "ok"
        else:
            result = (state or "unknown").lower()
        TASKS.labels(name, result).inc()

    @signals.task_failure.connect(weak=False)
    def _failure(sender: Any = None, **_: Any) -> None:
        FAILURES.labels(_task_name(sender)).inc()

    @signals.task_retry.connect(weak=False)
    def _retry(sender: Any = None, **_: Any) -> None:
        RETRIES.labels(_task_name(sender)).inc()

    @signals.worker_ready.connect(weak=False)
    def _serve(sender: Any = None, **_: Any) -> None:
        port = int(os.environ.get("FENGSHENG_WORKER_METRICS_PORT") or 0)
        if not port:
            return
        from prometheus_client import start_http_server

        from services import config

        url = redis_url or getattr(getattr(sender, "app", None), "conf", {}).get("broker_url") or config.redis_url()
        with contextlib.suppress(ValueError):  # already registered (a second worker in this process)
            registry.register(BrokerCollector(str(url), match_url=config.role_url("match")))
        host = os.environ.get("FENGSHENG_METRICS_HOST") or DEFAULT_METRICS_HOST
        start_http_server(port, addr=host, registry=registry)
        print(f"fengsheng worker metrics on http://{host}:{port}/metrics", flush=True)
