"""Matches through the gateway on the real platform: Redis, the engine gRPC service, Celery workers.

Issue 4, acceptance 1 (a 5-bot match created through the gateway plays to a winner and its
replay reproduces the final snapshot byte for byte) and 4 for the gateway (wrong token,
other seat's token, malformed body, stale / duplicate / out-of-turn / illegal actions each
get their documented HTTP error and the stored snapshot is unchanged), and a human seat
played through REST and the WebSocket.
"""

from __future__ import annotations

import base64
import contextlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from helpers.event_ids import stored_write_ids, writes_of
from helpers.gateway_procs import poll_json, start_gateway
from helpers.processes import ServiceProcess
from service_util import check_stream_and_history, stored
from websockets.sync.client import connect

from engine import Game
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def gateway(
    redis_url: str, engine: ServiceProcess, worker: ServiceProcess, proc_logs: Path
) -> Iterator[ServiceProcess]:
    proc = start_gateway(engine.address, proc_logs, redis_url=redis_url)
    yield proc
    proc.stop()


@pytest.fixture()
def http(gateway: ServiceProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=gateway.extra["url"], timeout=10) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(http: httpx.Client, name: str) -> str:
    reply = http.post("/api/guests", json={"name": name})
    assert reply.status_code == 201, reply.text
    token: str = reply.json()["token"]
    return token


def replay_reproduces(http: httpx.Client, stub: es_grpc.EngineServiceStub, match_id: str) -> dict[str, Any]:
    """The gateway's replay (and the engine's GetReplay) re-applied to a fresh Game."""
    replay = http.get(f"/api/matches/{match_id}/replay").json()
    grpc_replay = stub.GetReplay(es.GetReplayRequest(match_id=match_id))
    final = base64.b64decode(replay["final_snapshot"])
    assert final == grpc_replay.final_snapshot
    s = replay["settings"]
    game = Game.new(
        ruleset=s["ruleset"],
        players=s["players"],
        seed=int(s["seed"]),
        tutorial=s["tutorial"],
        characters=s["characters"],
    )
    for step in replay["actions"]:
        assert game.decision_number == step["decision"]
        game.apply(step["seat"], step["action"])
    assert game.is_over
    assert game.snapshot() == final
    return replay


@pytest.mark.parametrize("characters", [False, True], ids=["no-characters", "characters"])
def test_five_bot_match_plays_to_a_winner_and_replays(
    http: httpx.Client, stub: es_grpc.EngineServiceStub, rdb: redis.Redis, characters: bool
) -> None:
    body = {"players": 5, "humans": 0, "bot": "heuristic", "seed": 4242, "characters": characters}
    created = http.post("/api/matches", json=body)
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    assert [s["kind"] for s in created.json()["seats"]] == ["heuristic"] * 5
    info = poll_json(http, f"/api/matches/{match_id}", lambda d: d["observation"]["outcome"]["over"], timeout=90)
    outcome = info["observation"]["outcome"]
    assert outcome["winners"], outcome
    replay = replay_reproduces(http, stub, match_id)
    assert replay["outcome"]["winners"] == outcome["winners"]
    assert check_stream_and_history(rdb, match_id) == len(replay["actions"])


def wait_turn(http: httpx.Client, match_id: str, token: str, seat: int) -> dict[str, Any]:
    legal: dict[str, Any] = poll_json(
        http,
        f"/api/matches/{match_id}/legal-actions",
        lambda d: d["seat_to_act"] == seat,
        timeout=30,
        headers=bearer(token),
    )
    return legal


@dataclass
class Frozen:
    """A match waiting for a human seat (no turn timer), with tokens for both human seats."""

    match_id: str
    mine: int  # the human seat to act
    theirs: int  # the other human seat
    token: str  # seat token of ``mine``
    other_token: str  # seat token of ``theirs``
    player: str  # a player token
    foreign_token: str  # a seat token of another match
    decision: int
    actions: list[str]

    @property
    def url(self) -> str:
        return f"/api/matches/{self.match_id}"


@pytest.fixture(scope="module")
def frozen(gateway: ServiceProcess) -> Frozen:
    """One frozen match shared by the tests that change nothing."""
    with httpx.Client(base_url=gateway.extra["url"], timeout=10) as http:
        return freeze(http)


