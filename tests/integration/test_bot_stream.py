"""The bot's live event stream (issue 29 §2): every event its seat may see is pushed as it
happens (``event`` messages), between decisions and after the seat is out, over gRPC and the
WebSocket; ``match_end`` carries the trailing events, every identity and the end reason as a
value; nothing another seat alone may see ever reaches it. A real Redis, an engine server, a
Celery worker (the house bots) and the gateway.

Each test plays casual tables (the bot and four house heuristic bots) until its seat dies
before the game ends; the bot accepts every intel it may, which kills it soon enough. The
raw stream of the match, read from Redis, is the independent record it is checked against.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from google.protobuf import json_format
from helpers.gateway_procs import platform_on, register_bot
from redis import asyncio as aioredis

from fengsheng.bot import BotClient
from fengsheng.v1 import game_pb2
from services.engine.store import MatchStore, StoredEvent

pytestmark = [pytest.mark.integration, pytest.mark.timeout(420)]

#: tables to play before giving up on seeing the bot's seat die before the end
MAX_TABLES = 8
PLAYERS = 5


class Platform:
    def __init__(self, url: str, bot_address: str, gateway_url: str) -> None:
        self.redis_url = url
        self.bot_address = bot_address
        self.http = httpx.Client(base_url=gateway_url, timeout=20)
        self.ws_url = gateway_url.replace("http", "ws", 1) + "/ws/bots"

    def token(self, name: str) -> str:
        return str(register_bot(self.http, name)["token"])

    def stored_events(self, match_id: str) -> list[StoredEvent]:
        """Every event of the match as stored (each with its audience), in order."""

        async def read() -> list[StoredEvent]:
            client = aioredis.Redis.from_url(self.redis_url)
            try:
                writes = await MatchStore(client).read_writes(match_id, count=100_000)
            finally:
                await client.aclose()
            return [e for w in writes for e in w.events]

        return asyncio.run(read())


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    with platform_on(redis_url, 13, tmp_path_factory.mktemp("stream-logs"), {}) as procs:
        yield Platform(procs.redis_url, procs.engine.extra["bot_address"], procs.gateway.extra["url"])


@dataclass
class Played:
    """What a bot was sent in one match."""

    match_id: str = ""
    seat: int = -1
    start: list[game_pb2.Event] = field(default_factory=list)
    live: list[game_pb2.Event] = field(default_factory=list)
    #: how many live events had arrived when each decision came, and that decision's events
    decisions: list[tuple[int, list[game_pb2.Event]]] = field(default_factory=list)
    end: Any = None  # bs.MatchEnd
    server_ms: list[int] = field(default_factory=list)


def choose(legal: list[str], default: str) -> str:
    """Accept intel whenever possible (the seat dies sooner), else the default action."""
    for a in legal:
        if a in ("accept", "receive"):
            return a
    return default or legal[0]


def died_early(p: Played) -> bool:
    """The bot's seat died, and public events went on after its last decision."""
    return p.seat in p.end.outcome.killers and p.seat not in p.end.outcome.winners and len(p.end.events) > 1


def check(platform: Platform, p: Played) -> None:
    """The bot got exactly what its seat may see, each event once, the trailing ones in
    match_end, and the outcome in full."""
    stored = platform.stored_events(p.match_id)
    mine = [game_pb2.Event.FromString(e.data) for e in stored if not e.audience or p.seat in e.audience]
    got = p.start + p.live
    # every event the seat may see, once, in order: the public ones included
    assert [e.SerializeToString() for e in got] == [e.SerializeToString() for e in mine]
    # public: everyone's, and the public versions of hidden events (-1 in the audience)
    public = [e for e in stored if not e.audience or -1 in e.audience]
    assert len(public) > 0
    assert {e.index for e in public if not e.audience or p.seat in e.audience} <= {e.index for e in got}
    # never another seat's private event; another seat's draw shows no card to it
    hidden = {e.data for e in stored if e.audience and p.seat not in e.audience}
    assert not hidden & {e.SerializeToString() for e in got}
    others_draws = [e for e in got if e.kind == "draw" and e.seat != p.seat]
    assert others_draws, "no other seat ever drew a card"
    assert all(not e.cards and all(a.WhichOneof("value") != "cards" for a in e.args) for e in others_draws)
    # each decision repeated the events since the previous one; match_end the trailing ones
    previous = 0
    for count, events in p.decisions:
        assert [e.index for e in events] == [e.index for e in p.live[previous:count]]
        previous = count
    assert [e.index for e in p.end.events] == [e.index for e in p.live[previous:]]
    # after the seat's death: every public event reached it, live (it had no decision left)
    if p.seat in p.end.outcome.killers:
        deaths = [e for e in got if e.kind == "death" and e.seat == p.seat]
        assert len(deaths) == 1, [e.text for e in got if e.kind == "death"]
        after = {e.index for e in public if e.index > deaths[0].index and (not e.audience or p.seat in e.audience)}
        assert after and after <= {e.index for e in p.live}
        assert after <= {e.index for e in p.end.events} | {e.index for _, es in p.decisions for e in es}
    o = p.end.outcome
    assert o.over and len(o.identities) == PLAYERS and game_pb2.IDENTITY_UNSPECIFIED not in o.identities
    assert o.end_reason != game_pb2.END_REASON_UNSPECIFIED and len(o.tasks) == PLAYERS
    assert all(ms > 0 for ms in p.server_ms)


