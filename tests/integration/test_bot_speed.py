"""Bot-only tables play at engine speed end to end (issue 29 point 1): with the house bots'
**default** pace (not switched off as elsewhere in the suite), a 5-bot casual table on the
bot-speed clock plays faster than the people's pace allows (the house bots' hold scales with
the table's clock, services/bot_timing.py), and one whose external bot dies finishes after its
bank and three clocks at that speed. A real Redis, an engine server (bot listener) and a
Celery worker."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import redis
from helpers.gateway_procs import platform_on

from fengsheng.bot import BotClient, run_bot
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from services.bot_timing import DEFAULT_JITTER_MS, DEFAULT_THINK_MS
from services.channels import engine_channel
from services.engine.clock import BOT_BANK_MS, BOT_CLOCK_MS
from services.engine.store import HistoryEntry, history_key, state_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

AWAY_AFTER = 3
HOUSE = ["heuristic"] * 4
#: the house bots' pace at the people's clock (its mean hold, s): what a house decision took
#: on every table before the pace followed the clock
PEOPLE_PACE_S = (DEFAULT_THINK_MS + DEFAULT_JITTER_MS / 2) / 1000
#: the default pace, spelled out (the suite's other platforms switch it off)
DEFAULT_PACE = {"FENGSHENG_BOT_THINK_MS": str(DEFAULT_THINK_MS), "FENGSHENG_BOT_JITTER_MS": str(DEFAULT_JITTER_MS)}


@dataclass
class Platform:
    rdb: redis.Redis
    bot_address: str
    engine_address: str

    def token(self, name: str) -> str:
        with engine_channel(self.engine_address) as channel:
            account = bs_grpc.RankedServiceStub(channel).RegisterBot(
                bs.RegisterBotRequest(name=name, owner=f"g_{secrets.token_hex(8)}"), timeout=20)
        return str(account.token)

    def history(self, match_id: str) -> list[HistoryEntry]:
        return [HistoryEntry.decode(x) for x in self.rdb.lrange(history_key(match_id), 0, -1)]

    def over(self, match_id: str) -> bool:
        return self.rdb.hget(state_key(match_id), "over") == b"1"


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    with platform_on(redis_url, 4, tmp_path_factory.mktemp("speed-logs"), DEFAULT_PACE) as procs:
        yield Platform(redis.Redis.from_url(procs.redis_url), procs.engine.extra["bot_address"], procs.engine.address)


def test_a_five_bot_table_plays_faster_than_the_peoples_pace(platform: Platform) -> None:
    """One bot answering at once and four house bots on the 1 s clock: the house decisions
    alone would take PEOPLE_PACE_S (80 ms) each at the people's pace; the table plays them in
    well under half that (their hold is 2-3.3 ms on this clock)."""
    token = platform.token("fast-bot")
    t0 = time.monotonic()
    played = run_bot(lambda observation, legal: legal[0], token=token, address=platform.bot_address, matches=3,
                     casual=True, seats=["me", *HOUSE])  # fmt: skip
    wall = time.monotonic() - t0
    house = total = 0
    for summary in played:
        history = platform.history(summary.match_id)
        total += len(history)
        house += sum(e.origin == "bot" for e in history)
        assert not {e.origin for e in history} & {"timer", "away"}, summary.match_id
    rate = total / wall
    print(f"5-bot casual table, bot clock, default pace: {total} decisions in {wall:.1f} s = {rate:.0f}/s "
          f"({house} by house bots)")  # fmt: skip
    assert house > 50
    # the whole run (connecting, three tables one after another) in less than the house
    # decisions alone would hold at the people's pace, halved
    assert wall < 0.5 * house * PEOPLE_PACE_S, (wall, house)


def test_a_table_with_a_dead_bot_finishes_at_house_speed(platform: Platform) -> None:
    """The acceptance's "a 5-bot casual table with a 1 s clock and one dead bot finishes",
    at the default pace: three defaults (after its bank), then the house policy at once."""
    client = BotClient(token=platform.token("dies"), address=platform.bot_address)
    msgs = iter(client.messages())
    assert next(msgs).WhichOneof("kind") == "welcome"
    client.open_table(["me", *HOUSE], clock_ms=BOT_CLOCK_MS)
    start = next(m.match_start for m in msgs if m.WhichOneof("kind") == "match_start")
    client.close()  # the bot dies: it never answers
    t0 = time.monotonic()
    while not platform.over(start.match_id):
        assert time.monotonic() - t0 < 60, "a table with a dead bot did not finish"
        time.sleep(0.1)
    wall = time.monotonic() - t0
    history = platform.history(start.match_id)
    origins = [e.origin for e in history if e.seat == start.seats[0]]
    assert origins[:AWAY_AFTER] == ["timer"] * AWAY_AFTER and set(origins[AWAY_AFTER:]) <= {"away"}, origins
    waited = (BOT_BANK_MS + AWAY_AFTER * BOT_CLOCK_MS) / 1000
    print(f"dead bot: {len(history)} decisions in {wall:.1f} s (of which ~{waited:.0f} s its bank and clocks)")
    assert wall < waited + 0.5 * len(history) * PEOPLE_PACE_S, (wall, len(history))
