"""The lobby's "play now" form, as the browser tests fill it: a table of one human seat
and random bots that move fast (tests/e2e); and the loop that plays that seat by clicking."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest


def fill_play_form(page: Any, *, ruleset_id: str, players: int, characters: bool, name: str = "e2e") -> None:
    """Fill the lobby's form (already open) for a match of ``ruleset_id`` with ``players``
    seats: you and random bots with a 0.02 s think delay, no turn timer."""
    page.fill("#name", name)
    page.select_option("#ruleset", ruleset_id)
    page.select_option("#players", str(players))
    page.select_option("#bot", "random")
    page.set_checked("#characters", characters)
    page.fill("#bot-delay", "0.02")
    page.fill("#turn-timeout", "0")


def start_table(page: Any) -> None:
    """Press *Play now* and wait until the table shows the player's seat and identity."""
    page.click("#play-now")
    page.wait_for_selector("#table.player")
    page.wait_for_selector("#my-identity")


def click_until_result(
    page: Any,
    rng: random.Random,
    *,
    deadline_s: float,
    before_click: Callable[[list[str], int], bool] | None = None,
    pause_ms: int = 20,
    what: str = "the match",
) -> int:
    """Play the human seat of the open table until its result screen shows: at each prompt,
    click one of the enabled action buttons at random (auto-pass answers the pass-only ones).
    ``before_click(actions, clicks)`` runs at each prompt first, with the clicks so far; when
    it returns True the prompt is read again instead (it took time: the prompt may have
    moved on). Returns the clicks; fails the test after ``deadline_s`` seconds."""
    clicks = 0
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if page.query_selector("#result"):
            return clicks
        actions = page.eval_on_selector_all(
            "#actions button.action:not([disabled])", "els => els.map(e => e.dataset.action)"
        )
        if not actions:
            page.wait_for_timeout(40)
            continue
        if before_click is not None and before_click(actions, clicks):
            continue
        action = rng.choice(actions)
        try:
            page.locator(f'#actions button.action[data-action="{action}"]').click(timeout=2000)
            clicks += 1
        except Exception:  # the prompt moved on while we were choosing: choose again
            continue
        page.wait_for_timeout(pause_ms)
    pytest.fail(f"{what}: no result screen after {clicks} clicks")
