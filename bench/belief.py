"""Belief accuracy (issue 14 point 2): how well :class:`engine.belief.Belief` names the other
seats' identities, against the consistent-uniform prior (every identity deal consistent with
what the seat knows equally likely).

Plays ``--games`` deals with the named policy in every seat (default ``v2``, the behaviour
the belief's policy model describes); every seat keeps a belief fed with the events it sees
and the identities its observation shows. At the last decision of each game (and at the
start of turn 3, ``mid``), for every seat and every other seat whose identity it has not
seen: log-loss (natural log) of the true identity and top-1 accuracy, for the belief and
for the prior. Prints JSON. ``--fit`` first picks the model's strengths on separate deals.

Usage: ``python bench/belief.py [--games 1000] [--players 5] [--ruleset return] [--bot v2]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import Game
from engine.belief import MODEL_FILE, Belief
from engine.bots import POLICIES
from engine.rulesets import get_ruleset


@dataclass
class Score:
    """Summed log-loss and top-1 hits of the belief and the prior over judged (seat, other) pairs."""

    n: int = 0
    loss: float = 0.0
    prior_loss: float = 0.0
    hits: int = 0
    prior_hits: int = 0
    ties: list[float] = field(default_factory=list)

    def add(self, belief: Belief, truth: Sequence[str]) -> None:
        got, base = belief.marginals(), belief.marginals(uniform=True)
        for j in range(belief.players):
            if j == belief.seat or base[j].get(truth[j], 0.0) >= 1.0 - 1e-9:
                continue  # known to the seat: nothing to guess
            self.n += 1
            self.loss -= math.log(max(got[j].get(truth[j], 0.0), 1e-12))
            self.prior_loss -= math.log(max(base[j].get(truth[j], 0.0), 1e-12))
            self.hits += max(got[j], key=lambda k: got[j][k]) == truth[j]
            self.prior_hits += max(base[j], key=lambda k: base[j][k]) == truth[j]

    def report(self) -> dict[str, float]:
        n = max(1, self.n)
        return {"judged": self.n, "log_loss": round(self.loss / n, 4), "prior_log_loss": round(self.prior_loss / n, 4),
                "top1": round(self.hits / n, 4), "prior_top1": round(self.prior_hits / n, 4)}


def fit(deals: Sequence[int], players: Sequence[int], ruleset: str, bot: str) -> dict[str, dict[str, float]]:
    """Count the policy model's keys by the true identity of the acting seat over self-play
    of ``bot`` (the spectator's view of each game): log P(key | identity), add-one smoothed."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    policy = POLICIES[bot]
    for deal in deals:
        n = players[deal % len(players)]
        g = Game.new(ruleset=ruleset, players=n, seed=deal)
        rng = random.Random(deal)
        while (p := g.pending) is not None:
            g.apply(p.seat, policy(g.observation(p.seat), g.legal_actions(p.seat), rng))
        truth = [s.identity for s in g.state.seats]
        for who, key in Belief(ruleset, n, -1, table={}).features(g.events_for(-1)):
            counts[key][truth[who]] += 1
            totals[truth[who]] += 1
    idents = get_ruleset(ruleset).identities
    size = len(counts) + 1
    return {key: {i: round(math.log((row[i] + 1) / (totals[i] + size)), 4) for i in idents}
            for key, row in sorted(counts.items())}


def run(games: Sequence[int], players: int, ruleset: str, bot: str, strength: float,
        table: dict[str, dict[str, float]] | None = None) -> tuple[Score, Score, int, float]:
    """Play the deals; score the beliefs at turn 3 and at the last decision."""
    end, mid = Score(), Score()
    policy = POLICIES[bot]
    updates, seconds = 0, 0.0
    for deal in games:
        g = Game.new(ruleset=ruleset, players=players, seed=deal)
        rng = random.Random(deal)
        beliefs = [Belief(ruleset, players, s, table=table, strength=strength) for s in range(players)]
        read = 0
        mid_done = False
        while (p := g.pending) is not None:
            obs = g.observation(p.seat)
            new = g.events[read:]
            read = len(g.events)
            t0 = time.perf_counter()
            for b in beliefs:
                b.update([e for e in new if e.visible_to(b.seat)])
            seconds += time.perf_counter() - t0
            updates += 1
            if not mid_done and g.state.turn_number >= 3:
                mid_done = True
                truth = [s.identity for s in g.state.seats]
                for b in beliefs:
                    b.observe(g.observation(b.seat))
                    mid.add(b, truth)
            g.apply(p.seat, policy(obs, g.legal_actions(p.seat), rng))
        outcome = g.outcome
        assert outcome is not None
        for b in beliefs:
            b.update([e for e in g.events[read:] if e.visible_to(b.seat)])
            b.observe(g.observation(b.seat))  # the seat views keep only what was revealed in play
            end.add(b, outcome.identities)
    return end, mid, updates, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--ruleset", default="return")
    parser.add_argument("--bot", default="v2")
    parser.add_argument("--strength", type=float, default=1.0, help="how much to trust the policy model")
    parser.add_argument("--fit", type=int, default=0,
                        help="first count the policy model on this many other deals (3-7 players) and write "
                             "engine/belief_model.json")
    args = parser.parse_args()
    if args.fit:
        table = fit(range(10**6, 10**6 + args.fit), range(3, 8), args.ruleset, args.bot)
        data = json.loads(MODEL_FILE.read_text(encoding="utf-8")) if MODEL_FILE.exists() else {}
        data[args.ruleset] = table
        MODEL_FILE.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    table = Belief(args.ruleset, args.players, 0).table if not args.fit else table
    end, mid, updates, seconds = run(range(args.games), args.players, args.ruleset, args.bot, args.strength, table)
    print(json.dumps({
        "games": args.games, "players": args.players, "ruleset": args.ruleset, "bot": args.bot,
        "model_keys": len(table), "strength": args.strength, "fitted_now_on_deals": args.fit or None,
        "at_game_end": end.report(), "at_turn_3": mid.report(),
        "belief_update_ms_per_decision_all_seats": round(1000 * seconds / max(1, updates), 4),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
