"""Challenges in the web lobby, in a real headless Chromium with two browser contexts (two
guests): A challenges B from B's profile (``POST /api/casual``: A, B and a house bot); B's
lobby shows the invitation (pushed on ``/ws/ranked``) with A's name, the ruleset, the seats
and a countdown, with Accept / Decline of at least 44 px on a phone; B accepts and both land
at the same casual match's table. And a declined challenge: it leaves B's lobby with a
notice, and A's profile page says it was declined (docs/web-client.md, *Invitations and
challenges*)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_language import ALLOWED_ZH, READ_TEXT, _foreign

from engine.rulesets import RULESET_IDS, get_ruleset

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _guest(base_url: str, name: str) -> dict[str, str]:
    reply = httpx.post(f"{base_url}/api/guests", json={"name": name}, timeout=20)
    assert reply.status_code == 201, reply.text
    body = reply.json()
    return {"id": body["player_id"], "name": body["name"], "token": body["token"]}


def _context(browser: Any, guest: dict[str, str], lang: str, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=viewport)
    record = json.dumps(json.dumps(guest))
    ctx.add_init_script(
        f"localStorage.setItem('fs.hold_ms', '60'); localStorage.setItem('fs.lang', '{lang}');"
        f"if (!localStorage.getItem('fs.guest')) localStorage.setItem('fs.guest', {record});"
    )
    return ctx


@pytest.fixture()
def pair(browser: Any, base_url: str) -> Iterator[tuple[Any, Any, dict[str, str], dict[str, str]]]:
    """A (Chinese, desktop) and B (English, phone): two contexts, each with its own guest."""
    suffix = str(int(time.time() * 1000) % 100000)
    a, b = _guest(base_url, f"alice{suffix}"), _guest(base_url, f"bob{suffix}")
    ctx_a, ctx_b = _context(browser, a, "zh", DESKTOP), _context(browser, b, "en", PHONE)
    yield ctx_a, ctx_b, a, b
    ctx_a.close()
    ctx_b.close()


#: the controls under `scope` smaller than a 44 px tap target (tests/e2e/test_web_chat.py)
TAP_CHECK = """(scope) => [...document.querySelectorAll(`${scope} button, ${scope} a`)]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.height > 0 && r.height < 43.5; })
  .map((el) => `${el.tagName} ${el.className} "${el.textContent.trim().slice(0, 20)}"`)"""


def _one_language(page: Any, lang: str) -> None:
    """The page's own words are all in its language (tests/e2e/test_web_language.py's rules)."""
    text = page.evaluate(READ_TEXT, page.query_selector("#app"))
    found = _foreign(text, lang, ALLOWED_ZH | {get_ruleset(r).zh for r in RULESET_IDS})
    assert not found, (found, text)


def _watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    return errors


def _lobby_listening(page: Any, base_url: str) -> None:
    """B's lobby with its invitations panel, following /ws/ranked."""
    with page.expect_websocket(lambda ws: "/ws/ranked" in ws.url):
        page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#invitations #invitation-list li.none")
    page.wait_for_timeout(1000)  # the socket's subscription is made server-side after it opens


def _challenge(page: Any, base_url: str, opponent: dict[str, str]) -> None:
    """A opens B's profile and challenges B: the page shows the pending challenge."""
    page.goto(f"{base_url}/#/profile/{opponent['id']}?ruleset=return")
    page.wait_for_selector("#profile #challenge")
    page.click("#challenge")
    page.wait_for_function("/等待对方答复/.test(document.querySelector('#challenge-status').innerText)")


def test_a_challenge_accepted_opens_the_same_table_for_both(pair: Any, base_url: str, screenshots: Path) -> None:
    ctx_a, ctx_b, a, b = pair
    page_a, page_b = ctx_a.new_page(), ctx_b.new_page()
    errors = _watch_errors(page_a) + _watch_errors(page_b)
    _lobby_listening(page_b, base_url)
    _challenge(page_a, base_url, b)

    invitation = page_b.wait_for_selector("#invitation-list li.invitation", timeout=15_000)
    challenger = invitation.query_selector(".challenger")
    assert challenger is not None and challenger.inner_text() == a["name"]
    assert challenger.get_attribute("translate") == "no"  # a name a user chose
    text = invitation.inner_text()
    assert "challenges you" in text and "return" in text and "3 seats" in text, text

    def left() -> int:
        found = re.search(r"(\d+) s left", page_b.inner_text("#invitation-list .countdown"))
        assert found, page_b.inner_text("#invitation-list")
        return int(found.group(1))

    _one_language(page_b, "en")  # B reads English, A Chinese
    _one_language(page_a, "zh")
    first = left()
    assert 0 < first <= 30
    page_b.wait_for_timeout(2100)
    assert left() < first  # it counts down
    for button in (".accept", ".decline"):
        box = page_b.locator(f"#invitation-list {button}").bounding_box()
        assert box is not None and box["height"] >= 44, (button, box)  # a phone's tap target
    assert page_b.evaluate(TAP_CHECK, "#invitations") == []
    # on a phone the panel with an invitation comes first, above the long play form
    assert page_b.evaluate("document.querySelector('#invitations').getBoundingClientRect().top") < page_b.evaluate(
        "document.querySelector('#play-form').getBoundingClientRect().top"
    )

    page_b.screenshot(path=str(screenshots / "lobby-invitation-phone.png"), full_page=True)
    page_a.screenshot(path=str(screenshots / "profile-challenge-desktop.png"))
    page_a.set_viewport_size(PHONE)
    assert page_a.evaluate(TAP_CHECK, ".challenge-box") == []
    page_b.click("#invitation-list .accept")
    page_b.wait_for_selector("#table.player", timeout=20_000)
    page_a.wait_for_selector("#table.player", timeout=20_000)
    match_b, match_a = page_b.url.rsplit("/", 1)[1], page_a.url.rsplit("/", 1)[1]
    assert match_a == match_b and match_a.startswith("cs-"), (page_a.url, page_b.url)
    for page, me in ((page_a, a), (page_b, b)):  # each at its own seat of the one match
        page.wait_for_selector("#my-identity", timeout=20_000)
        assert me["name"] in page.inner_text("#seats")
    assert not errors, errors


