"""谍战篇 at the web table (issue 13, platform point), in a real headless Chromium.

For each language, the human seat plays a whole 谍战篇 match against random bots by clicking.
Its policy makes the ruleset's own shapes show up: it sends with a lock (锁定) whenever it may,
and accepts every intel it may (so black intel piles up in front of it and it becomes dying:
the rescue round then starts with it, digest §6.2). The autopass box stays off, so every
contest phase asks the human (digest §4.4: every living player is asked) and its banner
stays on screen while the human decides.

Asserted, from what the page draws:
- hand cards show their printed arrow (← → ↑, ``data-arrow`` and the arrow glyph) and the
  lock icon (🔒) on cards that carry it; received intel in the intel rows shows them too;
- a send with a lock shows the locked seat in the transit panel (``#transit-lock``);
- the phase banner names the contest phase (争夺阶段 / Contest phase) in each language;
- when a rescue round is reached, the banner names it (濒死结算 / Rescue round) with the
  dying seat, and that seat's panel has the dying badge.

Screenshots (desktop, 1280×800) go to test-output/screenshots/spy-<lang>-*.png.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.web_lobby import compose, fill_play_form, legal_now, start_table

from engine.rulesets import get_ruleset

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

DESKTOP = {"width": 1280, "height": 800}
HOLD_MS = 40
ARROWS = {"left": "←", "right": "→", "up": "↑"}
#: the banner's words per language (gateway/static/js/i18n.js: phase_contest, phase_rescue,
#: seat_dying), after the digest's terms: 争夺阶段 (§4.4), 濒死 (§6.1), the source's 濒死结算
CONTEST = {"zh": "争夺阶段", "en": "Contest phase"}
RESCUE = {"zh": "濒死结算", "en": "Rescue round"}
DYING = {"zh": "濒死", "en": "is dying"}
SEAT = {"zh": "座位", "en": "Seat"}

#: one snapshot of the page, read at once (the table redraws between two separate reads):
#: every card face (where it is, its data-arrow / data-lock and its glyphs), the phase
#: banner, the seats with the dying badge, the transit panel's locked seats
SNAPSHOT = """() => ({
  faces: [...document.querySelectorAll('.card[data-card]')].map(e => ({
    where: e.closest('#hand') ? 'hand' : e.closest('.intel-row') ? 'intel'
      : e.closest('#transit') ? 'transit' : 'other',
    card: Number(e.dataset.card),
    arrow: e.dataset.arrow || '',
    lock: e.dataset.lock === '1',
    glyph: e.querySelector('.meta .arrow')?.textContent || '',
    lockGlyph: Boolean(e.querySelector('.meta .lock-icon')),
  })),
  phase: document.querySelector('#phase')?.dataset.phase || '',
  banner: document.querySelector('#phase')?.innerText || '',
  dying: [...document.querySelectorAll('.seat')].filter(e => e.querySelector('.badge.dying')).map(e => e.dataset.seat),
  lock: document.querySelector('#transit-lock')?.innerText || '',
})"""


@pytest.fixture()
def context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    lang = request.node.callspec.params["lang"]
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_init_script(
        f"localStorage.setItem('fs.hold_ms', '{HOLD_MS}'); localStorage.setItem('fs.lang', '{lang}');"
        " localStorage.setItem('fs.autopass', '0');"
    )
    yield ctx
    ctx.close()


def _choose(actions: list[str], rng: random.Random) -> str:
    """The human's policy: a send with a lock, else accept, else a random action."""
    locked_sends = [a for a in actions if a.startswith("send ") and " lock " in a]
    if locked_sends:
        return rng.choice(locked_sends)
    if "accept" in actions:
        return "accept"
    return rng.choice(actions)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_spy_match_shows_arrows_locks_and_its_phases(
    context: Any, base_url: str, screenshots: Path, lang: str
) -> None:
    rules = get_ruleset("spy")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#ruleset option", state="attached")
    fill_play_form(page, ruleset_id="spy", players=sorted(rules.identity_table)[0], characters=False)
    start_table(page)
    assert page.is_visible("#legend-spy")

    rng = random.Random(f"spy-web-{lang}")
    faces: dict[tuple[str, int], dict[str, Any]] = {}
    banners: dict[str, str] = {}  # phase kind -> banner text
    rescue_badges: list[tuple[str, list[str]]] = []  # (banner, seats with the dying badge)
    transit_locks: list[str] = []
    lock_sends = 0
    clicks = 0
    shot: set[str] = set()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if page.query_selector("#result"):
            break
        snap = page.evaluate(SNAPSHOT)
        for f in snap["faces"]:
            faces.setdefault((f["where"], f["card"]), f)
        phase = snap["phase"]
        if phase:
            banners.setdefault(phase, snap["banner"])
            if phase == "rescue":
                rescue_badges.append((snap["banner"], snap["dying"]))
            if phase in ("contest", "rescue") and phase not in shot:
                page.screenshot(path=str(screenshots / f"spy-{lang}-{phase}.png"))
                shot.add(phase)
        if snap["lock"]:
            transit_locks.append(snap["lock"])
            if "lock" not in shot:
                page.screenshot(path=str(screenshots / f"spy-{lang}-lock.png"))
                shot.add("lock")
        actions = legal_now(page)  # the legal actions open in the composer (never shown)
        if not actions:
            page.wait_for_timeout(30)
            continue
        action = _choose(actions, rng)
        try:
            compose(page, action)
        except Exception:  # the prompt moved on while we were choosing: choose again
            cancel = page.query_selector("#compose-cancel, #compose-back")
            if cancel is not None:
                with contextlib.suppress(Exception):
                    cancel.click(timeout=500)
            continue
        clicks += 1
        lock_sends += action.startswith("send ") and " lock " in action
        page.wait_for_timeout(20)
    else:
        page.screenshot(path=str(screenshots / f"spy-{lang}-stuck.png"), full_page=True)
        pytest.fail(f"no result screen after {clicks} clicks; page errors: {errors}")
    page.wait_for_selector("#result table.reveal")
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshots / f"spy-{lang}-result.png"), full_page=True)

    # the printed arrows and lock icons of the deck (spy-deck.tsv), as GET /api/cards gives them
    deck = page.evaluate("() => fetch('/api/cards?ruleset=spy').then(r => r.json()).then(d => d.cards)")
    hand = [f for (where, _), f in faces.items() if where == "hand"]
    assert len(hand) >= 3, hand
    for f in hand + [f for (where, _), f in faces.items() if where in ("intel", "transit")]:
        printed = deck[str(f["card"])]
        assert f["arrow"] == printed["transmission"], f
        assert f["glyph"] == ARROWS[printed["transmission"]], f
        assert f["lock"] == f["lockGlyph"] == bool(printed["lock_icon"]), f
    assert any(f["lock"] for f in faces.values()), "no card with the lock icon was ever drawn"
    assert any(where == "intel" for where, _ in faces), "no intel was ever shown in an intel row"
    if lock_sends:
        assert transit_locks, f"{lock_sends} sends with a lock, never shown in the transit panel"
        assert all(SEAT[lang] in text for text in transit_locks), transit_locks[:3]

    assert "contest" in banners, f"no contest phase in {clicks} clicks: {banners}"
    assert CONTEST[lang] in banners["contest"], banners["contest"]
    if "rescue" in banners:  # reached when the human (who accepts everything) holds 3 black intel
        for text, dying in rescue_badges:
            assert RESCUE[lang] in text and DYING[lang] in text and SEAT[lang] in text, text
            assert len(dying) == 1 and f"{SEAT[lang]} {dying[0]}" in text, (text, dying)
    print(
        f"spy {lang}: {clicks} clicks, phases {sorted(banners)}, lock sends {lock_sends}, "
        f"rescue rounds seen {len(rescue_badges)}"
    )

    # the replay shows each step's phase too: step forward to the first contest phase
    page.click("#result a[href^='#/replay/']")
    page.wait_for_selector("#replay")
    page.click("#replay .replay-controls button:has-text('|◀')")  # the replay opens at its end
    for _ in range(600):
        if page.get_attribute("#replay-phase #phase", "data-phase") == "contest":
            break
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("#replay-phase #phase", "data-phase") == "contest"
    assert CONTEST[lang] in page.inner_text("#replay-phase #phase")
    page.screenshot(path=str(screenshots / f"spy-{lang}-replay-contest.png"))
    assert not errors, errors
