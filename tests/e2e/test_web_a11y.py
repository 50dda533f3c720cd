"""Accessibility of the web client checked with axe-core (issue 28 §7): no serious or
critical violation on the lobby, a table in play and a replay, in Chinese on a desktop and
in English on a phone screen, and on the result screen (Chinese, desktop).

axe-core is the npm package pinned in tests/e2e/axe/package.json (package-lock.json
committed); ``npm ci`` there installs it (``./dev install`` does not need the network
for it twice). The test injects ``axe.min.js`` from disk into the page: nothing is
fetched at test time.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers.web_lobby import click_until_result, fill_play_form, legal_now, start_table

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
BAD = ("serious", "critical")


@pytest.fixture(scope="module")
def axe_js() -> Path:
    """axe.min.js, installed from the committed lock file when missing (npm ci)."""
    if not AXE_JS.exists() and shutil.which("npm"):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=AXE_DIR, check=False, timeout=600)
    if not AXE_JS.exists():
        pytest.skip(f"axe-core is not installed: run `npm ci` in {AXE_DIR}")
    return AXE_JS


def _violations(page: Any, axe_js: Path, where: str) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_js))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    out = []
    for v in found:
        if v.get("impact") in BAD:
            targets = [", ".join(n["target"]) for n in v["nodes"][:12]]
            out.append(f"{where}: {v['id']} ({v['impact']}) {v['help']} at {targets}")
    return out


@pytest.fixture(params=[("zh", DESKTOP), ("en", PHONE)], ids=["zh-desktop", "en-phone"])
def page(request: Any, browser: Any) -> Iterator[Any]:
    lang, viewport = request.param
    ctx = browser.new_context(viewport=viewport)
    ctx.add_init_script(f"localStorage.setItem('fs.hold_ms', '40'); localStorage.setItem('fs.lang', '{lang}');")
    page = ctx.new_page()
    yield page
    ctx.close()


def _finished_bots_match(base_url: str) -> str:
    created = httpx.post(
        f"{base_url}/api/matches", json={"players": 5, "humans": 0, "bot": "random", "characters": True}
    ).json()
    match_id = str(created["match_id"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if httpx.get(f"{base_url}/api/matches/{match_id}").json()["observation"]["outcome"]["over"]:
            return match_id
        time.sleep(0.5)
    pytest.fail("the bots' match did not finish")


def test_no_serious_violations_on_lobby_table_result_and_replay(page: Any, base_url: str, axe_js: Path) -> None:
    problems: list[str] = []
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#ruleset option", state="attached")
    page.wait_for_timeout(500)
    problems += _violations(page, axe_js, "lobby")

    fill_play_form(page, ruleset_id="return", players=5, characters=True, name="axe")
    start_table(page)
    deadline = time.monotonic() + 60
    while not legal_now(page) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    problems += _violations(page, axe_js, "table")

    if page.viewport_size["width"] > PHONE["width"]:  # the result screen once (a whole match to play)
        click_until_result(page, random.Random(7), deadline_s=240, what="the axe match")
        page.wait_for_selector("#result table.reveal tbody tr")
        problems += _violations(page, axe_js, "result")

    match_id = _finished_bots_match(base_url)
    page.goto(f"{base_url}/#/replay/{match_id}")
    page.wait_for_selector("#replay")
    page.wait_for_timeout(500)
    problems += _violations(page, axe_js, "replay")
    assert not problems, "\n".join(problems)
