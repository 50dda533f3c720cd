"""Identity counts per player count for dealt 谍战篇 games (rules digest §1.1; rulebook
游戏准备 一、分发身份牌: 5 → 2/2/1, 6 → 2/2/2, 7 → 3/3/1, 8 → 3/3/2), written from the sources
by the scenario helper (issue 13)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Game

TABLE = {5: (2, 2, 1), 6: (2, 2, 2), 7: (3, 3, 1), 8: (3, 3, 2)}


@pytest.mark.parametrize("players", sorted(TABLE))
@pytest.mark.parametrize("seed", range(8))
def test_identity_counts(players: int, seed: int) -> None:
    game = Game.new("spy", players=players, seed=seed)
    have = Counter(s.identity for s in game.state.seats)
    latent, special, mystery = TABLE[players]
    assert have == Counter({"latent": latent, "special_service": special, "mystery": mystery})


@pytest.mark.parametrize("players", sorted(TABLE))
def test_start_with_three_cards_each(players: int) -> None:
    """Rulebook 四: each player draws 3 as a starting hand; the first player then draws 3 more
    in the draw phase (digest §3.4, §4.1), so before anyone acts hands hold 3 or 6."""
    game = Game.new("spy", players=players, seed=1)
    counts = sorted(len(s.hand) for s in game.state.seats)
    assert counts[:-1] == [3] * (players - 1)
    assert counts[-1] in (3, 6)
