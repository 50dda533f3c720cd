"""The low findings of issue 26, each through the real platform (a Redis database of its own,
an engine server, the gateway as a process): challenge spam, names and chat text, the
spectators' channel of casual and ranked tables, and binary WebSocket frames.

- Challenges count: a bot's pending challenges count toward its concurrent-match limit, a
  player holds at most ``FENGSHENG_MAX_INVITATIONS`` open invitations, and a challenge's
  records live minutes, not days (docs/bots.md, "Casual tables and challenges").
- Names refuse bidi controls, zero-width and control characters, and chat refuses stacked
  combining marks: one cleaner, fengsheng/display_text.py (docs/security.md, "Names and chat").
- A seated player of a casual or ranked table is refused on its spectators' channel.
- A binary frame closes a socket with 1003 and no traceback (docs/protocol.md).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from helpers.bot_stream import pump_messages
from helpers.gateway_procs import start_gateway
from helpers.processes import ServiceProcess, start_engine_server

from fengsheng.bot import BotClient, BotError
from fengsheng.v1 import bot_service_pb2 as bs

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

#: seconds a challenge waits for its answers here
TIMEOUT_S = 6
ENV = {"FENGSHENG_CHALLENGE_TIMEOUT_MS": str(round(TIMEOUT_S * 1000)), "FENGSHENG_MAX_INVITATIONS": "5"}


class Platform:
    def __init__(self, url: str, engine: ServiceProcess, gateway: ServiceProcess) -> None:
        self.rdb = redis.Redis.from_url(url)
        self.bot_address = engine.extra["bot_address"]
        self.engine_address = engine.address
        self.gateway = gateway
        self.http = httpx.Client(base_url=gateway.extra["url"], timeout=20)
        self.ws = gateway.extra["url"].replace("http", "ws", 1)

    def guest(self, name: str) -> dict[str, Any]:
        reply = self.http.post("/api/guests", json={"name": name})
        assert reply.status_code == 201, reply.text
        return dict(reply.json())

    def bot(self, name: str, owner: dict[str, Any]) -> tuple[str, str]:
        reply = self.http.post("/api/bots", json={"name": name}, headers=bearer(owner["token"]))
        assert reply.status_code == 201, reply.text
        return reply.json()["bot_id"], reply.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    url = re.sub(r"/\d*$", "", redis_url) + "/13"  # a database of its own
    redis.Redis.from_url(url).flushdb()
    logs = tmp_path_factory.mktemp("abuse-logs")
    engine = start_engine_server(url, logs, celery=False, env=ENV)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FENGSHENG_CREATE_BURST", "1000")  # this file makes many guests and bots from one address
        gateway = start_gateway(engine.address, logs, redis_url=url, bot_address=engine.extra["bot_address"])
    try:
        yield Platform(url, engine, gateway)
    finally:
        gateway.stop()
        engine.stop()


# ---- challenges ----------------------------------------------------------------------------


def test_a_flood_of_challenges_from_one_bot_is_capped(platform: Platform) -> None:
    """The finding: one bot sent 36 challenges at once to a player, all pending, 36
    invitations delivered. Now its pending challenges count toward its 4 concurrent matches
    (``FENGSHENG_BOT_MAX_MATCHES``), so 4 are pending and 32 refused (429 ``too_many_matches``),
    and the player is sent no more than that."""
    from websockets.sync.client import connect

    p = platform
    owner = p.guest("flood-owner")
    target = p.guest("flood-target")
    _, token = p.bot("flooder", owner)
    client = BotClient(token=token, address=p.bot_address)
    got = pump_messages(client)
    first = got.get(timeout=20)
    assert not isinstance(first, BotError) and first.WhichOneof("kind") == "welcome", first
    pushed: list[dict[str, Any]] = []
    with connect(f"{p.ws}/ws/ranked?token={target['token']}") as ws:
        time.sleep(0.5)  # subscribed
        for _ in range(36):
            client.send(bs.BotMessage(table=bs.TableRequest(seats=["me", target["player_id"], "random"])))
        answers: list[bs.ServerMessage] = []
        while len(answers) < 36:
            msg = got.get(timeout=20)
            assert not isinstance(msg, BotError), msg
            if msg.WhichOneof("kind") in ("ticket", "error"):
                answers.append(msg)
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            try:
                pushed.append(json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic()))))
            except TimeoutError:
                break
    client.close()
    pending = [m for m in answers if m.WhichOneof("kind") == "ticket" and m.ticket.state == "pending"]
    refused = [m for m in answers if m.WhichOneof("kind") == "error"]
    assert len(pending) == 4 and len(refused) == 32, [str(m)[:200] for m in answers[:6]]
    assert {m.error.kind for m in refused} == {"too_many_matches"}, {m.error.kind for m in refused}
    invitations = [m for m in pushed if m["type"] == "ticket" and m["ticket"]["state"] == "invited"]
    assert len(invitations) == 4, pushed
    # the bot is at its limit: the ranked queue refuses it too, while its challenges are pending
    queued = p.http.post("/api/ranked/queue", json={"min_players": 3}, headers=bearer(token))
    assert queued.status_code == 429 and queued.json()["error"]["kind"] == "too_many_matches", queued.text


def test_a_player_holds_at_most_five_open_invitations(platform: Platform) -> None:
    """Six bots of six owners challenge one player: five invitations are open, the sixth
    challenge is refused (429 ``too_many_invitations``, naming the limit); once the player
    declines one, a new challenge gets through."""
    p = platform
    target = p.guest("popular")
    me = bearer(target["token"])
    bots = [p.bot(f"suitor-{i}", p.guest(f"suitor-owner-{i}")) for i in range(6)]
    tickets = []
    for _, token in bots[:5]:
        opened = p.http.post("/api/casual", json={"seats": ["me", target["player_id"], "random"]},
                             headers=bearer(token))  # fmt: skip
        assert opened.status_code == 201 and opened.json()["state"] == "pending", opened.text
        tickets.append(opened.json())
    challenge = {"seats": ["me", target["player_id"], "random"]}
    sixth = p.http.post("/api/casual", json=challenge, headers=bearer(bots[5][1]))
    assert sixth.status_code == 429, sixth.text
    error = sixth.json()["error"]
    assert error["kind"] == "too_many_invitations" and "5" in error["message"], error
    # the player declines one invitation: room for another
    invited = [k.decode() for k in p.rdb.zrange(f"mm:{{mm}}:inv:h:{target['player_id']}", 0, -1)]
    assert len(invited) == 5, invited
    no = p.http.post(f"/api/casual/{invited[0]}/answer", json={"accept": False}, headers=me)
    assert no.status_code == 200 and no.json()["state"] == "declined", no.text
    again = p.http.post("/api/casual", json=challenge, headers=bearer(bots[5][1]))
    assert again.status_code == 201 and again.json()["state"] == "pending", again.text


def test_a_challenge_lives_minutes_and_its_expiry_cleans_up(platform: Platform) -> None:
    """A challenge's records expire minutes after its deadline (not after two days), and
    once it expires the challenger's and the player's open sets no longer hold it."""
    p = platform
    a, b = p.guest("ch-a"), p.guest("ch-b")
    opened = p.http.post("/api/casual", json={"seats": ["me", b["player_id"], "random"]}, headers=bearer(a["token"]))
    assert opened.status_code == 201, opened.text
    ticket = opened.json()
    keys = [k.decode() for k in p.rdb.keys("mm:{mm}:ch:*")]
    mine = [k for k in keys if p.rdb.hget(k, "caller") == f"h:{a['player_id']}".encode()]
    assert len(mine) == 1, keys
    for key in (mine[0], f"mm:{{mm}}:t:{ticket['ticket_id']}"):
        assert 0 < p.rdb.pttl(key) <= (TIMEOUT_S + 600) * 1000, (key, p.rdb.pttl(key))
    assert p.rdb.zcard(f"mm:{{mm}}:inv:h:{b['player_id']}") == 1
    deadline = time.monotonic() + TIMEOUT_S + 10
    path = f"/api/ranked/queue/{ticket['ticket_id']}"
    while p.http.get(path, headers=bearer(a["token"])).json()["state"] != "expired":
        assert time.monotonic() < deadline, "the challenge never expired"
        time.sleep(0.3)
    assert p.rdb.zcard(f"mm:{{mm}}:inv:h:{b['player_id']}") == 0
    assert p.rdb.zcard(f"mm:{{mm}}:chq:h:{a['player_id']}") == 0


# ---- names and chat ------------------------------------------------------------------------

#: what a name may not hold: bidi controls, zero-width characters, control characters
INVISIBLE = [*"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
             *"\u200b\u200c\u200d\u2060\ufeff", "\x00", "\x07", "\x1b", "\u3164"]  # fmt: skip


def test_guest_and_bot_names_refuse_invisible_characters(platform: Platform) -> None:
    p = platform
    owner = p.guest("name-owner")
    for i, char in enumerate(INVISIBLE):
        name = f"ev{char}il{i}"
        as_guest = p.http.post("/api/guests", json={"name": name})
        assert as_guest.status_code == 422, (hex(ord(char)), as_guest.text)
        assert as_guest.json()["error"]["code"] == "invisible_character", as_guest.text
        assert f"U+{ord(char):04X}" in as_guest.json()["error"]["message"], as_guest.text
        as_bot = p.http.post("/api/bots", json={"name": name}, headers=bearer(owner["token"]))
        assert as_bot.status_code == 422 and as_bot.json()["error"]["code"] == "invisible_character", as_bot.text
    stacked = p.http.post("/api/guests", json={"name": "q" + "\u0301\u0302\u0303\u0304\u0305"})
    assert stacked.status_code == 422 and stacked.json()["error"]["code"] == "too_many_marks", stacked.text
    # names of every script, accents, emoji: kept (whitespace collapsed, NFC)
    for raw, kept in (("张三", "张三"), ("Zoë", "Zoë"), ("سارة", "سارة"), ("  ann \t lee ", "ann lee"),
                      ("e\u0301", "\u00e9"), ("Tie\u0302\u0301ng", "Ti\u1ebfng"), ("🙂", "🙂")):  # fmt: skip
        made = p.http.post("/api/guests", json={"name": raw})
        assert made.status_code == 201 and made.json()["name"] == kept, (raw, made.text)


def test_chat_refuses_stacked_combining_marks(platform: Platform) -> None:
    p = platform
    player = p.guest("talker")
    made = p.http.post("/api/matches", json={"players": 3, "bot": "random"}, headers=bearer(player["token"]))
    assert made.status_code == 201, made.text
    url = f"/api/matches/{made.json()['match_id']}/chat"
    seat = bearer(made.json()["seat_token"])
    zalgo = p.http.post(url, json={"text": "a" + "\u0301" * 199}, headers=seat)
    assert zalgo.status_code == 422 and zalgo.json()["error"]["code"] == "too_many_marks", zalgo.text
    fine = p.http.post(url, json={"text": "Tiếng Việt, हिन्दी, a\u0301\u0302"}, headers=seat)
    assert fine.status_code == 201, fine.text


# ---- the spectators' channel -----------------------------------------------------------------


def test_seated_players_of_casual_and_ranked_tables_are_refused_on_the_spectators_channel(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A casual (or ranked) table never enters the gateway's seat table: the check asks the
    ranked service who sits there."""
    p = platform
    seated = p.guest("seated")
    table = p.http.post("/api/casual", json={"seats": ["me", "random", "random"]}, headers=bearer(seated["token"]))
    assert table.status_code == 201 and table.json()["state"] == "matched", table.text
    match_id = table.json()["match_id"]
    url = f"/api/matches/{match_id}/chat"
    psst = p.http.post(url, json={"channel": "spectators", "text": "psst"}, headers=bearer(seated["token"]))
    assert psst.status_code == 403 and psst.json()["error"]["code"] == "forbidden", psst.text
    # at the table with the seat token: fine; a guest without a seat: fine on the rail
    at_table = p.http.post(url, json={"text": "hi"}, headers=bearer(table.json()["seat_token"]))
    assert at_table.status_code == 201, at_table.text
    rail = p.http.post(url, json={"channel": "spectators", "text": "go"}, headers=bearer(p.guest("rail")["token"]))
    assert rail.status_code == 201, rail.text
    # a ranked match: a lone guest queued, house bots fill the table (one matchmaking pass)
    from services.ranked.matchmaking import Schedule, tick
    from services.ranked.store import RankedStore
    from services.ranked.tasks import create_match

    ranked = p.guest("ranked-seated")
    queued = p.http.post("/api/ranked/queue", json={"min_players": 3}, headers=bearer(ranked["token"]))
    assert queued.status_code == 201, queued.text
    monkeypatch.setenv("FENGSHENG_ENGINE_ADDR", p.engine_address)
    tick(RankedStore(p.rdb), create_match, Schedule(window_base=50, fill_after_ms=0, turn_timeout_ms=0))
    ticket = p.http.get(f"/api/ranked/queue/{queued.json()['ticket_id']}", headers=bearer(ranked["token"])).json()
    assert ticket["state"] == "matched" and ticket["match_id"].startswith("rk-"), ticket
    url = f"/api/matches/{ticket['match_id']}/chat"
    psst = p.http.post(url, json={"channel": "spectators", "text": "psst"}, headers=bearer(ranked["token"]))
    assert psst.status_code == 403, psst.text
    assert p.http.post(url, json={"text": "hi"}, headers=bearer(ticket["seat_token"])).status_code == 201


