"""One JSON shape across the gateway (issue 17, defect 7 and "What done looks like": "one
JSON shape for numbers, one shape for enums, one error shape for HTTP and WebSocket").

The test walks **every** route the gateway serves (the app's own route table: a route added
later without a visit here fails :func:`test_every_endpoint_speaks_one_json_shape`), once
answered and once refused, and the three WebSockets, against a real Redis, engine server,
Celery worker and gateway. It checks, in every JSON body and message:

- numbers: every field that is ``int64`` in the protos (decision numbers, Unix ms times...)
  is a JSON number, never a string (docs/bots.md: "int64 as JSON numbers");
- enums: every field that is an enum in the protos is the value's name, never its number
  (history entries' ``identity`` too);
- errors: an HTTP error body is exactly ``{"error": {...}}`` and a WebSocket error holds the
  same object, with ``status`` (the HTTP status, a number), ``code``, ``kind`` and ``message``.
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
from google.protobuf.descriptor import FieldDescriptor
from helpers.gateway_procs import start_gateway
from helpers.processes import start_engine_server, start_worker
from websockets.sync.client import connect

from fengsheng.v1 import bot_service_pb2, engine_service_pb2, game_pb2
from gateway.app import create_app

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]

OPERATOR_TOKEN = "o" * 40
ENV = {"FENGSHENG_MM_TICK_MS": "300", "FENGSHENG_RANKED_TURN_TIMEOUT_MS": "3000",
       "FENGSHENG_CHALLENGE_TIMEOUT_MS": "5000"}


def _fields() -> tuple[set[str], set[str]]:
    """``(int64 names, enum names)``: field names that are that type wherever a message of
    the protos has them (a name that is something else somewhere is left out)."""
    kinds: dict[str, set[str]] = {}
    seen: set[str] = set()

    def walk(desc: Any) -> None:
        if desc.full_name in seen:
            return
        seen.add(desc.full_name)
        for f in desc.fields:
            if f.type in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT64):
                kind = "int64"
            elif f.type == FieldDescriptor.TYPE_ENUM:
                kind = "enum"
            else:
                kind = "other"
            kinds.setdefault(f.name, set()).add(kind)
            if f.message_type is not None:
                walk(f.message_type)

    for module in (game_pb2, engine_service_pb2, bot_service_pb2):
        for desc in module.DESCRIPTOR.message_types_by_name.values():
            walk(desc)
    return {n for n, k in kinds.items() if k == {"int64"}}, {n for n, k in kinds.items() if k == {"enum"}}


INT64, ENUMS = _fields()
ENUMS |= {"identity"}  # ladder history entries (JSON the ladder writes) name it too


def check_shape(body: Any, where: str) -> int:
    """Assert the number and enum rules on a JSON value; how many typed fields were checked."""
    checked = 0
    if isinstance(body, dict):
        for key, value in body.items():
            if key in INT64:
                values = value if isinstance(value, list) else [value]
                for v in values:
                    assert isinstance(v, int) and not isinstance(v, bool), f"{where}.{key}: int64 as {v!r}"
                checked += 1
            elif key in ENUMS and not isinstance(value, dict):
                values = value if isinstance(value, list) else [value]
                for v in values:
                    assert isinstance(v, str) and not v.isdigit(), f"{where}.{key}: enum as {v!r}"
                checked += 1
            else:
                checked += check_shape(value, f"{where}.{key}")
    elif isinstance(body, list):
        for i, item in enumerate(body):
            checked += check_shape(item, f"{where}[{i}]")
    return checked


def check_error(error: Any, where: str, status: int | None = None) -> None:
    assert isinstance(error, dict), f"{where}: {error!r}"
    assert {"status", "code", "kind", "message"} <= set(error), f"{where}: {error!r}"
    assert isinstance(error["status"], int) and error["status"] >= 400, f"{where}: {error!r}"
    assert all(isinstance(error[k], str) and error[k] for k in ("code", "kind", "message")), f"{where}: {error!r}"
    assert not re.match(r"^[A-Z_]+$", error["code"]), f"{where}: a gRPC status name, not the HTTP code: {error!r}"
    if status is not None:
        assert error["status"] == status, f"{where}: {error!r} under HTTP {status}"


class Walk:
    """The gateway and what the walk has visited."""

    def __init__(self, url: str, redis_url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=20)
        self.url = url
        self.redis_url = redis_url
        self.ok: set[tuple[str, str]] = set()
        self.refused: set[tuple[str, str]] = set()
        self.typed = 0

    def call(self, method: str, route: str, path: str, *, expect: int, **kw: Any) -> Any:
        reply = self.http.request(method, path, **kw)
        assert reply.status_code == expect, (method, path, reply.status_code, reply.text[:500])
        if "json" not in reply.headers.get("content-type", ""):
            self.ok.add((method, route))
            return reply.text
        body = reply.json()
        where = f"{method} {path}"
        if expect >= 400:
            assert isinstance(body, dict) and set(body) == {"error"}, f"{where}: {body!r}"
            check_error(body["error"], where, expect)
            self.refused.add((method, route))
        else:
            self.typed += check_shape(body, where)
            self.ok.add((method, route))
        return body


@pytest.fixture(scope="module")
def walk(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Walk]:
    url = re.sub(r"/\d*$", "", redis_url) + "/11"  # a database of its own
    redis.Redis.from_url(url).flushdb()
    logs = tmp_path_factory.mktemp("json-shape-logs")
    engine = start_engine_server(url, logs, env=ENV)
    worker = start_worker(url, engine.address, logs, concurrency=2, env=ENV)
    gateway = start_gateway(engine.address, logs, redis_url=url, bot_address=engine.extra["bot_address"],
                            env={"FENGSHENG_OPERATOR_TOKEN": OPERATOR_TOKEN})  # fmt: skip
    try:
        yield Walk(gateway.extra["url"], url)
    finally:
        gateway.stop()
        worker.stop()
        engine.stop()


def routes() -> set[tuple[str, str]]:
    """Every HTTP route of the gateway as ``(method, path)`` (its JSON API; not the page)."""
    app = create_app("127.0.0.1:1", "x" * 32)
    out = set()
    for r in app.routes:
        for method in getattr(r, "methods", None) or ():
            if method != "HEAD" and r.path.startswith("/api/"):  # type: ignore[attr-defined]
                out.add((method, r.path))  # type: ignore[attr-defined]
    return out


#: routes with no path, query, body or token: nothing of a request can be refused
TAKE_NO_INPUT = {("GET", "/api/rulesets"), ("GET", "/api/bots/connect-info")}


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_every_endpoint_speaks_one_json_shape(walk: Walk) -> None:
    w = walk
    c = w.call
    # accounts
    guest = c("POST", "/api/guests", "/api/guests", expect=201, json={"name": "walker"})
    other = c("POST", "/api/guests", "/api/guests", expect=201, json={"name": "walked"})
    me, them = bearer(guest["token"]), bearer(other["token"])
    c("POST", "/api/guests", "/api/guests", expect=422, json={"name": ""})
    c("GET", "/api/rulesets", "/api/rulesets", expect=200)
    c("GET", "/api/cards", "/api/cards", expect=200, params={"ruleset": "return"})
    c("GET", "/api/cards", "/api/cards", expect=404, params={"ruleset": "nope"})
    # matches and their seats
    made = c("POST", "/api/matches", "/api/matches", expect=201, headers=me, json={"players": 5, "humans": 2})
    mid = made["match_id"]
    seat = bearer(made["seat_token"])
    c("POST", "/api/matches", "/api/matches", expect=422, json={"players": 99})
    c("GET", "/api/matches", "/api/matches", expect=200)
    c("GET", "/api/matches", "/api/matches", expect=422, params={"limit": 0})
    c("GET", "/api/matches/{match_id}", f"/api/matches/{mid}", expect=200)
    c("GET", "/api/matches/{match_id}", "/api/matches/m-none", expect=404)
    joined = c("POST", "/api/matches/{match_id}/join", f"/api/matches/{mid}/join", expect=200, headers=them, json={})
    c("POST", "/api/matches/{match_id}/join", f"/api/matches/{mid}/join", expect=401, json={})
    obs = c("GET", "/api/matches/{match_id}/observation", f"/api/matches/{mid}/observation", expect=200, headers=seat)
    c("GET", "/api/matches/{match_id}/observation", f"/api/matches/{mid}/observation", expect=401)
    legal = c("GET", "/api/matches/{match_id}/legal-actions", f"/api/matches/{mid}/legal-actions", expect=200,
              headers=seat)  # fmt: skip
    c("GET", "/api/matches/{match_id}/legal-actions", f"/api/matches/{mid}/legal-actions", expect=401)
    assert isinstance(obs, dict) and isinstance(legal, dict)
    c("POST", "/api/matches/{match_id}/act", f"/api/matches/{mid}/act", expect=422, headers=seat,
      json={"decision": "x", "action": "pass"})  # fmt: skip
    # act for whichever of our two seats is to move, until one action is taken
    tokens = [made["seat_token"], joined["seat_token"]]
    acted = False
    deadline = time.monotonic() + 30
    while not acted and time.monotonic() < deadline:
        for tok in tokens:
            la = w.http.get(f"/api/matches/{mid}/legal-actions", headers=bearer(tok)).json()
            if la.get("actions"):
                c("POST", "/api/matches/{match_id}/act", f"/api/matches/{mid}/act", expect=200, headers=bearer(tok),
                  json={"decision": la["decision"], "action": la["actions"][0]})  # fmt: skip
                acted = True
                break
        time.sleep(0.2)
    assert acted, "no seat of ours came to act"
    c("POST", "/api/matches/{match_id}/chat", f"/api/matches/{mid}/chat", expect=201, headers=seat,
      json={"text": "hello"})  # fmt: skip
    c("POST", "/api/matches/{match_id}/chat", f"/api/matches/{mid}/chat", expect=401, json={"text": "hello"})
    c("GET", "/api/matches/{match_id}/chat", f"/api/matches/{mid}/chat", expect=200, headers=seat)
    c("GET", "/api/matches/{match_id}/chat", "/api/matches/m-none/chat", expect=404, headers=seat)
    # the lobby: who is online and its chat (player tokens only)
    c("POST", "/api/lobby/presence", "/api/lobby/presence", expect=200, headers=me)
    c("POST", "/api/lobby/presence", "/api/lobby/presence", expect=401)
    c("GET", "/api/lobby/online", "/api/lobby/online", expect=200, headers=them)
    c("GET", "/api/lobby/online", "/api/lobby/online", expect=401, headers=seat)
    c("DELETE", "/api/lobby/presence", "/api/lobby/presence", expect=200, headers=me)
    c("DELETE", "/api/lobby/presence", "/api/lobby/presence", expect=401)
    c("POST", "/api/lobby/chat", "/api/lobby/chat", expect=201, headers=me, json={"text": "hello lobby"})
    c("POST", "/api/lobby/chat", "/api/lobby/chat", expect=422, headers=me, json={"text": "x" * 201})
    c("GET", "/api/lobby/chat", "/api/lobby/chat", expect=200, headers=them)
    c("GET", "/api/lobby/chat", "/api/lobby/chat", expect=401)
    # a match of bots only, to its end: its replay
    bots = c("POST", "/api/matches", "/api/matches", expect=201, json={"players": 5, "humans": 0})
    ended = bots["match_id"]
    deadline = time.monotonic() + 60
    while w.http.get(f"/api/matches/{ended}/replay").status_code != 200:
        assert time.monotonic() < deadline, "the bots' match did not end"
        time.sleep(0.3)
    c("GET", "/api/matches/{match_id}/replay", f"/api/matches/{ended}/replay", expect=200)
    c("GET", "/api/matches/{match_id}/replay", "/api/matches/m-none/replay", expect=404)
    c("GET", "/api/matches/{match_id}/replay/steps", f"/api/matches/{ended}/replay/steps", expect=200)
    c("GET", "/api/matches/{match_id}/replay/steps", "/api/matches/m-none/replay/steps", expect=404)
    # a rematch: asked while the match runs (refused), then of a finished match of ours
    c("GET", "/api/matches/{match_id}/rematch", f"/api/matches/{mid}/rematch", expect=200, headers=me)
    c("GET", "/api/matches/{match_id}/rematch", f"/api/matches/{mid}/rematch", expect=401)
    c("POST", "/api/matches/{match_id}/rematch", f"/api/matches/{mid}/rematch", expect=409, headers=me, json={})
    solo = c("POST", "/api/matches", "/api/matches", expect=201, headers=me, json={"players": 3, "humans": 1})
    mine = bearer(solo["seat_token"])
    deadline = time.monotonic() + 120
    while not w.http.get(f"/api/matches/{solo['match_id']}/observation", headers=mine).json()["outcome"].get("over"):
        assert time.monotonic() < deadline, "our 3-player match did not end"
        la = w.http.get(f"/api/matches/{solo['match_id']}/legal-actions", headers=mine).json()
        if la.get("actions"):
            w.http.post(f"/api/matches/{solo['match_id']}/act", headers=mine,
                        json={"decision": la["decision"], "action": la["actions"][0]})  # fmt: skip
        else:
            time.sleep(0.05)
    c("POST", "/api/matches/{match_id}/rematch", f"/api/matches/{solo['match_id']}/rematch", expect=200,
      headers=me, json={})  # fmt: skip
    # bots and their tokens
    owner = bearer(w.http.post("/api/guests", json={"name": "shape-owner"}).json()["token"])
    bot = c("POST", "/api/bots", "/api/bots", expect=201, json={"name": "shape-bot"}, headers=owner)
    rival = c("POST", "/api/bots", "/api/bots", expect=201, json={"name": "shape-rival"}, headers=owner)
    c("POST", "/api/bots", "/api/bots", expect=409, json={"name": "shape-bot"}, headers=owner)
    c("POST", "/api/bots", "/api/bots", expect=401, json={"name": "shape-ownerless"})
    bh = bearer(bot["token"])
    c("GET", "/api/bots", "/api/bots", expect=200, headers=bh)
    c("GET", "/api/bots", "/api/bots", expect=401)
    c("GET", "/api/bots/connect-info", "/api/bots/connect-info", expect=200)
    c("GET", "/api/bots/{bot_id}", f"/api/bots/{bot['bot_id']}", expect=200)
    c("GET", "/api/bots/{bot_id}", "/api/bots/b_000000000000", expect=404)
    rotated = c("POST", "/api/bots/{bot_id}/tokens/rotate", f"/api/bots/{rival['bot_id']}/tokens/rotate", expect=200,
                headers=bearer(rival["token"]))  # fmt: skip
    c("POST", "/api/bots/{bot_id}/tokens/rotate", f"/api/bots/{rival['bot_id']}/tokens/rotate", expect=403, headers=bh)
    c("DELETE", "/api/bots/{bot_id}/tokens/{token_id}", f"/api/bots/{rival['bot_id']}/tokens/nope", expect=404,
      headers=bearer(rotated["token"]))  # fmt: skip
    c("DELETE", "/api/bots/{bot_id}/tokens/{token_id}", f"/api/bots/{rival['bot_id']}/tokens/{rotated['token_id']}",
      expect=200, headers=bearer(rotated["token"]))  # fmt: skip
    # the ranked queue
    ticket = c("POST", "/api/ranked/queue", "/api/ranked/queue", expect=201, headers=bh, json={"min_players": 5})
    c("POST", "/api/ranked/queue", "/api/ranked/queue", expect=422, headers=bh, json={"min_players": 2})
    c("GET", "/api/ranked/queue/{ticket_id}", f"/api/ranked/queue/{ticket['ticket_id']}", expect=200, headers=bh)
    c("GET", "/api/ranked/queue/{ticket_id}", "/api/ranked/queue/t_none", expect=404, headers=bh)
    c("DELETE", "/api/ranked/queue/{ticket_id}", f"/api/ranked/queue/{ticket['ticket_id']}", expect=200, headers=bh)
    c("DELETE", "/api/ranked/queue/{ticket_id}", f"/api/ranked/queue/{ticket['ticket_id']}", expect=403, headers=me)
    # casual tables and a challenge between people
    table = c("POST", "/api/casual", "/api/casual", expect=201, headers=me, json={"players": 3})
    c("POST", "/api/casual", "/api/casual", expect=422, headers=me, json={"seats": ["me", "me"]})
    c("GET", "/api/ranked/matches/{match_id}", f"/api/ranked/matches/{table['match_id']}", expect=200)
    c("GET", "/api/ranked/matches/{match_id}", "/api/ranked/matches/rk-none", expect=404)
    challenge = c("POST", "/api/casual", "/api/casual", expect=201, headers=me,
                  json={"seats": ["me", other["player_id"], "random"]})  # fmt: skip
    assert challenge["state"] == "pending" and isinstance(challenge["expires_ms"], int)
    invited = next(
        t
        for t in (
            w.http.get(f"/api/ranked/queue/{k.decode().rsplit(':', 1)[1]}", headers=them)
            for k in redis.Redis.from_url(w.redis_url).keys("mm:{mm}:t:*")
        )
        if t.status_code == 200
    )
    answer = f"/api/casual/{invited.json()['ticket_id']}/answer"
    c("POST", "/api/casual/{ticket_id}/answer", answer, expect=403, headers=me, json={"accept": False})
    c("POST", "/api/casual/{ticket_id}/answer", answer, expect=200, headers=them, json={"accept": False})
    # ladders
    c("GET", "/api/ranked/leaderboard", "/api/ranked/leaderboard", expect=200, params={"ladder": "bot"})
    c("GET", "/api/ranked/leaderboard", "/api/ranked/leaderboard", expect=422, params={"ladder": "x"})
    c("GET", "/api/ranked/players/{player_id}/history", f"/api/ranked/players/{bot['bot_id']}/history", expect=200,
      params={"ladder": "bot"})  # fmt: skip
    c("GET", "/api/ranked/players/{player_id}/history", "/api/ranked/players/nobody/history", expect=404)
    # the operators' audit (docs/ranked.md, "The collusion audit")
    c("GET", "/api/ops/audit", "/api/ops/audit", expect=200, headers=bearer(OPERATOR_TOKEN), params={"all": "true"})
    c("GET", "/api/ops/audit", "/api/ops/audit", expect=401, headers=bearer(guest["token"]))

    assert w.typed > 40, f"only {w.typed} typed fields were checked"
    missing_ok = routes() - w.ok
    missing_refused = routes() - w.refused - TAKE_NO_INPUT
    assert not missing_ok, f"routes never answered by the walk: {sorted(missing_ok)}"
    assert not missing_refused, f"routes never refused by the walk: {sorted(missing_refused)}"


def test_every_websocket_speaks_the_same_shapes(walk: Walk) -> None:
    w = walk
    ws = w.url.replace("http", "ws", 1)
    guest = w.http.post("/api/guests", json={"name": "socket"}).json()
    made = w.http.post("/api/matches", headers=bearer(guest["token"]), json={"players": 5, "humans": 1}).json()
    bot = w.http.post("/api/bots", json={"name": "socket-bot"}, headers=bearer(guest["token"])).json()
    typed = 0
    # the seat's socket: its first messages (numbers, enums), then a refused action (the error object)
    with connect(f"{ws}/ws/matches/{made['match_id']}?token={made['seat_token']}") as sock:
        first = json.loads(sock.recv(timeout=10))
        typed += check_shape(first, "/ws/matches")
        sock.send(json.dumps({"decision": 10**9, "action": "nonsense"}))
        while True:
            msg = json.loads(sock.recv(timeout=10))
            if msg.get("type") == "error":
                check_error(msg["error"], "/ws/matches")
                break
            typed += check_shape(msg, "/ws/matches")
    for path in (f"/ws/matches/{made['match_id']}", "/ws/ranked", "/ws/bots"):
        with connect(f"{ws}{path}?token=forged") as sock:
            msg = json.loads(sock.recv(timeout=10))
            check_error(msg["error"], path, 401)
    # a bot's socket: welcome, a casual table's ticket and its match's messages, a refused message
    with connect(f"{ws}/ws/bots?token={bot['token']}") as sock:
        typed += check_shape(json.loads(sock.recv(timeout=10)), "/ws/bots")
        sock.send(json.dumps({"table": {"players": 3}}))
        kinds: set[str] = set()
        deadline = time.monotonic() + 30
        while not {"ticket", "match_start", "decision"} <= kinds and time.monotonic() < deadline:
            msg = json.loads(sock.recv(timeout=10))
            kinds |= set(msg)
            typed += check_shape(msg, "/ws/bots")
            if "decision" in msg:
                d = msg["decision"]
                assert isinstance(d["decision"], int) and isinstance(d["deadline_ms"], int), d
        assert {"ticket", "match_start", "decision"} <= kinds, kinds
        sock.send(json.dumps({"action": {"match_id": "cs-none", "seat": 0, "decision": 1, "action": "pass"}}))
        while True:
            msg = json.loads(sock.recv(timeout=10))
            if "error" in msg:
                check_error(msg["error"], "/ws/bots")
                break
    # /ws/ranked: a person's ticket (the one queued, sent first)
    w.http.post("/api/ranked/queue", headers=bearer(guest["token"]), json={"min_players": 5})
    with connect(f"{ws}/ws/ranked?token={guest['token']}") as sock:
        msg = json.loads(sock.recv(timeout=10))
        assert msg["type"] == "ticket"
        typed += check_shape(msg, "/ws/ranked")
    assert typed > 10, typed
