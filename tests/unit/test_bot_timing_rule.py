"""The release policy of house bot answers (services/bot_timing.py, issue 26 point 2): its
settings, and the worker's rule for an answer with and without a choice
(``services.workers.tasks._release``). The timing itself is measured in
tests/integration/test_bot_timing.py."""

from __future__ import annotations

import random

import pytest

from fengsheng.v1 import game_pb2
from services.bot_timing import ComputeTimes, Pace
from services.workers import tasks
from services.workers.chains import Cursor


def test_settings_come_from_the_environment_within_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_SEARCH_BUDGET_MS", "0.5")  # below the 1 ms floor
    monkeypatch.setenv("FENGSHENG_BOT_SEARCH_MARGIN_MS", "70")
    monkeypatch.setenv("FENGSHENG_BOT_THINK_MS", "nan")  # unreadable: the default
    monkeypatch.setenv("FENGSHENG_BOT_JITTER_MS", "99999")  # above the cap
    pace = Pace.from_env()
    assert pace == Pace(think_ms=60.0, search_budget_ms=1.0, search_margin_ms=70.0, jitter_ms=5000.0)
    assert pace.target_ms("search") == 71.0
    assert pace.target_ms("v2") == pace.target_ms("random") == pace.target_ms("heuristic") == 60.0


def test_the_hold_is_the_target_plus_a_jitter_within_its_width() -> None:
    pace = Pace(think_ms=10, search_budget_ms=5, search_margin_ms=20, jitter_ms=8)
    holds = [pace.hold_s("search", random.Random(i)) for i in range(500)]
    assert 0.025 <= min(holds) < 0.026 and 0.032 < max(holds) <= 0.033
    assert all(0.010 <= pace.hold_s("v2") <= 0.018 for _ in range(100))


def _obs(kind: str, legal: list[str]) -> game_pb2.Observation:
    return game_pb2.Observation(pending=game_pb2.Decision(seat=1, kind=kind, number=7), legal_actions=legal)


def test_an_answer_without_a_choice_is_held_like_a_computed_one() -> None:
    """With a choice: released at its target, its compute time recorded for its level and
    kind. Without one: released no earlier than one of those compute times after it was
    taken up (a forced pass is as slow as a search on a busy worker)."""
    times = ComputeTimes()
    cur = Cursor("m", 1, 7, "search", "bot")
    taken_up, release = 100.0, 100.3
    chosen = tasks._release(cur, _obs("respond", ["pass", "use 3"]), taken_up, 100.8, release, times)
    assert chosen == release  # computed late (0.8 s): the caller sends it at once
    assert times.draw("search", "respond") == pytest.approx(0.8)
    forced = tasks._release(cur, _obs("respond", ["pass"]), 200.0, 200.0, 200.3, times)
    assert forced == pytest.approx(200.8)
    # another kind, another level: nothing recorded yet, the target alone
    assert tasks._release(cur, _obs("main", ["end"]), 300.0, 300.0, 300.3, times) == 300.3
    cur_v2 = Cursor("m", 1, 7, "v2", "bot")
    assert tasks._release(cur_v2, _obs("respond", ["pass"]), 400.0, 400.0, 400.06, times) == 400.06
