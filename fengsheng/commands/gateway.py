"""``fengsheng gateway``: serve the HTTP + WebSocket gateway (uvicorn) in front of an engine service.

Prints ``gateway listening on http://HOST:PORT`` once the socket is bound (``--port 0``
picks a free port), then serves until SIGINT / SIGTERM.

Secrets come from the environment only (never the command line, which every local user can
read): the token secret from ``FENGSHENG_SECRET`` or the 0600 file ``FENGSHENG_SECRET_FILE``,
a Redis password inside ``FENGSHENG_GATEWAY_REDIS_URL`` / ``FENGSHENG_REDIS_URL`` or in
``FENGSHENG_REDIS_PASSWORD`` (see :mod:`services.config`). The seat table, the chat and the
rate-limit buckets go to ``FENGSHENG_GATEWAY_REDIS_URL`` when set (one node), else to
``--redis-url``, else to ``FENGSHENG_REDIS_URL``, else stay in this process's memory.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys

from fengsheng.commands.secret_flags import refuse_secret_flag


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        required=True,
        metavar="ADDR[,ADDR...]",
        help="engine service gRPC address(es), host:port; several comma-separated = round-robin over replicas",
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0 = any free port)")
    refuse_secret_flag(parser, "--secret", "FENGSHENG_SECRET")
    parser.add_argument(
        "--redis-url",
        default="",
        help="keep the seat table in this Redis (needed with several gateway replicas; default "
        "$FENGSHENG_REDIS_URL; $FENGSHENG_GATEWAY_REDIS_URL wins over both). A URL with a password is "
        "refused here: put it in FENGSHENG_REDIS_URL",
    )
    parser.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")
    parser.add_argument(
        "--rate-limit",
        type=float,
        default=float(os.environ.get("FENGSHENG_RATE_LIMIT", "50")),
        help="requests (and WebSocket messages) per second per token, answered 429 beyond it; 0 = off "
        "(default $FENGSHENG_RATE_LIMIT, else 50; buckets in --redis-url when given, see gateway/ratelimit.py)",
    )
    parser.add_argument(
        "--rate-burst",
        type=int,
        default=int(os.environ.get("FENGSHENG_RATE_BURST", "200")),
        help="bucket size: requests a token may send at once (default $FENGSHENG_RATE_BURST, else 200)",
    )


def run(args: argparse.Namespace) -> int:
    import socket

    import uvicorn

    from gateway.app import create_app
    from services import config

    try:
        secret = config.token_secret()
        operator_token = config.operator_token()  # the operator pages (ranked audit); "" closes them
        # its own FENGSHENG_GATEWAY_REDIS_URL, else --redis-url (fengsheng.cli added the password),
        # else FENGSHENG_REDIS_URL; none: one process's memory
        redis_url = config.configured_role_url("gateway") or args.redis_url or config.configured_redis_url()
        if redis_url:
            config.check_role_url("gateway", redis_url)
    except (config.SecretError, config.ConfigError) as exc:
        print(f"gateway: {exc}", file=sys.stderr)
        return 2
    if not secret:
        secret = secrets.token_urlsafe(32)
        print(
            "gateway: no FENGSHENG_SECRET (or FENGSHENG_SECRET_FILE) set, using a random token secret "
            "(tokens die with this process)",
            file=sys.stderr,
        )
    app = create_app(args.engine, secret, redis_url=redis_url, operator_token=operator_token)
    from gateway import ratelimit

    served = ratelimit.install(app, rate=args.rate_limit, burst=args.rate_burst, redis_url=redis_url)

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    sock.listen(2048)
    sock.set_inheritable(True)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    uv_config = uvicorn.Config(served, log_level=args.log_level, ws="auto", lifespan="on", timeout_graceful_shutdown=5)
    server = uvicorn.Server(uv_config)
    print(f"gateway listening on http://{shown}:{port} (engine {args.engine})", flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0
