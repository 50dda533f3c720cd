"""Ranked play end to end: a real Redis, an engine server (with BotService and
RankedService), a Celery worker (whose embedded Celery beat runs the matchmaking tick), and
the gateway.

Acceptance (issue 5):
1. 12 queued players (people through the gateway, SDK bots over gRPC) become matches within
   the widening schedule; each ticket ends in exactly one match; leaving the queue works.
2. An external bot process using only the SDK and its token plays a ranked match to the
   end; the ladder changes once per participant; running the ladder task again changes
   nothing.
3. A bot token cannot act for another seat or match; past the limits: RESOURCE_EXHAUSTED
   (gRPC) / 429 (HTTP); missed deadlines get default actions.
Plus: the tutorial docs/bots.md runs exactly as written.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
import redis
from helpers.gateway_procs import register_bot, start_gateway, wait_until
from helpers.processes import ROOT, ServiceProcess, start_engine_server, start_worker, wait_for_log

from fengsheng.bot import BotClient
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from services.bot_levels import LEVELS
from services.channels import engine_channel
from services.engine.store import history_key
from services.ranked.ladder import ALL_TIME, BOT, HUMAN, RatingKey, rating_key
from services.ranked.ladder import history_key as ladder_history_key
from services.ranked.store import RankedStore

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

SCHEDULE = {
    "FENGSHENG_MM_TICK_MS": "500",
    "FENGSHENG_MM_WINDOW_BASE": "2",
    "FENGSHENG_MM_WINDOW_GROWTH": "4",
    "FENGSHENG_MM_WINDOW_MAX": "12",
    "FENGSHENG_MM_FILL_AFTER_MS": "4000",
    "FENGSHENG_RANKED_TURN_TIMEOUT_MS": "3000",
    "FENGSHENG_AWAY_AFTER": "1000",  # the idle bot's seat keeps its timer (away seats: test_bot_api.py)
    # every client here is 127.0.0.1: the address rule off, the owner rule on (every bot its
    # own guest's); the address rule's own tests: tests/integration/test_rated_tables.py
    "FENGSHENG_MM_ADDRESS_WINDOW_MS": "0",
}
LIMITS = {"FENGSHENG_BOT_RATE": "50", "FENGSHENG_BOT_BURST": "50", "FENGSHENG_BOT_MAX_MATCHES": "1",
          "FENGSHENG_BOT_MAX_STREAMS": "2"}  # fmt: skip


class Platform:
    def __init__(self, redis_url: str, engine: ServiceProcess, gateway: ServiceProcess, worker: ServiceProcess):
        self.redis_url = redis_url
        self.engine = engine
        self.gateway = gateway
        self.worker = worker
        self.url = gateway.extra["url"]
        self.http = httpx.Client(base_url=self.url, timeout=20)
        self.rdb = redis.Redis.from_url(redis_url)
        self.channel = engine_channel(engine.address)
        self.ranked = bs_grpc.RankedServiceStub(self.channel)

    def guest(self, name: str) -> tuple[str, str]:
        data = self.http.post("/api/guests", json={"name": name}).json()
        return data["player_id"], data["token"]

    def bot(self, name: str) -> tuple[str, str]:
        made = register_bot(self.http, name)  # owned by a guest of its own
        return made["bot_id"], made["token"]

    def set_mu(self, ladder: str, player_id: str, mu: float) -> None:
        self.rdb.hset(rating_key(RatingKey(ladder, ALL_TIME, player_id)), mapping={"mu": mu, "sigma": 8.0})


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    # a database of its own: the queue and the Celery broker are not shared with other tests
    url = re.sub(r"/\d*$", "", redis_url) + "/7"
    redis.Redis.from_url(url).flushdb()
    logs = tmp_path_factory.mktemp("ranked-logs")
    env = {**SCHEDULE, **LIMITS}
    engine = start_engine_server(url, logs, env=env)
    worker = start_worker(url, engine.address, logs, concurrency=4, env=env)
    gateway = start_gateway(engine.address, logs, redis_url=url, bot_address=engine.extra["bot_address"])
    p = Platform(url, engine, gateway, worker)
    try:
        yield p
    finally:
        gateway.stop()
        worker.stop()
        engine.stop()
        p.channel.close()


def sdk_listener(
    token: str, address: str, min_players: int = 5, *, queue_up: bool = True
) -> tuple[BotClient, queue.Queue[bs.ServerMessage]]:
    """An SDK client that queues once (``queue_up``) and records what it is sent (it never acts)."""
    client = BotClient(token=token, address=address)
    got: queue.Queue[bs.ServerMessage] = queue.Queue()

    def pump() -> None:
        try:
            for msg in client.messages():
                got.put(msg)
                if msg.WhichOneof("kind") == "welcome" and queue_up:
                    client.join_queue(min_players)
        except Exception as exc:
            got.put(bs.ServerMessage(error=bs.BotError(code="CLIENT", message=str(exc))))

    threading.Thread(target=pump, daemon=True).start()
    return client, got


def wait_message(got: queue.Queue[bs.ServerMessage], what: str, timeout: float = 30, **match: Any) -> bs.ServerMessage:
    """The next message of kind ``what`` whose fields equal ``match`` (others are dropped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msg = got.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        if msg.WhichOneof("kind") == what:
            body = getattr(msg, what)
            if all(getattr(body, k) == v for k, v in match.items()):
                return msg
    raise TimeoutError(f"no {what} {match} within {timeout}s")


def test_twelve_players_become_matches_within_the_widening_schedule(platform: Platform) -> None:
    with contextlib.ExitStack() as sockets:
        _twelve_players(platform, sockets)


def _twelve_players(platform: Platform, sockets: contextlib.ExitStack) -> None:
    p = platform
    # ratings: L at 25, M at 33 (8 away from both clusters), H at 41, X at 70 (too far: only house bots)
    plan = [("L", 25, "human"), ("L", 25, "human"), ("L", 25, "bot"), ("L", 25, "bot"),
            ("M", 33, "human"), ("M", 33, "bot"),
            ("H", 41, "human"), ("H", 41, "human"), ("H", 41, "bot"), ("H", 41, "human"),
            ("X", 70, "human"), ("X", 70, "bot")]  # fmt: skip
    holders: list[dict[str, Any]] = []
    for i, (cluster, mu, kind) in enumerate(plan):
        if kind == "human":
            pid, token = p.guest(f"{cluster}-person-{i}")
            p.set_mu(HUMAN, pid, mu)
            holders.append({"cluster": cluster, "kind": kind, "id": pid, "token": token})
        else:
            bid, token = p.bot(f"{cluster}-bot-{i}")
            p.set_mu(BOT, bid, mu)
            holders.append({"cluster": cluster, "kind": kind, "id": bid, "token": token})
    # a 13th player who leaves before anything can match them
    _, leaver = p.guest("leaver")
    left = p.http.post("/api/ranked/queue", headers={"authorization": f"Bearer {leaver}"}, json={"min_players": 7})
    assert left.status_code == 201 and left.json()["state"] == "queued"
    gone = p.http.delete(f"/api/ranked/queue/{left.json()['ticket_id']}", headers={"authorization": f"Bearer {leaver}"})
    assert gone.status_code == 200 and gone.json()["state"] == "left"

    follow = None
    for h in holders:
        if h["kind"] == "human":
            reply = p.http.post("/api/ranked/queue", headers={"authorization": f"Bearer {h['token']}"})
            assert reply.status_code == 201, reply.text
            h["ticket"] = reply.json()["ticket_id"]
            if follow is None:  # one person also follows the queue over the WebSocket
                from websockets.sync.client import connect

                follow = sockets.enter_context(connect(p.url.replace("http", "ws") + f"/ws/ranked?token={h['token']}"))
                follow_holder = h
        else:
            h["client"], h["got"] = sdk_listener(h["token"], p.engine.extra["bot_address"])
            h["ticket"] = wait_message(h["got"], "ticket", state="queued").ticket.ticket_id

    tickets: dict[str, dict[str, Any]] = {}
    store = RankedStore(p.rdb)
    for h in holders:
        if h["kind"] == "human":
            hdr = {"authorization": f"Bearer {h['token']}"}
            wait_until(lambda h=h, hdr=hdr: p.http.get(f"/api/ranked/queue/{h['ticket']}", headers=hdr).json()["state"]
                       == "matched", 30, "a person's ticket to match")  # fmt: skip
            t = p.http.get(f"/api/ranked/queue/{h['ticket']}", headers=hdr).json()
            assert t["seat_token"] and t["match_id"]  # the person plays through the usual seat routes
            obs = p.http.get(
                f"/api/matches/{t['match_id']}/observation", headers={"authorization": f"Bearer {t['seat_token']}"}
            )
            assert obs.status_code == 200 and obs.json()["viewer"] == t["seat"]
        else:
            matched = wait_message(h["got"], "ticket", state="matched").ticket
            t = {"match_id": matched.match_id, "seat": matched.seat}
            start = wait_message(h["got"], "match_start", match_id=t["match_id"])
            assert list(start.match_start.seats) == [t["seat"]] and start.match_start.players == 5
            h["client"].close()
        stored = store.ticket(h["ticket"])
        assert stored is not None and stored["match_id"] == t["match_id"]
        tickets[h["ticket"]] = {**stored, "cluster": h["cluster"], "holder_id": h["id"]}

    # each ticket in exactly one match, each match's seat record naming exactly its tickets
    matches: dict[str, list[dict[str, Any]]] = {}
    for t in tickets.values():
        matches.setdefault(t["match_id"], []).append(t)
    assert len(matches) == 3
    clusters = sorted("".join(sorted(t["cluster"] for t in ts)) for ts in matches.values())
    assert clusters == ["HHHHM", "LLLLM", "XX"]
    for match_id, ts in matches.items():
        record = p.ranked.GetTicket(bs.TicketRequest(ticket_id=ts[0]["ticket_id"]))
        assert record.match_id == match_id
        seats = ts[0]["seats"]
        assert len(seats) == 5 and sorted(t["seat"] for t in ts) == sorted({t["seat"] for t in ts})
        for t in ts:
            assert seats[t["seat"]] == ("external" if t["bot"] else "human")
        # house bots only in the empty seats, at a level picked by the table's rating band
        assert sum(s in LEVELS for s in seats) == 5 - len(ts)
        # the widening schedule: M pairs with a cluster only once both windows reach 8
        # (2 + 4/s -> 1.5 s of waiting); X only gets house bots after 4 s
        latest = max(t["enqueued_ms"] for t in ts)
        oldest = min(t["enqueued_ms"] for t in ts)
        matched = max(t["matched_ms"] for t in ts)
        if len(ts) == 5:
            assert matched - latest >= 1400, (matched - latest, ts)
            assert matched - latest <= 1500 + 6000
        else:
            assert matched - oldest >= 4000
            assert matched - oldest <= 4000 + 6000
    assert p.rdb.zcard("mm:{mm}:q") == 0
    # the person following over the WebSocket heard about their match
    assert follow is not None
    deadline = time.monotonic() + 10
    heard = None
    while time.monotonic() < deadline and heard is None:
        event = json.loads(follow.recv(timeout=10))
        if event["type"] == "ticket" and event["ticket"]["state"] == "matched":
            heard = event["ticket"]
    assert (
        heard is not None and heard["match_id"] == tickets[follow_holder["ticket"]]["match_id"] and heard["seat_token"]
    )
    # leaving after the match formed does not take the ticket out of its match
    h = follow_holder
    again = p.http.delete(f"/api/ranked/queue/{h['ticket']}", headers={"authorization": f"Bearer {h['token']}"})
    assert again.status_code == 200 and again.json()["state"] == "matched"
    # the leaver's ticket was never matched
    assert p.ranked.GetTicket(bs.TicketRequest(ticket_id=left.json()["ticket_id"])).state == "left"


BOT_SCRIPT = """
import os, sys
from fengsheng.bot import run_bot
from fengsheng.bot.examples import heuristic_decide

games = run_bot(heuristic_decide, token=os.environ["BOT_TOKEN"], url=os.environ["FENGSHENG_URL"], matches=1)
g = games[0]
print("MATCH", g.match_id, g.seats[0], g.decisions, g.defaults, "won" if g.won else "lost", flush=True)
"""


def test_an_sdk_bot_process_plays_a_ranked_match_and_the_ladder_moves_once(platform: Platform, tmp_path: Path) -> None:
    p = platform
    bot_id, token = p.bot("sdk-process")
    script = tmp_path / "bot.py"
    script.write_text(BOT_SCRIPT)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=150, cwd=tmp_path,
                         env={**os.environ, "BOT_TOKEN": token, "FENGSHENG_URL": p.url,
                              "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    match_id, seat, decisions, defaults, _ = out.stdout.split("MATCH", 1)[1].split()
    assert int(decisions) > 0 and int(defaults) == 0
    # every action of the bot's seat came from the bot itself, none from a timer
    origins = {
        (int(s), o) for _, s, o, _ in (e.decode().split("\t", 3) for e in p.rdb.lrange(history_key(match_id), 0, -1))
    }
    assert (int(seat), "bot-external") in origins and (int(seat), "timer") not in origins
    # the ladder: one history entry per participant for this match, done marker set
    board = p.ranked.Leaderboard(bs.LeaderboardRequest(ladder="bot", limit=500))
    wait_until(lambda: p.rdb.exists(f"rk:{{rk}}:done:{match_id}"), 30, "the ladder update")
    record = json.loads(p.rdb.hget(f"mm:{{mm}}:m:{match_id}", "record"))
    assert len(record) == 5 and sum(1 for s in record if s["player_id"] == bot_id) == 1

    def snapshot() -> dict[str, Any]:
        state: dict[str, Any] = {}
        for s in record:
            ladder = BOT if s["bot"] else HUMAN
            entries = [json.loads(e) for e in p.rdb.lrange(ladder_history_key(ladder, s["player_id"]), 0, -1)]
            state[s["player_id"]] = (
                [e for e in entries if e["match_id"] == match_id],
                p.rdb.hgetall(rating_key(RatingKey(ladder, ALL_TIME, s["player_id"]))),
            )
        return state

    before = snapshot()
    for pid, (entries, _) in before.items():
        assert len(entries) == 1, (pid, entries)
    mine = before[bot_id][0][0]
    assert mine["won"] == (mine["after"] > mine["before"]) or mine["before"] == mine["after"]
    bot_rating = p.rdb.hgetall(rating_key(RatingKey(BOT, ALL_TIME, bot_id)))
    assert int(bot_rating[b"games"]) == 1
    board = p.ranked.Leaderboard(bs.LeaderboardRequest(ladder="bot", limit=500))
    row = next(r for r in board.standings if r.player_id == bot_id)
    assert row.bot and row.name == "sdk-process" and row.provisional

    # the match view labels every bot, and knows it was rated
    view = p.http.get(f"/api/ranked/matches/{match_id}").json()
    assert view["rated"] and len(view["seats"]) == 5 and all(seat["bot"] for seat in view["seats"])
    assert [seat["kind"] for seat in view["seats"]].count("external") == 1

    # the ladder task again, through Celery: a no-op
    from services.workers.celery_app import make_app

    make_app(p.redis_url).send_task("ladder.update", args=(match_id,))
    wait_for_log(p.worker, rf"ladder.update {match_id}: already", 30)
    after = snapshot()
    # house bots may have played other matches meanwhile: compare this match's entries and the SDK bot
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in before.items()}
    assert after[bot_id] == before[bot_id]
    # and through HTTP: the bot's history and the bot ladder
    hist = p.http.get(f"/api/ranked/players/{bot_id}/history", params={"ladder": "bot"}).json()
    assert [m["match_id"] for m in hist["matches"]] == [match_id]
    lb = p.http.get("/api/ranked/leaderboard", params={"ladder": "bot"}).json()
    assert any(r["player_id"] == bot_id and r["bot"] for r in lb["standings"])


def test_bot_tokens_limits_and_deadlines(platform: Platform) -> None:
    p = platform
    bot_id, token = p.bot("idle")
    _, other_token = p.bot("thief")
    client, got = sdk_listener(token, p.engine.extra["bot_address"])
    ticket = wait_message(got, "ticket", state="queued").ticket
    assert ticket.bot and ticket.holder == f"b:{bot_id}"

    # concurrency limit (1): the bot already holds a ticket -> 429 over HTTP, RESOURCE_EXHAUSTED over gRPC
    reply = p.http.post("/api/ranked/queue", headers={"authorization": f"Bearer {token}"})
    assert reply.status_code == 429 and reply.json()["error"]["code"] == "resource_exhausted", reply.text
    with pytest.raises(grpc.RpcError) as err:
        p.ranked.JoinQueue(bs.JoinQueueRequest(bot_token=token, client_address="198.51.100.1"))
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    # a forged token
    with pytest.raises(grpc.RpcError) as err:
        p.ranked.JoinQueue(bs.JoinQueueRequest(bot_token="fsb_forged", client_address="198.51.100.1"))
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED

    # missed deadlines: the bot answers its first decision with an illegal action, then a
    # legal one (a retry before the deadline), then never again
    first = wait_message(got, "decision", timeout=40).decision
    assert first.deadline_ms > 0 and first.observation.viewer == first.seat and first.legal_actions
    assert first.deadline_ms - time.time() * 1000 <= 3100
    match_id, seat = first.match_id, first.seat
    client.act(match_id, seat, first.decision, "fly to the moon")
    error = wait_message(got, "error").error
    assert error.code == "INVALID_ARGUMENT" and error.kind == "illegal" and list(error.legal_actions)
    client.act(match_id, seat, first.decision, first.legal_actions[0])
    result = wait_message(got, "result").result
    assert result.decision == first.decision
    # a token cannot act for another seat of its match, or for another match
    client.act(match_id, (seat + 1) % 5, first.decision + 1, "pass")
    assert wait_message(got, "error", kind="forbidden").error.code == "PERMISSION_DENIED"
    thief, thief_got = BotClient(token=other_token, address=p.engine.extra["bot_address"]), queue.Queue()  # type: ignore[var-annotated]

    def pump() -> None:
        try:
            for msg in thief.messages():
                thief_got.put(msg)
        except Exception as exc:
            thief_got.put(bs.ServerMessage(error=bs.BotError(code="CLIENT", message=str(exc))))

    threading.Thread(target=pump, daemon=True).start()
    wait_message(thief_got, "welcome")
    thief.act(match_id, seat, first.decision + 1, "pass")
    assert wait_message(thief_got, "error", kind="forbidden").error.code == "PERMISSION_DENIED"
    body = {"players": 3, "humans": 0, "bot": "random", "bot_delay_ms": 5000}
    unranked = p.http.post("/api/matches", json=body).json()
    thief.act(unranked["match_id"], 0, 1, "pass")
    assert wait_message(thief_got, "error", kind="forbidden").error.code == "PERMISSION_DENIED"

    # the idle bot's next decisions are answered by the turn timer with the default action
    def timer_moves() -> int:
        entries = [e.decode().split("\t", 3) for e in p.rdb.lrange(history_key(match_id), 0, -1)]
        return sum(1 for _, s, o, _ in entries if int(s) == seat and o == "timer")

    wait_until(lambda: timer_moves() >= 2, 40, "two default actions for the idle bot's seat")
    assert wait_message(got, "decision", timeout=10).decision.default_action

    # request rate (50/s, burst 50): a burst of 120 messages gets RESOURCE_EXHAUSTED errors
    for _ in range(120):
        thief.leave_queue()
    limited = wait_message(thief_got, "error", code="RESOURCE_EXHAUSTED", timeout=20).error
    assert limited.kind == "rate_limited"
    # one live stream per bot: a second stream with the same token replaces the first, which
    # is told (an error of kind "replaced") and closed (ABORTED)
    time.sleep(1.5)  # the burst above emptied the bucket; a Connect takes one unit too
    second = BotClient(token=other_token, address=p.engine.extra["bot_address"])
    stream2 = second.messages()
    assert next(stream2).WhichOneof("kind") == "welcome"
    assert wait_message(thief_got, "error", kind="replaced", timeout=10).error.code == "ABORTED"
    assert wait_message(thief_got, "error", code="CLIENT", timeout=10).error.message.startswith("ABORTED")
    second.close()
    thief.close()
    client.close()

    # the idle bot reconnects: its unfinished match is resumed and its next decision pushed
    back, back_got = sdk_listener(token, p.engine.extra["bot_address"], queue_up=False)
    welcome = wait_message(back_got, "welcome").welcome
    assert match_id in welcome.active_matches
    wait_message(back_got, "match_start", match_id=match_id)
    again = wait_message(back_got, "decision", timeout=40, match_id=match_id).decision
    assert again.seat == seat and again.decision > first.decision
    back.close()


def test_the_bot_tutorial_runs_as_written(platform: Platform, tmp_path: Path) -> None:
    text = (ROOT / "docs" / "bots.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "docs/bots.md has no python blocks"
    script = tmp_path / "tutorial.py"
    script.write_text("\n".join(blocks))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=150, cwd=tmp_path,
                         env={**os.environ, "FENGSHENG_URL": platform.url, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert re.search(r"rk-\w+: (won|lost)", out.stdout), out.stdout


def test_the_shell_examples_of_the_bot_doc_run_as_written(platform: Platform, tmp_path: Path) -> None:
    """docs/bots.md's shell lines for a running platform (the example bot's commands, the
    connect-info request) run as written in bash against this one (``fengsheng up`` is
    tests/integration/test_gateway_up.py's; ``fengsheng arena`` lines test_bot_author_arena.py's and
    test_bot_cmd_arena.py's; the SDK's own venv test_sdk_install.py's)."""
    text = (ROOT / "docs" / "bots.md").read_text()
    lines = [ln.split("  #", 1)[0].strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)
             for ln in block.splitlines() if ln.strip()]  # fmt: skip
    lines = [ln for ln in lines if not ln.startswith(("fengsheng up", "fengsheng arena", "python3 -m venv bot-venv"))]
    assert any("python -m fengsheng.bot" in ln for ln in lines) and any("connect-info" in ln for ln in lines), lines
    made = register_bot(platform.http, "doc-shell")
    script = tmp_path / "doc.sh"
    script.write_text("set -euo pipefail\n" + "\n".join(ln.replace("http://127.0.0.1:8000", platform.url)
                                                        for ln in lines) + "\n")  # fmt: skip
    env = {**os.environ, "URL": platform.url, "TOKEN": made["token"], "PYTHONPATH": str(ROOT),
           "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}  # fmt: skip
    env.pop("FENGSHENG_BOT_ADDR", None)
    out = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=400, cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1])["websocket"] == "/ws/bots", out.stdout[-500:]
    deadline = time.monotonic() + 30  # each match is rated by a task once over
    while True:
        history = platform.http.get(f"/api/ranked/players/{made['bot_id']}/history", params={"ladder": "bot"}).json()
        played = sorted(m["ruleset"] for m in history["matches"])
        if played == ["classic", "return", "return", "return"] or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert played == ["classic", "return", "return", "return"], history


def test_the_bot_protocol_as_json_over_the_gateway_websocket(platform: Platform) -> None:
    from websockets.sync.client import connect

    p = platform
    bot_id, token = p.bot("json-bot")
    ws_url = p.url.replace("http", "ws") + "/ws/bots"
    with connect(f"{ws_url}?token={token}") as ws:
        welcome = json.loads(ws.recv(timeout=10))
        assert welcome["welcome"]["bot_id"] == bot_id
        ws.send(json.dumps({"join_queue": {"min_players": 6, "max_players": 7}}))
        ticket = json.loads(ws.recv(timeout=10))["ticket"]
        assert ticket["state"] == "queued" and ticket["min_players"] == 6 and ticket["bot"]
        ws.send(json.dumps({"leave_queue": {"ticket_id": ticket["ticket_id"]}}))
        while True:  # the queue's own notification and the answer may both arrive
            msg = json.loads(ws.recv(timeout=10))
            if "ticket" in msg and msg["ticket"]["state"] == "left":
                break
        ws.send("not json")
        assert json.loads(ws.recv(timeout=10))["error"]["code"] == "malformed_request"
        ws.send(json.dumps({"action": {"match_id": "nope", "seat": 0, "decision": 1, "action": "pass"}}))
        refused = json.loads(ws.recv(timeout=10))["error"]
        assert refused["status"] == 403 and refused["code"] == "permission_denied" and refused["kind"] == "forbidden"
    with connect(f"{ws_url}?token=fsb_forged") as ws:
        error = json.loads(ws.recv(timeout=10))
        assert error["error"]["status"] == 401


def test_queue_settings_follow_the_ruleset_registry_and_queueing_again_replaces(platform: Platform) -> None:
    """Issue 12: a ticket names a ruleset and a player range that ruleset allows (422 with
    the reason otherwise); issue 17 §8: queueing again with other settings replaces the
    ticket instead of silently answering the old one."""
    from engine.rulesets import RULESET_IDS
    from services.ranked.matchmaking import player_counts

    p = platform
    _, token = p.guest("settings")
    hdr = {"authorization": f"Bearer {token}"}
    lo, hi = player_counts("return")[0], player_counts("return")[-1]
    for body in ({"ruleset": "nope"}, {"ruleset": "Bad!"}, {"min_players": lo - 1}, {"min_players": hi + 1},
                 {"min_players": lo + 1, "max_players": lo}):  # fmt: skip
        reply = p.http.post("/api/ranked/queue", headers=hdr, json=body)
        assert reply.status_code == 422 and reply.json()["error"]["code"] == "malformed_request", (body, reply.text)
    reason = p.http.post("/api/ranked/queue", headers=hdr, json={"min_players": hi + 1}).json()["error"]["message"]
    assert f"return is played by {lo} to {hi} players" in reason
    unknown = p.http.post("/api/ranked/queue", headers=hdr, json={"ruleset": "nope"}).json()["error"]["message"]
    assert "unknown ruleset 'nope'" in unknown and all(r in unknown for r in RULESET_IDS)
    for ruleset in RULESET_IDS:  # every ruleset's own range is accepted
        counts = player_counts(ruleset)
        reply = p.http.post("/api/ranked/queue", headers=hdr, json={"ruleset": ruleset, "min_players": counts[-1]})
        assert reply.status_code == 201 and reply.json()["ruleset"] == ruleset, reply.text
    assert p.http.get("/api/ranked/leaderboard", params={"ruleset": "nope"}).status_code == 422
    assert p.http.get("/api/ranked/players/x/history", params={"ruleset": "nope"}).status_code == 422
    board = p.http.get("/api/ranked/leaderboard").json()
    assert board["ruleset"] == "return" and board["rulesets"] == list(RULESET_IDS)

    first = p.http.post("/api/ranked/queue", headers=hdr, json={"min_players": hi}).json()
    same = p.http.post("/api/ranked/queue", headers=hdr, json={"min_players": hi}).json()
    assert same["ticket_id"] == first["ticket_id"] and same["ruleset"] == "return"
    wider = p.http.post("/api/ranked/queue", headers=hdr, json={"min_players": hi - 1, "max_players": hi}).json()
    assert wider["ticket_id"] != first["ticket_id"] and wider["state"] == "queued"
    assert p.http.get(f"/api/ranked/queue/{first['ticket_id']}", headers=hdr).json()["state"] == "replaced"
    assert p.http.delete(f"/api/ranked/queue/{wider['ticket_id']}", headers=hdr).json()["state"] == "left"


def test_ws_ranked_is_told_when_the_ticket_is_deleted_over_http(platform: Platform) -> None:
    """Issue 17 §7: ``DELETE /api/ranked/queue/{id}`` is a ticket change like any other, so
    the holder's ``/ws/ranked`` gets the ticket ``left`` (once); a second DELETE changes
    nothing and pushes nothing."""
    from websockets.sync.client import connect

    from services.ranked.matchmaking import player_counts

    p = platform
    _, token = p.guest("deleter")
    hdr = {"authorization": f"Bearer {token}"}
    # the largest return table: nobody else queues for it here, and the fill waits 4 s
    ticket = p.http.post("/api/ranked/queue", headers=hdr, json={"min_players": player_counts("return")[-1]}).json()
    with connect(p.url.replace("http", "ws") + f"/ws/ranked?token={token}") as ws:
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "ticket" and first["ticket"]["ticket_id"] == ticket["ticket_id"]
        assert first["ticket"]["state"] == "queued"
        gone = p.http.delete(f"/api/ranked/queue/{ticket['ticket_id']}", headers=hdr)
        assert gone.status_code == 200 and gone.json()["state"] == "left", gone.text
        pushed = json.loads(ws.recv(timeout=5))
        assert pushed["type"] == "ticket" and pushed["ticket"]["ticket_id"] == ticket["ticket_id"]
        assert pushed["ticket"]["state"] == "left"
        again = p.http.delete(f"/api/ranked/queue/{ticket['ticket_id']}", headers=hdr)
        assert again.status_code == 200 and again.json()["state"] == "left"
        with pytest.raises(TimeoutError):
            ws.recv(timeout=1.5)
