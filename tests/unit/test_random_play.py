"""Issue 2 acceptance 3: 2,000 seeded random games across 3–7 players (soak tier: the first
200 seeds in ./dev test, all 2,000 from bench/suite_soak.py), with the
invariants checked after every decision (fengsheng.invariants): card zones, snapshot
round trip (a restored copy shadows the game at random decisions), no hidden information
in any seat's or a spectator's observation. Every game must end with a winner before the
safety cap of turns (a RunawayGame fails the test)."""

from __future__ import annotations

import pytest
from helpers.soak import soak_count

from fengsheng.invariants import Checker
from fengsheng.simulate import play_random

GAMES = soak_count(full=2000, ci=200)
CHUNK = 100


@pytest.mark.soak
@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_random_games_keep_the_invariants(first: int) -> None:
    restores = 0
    for seed in range(first, first + CHUNK):
        checker = Checker(seed)
        result = play_random(seed, 3 + seed % 5, check=checker)
        assert result.game.is_over and result.winners, f"seed {seed} ended without a winner"
        restores += checker.restores
    assert restores >= CHUNK  # the snapshot round trip was exercised in most games


def test_a_broken_invariant_is_detected() -> None:
    """The checker can fail: a card duplicated into a hand is caught."""
    def corrupt(game, decisions):  # type: ignore[no-untyped-def]
        if decisions == 3:
            game.state.seats[0].hand.append(game.state.pile[-1])
        Checker(0)(game, decisions)

    with pytest.raises(AssertionError, match="card zones broken"):
        play_random(1, 5, check=corrupt)


def test_a_leaking_observation_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine import game as game_module

    original = game_module.build_observation

    def leaky(game, viewer, *, include_events=False):  # type: ignore[no-untyped-def]
        obs = original(game, viewer, include_events=include_events)
        other = (viewer + 1) % game.players
        obs.seats[other].hand.extend(game.state.seats[other].hand)
        return obs

    monkeypatch.setattr(game_module, "build_observation", leaky)
    with pytest.raises(AssertionError, match="shows seat"):
        play_random(2, 5, check=Checker(2))
