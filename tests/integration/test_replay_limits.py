"""The cost of replay steps is bounded (issue 11, finding 6).

- per call, the engine applies at most ``from_step + max_steps`` actions on a cold cache and
  ``keyframe_every + max_steps`` on a warm one, however the caller rotates match ids (counted
  at ``engine.Game.apply``, not timed);
- the gateway's route draws from a per-client bucket: 429 with ``Retry-After`` when empty;
- the route serves a 64-character match id (the longest the API accepts), 4xx for others,
  and a seat's view of a running match only with that seat's token.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from helpers.processes import ServiceProcess
from replay_util import create, play

from engine import Game
from engine.bots import heuristic_bot
from engine.notation import parse
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from gateway.app import create_app
from services.engine import replay as replay_mod
from services.engine.matches import MatchService
from services.engine.replay import VIEW_ALL, ReplayService
from services.engine.store import MatchStore

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


class _Applies:
    """Counts ``Game.apply`` calls (every action the engine applies, in this process)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.n = 0
        original = Game.apply

        def counting(game: Game, seat: int, action: str) -> None:
            self.n += 1
            original(game, seat, action)

        monkeypatch.setattr(Game, "apply", counting)

    async def count(self, call: Any) -> tuple[int, es.ReplaySteps]:
        before = self.n
        result = await call
        return self.n - before, result


async def _finished_match(svc: MatchService, seed: int) -> tuple[str, int]:
    """A 5-seat match played to the end in-process on the real store; (id, actions)."""
    match_id, pending = await svc.create_match(
        es.MatchSettings(players=5, seed=seed, characters=True), "rp-work-" + secrets.token_hex(4)
    )
    rng = random.Random(seed)
    n = 0
    while pending.seat >= 0:
        obs = await svc.observation(match_id, pending.seat)
        action = heuristic_bot(obs, [parse(a) for a in obs.legal_actions], rng)
        res = await svc.act(match_id, pending.seat, pending.number, str(action))
        pending = res.pending
        n += 1
    return match_id, n


