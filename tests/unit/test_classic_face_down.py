"""Classic §12 D12: hand cards discarded as a cost or by an effect (the 试探 discard) and a
leaving player's hand lie face down in the discard pile. Only the seat that discarded a
card may see its number: in observations, events and the action log; the invariant check
of :mod:`fengsheng.invariants` must catch an observation that shows it; identity mixes
outside the dealt table are accepted in positions (docs/rule-decisions.md, classic 16)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, SetupError
from engine.rulesets import ruleset_module
from fengsheng.invariants import Checker, check_discard, check_observation
from fengsheng.simulate import play_random

match_ext = ruleset_module("classic", "records").match_ext

#: 49 is the red 试探 "潜伏 / discard 1" (D2); seat 1 is 潜伏 and must discard.
PROBE_POSITION: dict[str, Any] = {"ruleset": "classic", "discard": [33], "seats": [
    {"identity": "military", "hand": [9, 49]},
    {"identity": "latent", "hand": [40, 41]},
    {"identity": "bystander", "hand": [42]},
    {"identity": "military", "hand": [43]},
]}


def _probe_discard() -> Game:
    game = Game.from_position(PROBE_POSITION)
    game.apply(0, "play 49 to 1")
    while game.pending is not None and game.pending.kind == "priority":
        game.apply(game.pending.seat, "pass")
    assert game.pending is not None and game.pending.seat == 1 and game.pending.kind == "choose"
    game.apply(1, "choose 41")
    return game


def test_probe_discard_is_face_down_for_everyone_else() -> None:
    game = _probe_discard()
    st = game.state
    assert st.discard == [33, 41]
    assert match_ext(st).discard_face_down == [41] and match_ext(st).discard_face_down_by == [1]
    assert list(game.observation(1).discard) == [33, 41]
    for viewer in (-1, 0, 2, 3):
        obs = game.observation(viewer, include_events=True)
        assert list(obs.discard) == [33, 0], viewer
        assert list(obs.discard_face_down) == [1]
        assert not any(41 in e.cards or "41" in e.text.split() for e in obs.events), viewer
        assert any(e.kind == "discard" and "face down" in e.text for e in obs.events)
        check_observation(game, st, viewer, obs)
    # the discarder's own events name the card (its hand showed it anyway)
    assert any(e.kind == "discard" and 41 in e.cards for e in game.events_for(1))
    assert any(e.text == "1: choose 41" for e in game.events_for(1))
    assert any(e.text == "1: chooses a card to discard" for e in game.events_for(-1))


def test_invariant_catches_a_shown_face_down_discard() -> None:
    """The leak check fails an observation that names another seat's face-down discard."""
    game = _probe_discard()
    obs = game.observation(2)
    check_discard(game.state, 2, obs)
    obs.discard[1] = 41
    with pytest.raises(AssertionError, match="face-down discard 41"):
        check_discard(game.state, 2, obs)
    own = game.observation(1)
    own.discard[1] = 0
    with pytest.raises(AssertionError, match="hides its own"):
        check_discard(game.state, 1, own)


def test_dead_players_hand_goes_face_down_and_reshuffle_clears() -> None:
    """A player who dies puts the hand face down, the intel face up; reshuffling the
    discard pile into the pile forgets which cards were face down."""
    game = Game.from_position({"ruleset": "classic", "turn": 0, "seats": [
        {"identity": "latent", "hand": [9, 40]},
        {"identity": "military", "hand": [41], "intel": [10, 11]},
        {"identity": "bystander"},
        {"identity": "military"},
    ]})
    while game.pending is not None and game.pending.kind == "priority":
        game.apply(game.pending.seat, "pass")
    game.apply(0, "send 9 secret")
    while game.pending is not None and game.pending.kind == "priority":
        game.apply(game.pending.seat, "pass")
    game.apply(1, "accept")
    st = game.state
    assert not st.seats[1].alive
    assert 41 in match_ext(st).discard_face_down and {9, 10, 11}.isdisjoint(match_ext(st).discard_face_down)
    spectator = list(game.observation(-1).discard)
    assert 41 not in spectator and {9, 10, 11} <= set(spectator)
    game.reshuffle()
    assert st.discard == [] and match_ext(st).discard_face_down == [] and match_ext(st).discard_face_down_by == []


def test_face_down_discards_survive_a_snapshot() -> None:
    game = _probe_discard()
    back = Game.restore(game.snapshot())
    assert match_ext(back.state).discard_face_down == [41] and match_ext(back.state).discard_face_down_by == [1]
    assert list(back.observation(0).discard) == [33, 0]


def test_random_games_keep_face_down_discards_hidden() -> None:
    """Random classic games with every invariant checked (the discard check included) do
    put cards face down."""
    seen = 0
    for seed in range(6):
        checker = Checker(seed)

        def check(game: Game, decisions: int, checker: Checker = checker) -> None:
            nonlocal seen
            checker(game, decisions)
            seen = max(seen, len(match_ext(game.state).discard_face_down))

        play_random(seed, 4 + seed % 3, check=check, ruleset="classic")
    assert seen > 0


def test_positions_take_any_identity_mix() -> None:
    """Four 潜伏 at 4 players is a legal position; an identity of another ruleset is not."""
    seats = [{"identity": "latent"} for _ in range(4)]
    seats[0]["hand"] = [1]
    game = Game.from_position({"ruleset": "classic", "seats": seats})
    assert [s.identity for s in game.state.seats] == ["latent"] * 4
    seats[1] = {"identity": "agent"}
    with pytest.raises(SetupError, match="identity"):
        Game.from_position({"ruleset": "classic", "seats": seats})
