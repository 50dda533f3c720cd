"""A hash of every observation and every snapshot of seeded random games, to show that a
change to the engine's speed changed no behaviour (docs/engine-speed.md).

For each ruleset, characters off and on, and seeds 0…N-1 (3 to 7 players): the snapshot and
every viewer's observation (spectator included; deterministic serialization) after every
decision, the views with their events at every seventh decision, and each game's result.
The acting seat's view is asked first in half of the games (as the bench does), the
spectator's first in the others. Run it on two checkouts and compare the printed lines:
``PYTHONPATH=<checkout> python bench/observation_hash.py [--seeds 12]``. With
``--views-only`` the snapshots are left out, to compare two checkouts across a change of
the snapshot's layout (a new state field) that should change no view.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from engine import Game
from engine.errors import SetupError
from fengsheng.simulate import play_random


def ruleset_hash(ruleset: str, characters: bool, seeds: int, snapshots: bool = True) -> tuple[str, int]:
    """The hash of one ruleset's games, and how many were played (set-up errors count as such)."""
    h = hashlib.sha256()
    played = 0

    def check(g: Game, decisions: int) -> None:
        if snapshots:
            h.update(g.snapshot())
        for viewer in range(-1, g.players):
            h.update(g.observation(viewer).SerializeToString(deterministic=True))
        if decisions % 7 == 0:
            for viewer in range(-1, g.players):
                h.update(g.observation(viewer, include_events=True).SerializeToString(deterministic=True))

    for seed in range(seeds):
        try:
            r = play_random(seed, 3 + seed % 5, check=check, observe=seed % 2 == 0, characters=characters,
                            ruleset=ruleset)
        except SetupError:  # e.g. fewer playable characters than players
            h.update(b"setup-error")
            continue
        played += 1
        h.update(repr((r.decisions, r.winners, r.reason)).encode())
    return h.hexdigest(), played


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12)
    parser.add_argument("--views-only", action="store_true", help="leave the snapshots out of the hash")
    args = parser.parse_args()
    total = hashlib.sha256()
    games = 0
    for ruleset in ("return", "classic", "spy"):
        for characters in (False, True):
            digest, played = ruleset_hash(ruleset, characters, args.seeds, not args.views_only)
            games += played
            total.update(bytes.fromhex(digest))
            print(ruleset, "characters" if characters else "plain", digest[:16])
    print("games", games, "total", total.hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