def test_grpc_a_dead_seat_keeps_receiving_every_event_and_the_full_outcome(platform: Platform) -> None:
    client = BotClient(token=platform.token("stream-grpc"), address=platform.bot_address)
    played: list[Played] = []
    p = Played()
    try:
        for msg in client.messages():
            kind = msg.WhichOneof("kind")
            p.server_ms.append(msg.server_ms)
            if kind == "welcome":
                client.open_table(["me"] + ["heuristic"] * (PLAYERS - 1))
            elif kind == "match_start":
                p.match_id, p.seat = msg.match_start.match_id, msg.match_start.seats[0]
                p.start = list(msg.match_start.events)
            elif kind == "event":
                assert (msg.event.match_id, msg.event.seat) == (p.match_id, p.seat)
                p.live.append(msg.event.event)
            elif kind == "decision":
                d = msg.decision
                p.decisions.append((len(p.live), list(d.observation.events)))
                client.act(d.match_id, d.seat, d.decision, choose(list(d.legal_actions), d.default_action))
            elif kind == "match_end":
                p.end = msg.match_end
                played.append(p)
                if died_early(p) or len(played) >= MAX_TABLES:
                    break
                p = Played()
                client.open_table(["me"] + ["heuristic"] * (PLAYERS - 1))
            elif kind == "error":
                raise AssertionError(msg.error)
    finally:
        client.close()
    for each in played:
        check(platform, each)
    assert died_early(played[-1]), f"the bot's seat never died before the end in {len(played)} tables"


def test_websocket_a_dead_seat_keeps_receiving_every_event_and_the_full_outcome(platform: Platform) -> None:
    from websockets.sync.client import connect

    from fengsheng.v1 import bot_service_pb2 as bs

    token = platform.token("stream-ws")
    played: list[Played] = []
    p = Played()
    table = json.dumps({"table": {"seats": ["me"] + ["heuristic"] * (PLAYERS - 1)}})
    deadline = time.monotonic() + 360
    with connect(f"{platform.ws_url}?token={token}", max_size=None) as ws:
        while time.monotonic() < deadline:
            raw = json.loads(ws.recv(timeout=60))
            assert isinstance(raw.get("server_ms"), int) and raw["server_ms"] > 0, raw
            p.server_ms.append(raw["server_ms"])
            if "error" in raw:
                raise AssertionError(raw)
            msg = json_format.ParseDict(raw, bs.ServerMessage())
            kind = msg.WhichOneof("kind")
            if kind == "welcome":
                ws.send(json.dumps({"nonsense": {}}))  # the gateway's own error carries server_ms too
                refused = json.loads(ws.recv(timeout=10))
                assert refused["error"]["status"] == 422 and refused["server_ms"] > 0, refused
                ws.send(table)
            elif kind == "match_start":
                p.match_id, p.seat = msg.match_start.match_id, msg.match_start.seats[0]
                p.start = list(msg.match_start.events)
            elif kind == "event":
                p.live.append(msg.event.event)
            elif kind == "decision":
                d = msg.decision
                p.decisions.append((len(p.live), list(d.observation.events)))
                action = choose(list(d.legal_actions), d.default_action)
                ws.send(json.dumps({"action": {"match_id": d.match_id, "seat": d.seat, "decision": d.decision,
                                               "action": action}}))  # fmt: skip
            elif kind == "match_end":
                # the end reason and identities are enum names in JSON, never numbers
                outcome = raw["match_end"]["outcome"]
                assert outcome["end_reason"].startswith("END_") and all(isinstance(i, str)
                                                                       for i in outcome["identities"])
                p.end = msg.match_end
                played.append(p)
                if died_early(p) or len(played) >= MAX_TABLES:
                    break
                p = Played()
                ws.send(table)
    for each in played:
        check(platform, each)
    assert played and died_early(played[-1]), f"the bot's seat never died before the end in {len(played)} tables"
