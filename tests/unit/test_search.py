"""The search bot (issue 14 point 4): legal, deterministic under a seed with a playout
budget, within its time budget, registered as ``POLICIES["search"]``, every ruleset."""

from __future__ import annotations

import random
import time

import pytest

from engine import Game
from engine.bots import POLICIES
from engine.rulesets import RULESET_IDS
from engine.search import SearchBot, SearchConfig, search


def _position(ruleset: str, seed: int, stop: int) -> Game:
    g = Game.new(ruleset=ruleset, players=5, seed=seed)
    rng = random.Random(seed)
    while (p := g.pending) is not None and (g.decision_number < stop or len(g.legal_actions(p.seat)) < 2):
        g.apply(p.seat, POLICIES["v2"](g.observation(p.seat), g.legal_actions(p.seat), rng))
    return g


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_search_is_legal_and_deterministic_under_a_seed(ruleset: str) -> None:
    config = SearchConfig(playouts=12, depth=30)
    for seed in range(4):
        g = _position(ruleset, seed, 20 + 15 * seed)
        p = g.pending
        assert p is not None
        before = g.snapshot()
        a, stats = search(g, p.seat, random.Random(5), config=config)
        b, _ = search(g, p.seat, random.Random(5), config=config)
        assert a == b and a in g.legal_actions(p.seat)
        assert stats["playouts"] == 12
        assert g.snapshot() == before  # the real game is untouched


def test_time_budget_is_kept() -> None:
    g = _position("return", 9, 30)
    p = g.pending
    assert p is not None
    t0 = time.perf_counter()
    search(g, p.seat, random.Random(1), config=SearchConfig(budget_ms=100, depth=20))
    assert time.perf_counter() - t0 < 1.5  # one playout past the deadline at most, on a loaded machine


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_search_seat_plays_a_whole_game(ruleset: str) -> None:
    bot = POLICIES["search"]
    assert isinstance(bot, SearchBot) and bot.needs_game
    fast = SearchBot(SearchConfig(playouts=3, depth=10))
    g = Game.new(ruleset=ruleset, players=5, seed=3)
    rng = random.Random(2)
    while (p := g.pending) is not None:
        legal = g.legal_actions(p.seat)
        action = fast.decide(g, 0, rng) if p.seat == 0 else POLICIES["v2"](g.observation(p.seat), legal, rng)
        assert action in legal
        g.apply(p.seat, action)
    assert g.is_over
