"""``fengsheng arena --bots random,heuristic --matches N [--ruleset R]``: ranked matches
of a ruleset (the engine's registry; default ``return``) among bot policies, at a table
size that ruleset is played by, played in-process on the engine and rated on that
ruleset's ladder by the ladder's own code (:mod:`services.ranked.ladder`), with a progress bar,
then the leaderboard.

``fengsheng arena --bot mymodule:decide [--bots heuristic] --matches N [--ruleset R]
[--players P]``: an author's own ``decide`` (the SDK's signature, docs/bots.md) at a random
seat against the listed built-in bots, offline (:mod:`fengsheng.bot.arena`); prints its win
rates per identity with 95% Wilson intervals. Nothing is rated.

``fengsheng arena --bot-cmd "node mybot.js" [--move-timeout-ms MS] ...``: the same, with a bot
program in any language that speaks the JSON messages of ``/ws/bots`` one per line over its
stdin/stdout (:mod:`fengsheng.bot.command`); the command is split like a shell would
(:func:`shlex.split`) but run without one, and the program gets no secrets.

``--redis-url`` records the matches in the platform's bot ladder as well as the throw-away
in-memory one: the ranked store, whose URL is resolved as the services resolve it
(services/config.py, ``role_url("ranked")``: ``FENGSHENG_RANKED_REDIS_URL`` if set, else this
URL, which stands for ``FENGSHENG_REDIS_URL``; the password from ``FENGSHENG_REDIS_PASSWORD``;
a cluster URL refused), so it is the store the platform's ``ladder.update`` task writes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bot",
        default=None,
        metavar="MODULE:FUNCTION",
        help="your own decide(observation, legal_actions) function, played against --bots (offline, unrated)",
    )
    parser.add_argument(
        "--bot-cmd",
        default=None,
        metavar="COMMAND",
        help='a bot program in any language speaking /ws/bots JSON, one message a line on stdin/stdout '
        '(e.g. "node mybot.js"), played against --bots (offline, unrated)',
    )
    parser.add_argument(
        "--move-timeout-ms",
        type=int,
        default=5000,
        metavar="MS",
        help="--bot-cmd: milliseconds the program has per decision before the default action is played "
        "(default 5000)",
    )
    parser.add_argument(
        "--bots",
        default="random,heuristic",
        help="comma-separated policies (random, heuristic); fewer than --players are "
        "entered several times as name-1, name-2... (default random,heuristic)",
    )
    parser.add_argument("--matches", type=int, default=200, help="how many matches (default 200)")
    from engine.rulesets import RULESET_IDS

    parser.add_argument(
        "--ruleset",
        choices=RULESET_IDS,
        default="return",
        help="the rules edition played and rated (its own bot ladder; default return)",
    )
    parser.add_argument(
        "--players", type=int, default=5, help="seats per match: a count the ruleset is played by (default 5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    parser.add_argument("--season", default=None, help="season name (default: the current one)")
    parser.add_argument(
        "--correction",
        action="store_true",
        help="correct ratings by (player count, identity) win rates learned during the run",
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="also record every match in the platform's bot ladder: the ranked Redis "
        "(FENGSHENG_RANKED_REDIS_URL if set, else this URL; no password here: FENGSHENG_REDIS_PASSWORD)",
    )
    parser.add_argument("--json", action="store_true", help="print the leaderboard as JSON")


def run_author(args: argparse.Namespace) -> int:
    """``--bot`` / ``--bot-cmd``: the author's bot against built-in bots; win rates per identity."""
    import shlex

    from fengsheng.bot.arena import AuthorSeat, play
    from fengsheng.bot.command import BotProgramError, CommandSeat

    if args.bot and args.bot_cmd:
        print("fengsheng arena: give --bot or --bot-cmd, not both", file=sys.stderr)
        return 2
    opponents = [b.strip() for b in args.bots.split(",") if b.strip()]
    seat: str | AuthorSeat = args.bot
    program: CommandSeat | None = None
    done = [0]
    tty = sys.stderr.isatty() and not args.json

    def progress(n: int) -> None:  # a line that counts up on a terminal; nothing in logs or pipes
        done[0] = n
        if tty:
            print(f"\rarena: {n}/{args.matches} matches", end="\n" if n == args.matches else "", file=sys.stderr)

    try:
        if args.bot_cmd:
            if args.move_timeout_ms <= 0:
                raise ValueError("--move-timeout-ms must be above 0 milliseconds")
            try:
                argv = shlex.split(args.bot_cmd)
            except ValueError as exc:
                raise ValueError(f"--bot-cmd {args.bot_cmd!r}: {exc}") from None
            seat = program = CommandSeat(argv, move_timeout_ms=args.move_timeout_ms)
        report = play(seat, opponents=opponents, matches=args.matches, players=args.players,
                      ruleset=args.ruleset, seed=args.seed,
                      progress=progress)  # fmt: skip
    except (ValueError, ImportError) as exc:
        print(f"fengsheng arena: {exc}", file=sys.stderr)
        return 2
    except BotProgramError as exc:
        where = f"stopped in match {done[0] + 1} of {args.matches}: " if program is not None else ""
        print(f"fengsheng arena: {where}{exc}", file=sys.stderr)
        return 2
    finally:
        if program is not None:
            program.close()
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.table())
    return 0


