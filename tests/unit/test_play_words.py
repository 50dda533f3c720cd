"""The terminal client's own words (``fengsheng play --lang``): every line in both
languages with the same placeholders, and every decision kind and identity named in
Chinese (issue 16 §8: the table, not only the log, in the player's language)."""

from __future__ import annotations

import re
import string

import pytest

from engine.kinds import PROMPT_KINDS
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.commands.play import COLOR_ZH, IDENTITY_ZH, KIND_ZH, MODE_ZH, WORDS


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(WORDS))
def test_each_line_has_both_languages_with_the_same_placeholders(key: str) -> None:
    en, zh = WORDS[key]
    assert en and zh
    assert _fields(en) == _fields(zh), key
    words = re.sub(r"\{\w+\}", "", zh).replace("q 退出", "")  # placeholders; the quit key
    assert not re.search(r"[A-Za-z]", words), (key, zh)


def test_every_decision_kind_is_named() -> None:
    assert set(PROMPT_KINDS) <= set(KIND_ZH)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_identity_is_named(ruleset_id: str) -> None:
    for identity in get_ruleset(ruleset_id).identities:
        assert identity.upper() in IDENTITY_ZH, identity


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_card_colour_and_mode_is_named(ruleset_id: str) -> None:
    """A card reads ``试探·红黑·↑#40`` in the terminal: its colour and mode as the served
    deck spells them (services/engine/rulesets.py deck_cards, served by GET /api/cards)."""
    from services.engine.rulesets import deck_cards

    for card in deck_cards(get_ruleset(ruleset_id)):
        assert card.color in COLOR_ZH, (ruleset_id, card.number, card.color)
        assert card.transmission in MODE_ZH, (ruleset_id, card.number, card.transmission)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_game_over_reason_reads_in_chinese(ruleset_id: str) -> None:
    """The reasons 60 seeded random games per ruleset end with (characters on where the
    ruleset has them) read in Chinese in the terminal client, characters by name: no
    English word is left (fengsheng/text_render.py ``reason_text``)."""
    import random

    from engine.game import Game
    from fengsheng.text_render import reason_text

    rules = get_ruleset(ruleset_id)
    names = {c.id: c.zh for c in rules.characters.values()}
    counts = sorted(rules.identity_table)
    reasons: set[str] = set()
    for seed in range(60):
        rng = random.Random(seed)
        game = Game.new(ruleset=ruleset_id, players=counts[seed % len(counts)], seed=seed,
                        characters=bool(rules.characters))  # fmt: skip
        while game.outcome is None and game.pending is not None:
            seat = game.pending.seat
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert game.outcome is not None
        reasons.add(game.outcome.reason)
    assert len(reasons) >= 2, reasons
    for reason in reasons:
        zh = reason_text(reason, lang="zh", name=lambda i: names.get(i, i))
        assert not re.search(r"[A-Za-z]{2,}", zh), (reason, zh)
