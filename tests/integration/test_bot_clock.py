"""Time controls at bot tables (issue 29, point 1; docs/bots.md, "Time controls"): a table
chooses its per-decision clock and bank; a bots-only table defaults to the bot-speed clock; a
decision the timer answers counts against the seat, a late answer does not clear the count,
and after ``FENGSHENG_AWAY_AFTER`` (3) defaults in a row the seat is away for the rest of the
match: the house policy plays it at once. A real Redis, an engine server (with its bot
listener) and a Celery worker (house bots, turn timers)."""

from __future__ import annotations

import queue
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import redis
from helpers.gateway_procs import platform_on
from helpers.processes import ServiceProcess

from fengsheng.bot import BotClient, BotError
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from services.bot_timing import PACE_OFF
from services.channels import engine_channel
from services.engine.clock import BOT_BANK_MS, BOT_CLOCK_MS
from services.engine.store import HistoryEntry, history_key, state_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

AWAY_AFTER = 3  # the default (FENGSHENG_AWAY_AFTER unset)
HOUSE = ["heuristic"] * 4


@dataclass
class Platform:
    rdb: redis.Redis
    engine: ServiceProcess

    def bot(self, name: str) -> BotClient:
        with engine_channel(self.engine.address) as channel:
            account = bs_grpc.RankedServiceStub(channel).RegisterBot(
                bs.RegisterBotRequest(name=name, owner=f"g_{secrets.token_hex(8)}"), timeout=20)  # its own owner
        return BotClient(token=account.token, address=self.engine.extra["bot_address"])

    def history(self, match_id: str) -> list[HistoryEntry]:
        return [HistoryEntry.decode(x.decode()) for x in self.rdb.lrange(history_key(match_id), 0, -1)]

    def over(self, match_id: str) -> bool:
        return self.rdb.hget(state_key(match_id), "over") == b"1"


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    # house bots answer as soon as computed (PACE_OFF): the time here is the clocks', not their pace
    with platform_on(redis_url, 13, tmp_path_factory.mktemp("clock-logs"), PACE_OFF) as procs:
        yield Platform(redis.Redis.from_url(procs.redis_url), procs.engine)


@dataclass
class Received:
    """What a bot's stream was sent, each message with the monotonic time it arrived."""

    messages: list[tuple[float, bs.ServerMessage]] = field(default_factory=list)
    errors: list[bs.BotError] = field(default_factory=list)
    ended: threading.Event = field(default_factory=threading.Event)

    def first(self, kind: str) -> tuple[float, bs.ServerMessage]:
        return next((t, m) for t, m in self.messages if m.WhichOneof("kind") == kind)


def late_bot(client: BotClient, got: Received, late_s: float) -> None:
    """Read the stream; answer every decision ``late_s`` after its deadline (by the server's
    clock: ``deadline_ms - server_ms`` is the time left), on another thread so that reading
    never waits."""
    answers: queue.Queue[tuple[float, bs.DecisionRequest]] = queue.Queue()

    def answer() -> None:
        while True:
            due, d = answers.get()
            time.sleep(max(0.0, due - time.monotonic()))
            client.act(d.match_id, d.seat, d.decision, d.legal_actions[0])

    def read() -> None:
        try:
            for msg in client.messages():
                now = time.monotonic()
                got.messages.append((now, msg))
                kind = msg.WhichOneof("kind")
                if kind == "decision":
                    assert msg.server_ms > 0 and msg.decision.deadline_ms > 0
                    left_s = (msg.decision.deadline_ms - msg.server_ms) / 1000
                    answers.put((now + left_s + late_s, msg.decision))
                elif kind == "error":
                    got.errors.append(msg.error)
                elif kind == "match_end":
                    got.ended.set()
        except BotError:
            pass
        got.ended.set()

    threading.Thread(target=answer, daemon=True).start()
    threading.Thread(target=read, daemon=True).start()


def test_a_bot_that_always_answers_late_is_away_after_three_defaults(platform: Platform) -> None:
    client = platform.bot("always-late")
    got = Received()
    late_bot(client, got, late_s=0.4)
    client.open_table(["me", *HOUSE], clock_ms=1000, bank_ms=0)
    assert got.ended.wait(90), "the match of a bot that always answers late did not finish"
    _, start = got.first("match_start")
    assert start.match_start.clock_ms == 1000 and start.match_start.bank_ms == 0
    match_id, seat = start.match_start.match_id, start.match_start.seats[0]
    origins = [e.origin for e in platform.history(match_id) if e.seat == seat]
    # every late answer was refused: the timer answered 3 decisions, then the house policy
    assert origins[:AWAY_AFTER] == ["timer"] * AWAY_AFTER, origins
    assert len(origins) > AWAY_AFTER and set(origins[AWAY_AFTER:]) == {"away"}, origins
    kinds = {e.kind for e in got.errors}  # late: stale, then away (or over, past the match's end)
    assert "stale" in kinds and kinds <= {"stale", "away", "over"}, got.errors
    defaulted = [(t, m.defaulted) for t, m in got.messages if m.WhichOneof("kind") == "defaulted"]
    assert [d.away for _, d in defaulted[:AWAY_AFTER]] == [False, False, True], defaulted
    # the rest of the match went at house bot speed: no 1 s timer per decision any more
    away_at = defaulted[AWAY_AFTER - 1][0]
    end_at, _ = got.first("match_end")
    later = len(origins) - AWAY_AFTER
    assert end_at - away_at < 0.5 * later + 5, (end_at - away_at, later)
    client.close()


