"""Collusion-audit benchmark: the simulation of tests/unit/test_ranked_audit_sim.py at full
size, over several seeds. Prints one JSON object.

Each run is a ladder of ``--matches`` rated ``return`` matches of five among ``--honest``
honest heuristic-v2 bots and two colluders who share their observations out of band and
queue together (services/ranked/audit_sim.py), played in-process on the engine, then
audited (services/ranked/audit.py, thresholds of docs/ranked.md). Per run: whether the
colluders are flagged (and by which signals, with each z), the honest pairs flagged, and
the largest z any honest pair reached per signal. Overall: ``detection_rate`` (runs whose
colluders were flagged), ``false_positive_rate`` (flagged honest pairs over all honest
pairs of all runs), CPU seconds per match played and per audit.

``--no-co-queue`` makes the colluders queue like honest accounts (on their own), so only
their play can give them away.

Run: ``python bench/collusion.py [--matches 1000] [--runs 5] [--honest 8]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.ranked.audit import Thresholds, audit
from services.ranked.audit_sim import simulate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000, help="rated matches per run (default 1000)")
    parser.add_argument("--runs", type=int, default=5, help="runs, seeds 1..N (default 5)")
    parser.add_argument("--honest", type=int, default=8, help="honest accounts besides the two colluders (default 8)")
    parser.add_argument("--z", type=float, default=Thresholds().z, help="the flagging z (default 4)")
    parser.add_argument("--no-co-queue", action="store_true", help="colluders queue apart: soft play only")
    args = parser.parse_args()
    if args.matches < 1 or args.runs < 1 or args.honest < 3:
        print("collusion: need --matches >= 1, --runs >= 1, --honest >= 3", file=sys.stderr)
        return 2
    th = Thresholds(z=args.z)
    runs = []
    play_cpu = audit_cpu = 0.0
    flagged_honest = honest_pairs = detected = 0
    for seed in range(1, args.runs + 1):
        t0 = time.process_time()

        def progress(n: int, seed: int = seed) -> None:
            print(f"\rrun {seed}: {n}/{args.matches}", end="", file=sys.stderr)

        sim = simulate(args.matches, honest=args.honest, seed=seed, co_queue=not args.no_co_queue, progress=progress)
        t1 = time.process_time()
        evidence = audit(sim.matches, th)
        t2 = time.process_time()
        play_cpu += t1 - t0
        audit_cpu += t2 - t1
        pair = tuple(sorted(sim.colluders))
        col = next((e for e in evidence if (e.a, e.b) == pair), None)
        honest = [e for e in evidence if (e.a, e.b) != pair]
        fps = [e for e in honest if e.flagged]
        flagged_honest += len(fps)
        honest_pairs += len(honest)
        detected += int(col is not None and col.flagged)
        runs.append(
            {
                "seed": seed,
                "colluders": col.to_dict() if col else None,
                "honest_pairs": len(honest),
                "honest_flagged": [{"a": e.a, "b": e.b, "flags": list(e.flags)} for e in fps],
                "honest_max_z": {
                    name: round(max((getattr(e, name).z for e in honest), default=0.0), 2)
                    for name in ("seated", "coqueue", "soft")
                },
            }
        )
        print(file=sys.stderr)
    print(json.dumps({
        "matches_per_run": args.matches, "run_count": args.runs, "honest_accounts": args.honest,
        "co_queue": not args.no_co_queue, "thresholds": {"z": th.z, "min_deeds": th.min_deeds},
        "detection_rate": detected / args.runs,
        "false_positive_rate": flagged_honest / max(honest_pairs, 1),
        "honest_pairs_total": honest_pairs, "honest_pairs_flagged": flagged_honest,
        "cpu_s_per_match": round(play_cpu / (args.matches * args.runs), 4),
        "cpu_s_per_audit": round(audit_cpu / args.runs, 4),
        "runs": runs,
    }, indent=2))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
