"""Issue 3 acceptance 3: 1,000 seeded random games with characters on, across 3–7 players
(soak tier: the first 200 seeds in ./dev test, all 1,000 from bench/suite_soak.py),
with the same invariants as without characters (fengsheng.invariants): card zones,
snapshot round trip, no hidden information (hands, identities, face-down characters,
face-down intel) in any observation. Every game must end with a winner."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.soak import soak_count

from engine.rulesets import get_ruleset
from fengsheng.invariants import Checker
from fengsheng.simulate import play_random

CHARACTERS = get_ruleset("return").characters

GAMES = soak_count(full=1000, ci=200)
CHUNK = 100


@pytest.mark.soak
@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_random_games_with_characters_keep_the_invariants(first: int) -> None:
    played: Counter[str] = Counter()
    for seed in range(first, first + CHUNK):
        players = 3 + seed % 5
        result = play_random(seed, players, check=Checker(seed), characters=True)
        assert result.game.is_over and result.winners, f"seed {seed} ended without a winner"
        played.update(p.character for p in result.game.state.seats)
    assert sum(played.values()) == sum(3 + s % 5 for s in range(first, first + CHUNK))
    assert "" not in played  # everyone played a character


def test_face_down_characters_stay_hidden_from_others() -> None:
    """A hidden state character shows to its owner only (digest §9)."""
    from engine import Game

    stateful = [c for c, ch in CHARACTERS.items() if ch.stateful]
    assert stateful, "再临 has state characters (digest §9)"
    others = [c for c in CHARACTERS if c != stateful[0]][:2]
    game = Game.from_position({"seats": [{"identity": "latent", "character": stateful[0], "exposed": False},
                                         {"identity": "military", "character": others[0]},
                                         {"identity": "agent", "character": others[1]}]})
    assert game.observation(0).seats[0].character == stateful[0]
    for viewer in (-1, 1, 2):
        assert game.observation(viewer).seats[0].character == ""
