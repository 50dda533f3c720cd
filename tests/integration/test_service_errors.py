"""Every rejected request gets its documented status code and error kind, and the stored
match (version, snapshot, history, event stream) is unchanged (docs/protocol.md)."""

from __future__ import annotations

import json

import grpc
import pytest
import redis
from service_util import stored

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


def _human_match(stub: es_grpc.EngineServiceStub, seed: int) -> tuple[str, es.LegalActions]:
    res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=seed)))
    seat = res.pending.seat
    legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=res.match_id, seat=seat))
    assert legal.decision == res.pending.number and legal.seat_to_act == seat and legal.actions
    return res.match_id, legal


def _act(stub: es_grpc.EngineServiceStub, match_id: str, seat: int, decision: int, action: str) -> es.ActResponse:
    return stub.Act(es.ActRequest(match_id=match_id, seat=seat, decision=decision, action=action, origin="human"))


def _rejected(
    stub: es_grpc.EngineServiceStub, match_id: str, seat: int, decision: int, action: str
) -> tuple[grpc.StatusCode, dict[str, str], str]:
    with pytest.raises(grpc.RpcError) as info:
        _act(stub, match_id, seat, decision, action)
    err = info.value
    return err.code(), dict(err.trailing_metadata() or ()), err.details()


def _advance(stub: es_grpc.EngineServiceStub, match_id: str, legal: es.LegalActions) -> tuple[str, es.ActResponse]:
    action = legal.default_action
    return action, _act(stub, match_id, legal.seat_to_act, legal.decision, action)


def test_stale_decision(stub: es_grpc.EngineServiceStub, rdb: redis.Redis) -> None:
    match_id, legal = _human_match(stub, 101)
    _, res = _advance(stub, match_id, legal)
    before = stored(rdb, match_id)
    # an older decision, answered by a different action than the one applied
    other = next(a for a in legal.actions if a != legal.default_action)
    code, md, _ = _rejected(stub, match_id, legal.seat_to_act, legal.decision, other)
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert md["fs-error"] == "stale"
    assert int(md["fs-decision"]) == res.pending.number
    assert stored(rdb, match_id) == before


def test_duplicate_submission(stub: es_grpc.EngineServiceStub, rdb: redis.Redis) -> None:
    match_id, legal = _human_match(stub, 102)
    action, _ = _advance(stub, match_id, legal)
    before = stored(rdb, match_id)
    code, md, _ = _rejected(stub, match_id, legal.seat_to_act, legal.decision, action)
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert md["fs-error"] == "duplicate"
    assert stored(rdb, match_id) == before


def test_future_decision(stub: es_grpc.EngineServiceStub, rdb: redis.Redis) -> None:
    match_id, legal = _human_match(stub, 103)
    before = stored(rdb, match_id)
    code, md, _ = _rejected(stub, match_id, legal.seat_to_act, legal.decision + 1, legal.actions[0])
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert md["fs-error"] == "future"
    assert stored(rdb, match_id) == before


@pytest.mark.parametrize("action", ["", "   ", "fly to the moon", "play", "x" * 500, "pass\x00"])
def test_malformed_action(stub: es_grpc.EngineServiceStub, rdb: redis.Redis, action: str) -> None:
    match_id, legal = _human_match(stub, 104)
    before = stored(rdb, match_id)
    code, md, details = _rejected(stub, match_id, legal.seat_to_act, legal.decision, action)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert md["fs-error"] in ("malformed", "illegal")
    assert json.loads(md["fs-legal"]) == list(legal.actions)
    assert "legal" in details
    assert stored(rdb, match_id) == before


def test_illegal_action_lists_alternatives(stub: es_grpc.EngineServiceStub, rdb: redis.Redis) -> None:
    match_id, legal = _human_match(stub, 105)
    before = stored(rdb, match_id)
    code, md, _ = _rejected(stub, match_id, legal.seat_to_act, legal.decision, "play 87 to 9")
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert md["fs-error"] == "illegal"
    assert json.loads(md["fs-legal"]) == list(legal.actions)
    assert stored(rdb, match_id) == before


def test_out_of_turn(stub: es_grpc.EngineServiceStub, rdb: redis.Redis) -> None:
    match_id, legal = _human_match(stub, 106)
    before = stored(rdb, match_id)
    other = (legal.seat_to_act + 1) % 5
    code, md, _ = _rejected(stub, match_id, other, legal.decision, "pass")
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert md["fs-error"] == "out_of_turn"
    assert int(md["fs-seat-to-act"]) == legal.seat_to_act
    assert stored(rdb, match_id) == before


def test_seat_out_of_range(stub: es_grpc.EngineServiceStub, rdb: redis.Redis) -> None:
    match_id, legal = _human_match(stub, 107)
    before = stored(rdb, match_id)
    code, md, _ = _rejected(stub, match_id, 9, legal.decision, "pass")
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert md["fs-error"] == "malformed"
    assert stored(rdb, match_id) == before


def test_unknown_match(stub: es_grpc.EngineServiceStub) -> None:
    for call in (
        lambda: _act(stub, "no-such-match", 0, 1, "pass"),
        lambda: stub.GetObservation(es.GetObservationRequest(match_id="no-such-match", seat=0)),
        lambda: stub.GetReplay(es.GetReplayRequest(match_id="no-such-match")),
        lambda: list(stub.Watch(es.WatchRequest(match_id="no-such-match", seat=-1))),
    ):
        with pytest.raises(grpc.RpcError) as info:
            call()
        assert info.value.code() == grpc.StatusCode.NOT_FOUND


def test_bad_settings_and_taken_id(stub: es_grpc.EngineServiceStub) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=12)))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5), match_id="taken-1"))
    with pytest.raises(grpc.RpcError) as info:
        stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5), match_id="taken-1"))
    assert info.value.code() == grpc.StatusCode.ALREADY_EXISTS


def test_observation_hides_other_hands(stub: es_grpc.EngineServiceStub) -> None:
    match_id, legal = _human_match(stub, 108)
    me = legal.seat_to_act
    obs = stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=me, include_events=True))
    assert obs.viewer == me and list(obs.legal_actions) == list(legal.actions)
    for view in obs.seats:
        assert bool(view.hand) == (view.seat == me)
    assert all(not e.audience or me in e.audience for e in obs.events)
    spectator = stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=-1, include_events=True))
    assert all(not v.hand for v in spectator.seats)
    assert all(not e.audience or -1 in e.audience for e in spectator.events)
