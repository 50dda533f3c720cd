"""Every prompt says what is asked, in the player's language (issue 28 §2, issue 27's
decision half).

- Every Chinese template of every ruleset's text table (prompts and events) is free of
  English words, ids and rule citations (``§``) outside its placeholders; no English
  template cites a rule section either.
- The card and skill texts shown to players (``data/<id>-texts.tsv``, 谍战篇's character
  table) carry no ``(§…)`` citation.
- Every prompt of seeded random matches of each ruleset (characters on), rendered in
  Chinese from its key and arguments the way the terminal client does
  (fengsheng/text_render.py), holds no untranslated word: every id argument has a Chinese
  name.
- The priority prompts of classic and the trigger windows of 再临 name the seat whose turn
  or event it is and say what the player may do (``你可以…``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.rulesets import RULESET_IDS, get_ruleset
from engine.text import PLACEHOLDER, prompt_templates, templates, text_file
from fengsheng.simulate import play_random
from fengsheng.text_render import render

#: an English word (two letters or more) or an id (``card_used``)
WORD = re.compile(r"[A-Za-z_]{2,}")
GAMES = 25


def _outside_placeholders(template: str) -> str:
    return PLACEHOLDER.sub("", template)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_chinese_template_is_free_of_english_ids_and_citations(ruleset_id: str) -> None:
    bad = []
    for row in templates(ruleset_id):
        rest = _outside_placeholders(row.zh)
        if WORD.search(rest) or "§" in rest:
            bad.append(f"{row.key}: {row.zh}")
        if "§" in row.en:
            bad.append(f"{row.key} (en): {row.en}")
    assert not bad, f"{text_file(ruleset_id).name}:\n" + "\n".join(bad)


def test_the_check_can_fail() -> None:
    """An English word, an id and a citation in a Chinese template are each caught."""
    for zh in ("{zh}：use it", "card_used：发动技能或过", "一张正在使用的牌无效（§6.4）"):
        rest = _outside_placeholders(zh)
        assert WORD.search(rest) or "§" in rest, zh


def _player_texts(ruleset_id: str) -> list[Path]:
    folder = text_file(ruleset_id).parent
    return [p for p in (folder / f"{ruleset_id}-texts.tsv", folder / f"{ruleset_id}-characters.tsv") if p.exists()]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_card_and_skill_texts_cite_no_rule_section(ruleset_id: str) -> None:
    bad = []
    for path in _player_texts(ruleset_id):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.startswith("#") and "§" in line:
                bad.append(f"{path.name}:{number}: {line[:120]}")
    assert not bad, "\n".join(bad)


def _chinese_names(ruleset_id: str) -> Callable[[str], str]:
    """Id -> its printed Chinese name: card functions, characters and skills."""
    rules = get_ruleset(ruleset_id)
    names: dict[str, str] = {}
    table = rules.cards
    for number in table.all_cards:
        names[table.function[number]] = table.function_zh[number]
    for character in rules.characters.values():
        names[character.id] = character.zh
    for sid, skill in rules.skills.items():
        zh = str(getattr(skill, "zh", "") or "")
        if zh:
            names[sid] = zh
    return lambda ident: names.get(ident, ident)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_prompt_of_random_matches_renders_in_chinese(ruleset_id: str) -> None:
    rows = prompt_templates(ruleset_id)
    name = _chinese_names(ruleset_id)
    players = sorted(get_ruleset(ruleset_id).identity_table)
    characters = bool(get_ruleset(ruleset_id).characters)
    untranslated: dict[str, str] = {}
    seen: set[str] = set()

    def check(game: object, _decisions: int) -> None:
        p = game.state.prompt  # type: ignore[attr-defined]
        if p is None:
            return
        seen.add(p.key)
        text = render(rows[p.key].zh, p.args, lang="zh", card=lambda n: f"牌{n}", name=name)
        for word in WORD.findall(text):
            untranslated.setdefault(word, f"{p.key}: {text}")

    for seed in range(GAMES):
        play_random(seed, players[seed % len(players)], check=check, characters=characters, ruleset=ruleset_id)
    assert len(seen) > 10, seen
    assert not untranslated, "\n".join(f"{w!r}: {c}" for w, c in sorted(untranslated.items()))


@pytest.mark.parametrize(("ruleset_id", "prefix"), [("classic", "prompt.priority."),
                                                    ("return", "prompt.trigger.window."),
                                                    ("return", "prompt.respond.")])
def test_open_questions_name_the_seat_and_what_may_be_done(ruleset_id: str, prefix: str) -> None:
    """"你可以在 第一出牌阶段 使用一张牌或技能": whose phase or event, and what the player may do."""
    rows = [r for k, r in prompt_templates(ruleset_id).items() if k.startswith(prefix)]
    assert rows
    for row in rows:
        assert "你可以" in row.zh and "you may" in row.en, row.key
        if not row.key.endswith("game_start"):  # the game's start is nobody's
            assert "{seat}" in row.zh and "{seat}" in row.en, row.key
