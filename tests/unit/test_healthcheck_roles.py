"""``python -m services.healthcheck redis`` checks the URL each Redis role would use
(services/config.py, ``role_url``), not only ``FENGSHENG_REDIS_URL``: a broker or a match store
of its own that is down makes the probe fail. (Against real Redis and a real cluster:
tests/integration/test_redis_cluster.py.)"""

from __future__ import annotations

import pytest

from services import healthcheck

SHARED = "redis://127.0.0.1:6001/0"
BROKER = "redis://127.0.0.1:6002/0"
MATCH = "redis+cluster://127.0.0.1:7001/0"


pytestmark = pytest.mark.usefixtures("clean_redis_env")


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs probed; the broker's is down."""
    seen: list[str] = []

    def check_redis(url: str, timeout: float) -> str:
        seen.append(url)
        if url.endswith(":6002/0"):
            raise ConnectionError("refused")
        return "PONG"

    monkeypatch.setattr(healthcheck, "check_redis", check_redis)
    return seen


def test_every_roles_url_is_checked_once(
    monkeypatch: pytest.MonkeyPatch, checked: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    monkeypatch.setenv("FENGSHENG_MATCH_REDIS_URL", MATCH)
    monkeypatch.setenv("FENGSHENG_REDIS_PASSWORD", "s3cret")
    assert healthcheck.main(["redis"]) == 0
    # ranked and gateway share FENGSHENG_REDIS_URL: one probe; the password is never printed
    assert checked == ["redis+cluster://:s3cret@127.0.0.1:7001/0", "redis://:s3cret@127.0.0.1:6001/0"]
    out = capsys.readouterr().out
    assert "match redis+cluster://:***@127.0.0.1:7001/0" in out and "broker+ranked+gateway" in out
    assert "s3cret" not in out


def test_a_role_of_its_own_that_is_down_is_unhealthy(
    monkeypatch: pytest.MonkeyPatch, checked: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    monkeypatch.setenv("FENGSHENG_BROKER_URL", BROKER)
    assert healthcheck.main(["redis"]) == 1
    assert BROKER in checked
    assert "broker redis://127.0.0.1:6002/0" in capsys.readouterr().out
    # what Celery beat checks: the broker alone
    checked.clear()
    assert healthcheck.main(["redis", "--role", "broker"]) == 1
    assert checked == [BROKER]
    checked.clear()
    assert healthcheck.main(["redis", "--role", "ranked", "--role", "gateway"]) == 0
    assert checked == [SHARED]


def test_a_cluster_where_one_node_is_needed_is_unhealthy(
    monkeypatch: pytest.MonkeyPatch, checked: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    monkeypatch.setenv("FENGSHENG_BROKER_URL", MATCH)  # the process would refuse to start
    assert healthcheck.main(["redis", "--role", "broker"]) == 1
    assert "FENGSHENG_BROKER_URL" in capsys.readouterr().out
    assert checked == []


def test_a_url_given_is_checked_alone(checked: list[str]) -> None:
    assert healthcheck.main(["redis", SHARED]) == 0
    assert checked == [SHARED]
    with pytest.raises(SystemExit):
        healthcheck.main(["redis", SHARED, "--role", "match"])
