"""``services.ranked.casual.answer`` when the invitation's ticket is gone right after its accept.

Found by ``mypy --strict services``: the accepted ticket is read again to be published, and
that read is ``None`` when the ticket vanished meanwhile (its TTL; ``answer`` already
returns ``fresh or ticket`` for the same reason). It was published as ``None``, a
``TypeError`` (``None["holder"]``) after the acceptance was stored: the caller got an
internal error for an answer that had counted.
"""

from __future__ import annotations

import asyncio
from typing import Any

from services.ranked import casual


class _Redis:
    def hget(self, key: str, field: str) -> bytes:
        return b"ch-1"

    def eval(self, script: str, numkeys: int, *args: Any) -> list[Any]:
        return [1, b"accepted"]  # accepted; others still to answer


class _Store:
    def __init__(self) -> None:
        self.redis = _Redis()
        self.reads = 0
        self.published: list[dict[str, Any]] = []

    def ticket(self, ticket_id: str) -> dict[str, Any] | None:
        self.reads += 1
        if self.reads == 1:  # the check before the answer; then the ticket is gone
            return {"ticket_id": ticket_id, "holder": "p:alice", "state": "invited"}
        return None

    def publish(self, ticket: dict[str, Any]) -> None:
        self.published.append(ticket)
        _ = ticket["holder"]  # as RankedStore.publish does (the holder's channel)


class _Svc:
    def __init__(self) -> None:
        self.store = _Store()


def test_accept_of_a_ticket_gone_meanwhile_is_answered_not_an_error() -> None:
    svc = _Svc()
    ticket, changed = asyncio.run(casual.answer(svc, "t-1", "p:alice", "", True, bot=None))
    assert changed
    assert ticket["state"] == "invited"  # the ticket as last read (it is gone now)
    assert svc.store.published == []  # nothing to tell a holder about a ticket that is gone
