"""Bot strength: win rates by bot and identity, head-to-head ratios, last-alive share, speed.

Every bot is a policy registered by name in ``engine.bots.POLICIES`` (``random``,
``heuristic``, ``v2``; a ``search`` bot registered there later is measured the same way:
``--bots search,v2``). Each bot sees only its own seat's observation.

Two experiments on the same deals (``--deals`` seeds, ``--players`` seats):

- **tables**: every seat played by one bot. Per bot: how games end (the last-alive share
  is the survival-lottery figure of issue 14), win rate per identity with 95% Wilson
  intervals, decisions/s of the whole table and the bot's own time per decision.
- **head_to_head** for each ordered pair (A, B): paired deals with seats rotated. For every
  deal and every seat s, A plays seat s among B everywhere else; the reference is the same
  deal with B in every seat (each seat's RNG is seeded by deal and seat, so the two games
  differ only by the policy in seat s). ``ratio`` is A's win rate over B's in the same seats
  and deals, with a 95% bootstrap interval over deals; per identity too.

The search bot (``search``, engine/search.py) is called with the game (it reads it only
through ``determinize`` for its seat) and ``--search-budget-ms`` per decision, or a fixed
``--search-playouts`` count (reproducible). Search vs v2: ``--pairs search:v2 --no-tables``.
``--belief-games N`` adds the belief tracker's accuracy (bench/belief.py) on N v2 games.

``--jobs N`` plays N deals at once in worker processes (same figures as one at a time: every
game depends only on its deal and policies; with a time budget, give each job a core of its
own). Progress goes to stderr, the JSON to stdout.

Prints JSON. Usage: ``python bench/bots.py [--bots random,heuristic,v2] [--deals 100]
[--players 5] [--ruleset return|classic|all] [--pairs v2:heuristic,heuristic:v2] [--jobs 4]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from engine import Game
from engine.bots import POLICIES
from engine.rulesets import RULESET_IDS

Z95 = 1.959963984540054
#: The search bot's time per decision here (``--search-budget-ms``; None with ``--search-playouts``).
SEARCH_BUDGET_MS: float | None = 200.0

T = TypeVar("T")
R = TypeVar("R")


def configure_search(budget_ms: float, playouts: int) -> None:
    """Set how the search bot thinks in this process (the main one and each ``--jobs`` worker):
    ``budget_ms`` per decision, or exactly ``playouts`` per decision when it is not 0."""
    global SEARCH_BUDGET_MS
    SEARCH_BUDGET_MS = budget_ms
    if playouts:
        from engine.search import SearchBot, SearchConfig

        POLICIES["search"] = SearchBot(SearchConfig(playouts=playouts))
        SEARCH_BUDGET_MS = None


class Runner:
    """Plays the deals of one experiment, in this process or in ``jobs`` worker processes
    (results in the deals' order either way), and reports progress on stderr."""

    def __init__(self, jobs: int = 1, search: tuple[float, int] = (200.0, 0), *, quiet: bool = False) -> None:
        self.quiet = quiet
        self._pool = (ProcessPoolExecutor(jobs, initializer=configure_search, initargs=search)
                      if jobs > 1 else None)

    def map(self, fn: Callable[[T], R], items: Sequence[T], label: str) -> Iterator[R]:
        started = last = time.perf_counter()
        results: Iterator[R] = self._pool.map(fn, items) if self._pool else map(fn, items)
        for done, result in enumerate(results, 1):
            now = time.perf_counter()
            if not self.quiet and (now - last >= 10 or done == len(items)):
                last = now
                left = (now - started) / done * (len(items) - done)
                print(f"{label}: {done}/{len(items)} deals, {now - started:.0f} s, ~{left:.0f} s left",
                      file=sys.stderr, flush=True)
            yield result

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate ``wins / n``.

    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> lo, hi = wilson(50, 100); round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, n: int) -> dict[str, float]:
    lo, hi = wilson(wins, n)
    return {"n": n, "wins": wins, "rate": round(wins / n, 4) if n else 0.0, "lo95": round(lo, 4), "hi95": round(hi, 4)}


@dataclass
class Played:
    """One finished game: winners, every seat's identity, how it ended, and decision timing."""

    winners: frozenset[int]
    identities: tuple[str, ...]
    reason: str
    decisions: int
    seconds: float
    bot_time: dict[int, float] = field(default_factory=dict)
    bot_decisions: dict[int, int] = field(default_factory=dict)


