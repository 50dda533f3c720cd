"""Casual and challenge tables (issue 17 §9, "only ranked, only slow"): a bot or a person
opens a table now, outside the ranked queue, with chosen seats (itself, house bots,
challenged bots) and ruleset; a bots-only table fills at once from house bots; nothing is
ever rated; the SDK plays them (``run_bot(casual=True)``). A challenged bot or player is
asked first: it accepts or declines, and an unanswered challenge expires. A real Redis, an engine server,
a Celery worker (house bots, turn timers, the finished sweep) and the gateway."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import redis
from helpers.gateway_procs import platform_on, register_bot
from helpers.processes import ServiceProcess

from fengsheng.bot import BotClient, BotError, run_bot
from fengsheng.bot.examples import random_decide
from fengsheng.v1 import bot_service_pb2 as bs
from services.ranked.ladder import BOT, RedisLadder
from services.ranked.store import ACTIVE_KEY

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]

ENV = {
    "FENGSHENG_MM_TICK_MS": "300",
    "FENGSHENG_RANKED_TURN_TIMEOUT_MS": "3000",
    "FENGSHENG_AWAY_AFTER": "1",
    "FENGSHENG_CHALLENGE_TIMEOUT_MS": "4000",
}


class Platform:
    def __init__(self, url: str, engine: ServiceProcess, gateway: ServiceProcess) -> None:
        self.rdb = redis.Redis.from_url(url)
        self.bot_address = engine.extra["bot_address"]
        self.http = httpx.Client(base_url=gateway.extra["url"], timeout=20)

    def bot(self, name: str) -> tuple[str, str]:
        made = register_bot(self.http, name)  # owned by a guest of its own
        return made["bot_id"], made["token"]


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    with platform_on(redis_url, 14, tmp_path_factory.mktemp("casual-logs"), ENV) as procs:  # a database of its own
        yield Platform(procs.redis_url, procs.engine, procs.gateway)


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

    def pump() -> None:  # the bot accepts the challenge it is sent
        try:
            for msg in client.messages():
                got.put(msg)
                if msg.WhichOneof("kind") == "ticket" and msg.ticket.state == "invited":
                    client.answer_challenge(msg.ticket.ticket_id, accept=True)
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
    # the bot is asked first: the challenger waits, seatless, until it accepts
    assert ticket["state"] == "pending" and ticket["match_id"] == "" and "seat_token" not in ticket, ticket
    assert ticket["expires_ms"] > time.time() * 1000
    deadline = time.monotonic() + 30
    kinds = []
    while "match_start" not in kinds:
        msg = got.get(timeout=max(0.1, deadline - time.monotonic()))
        assert not isinstance(msg, BotError), msg
        kinds.append(msg.WhichOneof("kind"))
        if kinds[-1] == "ticket" and msg.ticket.state == "invited":
            assert msg.ticket.challenger == "challenger" and msg.ticket.seat == 1
        if kinds[-1] == "match_start":
            match_id = msg.match_start.match_id
            assert list(msg.match_start.seats) == [1]
    assert "ticket" in kinds[: kinds.index("match_start")]
    mine = p.http.get(f"/api/ranked/queue/{ticket['ticket_id']}", headers=me).json()
    assert mine["state"] == "matched" and mine["match_id"] == match_id and mine["seat_token"], mine
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

    def pump() -> None:  # the rival accepts, then answers every decision with its first legal action
        try:
            for msg in rival.messages():
                got.put(msg)
                if msg.WhichOneof("kind") == "ticket" and msg.ticket.state == "invited":
                    rival.answer_challenge(msg.ticket.ticket_id)
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


def wait_ticket(p: Platform, ticket_id: str, headers: dict[str, str], states: tuple[str, ...],
                timeout: float = 20.0) -> dict[str, object]:  # fmt: skip
    deadline = time.monotonic() + timeout
    while True:
        ticket = p.http.get(f"/api/ranked/queue/{ticket_id}", headers=headers).json()
        if ticket["state"] in states or time.monotonic() > deadline:
            return dict(ticket)
        time.sleep(0.2)


def test_a_player_challenges_a_player_who_accepts(platform: Platform) -> None:
    """People challenge people: the challenged player is sent an ``invited`` ticket on
    ``/ws/ranked`` and accepts over HTTP; both then hold a seat token of the new table."""
    import json as jsonlib

    from websockets.sync.client import connect

    p = platform
    a = p.http.post("/api/guests", json={"name": "alice"}).json()
    b = p.http.post("/api/guests", json={"name": "bob"}).json()
    ha, hb = ({"authorization": f"Bearer {x['token']}"} for x in (a, b))
    ws_url = str(p.http.base_url).rstrip("/").replace("http", "ws", 1) + "/ws/ranked"
    with connect(f"{ws_url}?token={b['token']}") as ws:
        time.sleep(0.5)  # subscribed
        opened = p.http.post("/api/casual", json={"seats": ["me", b["player_id"], "random"]}, headers=ha)
        assert opened.status_code == 201 and opened.json()["state"] == "pending", opened.text
        pushed = jsonlib.loads(ws.recv(timeout=10))
    invited = pushed["ticket"]
    assert pushed["type"] == "ticket" and invited["state"] == "invited" and invited["challenger"] == "alice", pushed
    assert invited["seat"] == 1 and "seat_token" not in invited
    # only bob answers bob's invitation
    assert (
        p.http.post(f"/api/casual/{invited['ticket_id']}/answer", json={"accept": True}, headers=ha).status_code == 403
    )
    took = p.http.post(f"/api/casual/{invited['ticket_id']}/answer", json={"accept": True}, headers=hb)
    assert took.status_code == 200, took.text
    mine = took.json()
    assert mine["state"] == "matched" and mine["seat"] == 1 and mine["seat_token"], mine
    theirs = wait_ticket(p, opened.json()["ticket_id"], ha, ("matched",))
    assert theirs["state"] == "matched" and theirs["match_id"] == mine["match_id"] and theirs["seat_token"], theirs
    record = p.http.get(f"/api/ranked/matches/{mine['match_id']}").json()
    assert [(s["player_id"], s["name"], s["bot"]) for s in record["seats"][:2]] == [
        (a["player_id"], "alice", False), (b["player_id"], "bob", False)], record  # fmt: skip
    # answering again changes nothing
    again = p.http.post(f"/api/casual/{invited['ticket_id']}/answer", json={"accept": False}, headers=hb)
    assert again.status_code == 200 and again.json()["state"] == "matched"


def test_an_invitation_sent_before_the_player_listens_is_sent_on_connect(platform: Platform) -> None:
    """A person challenged while no ``/ws/ranked`` of theirs was open (lobby closed, socket
    reconnecting) gets the open invitation when a stream connects, until its deadline; one
    already answered is not sent again."""
    import json as jsonlib

    from websockets.sync.client import connect

    p = platform
    a = p.http.post("/api/guests", json={"name": "early"}).json()
    b = p.http.post("/api/guests", json={"name": "late"}).json()
    ha, hb = ({"authorization": f"Bearer {x['token']}"} for x in (a, b))
    opened = p.http.post("/api/casual", json={"seats": ["me", b["player_id"], "random"]}, headers=ha)
    assert opened.status_code == 201 and opened.json()["state"] == "pending", opened.text
    ws_url = str(p.http.base_url).rstrip("/").replace("http", "ws", 1) + "/ws/ranked"
    with connect(f"{ws_url}?token={b['token']}") as ws:
        pushed = jsonlib.loads(ws.recv(timeout=10))
    invited = pushed["ticket"]
    assert pushed["type"] == "ticket" and invited["state"] == "invited" and invited["challenger"] == "early", pushed
    no = p.http.post(f"/api/casual/{invited['ticket_id']}/answer", json={"accept": False}, headers=hb)
    assert no.status_code == 200 and no.json()["state"] == "declined", no.text
    with connect(f"{ws_url}?token={b['token']}") as ws, contextlib.suppress(TimeoutError):
        again = jsonlib.loads(ws.recv(timeout=2))
        assert again["ticket"]["ticket_id"] != invited["ticket_id"], again

def test_a_declined_or_unanswered_challenge_never_starts(platform: Platform) -> None:
    p = platform
    bot_id, token = p.bot("declines")
    guest = p.http.post("/api/guests", json={"name": "turned-down"}).json()
    me = {"authorization": f"Bearer {guest['token']}"}
    # a bot declines (here over HTTP with its token, as a WebSocket or SDK bot would on its stream)
    opened = p.http.post("/api/casual", json={"seats": ["me", bot_id, "heuristic"]}, headers=me).json()
    assert opened["state"] == "pending", opened
    bot_h = {"authorization": f"Bearer {token}"}
    invitation = p.rdb.keys("mm:{mm}:t:*")
    invited = [t for t in (p.http.get(f"/api/ranked/queue/{k.decode().rsplit(':', 1)[1]}", headers=bot_h)
                           for k in invitation) if t.status_code == 200]  # fmt: skip
    assert len(invited) == 1 and invited[0].json()["state"] == "invited", [t.text for t in invited]
    # a bot at its concurrent-match limit may not accept (it may decline): 429 too_many_matches
    busy = [f"cs-busy{i}" for i in range(4)]  # FENGSHENG_BOT_MAX_MATCHES: 4 by default
    p.rdb.sadd(f"mm:{{mm}}:botm:{bot_id}", *busy)
    full = p.http.post(f"/api/casual/{invited[0].json()['ticket_id']}/answer", json={"accept": True}, headers=bot_h)
    assert full.status_code == 429 and full.json()["error"]["kind"] == "too_many_matches", full.text
    p.rdb.srem(f"mm:{{mm}}:botm:{bot_id}", *busy)
    no = p.http.post(f"/api/casual/{invited[0].json()['ticket_id']}/answer", json={"accept": False}, headers=bot_h)
    assert no.status_code == 200 and no.json()["state"] == "declined", no.text
    assert wait_ticket(p, opened["ticket_id"], me, ("declined",))["state"] == "declined"
    # nobody answers: the challenge expires (FENGSHENG_CHALLENGE_TIMEOUT_MS=4000) for everyone
    started = time.monotonic()
    silent = p.http.post("/api/casual", json={"seats": [bot_id, "me", "random"]}, headers=me).json()
    assert silent["state"] == "pending" and silent["seat"] == 1, silent
    expired = wait_ticket(p, silent["ticket_id"], me, ("expired",), timeout=15)
    assert expired["state"] == "expired" and expired["match_id"] == "" and 3.5 < time.monotonic() - started < 15
    assert p.rdb.scard(f"mm:{{mm}}:botm:{bot_id}") == 0  # nothing was created for the bot


def test_the_bots_only_queue_seats_waiting_bots_together_and_fills_when_asked(platform: Platform) -> None:
    """Bots wait in the bots-only casual queue for each other; a bot that asks for it
    (``fill_after_ms=0``) is seated at once with those waiting and house bots in the rest."""
    p = platform
    a_id, a_token = p.bot("queue-a")
    b_id, b_token = p.bot("queue-b")
    played: dict[str, list[object]] = {}

    def play(name: str, token: str, wait: int) -> None:
        played[name] = list(run_bot(random_decide, token=token, address=p.bot_address, matches=1, casual=True,
                                    min_players=3, fill_after_ms=wait))  # fmt: skip

    first = threading.Thread(target=play, args=("a", a_token, 120_000), daemon=True)
    first.start()
    deadline = time.monotonic() + 20
    while not p.rdb.zcard("mm:{mm}:bq:return:3"):  # a waits (for up to two minutes)
        assert time.monotonic() < deadline, "bot a never queued"
        time.sleep(0.1)
    play("b", b_token, 0)  # b asks for a table now: a, b and one house bot
    first.join(timeout=120)
    (a_game,), (b_game,) = played["a"], played["b"]
    assert a_game.match_id == b_game.match_id and a_game.match_id.startswith("cs-")  # type: ignore[attr-defined]
    record = p.http.get(f"/api/ranked/matches/{a_game.match_id}").json()  # type: ignore[attr-defined]
    ids = sorted(s["player_id"] for s in record["seats"])
    assert ids[:2] == sorted([a_id, b_id]) and ids[2].startswith("house-heuristic-"), record
    assert RedisLadder(p.rdb).rating(BOT, a_id).games == 0  # never rated


def test_a_lone_bot_in_the_bots_only_queue_is_filled_after_its_wait(platform: Platform) -> None:
    p = platform
    _, token = p.bot("queue-lone")
    client = BotClient(token=token, address=p.bot_address)
    got: queue.Queue[tuple[float, bs.ServerMessage]] = queue.Queue()

    def pump() -> None:
        with contextlib.suppress(BotError):
            for msg in client.messages():
                got.put((time.monotonic(), msg))

    threading.Thread(target=pump, daemon=True).start()
    assert got.get(timeout=20)[1].WhichOneof("kind") == "welcome"
    asked = time.monotonic()
    client.open_table(players=4, queue=True, fill_after_ms=2000)
    states: list[tuple[float, str]] = []
    while not states or states[-1][1] != "matched":
        at, msg = got.get(timeout=30)
        if msg.WhichOneof("kind") == "ticket":
            states.append((at - asked, msg.ticket.state))
        assert msg.WhichOneof("kind") != "error", msg
    assert states[0][1] == "queued" and states[-1][0] >= 1.9, states
    # seats named, or a person: refused (the queue is for bots, by table size)
    client.send(bs.BotMessage(table=bs.TableRequest(seats=["me", "random"], queue=True)))
    while True:
        _, msg = got.get(timeout=20)
        if msg.WhichOneof("kind") == "error":
            assert msg.error.code == "INVALID_ARGUMENT", msg
            break
    client.close()
    # over HTTP: queued, and out of the queue again on request
    me = {"authorization": f"Bearer {token}"}
    waiting = p.http.post("/api/casual", json={"players": 3, "queue": True, "fill_after_ms": 600_000}, headers=me)
    assert waiting.status_code == 201 and waiting.json()["state"] == "queued", waiting.text
    gone = p.http.delete(f"/api/ranked/queue/{waiting.json()['ticket_id']}", headers=me)
    assert gone.status_code == 200 and gone.json()["state"] == "left", gone.text
    person = {"authorization": f"Bearer {p.http.post('/api/guests', json={'name': 'q'}).json()['token']}"}
    assert p.http.post("/api/casual", json={"players": 3, "queue": True}, headers=person).status_code == 422
