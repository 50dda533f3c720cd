"""Deep fuzzing of the gateway (issue 11, leaks acceptance 4): a whole platform on its own
Redis (AOF on, so it can be restarted with its data), an engine server, a Celery worker
playing the bot seat, and a gateway; a 5-seat match with characters, 4 human seats with
valid seat tokens.

* deep REST paths with valid seat tokens and random ``act`` bodies (decision numbers
  open/stale/huge/negative/non-integer, legal and mutated and random actions, random
  ``seat`` fields), each followed by reads of a random seat's and the spectator's view;
* thousands of characters on every query parameter of every route;
* Redis stopped in the middle and restarted on the same port with its data.

Properties: never a 5xx but 503 while Redis is down (429 is a valid answer: the gateway
may limit a client address), never a traceback in a body, and never anything a viewer may
not know in what it was served: every observation is checked against a mirror of the match
(:class:`fengsheng.invariants.MatchMirror`: the match replayed from its stored history
with all invariants, the free-text leak check included, at every decision).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from google.protobuf import json_format
from helpers.gateway_procs import start_gateway, wait_until
from helpers.processes import ServiceProcess, start_engine_server, start_worker
from helpers.soak import soak_count
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fengsheng.invariants import MatchMirror
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import game_pb2
from services.engine.store import history_key, state_key
from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

_COMMON: dict[str, Any] = {
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
#: ./dev test: 100 examples per property (soak tier, tests/helpers/soak.py); FENGSHENG_SOAK=full: 250
settings.register_profile("ci", max_examples=soak_count(full=250, ci=100), derandomize=True, **_COMMON)
settings.register_profile("bench", max_examples=int(os.environ.get("FENGSHENG_FUZZ_EXAMPLES") or 3000), **_COMMON)
PROFILE = os.environ.get("FENGSHENG_FUZZ_PROFILE", "ci")
SCALE = {"deep": 0.6, "burst": 0.2}
#: the seat kinds of the fuzzed match: the worker plays seat 4
SEATS = ["human", "human", "human", "human", "random"]
HUMANS = 4
LONG = 5000


def examples(kind: str) -> settings:
    base = settings.get_profile(PROFILE)
    return settings(base, max_examples=max(10, int(base.max_examples * SCALE[kind])))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Platform:
    data: Path
    logs: Path
    server: RedisServer
    engine: ServiceProcess
    worker: ServiceProcess
    gateway: ServiceProcess
    http: httpx.Client
    match_id: str = ""
    tokens: dict[int, str] = field(default_factory=dict)
    mirror: MatchMirror | None = None
    redis_down: bool = False
    #: fuzzed acts the gateway applied (200)
    applied: int = 0

    def rdb(self) -> redis.Redis:
        return redis.Redis.from_url(self.server.url)

    def new_match(self) -> None:
        creator = self.http.post("/api/guests", json={"name": "deep"}).json()["token"]
        created = self.http.post(
            "/api/matches",
            json={"seats": SEATS, "characters": True, "turn_timeout_s": 0, "bot_delay_s": 0},
            headers=auth(creator),
        ).json()
        self.match_id = created["match_id"]
        self.tokens = {created["seat"]: created["seat_token"]}
        for i in range(1, HUMANS):
            guest = self.http.post("/api/guests", json={"name": f"d{i}"}).json()["token"]
            joined = self.http.post(f"/api/matches/{self.match_id}/join", headers=auth(guest)).json()
            self.tokens[joined["seat"]] = joined["seat_token"]
        self.mirror = None
        self.sync()

    def sync(self) -> MatchMirror:
        """Replay the stored history into the mirror (all invariants at each decision)."""
        with self.rdb() as rdb:
            raw = rdb.hget(state_key(self.match_id), "settings")
            entries = rdb.lrange(history_key(self.match_id), 0, -1)
        if self.mirror is None:
            s = es.MatchSettings.FromString(bytes(raw or b""))
            self.mirror = MatchMirror(ruleset=s.ruleset, players=s.players, seed=s.seed, tutorial=s.tutorial,
                                      characters=s.characters)
        history = []
        for entry in entries:
            decision, seat, _origin, action = entry.decode().split("\t", 3)
            history.append((int(decision), int(seat), action))
        self.mirror.advance(history)
        return self.mirror

    def ensure_live(self) -> None:
        if self.sync().game.is_over:
            self.new_match()


@pytest.fixture(scope="module")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    logs = tmp_path_factory.mktemp("fuzz-deep")
    data = logs / "redis-data"
    data.mkdir()
    server = RedisServer(appendonly=True, data_dir=data).start()
    engine = start_engine_server(server.url, logs)
    worker = start_worker(server.url, engine.address, logs, concurrency=2)
    gateway = start_gateway(engine.address, logs, redis_url=server.url)
    http = httpx.Client(base_url=gateway.extra["url"], timeout=30)
    p = Platform(data, logs, server, engine, worker, gateway, http)
    p.new_match()
    try:
        yield p
    finally:
        http.close()
        gateway.stop()
        worker.stop()
        engine.stop()
        p.server.stop()
    for proc in (gateway, engine):
        tracebacks = proc.log().split("Traceback (most recent call last):")[1:]
        assert not tracebacks, tracebacks[0][-4000:]


# ---------------------------------------------------------------------------- checks
def check_reply(p: Platform, reply: httpx.Response, what: str) -> None:
    """No 5xx (503 only while Redis is down), no traceback, the documented error body."""
    allowed = {503} if p.redis_down else set()
    assert reply.status_code < 500 or reply.status_code in allowed, f"{what} -> {reply.status_code} {reply.text[:300]}"
    assert "Traceback" not in reply.text and 'File "' not in reply.text, f"{what}: {reply.text[:500]}"
    if reply.status_code >= 400:
        body = reply.json()
        assert set(body["error"]) >= {"status", "code", "message"}, body
        assert body["error"]["status"] == reply.status_code


def check_served(p: Platform, viewer: int, data: dict[str, Any]) -> None:
    """What the gateway served ``viewer`` holds nothing the viewer may not know."""
    obs = json_format.ParseDict(data, game_pb2.Observation(), ignore_unknown_fields=True)
    p.sync().check_view(viewer, obs)


def read_views(p: Platform, seat: int, query: dict[str, str]) -> None:
    """A seat's observation with its events and the spectator's view, both leak-checked."""
    mine = p.http.get(f"/api/matches/{p.match_id}/observation", params={**query, "events": "true"},
                      headers=auth(p.tokens[seat]))
    check_reply(p, mine, f"observation of seat {seat}")
    if mine.status_code == 200:
        check_served(p, seat, mine.json())
    public = p.http.get(f"/api/matches/{p.match_id}", params=query)
    check_reply(p, public, "spectator view")
    if public.status_code == 200:
        check_served(p, -1, public.json()["observation"])


# ---------------------------------------------------------------------------- strategies
#: decision numbers inside int64 (out of it: see the xfail test below)
decisions = st.one_of(
    st.just("open"),
    st.integers(-3, 3).map(lambda k: ("offset", k)),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0, -1, 2**31, 2**63 - 1, -(2**63)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=2),
)
actions = st.one_of(
    st.tuples(st.sampled_from(["same", "same", "same", "suffix", "upper", "cut", "space"]), st.integers(0, 500)),
    st.text(max_size=40),
    st.text(min_size=LONG - 10, max_size=LONG),
    st.integers(),
    st.none(),
)
query_keys = st.sampled_from(["events", "seat", "limit", "live", "ruleset", "view", "token", "from", "last", "x"])
query_values = st.one_of(
    st.text(max_size=12),
    st.text(min_size=LONG - 100, max_size=LONG),
    st.just("a" * LONG),
    st.just("9" * LONG),
)
long_queries = st.dictionaries(query_keys.filter(lambda k: k != "token"), query_values, max_size=2)


def resolve_decision(value: Any, open_decision: int) -> Any:
    if value == "open":
        return open_decision
    if isinstance(value, tuple):
        return open_decision + value[1]
    return value


def resolve_action(value: Any, legal: list[str]) -> Any:
    if not isinstance(value, tuple):
        return value
    how, index = value
    base = legal[index % len(legal)] if legal else "pass"
    return {"same": base, "suffix": base + " 7", "upper": base.upper(), "cut": base[:-1], "space": f" {base} "}[how]


def fuzz_act(p: Platform, seat: int | str, decision: Any, action: Any, body_seat: Any, query: dict[str, str]) -> None:
    """``seat`` "to-act": the seat whose decision is open (when a human's), so that play goes on."""
    if seat == "to-act":
        probe = p.http.get(f"/api/matches/{p.match_id}/legal-actions", headers=auth(p.tokens[0]))
        check_reply(p, probe, "legal-actions")
        to_act = probe.json()["seat_to_act"] if probe.status_code == 200 else 0
        seat = to_act if to_act in p.tokens else 0
    token = p.tokens[int(seat)]
    legal = p.http.get(f"/api/matches/{p.match_id}/legal-actions", headers=auth(token))
    check_reply(p, legal, "legal-actions")
    data: dict[str, Any] = legal.json() if legal.status_code == 200 else {"decision": 1, "actions": []}
    body: dict[str, Any] = {"decision": resolve_decision(decision, data["decision"])}
    picked = resolve_action(action, data["actions"])
    if picked is not None:
        body["action"] = picked
    if body_seat is not None:
        body["seat"] = body_seat
    reply = p.http.post(f"/api/matches/{p.match_id}/act", json=body, params=query, headers=auth(token))
    check_reply(p, reply, f"act {json.dumps(body)[:200]}")
    if reply.status_code == 200:
        p.applied += 1


@pytest.mark.soak
def test_deep_act_fuzz_with_valid_tokens_and_leak_check(platform: Platform) -> None:
    p = platform

    @examples("deep")
    @given(
        seat=st.one_of(st.just("to-act"), st.integers(0, HUMANS - 1)),
        decision=st.one_of(st.just("open"), decisions),
        action=actions,
        body_seat=st.one_of(st.none(), st.integers(-2, 8), st.integers(-(2**63), 2**63 - 1), st.text(max_size=3)),
        query=long_queries,
        viewer=st.integers(0, HUMANS - 1),
        play=st.integers(0, 10**6) | st.none(),
    )
    def run(seat: int | str, decision: Any, action: Any, body_seat: Any, query: dict[str, str], viewer: int,
            play: int | None) -> None:
        p.ensure_live()
        if play is not None:  # a legal move first, so that the fuzzing reaches deep into the match
            fuzz_act(p, "to-act", "open", ("same", play), None, query)
        fuzz_act(p, seat, decision, action, body_seat, query)
        read_views(p, viewer, query)

    applied = p.applied
    run()
    assert p.applied - applied >= 10, "the fuzzed acts hardly ever moved the match on"


@pytest.mark.parametrize("decision", [2**63, -(2**63) - 1, 10**30])
def test_act_with_a_decision_outside_int64_is_a_4xx(platform: Platform, decision: int) -> None:
    p = platform
    p.ensure_live()
    for seat in range(HUMANS):
        reply = p.http.post(f"/api/matches/{p.match_id}/act", json={"decision": decision, "action": "pass"},
                            headers=auth(p.tokens[seat]))
        check_reply(p, reply, f"act decision {decision}")


ROUTES = [
    ("GET", "/api/cards"),
    ("GET", "/api/matches"),
    ("GET", "/api/matches/{id}"),
    ("GET", "/api/matches/{id}/observation"),
    ("GET", "/api/matches/{id}/legal-actions"),
    ("POST", "/api/matches/{id}/act"),
    ("POST", "/api/matches/{id}/join"),
    ("GET", "/api/matches/{id}/replay"),
    ("GET", "/api/matches/{id}/replay/steps"),
    ("POST", "/api/matches"),
    ("POST", "/api/guests"),
    ("GET", "/healthz"),
    ("GET", "/"),
]
PARAMS = ["ruleset", "view", "token", "events", "seat", "limit", "live", "last", "from", "x"]


def request_once_more(p: Platform, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """A request, sent again once if the pooled connection was dropped (the server closes
    a keep-alive connection after an unhandled error: that is the earlier request's fault)."""
    try:
        return p.http.request(method, path, **kwargs)
    except (httpx.ReadError, httpx.RemoteProtocolError):
        return p.http.request(method, path, **kwargs)


@pytest.mark.parametrize(("method", "route"), ROUTES)
def test_long_query_values_on_every_route(platform: Platform, method: str, route: str) -> None:
    """Thousands of characters in each query parameter of each route, with and without a
    valid seat token: a 4xx or a 2xx, never a 5xx or a traceback."""
    p = platform
    p.ensure_live()
    path = route.replace("{id}", p.match_id)
    failures = []
    for name in PARAMS:
        for value in ("a" * LONG, "9" * LONG, "-" + "1" * LONG, "é" * (LONG // 2)):
            for headers in ({}, auth(p.tokens[0])):
                body = {"decision": 10**6, "action": "pass"} if route.endswith("/act") else {}
                try:
                    reply = request_once_more(p, method, path, params={name: value}, headers=headers,
                                              json=body if method == "POST" else None)
                except httpx.TransportError as exc:
                    failures.append(f"{method} {route}?{name}=<{len(value)} x {value[:1]!r}>: {exc!r}")
                    continue
                if reply.status_code >= 500:
                    failures.append(f"{method} {route}?{name}=<{len(value)} chars> -> {reply.status_code}")
                    continue
                check_reply(p, reply, f"{method} {route}?{name}=<{len(value)}>")
    assert not failures, failures


def burst(p: Platform, n: int) -> list[int]:
    """``n`` mixed requests (acts, seat and spectator reads, creations); their statuses."""
    codes = []
    for i in range(n):
        seat = i % HUMANS
        requests = [
            ("POST", f"/api/matches/{p.match_id}/act", {"decision": 10**6, "action": "pass"}, p.tokens[seat]),
            ("GET", f"/api/matches/{p.match_id}/observation", None, p.tokens[seat]),
            ("GET", f"/api/matches/{p.match_id}/legal-actions", None, p.tokens[seat]),
            ("GET", f"/api/matches/{p.match_id}", None, ""),
            ("GET", "/api/matches", None, ""),
            ("POST", "/api/matches", {"players": 3, "humans": 3}, ""),
            ("POST", f"/api/matches/{p.match_id}/join", None, p.tokens[seat]),
        ]
        method, path, body, token = requests[i % len(requests)]
        try:
            reply = request_once_more(p, method, path, json=body, headers=auth(token) if token else {}, timeout=15)
        except httpx.TimeoutException:
            codes.append(0)
            continue
        check_reply(p, reply, f"{method} {path} (redis {'down' if p.redis_down else 'up'})")
        codes.append(reply.status_code)
    return codes


def test_redis_restart_in_the_middle_answers_503_then_recovers(platform: Platform) -> None:
    """Play on, stop Redis (its data flushed to the AOF), fuzz while it is down (503, never
    500), restart it on the same port with its data, and the match goes on where it was,
    every view still leak-free."""
    p = platform
    p.ensure_live()
    for i in range(12):  # some real play first
        fuzz_act(p, "to-act", "open", ("same", i), None, {})
    before = p.sync().game.decision_number
    port = p.server.port
    with p.rdb() as rdb, contextlib.suppress(redis.ConnectionError):
        rdb.shutdown(save=True)  # the AOF is flushed: the restart finds every write
    p.server.kill()
    p.redis_down = True
    try:
        codes = burst(p, 28)
    finally:
        p.server = RedisServer(port=port, appendonly=True, data_dir=p.data, password=p.server.password).start()
        wait_until(lambda: p.http.get(f"/api/matches/{p.match_id}/legal-actions",
                                      headers=auth(p.tokens[0])).status_code == 200, 60, "recovery after the restart")
        p.redis_down = False
    assert 503 in codes, codes
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.http.get("/healthz").status_code != 200:
        time.sleep(0.2)
    assert p.sync().game.decision_number >= before  # nothing lost
    # play goes on: the humans' moves at once, a bot seat's once its Celery worker has found
    # the restarted broker again (its reconnect backs off: one CI run saw no move in 12 tries)
    moved = lambda: p.sync().game.decision_number > before or p.mirror is None or p.mirror.game.is_over  # noqa: E731
    deadline = time.monotonic() + 90
    i = 0
    while i < 12 or (not moved() and time.monotonic() < deadline):
        fuzz_act(p, "to-act", "open", ("same", i), None, {})
        read_views(p, i % HUMANS, {})
        i += 1
        if i >= 12:
            time.sleep(0.5)
    assert moved(), (before, i)
