"""``fengsheng worker``: a Celery worker running bot moves and turn timers.

The tasks call the engine service at ``--engine`` over gRPC. The default pool is
``threads`` (the tasks mostly wait on gRPC); ``--pool prefork`` works too.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--redis-url", default=None, help="Redis broker URL (default: $FENGSHENG_REDIS_URL)")
    parser.add_argument("--engine", default=None, help="engine gRPC address (default: $FENGSHENG_ENGINE_ADDR)")
    parser.add_argument("--concurrency", type=int, default=4, help="tasks run at once (default: 4)")
    parser.add_argument("--pool", default="threads", choices=("threads", "prefork", "solo"))
    parser.add_argument("--loglevel", default="INFO")
    parser.add_argument("--name", default=None, help="worker node name (default: fengsheng-PID@HOST)")


def run(args: argparse.Namespace) -> int:
    import os

    if args.redis_url:
        os.environ["FENGSHENG_REDIS_URL"] = args.redis_url
    if args.engine:
        os.environ["FENGSHENG_ENGINE_ADDR"] = args.engine

    from services import config
    from services.celery_app import app

    app.conf.broker_url = config.redis_url()
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
