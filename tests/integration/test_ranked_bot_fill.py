"""Two or more outside bots in a ranked queue are matched with house bots after the shorter
bot wait (issue 29 point 6; ``FENGSHENG_MM_BOT_FILL_AFTER_MS``, docs/ranked.md
"Matchmaking"), while one bot alone waits the full ``FENGSHENG_MM_FILL_AFTER_MS``. A real
Redis, an engine server (bot listener) and a Celery worker whose embedded beat runs
matchmaking."""

from __future__ import annotations

import queue
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from helpers.gateway_procs import platform_on

from fengsheng.bot import BotClient, BotError
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from services.channels import engine_channel

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

BOT_FILL_MS = 1500
ENV = {
    "FENGSHENG_MM_TICK_MS": "300",
    "FENGSHENG_MM_FILL_AFTER_MS": "60000",
    "FENGSHENG_MM_BOT_FILL_AFTER_MS": str(BOT_FILL_MS),
    # every bot here connects from 127.0.0.1: the address rule would keep them apart
    "FENGSHENG_MM_ADDRESS_WINDOW_MS": "0",
}


@dataclass
class Platform:
    engine_address: str
    bot_address: str

    def bot(self) -> tuple[BotClient, queue.Queue[bs.Ticket]]:
        """A bot of its own owner, streaming; its ticket messages in a queue."""
        with engine_channel(self.engine_address) as channel:
            account = bs_grpc.RankedServiceStub(channel).RegisterBot(
                bs.RegisterBotRequest(name=f"q{secrets.token_hex(4)}", owner=f"g_{secrets.token_hex(8)}"), timeout=20)
        client = BotClient(token=account.token, address=self.bot_address)
        tickets: queue.Queue[bs.Ticket] = queue.Queue()
        welcome = threading.Event()

        def read() -> None:
            try:
                for msg in client.messages():
                    kind = msg.WhichOneof("kind")
                    if kind == "welcome":
                        welcome.set()
                    elif kind == "ticket":
                        tickets.put(msg.ticket)
                    elif kind == "decision":  # play along: first legal action
                        d = msg.decision
                        client.act(d.match_id, d.seat, d.decision, d.legal_actions[0])
            except BotError:
                pass

        threading.Thread(target=read, daemon=True).start()
        assert welcome.wait(20)
        return client, tickets


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    with platform_on(redis_url, 4, tmp_path_factory.mktemp("bot-fill-logs"), ENV) as procs:
        yield Platform(procs.engine.address, procs.engine.extra["bot_address"])


def matched(tickets: queue.Queue[bs.Ticket], timeout: float) -> bs.Ticket | None:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            t = tickets.get(timeout=left)
        except queue.Empty:
            return None
        if t.state == "matched":
            return t
    return None


def test_two_bots_are_matched_with_house_bots_after_the_bot_wait(platform: Platform) -> None:
    (a, a_tickets), (b, b_tickets) = platform.bot(), platform.bot()
    t0 = time.monotonic()
    a.join_queue(min_players=5)
    b.join_queue(min_players=5)
    ta, tb = matched(a_tickets, 30), matched(b_tickets, 30)
    waited = time.monotonic() - t0
    assert ta is not None and tb is not None, "two bots in the queue were not matched"
    assert ta.match_id == tb.match_id
    assert list(ta.seats).count("external") == 2 and len(ta.seats) == 5, ta.seats  # 3 house bots
    assert ta.turn_timeout_ms == 1000  # a bots-only ranked table: the bot clock
    assert BOT_FILL_MS / 1000 - 0.1 <= waited < 20, waited  # not before the bot wait, far before 60 s
    # one bot alone waits for the full fill (60 s here): still queued well past the bot wait
    c, c_tickets = platform.bot()
    c.join_queue(min_players=5)
    assert matched(c_tickets, 3 * BOT_FILL_MS / 1000) is None, "a lone bot got house bots after the bot wait"
    for client in (a, b, c):
        client.close()
