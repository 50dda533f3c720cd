"""The belief tracker (issue 14 point 2): exact over the consistent identity deals, never
contradicts what the seat knows, beats the consistent-uniform prior on heuristic-v2 play,
and drives a determinization's identities."""

from __future__ import annotations

import math
import random

from engine import Game
from engine.belief import Belief
from engine.bots import POLICIES
from engine.determinize import determinize


def _play(seed: int, players: int = 5, until: int | None = None) -> Game:
    g = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while (p := g.pending) is not None and (until is None or g.decision_number < until):
        g.apply(p.seat, POLICIES["v2"](g.observation(p.seat), g.legal_actions(p.seat), rng))
    return g


def test_assignments_are_the_deals_of_the_identity_table() -> None:
    b = Belief("return", 5, 0)
    counts = b.rules.identity_table[5]
    expect = math.factorial(5)
    for n in counts:
        expect //= math.factorial(n)
    assert len(b.assignments) == expect
    assert abs(sum(b.weights()) - 1.0) < 1e-9


def test_known_identities_are_certain_and_marginals_sum_to_one() -> None:
    for seed in range(30):
        g = _play(seed, until=120)
        for seat in range(g.players):
            b = Belief("return", g.players, seat)
            b.observe(g.observation(seat, include_events=True))
            marg = b.marginals()
            assert marg[seat][g.state.seats[seat].identity] > 1 - 1e-9
            for j, p in enumerate(g.state.seats):
                assert abs(sum(marg[j].values()) - 1.0) < 1e-9
                if p.identity_revealed and p.identity:
                    assert marg[j][p.identity] > 1 - 1e-9


def test_belief_beats_the_uniform_prior_on_v2_play() -> None:
    loss = prior = 0.0
    n = 0
    for seed in range(500, 540):
        g = _play(seed)
        truth = [p.identity for p in g.state.seats]
        for seat in range(g.players):
            b = Belief("return", g.players, seat)
            b.update(g.events_for(seat))
            b.observe(g.observation(seat))
            got, base = b.marginals(), b.marginals(uniform=True)
            for j in range(g.players):
                if j != seat and base[j][truth[j]] < 1 - 1e-9:
                    loss -= math.log(max(got[j][truth[j]], 1e-12))
                    prior -= math.log(base[j][truth[j]])
                    n += 1
    assert n > 50
    assert loss / n < prior / n - 0.05


def test_the_belief_is_the_sampling_prior_of_a_determinization() -> None:
    g = _play(7, until=150)
    seat = g.pending.seat if g.pending else 0
    b = Belief("return", g.players, seat)
    b.observe(g.observation(seat, include_events=True))
    seats, keys, weights = b.prior()
    # a belief sure of one deal gives that deal every time
    best = max(range(len(keys)), key=lambda k: weights[k])
    sure = (seats, [keys[best]], [1.0])
    for k in range(5):
        d = determinize(g, seat, random.Random(k), prior=sure)
        assert tuple(d.state.seats[s].identity for s in seats) == keys[best]
        assert d.observation(seat) == g.observation(seat)
