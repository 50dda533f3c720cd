"""One person, one seat per rated table (issue 26 §1), through the real gateway, ranked queue
and Celery workers: a real Redis, an engine server (RankedService, BotService and its bot
listener), a worker whose embedded beat runs the matchmaking tick, and the gateway.

The farming path of the issue (a guest queues with two bots it registered, all for 3
players) ends in separate rated tables; so do two bots of one owner, and two accounts seen
from one client address within ``FENGSHENG_MM_ADDRESS_WINDOW_MS`` (people over HTTP, bots
over ``/ws/bots`` and over gRPC), while outside the window they may meet. A casual table may
seat an owner's bots together, and is never rated.

The gateway trusts 127.0.0.1 as a proxy, so each request's ``X-Forwarded-For`` is its
client address (exactly as behind a real proxy listed in ``FENGSHENG_TRUSTED_PROXIES``); a
request without one is 127.0.0.1, as is every gRPC stream to the bot listener.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from helpers.gateway_procs import platform_on, register_bot, wait_until
from helpers.processes import ServiceProcess

from fengsheng.bot import BotClient
from fengsheng.v1 import bot_service_pb2 as bs

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

#: the address window of this platform (seconds): short, so "outside it" is a short wait
WINDOW_S = 4.0
ENV = {
    "FENGSHENG_MM_TICK_MS": "300",
    "FENGSHENG_MM_WINDOW_BASE": "50",  # every rating pairs with every other at once
    "FENGSHENG_MM_FILL_AFTER_MS": "3000",
    "FENGSHENG_RANKED_TURN_TIMEOUT_MS": "5000",
    "FENGSHENG_BOT_MAX_MATCHES": "4",
    "FENGSHENG_MM_ADDRESS_WINDOW_MS": str(round(WINDOW_S * 1000)),
}


class Platform:
    def __init__(self, url: str, engine: ServiceProcess, gateway: ServiceProcess) -> None:
        self.rdb = redis.Redis.from_url(url)
        self.url = gateway.extra["url"]
        self.bot_address = engine.extra["bot_address"]
        self.http = httpx.Client(base_url=self.url, timeout=20)

    def guest(self, name: str, address: str = "") -> tuple[dict[str, str], str]:
        """A new guest, created from ``address``: its ``authorization`` header and player id."""
        reply = self.http.post("/api/guests", json={"name": name}, headers=via(address))
        assert reply.status_code == 201, reply.text
        return bearer(reply.json()["token"]), str(reply.json()["player_id"])

    def queue(self, auth: dict[str, str], address: str = "") -> str:
        """Queue for a 3-player rated table from ``address`` (player or bot token): the ticket id."""
        reply = self.http.post("/api/ranked/queue", json={"min_players": 3}, headers={**auth, **via(address)})
        assert reply.status_code == 201 and reply.json()["state"] == "queued", reply.text
        return str(reply.json()["ticket_id"])

    def leave(self, auth: dict[str, str], ticket_id: str) -> None:
        assert self.http.delete(f"/api/ranked/queue/{ticket_id}", headers=auth).json()["state"] == "left"

    def match_of(self, auth: dict[str, str], ticket_id: str, timeout: float = 30) -> str:
        """The ranked match the ticket was matched into (waiting for it)."""
        found: dict[str, Any] = {}

        def matched() -> bool:
            found.update(self.http.get(f"/api/ranked/queue/{ticket_id}", headers=auth).json())
            return found.get("state") == "matched"

        wait_until(matched, timeout, f"ticket {ticket_id} to match")
        return str(found["match_id"])

    def seated(self, match_id: str) -> list[str]:
        """The player ids seated at a ranked match (house bots included)."""
        view = self.http.get(f"/api/ranked/matches/{match_id}").json()
        return [s["player_id"] for s in view["seats"]]


def via(address: str) -> dict[str, str]:
    """The header a trusted proxy (127.0.0.1 here) adds for a client at ``address``."""
    return {"X-Forwarded-For": address} if address else {}


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    logs = tmp_path_factory.mktemp("rated-tables-logs")
    with platform_on(redis_url, 12, logs, ENV, gateway_env={"FENGSHENG_TRUSTED_PROXIES": "127.0.0.1"}) as procs:
        yield Platform(procs.redis_url, procs.engine, procs.gateway)


def test_a_guest_and_its_own_bots_in_one_rated_queue_get_separate_tables(platform: Platform) -> None:
    """Acceptance (issue 26): the farming path. A guest registers two bots with its token;
    both bots and the guest queue for 3 players (from three different addresses, so only
    the owner rule is at work), two honest guests too. No rated table seats two of the
    owner's accounts: the guest plays the honest pair, each bot gets a table of its own
    (house bots fill it). A casual table may seat the owner's bots together: never rated."""
    p = platform
    me, me_id = p.guest("farmer", "198.51.100.1")
    bots = [register_bot(p.http, f"farm-bot-{k}", me) for k in (1, 2)]
    honest = [p.guest(f"honest-{k}", f"198.51.100.{k + 3}") for k in (1, 2)]
    mine = [(me, p.queue(me, "198.51.100.1"))]
    mine += [(bearer(b["token"]), p.queue(bearer(b["token"]), f"198.51.100.{k + 10}")) for k, b in enumerate(bots)]
    others = [(auth, p.queue(auth, f"198.51.100.{k + 4}")) for k, (auth, _) in enumerate(honest)]
    tables = {p.match_of(auth, tid) for auth, tid in mine + others}
    owned = {me_id, *(b["bot_id"] for b in bots)}
    seated = {match_id: p.seated(match_id) for match_id in tables}
    for match_id, ids in seated.items():
        assert len(owned & set(ids)) <= 1, (match_id, ids)  # never two of one owner at a rated table
    assert len(tables) == 3, seated  # the guest's with the honest pair, one for each bot
    (with_me,) = [ids for ids in seated.values() if me_id in ids]
    assert {i for _, i in honest} <= set(with_me), seated
    for ids in seated.values():  # the bots' tables: house bots in the other seats
        if me_id not in ids:
            assert len(ids) == 3 and sum(i.startswith("house-") for i in ids) == 2, ids

    # a casual table (the bots-only queue) may seat them together, and is never rated
    first = p.http.post("/api/casual", json={"queue": True, "players": 3, "fill_after_ms": 60_000},
                        headers=bearer(bots[0]["token"]))  # fmt: skip
    assert first.status_code == 201 and first.json()["state"] == "queued", first.text
    second = p.http.post("/api/casual", json={"queue": True, "players": 3}, headers=bearer(bots[1]["token"]))
    assert second.status_code == 201 and second.json()["state"] == "matched", second.text
    casual = second.json()["match_id"]
    assert casual.startswith("cs-") and {b["bot_id"] for b in bots} <= set(p.seated(casual))
    view = p.http.get(f"/api/ranked/matches/{casual}").json()
    assert view.get("rated", False) is False and p.rdb.hget(f"mm:{{mm}}:m:{casual}", "casual") == b"1"