def run(args: argparse.Namespace) -> int:
    if args.bot or args.bot_cmd:
        return run_author(args)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from services.ranked import arena
    from services.ranked.ladder import ALL_TIME, BOT, MatchResult, MemoryLadder, RedisLadder

    policies = [b.strip() for b in args.bots.split(",") if b.strip()]
    counts = arena.player_counts(args.ruleset)
    if not policies or args.players not in counts or args.matches < 1:
        allowed = ", ".join(map(str, counts))
        print(
            f"fengsheng arena: need --bots, --players one of {allowed} (ruleset {args.ruleset}) and --matches >= 1",
            file=sys.stderr,
        )
        return 2
    ladder = MemoryLadder(correction=args.correction)
    if args.redis_url:
        from services import config
        from services.ranked.store import RankedStore

        try:
            url = config.role_url("ranked", args.redis_url)  # as the ladder.update task finds it
        except config.ConfigError as exc:
            print(f"fengsheng arena: {exc}", file=sys.stderr)
            return 2
        shared = RedisLadder(RankedStore.from_url(url).redis, correction=args.correction)
        plain_record = ladder.record

        def record(result: MatchResult) -> bool:
            shared.record(result)
            return plain_record(result)

        ladder.record = record  # type: ignore[method-assign]
    start = time.perf_counter()
    try:
        with Progress(
            TextColumn("arena"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            disable=args.json,
            transient=False,
        ) as progress:
            task = progress.add_task("matches", total=args.matches)
            arena.run(
                ladder,
                policies,
                args.matches,
                players=args.players,
                seed=args.seed,
                season=args.season,
                ruleset=args.ruleset,
                progress=lambda n: progress.update(task, completed=n),
            )
    except ValueError as exc:
        print(f"fengsheng arena: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - start
    board = ladder.leaderboard(BOT, ALL_TIME, ruleset=args.ruleset)
    if args.json:
        print(
            json.dumps(
                {
                    "ruleset": args.ruleset,
                    "players": args.players,
                    "matches": args.matches,
                    "seconds": round(elapsed, 2),
                    "leaderboard": [row.to_dict() for row in board],
                },
                indent=2,
            )
        )
        return 0
    table = Table(title=f"{args.ruleset} bot ladder after {args.matches} matches ({elapsed:.1f} s)")
    for col in ("#", "bot", "score", "mu", "sigma", "games", "win %"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in board:
        r = row.rating
        name = f"{row.name} [bot]" + (" (provisional)" if r.provisional else "")
        table.add_row(
            str(row.rank),
            name,
            f"{r.score:.2f}",
            f"{r.mu:.2f}",
            f"{r.sigma:.2f}",
            str(r.games),
            f"{100 * r.wins / max(r.games, 1):.1f}",
        )
    Console().print(table)
    return 0
