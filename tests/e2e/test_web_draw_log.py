"""The draw bug (issue 27, acceptance), in a real headless Chromium: another seat's draw
shows in the public log as a count ("座位4摸了2张牌" / "seat 4 draws 2"), never as a card.

Before events were values, the public line "4 draws 2" was matched back to the row of the
drawer's own line ("{seat} draws {cards}") and the client showed card #2 ("座位4摸了试探#2")
for every other seat and for spectators. For every ruleset and both languages this plays
the human seat of a table against random bots (clicking, as a player does) until the public
log has shown at least ``WANTED`` draws of other seats (or the match ends), and checks every
such line: no card name in it, and exactly the count template's words.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from helpers.web_lobby import click_until_result, fill_play_form, start_table

from engine.rulesets import RULESET_IDS, get_ruleset

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

WANTED = 4  # other seats' draws seen before the match may stop
COUNT_LINE = {
    "zh": re.compile(r"座位\d+摸\d+张牌"),
    "en": re.compile(r"seat \d+ draws \d+", re.IGNORECASE),
}


class _Enough(Exception):
    """Enough draws seen: the rest of the match adds nothing to the check."""


@pytest.fixture(params=["zh", "en"])
def lang_context(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    lang = str(request.param)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script(f"localStorage.setItem('fs.hold_ms', '40'); localStorage.setItem('fs.lang', '{lang}');")
    yield lang, ctx
    ctx.close()


def _public_draws(page: Any) -> list[dict[str, Any]]:
    """Every draw line of the public log: its text and the card names in it."""
    return list(
        page.eval_on_selector_all(
            "#log li[data-kind='draw']",
            "els => els.map(e => ({text: e.textContent.trim(),"
            " cards: [...e.querySelectorAll('.cardname')].map(c => c.textContent)}))",
        )
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_another_seats_draw_is_a_count_in_the_public_log(
    lang_context: tuple[str, Any], base_url: str, ruleset_id: str
) -> None:
    lang, context = lang_context
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#ruleset option", state="attached")
    counts = sorted(get_ruleset(ruleset_id).identity_table)
    fill_play_form(page, ruleset_id=ruleset_id, players=counts[0], characters=False, name=f"draw-{lang}")
    start_table(page)
    page.click("#autopass")

    def enough(_actions: list[str], _clicks: int) -> bool:
        if len(_public_draws(page)) >= WANTED:
            raise _Enough
        return False

    with contextlib.suppress(_Enough):
        click_until_result(page, random.Random(f"{ruleset_id}-{lang}"), deadline_s=180, before_click=enough,
                           what=f"{ruleset_id} ({lang})")
    draws = _public_draws(page)
    assert draws, f"{ruleset_id} ({lang}): no other seat's draw in the public log"
    for line in draws:
        assert not line["cards"], f"{ruleset_id} ({lang}): another seat's draw names a card: {line}"
        assert not re.search(r"#\d", line["text"]), f"{ruleset_id} ({lang}): a card number in {line}"
        assert COUNT_LINE[lang].fullmatch(line["text"]), f"{ruleset_id} ({lang}): not a count: {line}"
    assert not errors, errors