def test_a_call_applies_a_bounded_number_of_actions(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    page, keyframe_every = 20, 8

    async def main() -> None:
        svc = MatchService(MatchStore.from_url(redis_url))
        try:
            matches = [await _finished_match(svc, seed) for seed in (11, 12, 13, 14)]
            assert min(n for _, n in matches) > 5 * page
            applies = _Applies(monkeypatch)
            metric = replay_mod.APPLIES._value.get()
            # a cache of 2 matches, rotated over 4: every call below misses
            rs = ReplayService(svc.store, cache_size=2, max_steps=page, keyframe_every=keyframe_every)
            for _ in range(3):
                for match_id, _n in matches:
                    n, reply = await applies.count(rs.steps(match_id, -1, 0, 0))
                    assert len(reply.steps) == page and n <= page
                    # the result screen's call: the stored checkpoint, no replay
                    n, reply = await applies.count(rs.steps(match_id, VIEW_ALL, last=True))
                    assert n == 0 and reply.steps[0].observation.outcome.over
            # a far page on a cold entry replays up to it once, keeping keyframes on the way
            match_id, total = matches[0]
            far = total - page
            n, cold = await applies.count(rs.steps(match_id, VIEW_ALL, far, page))
            assert 0 < n <= far + page and [s.step for s in cold.steps] == list(range(far, far + page))
            for start in (far - 3, 5, far // 2, far, 1, 0):  # warm: from the last keyframe before the page
                n, warm = await applies.count(rs.steps(match_id, VIEW_ALL, start, page))
                assert n <= keyframe_every + page, (start, n)
                # the same steps as a fresh service replaying from the deal
                fresh = ReplayService(svc.store, max_steps=page)
                assert warm == await fresh.steps(match_id, VIEW_ALL, start, page)
            # max_steps past the cap is capped
            n, capped = await applies.count(rs.steps(match_id, -1, 0, 10_000))
            assert len(capped.steps) == page and n <= page
            # the metric counts the same applies
            assert replay_mod.APPLIES._value.get() - metric == applies.n
        finally:
            await svc.close()
            await svc.store.close()

    asyncio.run(main())


@pytest.fixture()
def limited(engine: ServiceProcess, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The gateway app with a small replay bucket: 3 requests, then one every 2 s."""
    monkeypatch.setenv("FENGSHENG_REPLAY_RATE", "0.5")
    monkeypatch.setenv("FENGSHENG_REPLAY_BURST", "3")
    with TestClient(create_app(engine.address, "replay-test-secret")) as client:
        yield client


def test_rate_limit_trips_with_retry_after(limited: TestClient, stub: es_grpc.EngineServiceStub) -> None:
    created = limited.post("/api/matches", json={"players": 3, "humans": 3}).json()
    match_id = created["match_id"]
    play(stub, match_id)
    url = f"/api/matches/{match_id}/replay/steps"
    for _ in range(3):
        assert limited.get(url, params={"view": "-1", "limit": 5}).status_code == 200
    refused = limited.get(url, params={"view": "-1", "limit": 5})
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 2
    body = refused.json()["error"]
    assert body["code"] == "rate_limited" and 0 < body["retry_after_ms"] <= 2000
    # a page of another match, another view: the same client's bucket
    assert limited.get("/api/matches/nosuch/replay/steps", params={"view": "all"}).status_code == 429
    time.sleep(wait + 0.2)
    assert limited.get(url, params={"view": "all", "last": "true"}).status_code == 200


@pytest.fixture()
def client(engine: ServiceProcess) -> Iterator[TestClient]:
    with TestClient(create_app(engine.address, "replay-test-secret")) as c:
        yield c


def test_route_serves_long_ids_and_seats_with_their_token(client: TestClient, stub: es_grpc.EngineServiceStub) -> None:
    # clients cannot choose match ids (docs/security.md); the platform's own may be 64 long
    long_id = ("rp-" + secrets.token_hex(32))[:64]
    create(stub, long_id, players=3)
    long_url = f"/api/matches/{long_id}/replay/steps"
    assert client.get(long_url, params={"view": "-1"}).status_code == 200

    guest = client.post("/api/guests", json={"name": "ada"}).json()["token"]
    created = client.post(
        "/api/matches",
        json={"players": 3, "humans": 3},
        headers={"Authorization": f"Bearer {guest}"},
    )
    assert created.status_code == 201, created.text
    match_id, seat, token = created.json()["match_id"], created.json()["seat"], created.json()["seat_token"]
    url = f"/api/matches/{match_id}/replay/steps"

    # running: the spectator yes; everything no; a seat only with its own token
    assert client.get(url, params={"view": "-1"}).status_code == 200
    assert client.get(url, params={"view": "all"}).status_code == 409
    other = (seat + 1) % 3
    assert client.get(url, params={"view": str(seat)}).status_code == 409
    own = client.get(url, params={"view": str(seat)}, headers={"Authorization": f"Bearer {token}"})
    assert own.status_code == 200 and own.json()["observations"][0]["seats"][seat]["identity"] != "IDENTITY_UNSPECIFIED"
    assert client.get(url, params={"view": str(other), "token": token}).status_code == 409
    assert client.get(url, params={"view": str(other)}, headers={"Authorization": f"Bearer {guest}"}).status_code == 409

    for mid, page_url in ((match_id, url), (long_id, long_url)):
        play(stub, mid)
        pages = []
        start: int | None = 0
        while start is not None:
            reply = client.get(page_url, params={"view": "all", "from": start, "limit": 50})
            assert reply.status_code == 200, reply.text
            pages.append(reply.json())
            start = pages[-1]["next_step"]
        steps = [s["step"] for p in pages for s in p["steps"]]
        assert steps == list(range(pages[0]["total_steps"])) and pages[-1]["over"]
    assert client.get(url, params={"view": str(other)}).status_code == 200  # over: every seat's view

    for bad, status in (("x" * 65, 400), ("a.b c", 400), ("nosuch", 404)):
        reply = client.get(f"/api/matches/{bad}/replay/steps", params={"view": "-1"})
        assert reply.status_code == status, (bad, reply.text)
        assert reply.json()["error"]["message"]
    for query in ({"view": "9"}, {"view": "x"}, {"view": str(2**40)}, {"from": "-1"}, {"limit": "0"}):
        assert client.get(url, params=query).status_code == 422, query
