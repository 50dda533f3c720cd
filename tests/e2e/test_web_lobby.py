"""The lobby's people in a real headless Chromium with two browser contexts (issue 28 §6):
A (Chinese, desktop) and B (English, phone) each see the other in *Who is online*; a line
A writes in the lobby's chat shows in B's; A invites B from the list and B's *Invitations*
shows it (the profile's challenge, ``POST /api/casual``). The panels are in the reader's
language, keyboard-usable, labelled, with phone-sized tap targets, and axe-core finds no
serious or critical violation with them (docs/web-client.md, *Lobby*)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from test_web_a11y import _violations, axe_js  # noqa: F401 (axe_js, pair: fixtures)
from test_web_challenges import TAP_CHECK, _lobby_listening, _one_language, _watch_errors, pair  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.integration]


def _sees(page: Any, other: dict[str, str], timeout: int = 20_000) -> Any:
    return page.wait_for_selector(f"#online-list li[data-player='{other['id']}']", timeout=timeout)


def test_two_players_see_each_other_talk_and_invite(pair: Any, base_url: str, screenshots: Path) -> None:  # noqa: F811
    ctx_a, ctx_b, a, b = pair
    page_a, page_b = ctx_a.new_page(), ctx_b.new_page()
    errors = _watch_errors(page_a) + _watch_errors(page_b)
    _lobby_listening(page_b, base_url)  # B's lobby: online, and listening for invitations
    page_a.goto(f"{base_url}/#/lobby")

    # both online: A sees B at once; B sees A at its next ping (a reload pings at once)
    row = _sees(page_a, b)
    name = row.query_selector(".player-name")
    assert name is not None and name.inner_text() == b["name"] and name.get_attribute("translate") == "no"
    assert "在线" in page_a.inner_text("#online-count")
    with page_b.expect_websocket(lambda ws: "/ws/ranked" in ws.url):
        page_b.reload()
    page_b.wait_for_timeout(1000)  # the invitations' subscription is made after the socket opens
    _sees(page_b, a)
    assert page_b.query_selector(f"#online-list li[data-player='{b['id']}'] .invite") is None  # not oneself
    assert "(you)" in page_b.inner_text(f"#online-list li[data-player='{b['id']}']")

    # the lobby's chat, typed and sent from the keyboard: B reads A's line (as plain text)
    line = f"<b>你好</b> {int(time.time() * 1000) % 100000}"
    page_a.focus("#lobby-chat-input")
    page_a.keyboard.type(line)
    page_a.keyboard.press("Enter")
    page_a.wait_for_function("(t) => document.querySelector('#lobby-lines').innerText.includes(t)", arg=line)
    said = page_b.wait_for_selector(f"#lobby-lines li[data-pid='{a['id']}'] .said", timeout=10_000)
    assert said.inner_text() == line and page_b.query_selector("#lobby-lines b") is None
    page_b.click("#lobby-chat .phrase[data-phrase='gg']")  # a quick phrase, in each reader's language
    page_a.wait_for_selector(f"#lobby-lines li[data-pid='{b['id']}'].phrase", timeout=10_000)
    assert "打得好" in page_a.inner_text(f"#lobby-lines li[data-pid='{b['id']}'].phrase")

    _one_language(page_a, "zh")
    _one_language(page_b, "en")
    for page in (page_a, page_b):  # the panels are named for screen readers
        assert page.get_attribute("#online", "aria-labelledby") == "online-title"
        assert page.get_attribute("#lobby-log", "role") == "log"
        assert page.get_attribute("#lobby-chat-input", "aria-label")
    assert page_b.evaluate(TAP_CHECK, "#online") == [] and page_b.evaluate(TAP_CHECK, "#lobby-chat") == []
    page_b.screenshot(path=str(screenshots / "lobby-online-phone.png"), full_page=True)

    # A invites B from the list, with the keyboard: B's Invitations shows A's challenge
    invite = page_a.locator(f"#online-list li[data-player='{b['id']}'] .invite")
    assert b["name"] in (invite.get_attribute("aria-label") or "")
    invite.focus()
    page_a.keyboard.press("Enter")
    page_a.wait_for_function("/已发出邀请/.test(document.querySelector('#invite-status').innerText)")
    page_a.wait_for_selector("#outgoing-challenge .countdown", timeout=10_000)  # followed by Invitations
    invitation = page_b.wait_for_selector("#invitation-list li.invitation", timeout=15_000)
    challenger = invitation.query_selector(".challenger")
    assert challenger is not None and challenger.inner_text() == a["name"]
    assert page_a.locator("#online-list .invite:not([disabled])").count() == 0  # one challenge at a time
    page_b.click("#invitation-list .decline")
    page_a.wait_for_function("/拒绝/.test(document.querySelector('#invite-notice').innerText)", timeout=15_000)
    assert not errors, errors


def test_lobby_with_people_has_no_serious_violations(pair: Any, base_url: str, axe_js: Path) -> None:  # noqa: F811
    ctx_a, _, a, _ = pair
    page = ctx_a.new_page()
    page.goto(f"{base_url}/#/lobby")
    _sees(page, a)
    page.fill("#lobby-chat-input", "axe")
    page.press("#lobby-chat-input", "Enter")
    page.wait_for_selector(f"#lobby-lines li[data-pid='{a['id']}']")
    problems = _violations(page, axe_js, "lobby with people")
    assert not problems, "\n".join(problems)
