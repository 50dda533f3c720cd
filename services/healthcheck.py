"""Health probes for containers: ``python -m services.healthcheck KIND TARGET``; exit 0 = healthy.

| kind | target | healthy when |
|---|---|---|
| ``grpc`` | ``HOST:PORT`` [service] | the gRPC health service answers ``SERVING`` (either engine listener) |
| ``http`` | ``URL`` | a GET answers 200 (the gateway's ``/healthz``, a worker's ``/metrics``) |
| ``redis`` | ``URL`` (default ``$FENGSHENG_REDIS_URL``) | ``PING`` answers (Celery beat, Redis itself) |

Used by ``deploy/docker-compose.yml`` healthchecks (Kubernetes uses its native ``grpc`` and
``httpGet`` probes instead). Prints one line; never hangs longer than ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def check_grpc(target: str, service: str, timeout: float) -> str:
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from services.channels import engine_channel
    from services.credentials import optional_service_token

    # health answers without the credential (probes); it is sent when configured all the same
    token = optional_service_token()
    with engine_channel(target, token=token) if token else _plain_channel(target) as channel:
        # Any: the stubs' HealthStub declares no methods (Check, Watch are set per channel)
        stub: Any = health_pb2_grpc.HealthStub(channel)
        reply = stub.Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout
        )
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    if status != "SERVING":
        raise RuntimeError(status)
    return status


def _plain_channel(target: str) -> Any:
    import grpc

    return grpc.insecure_channel(target)


def check_http(url: str, timeout: float) -> str:
    import httpx

    reply = httpx.get(url, timeout=timeout)
    if reply.status_code != 200:
        raise RuntimeError(f"HTTP {reply.status_code}: {reply.text[:200]}")
    return "HTTP 200"


def check_redis(url: str, timeout: float) -> str:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        client.ping()
    finally:
        client.close()
    return "PONG"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.healthcheck", description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=("grpc", "http", "redis"))
    parser.add_argument("target", nargs="?", default="", help="HOST:PORT (grpc), URL (http, redis)")
    parser.add_argument("service", nargs="?", default="", help="gRPC health service name (default: the server)")
    parser.add_argument("--timeout", type=float, default=3.0)
    args = parser.parse_args(argv)
    try:
        if args.kind == "grpc":
            note = check_grpc(args.target or "127.0.0.1:50051", args.service, args.timeout)
        elif args.kind == "http":
            note = check_http(args.target or "http://127.0.0.1:8000/healthz", args.timeout)
        else:
            from services import config

            note = check_redis(args.target or config.redis_url(), args.timeout)
    except Exception as exc:
        print(f"unhealthy: {args.kind} {args.target}: {type(exc).__name__}: {exc}", flush=True)
        return 1
    print(f"healthy: {args.kind} {args.target}: {note}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
