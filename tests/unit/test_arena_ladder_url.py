"""``fengsheng arena --redis-url`` records into the platform's bot ladder where the services
find it: the ranked role's URL (``FENGSHENG_RANKED_REDIS_URL`` if set, else the URL given),
with the shared password, and a cluster URL is taken as the services take it."""

from __future__ import annotations

from typing import Any

import pytest

from fengsheng.cli import main
from services.ranked import ladder
from services.ranked import store as ranked

GIVEN = "redis://127.0.0.1:6001/0"
RANKED = "redis://127.0.0.1:6003/0"


pytestmark = pytest.mark.usefixtures("clean_redis_env")


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs a ranked store was opened on; the ladder records nowhere."""
    urls: list[str] = []

    class Store:
        def __init__(self, url: str) -> None:
            urls.append(url)
            self.redis = object()

    class Ladder:
        def __init__(self, redis: Any, *, correction: bool | None = None) -> None:
            self.recorded = 0

        def record(self, result: Any) -> bool:
            self.recorded += 1
            return True

    monkeypatch.setattr(ranked.RankedStore, "from_url", classmethod(lambda cls, url: Store(url)))
    monkeypatch.setattr(ladder, "RedisLadder", Ladder)
    return urls


ARENA = ["arena", "--bots", "random", "--matches", "1", "--json"]


def test_the_ranked_roles_own_url_wins(monkeypatch: pytest.MonkeyPatch, opened: list[str]) -> None:
    monkeypatch.setenv("FENGSHENG_RANKED_REDIS_URL", RANKED)
    monkeypatch.setenv("FENGSHENG_REDIS_PASSWORD", "pw")
    assert main([*ARENA, "--redis-url", GIVEN]) == 0
    assert opened == ["redis://:pw@127.0.0.1:6003/0"]


def test_else_the_url_given_with_the_shared_password(monkeypatch: pytest.MonkeyPatch, opened: list[str]) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_PASSWORD", "pw")
    assert main([*ARENA, "--redis-url", GIVEN]) == 0
    assert opened == ["redis://:pw@127.0.0.1:6001/0"]


def test_a_cluster_is_taken_as_the_services_take_it(monkeypatch: pytest.MonkeyPatch, opened: list[str]) -> None:
    """The ranked store may be a Redis Cluster (issue 15, point 1): arena opens it as the
    ladder task would."""
    monkeypatch.setenv("FENGSHENG_RANKED_REDIS_URL", "redis+cluster://127.0.0.1:7001/0")
    assert main([*ARENA, "--redis-url", GIVEN]) == 0
    assert opened == ["redis+cluster://127.0.0.1:7001/0"]
