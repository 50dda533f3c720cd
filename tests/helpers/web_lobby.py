"""The lobby's "play now" form, as the browser tests fill it: a table of one human seat
and random bots that move fast (tests/e2e); and the loop that plays that seat by clicking."""

from __future__ import annotations

import contextlib
import json
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


#: the enabled buttons of the decision panel's current step (gateway/static/js/composer.js):
#: a choice, a toggle or the confirm of a multi-select; back/cancel are not among them
STEP_BUTTONS = "#prompt button.action:not([disabled])"


def step_reach(page: Any) -> list[list[str]]:
    """For each enabled button of the current step, the legal actions (their text form, from
    ``data-reach``: never shown) that stay open through it."""
    reaches = page.eval_on_selector_all(STEP_BUTTONS, "els => els.map(e => e.dataset.reach)")
    return [json.loads(r or "[]") for r in reaches]


#: the name of the recorded property (``record_property``) of a game's taps on the decision
#: panel, followed by the ruleset id: tests/e2e/conftest.py prints them at the end of a run
TAPS_PER_GAME = "taps per game,"


def legal_now(page: Any) -> list[str]:
    """The legal actions still open at the composer's current step."""
    out: list[str] = []
    for reach in step_reach(page):
        out.extend(a for a in reach if a not in out)
    return out


def compose(page: Any, action: str, *, timeout_ms: int = 2000) -> int:
    """Tap the composer's buttons that keep ``action`` open until it is sent: a choice, or
    the toggles of a multi-select and its confirm. Returns the taps. Raises when the prompt
    moves on meanwhile (the caller reads it again)."""
    taps = 0
    for _ in range(30):
        buttons = page.query_selector_all(STEP_BUTTONS)
        reaches = [json.loads(b.get_attribute("data-reach") or "[]") for b in buttons]
        if not any(action in r for r in reaches):
            if taps:
                return taps  # sent: the panel moved on
            raise LookupError(f"{action!r} is not open in the composer")
        classes = [(b.get_attribute("class") or "").split() for b in buttons]
        toggles = [c for r, c in zip(reaches, classes, strict=True) if action in r and "toggle" in c]
        if toggles:
            # a multi-select: toggle its elements that the action holds (the panel is drawn
            # again after each tap: read it again), then confirm
            for _ in range(len(toggles)):
                pick = next((b for b in page.query_selector_all(f"{STEP_BUTTONS}.toggle:not(.on)")
                             if action in json.loads(b.get_attribute("data-reach") or "[]")), None)
                if pick is None:
                    break
                pick.click(timeout=timeout_ms)
                taps += 1
            confirm = page.locator("#compose-confirm:not([disabled])")
            last = len(json.loads(confirm.get_attribute("data-reach", timeout=timeout_ms) or "[]")) == 1
            confirm.click(timeout=timeout_ms)
            taps += 1
            if last:
                return taps
        else:
            target = next(b for b, r in zip(buttons, reaches, strict=True) if action in r)
            single = target.get_attribute("data-action") == action
            target.click(timeout=timeout_ms)
            taps += 1
            if single:
                return taps
        page.wait_for_timeout(10)
    raise AssertionError(f"composing {action!r} took over 30 steps")


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
    pick one of the legal actions open in the composer at random and tap it through
    (auto-pass answers the pass-only ones). ``before_click(actions, clicks)`` runs at each
    prompt first, with the answers so far; when it returns True the prompt is read again
    instead (it took time: the prompt may have moved on). Returns the answers; fails the
    test after ``deadline_s`` seconds."""
    clicks = 0
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if page.query_selector("#result"):
            return clicks
        actions = legal_now(page)
        if not actions:
            page.wait_for_timeout(40)
            continue
        if before_click is not None and before_click(actions, clicks):
            continue
        action = rng.choice(actions)
        try:
            compose(page, action)
            clicks += 1
        except Exception:  # the prompt moved on while we were choosing: choose again
            back = page.query_selector("#compose-cancel, #compose-back")
            if back is not None:
                with contextlib.suppress(Exception):
                    back.click(timeout=500)
            continue
        page.wait_for_timeout(pause_ms)
    # what the page showed when it gave up: a prompt stuck "sending", no prompt at all (the
    # push stopped), or an error, and the step its view was at
    shown = page.evaluate("""() => ({
        prompt: document.querySelector('#prompt')?.innerText?.slice(0, 300) ?? null,
        log: document.querySelector('#log')?.innerText?.slice(-300) ?? null,
    })""")
    pytest.fail(f"{what}: no result screen after {clicks} clicks; the page showed {shown}")
