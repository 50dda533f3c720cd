"""How many decisions of one person's seat reach that person, per ruleset, with auto-pass off
(every decision is a prompt) and on (a decision whose only legal action is ``pass`` is
answered by the engine service: services/engine/answer_window.py).

Games are played in this process by seeded random players with characters on (the heuristic
bots' game lengths differ a little; the ratio is what matters). For every seat of every
game: its decisions, and how many were pass-only. Prints one JSON object:
``{"RULESET": {"games": N, "prompts_off": mean, "prompts_on": mean, "ratio": on/off}}``.

Run: ``python bench/prompts_per_game.py [--games 30] [--players 5]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from engine import Game
from engine.errors import SetupError
from services.engine.answer_window import AnswerWindow

RULESETS = ("return", "classic", "spy")


def seat_prompts(ruleset: str, players: int, seed: int) -> tuple[list[int], list[int]]:
    """Per seat of one random game: its decisions, and those that were not pass-only."""
    game = Game.new(ruleset=ruleset, players=players, seed=seed, characters=True)
    rng = random.Random(seed)
    every = [0] * players
    real = [0] * players
    while game.pending is not None:
        seat = game.pending.seat
        legal = game.legal_actions(seat)
        every[seat] += 1
        real[seat] += not AnswerWindow.pass_only(legal)
        game.apply(seat, rng.choice(legal))
    return every, real


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per ruleset")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    out: dict[str, dict[str, float]] = {}
    for ruleset in RULESETS:
        off = on = 0
        games = 0
        for seed in range(args.games):
            try:
                every, real = seat_prompts(ruleset, args.players, seed)
            except SetupError:
                continue
            games += 1
            off += sum(every)
            on += sum(real)
            print(f"{ruleset}: {games}/{args.games}", file=sys.stderr, end="\r")
        seats = max(1, games * args.players)
        out[ruleset] = {
            "games": games,
            "prompts_off": round(off / seats, 1),
            "prompts_on": round(on / seats, 1),
            "ratio": round(on / max(1, off), 3),
        }
    print(file=sys.stderr)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
