"""The python-chess-style API: typed errors that list the alternatives and change
nothing, set-up errors, determinism, and snapshots at any decision."""

from __future__ import annotations

import random

import pytest

from engine import Game, IllegalAction, SetupError
from fengsheng.scenario import run_scenario


def play(game: Game, n: int, seed: int = 0) -> None:
    rnd = random.Random(seed)
    for _ in range(n):
        p = game.pending
        if p is None:
            return
        game.apply(p.seat, rnd.choice(game.legal_actions(p.seat)))


@pytest.mark.parametrize("players", [0, 2, 8, -1])
def test_bad_player_counts_are_setup_errors(players: int) -> None:
    with pytest.raises(SetupError, match="players must be 3 to 7"):
        Game.new(players=players, seed=1)


def test_unknown_ruleset() -> None:
    with pytest.raises(SetupError, match="unknown ruleset"):
        Game.new(ruleset="classic-2099", players=5)


def test_tutorial_allows_at_most_five_players() -> None:
    # rulebook p.1 新手教学模式 ①
    with pytest.raises(SetupError, match="at most 5"):
        Game.new(players=6, tutorial=True)


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ({"seats": [{"identity": "latent"}, {"identity": "military"}]}, "3 to 7"),
        ({"seats": [{"identity": "latent", "hand": [5]}, {"identity": "military", "hand": [5]},
                    {"identity": "agent"}]}, "placed twice"),
        ({"seats": [{"identity": "latent", "hand": [88]}, {"identity": "military"}, {"identity": "agent"}]},
         "outside 1..87"),
        ({"seats": [{"identity": "latent", "alive": False, "intel": [3]}, {"identity": "military"},
                    {"identity": "agent"}]}, "dead seat"),
        ({"seats": [{"identity": "latent"}, {"identity": "latent"}, {"identity": "agent"}]}, "at most 1 latent"),
        ({"seats": [{"identity": "spy"}, {"identity": "latent"}, {"identity": "agent"}]}, "identity must be"),
        ({"seats": [{"identity": "latent"}, {"identity": "military"}, {"identity": "agent"}], "turn": 5},
         "not a living seat"),
        ({"seats": [{"identity": "latent"}, {"identity": "military"}, {"identity": "agent"}],
          "pile": [1], "discard": [1]}, "placed twice"),
    ],
)
def test_illegal_positions_are_setup_errors(position: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game.from_position(position)


def test_scenario_runner_reports_setup_errors_as_error() -> None:
    result = run_scenario({"name": "broken", "seats": [{"identity": "latent", "hand": [1]},
                                                         {"identity": "military", "intel": [1]},
                                                         {"identity": "agent"}]})
    assert result.status == "ERROR" and "placed twice" in result.message


def test_scenario_runner_reports_illegal_steps_as_fail_with_alternatives() -> None:
    result = run_scenario({"name": "illegal", "seats": [{"identity": "latent", "hand": [41]},
                                                          {"identity": "military"}, {"identity": "agent"}],
                           "steps": ["0: play 41 on 3"]})
    assert result.status == "FAIL"
    assert "step 1" in result.message and "play 41 on 3" in result.message and "legal: declare" in result.message


def test_illegal_action_lists_alternatives_and_changes_nothing() -> None:
    game = Game.new(players=5, seed=3)
    play(game, 25, seed=3)
    before = game.snapshot()
    p = game.pending
    assert p is not None
    legal = game.legal_actions(p.seat)
    for bad in ("play 999", "send 1 sideways", "", "choose", "accept accept", "play 1 to 9"):
        with pytest.raises(IllegalAction) as err:
            game.apply(p.seat, bad)
        assert err.value.legal == legal
        assert "legal:" in str(err.value)
        assert game.snapshot() == before


def test_acting_out_of_turn_is_illegal_and_changes_nothing() -> None:
    game = Game.new(players=4, seed=5)
    p = game.pending
    assert p is not None
    other = (p.seat + 1) % 4
    before = game.snapshot()
    with pytest.raises(IllegalAction, match=f"seat {other} is not to act"):
        game.apply(other, "declare")
    assert game.legal_actions(other) == []
    assert game.snapshot() == before


def test_acting_after_game_over_is_illegal() -> None:
    game = Game.new(players=3, seed=11)
    play(game, 100000, seed=11)
    assert game.is_over and game.pending is None and game.outcome is not None
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply(0, "pass")


def test_same_seed_and_actions_give_identical_snapshots() -> None:
    for seed in range(5):
        a, b = Game.new(players=3 + seed, seed=seed), Game.new(players=3 + seed, seed=seed)
        play(a, 200, seed=seed)
        play(b, 200, seed=seed)
        assert a.snapshot() == b.snapshot()
        assert a.history == b.history


def test_different_seeds_deal_differently() -> None:
    deals = {Game.new(players=5, seed=s).snapshot() for s in range(10)}
    assert len(deals) == 10


def test_history_replays_to_the_same_snapshot() -> None:
    game = Game.new(players=6, seed=21)
    play(game, 100000, seed=21)
    again = Game.new(**game.settings)
    for seat, action in game.history:
        again.apply(seat, action)
    assert again.snapshot() == game.snapshot()


def test_restore_mid_chain_continues_identically() -> None:
    """Find decisions with a half-built or half-resolved chain and restore there."""
    found = 0
    for seed in range(40):
        game = Game.new(players=5, seed=seed)
        rnd = random.Random(seed)
        while not game.is_over:
            p = game.pending
            assert p is not None
            if game.state.chain and rnd.random() < 0.2:
                clone = Game.restore(game.snapshot())
                assert clone.pending == game.pending
                assert clone.legal_actions(p.seat) == game.legal_actions(p.seat)
                follow = random.Random(seed + 1)
                for _ in range(10):
                    q = game.pending
                    if q is None:
                        break
                    action = follow.choice(game.legal_actions(q.seat))
                    game.apply(q.seat, action)
                    clone.apply(q.seat, action)
                assert clone.snapshot() == game.snapshot()
                found += 1
                continue
            game.apply(p.seat, rnd.choice(game.legal_actions(p.seat)))
    assert found > 20


def test_restored_snapshot_bytes_are_identical() -> None:
    game = Game.new(players=7, seed=2)
    play(game, 60, seed=2)
    data = game.snapshot()
    assert Game.restore(data).snapshot() == data


def test_actions_are_normalised() -> None:
    game = Game.from_position({"seats": [{"identity": "latent", "hand": [4]}, {"identity": "military"},
                                          {"identity": "agent"}]})
    game.apply(0, "  DECLARE ")
    game.apply(1, "pass")
    game.apply(2, "Pass")
    # card 4 has no direction-any marker: "right" is accepted as its only direction
    game.apply(0, "send 4 secret right")
    assert game.state.transit is not None and game.state.transit.holder == 1


def test_default_action_prefers_pass() -> None:
    game = Game.new(players=5, seed=9)
    p = game.pending
    assert p is not None and p.kind == "main"
    assert str(game.default_action(p.seat)) == "declare"
    game.apply(p.seat, "declare")
    q = game.pending
    assert q is not None and q.kind == "respond"
    assert str(game.default_action(q.seat)) == "pass"
