"""The web client never guesses a card from a number (issue 27 §3, the draw bug).

An event arrives typed (proto EventArg: a card argument is a card, a count is a count), so
the browser has no reason to read a card out of a number: this greps the client's scripts
(gateway/static/js) for the guesses it used to make and fails on any of them:
- a number compared with a threshold to decide that it is a card (``Number(w) > 6``);
- an event line matched back to a template (``structureText("event", …)``);
- a card read out of an event's English words (``/^\\d+: (?:play|send) (\\d+)/`` on
  ``event.text``, or its numbers checked against ``event.cards``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "gateway" / "static" / "js"

GUESSES = {
    "a number compared with a threshold to decide it is a card": re.compile(r"Number\(\s*\w+\s*\)\s*[<>]=?\s*\d"),
    "an event line matched back to a template": re.compile(r"structureText\(\s*[\"']event"),
    "a card read out of an event's words": re.compile(r"\(\?:play\|send\) \(\\d\+\)"),
    "numbers of an event's text looked up as cards": re.compile(r"event\.text\)?\.split\("),
    # issue 27 §4: the decision panel composes from the action values, never from notation
    "legal actions listed by their notation": re.compile(r"legal_actions\.map\("),
    "an action's cards read out of its notation": re.compile(r"cardsOfAction"),
    # issue 27 §5: an action is rendered from its value (an event's `action`, a hidden
    # action's public form `shown` or its own row, a replay step's `acted`), never its text
    "an action's notation taken apart": re.compile(r"\baction\)?\.split\(|\bactionLabel\b"),
    "a hidden action's public words matched by pattern": re.compile(
        r"ACTION_PHRASES|ACTION_PARTS|/\^(?:chooses?|gives|puts|play|send|skill)[ \\]|\(to\|lock\) seat"),
    "a replay step drawn from its text": re.compile(r"\bstep\.action\b"),
}

#: the composer (compose.js asks, composer.js draws): it reads typed fields only
COMPOSER = ("compose.js", "composer.js")


def _guesses(code: str) -> list[str]:
    return [why for why, pattern in GUESSES.items() if pattern.search(code)]


@pytest.mark.parametrize("path", sorted(JS.glob("*.js")), ids=lambda p: p.name)
def test_the_client_does_not_guess_cards_from_numbers(path: Path) -> None:
    found = _guesses(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name}: {found}"


def test_the_log_renders_events_from_their_typed_arguments() -> None:
    render = (JS / "render.js").read_text(encoding="utf-8")
    text = (JS / "text.js").read_text(encoding="utf-8")
    assert "const args = eventArgs(event.args);" in render and "renderTemplate(event.template, args," in render
    assert re.search(r'for \(const f of \["seat", "card", "count", "id", "text"\]\)', text)
    # an action (and a hidden action's public form) from its value, a replay step from its event
    assert "if (event.action) args.action = event.action;" in render
    assert "if (event.shown) args.action2 = event.shown;" in render
    assert "export function actionPieces(a, deck)" in text
    assert "eventPieces(step.acted, deck)" in (JS / "replay.js").read_text(encoding="utf-8")


def test_the_grep_catches_yesterdays_client() -> None:
    """The net can fail: the lines the client had before events were typed are caught."""
    old = [
        '(Number(w) > 6 || hand.includes(Number(w)))) {',
        "const echoed = /^\\d+: (?:play|send) (\\d+)\\b/.exec(String(event.text));",
        'const words = String(event.text).split(" ");',
        'const found = structureText("event", event.kind, event.text);',
        "const buttons = p.legal_actions.map((a) => {",
        "const used = cardsOfAction(a);",
        "const words = action.split(/\\s+/);",
        "const shaped = renderTemplate(event.template, args, deck || {}, actionLabel);",
        "  [/^choose a hand card to (\\d+)$/, (m) => [`选择一张手牌交给座位${m[1]}`, `chooses a hand card`]],",
        "  [/^gives (\\d+) cards$/, (m) => [`交出${m[1]}张牌`, `gives ${m[1]} cards`]],",
        'let rest = v.replace(/ (to|lock) seat (\\d+)/g, " $1 $2");',
        "for (const [re, make] of ACTION_PHRASES) {",
        "step.seat >= 0 ? ` · ${t(\"seat\")} ${step.seat}: ${label(step.action, deck)}` : \"\"",
    ]
    for line in old:
        assert _guesses(line), line


@pytest.mark.parametrize("name", COMPOSER)
def test_the_composer_reads_no_notation(name: str) -> None:
    """compose.js / composer.js split no string (an action's text is only sent, or shown
    with the debug toggle) and use no notation reader (render.js ``actionLabel``)."""
    code = (JS / name).read_text(encoding="utf-8")
    assert ".split(" not in code and "actionLabel" not in code and "legal_actions" not in code
    if name == "composer.js":
        assert "answer(reach[0].text)" in code, "the composer sends the chosen value's text"


def test_the_table_draws_the_decision_with_the_composer() -> None:
    table = (JS / "table.js").read_text(encoding="utf-8")
    assert "composerPanel(" in table and "legal: obs.legal" in table
    assert not re.search(r"actionLabel\(a\b|title: a\b|h\(\"code\", \{\}, a\)", table)
