"""The belief tracker for SDK bots (docs/bots.md, "Who is who: the belief helper").

:func:`belief_of` turns the observation ``decide`` receives (the seat's view, with every
event the seat has seen) into an :class:`engine.belief.Belief`: the probability of each
identity for every seat, exact over the identity deals consistent with what the seat knows
(its own identity, revealed ones, ones it was shown), weighed by how the platform's players
of each identity act (who sends which colour, who takes or refuses which intel, who plays
what on whom). The platform's own search bot uses the same tracker.

>>> from fengsheng.v1 import game_pb2
>>> obs = game_pb2.Observation(ruleset="return", players=5, viewer=0)
>>> round(sum(belief_of(obs).marginals()[1].values()), 6)
1.0
"""

from __future__ import annotations

from engine.belief import Belief
from fengsheng.v1 import game_pb2


def belief_of(observation: game_pb2.Observation) -> Belief:
    """The observing seat's belief from its observation and the events in it (built
    afresh each call: a few milliseconds, and never stale across reconnections)."""
    b = Belief(observation.ruleset or "return", observation.players, observation.viewer)
    b.observe(observation)
    return b


def identity_odds(observation: game_pb2.Observation) -> list[dict[str, float]]:
    """Per seat: identity id (``military``, ``latent``, ``agent`` …) -> probability."""
    return belief_of(observation).marginals()


def same_side_odds(observation: game_pb2.Observation) -> list[float]:
    """Per seat: the probability it wins with the observing seat (its own seat: 1)."""
    return belief_of(observation).same_side()


__all__ = ["Belief", "belief_of", "identity_odds", "same_side_odds"]
