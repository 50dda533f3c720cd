"""House bots' pace follows the table's clock (issue 29 point 1; services/bot_timing.py): a
table at the bot-speed clock holds answers a thirtieth of the people's pace, the hard level
its search floor whatever the clock, and the release depends on the level and the clock (public
facts of the table), never on the seat's hand (issue 26: tests/integration/test_bot_timing.py)."""

from __future__ import annotations

import random

import pytest

from services.bot_timing import Pace, clock_scale
from services.engine.clock import BOT_CLOCK_MS, CLOCKS_MS, PEOPLE_CLOCK_MS
from services.workers import tasks
from services.workers.chains import Cursor

PACE = Pace(think_ms=60, search_budget_ms=200, search_margin_ms=100, jitter_ms=40)


def test_the_pace_scales_with_the_clock() -> None:
    assert clock_scale(0) == clock_scale(PEOPLE_CLOCK_MS) == 1.0  # untimed, people: the full pace
    assert clock_scale(BOT_CLOCK_MS) == pytest.approx(1 / 30)
    assert [PACE.target_ms("heuristic", c) for c in CLOCKS_MS] == pytest.approx([2.0, 10.0, 60.0])
    holds = [PACE.hold_s("v2", random.Random(i), clock_ms=BOT_CLOCK_MS) for i in range(500)]
    assert 0.002 <= min(holds) < 0.0021 and 0.0032 < max(holds) <= 0.002 + 0.040 / 30
    # the hard level: its target is the floor of its search, at every clock
    assert {PACE.target_ms("search", c) for c in (0, *CLOCKS_MS)} == {300.0}
    assert PACE.jitter_width_ms("search", BOT_CLOCK_MS) == 40


def test_the_worker_releases_by_the_cursors_clock() -> None:
    """``paced_move`` draws its release from the chain's match clock (the task's ``clock_ms``)."""
    import asyncio
    import time

    from fengsheng.v1 import game_pb2

    obs = game_pb2.Observation(pending=game_pb2.Decision(seat=1, kind="respond", number=7), legal_actions=["pass"])
    slow_pace = Pace(think_ms=600, search_budget_ms=1, search_margin_ms=0, jitter_ms=0)

    async def answer(clock_ms: int) -> float:
        cur = Cursor("m", 1, 7, "random", "bot", clock_ms=clock_ms)
        t0 = time.monotonic()
        assert await tasks.paced_move(cur, obs, t0, lambda: None, slow_pace, tasks.ComputeTimes()) == "pass"
        return time.monotonic() - t0

    at_bot_clock, untimed = asyncio.run(answer(BOT_CLOCK_MS)), asyncio.run(answer(0))
    assert 0.019 <= at_bot_clock < 0.2, at_bot_clock  # 600 ms / 30
    assert untimed >= 0.599, untimed