def test_two_bots_of_one_owner_never_share_a_rated_table(platform: Platform) -> None:
    """Two bots of one owner (the owner does not queue) over the gateway's ``/ws/bots``, each
    from its own address, and two honest players: the bots play at separate tables."""
    from websockets.sync.client import connect

    p = platform
    owner, _ = p.guest("two-bot-owner", "198.51.100.20")
    bots = [register_bot(p.http, f"twin-{k}", owner) for k in (1, 2)]
    ws_url = p.url.replace("http", "ws", 1) + "/ws/bots"
    tickets = []
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(f"{ws_url}?token={b['token']}",
                                               additional_headers=via(f"198.51.100.{21 + k}")))
                   for k, b in enumerate(bots)]  # fmt: skip
        for ws in sockets:
            assert "welcome" in json.loads(ws.recv(timeout=10))
            ws.send(json.dumps({"join_queue": {"min_players": 3, "max_players": 3}}))
            while "ticket" not in (msg := json.loads(ws.recv(timeout=10))):
                pass
            tickets.append(msg["ticket"]["ticket_id"])
        honest = [p.guest(f"twin-rival-{k}", f"198.51.100.{24 + k}") for k in (1, 2)]
        rivals = [(auth, p.queue(auth, f"198.51.100.{24 + k}")) for k, (auth, _) in enumerate(honest, start=1)]
        tables = [p.match_of(bearer(b["token"]), tid) for b, tid in zip(bots, tickets, strict=True)]
        assert tables[0] != tables[1], tables
        for match_id in tables:
            assert len({b["bot_id"] for b in bots} & set(p.seated(match_id))) == 1
        # the honest pair sits with one of them (not stranded by the rule)
        assert len({p.match_of(auth, tid) for auth, tid in rivals} & set(tables)) == 1