def freeze(http: httpx.Client) -> Frozen:
    """Create a match with two human seats and wait until one of them must act."""
    creator = guest(http, "ann")
    created = http.post(
        "/api/matches", json={"players": 5, "humans": 2, "bot": "random"}, headers=bearer(creator)
    ).json()
    match_id = created["match_id"]
    assert created["seat"] == 0
    joined = http.post(f"/api/matches/{match_id}/join", headers=bearer(guest(http, "ben"))).json()
    assert joined["seat"] == 1
    tokens = {0: created["seat_token"], 1: joined["seat_token"]}
    other = http.post("/api/matches", json={"players": 3, "humans": 1}, headers=bearer(creator)).json()
    first = poll_json(
        http,
        f"/api/matches/{match_id}/legal-actions",
        lambda d: d["seat_to_act"] in (0, 1),
        30,
        headers=bearer(tokens[0]),
    )
    mine = first["seat_to_act"]
    legal = wait_turn(http, match_id, tokens[mine], mine)
    return Frozen(
        match_id=match_id,
        mine=mine,
        theirs=1 - mine,
        token=tokens[mine],
        other_token=tokens[1 - mine],
        player=creator,
        foreign_token=other["seat_token"],
        decision=legal["decision"],
        actions=legal["actions"],
    )


def _forged(token: str) -> str:
    return token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")


#: (what, headers(frozen), body(frozen), HTTP status, error code ("" = any))
BAD_ACTS: list[tuple[str, Callable[[Frozen], dict[str, str]], Callable[[Frozen], Any], int, str]] = [
    ("no-token", lambda f: {}, lambda f: {"decision": f.decision, "action": f.actions[0]}, 401, "unauthenticated"),
    (
        "forged-token",
        lambda f: bearer(_forged(f.token)),
        lambda f: {"decision": f.decision, "action": f.actions[0]},
        401,
        "unauthenticated",
    ),
    (
        "player-token-not-seat-token",
        lambda f: bearer(f.player),
        lambda f: {"decision": f.decision, "action": f.actions[0]},
        401,
        "unauthenticated",
    ),
    (
        "seat-token-of-another-match",
        lambda f: bearer(f.foreign_token),
        lambda f: {"decision": f.decision, "action": f.actions[0]},
        403,
        "forbidden",
    ),
    (
        "other-seat-token-naming-this-seat",
        lambda f: bearer(f.other_token),
        lambda f: {"decision": f.decision, "action": f.actions[0], "seat": f.mine},
        403,
        "forbidden",
    ),
    (
        "other-seat-token-out-of-turn",
        lambda f: bearer(f.other_token),
        lambda f: {"decision": f.decision, "action": f.actions[0]},
        409,
        "failed_precondition",
    ),
    ("malformed-decision", lambda f: bearer(f.token), lambda f: {"decision": "x", "action": "pass"}, 422, ""),
    ("malformed-no-action", lambda f: bearer(f.token), lambda f: {"decision": f.decision}, 422, "malformed_request"),
    (
        "malformed-extra-field",
        lambda f: bearer(f.token),
        lambda f: {"decision": f.decision, "action": f.actions[0], "extra": 1},
        422,
        "malformed_request",
    ),
    (
        "stale-decision",
        lambda f: bearer(f.token),
        lambda f: {"decision": f.decision - 1, "action": f.actions[0]},
        409,
        "failed_precondition",
    ),
    (
        "future-decision",
        lambda f: bearer(f.token),
        lambda f: {"decision": f.decision + 5, "action": f.actions[0]},
        409,
        "failed_precondition",
    ),
    (
        "illegal-action",
        lambda f: bearer(f.token),
        lambda f: {"decision": f.decision, "action": "send 999 secret"},
        400,
        "invalid_argument",
    ),
    (
        "not-notation",
        lambda f: bearer(f.token),
        lambda f: {"decision": f.decision, "action": "fly to the moon"},
        400,
        "invalid_argument",
    ),
]


