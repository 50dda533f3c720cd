"""Health probes for containers: ``python -m services.healthcheck KIND TARGET``; exit 0 = healthy.

| kind | target | healthy when |
|---|---|---|
| ``grpc`` | ``HOST:PORT`` [service] | the gRPC health service answers ``SERVING`` (either engine listener) |
| ``http`` | ``URL`` | a GET answers 200 (the gateway's ``/healthz``, a worker's ``/metrics``) |
| ``redis`` | ``URL``, or ``--role ROLE``: see below | ``PING`` answers (a cluster: every primary, state ``ok``) |

``redis`` without a URL checks the URL each Redis role would use (services/config.py,
``role_url``: ``FENGSHENG_MATCH_REDIS_URL``, ``FENGSHENG_BROKER_URL``,
``FENGSHENG_RANKED_REDIS_URL``, ``FENGSHENG_GATEWAY_REDIS_URL``, each else
``FENGSHENG_REDIS_URL``), each distinct URL once: all roles, or those named by ``--role`` (Celery
beat: ``--role broker``). A cluster URL where one node is needed is unhealthy, as the process
would refuse it.

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
    """``PING`` one Redis, or every primary of a cluster (``redis+cluster://``) whose state is
    ``ok`` (a cluster with slots uncovered refuses their commands)."""
    import redis

    from services.redis_client import sync_client

    client = sync_client(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        if isinstance(client, redis.RedisCluster):
            state = client.cluster_info().get("cluster_state")
            if state != "ok":
                raise RuntimeError(f"cluster_state:{state}")
            primaries = client.get_primaries()  # type: ignore[no-untyped-call]  # (untyped in the stubs)
            client.ping(target_nodes=redis.RedisCluster.PRIMARIES)
            return f"PONG from {len(primaries)} primaries, cluster_state:ok"
        client.ping()
    finally:
        client.close()
    return "PONG"


def check_redis_roles(roles: list[str], timeout: float) -> str:
    """:func:`check_redis` on the URL of each of ``roles`` (each distinct URL once)."""
    from services import config

    urls: dict[str, list[str]] = {}
    for role in roles:
        urls.setdefault(config.role_url(role), []).append(role)
    notes = []
    for url, users in urls.items():
        try:
            note = check_redis(url, timeout)
        except Exception as exc:
            raise RuntimeError(f"{'+'.join(users)} {config.redacted(url)}: {type(exc).__name__}: {exc}") from exc
        notes.append(f"{'+'.join(users)} {config.redacted(url)}: {note}")
    return "; ".join(notes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.healthcheck", description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=("grpc", "http", "redis"))
    parser.add_argument("target", nargs="?", default="", help="HOST:PORT (grpc), URL (http, redis)")
    parser.add_argument("service", nargs="?", default="", help="gRPC health service name (default: the server)")
    parser.add_argument(
        "--role", action="append", choices=("match", "broker", "ranked", "gateway"),
        help="redis: check the URL this Redis role uses (repeatable; default: every role)",
    )  # fmt: skip
    parser.add_argument("--timeout", type=float, default=3.0)
    args = parser.parse_args(argv)
    if args.role and (args.kind != "redis" or args.target):
        parser.error("--role goes with redis and no URL")
    try:
        if args.kind == "grpc":
            note = check_grpc(args.target or "127.0.0.1:50051", args.service, args.timeout)
        elif args.kind == "http":
            note = check_http(args.target or "http://127.0.0.1:8000/healthz", args.timeout)
        elif args.target:
            note = check_redis(args.target, args.timeout)
        else:
            from services import config

            note = check_redis_roles(args.role or list(config.ROLE_VARS), args.timeout)
    except Exception as exc:
        print(f"unhealthy: {args.kind} {args.target}: {type(exc).__name__}: {exc}", flush=True)
        return 1
    print(f"healthy: {args.kind} {args.target}: {note}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
