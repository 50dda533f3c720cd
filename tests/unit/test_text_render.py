"""The terminal client's structured text (fengsheng/text_render.py, issue 16 §1): every row
of every ruleset's text table renders in both languages with real arguments (the events and
prompts of a seeded game), leaves no placeholder, names cards by function (never a bare
number) and, in Chinese, shows no English word the engine wrote."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.console import Console

from engine.rulesets import RULESET_IDS
from engine.text import event_templates, templates
from fengsheng.commands.play import View
from fengsheng.simulate import play_random
from fengsheng.text_render import event_args, render
from gateway.convert import to_dict
from services.engine.rulesets import rulesets


def _deck(ruleset_id: str) -> dict[int, dict[str, Any]]:
    info = next(i for i in rulesets().rulesets if i.id == ruleset_id)
    return {
        c.number: {"function_zh": c.function_zh, "color": c.color, "transmission": c.transmission} for c in info.cards
    }


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_lines_of_a_game_render_in_both_languages(ruleset_id: str) -> None:
    deck = _deck(ruleset_id)

    def card(n: int) -> str:
        return f"{deck[n]['function_zh']}#{n}"

    rows = {r.key: r for r in templates(ruleset_id)}
    assert rows
    game = play_random(2, 5, characters=True, ruleset=ruleset_id).game
    rendered = 0
    for event in game.events:
        row = event_templates(ruleset_id)[event.key]
        args = event_args(to_dict(event.to_proto())["args"])  # as the gateway's JSON carries them
        assert set(args) == set(row.names)
        for lang in ("zh", "en"):
            line = render(getattr(row, lang), args, lang=lang, card=card, name=lambda i: i)
            assert "{" not in line, line
            numbers = [*args.get("cards", []), args.get("card", 0)]
            for n in numbers:
                if n:
                    assert f"#{n}" in line, (line, n)
            if lang == "zh" and not {"action", "action2", "text", "reason"} & set(args):
                assert not re.search(r"\b(seat|draws|intel|card)\b", line), line
            rendered += 1
    assert rendered > 50


def test_the_terminal_view_shows_an_event_from_its_template() -> None:
    deck = {12: {"function_zh": "烧毁", "color": "red", "transmission": "direct"}}
    texts = {"burn.x": {"zh": "{seat}的情报{card}被烧毁", "en": "{seat}'s intel {card} is burned"}}
    event = {
        "text": "seat 2's intel 12 is burned",
        "template": "burn.x",
        "args": [{"name": "seat", "seat": 2}, {"name": "card", "card": 12}],
        "cards": [12],
    }
    wanted = (("zh", "座位2的情报烧毁·红·直达#12被烧毁"), ("en", "seat 2 (random)'s intel 烧毁·红·直达#12 is burned"))
    for lang, want in wanted:
        view = View(Console(), deck, 0, ["human", "random", "random"], {"id": "return"}, texts=texts, lang=lang)
        assert view.event_line(event) == want
    # an unknown key: the engine's words, the cards named after them
    view = View(Console(), deck, 0, ["human"] * 3, {"id": "return"}, texts={}, lang="zh")
    assert view.event_line({**event, "template": "nope"}) == "seat 2's intel 12 is burned  [烧毁·红·直达#12]"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_no_chinese_event_template_holds_an_english_word(ruleset_id: str) -> None:
    """A Chinese line is the template's words and its arguments' names; the engine's own
    English (a classic card voided or failing) is a template of its own, never a ``text``
    argument. The one ``text`` argument left is 试探's words, which are Chinese."""
    for key, row in event_templates(ruleset_id).items():
        assert not re.search(r"[A-Za-z]", re.sub(r"\{\w+\}", "", row.zh)), (key, row.zh)
        if "text" in row.names:
            assert key == "probe.says_text", key
