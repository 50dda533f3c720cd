"""The belief tracker for SDK bots (docs/bots.md, "Who is who: the belief helper").

:func:`belief_of` turns the observation ``decide`` receives (the seat's view, with every
event the seat has seen) into an :class:`engine.belief.Belief`: the probability of each
identity for every seat, exact over the identity deals consistent with what the seat knows
(its own identity, revealed ones, ones it was shown), weighed by how the platform's players
of each identity act (who sends which colour, who takes or refuses which intel, who plays
what on whom). The platform's own search bot uses the same tracker. It reads each event's
kind and typed arguments (and an ``action`` event's action as a value), never its text, so it
follows every ruleset's sends and receives (风声再临, classic and 谍战篇 alike).

``observation`` is what ``decide`` gets (:class:`fengsheng_bot.Observation`) or the
``fengsheng.v1.Observation`` message itself.

>>> from fengsheng.v1 import game_pb2
>>> obs = game_pb2.Observation(ruleset="return", players=5, viewer=0)
>>> round(sum(belief_of(obs).marginals()[1].values()), 6)
1.0
"""

from __future__ import annotations

from engine.belief import Belief
from fengsheng.v1 import game_pb2
from fengsheng_bot import Observation

#: What the helpers read: ``decide``'s observation or the message it reads through.
Seen = Observation | game_pb2.Observation


def belief_of(observation: Seen) -> Belief:
    """The observing seat's belief from its observation and the events in it (built
    afresh each call: a few milliseconds, and never stale across reconnections)."""
    b = Belief(observation.ruleset or "return", observation.players, observation.viewer)
    b.observe(observation)  # the seat views, and the events as values (typed or messages)
    return b


def identity_odds(observation: Seen) -> list[dict[str, float]]:
    """Per seat: identity id (``military``, ``latent``, ``agent`` …) -> probability."""
    return belief_of(observation).marginals()


def same_side_odds(observation: Seen) -> list[float]:
    """Per seat: the probability it wins with the observing seat (its own seat: 1)."""
    return belief_of(observation).same_side()


__all__ = ["Belief", "belief_of", "identity_odds", "same_side_odds"]
