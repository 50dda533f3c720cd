"""Every word in the player's language (issue 16 §1), in a real headless Chromium.

For every ruleset of the registry and both languages, play the human seat of a whole match
against bots (characters dealt when the ruleset has them) by clicking, reading the table's
text (and the hover titles of cards and characters) every few clicks and on the result
screen: in Chinese no English word may show outside :data:`ALLOWED_EN`, in English no
Chinese character outside :data:`ALLOWED_ZH`. Player names, the action notation (shown in
``<code>`` only with the composer's debug toggle, off here), the chat and the form fields
are not the client's words and are not read; the options of the page's selects (the
leaderboard's ruleset, the bot level) are.

Every prompt the human seat meets and the action buttons under it are read at every click
(issue 28 §2: every prompt says what is asked, in the player's language): the test counts
the untranslated words of the log, the prompts, the buttons and the card texts over whole
matches of each ruleset and wants 0.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from helpers.web_lobby import click_until_result, fill_play_form, start_table

from engine.rulesets import RULESET_IDS, get_ruleset
from services.engine.rulesets import function_and_skill_texts

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

DESKTOP = {"width": 1280, "height": 800}
HOLD_MS = 40
#: English words a Chinese page may show: the language switch, and printed names' marks
#: (谍战篇's 顾小梦(SP))
ALLOWED_EN = {"English", "GG", "SP"}
#: Chinese a page in English may show: the language switch, the rulesets' printed names
#: (shown beside their ids; added in the test) and the printed codes (暗号) of 风声再临's cards, which are
#: their names on the cards (shown with their colour)
ALLOWED_ZH = {"中文", "听风", "看雨", "日落"}

#: the page's own text and hover titles, outside names (seat names, and anything marked
#: translate="no": a name a user chose), notation, chat and form fields
READ_TEXT = """(root) => {
  const skip = "code, .seat-name, [translate=no], .chat, #chat, .chat-panel, script, style, "
    + "select, option, input, textarea";
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || el.closest(skip)) continue;
    out.push(walker.currentNode.textContent);
  }
  for (const el of root.querySelectorAll("[title]")) {
    // an action button's title is its notation, as its <code> is
    if (!el.closest(skip) && !el.closest("[data-action]")) out.push(el.getAttribute("title"));
  }
  return out.join("\\n");
}"""

#: the prompt and the action buttons' labels (their notation in <code> aside)
READ_PROMPT = """() => {
  const out = [];
  for (const sel of ["#prompt", "#actions"]) {
    const root = document.querySelector(sel);
    if (!root) continue;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const el = walker.currentNode.parentElement;
      if (el && !el.closest("code, .seat-name, [translate=no]")) out.push(walker.currentNode.textContent);
    }
  }
  return out.join("\\n");
}"""

#: the options of the page's selects (the leaderboard's ruleset, the bot level): not a
#: user's input, the client's words
READ_OPTIONS = "() => [...document.querySelectorAll('select option')].map(o => o.textContent).join('\\n')"


@pytest.fixture()
def context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    lang = request.node.callspec.params["lang"]
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_init_script(f"localStorage.setItem('fs.hold_ms', '{HOLD_MS}'); localStorage.setItem('fs.lang', '{lang}');")
    yield ctx
    ctx.close()


def _foreign(text: str, lang: str, allowed_zh: set[str]) -> set[str]:
    """The words of ``text`` not in ``lang`` (outside the allow-lists)."""
    if lang == "zh":
        # words only: a token with digits is an id (the match id), not a word
        tokens = re.findall(r"[A-Za-z0-9_]+", text)
        return {w for w in tokens if re.fullmatch(r"[A-Za-z]{2,}", w) and w not in ALLOWED_EN}
    return {w for w in re.findall(r"[\u4e00-\u9fff]+", text) if not any(w in a for a in allowed_zh)}


def _context_of(text: str, word: str) -> str:
    i = text.find(word)
    return text[max(0, i - 40) : i + len(word) + 40].replace("\n", " | ")


#: a match may end after a click or two (a seat wins or dies early in the deal the server
#: chose); the test plays further matches until it has clicked this often and opened the
#: discard pile, so every test reads the table through a match's phases
MIN_CLICKS = 6
MAX_MATCHES = 3


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_whole_match_in_one_language(context: Any, base_url: str, ruleset_id: str, lang: str) -> None:
    rules = get_ruleset(ruleset_id)
    # the rulesets' printed names are shown beside their ids (the lobby's recent matches)
    allowed_zh = ALLOWED_ZH | {get_ruleset(r).zh for r in RULESET_IDS}
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    seen: dict[str, str] = {}
    #: untranslated words counted over the matches (each reading of the page counts its own)
    count = 0

    def note(text: str) -> None:
        nonlocal count
        foreign = _foreign(text, lang, allowed_zh) | ({"§"} & set(text))  # no rule citation shown
        count += len(foreign)
        for word in foreign:
            seen.setdefault(word, _context_of(text, word))

    def read() -> None:
        note(page.evaluate(READ_TEXT, page.query_selector("#app") or page.query_selector("body")))
        note(page.evaluate(READ_OPTIONS))

    rng = random.Random(f"{ruleset_id}-{lang}")
    clicks = 0
    opened = False
    matches = 0

    def before_click(actions: list[str], in_match: int) -> bool:
        nonlocal opened
        done = clicks + in_match  # clicks: those of the matches before this one
        note(page.evaluate(READ_PROMPT))  # every prompt met and its buttons
        if done % 4 == 0:
            read()
        if done >= MIN_CLICKS and not opened:  # the discard pile: card faces with their texts (§2)
            page.click("#discard-pile")
            page.wait_for_selector("#info-dialog[open] #discard-cards")
            titles = page.eval_on_selector_all("#info-dialog .card[title]", "els => els.map(e => e.title)")
            if function_and_skill_texts(ruleset_id):  # face, then what the function does
                assert all("\n" in t for t in titles), titles[:3]
            note(page.evaluate(READ_TEXT, page.query_selector("#info-dialog")))
            page.click("#info-dialog .close")
            opened = True
        return False

    while matches < MAX_MATCHES and (clicks < MIN_CLICKS or not opened):
        matches += 1
        page.goto(f"{base_url}/#/lobby")
        page.wait_for_selector("#ruleset option", state="attached")
        fill_play_form(
            page, ruleset_id=ruleset_id, players=sorted(rules.identity_table)[-1], characters=bool(rules.characters)
        )
        read()  # the lobby
        start_table(page)
        page.check("#autopass")  # on by default: kept on
        clicks += click_until_result(page, rng, deadline_s=240, before_click=before_click, what=ruleset_id)
        page.wait_for_selector("#result table.reveal")
        page.wait_for_timeout(300)
        read()
    # three matches that each end within a few clicks would mean the prompts never reach the
    # human seat: that is a failure, not bad luck
    assert clicks >= MIN_CLICKS, f"{clicks} clicks in {matches} matches"
    assert opened, "the discard pile was never opened"
    assert count == 0 and not seen, f"{ruleset_id}, {lang}: {count} words in another language:\n" + "\n".join(
        f"{w!r}: …{c}…" for w, c in sorted(seen.items())
    )
    assert not errors, errors


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_rules_page(context: Any, base_url: str, ruleset_id: str, lang: str) -> None:
    """Each ruleset's rules page (linked from the lobby): its identity table, victory, every
    card function with its text and every character with its skills' texts, in one language."""
    rules = get_ruleset(ruleset_id)
    if not function_and_skill_texts(ruleset_id):
        pytest.skip(f"{ruleset_id} ships no data/{ruleset_id}-texts.tsv yet (tests/unit/test_card_texts.py)")
    page = context.new_page()
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#ruleset option", state="attached")
    page.select_option("#ruleset", ruleset_id)
    page.click("#rules-link")
    page.wait_for_selector(f"#rules[data-ruleset='{ruleset_id}'] #rules-cards .rules-card")
    rows = page.eval_on_selector_all("#rules-identities tr", "els => els.length")
    assert rows == len(rules.identity_table) + 1
    assert len(page.inner_text("#rules-victory")) > 40
    functions = set(rules.cards.function[n] for n in rules.cards.all_cards)
    shown = page.eval_on_selector_all("#rules-cards .rules-card", "els => els.map(e => e.dataset.function)")
    assert set(shown) == functions
    texts = page.eval_on_selector_all("#rules-cards .card-text", "els => els.map(e => e.textContent)")
    assert all(len(t) > 5 for t in texts), texts
    characters = page.eval_on_selector_all("#rules .rules-character", "els => els.map(e => e.dataset.character)")
    assert set(characters) == set(rules.characters)
    assert "—" not in page.eval_on_selector_all("#rules .rules-character dd", "els => els.map(e => e.textContent)")
    text = page.evaluate(READ_TEXT, page.query_selector("#app"))
    foreign = _foreign(text, lang, ALLOWED_ZH | {get_ruleset(r).zh for r in RULESET_IDS})
    assert not foreign, {w: _context_of(text, w) for w in foreign}
