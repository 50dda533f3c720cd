"""The bot policies of engine/bots.py: always legal, deterministic for a seeded RNG, and
the heuristic beats random play. (Pure engine code: no services needed.)"""

from __future__ import annotations

import random

import pytest

from engine import Game
from engine.bots import POLICIES, heuristic_bot, random_bot


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_policy_always_answers_a_legal_action(name: str) -> None:
    policy = POLICIES[name]
    for seed in range(1, 11):
        game = Game.new(players=3 + seed % 5, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            p = game.pending
            if p is None:
                break
            legal = game.legal_actions(p.seat)
            action = policy(game.observation(p.seat), legal, rng)
            assert action in legal
            game.apply(p.seat, action)
        assert game.is_over


def test_same_seed_same_move() -> None:
    game = Game.new(players=5, seed=3)
    p = game.pending
    assert p is not None
    obs, legal = game.observation(p.seat), game.legal_actions(p.seat)
    for policy in (random_bot, heuristic_bot):
        assert policy(obs, legal, random.Random("m:1:1")) == policy(obs, legal, random.Random("m:1:1"))


def test_heuristic_beats_random() -> None:
    wins = {"h": 0, "r": 0}
    seats = {"h": 0, "r": 0}
    for seed in range(1, 81):
        game = Game.new(players=5, seed=seed)
        kinds = ["h", "r", "h", "r", "r"] if seed % 2 else ["r", "h", "r", "h", "h"]
        rng = random.Random(seed)
        while (p := game.pending) is not None:
            policy = heuristic_bot if kinds[p.seat] == "h" else random_bot
            game.apply(p.seat, policy(game.observation(p.seat), game.legal_actions(p.seat), rng))
        assert game.outcome is not None
        for w in game.outcome.winners:
            wins[kinds[w]] += 1
        for k in kinds:
            seats[k] += 1
    assert wins["h"] / seats["h"] > wins["r"] / seats["r"]
