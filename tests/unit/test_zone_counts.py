"""The core's count of card zones (engine.positions.zone_counts), which ``Game.check_zones``
checks for every ruleset: each card of the ruleset's deck table in exactly one zone."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.positions import zone_counts
from engine.rulesets import RULESET_IDS
from engine.state import Item, Transit


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_dealt_game_has_every_card_once(ruleset: str) -> None:
    g = Game.new(ruleset=ruleset, players=5, seed=3)
    counts = zone_counts(g.state)
    assert set(counts.values()) == {1}
    assert sorted(counts) == sorted(g.ruleset.cards.all_cards)
    g.check_zones()


def test_transit_and_chain_cards_count_as_zones() -> None:
    """A card in transmission, a card played on the chain and a card a chain item holds are
    each in a zone; the card moved there from the pile must not also be counted there."""
    g = Game.new(ruleset="return", players=5, seed=3)
    st = g.state
    sent, played, held = st.pile.pop(), st.pile.pop(), st.pile.pop()
    st.transit = Transit(card=sent, mode="secret", direction=1, sender=0, user=0, holder=1)
    st.chain.append(Item(kind="burn", user=2, card=played, held=[held]))
    g.check_zones()
    st.pile.append(held)  # now in two zones
    with pytest.raises(AssertionError, match=rf"duplicated \{{{held}: 2\}}"):
        g.check_zones()


def test_an_empty_transit_counts_no_card() -> None:
    """谍战篇's 妙手 leaves the transmission without a card between discarding and taking it:
    card 0 is no card, not a zone of a card."""
    g = Game.new(ruleset="spy", players=5, seed=3)
    st = g.state
    st.transit = Transit(card=0, mode="secret", direction=1, sender=0, user=0, holder=1)
    assert 0 not in zone_counts(st)
    g.check_zones()
    st.pile.pop()  # a card lost
    with pytest.raises(AssertionError, match="missing"):
        g.check_zones()
