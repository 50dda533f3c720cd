"""Ladder benchmark: rating throughput and ranking accuracy. Prints one JSON object.

- ``updates_per_s``: finished matches rated per second by the ladder's rule
  (:func:`services.ranked.ladder.plan_update` through :class:`MemoryLadder`: two scopes, season and
  all time, history and correction counts), on synthetic 5-player results;
  ``player_updates_per_s`` counts each participant's rating change.
  ``updates_per_cpu_s`` divides by the process's CPU time instead of the wall clock.
- ``redis_updates_per_s`` (with ``--redis``, or an embedded Redis with ``--embedded-redis``):
  the same through :class:`RedisLadder` (WATCH/MULTI, one writer).
- ``accuracy``: after ``--matches`` arena matches among heuristic and random bots (played on
  the engine in-process), the share of (heuristic, random) pairs the leaderboard orders
  correctly; ``ordered`` is true when every heuristic entrant is above every random one;
  ``accuracy_corrected`` the same with the (player count, identity) correction, and
  ``separation`` the mean mu gap between the groups over the strong group's spread.

Run: ``python bench/ladder.py [--matches 2000] [--updates 20000]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.ranked import arena
from services.ranked.ladder import ALL_TIME, BOT, MatchResult, MemoryLadder, Participant, RedisLadder


def synthetic(n: int, pool: int = 50, seed: int = 7) -> list[MatchResult]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        table = rng.sample(range(pool), 5)
        winners = set(rng.sample(range(5), rng.choice((1, 2, 3))))
        out.append(
            MatchResult(
                f"bench-{seed}-{i}",
                "bench",
                tuple(
                    Participant(f"p{pid}", f"p{pid}", True, seat, seat in winners, rng.choice((1, 2, 3)))
                    for seat, pid in enumerate(table)
                ),
            )
        )
    return out


def accuracy(ladder: MemoryLadder, entrants: list[arena.Entrant], strong: str, weak: str) -> tuple[float, bool]:
    score = {row.player_id: row.rating.score for row in ladder.leaderboard(BOT, ALL_TIME, limit=1000)}
    good = [e.player_id for e in entrants if e.policy == strong]
    bad = [e.player_id for e in entrants if e.policy == weak]
    pairs = [(g, b) for g in good for b in bad]
    right = sum(1 for g, b in pairs if score[g] > score[b])
    return right / len(pairs), right == len(pairs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=20000, help="synthetic matches to rate")
    parser.add_argument("--matches", type=int, default=2000, help="arena matches for the accuracy figure")
    parser.add_argument("--entrants", type=int, default=4, help="entrants per policy")
    parser.add_argument("--redis", default=None, help="also time RedisLadder on this Redis URL (it is written to)")
    parser.add_argument("--embedded-redis", action="store_true", help="time RedisLadder on an embedded Redis")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    results = synthetic(args.updates)
    ladder = MemoryLadder(correction=True)
    t0, c0 = time.perf_counter(), time.process_time()
    for r in results:
        ladder.record(r)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    out: dict[str, object] = {
        "updates_per_s": round(len(results) / dt),
        "player_updates_per_s": round(5 * len(results) / dt),
        # the same per second of this process's CPU: what one free core does (the wall
        # clock figure drops when other processes share the cores)
        "updates_per_cpu_s": round(len(results) / cpu),
    }

    def time_redis(url: str) -> None:
        import redis

        client = redis.Redis.from_url(url)
        rl = RedisLadder(client, correction=True)
        sample = synthetic(min(2000, args.updates), seed=args.seed + 1000)
        t = time.perf_counter()
        for r in sample:
            rl.record(r)
        out["redis_updates_per_s"] = round(len(sample) / (time.perf_counter() - t))
        client.close()

    if args.redis:
        time_redis(args.redis)
    elif args.embedded_redis:
        from services.redis_server import RedisServer

        with RedisServer() as server:
            time_redis(server.url)

    if args.matches:
        policies = ["heuristic"] * args.entrants + ["random"] * args.entrants
        arena_ladder = MemoryLadder()
        corrected = MemoryLadder(correction=True)

        class Both(MemoryLadder):
            """Rate every arena match with and without the identity correction."""

            def record(self, result: MatchResult) -> bool:
                corrected.record(result)
                return arena_ladder.record(result)

        t0 = time.perf_counter()
        entrants = arena.run(Both(), policies, args.matches, seed=args.seed, season="bench")
        acc, ordered = accuracy(arena_ladder, entrants, "heuristic", "random")
        acc_c, ordered_c = accuracy(corrected, entrants, "heuristic", "random")
        gap = {}
        for name, lad in (("plain", arena_ladder), ("corrected", corrected)):
            rows = lad.leaderboard(BOT, ALL_TIME, limit=1000)
            strong = [r.rating.mu for r in rows if r.player_id.startswith("heuristic")]
            weak = [r.rating.mu for r in rows if r.player_id.startswith("random")]
            sd = (sum((x - sum(strong) / len(strong)) ** 2 for x in strong) / len(strong)) ** 0.5
            gap[name] = round((sum(strong) / len(strong) - sum(weak) / len(weak)) / max(sd, 1e-9), 2)
        out.update(
            matches=args.matches,
            arena_seconds=round(time.perf_counter() - t0, 2),
            accuracy=round(acc, 4),
            ordered=ordered,
            accuracy_corrected=round(acc_c, 4),
            ordered_corrected=ordered_c,
            # mean mu gap between the strong and weak groups, in units of the strong group's spread
            separation=gap,
            leaderboard=[
                (row.player_id, round(row.rating.score, 2)) for row in arena_ladder.leaderboard(BOT, ALL_TIME)
            ],
        )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
