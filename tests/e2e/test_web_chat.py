"""Chat and phone screens in a real headless Chromium (issue 16 §4 and §5).

- A seated player and two spectators talk: an XSS payload is shown as text and runs nothing,
  quick phrases appear in the reader's language, the spectators never get the table's chat
  while the match runs (nor the player the spectators'), and a muted spectator disappears.
- The chat is kept with the match: the replay of a finished match shows it.
- At 390x844 every visible control is at least 44 px high and nothing is wider than the
  screen (lobby, table, spectator view); screenshots at 1280 and 390 are saved under
  test-output/screenshots/ (chat-*, phone-*).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
XSS = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'

#: every visible control smaller than a 44 px tap target, and the page's width
_TAP_CHECK = """() => {
  const small = [];
  for (const el of document.querySelectorAll('button, a, input, select, label.autopass')) {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
    // links inside running text (names in lists and tables) are text, not controls
    if (el.closest('.seat-name, .matches li a:not(.button), .ladder, .log, .chain, td')) continue;
    const what = `${el.tagName.toLowerCase()}#${el.id}.${el.className} "${(el.textContent || '').trim().slice(0, 20)}"`;
    if (r.height < 43.5) small.push(`${what} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return {small, width: document.documentElement.scrollWidth};
}"""


@pytest.fixture()
def browser_context(browser: Any) -> Iterator[Any]:
    made: list[Any] = []

    def make(lang: str = "zh", viewport: dict[str, int] | None = None) -> Any:
        ctx = browser.new_context(viewport=viewport or DESKTOP)
        ctx.add_init_script(f"localStorage.setItem('fs.hold_ms', '60'); localStorage.setItem('fs.lang', '{lang}');")
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


def _lines(page: Any, channel: str) -> list[str]:
    return list(page.eval_on_selector_all(f"#chat-{channel} .chat-line .said", "els => els.map(e => e.textContent)"))


def _wait_line(page: Any, channel: str, text: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while text not in _lines(page, channel):
        if time.monotonic() > deadline:
            pytest.fail(f"{text!r} never shown in #chat-{channel}: {_lines(page, channel)}")
        page.wait_for_timeout(100)


def _phone_check(page: Any, screenshots: Path, name: str) -> None:
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    page.screenshot(path=str(screenshots / f"phone-{name}.png"), full_page=True)
    found = page.evaluate(_TAP_CHECK)
    assert found["width"] <= PHONE["width"], f"{name}: the page is {found['width']} px wide at 390 px"
    assert not found["small"], f"{name}: tap targets under 44 px: {found['small']}"
    page.set_viewport_size(DESKTOP)


def test_chat_at_the_table_and_among_spectators(browser_context: Any, base_url: str, screenshots: Path) -> None:
    player = browser_context("zh").new_page()
    errors: list[str] = []
    player.on("pageerror", lambda exc: errors.append(str(exc)))
    player.goto(f"{base_url}/#/lobby")
    player.wait_for_selector("#play-now")
    _phone_check(player, screenshots, "lobby")
    player.fill("#name", "ann-has-a-very-long-nickname-xx")  # 32 characters, the most a name may have
    player.select_option("#players", "3")
    player.select_option("#bot", "random")
    player.fill("#turn-timeout", "0")
    player.click("#play-now")
    player.wait_for_selector("#table.player #chat-input")
    match_id = player.url.rsplit("/", 1)[1]
    # the first prompt (characters are on by default) in Chinese (issue 16 §1)
    player.wait_for_selector("#prompt .prompt-text")
    assert player.inner_text("#prompt .prompt-text") == "选择你的角色"

    # an XSS payload is shown as the text it is, and runs nothing
    player.fill("#chat-input", XSS)
    player.click("#chat-send")
    _wait_line(player, "table", XSS)
    assert player.evaluate("window.__pwned") is None
    assert player.query_selector("#chat img, #chat script") is None
    player.click('.chat-phrases button[data-phrase="gg"]')
    _wait_line(player, "table", "打得好!(GG)")
    assert player.query_selector("#chat-spectators") is None, "the spectators' chat is hidden while the match runs"

    # spectators: their own channel, never the table's while it runs
    watcher = browser_context("en").new_page()
    spectator_frames: list[str] = []
    watcher.on("response", lambda r: spectator_frames.append(r.text()) if "/chat" in r.url else None)
    watcher.goto(f"{base_url}/#/spectate/{match_id}")
    watcher.wait_for_selector("#table.spectator #chat-input")
    watcher.fill("#chat-input", "go ann")
    watcher.click("#chat-send")
    _wait_line(watcher, "spectators", "go ann")
    heckler = browser_context("en").new_page()
    heckler.goto(f"{base_url}/#/spectate/{match_id}")
    heckler.wait_for_selector("#chat-input")
    heckler.click('.chat-phrases button[data-phrase="hurry"]')
    _wait_line(watcher, "spectators", "Hurry up~")  # the watcher reads it in English
    assert watcher.query_selector("#chat-table") is None
    assert not any("onerror" in body for body in spectator_frames), "a spectator received the table's chat"
    watcher.screenshot(path=str(screenshots / "chat-spectator-desktop.png"))

    # mute the heckler: their lines go, for this browser only
    watcher.click('#chat-spectators .chat-line:has(.said:text("Hurry up~")) button.mute')
    watcher.wait_for_timeout(200)
    assert "Hurry up~" not in _lines(watcher, "spectators") and "go ann" in _lines(watcher, "spectators")
    assert watcher.query_selector(".chat-unmute")
    _phone_check(watcher, screenshots, "spectator")

    # the player never saw the spectators' lines
    player.wait_for_timeout(2500)
    assert "go ann" not in player.inner_text("#chat")
    player.screenshot(path=str(screenshots / "chat-table-desktop.png"))
    # a long name never pushes the identity badge out of its seat panel (issue 16, "seen today")
    for width in (1280, 390):
        player.set_viewport_size({"width": width, "height": 844})
        player.wait_for_timeout(150)
        outside = player.evaluate("""() => [...document.querySelectorAll('.seat')].filter(seat => {
          const box = seat.getBoundingClientRect();
          return [...seat.querySelectorAll('header > *')].some(el => {
            const r = el.getBoundingClientRect();
            return r.right > box.right + 0.5 || r.left < box.left - 0.5;
          });
        }).length""")
        assert outside == 0, f"{outside} seat headers overflow their panel at {width} px"
    player.set_viewport_size(DESKTOP)
    _phone_check(player, screenshots, "table")
    assert not errors, errors


def test_the_replay_shows_the_chat(browser_context: Any, base_url: str, screenshots: Path) -> None:
    with httpx.Client(base_url=base_url, timeout=10) as http:
        token = http.post("/api/guests", json={"name": "rail"}).json()["token"]
        made = http.post("/api/matches", json={"players": 3, "humans": 0, "bot": "random", "bot_delay_ms": 50})
        assert made.status_code == 201, made.text
        match_id = made.json()["match_id"]
        said = http.post(
            f"/api/matches/{match_id}/chat",
            json={"channel": "spectators", "text": XSS},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert said.status_code == 201, said.text
        deadline = time.monotonic() + 120
        while not http.get(f"/api/matches/{match_id}").json()["observation"]["outcome"]["over"]:
            assert time.monotonic() < deadline, "the bots' match did not end"
            time.sleep(0.5)
    page = browser_context("zh").new_page()
    page.goto(f"{base_url}/#/replay/{match_id}")
    page.wait_for_selector("#chat-spectators .chat-line")
    # both channels under their headings (the table's is empty: a bots-only match)
    assert page.query_selector('#chat section[data-channel="table"] #chat-table')
    assert page.query_selector('#chat section[data-channel="spectators"] #chat-spectators')
    assert _lines(page, "spectators") == [XSS]
    assert page.evaluate("window.__pwned") is None
    assert page.query_selector("#chat-input") is None, "the replay's chat is read only"
    page.screenshot(path=str(screenshots / "chat-replay-desktop.png"))
