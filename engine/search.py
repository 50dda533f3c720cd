"""The search bot (issue 14 point 4): determinized Monte Carlo search over the seat's
information set, with the belief (:mod:`engine.belief`) as the prior of the identities.

At each decision with more than one legal action: repeat until the budget is spent —
draw a world consistent with what the seat has seen (:func:`engine.determinize.determinize`,
identities drawn from the belief), pick a root action by UCB1 over the statistics shared by
all worlds (information-set search, root level), play it, then play on with the heuristic
v2 policy in every seat (each seat seeing only its own view of the sampled world; at
response polls a playout passes, as v2 does ~99% of the time) for at most
:attr:`SearchConfig.depth` decisions, and score the result for the seat: 1 for a win,
0 for a loss, else :func:`evaluate`. The answer is the action with the best mean, unless
too few playouts separate it from heuristic v2's own choice, which is kept.

The search sees the game only through :func:`~engine.determinize.determinize` (so only
through the seat's view), uses the engine's generic interface (decisions, legal actions,
observations), and so plays every ruleset. Deterministic under a seed when the budget is a
number of playouts (:attr:`SearchConfig.playouts`); with a time budget the number of
playouts, and so the move, depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.action import PASS, Action
from engine.belief import Belief
from engine.bots_v2 import heuristic_v2_bot
from engine.determinize import determinize
from engine.errors import IllegalAction
from engine.game import Game
from fengsheng.v1 import game_pb2

#: Decision kinds where a playout passes whenever it may (response polls, the intel back at
#: its sender): heuristic v2 passes there almost always, and the playout saves building a view.
QUIET_KINDS = frozenset({"respond", "returned"})
#: The default time budget of one decision (issue 14: 200 ms, configurable).
DEFAULT_BUDGET_MS = 200.0


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How hard the bot thinks: a time budget per decision, or (for reproducible runs) a
    fixed number of playouts; ``depth`` caps a playout's decisions."""

    budget_ms: float = DEFAULT_BUDGET_MS
    playouts: int | None = None
    """When set, exactly this many playouts (the time budget is then ignored)."""
    depth: int = 60
    exploration: float = 0.7
    min_margin: float = 0.08
    """How much better than v2's choice an action's mean must be to be chosen instead."""
    max_candidates: int = 8
    """At most this many root actions are searched (v2's choice always among them)."""


def evaluate(g: Game, seat: int) -> float:
    """A playout cut short: how well ``seat`` stands in the sampled world, in [0, 1] —
    its side's best progress towards three true intel of its colour (its faction's, from the
    ruleset) against the other side's, and its own black intel as the risk of dying (rules
    digest §6)."""
    st = g.state
    if st.over:
        return 1.0 if seat in st.winners else 0.0
    me = st.seats[seat]
    if not me.alive:
        return 0.0
    cards = g.ruleset.cards
    # a faction's colour (Ruleset.factions); an identity that wins alone: any true intel
    colour = {ident: cards.is_red if c == "red" else cards.is_blue for ident, c in g.ruleset.factions.items()}

    def progress(i: int) -> float:
        p = st.seats[i]
        wanted = colour.get(p.identity, cards.is_true)
        return min(3, sum(1 for c in p.intel if wanted[c])) / 3.0

    mine = max(progress(i) for i, p in enumerate(st.seats) if p.alive and (i == seat or (
        p.identity == me.identity and me.identity in colour)))
    theirs = max((progress(i) for i, p in enumerate(st.seats)
                  if p.alive and i != seat and not (p.identity == me.identity and me.identity in colour)), default=0.0)
    black = sum(1 for c in me.intel if cards.is_black[c])
    return max(0.0, min(1.0, 0.5 + 0.35 * (mine - theirs) - 0.15 * max(0, black - 1)))


def _playout(g: Game, seat: int, depth: int, rng: random.Random) -> float:
    for _ in range(depth):
        p = g.pending
        if p is None:
            break
        legal = g.legal_actions(p.seat)
        action: Action
        if len(legal) == 1:
            action = legal[0]
        elif p.kind in QUIET_KINDS and PASS in legal:
            action = PASS  # v2 passes at ~99% of these (bench/bots.py play); no view to build
        else:
            action = heuristic_v2_bot(g.view(p.seat), legal, rng)  # in-process: no protobuf
        g.apply(p.seat, action)
    return evaluate(g, seat)


