"""谍战篇 (``spy``): random play keeps every invariant (card zones, snapshot round trip, no
hidden card, identity or character in any view or text) with and without characters, and
the edition's hidden information stays hidden (digest §4.3, §6.3, §8, §11.17)."""

from __future__ import annotations

import pytest

from engine import Game
from fengsheng.invariants import Checker
from fengsheng.simulate import play_random
from fengsheng.v1 import game_pb2


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_random_games_keep_the_invariants(players: int) -> None:
    for seed in range(3):
        result = play_random(seed, players, check=Checker(seed), ruleset="spy")
        assert result.game.is_over


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_with_characters_keep_the_invariants(seed: int) -> None:
    result = play_random(seed, 6, check=Checker(seed), ruleset="spy", characters=True)
    assert result.game.is_over


def test_the_identity_table_and_the_mystery_cards() -> None:
    """§1.1: 5 players = 2 潜伏战线, 2 特工机关, 1 神秘人 with its own card (§7.2), seen only by
    its owner until the end."""
    g = Game.new(ruleset="spy", players=5, seed=4)
    identities = sorted(p.identity for p in g.state.seats)
    assert identities == ["latent", "latent", "mystery", "special_service", "special_service"]
    (m,) = [i for i, p in enumerate(g.state.seats) if p.identity == "mystery"]
    assert g.state.seats[m].ext.private_task() in ("zhen_ya_zhe", "cuan_duo_zhe", "shuang_mian_jian_die",
                                                   "you_bian_zhe", "xian_xing_zhe")
    assert g.observation(m).seats[m].secret_task == g.state.seats[m].ext.private_task()
    other = (m + 1) % 5
    assert g.observation(other).seats[m].secret_task == ""
    assert g.observation(-1).seats[m].identity == game_pb2.IDENTITY_UNSPECIFIED
    # 3 cards each (§3 ④); the first player has also drawn 3 in the first draw phase (§4.1)
    t = g.state.turn
    assert [len(p.hand) for p in g.state.seats] == [6 if i == t else 3 for i in range(5)]


def test_a_sent_intel_and_a_decrypt_are_seen_by_their_users_only() -> None:
    """§4.3 the intel travels face down; §8 破译 shows it to its user only."""
    g = Game.from_position({
        "ruleset": "spy",
        "seats": [{"identity": "latent", "hand": [1, 30]}, {"identity": "special_service", "hand": [59]},
                  {"identity": "latent"}, {"identity": "special_service"},
                  {"identity": "mystery", "secret_task": "you_bian_zhe"}],
    })
    g.apply(0, "pass")
    g.apply(0, "send 1")
    assert g.observation(0).transit.card == 1 and g.observation(1).transit.card == 0
    assert g.observation(1).transit.mode == game_pb2.ARROW_RIGHT
    g.apply(1, "play 59")
    assert g.observation(1).transit.card == 1
    assert g.observation(2).transit.card == 0 and g.observation(-1).transit.card == 0
    assert sorted(map(str, g.legal_actions(1))) == ["choose flip", "choose keep"]
