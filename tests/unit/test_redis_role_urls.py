"""Each Redis role's URL (services/config.py, ``RedisUrls``): its own variable, else the
shared one; passwords only from the environment or 0600 files; a cluster for every role
but the Celery broker (kombu has no cluster mode), refused there with a pointer."""

from __future__ import annotations

from pathlib import Path

import pytest

from fengsheng.cli import main
from services import config

SHARED = "redis://127.0.0.1:6001/0"
CLUSTER = "redis+cluster://127.0.0.1:7001/0"


pytestmark = pytest.mark.usefixtures("clean_redis_env")


def test_every_role_falls_back_to_the_shared_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    assert config.RedisUrls.from_env() == config.RedisUrls(SHARED, SHARED, SHARED, SHARED)
    # a command's --redis-url stands for FENGSHENG_REDIS_URL
    other = "redis://127.0.0.1:6002/0"
    assert config.RedisUrls.from_env(other) == config.RedisUrls(other, other, other, other)


def test_a_role_of_its_own_wins_and_gets_the_shared_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    monkeypatch.setenv("FENGSHENG_REDIS_PASSWORD", "pw")
    monkeypatch.setenv("FENGSHENG_MATCH_REDIS_URL", CLUSTER)
    monkeypatch.setenv("FENGSHENG_BROKER_URL", "redis://:own@127.0.0.1:6003/0")
    urls = config.RedisUrls.from_env("redis://127.0.0.1:6002/0")
    assert urls.match == "redis+cluster://:pw@127.0.0.1:7001/0"
    assert urls.broker == "redis://:own@127.0.0.1:6003/0"  # its own password is kept
    assert urls.ranked == urls.gateway == "redis://:pw@127.0.0.1:6002/0"


def test_a_role_url_from_an_owner_only_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ranked.url"
    config.write_secret_file(path, "redis://:s3cret@127.0.0.1:6004/0")
    monkeypatch.setenv("FENGSHENG_RANKED_REDIS_URL_FILE", str(path))
    assert config.role_url("ranked") == "redis://:s3cret@127.0.0.1:6004/0"
    path.chmod(0o644)
    with pytest.raises(config.SecretError):
        config.role_url("ranked")


def test_a_cluster_is_refused_for_the_broker_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", "redis+cluster://:hunter2@127.0.0.1:7001/0")
    with pytest.raises(config.ConfigError) as info:
        config.RedisUrls.from_env()
    assert "hunter2" not in str(info.value) and "FENGSHENG_BROKER_URL" in str(info.value)
    # pointing the broker elsewhere is the fix: the match, ranked and gateway stores may be a cluster
    monkeypatch.setenv(config.ROLE_VARS["broker"], SHARED)
    urls = config.RedisUrls.from_env()
    assert urls.broker == SHARED
    assert urls.match == urls.ranked == urls.gateway == "redis+cluster://:hunter2@127.0.0.1:7001/0"


@pytest.mark.parametrize("role", ["ranked", "gateway"])
def test_the_ranked_and_gateway_roles_take_a_cluster_url(role: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    monkeypatch.setenv(config.ROLE_VARS[role], "rediss+cluster://:pw@10.0.0.1:7001/0")
    assert config.role_url(role) == "rediss+cluster://:pw@10.0.0.1:7001/0"


def test_engine_server_refuses_a_cluster_broker_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    monkeypatch.setenv("FENGSHENG_BROKER_URL", "redis+cluster://:hunter2@127.0.0.1:7001/0")
    assert main(["engine-server"]) == 2
    err = capsys.readouterr().err
    assert "FENGSHENG_BROKER_URL" in err and "hunter2" not in err
