"""An in-memory stand-in for :class:`services.engine.store.MatchStore`, for fast unit tests of the
service layer's compare-and-set, idempotency, outbox and lease logic (issue 15, point 6).

It keeps the same observable contract as the Lua scripts of :mod:`services.engine.store`: a write
applies only at the expected version (else nothing is written and the stored version comes
back), the history is append-only, a write ZADDs the new decision's outbox member (or, for a
decision leased to its caller, its lease) and removes the lease of the decision it answered,
and each write appends one stream entry with the same fields. It is not a Redis: no expiry,
no pub/sub (watchers poll), no away counts (``redis`` is None; timed matches need the real
store). Everything here is what the integration tests check against a real Redis.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from services.engine.store import (
    HistoryEntry,
    StoredEvent,
    StoredMatch,
    StoredWrite,
    WriteResult,
    decode_write,
    write_fields,
)


@dataclass
class _Match:
    version: int
    snapshot: bytes
    snap_hist: int
    settings: bytes
    last: str
    history: list[HistoryEntry] = field(default_factory=list)
    events: list[tuple[str, dict[bytes, bytes]]] = field(default_factory=list)


class FakeMatchStore:
    """The match store's methods that :class:`services.engine.matches.MatchService` calls, in memory."""

    def __init__(self) -> None:
        self.matches: dict[str, _Match] = {}
        #: outbox and lease members (``MATCH_ID\\tDECISION``) -> score (ms)
        self.outbox: dict[str, float] = {}
        self.leases: dict[str, float] = {}
        #: how many writes were attempted / refused by the version check
        self.writes = 0
        self.conflicts = 0
        self.redis: Any = None
        self._ids = itertools.count(1)

    # ---------------------------------------------------------------- writes
    def _add_write(self, m: _Match, version: int, pending: bytes, outcome: bytes, events: Sequence[StoredEvent]) -> str:
        """The write's one stream entry (the scripts' ``add_write``); its id."""
        eid = f"{next(self._ids)}-0"
        m.events.append((eid, write_fields(version, pending, outcome, events)))
        return eid

    async def create(
        self,
        match_id: str,
        *,
        snapshot: bytes,
        settings: bytes,
        decision: int,
        seat: int,
        over: bool,
        created_ms: int,
        pending: bytes,
        outcome: bytes,
        events: Sequence[StoredEvent],
        outbox: str = "",
    ) -> WriteResult:
        if match_id in self.matches:
            return WriteResult(ok=False, version=self.matches[match_id].version)
        m = self.matches[match_id] = _Match(1, snapshot, 0, settings, "")
        eid = self._add_write(m, 1, pending, outcome, events)
        if outbox:
            self.outbox[outbox] = created_ms
        return WriteResult(ok=True, version=1, stream_id=eid)

    async def commit(
        self,
        match_id: str,
        *,
        expected_version: int,
        snapshot: bytes,
        decision: int,
        seat: int,
        over: bool,
        entries: Sequence[HistoryEntry],
        pending: bytes,
        outcome: bytes,
        events: Sequence[StoredEvent],
        outbox: str = "",
        now_ms: int = 0,
        lease_until_ms: int = 0,
    ) -> WriteResult:
        self.writes += 1
        m = self.matches.get(match_id)
        if m is None:
            return WriteResult(ok=False, version=0, missing=True)
        if m.version != expected_version:
            self.conflicts += 1
            return WriteResult(ok=False, version=m.version)
        answered = entries[0].decision if entries else None
        if answered is not None:
            self.leases.pop(f"{match_id}\t{answered}", None)
        m.version += 1
        m.history.extend(entries)
        if entries:
            m.last = entries[-1].encode()
        if snapshot:
            m.snapshot, m.snap_hist = snapshot, len(m.history)
        eid = self._add_write(m, m.version, pending, outcome, events)
        if outbox:
            if lease_until_ms:
                self.leases[outbox] = lease_until_ms
            else:
                self.outbox[outbox] = now_ms
        return WriteResult(ok=True, version=m.version, stream_id=eid)

    async def task_sent(self, member: str, *, outbox: bool, lease_until_ms: int) -> None:
        if outbox:
            self.outbox.pop(member, None)
        self.leases[member] = lease_until_ms

    async def outbox_done(self, member: str) -> None:
        self.outbox.pop(member, None)

    async def claim_lease(self, member: str, now_ms: int) -> bool:
        due = self.leases.get(member)
        if due is None or due > now_ms:
            return False
        del self.leases[member]
        return True

    # ---------------------------------------------------------------- reads
    async def overdue(self, older_than_ms: int, *, limit: int = 100) -> list[str]:
        return [k for k, v in sorted(self.outbox.items(), key=lambda kv: kv[1]) if v <= older_than_ms][:limit]

    async def expired_leases(self, now_ms: int, *, limit: int = 100) -> list[str]:
        return [k for k, v in sorted(self.leases.items(), key=lambda kv: kv[1]) if v <= now_ms][:limit]

    async def version(self, match_id: str) -> int | None:
        m = self.matches.get(match_id)
        return None if m is None else m.version

    async def load(self, match_id: str) -> StoredMatch | None:
        m = self.matches.get(match_id)
        if m is None:
            return None
        return StoredMatch(m.version, m.snapshot, m.settings, m.last, m.snap_hist, list(m.history[m.snap_hist :]))

    async def history(self, match_id: str, *, upto: int = -1) -> list[HistoryEntry]:
        m = self.matches.get(match_id)
        items = m.history if m is not None else []
        return list(items if upto < 0 else items[:upto])

    async def read_writes(
        self, match_id: str, *, after: str = "", count: int = 512, including: bool = False
    ) -> list[StoredWrite]:
        m = self.matches.get(match_id)
        if m is None:
            return []
        key = _id_key(after) if after else (-1, -1)
        found = [(eid, f) for eid, f in m.events if _id_key(eid) > key or (including and _id_key(eid) == key)]
        return [decode_write(eid, dict(f)) for eid, f in found[:count]]

    async def last_write(self, match_id: str) -> StoredWrite | None:
        m = self.matches.get(match_id)
        if m is None or not m.events:
            return None
        eid, f = m.events[-1]
        return decode_write(eid, dict(f))

    def pubsub(self) -> _Silent:
        """A subscription that never delivers: watchers here poll (``watch_poll_s``)."""
        return _Silent()

    async def close(self) -> None:
        return None


class _Silent:
    """The subscription of :meth:`FakeMatchStore.pubsub`: no notification ever arrives."""

    async def psubscribe(self, *patterns: str) -> None:
        return None

    async def get_message(self, timeout: float = 0.0) -> None:
        await asyncio.sleep(timeout)

    async def aclose(self) -> None:
        return None


def _id_key(eid: str) -> tuple[int, int]:
    ms, _, seq = eid.partition("-")
    return int(ms), int(seq or 0)