def play(policies: Sequence[str], deal: int, ruleset: str, *, characters: bool) -> Played:
    """Play one deal with ``policies[seat]`` in each seat; each seat's RNG comes from the deal
    and the seat, so two games of one deal differ only where their policies differ."""
    game = Game.new(ruleset=ruleset, players=len(policies), seed=deal, characters=characters)
    fns = [POLICIES[name] for name in policies]
    rngs = [random.Random(f"{deal}:{seat}") for seat in range(len(policies))]
    bot_time: dict[int, float] = defaultdict(float)
    bot_decisions: Counter[int] = Counter()
    start = time.perf_counter()
    while (p := game.pending) is not None:
        obs = game.observation(p.seat)
        legal = game.legal_actions(p.seat)
        t0 = time.perf_counter()
        fn = fns[p.seat]
        if getattr(fn, "needs_game", False) and len(legal) > 1:
            # the search bot: it reads the game only through determinize() for its seat
            action = fn.decide(game, p.seat, rngs[p.seat], budget_ms=SEARCH_BUDGET_MS, observation=obs)  # type: ignore[attr-defined]
        else:
            action = fn(obs, legal, rngs[p.seat])
        bot_time[p.seat] += time.perf_counter() - t0
        bot_decisions[p.seat] += 1
        game.apply(p.seat, action)
    elapsed = time.perf_counter() - start
    outcome = game.outcome
    assert outcome is not None
    return Played(frozenset(outcome.winners), outcome.identities, outcome.reason, sum(bot_decisions.values()),
                  elapsed, dict(bot_time), dict(bot_decisions))


#: Identities that win as a side (three intel of their colour, or their faction's task).
FACTIONS = frozenset({"latent", "military", "special_service"})


def _reason(reason: str, winners: frozenset[int], identities: Sequence[str]) -> str:
    """How a game ended, in terms every ruleset shares: ``last_alive``; a faction's win (by
    the winners' identity: 谍战篇 says "intel collected" whichever side collected it); else
    an agent's, bystander's or 神秘人's own win (``mission_or_agent``)."""
    r = reason.lower()
    if "last" in r and "alive" in r:
        return "last_alive"
    sides = {identities[s] for s in winners}
    if len(sides) == 1 and (side := next(iter(sides))) in FACTIONS:
        return side
    for word in ("latent", "military"):
        if word in r:
            return word
    return "mission_or_agent"


def _table_deal(job: tuple[str, int, int, str, bool]) -> Played:
    bot, deal, players, ruleset, characters = job
    return play([bot] * players, deal, ruleset, characters=characters)


def tables(bot: str, deals: Sequence[int], players: int, ruleset: str, *, characters: bool,
           runner: Runner | None = None) -> dict[str, object]:
    """Every seat played by ``bot``: how games end, win rates per identity, speed."""
    runner = runner or Runner(quiet=True)
    wins: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    decisions, seconds, bot_seconds = 0, 0.0, 0.0
    per_decision: list[float] = []
    jobs = [(bot, deal, players, ruleset, characters) for deal in deals]
    for g in runner.map(_table_deal, jobs, f"{ruleset} tables {bot}"):
        reasons[_reason(g.reason, g.winners, g.identities)] += 1
        decisions += g.decisions
        seconds += g.seconds
        bot_seconds += sum(g.bot_time.values())
        per_decision.append(sum(g.bot_time.values()) / max(1, g.decisions))
        for seat, ident in enumerate(g.identities):
            seats[ident] += 1
            seats["all"] += 1
            if seat in g.winners:
                wins[ident] += 1
                wins["all"] += 1
    games = len(deals)
    return {
        "games": games,
        "ends": {k: rate(v, games) for k, v in sorted(reasons.items())},
        "last_alive_share": rate(reasons["last_alive"], games),
        "win_rate": {k: rate(wins[k], seats[k]) for k in sorted(seats)},
        "decisions_per_game": round(decisions / games, 1),
        "decisions_per_s": round(decisions / seconds, 1),
        "bot_ms_per_decision": round(1000 * bot_seconds / max(1, decisions), 4),
        "bot_ms_per_decision_worst_game": round(1000 * max(per_decision), 4),
    }


def _ratio_interval(pairs: list[tuple[int, int, int, int]], rng: random.Random,
                    rounds: int = 1000) -> tuple[float, float]:
    """Bootstrap over deals of (A wins, A seats, B wins, B seats) -> 95% interval of the ratio."""
    if not pairs:
        return 0.0, math.inf
    ratios = []
    for _ in range(rounds):
        sample = [pairs[rng.randrange(len(pairs))] for _ in pairs]
        aw, an, bw, bn = (sum(x[i] for x in sample) for i in range(4))
        ratios.append((aw / an) / (bw / bn) if bw and an and bn else math.inf)
    ratios.sort()
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds) - 1]


def _pair_deal(job: tuple[str, str, int, int, str, bool]) -> dict[str, tuple[int, int, int, int]]:
    """One deal of :func:`head_to_head`: per identity (and ``all``), (``a``'s wins, seats,
    ``b``'s wins in the same seats, seats)."""
    a, b, deal, players, ruleset, characters = job
    reference = play([b] * players, deal, ruleset, characters=characters)
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for seat in range(players):
        table = [b] * players
        table[seat] = a
        g = play(table, deal, ruleset, characters=characters)
        for key in (g.identities[seat], "all"):
            row = rows[key]
            row[0] += seat in g.winners
            row[1] += 1
            row[2] += seat in reference.winners
            row[3] += 1
    return {key: (row[0], row[1], row[2], row[3]) for key, row in rows.items()}


