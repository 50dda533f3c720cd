"""bench/bots.py groups game ends by what happened, in every ruleset: 谍战篇's reason is
"intel collected" whichever side collected it, so the side comes from the winners'
identities (all 谍战篇 ends once read as agent wins)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from engine.bots import POLICIES
from engine.game import Game


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "bots.py"
    spec = importlib.util.spec_from_file_location("bench_bots", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module
    spec.loader.exec_module(module)
    return module


def test_each_end_is_grouped_by_the_winning_side() -> None:
    reason = _bench()._reason
    spy = ("latent", "special_service", "mystery", "latent", "special_service")
    assert reason("intel collected", frozenset({0, 3}), spy) == "latent"
    assert reason("intel collected", frozenset({1, 4}), spy) == "special_service"
    assert reason("mystery task", frozenset({2}), spy) == "mission_or_agent"
    assert reason("last player alive", frozenset({2}), spy) == "last_alive"
    classic = ("military", "latent", "bystander", "military", "latent")
    assert reason("military: 3 blue intel", frozenset({0, 3}), classic) == "military"
    assert reason("bystander's win", frozenset({2}), classic) == "mission_or_agent"


def test_spy_games_end_with_both_sides_winning_sometimes() -> None:
    """Real 谍战篇 games of heuristic v2: the grouping sees both factions win."""
    reason = _bench()._reason
    seen = set()
    for seed in range(30):
        game = Game.new(ruleset="spy", players=5, seed=seed)
        rng = random.Random(seed)
        while game.pending is not None and game.outcome is None:
            seat = game.pending.seat
            game.apply(seat, POLICIES["v2"](game.observation(seat), game.legal_actions(seat), rng))
        assert game.outcome is not None
        seen.add(reason(game.outcome.reason, frozenset(game.outcome.winners), game.outcome.identities))
    assert {"latent", "special_service"} <= seen, seen


def test_jobs_give_the_same_figures_as_one_process() -> None:
    """``--jobs``: deals played in worker processes give exactly the figures of one process
    (each game depends only on its deal and policies), in the deals' order."""
    bench = _bench()
    deals = [11, 12, 13, 14]
    one = bench.Runner(1, (200.0, 0), quiet=True)
    two = bench.Runner(2, (200.0, 0), quiet=True)
    try:
        h1 = bench.head_to_head("v2", "random", deals, 5, "return", characters=False, runner=one)
        h2 = bench.head_to_head("v2", "random", deals, 5, "return", characters=False, runner=two)
        t1 = bench.tables("random", deals, 5, "classic", characters=False, runner=one)
        t2 = bench.tables("random", deals, 5, "classic", characters=False, runner=two)
    finally:
        two.close()
    assert h1 == h2
    assert h1["by_identity"]["all"]["v2"]["n"] == len(deals) * 5
    speed = ("decisions_per_s", "bot_ms_per_decision", "bot_ms_per_decision_worst_game")
    assert {k: v for k, v in t1.items() if k not in speed} == {k: v for k, v in t2.items() if k not in speed}
    assert t1["games"] == len(deals)