@pytest.mark.parametrize(("what", "headers", "body", "status", "code"), BAD_ACTS, ids=[c[0] for c in BAD_ACTS])
def test_a_bad_act_gets_its_error_and_changes_nothing(
    http: httpx.Client,
    rdb: redis.Redis,
    frozen: Frozen,
    what: str,
    headers: Callable[[Frozen], dict[str, str]],
    body: Callable[[Frozen], Any],
    status: int,
    code: str,
) -> None:
    before = stored(rdb, frozen.match_id)
    before_obs = http.get(f"{frozen.url}/observation", headers=bearer(frozen.token)).json()
    reply = http.post(f"{frozen.url}/act", json=body(frozen), headers=headers(frozen))
    assert reply.status_code == status, reply.text
    error = reply.json()["error"]
    assert error["status"] == status and (not code or error["code"] == code), error
    if status == 400:
        assert error["legal_actions"] == frozen.actions and error["decision"] == frozen.decision
    assert stored(rdb, frozen.match_id) == before
    assert http.get(f"{frozen.url}/observation", headers=bearer(frozen.token)).json() == before_obs


def test_a_body_that_is_not_json_is_malformed(http: httpx.Client, rdb: redis.Redis, frozen: Frozen) -> None:
    before = stored(rdb, frozen.match_id)
    headers = {**bearer(frozen.token), "content-type": "application/json"}
    reply = http.post(f"{frozen.url}/act", content=b"{not json", headers=headers)
    assert reply.status_code == 422 and reply.json()["error"]["code"] == "malformed_request"
    assert stored(rdb, frozen.match_id) == before


def test_a_seat_token_sees_only_its_seat(http: httpx.Client, frozen: Frozen) -> None:
    url = frozen.url
    assert (
        http.get(f"{url}/observation", params={"seat": frozen.theirs}, headers=bearer(frozen.token)).status_code == 403
    )
    assert http.get(f"{url}/observation", headers=bearer(frozen.foreign_token)).status_code == 403
    assert http.get(f"{url}/observation", headers=bearer(_forged(frozen.token))).status_code == 401
    assert http.get(f"{url}/observation").status_code == 401
    seen = http.get(f"{url}/observation", headers=bearer(frozen.other_token)).json()
    assert seen["viewer"] == frozen.theirs
    assert seen["seats"][frozen.mine]["hand"] == [] and seen["seats"][frozen.theirs]["hand"]
    assert seen["legal_actions"] == []
    legal = http.get(f"{url}/legal-actions", headers=bearer(frozen.other_token)).json()
    assert legal["actions"] == [] and legal["seat_to_act"] == frozen.mine
    assert http.get(f"{url}/replay").status_code == 409  # not over: a replay would reveal hands


def test_a_duplicate_act_is_applied_once(http: httpx.Client, rdb: redis.Redis, stub: es_grpc.EngineServiceStub) -> None:
    frozen = freeze(http)  # its own match: this test changes it
    before = stored(rdb, frozen.match_id)
    body = {"decision": frozen.decision, "action": frozen.actions[0]}
    done = http.post(f"{frozen.url}/act", json=body, headers=bearer(frozen.token))
    assert done.status_code == 200, done.text
    assert stored(rdb, frozen.match_id)[0] > before[0]
    again = http.post(f"{frozen.url}/act", json=body, headers=bearer(frozen.token))
    assert again.status_code == 409 and again.json()["error"]["code"] == "failed_precondition"
    history = stub.GetReplay(es.GetReplayRequest(match_id=frozen.match_id)).actions
    assert [(a.seat, a.action) for a in history if a.decision == frozen.decision] == [(frozen.mine, frozen.actions[0])]


