"""The SDK's ``run_bot`` and challenges through the real platform (issue 29 point 5): a
challenges-only bot never opens a table of its own and plays the challenges it is sent; a
bot asked for ``matches=N`` never returns while a match of its, or an accepted challenge's
match, is still being played (its seat would be left to the timer). A real Redis, an engine
server (with its bot listener), a Celery worker and a gateway."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
from helpers.gateway_procs import platform_on

from fengsheng.bot import MatchSummary, run_bot
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from services.bot_timing import PACE_OFF
from services.channels import engine_channel
from services.engine.store import HistoryEntry, history_key, state_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

HOUSE = ["heuristic"] * 3
#: origins of an action the platform took for a seat whose bot did not answer
LEFT_ORIGINS = {"timer", "away"}


@dataclass
class Bots:
    rdb: redis.Redis
    address: str
    engine_address: str

    def register(self, name: str) -> bs.BotAccount:
        with engine_channel(self.engine_address) as channel:
            account: bs.BotAccount = bs_grpc.RankedServiceStub(channel).RegisterBot(
                bs.RegisterBotRequest(name=name, owner=f"g_{secrets.token_hex(8)}"), timeout=20)  # its own owner
        return account

    def origins(self, match_id: str, seats: list[int]) -> list[str]:
        entries = [HistoryEntry.decode(x) for x in self.rdb.lrange(history_key(match_id), 0, -1)]
        return [e.origin for e in entries if e.seat in seats]

    def over(self, match_id: str) -> bool:
        return self.rdb.hget(state_key(match_id), "over") == b"1"


@pytest.fixture(scope="module")
def bots(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bots]:
    with platform_on(redis_url, 4, tmp_path_factory.mktemp("sdk-challenge-logs"), PACE_OFF) as procs:
        yield Bots(redis.Redis.from_url(procs.redis_url), procs.engine.extra["bot_address"], procs.engine.address)


def first_legal(delay_s: float = 0.0) -> Any:
    def decide(observation: Any, legal: list[Any]) -> Any:
        time.sleep(delay_s)
        return legal[0]

    return decide


@dataclass
class Run:
    """A ``run_bot`` on a thread of its own: what it returned (or raised), every message."""

    messages: list[bs.ServerMessage] = field(default_factory=list)
    result: list[MatchSummary] | None = None
    error: BaseException | None = None
    returned_at: float = 0.0
    done: threading.Event = field(default_factory=threading.Event)

    def kinds(self, kind: str) -> list[bs.ServerMessage]:
        return [m for m in list(self.messages) if m.WhichOneof("kind") == kind]

    def start(self, **kwargs: Any) -> Run:
        def main() -> None:
            try:
                self.result = run_bot(on_message=self.messages.append, **kwargs)
            except BaseException as exc:
                self.error = exc
            self.returned_at = time.monotonic()
            self.done.set()

        threading.Thread(target=main, daemon=True).start()
        return self

    def wait(self, timeout: float) -> list[MatchSummary]:
        assert self.done.wait(timeout), "run_bot did not return"
        assert self.error is None, self.error
        assert self.result is not None
        return self.result


def wait_for(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_challenges_only_bot_answers_challenges_and_opens_no_table(bots: Bots) -> None:
    waiter = bots.register("waits-for-challenges")
    challenger = bots.register("challenger")
    y = Run().start(decide=first_legal(), token=waiter.token, address=bots.address, matches=1,
                    challenges_only=True)  # fmt: skip
    wait_for(lambda: y.kinds("welcome"), 20, "the challenges-only bot did not connect")
    time.sleep(2.0)  # long enough for a table of its own to be opened and started
    assert not y.kinds("match_start") and not y.kinds("ticket"), y.messages
    x = Run().start(decide=first_legal(), token=challenger.token, address=bots.address, matches=1, casual=True,
                    seats=["me", waiter.bot_id, *HOUSE])  # fmt: skip
    played = y.wait(90)
    x_played = x.wait(60)
    assert [s.match_id for s in played] == [s.match_id for s in x_played], (played, x_played)
    assert played[0].decisions > 0 and played[0].identities  # it played it to the end
    tickets = [m.ticket for m in y.kinds("ticket")]
    assert tickets and all(t.challenger == "challenger" for t in tickets), tickets  # none of its own
    assert {t.state for t in tickets} >= {"invited", "matched"}
    # one `ticket matched` per table, to the challenged and to the challenger
    assert [t.state for t in tickets].count("matched") == 1, tickets
    assert [m.ticket.state for m in x.kinds("ticket")].count("matched") == 1, x.kinds("ticket")
    assert not LEFT_ORIGINS & set(bots.origins(played[0].match_id, played[0].seats))


def test_run_bot_finishes_an_accepted_challenge_before_it_returns(bots: Bots) -> None:
    """``matches=1`` and a challenge accepted while its own table plays: both matches are
    played to their end by the bot (no timer, no away stand-in at its seats), and run_bot
    returns only once both are over (before, it returned at the first match_end and the
    challenger's table waited on the timer)."""
    busy = bots.register("busy-bot")
    challenger = bots.register("challenger-2")
    started = threading.Event()

    def on_start(msg: bs.ServerMessage) -> None:
        y.messages.append(msg)
        if msg.WhichOneof("kind") == "match_start":
            started.set()

    y = Run()

    def main() -> None:
        try:
            y.result = run_bot(first_legal(0.15), token=busy.token, address=bots.address, matches=1, casual=True,
                               on_message=on_start, accept=lambda ticket: True)  # fmt: skip
        except BaseException as exc:
            y.error = exc
        y.returned_at = time.monotonic()
        y.done.set()

    threading.Thread(target=main, daemon=True).start()
    assert started.wait(30), "the bot's own table did not start"
    x = Run().start(decide=first_legal(), token=challenger.token, address=bots.address, matches=1, casual=True,
                    seats=["me", busy.bot_id, *HOUSE])  # fmt: skip
    played = y.wait(150)
    ids = [s.match_id for s in played]
    x_played = x.wait(60)
    assert len(ids) == 2 and x_played[0].match_id in ids, (ids, x_played)
    for summary in played:
        assert bots.over(summary.match_id), f"run_bot returned while {summary.match_id} was still being played"
        origins = bots.origins(summary.match_id, summary.seats)
        assert origins and not LEFT_ORIGINS & set(origins), (summary.match_id, origins)
