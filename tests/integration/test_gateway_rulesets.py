"""The ruleset is a setting (issue 12): the engine service's ``ListRulesets`` and its checks
on ``CreateMatch``, and the gateway's ``GET /api/rulesets``, ``GET /api/cards``, match
creation, match views, listings and replays, on the real engine, Redis and Celery worker.
Parametrized over ``RULESET_IDS``: every registered ruleset is exercised."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import httpx
import pytest
from helpers.gateway_procs import start_gateway
from helpers.processes import ServiceProcess

from engine.rulesets import RULESET_IDS, get_ruleset
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
    with httpx.Client(base_url=gateway.extra["url"], timeout=15) as client:
        yield client


def test_list_rulesets_is_the_registry(stub: es_grpc.EngineServiceStub) -> None:
    answer = stub.ListRulesets(es.ListRulesetsRequest())
    assert [r.id for r in answer.rulesets] == list(RULESET_IDS)
    assert answer.default_ruleset in RULESET_IDS
    for info in answer.rulesets:
        assert list(info.players) == sorted(get_ruleset(info.id).identity_table)
        assert len(info.cards) == get_ruleset(info.id).cards.count


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_create_match_checks_the_ruleset_and_its_player_counts(
    stub: es_grpc.EngineServiceStub, ruleset_id: str
) -> None:
    counts = sorted(get_ruleset(ruleset_id).identity_table)
    for players in (counts[0] - 1, counts[-1] + 1):
        with pytest.raises(grpc.RpcError) as caught:
            stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(ruleset=ruleset_id, players=players)))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert f"{counts[0]} to {counts[-1]} players, not {players}" in (caught.value.details() or "")
    created = stub.CreateMatch(
        es.CreateMatchRequest(settings=es.MatchSettings(ruleset=ruleset_id, players=counts[-1]))
    )
    observation = stub.GetObservation(es.GetObservationRequest(match_id=created.match_id, seat=-1))
    assert observation.ruleset == ruleset_id and observation.players == counts[-1]


def test_create_match_refuses_an_unknown_ruleset_naming_the_known_ones(stub: es_grpc.EngineServiceStub) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(ruleset="nosuchedition", players=5)))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert all(rid in (caught.value.details() or "") for rid in RULESET_IDS)


def test_the_gateway_lists_every_ruleset(http: httpx.Client) -> None:
    reply = http.get("/api/rulesets")
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert [r["id"] for r in body["rulesets"]] == list(RULESET_IDS)
    assert body["default"] == RULESET_IDS[0]
    for entry in body["rulesets"]:
        rules = get_ruleset(entry["id"])
        assert entry["zh"] == rules.zh
        assert entry["players"] == sorted(rules.identity_table)
        assert (entry["min_players"], entry["max_players"]) == (min(rules.identity_table), max(rules.identity_table))
        assert entry["identities"] == list(rules.identities)
        assert entry["characters"] == bool(rules.characters)
        assert [c["id"] for c in entry["character_table"]] == list(rules.characters)
        assert entry["cards"] == rules.cards.count


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_card_endpoint_serves_each_rulesets_deck(http: httpx.Client, ruleset_id: str) -> None:
    rules = get_ruleset(ruleset_id)
    body = http.get("/api/cards", params={"ruleset": ruleset_id}).json()
    assert body["ruleset"] == ruleset_id and body["zh"] == rules.zh
    assert sorted(map(int, body["cards"])) == list(rules.cards.all_cards)
    for number, card in body["cards"].items():
        assert card["function"] == rules.cards.function[int(number)]
        assert card["function_zh"] == rules.cards.function_zh[int(number)]
        assert card["color"] and card["transmission"]


def test_the_card_endpoint_refuses_what_is_not_a_registered_ruleset(http: httpx.Client) -> None:
    assert http.get("/api/cards").json()["ruleset"] == RULESET_IDS[0]
    for bad in ("nosuchedition", "../return", "return/../../etc", "RETURN"):
        reply = http.get("/api/cards", params={"ruleset": bad})
        assert reply.status_code == 404, (bad, reply.text)
        assert all(rid in reply.json()["error"]["message"] for rid in RULESET_IDS)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_gateway_creation_is_checked_per_ruleset(http: httpx.Client, ruleset_id: str) -> None:
    counts = sorted(get_ruleset(ruleset_id).identity_table)
    for players in (counts[0] - 1, counts[-1] + 1):
        reply = http.post("/api/matches", json={"ruleset": ruleset_id, "players": players, "humans": 0})
        assert reply.status_code == 422, reply.text
        message = reply.json()["error"]["message"]
        assert ruleset_id in message and f"{counts[0]} to {counts[-1]} players, not {players}" in message
        reply = http.post("/api/matches", json={"ruleset": ruleset_id, "seats": ["random"] * players})
        assert reply.status_code == 422, reply.text


def test_gateway_creation_refuses_an_unknown_ruleset(http: httpx.Client) -> None:
    reply = http.post("/api/matches", json={"ruleset": "nosuchedition", "players": 5, "humans": 0})
    assert reply.status_code == 422, reply.text
    assert all(rid in reply.json()["error"]["message"] for rid in RULESET_IDS)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_view_of_a_match_names_its_ruleset(http: httpx.Client, ruleset_id: str) -> None:
    """A bots-only match of the ruleset's largest size, played to the end by the workers:
    its creation answer, match view, observation, listing, replay steps and replay name it."""
    players = max(get_ruleset(ruleset_id).identity_table)
    body = {"ruleset": ruleset_id, "players": players, "humans": 0, "bot": "random"}
    created = http.post("/api/matches", json=body)
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    assert created.json()["ruleset"] == ruleset_id
    info = http.get(f"/api/matches/{match_id}").json()
    assert info["ruleset"] == ruleset_id and info["observation"]["ruleset"] == ruleset_id
    assert info["settings"]["ruleset"] == ruleset_id and len(info["seats"]) == players
    listed = {m["match_id"]: m for m in http.get("/api/matches", params={"limit": 100}).json()["matches"]}
    assert listed[match_id]["ruleset"] == ruleset_id
    deadline = time.monotonic() + 120
    while not http.get(f"/api/matches/{match_id}").json()["observation"]["outcome"]["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.3)
    steps = http.get(f"/api/matches/{match_id}/replay/steps", params={"view": "all", "last": "true"}).json()
    assert steps["ruleset"] == ruleset_id and steps["settings"]["ruleset"] == ruleset_id
    assert all(o["ruleset"] == ruleset_id for o in steps["observations"])
    replay = http.get(f"/api/matches/{match_id}/replay").json()
    assert replay["ruleset"] == ruleset_id and replay["settings"]["ruleset"] == ruleset_id
