"""Event ids carry nothing a viewer may not see (docs/security.md, "Event ids").

The event stream held one entry per engine event, so the ``SEQ`` of a Redis stream id
(``MS-SEQ``) counted the entries of a write, those only other seats could see included: a
seat sent ``…-0`` and then ``…-2`` learned that a write held an entry it could not see (another
seat shown a card by 试探, a hand looked at, …). Now one entry per write holds all of its
events, and the ids a viewer is sent (services/engine/stream_view.py) are the write's stream id
and, inside a write, a count of the viewer's own items. Here, over random matches of each
ruleset, with private events: every seat and the spectators see exactly the same write ids
(every stored write, no other), their items inside a write are numbered by what each sees
alone, a resume from any id (inside a write too) gives exactly the rest, and a stream entry of
the old format is refused by its number."""

from __future__ import annotations

import random

import grpc
import pytest
import redis
from helpers.event_ids import stored_write_ids, writes_of

from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from fengsheng.v1 import game_pb2
from services.engine.store import decode_write, events_key, state_key

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def _play_out(stub: es_grpc.EngineServiceStub, match_id: str, rng: random.Random, limit: int = 4000) -> None:
    """Every seat a random legal action until the game is over."""
    legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1))
    for _ in range(limit):
        if legal.seat_to_act < 0:
            return
        legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=legal.seat_to_act))
        res = stub.Act(
            es.ActRequest(
                match_id=match_id, seat=legal.seat_to_act, decision=legal.decision, action=rng.choice(legal.actions)
            )
        )
        legal = es.LegalActions(decision=res.pending.number, seat_to_act=res.pending.seat)
    raise AssertionError(f"match {match_id} not over after {limit} actions")


def _private_writes(rdb: redis.Redis, match_id: str, players: int) -> int:
    """How many writes hold an event that some seat sees and another seat does not."""
    count = 0
    for eid, fields in rdb.xrange(events_key(match_id)):
        write = decode_write(eid.decode(), fields)
        seen = [{s for s in range(players) if not e.audience or s in e.audience} for e in write.events]
        if any(len(s) < players for s in seen):
            count += 1
    return count


@pytest.mark.parametrize(("ruleset", "seed"), [("return", 4101), ("classic", 4102), ("spy", 4103)])
def test_every_viewer_sees_the_same_write_ids_and_only_its_own_counts(
    stub: es_grpc.EngineServiceStub, rdb: redis.Redis, ruleset: str, seed: int
) -> None:
    players = 5
    settings = es.MatchSettings(players=players, seed=seed, ruleset=ruleset)
    match_id = stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id
    _play_out(stub, match_id, random.Random(seed))
    writes = stored_write_ids(rdb, match_id)
    private = _private_writes(rdb, match_id, players)
    assert private >= 5, f"only {private} writes with private events: the test would prove little"
    stored = [decode_write(eid.decode(), f) for eid, f in rdb.xrange(events_key(match_id))]
    for viewer in [*range(players), -1]:
        items = list(stub.Watch(es.WatchRequest(match_id=match_id, seat=viewer), timeout=60))
        ids = [i.event_id for i in items]
        # the same write ids for every viewer: every stored write, nothing else
        assert writes_of(ids) == writes, f"viewer {viewer}"
        # and the events inside a write are exactly those the viewer may see, in order
        expect = [e.index for w in stored for e in w.events if not e.audience or viewer in e.audience]
        assert [i.event.index for i in items if i.HasField("event")] == expect, f"viewer {viewer}"
        # a resume after any id, inside a write or at its end, gives exactly the rest
        rng = random.Random(seed * 10 + viewer)
        inside = [k for k, eid in enumerate(ids) if "." in eid]
        cuts = rng.sample(inside, min(2, len(inside))) + rng.sample(range(len(ids)), 1)
        for cut in cuts:
            rest = list(stub.Watch(es.WatchRequest(match_id=match_id, seat=viewer, from_event_id=ids[cut]), timeout=60))
            assert rest == items[cut + 1 :], f"viewer {viewer}, resumed after {ids[cut]!r}"


def test_the_deal_looks_the_same_to_all_but_for_their_own_events(
    stub: es_grpc.EngineServiceStub, rdb: redis.Redis
) -> None:
    """The creating write deals each seat its hand (events only that seat sees): every
    viewer's items of it are numbered by its own events alone and end with the write's id."""
    match_id = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=4104))).match_id
    entries = [(eid.decode(), f) for eid, f in rdb.xrange(events_key(match_id)) if f[b"v"] == b"1"]
    deal = entries[-1][0]
    seen: set[tuple[int, ...]] = set()
    for viewer in [*range(5), -1]:
        call = stub.Watch(es.WatchRequest(match_id=match_id, seat=viewer), timeout=10)
        items: list[es.WatchEvent] = []
        for item in call:
            items.append(item)
            if item.event_id == deal:
                break
        call.cancel()
        ids = [i.event_id for i in items]
        assert ids == [f"{deal}.{k}" for k in range(1, len(ids))] + [deal], f"viewer {viewer}"
        own = [e.index for e in decode_write(*entries[0]).events if not e.audience or viewer in e.audience]
        assert [i.event.index for i in items if i.HasField("event")] == own, f"viewer {viewer}"
        seen.add(tuple(own))
    assert len(seen) > 1, "every viewer saw the same events of the deal: the test would prove little"


def test_an_old_format_stream_is_refused_by_its_number(stub: es_grpc.EngineServiceStub, rdb: redis.Redis) -> None:
    match_id = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=4105))).match_id
    rdb.delete(events_key(match_id))
    rdb.xadd(events_key(match_id), {"v": "1", "p": b"", "l": "1"})  # format 1: one entry per event, no "f"
    with pytest.raises(grpc.RpcError) as refused:
        list(stub.Watch(es.WatchRequest(match_id=match_id, seat=0), timeout=10))
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert ("fs-error", "unsupported_format") in (refused.value.trailing_metadata() or ())
    assert "format 1" in (refused.value.details() or "")


def test_an_old_format_snapshot_is_refused_by_its_number(stub: es_grpc.EngineServiceStub, rdb: redis.Redis) -> None:
    """A match whose stored engine snapshot is of an older format (engine/snapshot.py
    ``FORMAT``) is refused with a clear status, not upgraded or misread."""
    match_id = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=4107))).match_id
    snap = game_pb2.Snapshot.FromString(rdb.hget(state_key(match_id), "snapshot") or b"")
    assert snap.format >= 2
    snap.format -= 1
    rdb.hset(state_key(match_id), "snapshot", snap.SerializeToString())
    rdb.hincrby(state_key(match_id), "version", 1)  # every engine's cached copy is stale now
    for call in (lambda: stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=0), timeout=10),
                 lambda: stub.GetReplay(es.GetReplayRequest(match_id=match_id), timeout=10)):
        with pytest.raises(grpc.RpcError) as refused:
            call()
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert ("fs-error", "unsupported_format") in (refused.value.trailing_metadata() or ())
        details = refused.value.details() or ""
        assert f"engine snapshot format {snap.format} was written by an older engine" in details, details


@pytest.mark.parametrize("cursor", ["1-0.0", "1-0.", "1-0.x", "1.2.3", "-1"])
def test_a_malformed_cursor_is_invalid(stub: es_grpc.EngineServiceStub, cursor: str) -> None:
    match_id = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=4106))).match_id
    with pytest.raises(grpc.RpcError) as refused:
        list(stub.Watch(es.WatchRequest(match_id=match_id, seat=0, from_event_id=cursor), timeout=10))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