def test_one_client_address_keeps_accounts_apart_within_the_window(platform: Platform) -> None:
    """Unrelated accounts that share a client address: a person and another person (HTTP),
    a bot over gRPC (its stream's peer) and a person from that same address. Within the
    window they never share a rated table; once the window has passed they may."""
    p = platform
    # within: r1 queued from 203.0.113.7 a moment ago (then left) and queues from elsewhere
    # now; r2 queues from 203.0.113.7: apart. r3, r4: other addresses.
    r1, r1_id = p.guest("addr-r1", "203.0.113.7")
    p.leave(r1, p.queue(r1, "203.0.113.7"))
    people = [(r1, r1_id, "192.0.2.31")] + [(*p.guest(f"addr-r{k}", a), a) for k, a in
                                              ((2, "203.0.113.7"), (3, "192.0.2.33"), (4, "192.0.2.34"))]  # fmt: skip
    tickets = [(auth, p.queue(auth, address)) for auth, _, address in people]
    tables = [p.match_of(auth, tid) for auth, tid in tickets]
    assert tables[0] != tables[1], tables  # r1 and r2: one address within the window
    assert r1_id in p.seated(tables[0]) and people[1][1] not in p.seated(tables[0])

    # a bot over gRPC is seen from its stream's peer (127.0.0.1); a guest queueing with no
    # proxy header is 127.0.0.1 too: apart
    bot = register_bot(p.http, "grpc-same-address")
    client = BotClient(token=bot["token"], address=p.bot_address)
    got: queue.Queue[bs.ServerMessage] = queue.Queue()

    def pump() -> None:
        for msg in client.messages():
            got.put(msg)
            if msg.WhichOneof("kind") == "welcome":
                client.join_queue(3, 3)

    threading.Thread(target=pump, daemon=True).start()
    try:
        bot_ticket = ""
        deadline = time.monotonic() + 20
        while not bot_ticket:
            msg = got.get(timeout=max(0.1, deadline - time.monotonic()))
            if msg.WhichOneof("kind") == "ticket" and msg.ticket.state == "queued":
                bot_ticket = msg.ticket.ticket_id
        local, local_id = p.guest("addr-local")
        others = [p.guest(f"addr-l{k}", f"192.0.2.4{k}") for k in (1, 2)]
        local_ticket = p.queue(local)
        for k, (auth, _) in enumerate(others, start=1):
            p.queue(auth, f"192.0.2.4{k}")
        bot_table = p.match_of(bearer(bot["token"]), bot_ticket)
        assert bot_table != p.match_of(local, local_ticket)
        assert local_id not in p.seated(bot_table)
    finally:
        client.close()

    # outside: s1 queued from 203.0.113.8 (then left); after the window s1 queues from
    # elsewhere, s2 from 203.0.113.8, s3 from a third: one table
    s1, s1_id = p.guest("addr-s1", "203.0.113.8")
    p.leave(s1, p.queue(s1, "203.0.113.8"))
    time.sleep(WINDOW_S + 0.5)
    people = [(s1, s1_id, "192.0.2.51")] + [(*p.guest(f"addr-s{k}", a), a) for k, a in
                                              ((2, "203.0.113.8"), (3, "192.0.2.53"))]  # fmt: skip
    tickets = [(auth, p.queue(auth, address)) for auth, _, address in people]
    tables = [p.match_of(auth, tid) for auth, tid in tickets]
    assert len(set(tables)) == 1, tables
    assert sorted(i for i in p.seated(tables[0]) if not i.startswith("house-")) == sorted(i for _, i, _ in people)
