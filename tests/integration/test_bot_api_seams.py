"""Seams of the bot API (issue 29, point 6): a bot's profile and history per ruleset, times
in JSON as ``*_ms``, one ``ticket matched`` per table, a replaced WebSocket closed at once
with one error, and ``server_ms`` beside ``deadline_ms``. A real Redis, an engine server, a
Celery worker and the gateway."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
import redis
from helpers.gateway_procs import platform_on, register_bot

from fengsheng.bot import BotClient, BotError
from services.ranked.ladder import MatchResult, Participant, RedisLadder

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


class Platform:
    def __init__(self, url: str, bot_address: str, gateway_url: str) -> None:
        self.rdb = redis.Redis.from_url(url)
        self.bot_address = bot_address
        self.http = httpx.Client(base_url=gateway_url, timeout=20)
        self.ws_url = gateway_url.replace("http", "ws", 1) + "/ws/bots"

    def bot(self, name: str) -> tuple[str, str]:
        made = register_bot(self.http, name)
        return made["bot_id"], made["token"]


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    with platform_on(redis_url, 12, tmp_path_factory.mktemp("seams-logs"), {}) as procs:
        yield Platform(procs.redis_url, procs.engine.extra["bot_address"], procs.gateway.extra["url"])


def test_a_table_sends_its_ticket_matched_once(platform: Platform) -> None:
    _, token = platform.bot("one-ticket")
    client = BotClient(token=token, address=platform.bot_address)
    kinds: list[str] = []
    matched = 0
    try:
        for msg in client.messages():
            kind = msg.WhichOneof("kind")
            kinds.append(kind)
            assert msg.server_ms > 0  # every message: the server's clock
            if kind == "welcome":
                client.open_table(["me", "heuristic", "heuristic"])
            elif kind == "ticket":
                matched += msg.ticket.state == "matched"
            elif kind == "decision":
                d = msg.decision
                assert abs(msg.server_ms - time.time() * 1000) < 5000 and d.deadline_ms > msg.server_ms
                client.act(d.match_id, d.seat, d.decision, d.legal_actions[0])
            elif kind == "match_end":
                break
    finally:
        client.close()
    assert matched == 1, kinds
    assert kinds.index("ticket") < kinds.index("match_start"), kinds


def test_a_replaced_websocket_is_closed_at_once_with_one_error(platform: Platform) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    _, token = platform.bot("replaced-ws")
    with connect(f"{platform.ws_url}?token={token}") as old:
        welcome = json.loads(old.recv(timeout=10))
        assert "welcome" in welcome and abs(welcome["server_ms"] - time.time() * 1000) < 5000, welcome
        with connect(f"{platform.ws_url}?token={token}") as new:
            assert "welcome" in json.loads(new.recv(timeout=10))
            took = time.monotonic()
            told = json.loads(old.recv(timeout=10))
            assert told["error"]["kind"] == "replaced", told
            with pytest.raises(ConnectionClosed) as closed:
                extra = old.recv(timeout=10)
                pytest.fail(f"a second message after replaced: {extra}")
            took = time.monotonic() - took
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409
            # told by the new stream's notice, not by the once-a-second check
            assert took < 0.5, f"the replaced socket stayed open {took:.2f}s"


def test_a_bots_profile_and_history_are_per_ruleset_with_times_in_ms(platform: Platform) -> None:
    bot_id, _ = platform.bot("classic-only")
    before_ms = int(time.time() * 1000)
    # the ladder as the game-over task records a finished classic match (two bots)
    seats = (Participant(bot_id, "classic-only", True, 0, True, 1),
             Participant("b_other1234", "other", True, 1, False, 2))
    assert RedisLadder(platform.rdb).record(MatchResult("m-classic-1", "2026-12", seats, ruleset="classic"))
    profile = platform.http.get(f"/api/bots/{bot_id}").json()
    assert profile["ruleset"] == "classic" and profile["all_time"]["games"] == 1, profile
    by = {r["ruleset"]: r["all_time"]["games"] for r in profile["rulesets"]}
    assert by["classic"] == 1 and by["return"] == 0, by
    assert [m["match_id"] for m in profile["recent"]] == ["m-classic-1"]
    assert profile["recent"][0]["ruleset"] == "classic"
    at = profile["recent"][0]["at_ms"]
    assert isinstance(at, int) and before_ms <= at <= time.time() * 1000 and "at" not in profile["recent"][0]
    named = platform.http.get(f"/api/bots/{bot_id}", params={"ruleset": "return"}).json()
    assert named["ruleset"] == "return" and named["all_time"]["games"] == 0 and named["recent"] == []
    assert platform.http.get(f"/api/bots/{bot_id}", params={"ruleset": "nope"}).status_code == 422
    history = platform.http.get(f"/api/ranked/players/{bot_id}/history", params={"ladder": "bot"}).json()
    assert [(m["match_id"], m["at_ms"]) for m in history["matches"]] == [("m-classic-1", at)]


def test_a_stream_that_opens_a_table_gets_the_queued_ticket_once_too(platform: Platform) -> None:
    """The bots-only queue's ``queued`` ticket is not published: the table answer brings it."""
    _, token = platform.bot("queued-once")
    client = BotClient(token=token, address=platform.bot_address)
    states: list[str] = []
    try:
        for msg in client.messages():
            kind = msg.WhichOneof("kind")
            if kind == "welcome":
                client.open_table(players=5, queue=True, fill_after_ms=600_000)
            elif kind == "ticket":
                states.append(msg.ticket.state)
                if msg.ticket.state == "left":
                    break
                client.leave_queue(msg.ticket.ticket_id)
            elif kind == "error":
                raise AssertionError(msg.error)
    except BotError as exc:
        raise AssertionError(exc) from exc
    finally:
        client.close()
    assert states == ["queued", "left"], states
