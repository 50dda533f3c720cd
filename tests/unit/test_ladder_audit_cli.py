"""``fengsheng ladder audit`` reads the audit facts the ladder update stored in the ranked
Redis and prints the flagged pairs with their evidence (issue 26 point 3; docs/ranked.md,
"The collusion audit"); bad input is refused with exit 2 and a reason."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
import redis

from fengsheng.cli import main
from services.ranked import audit_store
from services.ranked.audit import IntelDeed, MatchFacts, SeatFact

pytestmark = pytest.mark.usefixtures("clean_redis_env")

ACCOUNTS = [f"human:p{i}" for i in range(8)]
PAIR = ("human:p1", "human:p2")


def ladder(rng: random.Random, matches: int) -> list[MatchFacts]:
    """Random 5-seat tables with a house bot; p1 and p2 help each other across sides."""
    out = []
    for i in range(matches):
        people = rng.sample(ACCOUNTS, 4)
        teams = rng.sample(["latent", "latent", "military", "military", "solo"], 5)
        seats = tuple(SeatFact(s, a, teams[s], i * 10**6 + rng.randrange(10**5)) for s, a in enumerate(people))
        seats += (SeatFact(4, "bot:house-normal-1", teams[4], 0, True),)
        m = MatchFacts(f"rk-{i}", "return", float(i), seats, ())
        deeds = []
        for _ in range(12):
            u, r = rng.sample(range(5), 2)
            kind = {seats[u].account, seats[r].account} == set(PAIR) and m.opposed(u, r)
            deeds.append(IntelDeed(u, r, 1 if kind else rng.choice((-1, -1, 0, 1))))
        out.append(MatchFacts(m.match_id, m.ruleset, m.at, seats, tuple(deeds)))
    return out


@pytest.fixture
def stored(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The facts in the ranked Redis, found as the services find it (the test Redis's URL
    may carry a password, which a command line refuses)."""
    monkeypatch.setenv("FENGSHENG_RANKED_REDIS_URL", redis_url)
    rdb = redis.Redis.from_url(redis_url)
    rdb.delete(audit_store.AUDIT_KEY)
    pipe = rdb.pipeline(transaction=True)
    for m in ladder(random.Random(5), 300):
        audit_store.add(pipe, m)
    pipe.execute()
    rdb.lpush(audit_store.AUDIT_KEY, '{"v": 0}')  # an older format: skipped and counted
    yield
    rdb.delete(audit_store.AUDIT_KEY)
    rdb.close()


def test_the_audit_lists_the_kind_pair_with_its_evidence(stored: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "audit", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["matches"] == 300 and body["skipped_other_format"] == 1
    assert body["pairs"] == 28  # house bots are never suspects
    (row,) = body["rows"]
    assert (row["a"], row["b"]) == PAIR and row["flags"] == ["soft"]
    assert row["soft"]["z"] >= 4 and row["soft"]["observed"] == row["soft"]["count"]
    assert set(row["seated"]) == {"observed", "expected", "count", "z", "p", "counted"}

    assert main(["ladder", "audit"]) == 0
    out = capsys.readouterr().out
    assert "300 rated matches" in out and "1 flagged" in out and "human:p1" in out and "1 records of another" in out

    assert main(["ladder", "audit", "--json", "--all", "--limit", "5"]) == 0
    assert len(json.loads(capsys.readouterr().out)["rows"]) == 5

    assert main(["ladder", "audit", "--json", "--ruleset", "classic"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] == 0


def test_bad_input_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder"]) == 2
    assert "choose an action: audit" in capsys.readouterr().err
    assert main(["ladder", "audit", "--z", "0", "--redis-url", "redis://127.0.0.1:1/0"]) == 2
    assert "--z > 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["ladder", "audit", "--redis-url", "redis://:secret@127.0.0.1:1/0"])
    assert "password" in capsys.readouterr().err


def test_an_unreachable_redis_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "audit", "--redis-url", "redis://127.0.0.1:1/0"]) == 1
    assert "the ranked Redis redis://127.0.0.1:1/0" in capsys.readouterr().err