def _candidates(legal: list[Action], first: Action, limit: int, rng: random.Random) -> list[Action]:
    rest = [a for a in legal if a != first]
    rng.shuffle(rest)
    return [first, *rest[:max(0, limit - 1)]]


def search(game: Game, seat: int, rng: random.Random, *, config: SearchConfig = SearchConfig(),
           belief: Belief | None = None, events: Sequence[Any] | None = None,
           observation: game_pb2.Observation | None = None) -> tuple[Action, dict[str, Any]]:
    """The action for ``seat`` at ``game``'s open decision and the search's statistics.

    ``game`` is read only through :func:`~engine.determinize.determinize` for ``seat``; it
    may itself be a determinization (the engine service sends one to the bot workers).
    ``events`` are the events the seat saw (default: the game's own log, seat's view)."""
    legal = game.legal_actions(seat)
    if not legal:
        raise IllegalAction(f"seat {seat} has no decision to take")
    obs = observation if observation is not None else game.observation(seat)
    first = heuristic_v2_bot(obs, legal, rng)
    if len(legal) == 1:
        return legal[0], {"playouts": 0}
    seen = list(events) if events is not None else game.events_for(seat)
    if belief is None:
        belief = Belief(game.ruleset, game.players, seat)
        belief.update(seen)
        belief.observe(obs)
    prior = belief.prior()
    cands = _candidates(legal, first, config.max_candidates, rng)
    visits = dict.fromkeys(cands, 0)
    total = dict.fromkeys(cands, 0.0)
    deadline = time.perf_counter() + config.budget_ms / 1000.0
    n = 0
    while (n < config.playouts) if config.playouts is not None else (time.perf_counter() < deadline):
        world = determinize(game, seat, rng, prior=prior, observation=obs, events=seen)
        untried = [a for a in cands if visits[a] == 0]
        if untried:
            action = untried[0]
        else:
            log_n = math.log(n)
            action = max(cands, key=lambda a: total[a] / visits[a] + config.exploration * math.sqrt(log_n / visits[a]))
        try:
            world.apply(seat, action)
            value = _playout(world, seat, config.depth, rng)
        except IllegalAction:  # not legal in this world (cannot happen for the seat's own decision)
            value = 0.0
        visits[action] += 1
        total[action] += value
        n += 1
    means = {a: total[a] / visits[a] for a in cands if visits[a]}
    best = max(means, key=lambda a: (means[a], visits[a])) if means else first
    if best != first and (visits[best] < 3 or means[best] < means.get(first, 0.0) + config.min_margin):
        best = first
    return best, {"playouts": n, "means": {a: round(m, 3) for a, m in means.items()}, "visits": visits}


class SearchBot:
    """The search bot as a named policy (``engine.bots.POLICIES["search"]``).

    Called as a plain policy ``(observation, legal, rng)`` it has no game to search and
    plays heuristic v2; callers that hold the match (the bench, the bot workers through
    the engine service's determinization) call :meth:`decide` instead, which searches.
    ``needs_game`` tells them so."""

    needs_game = True

    def __init__(self, config: SearchConfig = SearchConfig()) -> None:
        self.config = config

    def __call__(self, observation: game_pb2.Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        return heuristic_v2_bot(observation, legal, rng)

    def decide(self, game: Game, seat: int, rng: random.Random, *, budget_ms: float | None = None,
               events: Sequence[Any] | None = None, observation: game_pb2.Observation | None = None) -> Action:
        """Search ``seat``'s open decision of ``game`` (see :func:`search`)."""
        config = self.config
        if budget_ms is not None:
            config = SearchConfig(budget_ms=budget_ms, playouts=None, depth=config.depth,
                                  exploration=config.exploration, min_margin=config.min_margin,
                                  max_candidates=config.max_candidates)
        action, _ = search(game, seat, rng, config=config, events=events, observation=observation)
        return action


__all__ = ["DEFAULT_BUDGET_MS", "SearchBot", "SearchConfig", "evaluate", "search"]
