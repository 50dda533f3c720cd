"""Random legal play: the engine's perft. Used by ``fengsheng simulate``, the random-play
tests and ``bench/engine_throughput.py``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import Game

#: A game that has not ended after this many turns is a bug (random play ends in ~20).
TURN_CAP = 400


class RunawayGame(AssertionError):
    """A game hit the safety cap of turns without a winner."""


@dataclass
class GameResult:
    seed: int
    players: int
    decisions: int
    turns: int
    winners: tuple[int, ...]
    reason: str
    game: Game


def play_random(
    seed: int,
    players: int,
    *,
    check: Callable[[Game, int], None] | None = None,
    observe: bool = False,
    turn_cap: int = TURN_CAP,
    characters: bool = False,
    ruleset: str = "return",
    view: bool = False,
) -> GameResult:
    """Play one seeded game choosing uniformly among the legal actions of the seat to act.
    ``check(game, decisions)`` runs on the dealt game (``decisions`` 0: what every viewer
    sees before anyone acts) and after every decision; ``observe`` also builds the acting
    seat's protobuf observation at every decision, ``view`` its plain-value view
    (:meth:`Game.view`, what an in-process search bot reads: the bench's second figure)."""
    game = Game.new(ruleset=ruleset, players=players, seed=seed, characters=characters)
    pick = random.Random(seed ^ 0x5EED).choice
    decisions = 0
    state = game.state
    if check is not None:
        check(game, 0)
    while not state.over:
        p = state.prompt
        assert p is not None
        if observe:
            game.observation(p.seat)
        if view:
            game.view(p.seat)
        game.apply(p.seat, pick(game.legal_actions(p.seat)))
        decisions += 1
        if check is not None:
            check(game, decisions)
        if state.turn_number > turn_cap:
            raise RunawayGame(f"seed {seed}, {players} players: no winner after {turn_cap} turns")
    return GameResult(seed, players, decisions, state.turn_number, tuple(state.winners), state.reason, game)
