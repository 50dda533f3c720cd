"""The gateway serves the printed deck from the engine's ruleset package as a data file
(it never imports the engine); the file moved with the ruleset, and must still be found."""

from __future__ import annotations

from gateway.cards import deck


def test_the_gateway_finds_the_return_deck_table() -> None:
    cards = deck("return")
    assert len(cards) == 87
    assert cards[24]["function"] == "intercept" and cards[24]["function_zh"] == "截获"
    assert deck("no_such_ruleset") == {}
