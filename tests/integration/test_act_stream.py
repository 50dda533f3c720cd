"""``ActStream`` (issue 15, point 3): actions over one long-lived stream.

One response per request, in order; a refused action is a response carrying the error the
unary ``Act`` would have answered (code, kind, open decision, legal list) and the stream
goes on; undecodable bytes are a ``malformed`` response, not a broken stream; and the
stream is behind the same service credential as every internal method.
"""

from __future__ import annotations

import grpc
import pytest
from helpers.processes import ServiceProcess

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def _new_match(stub: es_grpc.EngineServiceStub) -> tuple[str, es.LegalActions]:
    created = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=31)))
    legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=created.match_id, seat=created.pending.seat))
    return created.match_id, legal


def test_actions_and_refusals_in_order_on_one_stream(stub: es_grpc.EngineServiceStub) -> None:
    match_id, legal = _new_match(stub)
    seat = legal.seat_to_act
    first = legal.actions[0]
    requests = [
        es.ActRequest(match_id=match_id, seat=seat, decision=legal.decision, action=first, want_next_legal=True),
        # the same again: a duplicate, refused, and the stream goes on
        es.ActRequest(match_id=match_id, seat=seat, decision=legal.decision, action=first),
        # a match that does not exist
        es.ActRequest(match_id="no-such-match", seat=0, decision=1, action="pass"),
    ]
    responses = list(stub.ActStream(iter(requests), timeout=30))
    assert len(responses) == 3
    ok, dup, missing = responses
    assert not ok.HasField("error") and ok.version == 2 and list(ok.applied)
    assert ok.next.decision == ok.pending.number and list(ok.next.actions)
    assert dup.error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert dup.error.kind == "duplicate"
    assert dup.error.decision == ok.pending.number and dup.error.seat_to_act == ok.pending.seat
    assert missing.error.code == grpc.StatusCode.NOT_FOUND.value[0] and missing.error.kind == "not_found"
    assert not missing.error.HasField("decision")


def test_an_illegal_action_lists_the_legal_ones(stub: es_grpc.EngineServiceStub) -> None:
    match_id, legal = _new_match(stub)
    bad = es.ActRequest(match_id=match_id, seat=legal.seat_to_act, decision=legal.decision, action="fly to the moon")
    good = es.ActRequest(match_id=match_id, seat=legal.seat_to_act, decision=legal.decision, action=legal.actions[0])
    refused, applied = list(stub.ActStream(iter([bad, good]), timeout=30))
    assert refused.error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert sorted(refused.error.legal) == sorted(legal.actions)
    assert not applied.HasField("error") and applied.version == 2


def test_undecodable_bytes_are_a_malformed_response(engine: ServiceProcess) -> None:
    from services.channels import engine_channel

    with engine_channel(engine.address) as channel:
        raw = channel.stream_stream("/fengsheng.v1.EngineService/ActStream")  # bytes in, bytes out
        good = es.ActRequest(match_id="no-such-match", seat=0, decision=1, action="pass").SerializeToString()
        out = [es.ActResponse.FromString(b) for b in raw(iter([b"\xff\xff\xff", good]), timeout=30)]
    assert [r.error.kind for r in out] == ["malformed", "not_found"]
    assert out[0].error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]


def test_the_stream_needs_the_service_credential(engine: ServiceProcess) -> None:
    with grpc.insecure_channel(engine.address) as channel:  # no credential
        plain = es_grpc.EngineServiceStub(channel)
        request = es.ActRequest(match_id="x", seat=0, decision=1, action="pass")
        with pytest.raises(grpc.RpcError) as info:
            list(plain.ActStream(iter([request]), timeout=10))
    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
