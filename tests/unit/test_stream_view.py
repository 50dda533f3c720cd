"""The ids a viewer is sent carry nothing of the events it does not see (docs/security.md,
"Event ids"), fast, on the in-memory store: a random match played to its end, watched by every
seat and the spectators. The same against Redis, the gRPC engine and the gateway:
tests/integration/test_event_ids.py."""

from __future__ import annotations

import asyncio
import random

import pytest
from helpers.event_ids import writes_of

from engine.game import EVENT_FORMAT
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import game_pb2
from services.engine.fake_store import FakeMatchStore
from services.engine.matches import MatchService
from services.engine.scheduler import RecordingScheduler
from services.engine.store import StoredEvent, StoredWrite, decode_write, write_fields
from services.engine.stream_view import parse_cursor, seat_items
from services.errors import BadRequest, UnsupportedFormat


async def _finished(seed: int, players: int = 5) -> tuple[FakeMatchStore, MatchService, str]:
    store = FakeMatchStore()
    svc = MatchService(store, RecordingScheduler())  # type: ignore[arg-type]
    match_id, p = await svc.create_match(es.MatchSettings(players=players, seed=seed))
    rng = random.Random(seed)
    for _ in range(4000):
        if p.seat < 0:
            return store, svc, match_id
        legal = await svc.legal_actions(match_id, p.seat)
        p = (await svc.act(match_id, p.seat, p.number, rng.choice(list(legal.actions)))).pending
    raise AssertionError("the random match did not end")


def test_every_viewer_gets_every_write_id_and_counts_only_its_own_items() -> None:
    async def main() -> None:
        store, svc, match_id = await _finished(5101)
        writes = await store.read_writes(match_id, count=100_000)
        by_viewer = {}
        for viewer in [*range(5), -1]:
            items = [i async for i in svc.watch(match_id, viewer)]
            assert writes_of([i.event_id for i in items]) == [w.stream_id for w in writes]
            by_viewer[viewer] = [i.event.index for i in items if i.event is not None]
            # resumes from inside a write and from a write's end give exactly the rest
            for cut in random.Random(viewer).sample(range(len(items)), 6):
                rest = [i async for i in svc.watch(match_id, viewer, items[cut].event_id)]
                assert rest == items[cut + 1 :]
        assert len({tuple(v) for v in by_viewer.values()}) == 6, "the viewers saw the same events"

    asyncio.run(main())


def _event(index: int, fmt: int = EVENT_FORMAT) -> bytes:
    return game_pb2.Event(index=index, kind="draw", format=fmt).SerializeToString()


def test_a_write_shows_the_same_id_to_a_viewer_who_sees_one_event_or_three() -> None:
    """Three events, two of them for seat 1 alone: seat 1 gets ``W.1``, ``W.2``, ``W``;
    seat 0 and the spectators ``W`` only, as if the write held one event."""
    events = tuple(StoredEvent(i, aud, _event(i)) for i, aud in enumerate([(), (1,), (1,)]))
    write = StoredWrite("17-0", 3, b"", b"", events)
    assert decode_write("17-0", write_fields(3, b"", b"", events)) == write  # as stored, as read
    assert [i.event_id for i in seat_items(write, 1)] == ["17-0.1", "17-0.2", "17-0"]
    assert [i.event_id for i in seat_items(write, 0)] == ["17-0"]
    assert [i.event_id for i in seat_items(write, -1)] == ["17-0"]
    private = StoredWrite("18-0", 4, b"", b"", (StoredEvent(3, (2,), _event(3)),))
    assert [(i.event_id, i.event is None) for i in seat_items(private, 0)] == [("18-0", True)]


def test_cursors_parse_and_bad_ones_are_refused() -> None:
    assert parse_cursor("") == ("", 0)
    assert parse_cursor("17-0") == ("17-0", 0)
    assert parse_cursor("17-3.2") == ("17-3", 2)
    for bad in ["17-0.0", "17-0.", "x", "17-0.1.2", "-1", "17-0.1234567"]:
        with pytest.raises(BadRequest):
            parse_cursor(bad)


def test_an_entry_of_the_old_format_is_refused() -> None:
    async def main() -> None:
        store, svc, match_id = await _finished(5102, players=3)
        store.matches[match_id].events.append(("999999-0", {b"v": b"9", b"l": b"1", b"p": b""}))
        with pytest.raises(UnsupportedFormat, match="format 1"):
            [i async for i in svc.watch(match_id, 0)]

    asyncio.run(main())


def test_an_event_of_another_event_format_is_refused() -> None:
    """An event stored before events were typed values (format 1: text only) is refused by its
    number to every viewer who would see it, never rendered from its text."""
    private_old = StoredWrite("19-0", 5, b"", b"", (StoredEvent(0, (), _event(0)), StoredEvent(1, (2,), _event(1, 1))))
    assert [i.event.index for i in seat_items(private_old, 0) if i.event is not None] == [0]  # not its audience
    public_old = StoredWrite("20-0", 6, b"", b"", (StoredEvent(2, (), _event(2, 1)),))
    for write, viewer in [(private_old, 2), (public_old, 0), (public_old, -1)]:
        with pytest.raises(UnsupportedFormat, match="event format 1"):
            seat_items(write, viewer)
