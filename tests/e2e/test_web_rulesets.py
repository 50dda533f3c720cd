"""The ruleset is a setting of the web client (issue 12), in a real headless Chromium:
for every ruleset of the engine's registry, choose it in the lobby (its player counts are
the select's options), play the human seat of a match against bots by clicking to the end,
and see the ruleset named on the table, on the result screen's identities (every identity
named and coloured, e.g. classic's 打酱油 green) and cards (every card function named from
the card endpoint), and in the replay viewer. Parametrized over ``RULESET_IDS``."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.web_lobby import click_until_result, start_table

from engine.rulesets import RULESET_IDS, get_ruleset

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

DESKTOP = {"width": 1280, "height": 800}
HOLD_MS = 40
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_init_script(f"localStorage.setItem('fs.hold_ms', '{HOLD_MS}'); localStorage.setItem('fs.lang', 'zh');")
    yield ctx
    ctx.close()


def _names_on_page(page: Any, selector: str) -> list[str]:
    return list(page.eval_on_selector_all(selector, "els => els.map(e => e.textContent.trim())"))


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_each_ruleset_from_the_lobby_to_the_replay(
    context: Any, base_url: str, screenshots: Path, ruleset_id: str
) -> None:
    rules = get_ruleset(ruleset_id)
    counts = sorted(rules.identity_table)
    players = counts[-1]  # the largest table the ruleset allows
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#ruleset option", state="attached")
    offered = page.eval_on_selector_all("#ruleset option", "els => els.map(e => e.value)")
    assert offered == list(RULESET_IDS)  # the registry's rulesets, in its order
    page.fill("#name", f"e2e-{ruleset_id}")
    page.select_option("#ruleset", ruleset_id)
    # the player counts offered are the ruleset's (its identity table), nothing else
    options = page.eval_on_selector_all("#players option", "els => els.map(e => Number(e.value))")
    assert options == counts
    assert rules.zh in page.inner_text("#ruleset-about") or str(counts[-1]) in page.inner_text("#ruleset-about")
    page.select_option("#players", str(players))
    page.select_option("#bot", "random")
    # characters can be asked for exactly when the ruleset has them; this match is dealt
    # without (test_web_client.py plays one with characters)
    assert page.is_enabled("#characters") == bool(rules.characters)
    page.set_checked("#characters", False)
    page.fill("#bot-delay", "0.02")
    page.fill("#turn-timeout", "0")
    start_table(page)
    badge = page.locator("#ruleset-name")
    assert badge.get_attribute("data-ruleset") == ruleset_id and rules.zh in badge.inner_text()
    assert len(page.query_selector_all("#seats .seat")) == players
    page.check("#autopass")  # on by default: kept on

    click_until_result(page, random.Random(ruleset_id), deadline_s=240, what=ruleset_id)

    page.wait_for_function(
        f"document.querySelectorAll('#result table.reveal tr').length >= {players + 1}", timeout=20_000
    )
    page.screenshot(path=str(screenshots / f"ruleset-{ruleset_id}-result.png"), full_page=True)
    # every identity is named (not an enum name) and coloured
    classes = page.eval_on_selector_all("#result table.reveal .identity", "els => els.map(e => e.className)")
    names = _names_on_page(page, "#result table.reveal .identity")
    assert len(names) == players
    assert all(CJK.search(n) for n in names), names
    assert all(re.search(r"\bid-(red|blue|green)\b", c) for c in classes), classes
    # the game-over reason in Chinese too (issue 16 §1)
    reason = page.inner_text("#result .reason")
    assert not re.search(r"[A-Za-z]{3,}", reason), f"{ruleset_id}: the reason is not in Chinese: {reason}"
    # every card function on the page has its printed name (from the card endpoint)
    functions = _names_on_page(page, "#table .card .fname")
    assert functions and all(CJK.search(f) for f in functions), functions

    page.goto(f"{base_url}/#/replay/{page.url.rsplit('/', 1)[-1]}")
    page.wait_for_selector("#replay .seat")
    shown = page.locator("#replay-ruleset")
    assert shown.get_attribute("data-ruleset") == ruleset_id and rules.zh in shown.inner_text()
    assert len(page.query_selector_all("#replay .seat")) == players
    # the step's action drawn from its value (ReplayStep.acted) like a log line: the actor's
    # seat and the action in Chinese, no notation word
    label = page.inner_text("#step-label")
    assert re.search(r"座位\d：", label) and not re.search(r"\b(play|send|skill|choose|pass)\b", label), label
    # in English: the ruleset is still named, identities by their English names
    page.click("#lang")
    page.wait_for_selector("#replay-ruleset")
    page.wait_for_function("/Ruleset/.test(document.querySelector('#replay-ruleset').innerText)")
    assert ruleset_id in page.inner_text("#replay-ruleset")
    assert not errors, errors


def test_the_ranked_queue_offers_each_rulesets_player_counts(context: Any, base_url: str) -> None:
    """The lobby's ranked-queue panel: the ruleset is chosen (the registry's, in its order),
    both ends of the player range offer exactly that ruleset's counts (its identity table:
    return 3-7, classic 3-9), a count still allowed is kept, and the queue request names the
    ruleset. The ticket is left at once (nobody is matched)."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#ranked-ruleset option", state="attached")
    offered = page.eval_on_selector_all("#ranked-ruleset option", "els => els.map(e => e.value)")
    assert offered == list(RULESET_IDS)
    values = "els => els.map(e => Number(e.value))"
    for ruleset_id in [*RULESET_IDS, *reversed(RULESET_IDS)]:
        page.select_option("#ranked-ruleset", ruleset_id)
        counts = sorted(get_ruleset(ruleset_id).identity_table)
        assert page.eval_on_selector_all("#ranked-min option", values) == counts, ruleset_id
        assert page.eval_on_selector_all("#ranked-max option", values) == counts, ruleset_id
        assert int(page.input_value("#ranked-min")) in counts and int(page.input_value("#ranked-max")) in counts
    widest = max(RULESET_IDS, key=lambda r: max(get_ruleset(r).identity_table))
    narrowest = min(RULESET_IDS, key=lambda r: max(get_ruleset(r).identity_table))
    top = max(get_ruleset(widest).identity_table)
    page.select_option("#ranked-ruleset", widest)
    page.select_option("#ranked-min", str(top))
    page.select_option("#ranked-max", str(top))
    if top not in get_ruleset(narrowest).identity_table:  # a count the other ruleset lacks is not kept
        page.select_option("#ranked-ruleset", narrowest)
        assert int(page.input_value("#ranked-max")) in get_ruleset(narrowest).identity_table
        page.select_option("#ranked-ruleset", widest)
        page.select_option("#ranked-min", str(top))
        page.select_option("#ranked-max", str(top))
    page.fill("#name", "ranked-rulesets")
    with page.expect_response(lambda r: r.url.endswith("/api/ranked/queue") and r.request.method == "POST") as got:
        page.click("#ranked-join")
    ticket = got.value.json()
    page.wait_for_function("!document.querySelector('#ranked-leave').disabled || /matched|已匹配/.test("
                           "document.querySelector('#ranked-status').innerText)")  # fmt: skip
    if page.is_enabled("#ranked-leave"):
        page.click("#ranked-leave")
    assert got.value.status == 201, ticket
    assert got.value.request.post_data_json["ruleset"] == widest
    assert ticket["ruleset"] == widest and ticket["min_players"] == top and ticket["max_players"] == top
    assert not errors, errors
