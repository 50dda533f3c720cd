"""The lobby's "play now" form, as the browser tests fill it: a table of one human seat
and random bots that move fast (tests/e2e)."""

from __future__ import annotations

from typing import Any


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
