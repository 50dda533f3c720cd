"""``fengsheng ladder audit``: the collusion audit of the ranked ladder (issue 26; docs/ranked.md,
"The collusion audit"). Reads every rated match's audit facts from the ranked Redis (the
store the ``ladder.update`` task writes: ``FENGSHENG_RANKED_REDIS_URL`` if set, else
``--redis-url``, else ``FENGSHENG_REDIS_URL``; the password from ``FENGSHENG_REDIS_PASSWORD``,
never from the command line) and prints the pairs of accounts above the threshold with the
evidence: matches together against chance, close queue joins, soft play (z and p each).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="ladder_command", metavar="ACTION")
    p = sub.add_parser("audit", help="pairs of accounts that sit, queue or play together suspiciously",
                       description=__doc__)  # fmt: skip
    from services.ranked.audit import Thresholds

    th = Thresholds()
    p.add_argument("--redis-url", default=None,
                   help="the ranked Redis (FENGSHENG_RANKED_REDIS_URL wins; "
                   "no password here: FENGSHENG_REDIS_PASSWORD)")  # fmt: skip
    p.add_argument("--ruleset", default="", help="audit one ruleset's matches only (default: every ruleset)")
    p.add_argument("--matches", type=int, default=0, help="read only the newest N rated matches (default: all kept)")
    p.add_argument("--z", type=float, default=th.z, help=f"the z a signal needs to flag a pair (default {th.z})")
    p.add_argument("--close-s", type=float, default=th.close_s,
                   help=f"queue joins this close (seconds) count as together (default {th.close_s:g})")  # fmt: skip
    p.add_argument("--min-deeds", type=int, default=th.min_deeds,
                   help=f"intel between a pair before soft play counts (default {th.min_deeds})")  # fmt: skip
    p.add_argument("--all", action="store_true", help="list every pair seated together, not only flagged ones")
    p.add_argument("--limit", type=int, default=100, help="rows shown at most (default 100)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "ladder_command", None) != "audit":
        print("fengsheng ladder: choose an action: audit", file=sys.stderr)
        return 2
    from services import config
    from services.ranked import audit_store
    from services.ranked.audit import Thresholds, report
    from services.ranked.store import RankedStore

    if args.matches < 0 or args.limit < 1 or args.z <= 0 or args.close_s < 0 or args.min_deeds < 1:
        print("fengsheng ladder audit: need --matches >= 0, --limit >= 1, --z > 0, --close-s >= 0, --min-deeds >= 1",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        url = config.role_url("ranked", args.redis_url)
        redis = RankedStore.from_url(url).redis
        facts, skipped = audit_store.load(redis, limit=args.matches, ruleset=args.ruleset)
    except (config.ConfigError, ValueError) as exc:
        print(f"fengsheng ladder audit: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a Redis that does not answer: say which, no traceback
        if type(exc).__module__.startswith("redis"):
            print(f"fengsheng ladder audit: the ranked Redis {config.redacted(url)}: {exc}", file=sys.stderr)
            return 1
        raise
    th = Thresholds(z=args.z, close_s=args.close_s, min_deeds=args.min_deeds)
    body = report(facts, th, everyone=args.all, limit=args.limit)
    body["skipped_other_format"] = skipped
    if args.json:
        print(json.dumps(body, indent=2))
        return 0
    print_table(body)
    return 0


def _signal(sig: dict[str, Any], unit: str = "") -> str:
    mark = "" if sig["counted"] else " (too few)"
    seen = f"{sig['observed']:g}{unit} vs {sig['expected']:.1f} (n {sig['count']})"
    return f"{seen} z {sig['z']:.1f} p {sig['p']:.2g}{mark}"


def print_table(body: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    th = body["thresholds"]
    console = Console()
    skipped = body["skipped_other_format"]
    console.print(
        f"collusion audit: {body['matches']} rated matches ({body['without_soft_play']} without soft-play facts), "
        f"{body['pairs']} pairs seated together, {body['flagged']} flagged (z >= {th['z']:g})"
        + (f"; {skipped} records of another format skipped" if skipped else "")
    )
    if not body["rows"]:
        console.print("no pair above the threshold")
        return
    table = Table()
    for col in ("pair", "flags", "seated together", f"joins within {th['close_s']:g} s", "soft play", "lethal"):
        table.add_column(col)
    for row in body["rows"]:
        table.add_row(f"{row['a']}\n{row['b']}", ",".join(row["flags"]) or "-", _signal(row["seated"]),
                      _signal(row["coqueue"]), _signal(row["soft"]), str(row["lethal"]))  # fmt: skip
    console.print(table)