def head_to_head(a: str, b: str, deals: Sequence[int], players: int, ruleset: str, *,
                 characters: bool, runner: Runner | None = None) -> dict[str, object]:
    """``a`` in each seat in turn among ``b``, against ``b`` in the same seat of the same deal."""
    runner = runner or Runner(quiet=True)
    a_wins: Counter[str] = Counter()
    b_wins: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    per_deal: dict[str, list[tuple[int, int, int, int]]] = defaultdict(list)
    jobs = [(a, b, deal, players, ruleset, characters) for deal in deals]
    for rows in runner.map(_pair_deal, jobs, f"{ruleset} {a} among {b}"):
        for key, row in rows.items():
            a_wins[key] += row[0]
            seats[key] += row[1]
            b_wins[key] += row[2]
            per_deal[key].append(row)
    rng = random.Random(7)
    out: dict[str, object] = {}
    for key in sorted(seats, key=lambda k: (k != "all", k)):
        lo, hi = _ratio_interval(per_deal[key], rng)
        ratio = (a_wins[key] / b_wins[key]) if b_wins[key] else math.inf
        out[key] = {
            a: rate(a_wins[key], seats[key]),
            f"{b} (same seats and deals)": rate(b_wins[key], seats[key]),
            "ratio": round(ratio, 3) if math.isfinite(ratio) else None,
            "ratio_lo95": round(lo, 3) if math.isfinite(lo) else None,
            "ratio_hi95": round(hi, 3) if math.isfinite(hi) else None,
        }
    return {"games": len(deals) * (players + 1), "by_identity": out}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="random,heuristic,v2",
                        help=f"comma-separated policy names (registered: {', '.join(sorted(POLICIES))})")
    parser.add_argument("--pairs", default="",
                        help="A:B,... head-to-head pairs (default: every ordered pair of --bots)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="return", help=f"one of {', '.join(RULESET_IDS)}, or all")
    parser.add_argument("--characters", action="store_true", help="deal characters (skills in play)")
    parser.add_argument("--search-budget-ms", type=float, default=200.0, help="search bot: time per decision")
    parser.add_argument("--search-playouts", type=int, default=0,
                        help="search bot: a fixed number of playouts per decision instead (reproducible)")
    parser.add_argument("--no-tables", action="store_true", help="head-to-head only (search tables are slow)")
    parser.add_argument("--belief-games", type=int, default=0,
                        help="also report belief accuracy (bench/belief.py) over this many v2 games")
    parser.add_argument("--jobs", type=int, default=1,
                        help="deals played at once, in worker processes (default 1; with a time budget, "
                             "at most one per idle core)")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    configure_search(args.search_budget_ms, args.search_playouts)
    bots = [b for b in args.bots.split(",") if b]
    unknown = [b for b in bots if b not in POLICIES]
    if unknown:
        parser.error(f"unknown bot(s) {', '.join(unknown)}: registered are {', '.join(sorted(POLICIES))}")
    pairs = [tuple(p.split(":", 1)) for p in args.pairs.split(",") if p] or [
        (a, b) for a in bots for b in bots if a != b]
    for pair in pairs:
        if len(pair) != 2 or any(x not in POLICIES for x in pair):
            parser.error(f"bad pair {':'.join(pair)}")
    rulesets = list(RULESET_IDS) if args.ruleset == "all" else [args.ruleset]
    deals = [args.seed + i for i in range(args.deals)]
    result: dict[str, object] = {
        "bench": "bots",
        "python": sys.version.split()[0],
        "players": args.players,
        "deals": args.deals,
        "characters": args.characters,
        "search": {"budget_ms": SEARCH_BUDGET_MS, "playouts": args.search_playouts or None},
        "jobs": args.jobs,
        "rulesets": {},
    }
    started = time.perf_counter()
    runner = Runner(args.jobs, (args.search_budget_ms, args.search_playouts))
    for rs in rulesets:
        result["rulesets"][rs] = {  # type: ignore[index]
            "tables": {} if args.no_tables else {
                b: tables(b, deals, args.players, rs, characters=args.characters, runner=runner) for b in bots},
            "head_to_head": {f"{a} among {b}": head_to_head(a, b, deals, args.players, rs,
                                                            characters=args.characters, runner=runner)
                             for a, b in pairs},
        }
        if args.belief_games:
            import importlib.util
            from pathlib import Path

            spec = importlib.util.spec_from_file_location("bench_belief", Path(__file__).with_name("belief.py"))
            assert spec is not None and spec.loader is not None
            belief = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(belief)
            end, mid, _, _ = belief.run(range(args.belief_games), args.players, rs, "v2", 1.0)
            result["rulesets"][rs]["belief_accuracy"] = {  # type: ignore[index]
                "games": args.belief_games, "at_game_end": end.report(), "at_turn_3": mid.report()}
    runner.close()
    result["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