# ---- binary frames -----------------------------------------------------------------------------


def _closed_by_binary(url: str, *, reads: int = 0) -> int:
    """Open ``url``, read ``reads`` messages, send a binary frame: the close code the server sent."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(url) as ws:
        for _ in range(reads):
            ws.recv(timeout=10)
        ws.send(b"\x00\x01binary")
        deadline = time.monotonic() + 10
        try:
            while time.monotonic() < deadline:
                ws.recv(timeout=max(0.05, deadline - time.monotonic()))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, closed
            return closed.rcvd.code
    raise AssertionError(f"{url}: still open 10 s after a binary frame")


def test_a_binary_frame_closes_each_socket_with_1003_and_no_traceback(platform: Platform) -> None:
    p = platform
    player = p.guest("binary")
    made = p.http.post("/api/matches", json={"players": 3, "bot": "random"}, headers=bearer(player["token"]))
    assert made.status_code == 201, made.text
    match_id, seat_token = made.json()["match_id"], made.json()["seat_token"]
    _, bot_token = p.bot("binary-bot", player)
    sockets = {
        "seat": (f"{p.ws}/ws/matches/{match_id}?token={seat_token}", 2),
        "spectator": (f"{p.ws}/ws/matches/{match_id}/spectate", 2),
        "ranked": (f"{p.ws}/ws/ranked?token={player['token']}", 0),
        "bots": (f"{p.ws}/ws/bots?token={bot_token}", 1),
    }
    codes = {name: _closed_by_binary(url, reads=reads) for name, (url, reads) in sockets.items()}
    assert codes == dict.fromkeys(sockets, 1003), codes
    time.sleep(0.5)  # the log is written
    log = p.gateway.log()
    assert "Traceback" not in log and "KeyError" not in log, log[-3000:]
