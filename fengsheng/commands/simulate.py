"""``fengsheng simulate``: random legal play over many seeded games, with optional
invariant checks, and a summary of speed and outcomes."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    parser.add_argument("--ruleset", default="return",
                        help="ruleset id: return (风声再临), classic or spy (谍战篇) (default return)")
    parser.add_argument("--players", default="5",
                        help="player count, a range like 3-7, or a list like 4,5 (default 5); the ruleset's "
                             "identity table says which counts exist")
    parser.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed+i (default 0)")
    parser.add_argument("--check", action="store_true",
                        help="check invariants after every decision (card zones, snapshot round trip, "
                             "no hidden information in observations)")
    parser.add_argument("--characters", action="store_true",
                        help="play with characters (each player picks one of three); reports how often each "
                             "character won and each skill was used")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def parse_players(text: str, allowed: tuple[int, ...] = (3, 4, 5, 6, 7)) -> list[int]:
    """Player counts from ``3-7`` / ``4,5`` / ``5``; each must be one of ``allowed``."""
    counts: list[int] = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = (int(x) for x in part.split("-", 1))
            counts.extend(range(lo, hi + 1))
        else:
            counts.append(int(part))
    bad = [c for c in counts if c not in allowed]
    if bad or not counts:
        raise argparse.ArgumentTypeError(f"player counts must be {min(allowed)}..{max(allowed)}, got {text!r}")
    return counts


def run(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from engine.errors import SetupError
    from engine.rulesets import get_ruleset
    from fengsheng.invariants import Checker
    from fengsheng.simulate import RunawayGame, play_random

    try:
        rules = get_ruleset(args.ruleset)
        counts = parse_players(args.players, tuple(sorted(rules.identity_table)))
    except (argparse.ArgumentTypeError, ValueError, SetupError) as exc:
        print(f"fengsheng simulate: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("fengsheng simulate: --games must be at least 1", file=sys.stderr)
        return 2
    reasons: Counter[str] = Counter()
    identity_wins: Counter[str] = Counter()
    char_played: Counter[str] = Counter()
    char_won: Counter[str] = Counter()
    skill_used: Counter[str] = Counter()
    decisions = turns = 0
    failures: list[str] = []
    start = time.perf_counter()
    with Progress(TextColumn("simulate"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  disable=not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task("games", total=args.games)
        for i in range(args.games):
            seed = args.seed + i
            players = counts[i % len(counts)]
            checker = Checker(seed) if args.check else None
            try:
                result = play_random(seed, players, check=checker, characters=args.characters,
                                     ruleset=args.ruleset)
            except (AssertionError, RunawayGame) as exc:
                failures.append(f"seed {seed} ({players}p): {exc}")
                progress.advance(task)
                continue
            decisions += result.decisions
            turns += result.turns
            reasons[result.reason] += 1
            seats = result.game.state.seats
            for w in result.winners:
                identity_wins[seats[w].identity] += 1
            if args.characters:
                for i, p in enumerate(seats):
                    char_played[p.character] += 1
                    if i in result.winners:
                        char_won[p.character] += 1
                # Active uses and passive effects are both logged as "skill" events.
                for event in result.game.events:
                    skill = event.args.get("id") if event.kind == "skill" else None
                    if isinstance(skill, str):
                        skill_used[skill] += 1
            progress.advance(task)
    elapsed = time.perf_counter() - start
    played = args.games - len(failures)
    summary = {
        "games": args.games,
        "failed": len(failures),
        "ruleset": args.ruleset,
        "players": counts,
        "seconds": round(elapsed, 3),
        "games_per_s": round(args.games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions_per_game": round(decisions / max(played, 1), 1),
        "turns_per_game": round(turns / max(played, 1), 1),
        "endings": dict(reasons.most_common()),
        "winning_identities": dict(identity_wins.most_common()),
        "checked": bool(args.check),
    }
    if args.characters:
        CHARACTERS, SKILLS = rules.characters, rules.skills

        summary["character_win_rate"] = {
            c: round(char_won[c] / char_played[c], 3) for c in CHARACTERS if char_played[c]
        }
        summary["character_games"] = {c: char_played[c] for c in CHARACTERS}
        summary["skill_uses"] = {s: skill_used[s] for s in SKILLS}
        summary["skills_never_used"] = sorted(s for s in SKILLS if not skill_used[s])
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(f"{args.games} games ({', '.join(map(str, counts))} players) in {elapsed:.1f}s: "
              f"{summary['games_per_s']} games/s, {summary['decisions_per_s']} decisions/s, "
              f"{summary['decisions_per_game']} decisions/game, {summary['turns_per_game']} turns/game")
        for reason, n in reasons.most_common():
            print(f"  {n:6d}  {reason}")
        if args.characters:
            print("character        games   win rate")
            for c, rate in sorted(summary["character_win_rate"].items(), key=lambda kv: -kv[1]):
                print(f"  {c:<22} {char_played[c]:6d}   {rate:.3f}")
            print("skill uses:")
            for sk, n in sorted(summary["skill_uses"].items(), key=lambda kv: -kv[1]):
                print(f"  {sk:<22} {n:8d}")
            if summary["skills_never_used"]:
                print(f"never used: {', '.join(summary['skills_never_used'])}")
        if args.check:
            print(f"invariants checked after every decision: {'all held' if not failures else 'FAILED'}")
    for f in failures[:20]:
        print(f"FAILED {f}", file=sys.stderr)
    return 1 if failures else 0
