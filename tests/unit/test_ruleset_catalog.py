"""What clients learn of each registered ruleset (``ListRulesets``, services/engine/rulesets.py)
is the registry's own data, and new matches are checked against it. Parametrized over
``RULESET_IDS``: a ruleset added to the registry is covered without an edit here."""

from __future__ import annotations

import csv
import dataclasses
import importlib.resources

import pytest

from engine import Game
from engine.rulesets import PACKAGES, RULESET_IDS, get_ruleset
from services.engine.rulesets import DEFAULT_RULESET, check_settings, deck_cards, rulesets
from services.errors import BadRequest


def test_the_list_follows_the_registry() -> None:
    answer = rulesets()
    assert [info.id for info in answer.rulesets] == list(RULESET_IDS)
    assert answer.default_ruleset == DEFAULT_RULESET == RULESET_IDS[0]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_each_ruleset_is_described_from_its_ruleset(ruleset_id: str) -> None:
    rules = get_ruleset(ruleset_id)
    info = next(i for i in rulesets().rulesets if i.id == ruleset_id)
    assert info.zh == rules.zh
    assert list(info.players) == sorted(rules.identity_table)
    assert list(info.identities) == list(rules.identities)
    assert {n: tuple(row.values) for n, row in info.identity_table.items()} == dict(rules.identity_table)
    assert info.characters == bool(rules.characters)
    assert [c.id for c in info.character_table] == list(rules.characters)
    for entry in info.character_table:
        assert entry.zh == rules.characters[entry.id].zh and len(entry.skills_zh) == len(entry.skills)
        assert entry.mission == rules.characters[entry.id].mission  # shown on the player's character card
    # the deck: one row per physical card, the CardTable's function and name for each
    assert [c.number for c in info.cards] == list(rules.cards.all_cards)
    for card in info.cards:
        assert card.function == rules.cards.function[card.number]
        assert card.function_zh == rules.cards.function_zh[card.number]
        assert ("red" in card.color.split("+")) == rules.cards.is_red[card.number]
        assert ("blue" in card.color.split("+")) == rules.cards.is_blue[card.number]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_printed_transmission_is_the_shipped_deck_table(ruleset_id: str) -> None:
    """Transmission and markers are read from the ruleset package's own deck table."""
    table = importlib.resources.files(PACKAGES[ruleset_id]).joinpath("data", f"{ruleset_id}-deck.tsv")
    rows = list(csv.DictReader(table.read_text(encoding="utf-8").splitlines(), delimiter="\t"))
    info = next(i for i in rulesets().rulesets if i.id == ruleset_id)
    # 谍战篇 prints an arrow (``direction``) instead of a send mode
    assert [c.transmission for c in info.cards] == [r.get("transmission") or r["direction"] for r in rows]
    assert all(c.transmission for c in info.cards)


def test_a_deck_table_that_is_not_the_engines_deck_is_refused() -> None:
    rules = get_ruleset(RULESET_IDS[0])
    function = list(rules.cards.function)
    function[1] = "not_this_card"
    wrong = dataclasses.replace(rules, cards=dataclasses.replace(rules.cards, function=tuple(function)))
    with pytest.raises(ValueError, match="card 1"):
        deck_cards(wrong)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_new_matches_take_exactly_the_identity_tables_player_counts(ruleset_id: str) -> None:
    rules = get_ruleset(ruleset_id)
    counts = sorted(rules.identity_table)
    for players in counts:
        assert check_settings(ruleset_id, players) is rules
    for players in (0, counts[0] - 1, counts[-1] + 1, 99):
        with pytest.raises(BadRequest, match=rf"{ruleset_id}.*played by {counts[0]} to {counts[-1]} players, not"):
            check_settings(ruleset_id, players)
    # and the engine deals each of them
    for players in (counts[0], counts[-1]):
        assert Game.new(ruleset=ruleset_id, players=players, seed=7).state.players == players


def test_an_unknown_ruleset_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(BadRequest) as caught:
        check_settings("no_such_edition", 5)
    assert "no_such_edition" in str(caught.value)
    assert all(rid in str(caught.value) for rid in RULESET_IDS)


def test_the_rulesets_page_lists_every_registered_ruleset() -> None:
    """docs/rulesets.md links each ruleset's digest and notation: a ruleset added to the
    registry must get its row there."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for ruleset_id in RULESET_IDS:
        assert f"| `{ruleset_id}` | {get_ruleset(ruleset_id).zh}" in page, ruleset_id
        assert f"shared/rules/{ruleset_id}-edition.md" in page, ruleset_id
