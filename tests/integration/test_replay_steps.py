"""GetReplaySteps on the real engine service and Redis (issue 11, finding 6; issue 15).

The steps equal the old scratch-match method's, computed in-process from settings +
actions; a call writes nothing to Redis; a running match shows only a spectator's or one
seat's view; a 64-character match id works; ids outside the format are INVALID_ARGUMENT.
The gateway's rate limit and the per-call work bound are in ``test_replay_limits.py``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import grpc
import pytest
import redis
from helpers.processes import ServiceProcess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay_util import all_pages, create, old_method, play

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.engine.store import state_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

ALL = -2


@pytest.fixture(scope="module")
def finished(stub: es_grpc.EngineServiceStub) -> Iterator[str]:
    """A finished 5-seat match with characters, played over gRPC (this seed has 试探 /
    秘密下达 face down on the chain at some steps)."""
    match_id = "rp-done-" + secrets.token_hex(4)
    create(stub, match_id, seed=4247)
    play(stub, match_id)
    yield match_id


def _keys(rdb: redis.Redis) -> dict[bytes, int]:
    """Every match key with its TTL (a write would add a key or reset a TTL)."""
    return {k: rdb.ttl(k) for k in rdb.scan_iter(match="fs:m:*", count=1000)}


def test_steps_equal_the_old_scratch_match_method(stub: es_grpc.EngineServiceStub, finished: str) -> None:
    replay = stub.GetReplay(es.GetReplayRequest(match_id=finished))
    assert replay.outcome.over and len(replay.actions) > 40
    expected = old_method(replay)
    players = replay.settings.players
    for view in [ALL, -1, *range(players)]:
        key = "all" if view == ALL else str(view)
        # an odd page size, so that pages start on and off the keyframes
        got = all_pages(stub, finished, view, max_steps=37)
        assert got["total_steps"] == len(replay.actions) + 1
        # each step carries its action as a value too (``acted``, the step's action event:
        # the match is over, so in full for every view)
        assert "acted" not in got["steps"][0]
        for step in got["steps"][1:]:
            acted = step.pop("acted")
            assert acted["template"] == "action.action" and acted["seat"] == step["seat"], acted
            assert acted["action"]["text"] == step["action"] and "shown" not in acted
        assert got["steps"] == expected[key]["steps"], key
        assert len(got["observations"]) == len(expected[key]["observations"])
        for i, (mine, old) in enumerate(zip(got["observations"], expected[key]["observations"], strict=True)):
            assert mine == old, f"view {key}, step {i}"
        assert got["events"] == expected[key]["events"], key
        assert got["settings"]["seed"] == replay.settings.seed  # over: the seed is no secret any more
    # the full view shows face-down chain cards that the spectator's view hides
    hidden = [
        (a, b)
        for obs_all, obs_spec in zip(expected["all"]["observations"], expected["-1"]["observations"], strict=True)
        for a, b in zip(obs_all["chain"], obs_spec["chain"], strict=True)
        if a["card"] and not b["card"]
    ]
    assert hidden


def test_last_step_comes_from_the_checkpoint(stub: es_grpc.EngineServiceStub, finished: str) -> None:
    replay = stub.GetReplay(es.GetReplayRequest(match_id=finished))
    expected = old_method(replay)
    last = stub.GetReplaySteps(es.GetReplayStepsRequest(match_id=finished, view=ALL, last=True))
    assert [s.step for s in last.steps] == [len(replay.actions)] and not last.steps[0].events
    assert last.next_step == last.total_steps
    from gateway.replay_steps import to_page

    page = to_page(last)
    # its action event is the one the pages carry (the stored event, index and all)
    paged = all_pages(stub, finished, ALL, max_steps=37)["steps"][-1]
    assert page["steps"][0]["acted"] == paged["acted"] and paged["acted"]["index"] > 0
    acted = page["steps"][0].pop("acted")
    assert acted["action"]["text"] == page["steps"][0]["action"] and acted["seat"] == page["steps"][0]["seat"]
    assert page["observations"] == expected["all"]["observations"][-1:]
    assert page["steps"] == expected["all"]["steps"][-1:]
    assert page["next_step"] is None


def test_a_replay_call_writes_nothing(stub: es_grpc.EngineServiceStub, rdb: redis.Redis, finished: str) -> None:
    before = _keys(rdb)
    version = rdb.hget(state_key(finished), "version")
    for view in (ALL, -1, 0, 3):
        all_pages(stub, finished, view, max_steps=50)
        stub.GetReplaySteps(es.GetReplayStepsRequest(match_id=finished, view=view, last=True))
    after = _keys(rdb)
    assert set(after) == set(before)  # no scratch match, no other key
    # TTLs only count down (a write would have set them back to a week)
    assert all(after[k] <= before[k] for k in after if before[k] >= 0)
    assert rdb.hget(state_key(finished), "version") == version


def test_a_running_match_shows_only_what_the_view_saw(stub: es_grpc.EngineServiceStub) -> None:
    match_id = "rp-live-" + secrets.token_hex(4)
    create(stub, match_id, seed=777)
    assert play(stub, match_id, actions=60) == 60

    for view, finished_only in ((ALL, False), (2, True)):
        with pytest.raises(grpc.RpcError) as info:
            stub.GetReplaySteps(es.GetReplayStepsRequest(match_id=match_id, view=view, finished_only=finished_only))
        assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert ("fs-error", "not_over") in tuple(info.value.trailing_metadata() or ())

    spectator = all_pages(stub, match_id, -1, max_steps=13)
    assert spectator["total_steps"] == 61 and not spectator["over"]
    assert spectator["settings"]["seed"] == 0  # the seed would deal every hidden card
    assert spectator["outcome"]["over"] is False
    for obs in spectator["observations"]:
        assert obs["viewer"] == -1 and obs["legal_actions"] == []
        for seat in obs["seats"]:
            assert seat["hand"] == [] and seat["character_options"] == []
            if not seat["identity_revealed"]:
                assert seat["identity"] == "IDENTITY_UNSPECIFIED"
    assert all(not e["audience"] or -1 in e["audience"] for e in spectator["events"])
    # each action reads as the spectator's log line said it (face-down cards not named)
    said = {e["step"]: e for e in spectator["events"] if e["kind"] == "action"}
    for step in spectator["steps"][1:]:
        assert said[step["step"]]["text"] == f"{step['seat']}: {step['action']}"
        assert step["acted"] == {k: v for k, v in said[step["step"]].items() if k != "step"}  # the value
        assert "action" not in step["acted"] or not step["acted"]["audience"] or -1 in step["acted"]["audience"]
    assert any(s["action"].startswith("send ? ") for s in spectator["steps"])
    # another seat's hidden action reaches the spectator as its public form, a value: the
    # action with its card face down (``shown``), or a phrase row of its own
    face_down = [s["acted"]["shown"] for s in spectator["steps"][1:] if "shown" in s["acted"]]
    assert any(a["kind"] == "send" and a["card"] == 0 and a["text"].startswith("send ? ") for a in face_down)
    assert any(s["acted"]["template"].startswith("action.hidden_") for s in spectator["steps"][1:])

    # a seat's view (the gateway asks for it only with that seat's token): its own hand only
    seat2 = all_pages(stub, match_id, 2, max_steps=40)
    assert any(obs["seats"][2]["hand"] for obs in seat2["observations"])
    for obs in seat2["observations"]:
        assert all(s["hand"] == [] for s in obs["seats"] if s["seat"] != 2)
    assert all(not e["audience"] or 2 in e["audience"] for e in seat2["events"])

    # the match moves on: the cached keyframes still give the right steps
    replay_before = stub.GetReplay(es.GetReplayRequest(match_id=match_id))
    play(stub, match_id, actions=25, seed=9)
    replay = stub.GetReplay(es.GetReplayRequest(match_id=match_id))
    assert len(replay.actions) == len(replay_before.actions) + 25
    expected = old_method(replay)["-1"]
    again = all_pages(stub, match_id, -1, max_steps=30)
    assert again["observations"] == expected["observations"]
    assert [s["seat"] for s in again["steps"]] == [s["seat"] for s in expected["steps"]]


def test_long_and_malformed_match_ids(stub: es_grpc.EngineServiceStub) -> None:
    long_id = ("rp-long-" + secrets.token_hex(32))[:64]
    assert len(long_id) == 64
    create(stub, long_id, players=3, seed=31)
    play(stub, long_id)
    for _ in range(2):  # the old scratch match `ID.rp.NONCE`[:64] was ID itself: 409 forever
        everything = all_pages(stub, long_id, ALL)
        assert everything["over"] and everything["steps"][-1]["step"] == everything["total_steps"] - 1
    for bad in ("x" * 65, "a b", "../etc", ""):
        with pytest.raises(grpc.RpcError) as info:
            stub.GetReplaySteps(es.GetReplayStepsRequest(match_id=bad, view=-1))
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, bad
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetReplaySteps(es.GetReplayStepsRequest(match_id="rp-none-" + secrets.token_hex(4), view=-1))
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    for request in (
        es.GetReplayStepsRequest(match_id=long_id, view=3),
        es.GetReplayStepsRequest(match_id=long_id, view=-3),
        es.GetReplayStepsRequest(match_id=long_id, view=-1, from_step=-1),
        es.GetReplayStepsRequest(match_id=long_id, view=-1, max_steps=-5),
    ):
        with pytest.raises(grpc.RpcError) as info:
            stub.GetReplaySteps(request)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, request
    past = stub.GetReplaySteps(es.GetReplayStepsRequest(match_id=long_id, view=-1, from_step=10_000))
    assert not past.steps and past.next_step == past.total_steps


int32 = st.integers(-(2**31), 2**31 - 1)


def test_any_request_is_answered_without_an_internal_error(
    stub: es_grpc.EngineServiceStub, engine: ServiceProcess, finished: str
) -> None:
    """Any field values, and bytes that do not parse: OK or a client error, never INTERNAL."""
    raw = engine_channel(engine.address)

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(
        match_id=st.one_of(st.just(finished), st.just("rp-nosuch"), st.text(max_size=70)),
        view=int32,
        from_step=int32,
        max_steps=int32,
        last=st.booleans(),
        finished_only=st.booleans(),
        payload=st.binary(max_size=120),
    )
    def run(
        match_id: str, view: int, from_step: int, max_steps: int, last: bool, finished_only: bool, payload: bytes
    ) -> None:
        request = es.GetReplayStepsRequest(
            match_id=match_id,
            view=view,
            from_step=from_step,
            max_steps=max_steps,
            last=last,
            finished_only=finished_only,
        )
        try:
            reply = stub.GetReplaySteps(request, timeout=30)
            assert len(reply.steps) <= 100
        except grpc.RpcError as exc:
            assert exc.code() in CLIENT_ERRORS, (request, exc.code(), exc.details())
        call = raw.unary_unary(
            "/fengsheng.v1.EngineService/GetReplaySteps", request_serializer=None, response_deserializer=None
        )
        try:
            call(payload, timeout=30)
        except grpc.RpcError as exc:
            assert exc.code() in CLIENT_ERRORS, (payload, exc.code(), exc.details())

    try:
        run()
    finally:
        raw.close()


CLIENT_ERRORS = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION}
