"""Casual and challenge tables (issue 17 §9, "only ranked, only slow"): a bot or a person
opens a table now, outside the ranked queue, with chosen seats (itself, house bots,
challenged bots) and ruleset; a bots-only table fills at once from house bots; nothing is
ever rated; the SDK plays them (``run_bot(casual=True)``). A real Redis, an engine server,
a Celery worker (house bots, turn timers, the finished sweep) and the gateway."""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import redis
from helpers.gateway_procs import start_gateway
from helpers.processes import ServiceProcess, start_engine_server, start_worker

from fengsheng.bot import BotClient, BotError, run_bot
from fengsheng.bot.examples import random_decide
from fengsheng.v1 import bot_service_pb2 as bs
from services.ladder import BOT, RedisLadder
from services.ranked import ACTIVE_KEY

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]

ENV = {"FENGSHENG_MM_TICK_S": "0.3", "FENGSHENG_RANKED_TURN_TIMEOUT_S": "3", "FENGSHENG_AWAY_AFTER": "1"}


class Platform:
    def __init__(self, url: str, engine: ServiceProcess, gateway: ServiceProcess) -> None:
        self.rdb = redis.Redis.from_url(url)
        self.bot_address = engine.extra["bot_address"]
        self.http = httpx.Client(base_url=gateway.extra["url"], timeout=20)

    def bot(self, name: str) -> tuple[str, str]:
        reply = self.http.post("/api/bots", json={"name": name})
        assert reply.status_code == 201, reply.text
        return reply.json()["bot_id"], reply.json()["token"]


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    url = re.sub(r"/\d*$", "", redis_url) + "/14"  # a database of its own
    redis.Redis.from_url(url).flushdb()
    logs = tmp_path_factory.mktemp("casual-logs")
    engine = start_engine_server(url, logs, env=ENV)
    worker = start_worker(url, engine.address, logs, concurrency=2, env=ENV)
    gateway = start_gateway(engine.address, logs, redis_url=url, bot_address=engine.extra["bot_address"])
    try:
        yield Platform(url, engine, gateway)
    finally:
        gateway.stop()
        worker.stop()
        engine.stop()


def test_a_bots_only_table_fills_at_once_and_is_never_rated(platform: Platform) -> None:
    p = platform
    bot_id, token = p.bot("casual-sdk")
    started = time.monotonic()
    games = run_bot(random_decide, token=token, address=p.bot_address, matches=1, casual=True, min_players=3)
    assert len(games) == 1 and games[0].match_id.startswith("cs-") and games[0].decisions > 0
    assert time.monotonic() - started < 120  # no 60 s queue fill wait: seated at once
    record = p.http.get(f"/api/ranked/matches/{games[0].match_id}").json()
    assert len(record["seats"]) == 3 and [s["player_id"] for s in record["seats"]].count(bot_id) == 1
    # the finished sweep forgets the table without rating it
    deadline = time.monotonic() + 60
    while p.rdb.zscore(ACTIVE_KEY, games[0].match_id) is not None:
        assert time.monotonic() < deadline, "the casual table was never swept"
        time.sleep(0.3)
    assert RedisLadder(p.rdb).rating(BOT, bot_id).games == 0
    assert p.http.get(f"/api/ranked/players/{bot_id}/history", params={"ladder": "bot"}).json()["matches"] == []
    assert p.http.get(f"/api/ranked/matches/{games[0].match_id}").json().get("rated", False) is False


def test_a_person_challenges_a_connected_bot(platform: Platform) -> None:
    p = platform
    bot_id, token = p.bot("challenged")
    client = BotClient(token=token, address=p.bot_address)
    got: queue.Queue[bs.ServerMessage | BotError] = queue.Queue()

    def pump() -> None:
        try:
            for msg in client.messages():
                got.put(msg)
        except BotError as exc:
            got.put(exc)

    threading.Thread(target=pump, daemon=True).start()
    first = got.get(timeout=20)
    assert not isinstance(first, BotError) and first.WhichOneof("kind") == "welcome"
    guest = p.http.post("/api/guests", json={"name": "challenger"}).json()["token"]
    me = {"authorization": f"Bearer {guest}"}
    table = p.http.post("/api/casual", json={"ruleset": "return", "seats": ["me", bot_id, "heuristic"]}, headers=me)
    assert table.status_code == 201, table.text
    ticket = table.json()
    assert ticket["state"] == "matched" and ticket["seat"] == 0 and ticket["seat_token"], ticket
    match_id = ticket["match_id"]
    deadline = time.monotonic() + 30
    kinds = []
    while "match_start" not in kinds:
        msg = got.get(timeout=max(0.1, deadline - time.monotonic()))
        assert not isinstance(msg, BotError), msg
        kinds.append(msg.WhichOneof("kind"))
        if kinds[-1] == "match_start":
            assert msg.match_start.match_id == match_id and list(msg.match_start.seats) == [1]
    client.close()
    # refusals: an unknown bot, 'me' twice, a count the ruleset is not played by, no token
    assert p.http.post("/api/casual", json={"seats": ["me", "b_000000000000", "random"]}, headers=me).status_code == 404
    assert p.http.post("/api/casual", json={"seats": ["me", "me", "random"]}, headers=me).status_code == 422
    assert p.http.post("/api/casual", json={"players": 2}, headers=me).status_code == 422
    assert p.http.post("/api/casual", json={}).status_code == 401


def test_a_bot_challenges_another_bot_over_its_stream(platform: Platform) -> None:
    p = platform
    rival_id, rival_token = p.bot("rival")
    _, token = p.bot("challenger-bot")
    rival = BotClient(token=rival_token, address=p.bot_address)
    got: queue.Queue[bs.ServerMessage | BotError] = queue.Queue()

    def pump() -> None:  # the rival answers every decision with its first legal action
        try:
            for msg in rival.messages():
                got.put(msg)
                if msg.WhichOneof("kind") == "decision":
                    d = msg.decision
                    rival.act(d.match_id, d.seat, d.decision, d.legal_actions[0])
        except BotError as exc:
            got.put(exc)

    threading.Thread(target=pump, daemon=True).start()
    first = got.get(timeout=20)
    assert not isinstance(first, BotError) and first.WhichOneof("kind") == "welcome"
    games = run_bot(random_decide, token=token, address=p.bot_address, matches=1, casual=True,
                    seats=["random", "me", rival_id])  # fmt: skip
    assert len(games) == 1 and games[0].seats == [1]
    seen: dict[str, list[int]] = {}
    deadline = time.monotonic() + 30
    while games[0].match_id not in seen or "match_end" not in seen:
        msg = got.get(timeout=max(0.1, deadline - time.monotonic()))
        assert not isinstance(msg, BotError), msg
        kind = msg.WhichOneof("kind")
        if kind == "match_start":
            seen[msg.match_start.match_id] = list(msg.match_start.seats)
        elif kind == "match_end" and msg.match_end.match_id == games[0].match_id:
            seen["match_end"] = []
    assert seen[games[0].match_id] == [2]  # the rival played its seat of the challenge
    rival.close()
