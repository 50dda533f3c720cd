"""The classic ruleset (shared/rules/classic-edition.md): its tables, random games with
the invariants checked after every decision (card zones against its 81-card table,
snapshot round trip, no hidden information in observations or texts), the character
registry, and set-up."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers.soak import soak_count

from engine import Game, SetupError
from engine.rulesets import get_ruleset, ruleset_module
from fengsheng.invariants import Checker
from fengsheng.simulate import play_random

CLASSIC = get_ruleset("classic")


def test_deck_matches_the_digest() -> None:
    """§1 / D1: 81 cards; red 25, blue 25, black 31; one mode per function."""
    deck = ruleset_module("classic", "deck")
    assert CLASSIC.cards.count == 81
    colours = Counter(c.color for c in deck.CARDS)
    assert colours == {"red": 25, "blue": 25, "black": 31}
    modes = {f: {c.transmission for c in deck.CARDS if c.function == f} for f in deck.FUNCTIONS}
    assert all(len(m) == 1 for m in modes.values())
    assert Counter(c.function for c in deck.CARDS) == {
        "lure_away": 6, "intercept": 8, "send_back": 8, "decrypt": 6, "burn": 6, "see_through": 14, "probe": 18,
        "lock": 12, "true_or_false": 3}
    alt = deck.load_deck(deck.SECRET_MISSION_DECK_FILE)
    assert Counter(c.color for c in alt) == {"red": 24, "blue": 24, "black": 33}


@pytest.mark.parametrize("players", range(3, 10))
def test_identity_table_is_dealt(players: int) -> None:
    """§1 table / D3: each identity count by the number of players."""
    game = Game.new(ruleset="classic", players=players, seed=players)
    got = Counter(s.identity for s in game.state.seats)
    latent, military, bystander = CLASSIC.identity_table[players]
    assert got == Counter({"latent": latent, "military": military, "bystander": bystander}) - Counter()
    assert all(len(s.hand) == 3 for s in game.state.seats)


def test_player_count_outside_the_table_is_refused() -> None:
    with pytest.raises(SetupError):
        Game.new(ruleset="classic", players=10, seed=1)
    with pytest.raises(SetupError):
        Game.new(ruleset="classic", players=2, seed=1)


#: invariant-checked random classic games (soak tier: the first 35 seeds in ./dev test)
CLASSIC_GAMES = soak_count(full=70, ci=35)


@pytest.mark.soak
@pytest.mark.parametrize("first", range(0, CLASSIC_GAMES, 35))
def test_random_classic_games_keep_the_invariants(first: int) -> None:
    restores = 0
    for seed in range(first, first + 35):
        checker = Checker(seed)
        result = play_random(seed, 3 + seed % 7, check=checker, ruleset="classic")
        assert result.game.is_over and result.game.state.reason, f"seed {seed} did not end"
        restores += checker.restores
    assert restores >= 20


def test_random_classic_games_with_characters() -> None:
    for seed in range(20):
        result = play_random(seed, 3, check=Checker(seed), ruleset="classic", characters=True)
        assert result.game.is_over


def test_snapshot_round_trip_at_random_decisions() -> None:
    """A restored classic game continues exactly as the original."""
    for seed in range(10):
        game = Game.new(ruleset="classic", players=4 + seed % 5, seed=seed)
        pick = random.Random(seed)
        stop = pick.randrange(20, 200)
        n = 0
        while not game.is_over and n < stop:
            p = game.pending
            assert p is not None
            game.apply(p.seat, pick.choice(game.legal_actions(p.seat)))
            n += 1
        if game.is_over:
            continue
        clone = Game.restore(game.snapshot())
        assert clone.snapshot() == game.snapshot()
        for _ in range(30):
            p = game.pending
            if p is None:
                break
            action = pick.choice(game.legal_actions(p.seat))
            assert clone.legal_actions(p.seat) == game.legal_actions(p.seat)
            game.apply(p.seat, action)
            clone.apply(p.seat, action)
        assert clone.snapshot() == game.snapshot()


def test_character_choice_comes_before_the_identities() -> None:
    """§3: each player keeps 1 of 2 characters; identities are dealt only afterwards;
    潜伏 characters are placed face down."""
    game = Game.new(ruleset="classic", players=3, seed=5, characters=True)
    p = game.pending
    assert p is not None and p.kind == "character"
    assert all(s.identity == "" for s in game.state.seats)
    obs = game.observation(p.seat)
    assert obs.seats[p.seat].identity == 0
    while game.pending is not None and game.pending.kind == "character":
        seat = game.pending.seat
        legal = game.legal_actions(seat)
        assert all(a.kind == "choose" for a in legal)
        game.apply(seat, legal[0])
    seats = game.state.seats
    assert all(s.identity in ("latent", "military", "bystander") for s in seats)
    for s in seats:
        assert s.exposed == (CLASSIC.characters[s.character].stateful is False)


def test_every_tsv_row_has_a_module() -> None:
    """A character row whose module is missing fails loudly (registry, D-guide)."""
    base = ruleset_module("classic", "characters.base")
    assert set(base.ROWS) == set(CLASSIC.characters)
    assert len(base.ROWS) == 25
    assert {"shan_ling", "xiao_ma_ge", "bei_lei_mao"} <= set(base.playable())


def test_missing_character_module_fails(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    base = ruleset_module("classic", "characters.base")
    tsv = tmp_path / "c.tsv"
    tsv.write_text("id\tzh\ten\tkind\tsex\tskills\tmission\nno_such\t无\tNo\tO\tM\tx\tnone\n", encoding="utf-8")
    monkeypatch.setattr(base, "ROWS", base.load_rows(tsv))
    with pytest.raises(ModuleNotFoundError):
        base._load_modules()


def test_hidden_send_is_not_public() -> None:
    """A 密电's card number is shown to its sender only (§5)."""
    game = Game.from_position({"ruleset": "classic", "seats": [
        {"identity": "latent", "hand": [9]}, {"identity": "military", "hand": [10]},
        {"identity": "bystander", "hand": [11]}]})
    while game.pending is not None and game.pending.kind == "priority":
        game.apply(game.pending.seat, "pass")
    game.apply(0, "send 9 secret")
    assert any("9" in e.text.split() for e in game.events_for(0) if e.kind == "action")
    assert not any("send 9" in e.text for e in game.events_for(1))
    assert not game.observation(1).transit.card
    assert game.observation(0).transit.card == 9


def test_there_are_enough_classic_scenarios() -> None:
    from pathlib import Path

    here = Path(__file__).resolve().parents[1] / "scenarios" / "classic"
    assert len(list(here.glob("*.yaml"))) >= 40