def test_a_five_bot_table_with_a_dead_bot_finishes_on_the_bot_clock(platform: Platform) -> None:
    client = platform.bot("dies-at-once")
    got = Received()
    msgs = iter(client.messages())
    assert next(msgs).WhichOneof("kind") == "welcome"
    client.open_table(["me", *HOUSE])  # bots only: the bot-speed clock by default
    start = None
    for msg in msgs:
        if msg.WhichOneof("kind") == "match_start":
            start = msg.match_start
            break
    assert start is not None
    assert (start.clock_ms, start.bank_ms) == (BOT_CLOCK_MS, BOT_BANK_MS)
    client.close()  # the bot dies: it never answers
    t0 = time.monotonic()
    while not platform.over(start.match_id):
        assert time.monotonic() - t0 < 60, "a table with a dead bot did not finish"
        time.sleep(0.2)
    origins = [e.origin for e in platform.history(start.match_id) if e.seat == start.seats[0]]
    assert origins[:AWAY_AFTER] == ["timer"] * AWAY_AFTER and set(origins[AWAY_AFTER:]) <= {"away"}, origins
    # the dead seat cost its bank and three clocks, the rest is house speed
    assert time.monotonic() - t0 < (BOT_BANK_MS + AWAY_AFTER * BOT_CLOCK_MS) / 1000 + 20
    assert not got.errors


def test_a_table_refuses_a_clock_outside_the_documented_set(platform: Platform) -> None:
    client = platform.bot("odd-clock")
    got: queue.Queue[bs.ServerMessage] = queue.Queue()

    def read() -> None:
        try:
            for msg in client.messages():
                got.put(msg)
        except BotError:
            pass

    threading.Thread(target=read, daemon=True).start()
    assert got.get(timeout=20).WhichOneof("kind") == "welcome"
    client.open_table(["me", *HOUSE], clock_ms=2000)
    msg = got.get(timeout=20)
    assert msg.WhichOneof("kind") == "error" and msg.error.code == "INVALID_ARGUMENT", msg
    assert "1000, 5000, 30000" in msg.error.message
    client.open_table(["me", *HOUSE], clock_ms=5000, bank_ms=300001)
    msg = got.get(timeout=20)
    assert msg.WhichOneof("kind") == "error" and "bank_ms" in msg.error.message, msg
    client.close()


def test_an_answer_past_the_clock_spends_the_bank_and_a_timeout_empties_it(platform: Platform) -> None:
    from fengsheng.v1 import engine_service_pb2 as es
    from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
    from services.engine.clock import away_key

    seats = [es.HUMAN, es.BOT_HEURISTIC, es.BOT_HEURISTIC]
    settings = es.MatchSettings(players=3, seed=4242, seats=seats, turn_timeout_ms=500, time_bank_ms=1000)
    with engine_channel(platform.engine.address) as channel:
        stub = es_grpc.EngineServiceStub(channel)
        match_id = stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id

        def open_for_seat_0() -> es.LegalActions:
            while True:
                legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=0))
                if legal.seat_to_act == 0 and legal.actions:
                    return legal
                assert not platform.over(match_id)
                time.sleep(0.01)

        legal = open_for_seat_0()
        time.sleep(0.8)  # 0.3 s past the 0.5 s clock: within clock + bank, spent from the bank
        stub.Act(es.ActRequest(match_id=match_id, seat=0, decision=legal.decision, action=legal.default_action,
                               origin="human"))  # fmt: skip
        left = int(platform.rdb.hget(away_key(match_id), "b0") or -1)
        assert 600 <= left <= 720, left  # 1000 - ~300 ms (the decision opened a moment before we saw it)
        assert platform.rdb.hget(away_key(match_id), "0") is None  # no default counted
        legal = open_for_seat_0()
        t0 = time.monotonic()
        while int(platform.rdb.hget(away_key(match_id), "0") or 0) < 1:  # the timer answers at clock + bank left
            assert time.monotonic() - t0 < 10
            time.sleep(0.01)
        assert time.monotonic() - t0 > 0.5 + left / 1000 - 0.25
        assert int(platform.rdb.hget(away_key(match_id), "b0") or -1) == 0  # a timeout spends all of it
