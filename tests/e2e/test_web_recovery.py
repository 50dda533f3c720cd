"""Restarts that don't strand anyone (issue 16 §6), in a real headless Chromium.

A guest token the gateway no longer accepts (its secret changed, its data was reset) is
replaced by a new guest of the same name without the player doing anything; a stale seat
token is replaced when the seat is still the guest's, and otherwise the page falls back to
watching the match and says why (docs/web-client.md, *Recovery*).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

#: a token signed with some other secret: what the browser holds after a reset
FORGED = "eyJ0eXAiOiJwbGF5ZXIiLCJwaWQiOiJnX2RlYWRiZWVmIiwibmFtZSI6InplZCJ9.AAAA"


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("localStorage.setItem('fs.hold_ms', '60'); localStorage.setItem('fs.lang', 'en');")
    yield ctx
    ctx.close()


def _storage(page: Any, key: str) -> Any:
    return json.loads(page.evaluate(f"localStorage.getItem({key!r})") or "null")


def test_stale_tokens_are_replaced(context: Any, browser: Any, base_url: str) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#play-now")
    stale = {"id": "g_deadbeef", "name": "zed", "token": FORGED}
    page.evaluate(f"localStorage.setItem('fs.guest', {json.dumps(json.dumps(stale))})")
    page.fill("#name", "zed")
    page.select_option("#players", "3")
    page.select_option("#bot", "random")
    page.fill("#turn-timeout", "0")
    page.click("#play-now")  # the gateway refuses the stale guest: a new one is made, same name
    page.wait_for_selector("#table.player #my-identity")
    guest = _storage(page, "fs.guest")
    assert guest["name"] == "zed" and guest["token"] != FORGED and guest["renewed_from"] == "g_deadbeef"
    assert "zed" in page.inner_text("#seats")
    match_id = page.url.rsplit("/", 1)[1]

    # the seat token goes stale: the page gets a new one for the same seat by itself
    page.evaluate(f"localStorage.setItem('fs.seat.{match_id}', JSON.stringify({{seat: 0, token: 'x.y'}}))")
    page.reload()
    page.wait_for_selector("#table.player #my-identity")
    seat = _storage(page, f"fs.seat.{match_id}")
    assert seat["seat"] == 0 and seat["token"] != "x.y"
    page.wait_for_selector("#prompt h3")

    # another browser whose guest and seat tokens are both stale cannot have that seat back
    # (the seat belongs to the guest that claimed it): it watches instead, and says so
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        lost = other.new_page()
        lost.goto(f"{base_url}/#/lobby")
        lost.evaluate(
            f"localStorage.setItem('fs.guest', {json.dumps(json.dumps(stale))});"
            f"localStorage.setItem('fs.seat.{match_id}', JSON.stringify({{seat: 0, token: 'x.y'}}))"
        )
        lost.goto(f"{base_url}/#/table/{match_id}")
        lost.wait_for_selector("#table.spectator #seat-lost")
        assert lost.url.endswith(f"#/spectate/{match_id}")
        assert _storage(lost, f"fs.seat.{match_id}") is None
    finally:
        other.close()
    assert not errors, errors
