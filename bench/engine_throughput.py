"""Engine throughput: 5-player random play on one core.

Each decision computes the acting seat's legal actions and applies a uniformly random one
(figure 1); figure 2 also builds the acting seat's observation every decision, as an
in-process search bot reads it (``Game.view``: plain values, no protobuf; issue 27 §6,
target ≥ 150 games/s on an idle core); figure 3 plays with characters on (issue 3 target:
within 2x of figure 1); figure 4 builds the protobuf ``Observation`` every decision instead
(``Game.observation``: what the service boundary sends).
Prints JSON. Usage: ``python bench/engine_throughput.py [--games 300] [--players 5] [--cpu]``;
``--cpu`` counts CPU seconds of this process instead of wall time, for comparing two versions
on a machine that is not idle (docs/engine-speed.md).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections.abc import Callable

from fengsheng.simulate import play_random


def measure(games: int, players: int, *, observe: bool, seed: int, characters: bool = False,
            ruleset: str = "return", clock: Callable[[], float] = time.perf_counter,
            view: bool = False) -> dict[str, float]:
    decisions = 0
    start = clock()
    for i in range(games):
        decisions += play_random(seed + i, players, observe=observe, characters=characters,
                                 ruleset=ruleset, view=view).decisions
    elapsed = clock() - start
    return {
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions_per_game": round(decisions / games, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--ruleset", default="return",
                        help="a registered ruleset id: return (风声再临), classic, spy (谍战篇)")
    parser.add_argument("--cpu", action="store_true", help="CPU seconds of this process, not wall time")
    args = parser.parse_args()
    rs = args.ruleset
    clock = time.process_time if args.cpu else time.perf_counter
    play_random(0, args.players, ruleset=rs)  # warm-up: imports, tables
    plain = measure(args.games, args.players, observe=False, seed=args.seed, ruleset=rs, clock=clock)
    observed = measure(args.games, args.players, observe=False, view=True, seed=args.seed, ruleset=rs,
                       clock=clock)
    proto = measure(args.games, args.players, observe=True, seed=args.seed, ruleset=rs, clock=clock)
    from engine.errors import SetupError

    try:
        with_characters: dict[str, float] | None = measure(args.games, args.players, observe=False, seed=args.seed,
                                                           characters=True, ruleset=rs, clock=clock)
    except SetupError:  # fewer playable characters than players
        with_characters = None
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = {
        "bench": "engine_throughput",
        "ruleset": rs,
        "players": args.players,
        "python": sys.version.split()[0],
        "clock": "cpu" if args.cpu else "wall",
        **plain,
        "with_observation": observed,
        "with_protobuf_observation": proto,
        "with_characters": with_characters,
        "characters_slowdown": (round(plain["games_per_s"] / with_characters["games_per_s"], 2)
                                if with_characters else None),
        "peak_rss_mb": round(peak_kb / 1024, 1),
        "target_games_per_s": 30,
        "target_with_observation_games_per_s": 150,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
