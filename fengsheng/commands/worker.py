"""``fengsheng worker``: a Celery worker running bot moves and turn timers.

The tasks call the engine service at ``--engine`` over gRPC. The default pool is
``threads`` (the tasks mostly wait on gRPC); ``--pool prefork`` works too.

A Redis password comes from the environment (``FENGSHENG_REDIS_URL`` or
``FENGSHENG_REDIS_PASSWORD``, or their ``_FILE``), never from ``--redis-url``, which any
local user can read on the command line. ``--redis-url`` stands for ``FENGSHENG_REDIS_URL``;
the broker's own ``FENGSHENG_BROKER_URL`` and the ranked store's ``FENGSHENG_RANKED_REDIS_URL``
win over it (matchmaking and ladder tasks), and the ``/metrics`` outbox gauges read the match
store (``FENGSHENG_MATCH_REDIS_URL``, which may be a cluster). ``--metrics-port`` serves the worker's Prometheus
``/metrics`` on ``--metrics-host`` (default 127.0.0.1; see services/workers/metrics.py).
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis-url",
        default=None,
        help="Redis URL without a password for every role without its own (default: $FENGSHENG_REDIS_URL, "
        "which may carry one; $FENGSHENG_BROKER_URL is the broker's own)",
    )
    parser.add_argument("--engine", default=None, help="engine gRPC address (default: $FENGSHENG_ENGINE_ADDR)")
    parser.add_argument("--concurrency", type=int, default=4, help="tasks run at once (default: 4)")
    parser.add_argument("--pool", default="threads", choices=("threads", "prefork", "solo"))
    parser.add_argument("--loglevel", default="INFO")
    parser.add_argument("--name", default=None, help="worker node name (default: fengsheng-PID@HOST)")
    parser.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        help="serve Prometheus /metrics on this port (default: $FENGSHENG_WORKER_METRICS_PORT, else off)",
    )
    parser.add_argument(
        "--metrics-host",
        default=None,
        help="interface for /metrics (default: $FENGSHENG_METRICS_HOST, else 127.0.0.1)",
    )


def _quiet_root_warning() -> None:
    """Silence exactly Celery's "running the worker with superuser privileges" warning.

    What makes root dangerous for a Celery worker is unpickling messages from the broker;
    this worker accepts JSON only (``accept_content=["json"]`` in services/workers/celery_app.py), and
    with pickle accepted Celery refuses to start as root rather than warn. Root is what
    containers without a ``USER`` and CI run as (deploy/Dockerfile runs as uid 10001), and
    ``--uid`` would need a second account owning nothing the worker reads; the warning said
    nothing actionable there and was printed on every ``fengsheng up``."""
    import warnings

    from celery.exceptions import SecurityWarning

    warnings.filterwarnings(
        "ignore", message=r"You're running the worker with superuser privileges", category=SecurityWarning
    )


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    if args.redis_url:
        os.environ["FENGSHENG_REDIS_URL"] = args.redis_url
        os.environ.pop("FENGSHENG_REDIS_URL_FILE", None)
    if args.engine:
        os.environ["FENGSHENG_ENGINE_ADDR"] = args.engine
    if args.metrics_port is not None:
        os.environ["FENGSHENG_WORKER_METRICS_PORT"] = str(args.metrics_port)
    if args.metrics_host:
        os.environ["FENGSHENG_METRICS_HOST"] = args.metrics_host

    from services import config

    try:
        broker_url = config.role_url("broker")
        config.role_url("ranked")  # checked now (matchmaking and ladder tasks), not at a first task
    except (config.SecretError, config.ConfigError) as exc:
        print(f"worker: {exc}", file=sys.stderr)
        return 2
    from services.workers.celery_app import app

    app.conf.broker_url = broker_url
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        _quiet_root_warning()
    name = args.name or f"fengsheng-{os.getpid()}@%h"
    argv = [
        "worker",
        f"--concurrency={args.concurrency}",
        f"--pool={args.pool}",
        f"--loglevel={args.loglevel}",
        "--queues=fengsheng",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        f"--hostname={name}",
    ]
    app.worker_main(argv=argv)
    return 0
