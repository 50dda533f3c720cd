"""``fengsheng up --external-redis`` passes each Redis role's URL on to its children: by
environment only (never on a command line, which every local user can read), resolved (the
shared password added, ``_FILE`` variables read), only the roles whose URL differs from the
shared one, and the worker's readiness ping goes to the broker's. The children are not
started: the supervisor is a fake that records what it was asked to start."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from fengsheng.cli import main
from fengsheng.commands import up
from services import config

SHARED = "redis://127.0.0.1:6001/0"
CLUSTER = "redis+cluster://127.0.0.1:7001/0"
BROKER = "redis://:broker-pw@127.0.0.1:6002/0"
PASSWORD = "shared-pw"


class FakeService:
    def __init__(self, name: str) -> None:
        self.name, self.pid = name, 4242


class FakeSupervisor:
    started: ClassVar[list[tuple[str, list[str], dict[str, str]]]] = []

    def __init__(self, **kwargs: Any) -> None:
        self.services: list[FakeService] = []

    def start(self, name: str, argv: list[str], *, env: dict[str, str], log_dir: Path | None) -> FakeService:
        FakeSupervisor.started.append((name, list(argv), dict(env)))
        self.services.append(FakeService(name))
        return self.services[-1]

    def check(self) -> None:
        raise up._Stop("SIGTERM")  # the banner is out: stop at once

    def stop_all(self) -> None:
        pass


class FakePing:
    brokers: ClassVar[list[str]] = []

    def __init__(self, url: str, name: str) -> None:
        FakePing.brokers.append(url)

    def __call__(self) -> bool:
        return True

    def close(self) -> None:
        pass


@pytest.fixture
def children(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[str], dict[str, str]]]:
    for var in ("REDIS_URL", *up._SECRET_VARS):
        monkeypatch.delenv(var, raising=False)
    FakeSupervisor.started, FakePing.brokers = [], []
    monkeypatch.setattr(up, "Supervisor", FakeSupervisor)
    monkeypatch.setattr(up, "_WorkerPing", FakePing)
    monkeypatch.setattr(up, "_wait_until", lambda *a, **k: None)
    return FakeSupervisor.started


def _up(tmp_path: Path) -> int:
    return main(["up", "--external-redis", "--data-dir", str(tmp_path / "data"), "--port", "0"])


def test_each_roles_url_reaches_the_children_by_environment_only(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    children: list[tuple[str, list[str], dict[str, str]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    monkeypatch.setenv("FENGSHENG_REDIS_PASSWORD", PASSWORD)
    monkeypatch.setenv("FENGSHENG_MATCH_REDIS_URL", CLUSTER)
    broker_file = tmp_path / "broker.url"
    broker_file.write_text(BROKER + "\n")
    broker_file.chmod(0o600)
    monkeypatch.setenv("FENGSHENG_BROKER_URL_FILE", str(broker_file))
    monkeypatch.setenv("FENGSHENG_RANKED_REDIS_URL", SHARED)  # the same as the shared one

    assert _up(tmp_path) == 0
    assert [name for name, _, _ in children] == ["engine", "worker", "gateway"]
    expected = {
        "FENGSHENG_REDIS_URL": f"redis://:{PASSWORD}@127.0.0.1:6001/0",
        "FENGSHENG_MATCH_REDIS_URL": f"redis+cluster://:{PASSWORD}@127.0.0.1:7001/0",
        "FENGSHENG_BROKER_URL": BROKER,  # its own password kept
    }
    for name, argv, env in children:
        for var, url in expected.items():
            assert env.get(var) == url, (name, var)
        # resolved: no _FILE to read again, no separate password, no role equal to the shared URL
        absent = [f"{v}_FILE" for v in config.ROLE_VARS.values()]
        absent += ["FENGSHENG_REDIS_PASSWORD", "FENGSHENG_REDIS_URL_FILE"]
        absent += ["FENGSHENG_RANKED_REDIS_URL", "FENGSHENG_GATEWAY_REDIS_URL"]
        for var in absent:
            assert var not in env, (name, var)
        command_line = " ".join(argv)
        for secret in (PASSWORD, "broker-pw", env["FENGSHENG_SERVICE_TOKEN"]):
            assert secret not in command_line, (name, argv)
        # each child finds in that environment the roles up resolved
        with monkeypatch.context() as m:
            for var in (*up._SECRET_VARS, "REDIS_URL"):
                m.delenv(var, raising=False)
            for var, value in env.items():
                m.setenv(var, value)
            urls = config.RedisUrls.from_env()
        assert urls == config.RedisUrls(expected["FENGSHENG_MATCH_REDIS_URL"], BROKER,
                                         expected["FENGSHENG_REDIS_URL"], expected["FENGSHENG_REDIS_URL"])  # fmt: skip
    assert FakePing.brokers == [BROKER]  # the worker is awaited on its broker
    out = capsys.readouterr().out
    assert "match: redis+cluster://:***@127.0.0.1:7001/0 (FENGSHENG_MATCH_REDIS_URL)" in out
    assert "broker: redis://:***@127.0.0.1:6002/0 (FENGSHENG_BROKER_URL)" in out
    assert PASSWORD not in out and "broker-pw" not in out


def test_a_cluster_for_a_one_node_role_stops_up_before_any_child(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    children: list[tuple[str, list[str], dict[str, str]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", SHARED)
    monkeypatch.setenv("FENGSHENG_BROKER_URL", CLUSTER)
    assert _up(tmp_path) == 2
    assert children == []
    assert "FENGSHENG_BROKER_URL" in capsys.readouterr().err


def test_the_embedded_redis_serves_every_role(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, children: list[tuple[str, list[str], dict[str, str]]]
) -> None:
    """Without an external Redis, a role URL in up's own environment is not passed on: the
    embedded Redis serves every role (and its password is in its config file, not argv)."""
    monkeypatch.setenv("FENGSHENG_MATCH_REDIS_URL", CLUSTER)
    assert main(["up", "--data-dir", str(tmp_path / "data"), "--port", "0"]) == 0
    assert [name for name, _, _ in children] == ["redis", "engine", "worker", "gateway"]
    embedded = children[1][2]["FENGSHENG_REDIS_URL"]
    password = embedded.split(":")[2].split("@")[0]
    for name, argv, env in children[1:]:
        assert env["FENGSHENG_REDIS_URL"] == embedded
        assert not set(env) & set(config.ROLE_VARS.values()), name
        assert password not in " ".join(argv)
    assert password not in " ".join(children[0][1])
    assert FakePing.brokers == [embedded]
