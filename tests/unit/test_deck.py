"""The deck table: the rulebook's totals (p.2 基础牌 87张) and the shared numbering."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from engine.rulesets import ruleset_module

deck = ruleset_module("return", "deck")

SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules" / "return-deck.tsv"


def test_rulebook_totals() -> None:
    modes = Counter(c.transmission for c in deck.CARDS)
    assert (modes["secret"], modes["direct"], modes["text"], modes["any"]) == (41, 31, 10, 5)
    colours = Counter(c.color for c in deck.CARDS)
    assert colours["red"] == 21 and colours["blue"] == 21
    assert colours["black"] == 42 and colours["red+blue"] == 3
    assert sum(c.encrypted for c in deck.CARDS) == 15
    assert sum(c.direction_any for c in deck.CARDS) == 28
    assert len(deck.CARDS) == 87 and [c.number for c in deck.CARDS] == list(range(1, 88))


def test_every_function_is_implemented() -> None:
    FUNCTIONS = ruleset_module("return", "cards").FUNCTIONS

    basic = {c.function for c in deck.CARDS}
    assert len(basic) == 15
    # Skills add alternative functions (拷问, 紧急下达) beside the 15 basic ones.
    assert basic <= set(FUNCTIONS)


def test_same_numbering_as_the_shared_table() -> None:
    if not SHARED.exists():  # pragma: no cover - shared/ sits beside every checkout here
        import pytest

        pytest.skip(f"{SHARED} not present")
    assert deck.load_deck(SHARED) == deck.CARDS
