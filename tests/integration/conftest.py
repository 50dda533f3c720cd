"""Fixtures for integration tests: real Redis, real engine servers, real Celery workers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from helpers.processes import ServiceProcess, start_engine_server, start_worker

from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel

#: The slowest files, slowest first (each 40–100 s of a worker's time, measured with
#: ``--durations``, against a few seconds for most files). ``./dev test`` runs this folder
#: with ``--dist loadfile --no-loadscope-reorder``: pytest-xdist then hands out files in
#: collection order, so these start at once and the short files fill in around them,
#: instead of one of them starting last and running alone at the end of the run.
SLOW_FIRST = (
    "test_up_supervision.py",
    "test_ranked_platform.py",
    "test_fuzz_gateway_deep.py",
    "test_redis_restart.py",
    "test_fuzz_grpc.py",
    "test_bot_delay.py",
    "test_secrets.py",
    "test_starters.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put :data:`SLOW_FIRST`'s files first (a stable sort: every other file, and the tests
    inside each file, keep their order)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(SLOW_FIRST)))


@pytest.fixture(scope="session")
def proc_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("proc-logs")


@pytest.fixture(scope="session")
def engine(redis_url: str, proc_logs: Path) -> Iterator[ServiceProcess]:
    """One engine server shared by the tests that do not kill it."""
    proc = start_engine_server(redis_url, proc_logs)
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def worker(redis_url: str, engine: ServiceProcess, proc_logs: Path) -> Iterator[ServiceProcess]:
    """One Celery worker (threads pool) calling the shared engine server."""
    proc = start_worker(redis_url, engine.address, proc_logs, concurrency=4)
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def stub(engine: ServiceProcess) -> Iterator[es_grpc.EngineServiceStub]:
    with engine_channel(engine.address) as channel:
        yield es_grpc.EngineServiceStub(channel)


@pytest.fixture(scope="session")
def rdb(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()
