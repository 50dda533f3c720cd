"""``fengsheng engine-server``: the engine gRPC service on Redis.

Two listeners (docs/protocol.md): ``--port`` (internal: the gateway and the workers, with
the service credential) and ``--bot-port`` (bots: ``BotService`` only). Prints
``fengsheng engine-server listening on HOST:PORT bots on HOST:BOTPORT`` once it serves
(``0`` picks a free port); stops gracefully on SIGTERM or Ctrl-C.

The service credential comes from ``$FENGSHENG_SERVICE_TOKEN`` or the 0600 file named by
``$FENGSHENG_SERVICE_TOKEN_FILE`` (services/credentials.py), never from a flag; without one
the server refuses to start (exit status 2).

Each Redis role may have a URL of its own (services/config.py): the match store
``FENGSHENG_MATCH_REDIS_URL`` (a ``redis+cluster://`` URL for a cluster), the Celery broker
``FENGSHENG_BROKER_URL``, bot accounts, ranked and casual tables and the ladder
``FENGSHENG_RANKED_REDIS_URL``; a role without one uses ``--redis-url`` or
``FENGSHENG_REDIS_URL``.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis-url",
        default=None,
        help="Redis URL for every role without one of its own (default: $FENGSHENG_REDIS_URL; "
        "$FENGSHENG_MATCH_REDIS_URL, $FENGSHENG_BROKER_URL, $FENGSHENG_RANKED_REDIS_URL win for their role)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=50051, help="internal port (gateway, workers); 0 = any free port"
    )
    parser.add_argument(
        "--bot-port", type=int, default=50052, help="bot listener port (BotService only); 0 = any free port"
    )
    parser.add_argument("--bot-host", default=None, help="address the bot listener binds (default: --host)")
    parser.add_argument("--metrics-port", type=int, default=0, help="serve Prometheus metrics here (0 = off)")
    parser.add_argument(
        "--no-celery",
        action="store_true",
        help="queue no bot moves or turn timers (clients act for every seat)",
    )
    parser.add_argument("--log-level", default="WARNING", help="Python log level (default: WARNING)")
    parser.add_argument(
        "--reuse-port", action="store_true", help="let several replicas bind the same port (SO_REUSEPORT)"
    )
    parser.add_argument("--uvloop", action="store_true", help="run on uvloop (experimental with grpc.aio)")
    parser.add_argument(
        "--group-commit-ms",
        type=float,
        default=None,
        help="longest wait (ms) for an action's write to share a Redis round trip with others, held only "
        "while writes come closer together than that (default $FENGSHENG_GROUP_COMMIT_MS, else 0.5; 0 = off)",
    )


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal
    import sys

    from services import config
    from services.credentials import CredentialError, service_token
    from services.engine.grpc import build_server

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        # the roles an engine uses (a gateway's URL is none of its business)
        match_url, broker_url, ranked_url = (config.role_url(r, args.redis_url) for r in ("match", "broker", "ranked"))
        token = service_token()
    except (CredentialError, config.ConfigError, config.SecretError) as exc:
        print(f"fengsheng engine-server: refusing to start: {exc}", file=sys.stderr, flush=True)
        return 2

    bot_host = args.bot_host or args.host

    async def serve() -> None:
        built = await build_server(
            f"{args.host}:{args.port}",
            match_url,
            broker_url=broker_url,
            ranked_url=ranked_url,
            celery=not args.no_celery,
            reuse_port=args.reuse_port,
            group_commit_ms=args.group_commit_ms,
            bot_address=f"{bot_host}:{args.bot_port}",
            service_token=token,
        )
        await built.start()
        if args.metrics_port:
            from prometheus_client import start_http_server

            start_http_server(args.metrics_port, addr=args.host)
        print(f"fengsheng engine-server listening on {args.host}:{built.port} bots on {bot_host}:{built.bot_port}",
              flush=True)  # fmt: skip
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await built.stop(2.0)

    if args.uvloop:
        import uvloop

        uvloop.install()
    asyncio.run(serve())
    return 0
