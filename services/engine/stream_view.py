"""The event stream as one viewer (a seat, or the spectators) sees it, and the ids it is given.

The store keeps one stream entry per write (services/engine/store.py, ``_XADD_WRITE``), with
every event of the write and each event's audience; this module filters a write for one
viewer and names what it sends. A viewer gets one :class:`WatchItem` per event of the write it
may see, or a single item without an event when it may see none (so every viewer learns each
new decision). The ids (cursors) those items carry are built from the write's stream id and
the viewer's own items only:

- the write's **last** item carries the write's stream id ``MS-SEQ`` itself: the same for every
  viewer, one per write (``SEQ`` > 0 only when writes of the match share a millisecond);
- an earlier item carries ``MS-SEQ.K``, ``K`` counting this viewer's items of that write
  (1, 2, ...), so a watch that breaks in the middle of a write resumes exactly after it.

So no id a viewer is sent says whether, or how many, events of a write went to other seats
(docs/security.md, "Event ids"). A cursor passed back (``Watch.from_event_id``) means "after
that write" or "after the viewer's first ``K`` items of that write".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.game import EVENT_FORMAT
from fengsheng.v1 import game_pb2
from services.engine.store import StoredWrite
from services.errors import BadRequest, UnsupportedFormat

#: a cursor: a write's stream id (``MS`` or ``MS-SEQ``) and, inside a write, ``.K``
CURSOR_RE = re.compile(r"(\d{1,19}(?:-\d{1,19})?)(?:\.([1-9]\d{0,5}))?")


@dataclass(frozen=True, slots=True)
class WatchItem:
    """One thing a viewer is sent: its cursor, an event it may see (or None), the decision open
    after the write, the outcome (on the last item of the final write)."""

    event_id: str
    event: game_pb2.Event | None
    pending: game_pb2.Decision | None
    outcome: game_pb2.Outcome | None
    #: the watching seat's view after this write or a later one (``with_observation``)
    observation: game_pb2.Observation | None = None


def visible(audience: tuple[int, ...], seat: int) -> bool:
    """Whether ``seat`` (-1: the spectators) may see an event of ``audience`` (empty: public;
    -1 in it: the public version of a hidden event)."""
    return not audience or seat in audience


def seat_items(write: StoredWrite, seat: int) -> list[WatchItem]:
    """``write`` as ``seat`` sees it: one item per event whose audience is everyone or
    includes ``seat`` (never another seat's private event), in order, or one item without
    an event; ids as in the module's docstring."""
    pending = game_pb2.Decision.FromString(write.pending)
    events_or_none: list[game_pb2.Event | None] = list(seat_events(write, seat)) or [None]
    last = len(events_or_none) - 1
    outcome = game_pb2.Outcome.FromString(write.outcome) if write.outcome else None
    return [
        WatchItem(
            write.stream_id if k == last else f"{write.stream_id}.{k + 1}",
            event,
            pending,
            outcome if k == last else None,
        )
        for k, event in enumerate(events_or_none)
    ]


def seat_events(write: StoredWrite, seat: int) -> list[game_pb2.Event]:
    """The events of ``write`` that ``seat`` may see, in order. An event of another event
    format (proto ``Event.format``; engine.game.EVENT_FORMAT: typed arguments) is refused with
    :class:`~services.errors.UnsupportedFormat`, never rendered from guessed text."""
    out = []
    for e in write.events:
        if visible(e.audience, seat):
            event = game_pb2.Event.FromString(e.data)
            if event.format != EVENT_FORMAT:
                raise UnsupportedFormat(
                    f"stored event {event.index} of write {write.stream_id} has event format {event.format}; "
                    f"this engine reads event format {EVENT_FORMAT} (events as typed values): the match was "
                    "written by an older engine and cannot be read"
                )
            out.append(event)
    return out


def parse_cursor(cursor: str) -> tuple[str, int]:
    """``(write stream id, items of it already received)`` of a cursor ("" = from the start:
    ``("", 0)``); ``0`` items means the whole write was received. A malformed cursor is a
    :class:`BadRequest`."""
    if not cursor:
        return "", 0
    m = CURSOR_RE.fullmatch(cursor)
    if m is None:
        raise BadRequest(f"malformed from_event_id {cursor[:40]!r}: expected MS-SEQ or MS-SEQ.K")
    return m.group(1), int(m.group(2) or 0)
