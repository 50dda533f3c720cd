"""The service layer refuses a stored match whose engine snapshot is of another format
(engine/snapshot.py ``FORMAT``) with :class:`services.errors.UnsupportedFormat` (gRPC
``FAILED_PRECONDITION``, ``fs-error: unsupported_format``) naming the format it found and
the one it reads. On the in-memory store; over gRPC and Redis:
tests/integration/test_event_ids.py."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from engine.snapshot import FORMAT
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import game_pb2
from services.engine.fake_store import FakeMatchStore
from services.engine.matches import MatchService
from services.engine.replay import ReplayService
from services.engine.scheduler import RecordingScheduler
from services.errors import UnsupportedFormat
from services.grpc_guard import error_metadata, status_of


@pytest.mark.parametrize("found", [FORMAT - 1, FORMAT + 1])
def test_a_stored_snapshot_of_another_format_is_refused(found: int) -> None:
    async def main() -> None:
        store = FakeMatchStore()
        match_id, _ = await MatchService(store, RecordingScheduler()).create_match(  # type: ignore[arg-type]
            es.MatchSettings(players=5, seed=21))
        snap = game_pb2.Snapshot.FromString(store.matches[match_id].snapshot)
        snap.format = found
        store.matches[match_id].snapshot = snap.SerializeToString()
        fresh = MatchService(store, RecordingScheduler())  # type: ignore[arg-type]  # nothing cached
        with pytest.raises(UnsupportedFormat) as refused:
            await fresh.observation(match_id, 0)
        message = str(refused.value)
        assert message.startswith(f"match {match_id!r} cannot be played or watched: engine snapshot format {found} ")
        assert f"reads snapshot format {FORMAT} only" in message
        assert status_of(refused.value) == grpc.StatusCode.FAILED_PRECONDITION
        assert ("fs-error", "unsupported_format") in error_metadata(refused.value)
        with pytest.raises(UnsupportedFormat, match=f"snapshot format {found}"):
            await ReplayService(store).steps(match_id, 0, 0, 1)  # type: ignore[arg-type]

    asyncio.run(main())
