"""The ranked operator page (issue 26 point 3): the collusion audit through the real gateway
and the engine server's ``RankedService.Audit`` on a real Redis, for operators only: a
browser or bot without the operator token gets 401 (403 while none is configured), the
token never comes from a query string, and the operator sees the flagged pair."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator

import pytest
import redis
from fastapi.testclient import TestClient
from helpers.processes import ServiceProcess

from gateway.app import create_app
from services import config
from services.ranked import audit_store
from services.ranked.audit import IntelDeed, MatchFacts, SeatFact

TOKEN = secrets.token_urlsafe(32)
PAIR = ("human:op-p1", "human:op-p2<b>")  # a name the page must escape


@pytest.fixture(scope="module")
def facts(redis_url: str) -> Iterator[None]:
    """300 rated matches in the ranked Redis where the pair helps each other across sides."""
    rng = random.Random(11)
    accounts = [f"human:op-p{i}" for i in range(8)]
    accounts[2] = PAIR[1]
    written = []
    for i in range(300):
        people = rng.sample(accounts, 5)
        teams = rng.sample(["latent", "latent", "military", "military", "solo"], 5)
        seats = tuple(SeatFact(s, a, teams[s], i * 10**6 + rng.randrange(10**5)) for s, a in enumerate(people))
        m = MatchFacts(f"op-{i}", "return", float(i), seats, ())
        deeds = []
        for _ in range(12):
            u, r = rng.sample(range(5), 2)
            kind = {people[u], people[r]} == set(PAIR) and m.opposed(u, r)
            deeds.append(IntelDeed(u, r, 1 if kind else rng.choice((-1, -1, 0, 1))))
        written.append(MatchFacts(m.match_id, m.ruleset, m.at, seats, tuple(deeds)))
    rdb = redis.Redis.from_url(redis_url)
    pipe = rdb.pipeline(transaction=True)
    for m in written:
        audit_store.add(pipe, m)
    pipe.execute()
    yield
    for m in written:  # other tests' rated matches stay
        rdb.lrem(audit_store.AUDIT_KEY, 0, m.to_json())
    rdb.close()


@pytest.fixture(scope="module")
def gw(engine: ServiceProcess, redis_url: str, facts: None) -> Iterator[TestClient]:
    with TestClient(create_app(engine.address, "operator-secret", redis_url=redis_url, operator_token=TOKEN)) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_operator_sees_the_flagged_pair(gw: TestClient) -> None:
    reply = gw.get("/api/ops/audit", headers=bearer(TOKEN))
    assert reply.status_code == 200, reply.text
    body = reply.json()
    mine = [r for r in body["rows"] if r["a"].startswith("human:op-") and r["b"].startswith("human:op-")]
    assert [(r["a"], r["b"]) for r in mine] == [PAIR]
    assert mine[0]["flags"] == ["soft"] and mine[0]["soft"]["z"] >= 4
    page = gw.get("/ops/audit", headers=bearer(TOKEN))
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "human:op-p2&lt;b&gt;" in page.text
    assert "op-p2<b>" not in page.text  # escaped, never markup
    assert page.headers["cache-control"] == "no-store"
    everyone = gw.get("/api/ops/audit?all=true&limit=3", headers=bearer(TOKEN)).json()
    assert len(everyone["rows"]) == 3
    assert gw.get("/api/ops/audit?ruleset=nope", headers=bearer(TOKEN)).status_code == 422


@pytest.mark.parametrize("path", ["/api/ops/audit", "/ops/audit"])
def test_without_the_operator_token_it_is_401(gw: TestClient, path: str) -> None:
    guest = gw.post("/api/guests", json={"name": "nosy"}).json()["token"]
    bot = gw.post("/api/bots", json={"name": f"nosy-bot-{secrets.token_hex(3)}"},
                  headers=bearer(guest)).json().get("token", "fsb_x")  # fmt: skip
    for headers in ({}, bearer(guest), bearer(bot), bearer(TOKEN[:-1]), bearer(TOKEN + "x"), {"Authorization": TOKEN}):
        reply = gw.get(path, headers=headers)
        assert reply.status_code == 401, (headers, reply.text)
        assert reply.json()["error"]["code"] == "unauthenticated"
        assert reply.headers["www-authenticate"] == "Bearer"
    assert gw.get(f"{path}?token={TOKEN}").status_code == 401  # never from a query string


def test_with_no_operator_token_configured_everyone_gets_403(engine: ServiceProcess, redis_url: str) -> None:
    with TestClient(create_app(engine.address, "operator-secret", redis_url=redis_url, operator_token="")) as c:
        for headers in ({}, bearer(""), bearer(TOKEN)):
            reply = c.get("/api/ops/audit", headers=headers)
            assert reply.status_code == 403 and reply.json()["error"]["code"] == "forbidden"


def test_the_token_comes_from_the_environment_or_a_private_file(tmp_path: object, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:  # fmt: skip
    from pathlib import Path

    monkeypatch.delenv("FENGSHENG_OPERATOR_TOKEN", raising=False)
    monkeypatch.delenv("FENGSHENG_OPERATOR_TOKEN_FILE", raising=False)
    assert config.operator_token() == ""
    monkeypatch.setenv("FENGSHENG_OPERATOR_TOKEN", "short")
    with pytest.raises(config.SecretError, match="at least 32"):
        config.operator_token()
    monkeypatch.delenv("FENGSHENG_OPERATOR_TOKEN")
    path = Path(str(tmp_path)) / "operator"
    config.write_secret_file(path, TOKEN)
    monkeypatch.setenv("FENGSHENG_OPERATOR_TOKEN_FILE", str(path))
    assert config.operator_token() == TOKEN
    path.chmod(0o644)
    with pytest.raises(config.SecretError, match="open to other users"):
        config.operator_token()
