"""Property-based fuzzing (hypothesis) of the gateway: random and malformed HTTP requests
(methods, paths, tokens, queries, bodies) and WebSocket connections and messages.

Properties: never a 5xx (nor a WebSocket closed with 1011 "internal error"); every error has
the documented body ``{"error": {"status", "code", "message"}}``; and a rejected request
changes nothing: the match's stored version, snapshot, history and event stream are the
same before and after. A second gateway with a small per-token limit answers 429 (and the
WebSocket an error message) beyond the limit, without touching the match.

Profiles: ``FENGSHENG_FUZZ_PROFILE=ci`` (default) or ``bench`` (``python bench/fuzz.py``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import redis
from helpers.gateway_procs import wait_until
from helpers.processes import ServiceProcess, redis_env, spawn, start_engine_server, wait_for_log
from helpers.soak import soak_count
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_util import stored
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from services.engine.store import state_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

_COMMON = {
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
#: ./dev test: 100 examples per property (soak tier, tests/helpers/soak.py); FENGSHENG_SOAK=full: 250
settings.register_profile("ci", max_examples=soak_count(full=250, ci=100), derandomize=True, **_COMMON)
settings.register_profile("bench", max_examples=int(os.environ.get("FENGSHENG_FUZZ_EXAMPLES") or 3000), **_COMMON)
PROFILE = os.environ.get("FENGSHENG_FUZZ_PROFILE", "ci")
SCALE = {"http": 3.0, "act": 1.0, "ws": 1.0, "ws_connect": 0.3}


def examples(kind: str) -> settings:
    base = settings.get_profile(PROFILE)
    return settings(base, max_examples=max(10, int(base.max_examples * SCALE[kind])))


DB = 10


def _db(redis_url: str, db: int) -> str:
    base = redis_url.rsplit("/", 1)[0] if redis_url.count("/") > 2 else redis_url
    return f"{base}/{db}"


@dataclass
class Site:
    engine: ServiceProcess
    gateway: ServiceProcess
    http: httpx.Client
    rdb: redis.Redis
    match_id: str
    seat_tokens: dict[int, str]
    player_token: str
    other_match_token: str

    @property
    def url(self) -> str:
        return str(self.gateway.extra["url"])

    def state(self) -> Any:
        return stored(self.rdb, self.match_id)

    def ensure_live(self) -> None:
        """A fresh match when the current one is over (valid fuzz actions may finish it)."""
        legal = self.http.get(f"/api/matches/{self.match_id}/legal-actions", headers=auth(self.seat_tokens[0]))
        if legal.status_code == 200 and legal.json()["seat_to_act"] < 0:
            self.match_id, self.seat_tokens = human_match(self.http, 5)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def human_match(http: httpx.Client, players: int) -> tuple[str, dict[int, str]]:
    creator = http.post("/api/guests", json={"name": "c"}).json()["token"]
    created = http.post(
        "/api/matches", json={"players": players, "humans": players, "turn_timeout_ms": 0}, headers=auth(creator)
    ).json()
    tokens = {created["seat"]: created["seat_token"]}
    for i in range(1, players):
        guest = http.post("/api/guests", json={"name": f"g{i}"}).json()["token"]
        joined = http.post(f"/api/matches/{created['match_id']}/join", headers=auth(guest)).json()
        tokens[joined["seat"]] = joined["seat_token"]
    return created["match_id"], tokens


def _gateway(engine: str, logs: Path, redis_url: str, *extra: str) -> ServiceProcess:
    args = ["gateway", "--engine", engine, "--port", "0"]
    proc = spawn("gateway", [*args, *extra], logs, {"FENGSHENG_SECRET": "integration-secret", **redis_env(redis_url)})
    url = wait_for_log(proc, r"listening on (http://\S+)").group(1)
    proc.extra["url"] = url
    wait_until(lambda: httpx.get(f"{url}/healthz", timeout=2).status_code == 200, 30, "gateway health")
    return proc


@pytest.fixture(scope="module")
def site(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    url = _db(redis_url, DB)
    logs = tmp_path_factory.mktemp("fuzz-gateway")
    engine = start_engine_server(url, logs, celery=False)
    # no rate limit here (the fuzzing is fast); the limit has its own test below
    gateway = _gateway(engine.address, logs, url, "--rate-limit", "0")
    http = httpx.Client(base_url=gateway.extra["url"], timeout=20)
    rdb = redis.Redis.from_url(url)
    match_id, tokens = human_match(http, 5)
    _other_id, other_tokens = human_match(http, 3)
    player = http.post("/api/guests", json={"name": "fuzz"}).json()["token"]
    yield Site(engine, gateway, http, rdb, match_id, tokens, player, other_tokens[0])
    http.close()
    gateway.stop()
    engine.stop()
    assert "Traceback" not in gateway.log(), gateway.log()[-4000:]
    rdb.flushdb()
    rdb.close()


# ---------------------------------------------------------------------------- strategies
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
act_bodies = st.fixed_dictionaries(
    {},
    optional={
        "decision": st.one_of(st.integers(-(2**70), 2**70), st.integers(0, 60), st.text(max_size=5), st.none()),
        "action": st.one_of(
            st.text(max_size=30),
            st.text(min_size=195, max_size=210),
            st.sampled_from(["pass", "declare", "accept", "decline", "choose 1", "send 3 to 1", " pass", "pass\n"]),
            st.integers(),
        ),
        "seat": st.one_of(st.integers(-(2**40), 2**40), st.integers(-1, 7), st.text(max_size=3)),
        "type": st.sampled_from(["act", "ping", ""]),
    },
)
bodies = st.one_of(
    st.none(),
    act_bodies.map(json.dumps),
    json_values.map(lambda v: json.dumps(v, allow_nan=True)),
    st.binary(max_size=80).map(lambda b: b.decode("latin-1")),
    st.fixed_dictionaries(
        {},
        optional={
            "players": st.integers(-3, 12),
            "humans": st.integers(-2, 9),
            "bot": st.sampled_from(["random", "heuristic", "human", "x"]),
            "seats": st.lists(st.sampled_from(["human", "random", "external", "bogus"]), max_size=9),
            "seed": st.integers(-(2**64), 2**64),
            "turn_timeout_ms": st.floats(),
            "bot_delay_ms": st.floats(),
            "match_id": st.text(max_size=70),
            "name": st.text(max_size=40),
            "ruleset": st.text(max_size=10),
        },
    ).map(lambda d: json.dumps(d, allow_nan=True)),
)
paths = st.sampled_from(
    [
        "/api/matches/{id}/act",
        "/api/matches/{id}/act",
        "/api/matches/{id}/observation",
        "/api/matches/{id}/legal-actions",
        "/api/matches/{id}/join",
        "/api/matches/{id}/replay",
        "/api/matches/{id}/replay/steps",
        "/api/matches/{id}",
        "/api/matches",
        "/api/guests",
        "/api/cards",
        "/healthz",
        "/{junk}",
        "/api/{junk}/act",
    ]
)
ids = st.one_of(
    st.just("MATCH"), st.just("MATCH"), st.just("nosuchmatch"), st.text(max_size=20), st.just("..%2F..%2Fetc")
)
tokens = st.sampled_from(["seat", "seat", "other_seat", "other_match", "player", "garbage", "none", "query", "empty"])
LONG = 5000
queries = st.dictionaries(
    st.sampled_from(["events", "seat", "limit", "live", "ruleset", "view", "token", "from", "x"]),
    st.one_of(st.text(max_size=12), st.integers(-(2**70), 2**70).map(str), st.sampled_from(["true", "-1", "all"])),
    max_size=3,
) | st.dictionaries(
    # thousands of characters
    st.sampled_from(["events", "seat", "limit", "live", "ruleset", "view", "token", "from", "x"]),
    st.one_of(st.text(min_size=LONG - 100, max_size=LONG), st.just("a" * LONG), st.just("9" * LONG)),
    min_size=1,
    max_size=2,
)


def _headers_and_query(site: Site, token: str, query: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    headers: dict[str, str] = {}
    value = {
        "seat": site.seat_tokens[0],
        "other_seat": site.seat_tokens[1],
        "other_match": site.other_match_token,
        "player": site.player_token,
        "garbage": "abc.def",
        "query": "",
        "none": "",
        "empty": "",
    }[token]
    if token == "query":
        query = {**query, "token": site.seat_tokens[0]}
    elif token == "empty":
        headers["Authorization"] = "Bearer"
    elif token != "none":
        headers["Authorization"] = f"Bearer {value}"
    return headers, query


def _check_reply(reply: httpx.Response, what: str) -> None:
    assert reply.status_code < 500, f"{what} -> {reply.status_code} {reply.text[:500]}"
    if reply.status_code >= 400:
        body = reply.json()
        assert set(body["error"]) >= {"status", "code", "message"}, body
        assert body["error"]["status"] == reply.status_code


@pytest.mark.soak
def test_http_fuzz_no_5xx_and_rejections_change_nothing(site: Site) -> None:
    @examples("http")
    @given(
        method=st.sampled_from(["GET", "POST", "POST", "PUT", "DELETE", "PATCH"]),
        path=paths,
        match=ids,
        junk=st.text(alphabet="abcxyz/._-%", max_size=12),
        token=tokens,
        query=queries,
        body=bodies,
        content_type=st.sampled_from(["application/json", "text/plain", ""]),
    )
    def run(
        method: str,
        path: str,
        match: str,
        junk: str,
        token: str,
        query: dict[str, str],
        body: str | None,
        content_type: str,
    ) -> None:
        site.ensure_live()
        mid = site.match_id if match == "MATCH" else match
        target = path.replace("{id}", quote(mid, safe="%")).replace("{junk}", quote(junk, safe="/%"))
        headers, query = _headers_and_query(site, token, query)
        if content_type:
            headers["content-type"] = content_type
        before = site.state()
        reply = site.http.request(method, target, params=query, content=body, headers=headers)
        _check_reply(reply, f"{method} {target} {query} {body!r:.200}")
        if reply.status_code >= 400 or not target.endswith("/act"):
            assert site.state() == before, f"{method} {target} ({reply.status_code}) changed the match"

    run()


@pytest.mark.soak
def test_act_fuzz_near_valid_actions(site: Site) -> None:
    """Acts that are almost right: the open decision +-1, legal actions mutated, other seats."""

    @examples("act")
    @given(
        offset=st.integers(-2, 2),
        seat=st.integers(0, 4),
        index=st.integers(0, 1000),
        mutate=st.sampled_from(["same", "same", "suffix", "prefix", "upper", "cut", "space"]),
        extra_seat=st.one_of(st.none(), st.integers(-1, 6)),
    )
    def run(offset: int, seat: int, index: int, mutate: str, extra_seat: int | None) -> None:
        site.ensure_live()
        probe = site.http.get(f"/api/matches/{site.match_id}/legal-actions", headers=auth(site.seat_tokens[0]))
        to_act = probe.json()["seat_to_act"]
        acting = to_act if seat == 0 and to_act >= 0 else seat
        legal = site.http.get(f"/api/matches/{site.match_id}/legal-actions", headers=auth(site.seat_tokens[acting]))
        data = legal.json()
        options = data["actions"] or ["pass"]
        base = options[index % len(options)]
        action = {
            "same": base,
            "suffix": base + " 99",
            "prefix": "x" + base,
            "upper": base.upper(),
            "cut": base[:-1] or "?",
            "space": " " + base + " ",
        }[mutate]
        body: dict[str, Any] = {"decision": data["decision"] + offset, "action": action}
        if extra_seat is not None:
            body["seat"] = extra_seat
        before = site.state()
        reply = site.http.post(f"/api/matches/{site.match_id}/act", json=body, headers=auth(site.seat_tokens[acting]))
        _check_reply(reply, f"act {body}")
        if reply.status_code != 200:
            assert site.state() == before, f"rejected act {body} changed the match"

    run()


ws_messages = st.one_of(
    act_bodies.map(json.dumps),
    json_values.map(lambda v: json.dumps(v, allow_nan=True)),
    st.text(max_size=60),
)


@pytest.mark.soak
def test_websocket_message_fuzz(site: Site) -> None:
    """One seat socket; every message sent gets exactly one `result` or `error` answer."""
    ws_url = site.url.replace("http://", "ws://")

    sockets: dict[str, Any] = {}

    def socket() -> Any:
        ws = sockets.get(site.match_id)
        if ws is None:
            for old in sockets.values():
                old.close()
            sockets.clear()
            ws = connect(f"{ws_url}/ws/matches/{site.match_id}?token={site.seat_tokens[1]}", open_timeout=10)
            sockets[site.match_id] = ws
        return ws

    @examples("ws")
    @given(message=ws_messages)
    def run(message: str) -> None:
        site.ensure_live()
        before = site.state()
        ws = socket()
        ws.send(message)
        while True:
            reply = json.loads(ws.recv(timeout=10))
            if reply["type"] in ("error", "result"):
                break
        if reply["type"] == "error":
            assert reply["error"]["status"] < 500, reply
            assert site.state() == before, f"rejected WS message {message!r:.200} changed the match"

    try:
        run()
    finally:
        for ws in sockets.values():
            ws.close()


@pytest.mark.soak
def test_websocket_connect_fuzz(site: Site) -> None:
    ws_url = site.url.replace("http://", "ws://")

    @examples("ws_connect")
    @given(
        match=ids,
        token=st.one_of(st.sampled_from(["seat", "other_match", "player", "garbage", ""]), st.text(max_size=20)),
        spectate=st.booleans(),
        start=st.one_of(st.just(""), st.text(max_size=12)),
    )
    def run(match: str, token: str, spectate: bool, start: str) -> None:
        mid = site.match_id if match == "MATCH" else match
        value = {"seat": site.seat_tokens[0], "other_match": site.other_match_token, "player": site.player_token}
        params = {"token": value.get(token, token), "from": start}
        suffix = "/spectate" if spectate else ""
        target = httpx.URL(f"{ws_url}/ws/matches/{quote(mid, safe='')}{suffix}", params=params)
        before = site.state()
        try:
            with connect(str(target), open_timeout=10) as ws:
                for _ in range(3):
                    reply = json.loads(ws.recv(timeout=2))
                    if reply.get("type") == "error":
                        assert reply["error"]["status"] < 500, reply
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            assert code != 1011 and not 4500 <= code < 4600, f"{target}: closed {code}"
        except InvalidStatus as refused:
            assert refused.response.status_code < 500, f"{target}: handshake {refused.response.status_code}"
        except TimeoutError:
            pass  # a live stream with nothing new to say
        assert site.state() == before

    run()


def test_rate_limit_answers_429_and_changes_nothing(site: Site, tmp_path: Path) -> None:
    """A gateway with 5 requests/s and a burst of 10 per token (in Redis)."""
    url = site.rdb.connection_pool.connection_kwargs
    auth_part = f":{url['password']}@" if url.get("password") else ""  # the fixture's Redis has one
    redis_url = f"redis://{auth_part}{url['host']}:{url['port']}/{url.get('db', 0)}"
    gw = _gateway(site.engine.address, tmp_path, redis_url, "--rate-limit", "5", "--rate-burst", "10")
    try:
        base = gw.extra["url"]
        with httpx.Client(base_url=base, timeout=10) as http:
            before = site.state()
            token = site.seat_tokens[0]
            codes = [
                http.post(
                    f"/api/matches/{site.match_id}/act", json={"decision": 10**6, "action": "pass"}, headers=auth(token)
                ).status_code
                for _ in range(25)
            ]
            assert codes.count(429) >= 10 and set(codes) <= {409, 429}, codes
            limited = http.get(f"/api/matches/{site.match_id}/observation", headers=auth(token))
            assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
            assert int(limited.headers["retry-after"]) >= 1
            # another token has its own bucket; health and metrics are never limited
            other = http.get(f"/api/matches/{site.match_id}/observation", headers=auth(site.seat_tokens[1]))
            assert other.status_code == 200
            assert all(http.get("/healthz").status_code == 200 for _ in range(20))
            ws_url = base.replace("http://", "ws://")
            with connect(f"{ws_url}/ws/matches/{site.match_id}?token={site.seat_tokens[2]}", open_timeout=10) as ws:
                for _ in range(15):
                    ws.send(json.dumps({"decision": 10**6, "action": "pass"}))
                kinds = []
                while len(kinds) < 15:
                    reply = json.loads(ws.recv(timeout=10))
                    if reply["type"] == "error":
                        kinds.append(reply["error"]["status"])
                assert 429 in kinds and set(kinds) <= {409, 429}, kinds
            assert site.state() == before
            metrics = http.get("/metrics").text
            assert 'fengsheng_gateway_rate_limited_total{transport="http"}' in metrics
    finally:
        gw.stop()


def test_state_key_helper_matches_layout(site: Site) -> None:
    assert site.rdb.exists(state_key(site.match_id))