def test_a_declined_challenge_is_said_on_both_sides(pair: Any, base_url: str) -> None:
    ctx_a, ctx_b, a, b = pair
    page_a, page_b = ctx_a.new_page(), ctx_b.new_page()
    errors = _watch_errors(page_a) + _watch_errors(page_b)
    _lobby_listening(page_b, base_url)
    _challenge(page_a, base_url, b)

    page_b.wait_for_selector("#invitation-list li.invitation .decline", timeout=15_000)
    page_b.click("#invitation-list .decline")
    page_b.wait_for_selector("#invite-notice [data-state=declined]")
    assert a["name"] in page_b.inner_text("#invite-notice")
    page_b.wait_for_selector("#invitation-list li.none")  # the invitation is gone
    _one_language(page_b, "en")

    page_a.wait_for_selector("#challenge-status [data-state=declined]", timeout=10_000)
    assert "对方拒绝了挑战" in page_a.inner_text("#challenge-status")
    assert page_a.is_enabled("#challenge")  # A may challenge again
    assert "#/profile/" in page_a.url and "#/lobby" in page_b.url  # no table opened

    # again, and A goes back to the lobby: its invitations panel follows A's open challenge
    page_a.click("#challenge")
    page_a.wait_for_function("/等待对方答复/.test(document.querySelector('#challenge-status').innerText)")
    assert page_a.is_disabled("#challenge")  # one open challenge at a time
    page_a.goto(f"{base_url}/#/lobby")
    page_a.wait_for_function(
        "/你的挑战.*等待对方答复.*剩余\\d+秒/.test(document.querySelector('#outgoing-challenge').innerText)"
    )
    assert b["id"] in page_a.inner_text("#outgoing-challenge")  # no ladder row: B is named by id
    _one_language(page_a, "zh")
    page_b.wait_for_selector("#invitation-list li.invitation .decline", timeout=15_000)
    page_b.click("#invitation-list .decline")
    page_a.wait_for_selector("#invite-notice [data-state=declined]", timeout=10_000)
    assert "对方拒绝了挑战" in page_a.inner_text("#invite-notice")
    assert page_a.inner_text("#outgoing-challenge") == ""
    assert not errors, errors


def test_an_unanswered_invitation_expires_with_a_notice(pair: Any, base_url: str) -> None:
    """No answer by `expires_ms` (FENGSHENG_CHALLENGE_TIMEOUT_MS, 30 s here): the invitation
    leaves B's lobby with a notice. A challenges through the API this time."""
    _, ctx_b, a, b = pair
    page_b = ctx_b.new_page()
    errors = _watch_errors(page_b)
    _lobby_listening(page_b, base_url)
    auth = {"authorization": f"Bearer {a['token']}"}
    made = httpx.post(f"{base_url}/api/casual", json={"ruleset": "return", "seats": ["me", b["id"], "heuristic"]},
                      headers=auth, timeout=20)  # fmt: skip
    assert made.status_code == 201 and made.json()["state"] == "pending", made.text
    page_b.wait_for_selector("#invitation-list li.invitation .accept", timeout=15_000)
    wait_s = (made.json()["expires_ms"] / 1000 - time.time()) + 10
    page_b.wait_for_selector("#invite-notice [data-state=expired]", timeout=wait_s * 1000)
    assert a["name"] in page_b.inner_text("#invite-notice")
    assert page_b.query_selector("#invitation-list li.invitation") is None
    ticket = httpx.get(f"{base_url}/api/ranked/queue/{made.json()['ticket_id']}", headers=auth, timeout=20).json()
    assert ticket["state"] == "expired", ticket
    assert not errors, errors