def test_a_human_seat_plays_through_rest_and_websocket(
    http: httpx.Client, gateway: ServiceProcess, stub: es_grpc.EngineServiceStub, rdb: redis.Redis
) -> None:
    token = guest(http, "cora")
    created = http.post(
        "/api/matches", json={"players": 5, "humans": 1, "bot": "random", "seed": 99}, headers=bearer(token)
    ).json()
    match_id, seat_token, seat = created["match_id"], created["seat_token"], created["seat"]
    rng = random.Random(5)

    # two decisions through REST
    answered: set[int] = set()
    for _ in range(2):
        legal = wait_turn(http, match_id, seat_token, seat)
        reply = http.post(
            f"/api/matches/{match_id}/act",
            json={"decision": legal["decision"], "action": rng.choice(legal["actions"])},
            headers=bearer(seat_token),
        )
        assert reply.status_code == 200, reply.text
        answered.add(legal["decision"])

    # the rest through the WebSocket
    ws_url = f"ws://{gateway.address}/ws/matches/{match_id}?token={seat_token}"
    prompts = results = templated = 0
    outcome: dict[str, Any] | None = None
    ids: list[str] = []
    with connect(ws_url, open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello.pop("server_ms") > 0  # every message of a match socket: the gateway's clock
        assert hello == {"type": "hello", "match_id": match_id, "seat": seat}
        observation = json.loads(ws.recv(timeout=10))["observation"]
        assert observation["viewer"] == seat
        assert all(s["hand"] == [] for s in observation["seats"] if s["seat"] != seat)
        if observation["outcome"]["over"]:
            outcome = observation["outcome"]
        while outcome is None:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "prompt":
                prompts += 1
                # worded by the ruleset's text table in any language (issue 16 §1)
                assert isinstance(message["args"], dict), message
                templated += bool(message["template"])
                ws.send(json.dumps({"decision": message["decision"], "action": rng.choice(message["legal_actions"])}))
            elif message["type"] == "result":
                results += 1
                # A prompt replayed on connect may be one already answered through REST: the
                # same answer again is a harmless duplicate, so count decisions, not replies.
                answered.add(message["decision"])
            elif message["type"] == "event":
                audience = message["event"]["audience"]
                assert not audience or seat in audience, message
                ids.append(message["event_id"])
            elif message["type"] == "error":
                # a prompt can go stale if a timer fired; nothing else may fail
                assert message["error"]["status"] == 409, message
            elif message["type"] == "game_over":
                outcome = message["outcome"]
        # The game-over line comes from the Watch stream, the result of the move that ended
        # the game from the Act reply: they race, so read on until that result is in.
        with contextlib.suppress(TimeoutError):
            while prompts > results:
                message = json.loads(ws.recv(timeout=3))
                if message["type"] == "result":
                    results += 1
                    answered.add(message["decision"])
                elif message["type"] == "error":
                    assert message["error"]["status"] == 409, message
                    prompts -= 1  # answered by a timer or through REST already
    assert outcome is not None and outcome["over"] and outcome["winners"]
    assert results <= prompts
    assert prompts == 0 or templated > 0, "prompt messages carry their template"
    replay = replay_reproduces(http, stub, match_id)
    human_moves = [a for a in replay["actions"] if a["seat"] == seat]
    assert len(human_moves) == len(answered)
    # the socket's ids: every stored write's, each numbered by the seat's own events only
    # (docs/security.md, "Event ids")
    assert writes_of(ids) == stored_write_ids(rdb, match_id)


def test_a_spectator_sees_public_events_only(http: httpx.Client, gateway: ServiceProcess, rdb: redis.Redis) -> None:
    created = http.post("/api/matches", json={"players": 4, "humans": 0, "bot": "random", "seed": 12}).json()
    match_id = created["match_id"]
    events = pushed = 0
    ids: list[str] = []
    with connect(f"ws://{gateway.address}/ws/matches/{match_id}/spectate", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["seat"] == -1
        observation = json.loads(ws.recv(timeout=10))["observation"]
        assert all(s["hand"] == [] for s in observation["seats"])
        while True:
            message = json.loads(ws.recv(timeout=60))
            assert message["type"] in ("event", "observation", "game_over"), message
            if message["type"] == "game_over":
                break
            if message["type"] == "observation":  # pushed after a write: the public view only
                pushed += 1
                assert message["observation"]["viewer"] == -1
                assert all(s["hand"] == [] for s in message["observation"]["seats"]), message
                assert message["observation"]["legal_actions"] == []
                continue
            events += 1
            ids.append(message["event_id"])
            audience = message["event"]["audience"]
            assert not audience or -1 in audience, message  # public, or explicitly shown to spectators
    assert events > 0 and pushed > 0
    assert writes_of(ids) == stored_write_ids(rdb, match_id)  # nothing of the seats' own events
