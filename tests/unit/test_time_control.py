"""A table's time control (services/engine/clock.py; docs/bots.md, "Time controls"): the
documented clocks, the defaults of a bots-only table and of a table with a person, refusals."""

from __future__ import annotations

import pytest

from services.engine.clock import (
    BOT_BANK_MS,
    BOT_CLOCK_MS,
    CLOCKS_MS,
    MAX_BANK_MS,
    PEOPLE_BANK_MS,
    PEOPLE_CLOCK_MS,
    TimeControl,
    time_control,
)
from services.errors import BadRequest


def test_the_defaults_are_the_bot_clock_for_bots_and_the_people_clock_otherwise() -> None:
    assert time_control(0, 0, bots_only=True) == TimeControl(BOT_CLOCK_MS, BOT_BANK_MS)
    assert time_control(0, 0, bots_only=False) == TimeControl(PEOPLE_CLOCK_MS, PEOPLE_BANK_MS)
    assert BOT_CLOCK_MS in CLOCKS_MS and PEOPLE_CLOCK_MS in CLOCKS_MS and BOT_CLOCK_MS < PEOPLE_CLOCK_MS


@pytest.mark.parametrize("clock_ms", CLOCKS_MS)
def test_a_documented_clock_with_a_bank_of_its_own(clock_ms: int) -> None:
    tc = time_control(clock_ms, 7000, bots_only=False)
    assert (tc.clock_ms, tc.bank_ms, tc.clock_s, tc.bank_s) == (clock_ms, 7000, clock_ms / 1000, 7.0)
    assert time_control(clock_ms, 0, bots_only=True).bank_ms == 0  # a chosen clock: no bank unless asked
    assert time_control(0, 3000, bots_only=True) == TimeControl(BOT_CLOCK_MS, 3000)


@pytest.mark.parametrize(("clock_ms", "bank_ms", "says"), [
    (2000, 0, "clock_ms must be one of 1000, 5000, 30000"),
    (-1000, 0, "clock_ms"),
    (1000, -1, "bank_ms"),
    (1000, MAX_BANK_MS + 1, "bank_ms must be 0..300000"),
])  # fmt: skip
def test_anything_else_is_refused_with_what_is_allowed(clock_ms: int, bank_ms: int, says: str) -> None:
    with pytest.raises(BadRequest, match=says):
        time_control(clock_ms, bank_ms, bots_only=True)
