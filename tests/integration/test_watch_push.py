"""Push, not pull (issue 15, point 2): ``Watch(with_observation)`` hands each seat its own
observation with the newest write, its legal actions included when it must act, so a
watcher needs no request per event; a spectator gets the public view; nothing of another
seat's hand rides along; without the flag nothing is attached."""

from __future__ import annotations

import pytest

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def _play(stub: es_grpc.EngineServiceStub, match_id: str, moves: int) -> None:
    legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1))
    for _ in range(moves):
        legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=legal.seat_to_act))
        res = stub.Act(
            es.ActRequest(match_id=match_id, seat=legal.seat_to_act, decision=legal.decision, action=legal.actions[0])
        )
        legal = es.LegalActions(decision=res.pending.number, seat_to_act=res.pending.seat)


@pytest.mark.parametrize("seat", [0, 2, -1])
def test_each_write_pushes_the_seats_own_observation(stub: es_grpc.EngineServiceStub, seat: int) -> None:
    created = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=808)))
    match_id = created.match_id
    _play(stub, match_id, 12)
    events = _until_caught_up(stub, match_id, seat)
    pushed = [e for e in events if e.HasField("observation")]
    assert len(pushed) == 1 and pushed[0] is events[-1]  # the newest write (one batch read)
    view = pushed[0].observation
    assert view.viewer == seat
    own = stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=seat))
    assert view == own  # exactly what the seat may see, no more
    for other in view.seats:
        if other.seat != seat:
            assert not other.hand
    assert bool(view.legal_actions) == (seat >= 0 and view.pending.seat == seat)
    # without the flag: nothing attached
    plain = _until_caught_up(stub, match_id, seat, with_observation=False)
    assert plain and not any(e.HasField("observation") for e in plain)


def _until_caught_up(
    stub: es_grpc.EngineServiceStub, match_id: str, seat: int, *, with_observation: bool = True
) -> list[es.WatchEvent]:
    """Watch from the start until the last stored write has come (the match is not over)."""
    pending = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1)).decision
    call = stub.Watch(es.WatchRequest(match_id=match_id, seat=seat, with_observation=with_observation), timeout=10)
    out: list[es.WatchEvent] = []
    for event in call:
        out.append(event)
        if event.pending.number == pending and (event.HasField("observation") or not with_observation):
            break
    call.cancel()
    return out
