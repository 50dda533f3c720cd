"""Two or more bots in a ranked queue get house bots after the shorter bot wait (issue 29
point 6; services/ranked/matchmaking.py, docs/ranked.md "Matchmaking"), and the rated-table
rule (issue 26: no two accounts of one owner at a rated table) still holds for them."""

from __future__ import annotations

from typing import Any

import pytest

from services import config
from services.ranked.matchmaking import Schedule, form_groups, with_addresses

SCHEDULE = Schedule(window_base=30, window_growth=0, window_max=30, fill_after_ms=60_000, bot_fill_after_ms=5_000)


def ticket(tid: str, holder: str, owner: str = "", enq: int = 0) -> dict[str, Any]:
    """A queued 5-player ticket at rating 25 (every window accepts every other)."""
    return {"ticket_id": tid, "holder": holder, "owner": owner or f"g_{tid}", "address": "", "rating": 25.0,
            "enqueued_ms": enq, "min_players": 5, "max_players": 5, "bot": holder.startswith("b:"),
            "name": tid}  # fmt: skip


def tables(tickets: list[dict[str, Any]], now_ms: int) -> list[tuple[set[str], int]]:
    return [({t["ticket_id"] for t in g.tickets}, g.house_seats)
            for g in form_groups(with_addresses(tickets, {}, 0), now_ms, SCHEDULE)]  # fmt: skip


def test_two_bots_get_house_bots_after_the_bot_wait() -> None:
    bots = [ticket("a", "b:bot_a"), ticket("b", "b:bot_b", enq=1000)]
    assert tables(bots, 4_999) == []  # not yet: 5 s from the oldest ticket
    assert tables(bots, 5_000) == [({"a", "b"}, 3)]


def test_one_bot_or_a_person_among_them_waits_the_full_fill() -> None:
    alone = [ticket("a", "b:bot_a")]
    assert tables(alone, 30_000) == []
    assert tables(alone, 60_000) == [({"a"}, 4)]
    mixed = [ticket("a", "b:bot_a"), ticket("p", "h:g_p")]
    assert tables(mixed, 30_000) == []  # a person at the table: people may still come
    assert tables(mixed, 60_000) == [({"a", "p"}, 3)]


def test_two_bots_of_one_owner_are_never_seated_together() -> None:
    """The rated-table rule first: two bots of one owner wait apart, each for the full fill
    (alone, neither is a group of two bots)."""
    same = [ticket("a", "b:bot_a", owner="g_x"), ticket("b", "b:bot_b", owner="g_x", enq=1)]
    assert tables(same, 10_000) == []
    assert sorted(tables(same, 60_001), key=lambda t: sorted(t[0])) == [({"a"}, 4), ({"b"}, 4)]
    # a third bot of another owner pairs with the oldest of them after the bot wait
    third = [*same, ticket("c", "b:bot_c", enq=2)]
    assert tables(third, 5_000) == [({"a", "c"}, 3)]


def test_the_durations_are_milliseconds_and_the_older_names_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_MM_BOT_FILL_AFTER_MS", "2500")
    monkeypatch.setenv("FENGSHENG_MM_FILL_AFTER_MS", "9000")
    monkeypatch.setenv("FENGSHENG_RANKED_BOT_TURN_TIMEOUT_MS", "5000")
    s = Schedule.from_env()
    assert (s.bot_fill_after_ms, s.fill_after_ms, s.bot_turn_timeout_ms) == (2500, 9000, 5000)
    for old in ("FENGSHENG_MM_FILL_AFTER_S", "FENGSHENG_MM_TICK_S", "FENGSHENG_RANKED_TURN_TIMEOUT_S"):
        monkeypatch.setenv(old, "3")
        with pytest.raises(config.RenamedSetting, match=old.removesuffix("_S") + "_MS=3000"):
            Schedule.from_env()
        monkeypatch.delenv(old)
