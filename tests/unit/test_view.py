"""The plain-value view (engine/view.py, for in-process bots) shows exactly what the protobuf
observation shows: for every viewer (spectator included), at every decision of random games
of every ruleset, with and without characters, with the events and without. So no hidden
information reaches a view that the observation (whose leak checks run elsewhere) hides."""

from __future__ import annotations

import random

import pytest

from engine import Game
from engine.rulesets import RULESET_IDS
from engine.view import as_observation


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_view_is_the_observation_as_plain_values(ruleset: str) -> None:
    checked = 0
    for seed in range(4):
        players = 5 + seed % 2
        g = Game.new(ruleset=ruleset, players=players, seed=seed, characters=bool(seed % 2))
        r = random.Random(seed)
        while True:
            events = g.decision_number % 29 == 0 or g.is_over
            # a different viewer first each time: a seat's view part is reused from its last view
            first = g.decision_number % (players + 1)
            for viewer in [*range(first - 1, players), *range(-1, first - 1)]:
                got = as_observation(g.view(viewer, include_events=events))
                want = g.observation(viewer, include_events=events)
                assert got == want, f"{ruleset} seed {seed} decision {g.decision_number} viewer {viewer}"
                assert got.SerializeToString(deterministic=True) == want.SerializeToString(deterministic=True)
                checked += 1
            if (p := g.pending) is None:
                break
            g.apply(p.seat, r.choice(g.legal_actions(p.seat)))
    assert checked > 3000


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_view_is_a_snapshot_and_hides_other_hands(ruleset: str) -> None:
    g = Game.new(ruleset=ruleset, players=5, seed=3)
    r = random.Random(3)
    for _ in range(40):
        p = g.pending
        assert p is not None
        mine = g.view(p.seat)
        spectator = g.view(-1)
        before = as_observation(mine)
        assert mine.seats[p.seat].hand == tuple(g.state.seats[p.seat].hand)
        assert mine.legal == tuple(g.legal_actions(p.seat))
        assert all(not s.hand for i, s in enumerate(mine.seats) if i != p.seat)
        assert all(not s.hand for s in spectator.seats) and not spectator.legal
        g.apply(p.seat, r.choice(g.legal_actions(p.seat)))
        g.view(p.seat)  # the next views reuse unchanged parts: the old view must not change
        g.view(-1)
        assert as_observation(mine) == before
