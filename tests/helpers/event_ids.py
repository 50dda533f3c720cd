"""Checks of the ids (cursors) a viewer is sent (services/engine/stream_view.py), shared by the
engine's and the gateway's tests: they must carry nothing about events the viewer does not see
(docs/security.md, "Event ids")."""

from __future__ import annotations

import redis

from services.engine.store import events_key
from services.engine.stream_view import CURSOR_RE


def stored_write_ids(rdb: redis.Redis, match_id: str) -> list[str]:
    """The stream ids of the match's stored writes, in order."""
    return [eid.decode() for eid, _ in rdb.xrange(events_key(match_id))]


def writes_of(ids: list[str]) -> list[str]:
    """The writes a viewer's ids name, in order, checking that each id only counts the
    viewer's own items: a write's items are ``W.1``, ``W.2``, ..., then ``W`` itself (its
    last item), nothing else."""
    writes: list[str] = []
    expect = 1  # the next item's number inside the open write
    open_write = ""
    for eid in ids:
        m = CURSOR_RE.fullmatch(eid)
        assert m is not None, f"id {eid!r} is not MS-SEQ or MS-SEQ.K"
        write, k = m.group(1), int(m.group(2) or 0)
        assert "-" in write, eid
        if open_write:
            assert write == open_write, f"{eid!r} inside write {open_write!r}"
        if k:
            assert k == expect, f"{eid!r}: expected item {expect} of write {write!r}"
            open_write, expect = write, expect + 1
        else:
            writes.append(write)
            open_write, expect = "", 1
    assert not open_write, f"write {open_write!r} was not closed by its own id"
    return writes
