"""Issue 16 §2-3 (cards and characters you can read): every card function of each ruleset's
deck and every skill of its characters has what it does in Chinese and in English
(``data/<id>-texts.tsv`` of the ruleset's package), served by ``ListRulesets`` (so
``GET /api/cards`` and ``GET /api/rulesets``). Covers every ruleset of the registry."""

from __future__ import annotations

import re

import pytest

from engine.rulesets import RULESET_IDS
from services.engine.rulesets import function_and_skill_texts, rulesets

CJK = re.compile(r"[\u4e00-\u9fff]")
#: Chinese an English text may keep: 风声再临's printed codes (暗号), named with their colours
CODES = {"听风", "看雨", "日落"}


def _english(text: str) -> bool:
    """Some English, and no Chinese but the codes (the English page shows no Chinese)."""
    return bool(re.search(r"[A-Za-z]{3}", text)) and not set(re.findall(r"[\u4e00-\u9fff]+", text)) - CODES


def _needs_texts(ruleset_id: str) -> None:
    """Every registered ruleset ships ``data/<id>-texts.tsv`` (what its card functions and
    skills do, issue 16 §2), covering every function and skill."""
    assert function_and_skill_texts(ruleset_id), f"{ruleset_id} ships no data/{ruleset_id}-texts.tsv"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_card_function_and_skill_has_both_texts(ruleset_id: str) -> None:
    _needs_texts(ruleset_id)
    info = next(i for i in rulesets().rulesets if i.id == ruleset_id)
    for card in info.cards:
        assert CJK.search(card.text_zh), f"{ruleset_id} card {card.number} ({card.function}): no Chinese text"
        assert _english(card.text_en), f"{ruleset_id} card {card.number}: no English text: {card.text_en}"
    for character in info.character_table:
        assert len(character.skills_text_zh) == len(character.skills) == len(character.skills_text_en)
        for skill, zh, en in zip(character.skills, character.skills_text_zh, character.skills_text_en, strict=True):
            assert CJK.search(zh), f"{ruleset_id} {character.id}.{skill}: no Chinese text"
            assert _english(en), f"{ruleset_id} {character.id}.{skill}: no English text: {en}"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_text_table_names_only_real_functions_and_skills(ruleset_id: str) -> None:
    """No row for a function or skill the ruleset does not have (a typo would leave the real
    one without text, which the test above catches; this one catches the stray row)."""
    info = next(i for i in rulesets().rulesets if i.id == ruleset_id)
    functions = {c.function for c in info.cards}
    skills = {s for c in info.character_table for s in c.skills}
    for kind, ident in function_and_skill_texts(ruleset_id):
        assert (kind == "function" and ident in functions) or (kind == "skill" and ident in skills) or kind == "rule", (
            kind,
            ident,
        )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_rules_page_has_the_victory_conditions_in_both_languages(ruleset_id: str) -> None:
    _needs_texts(ruleset_id)
    info = next(i for i in rulesets().rulesets if i.id == ruleset_id)
    victory = [t for t in info.texts if t.scope == "rule" and t.kind == "victory"]
    assert len(victory) == 1 and CJK.search(victory[0].zh) and "win" in victory[0].en and _english(victory[0].en)
