"""Ranked matches among bot policies, played in-process on the engine and rated with the
ladder's own code (:mod:`services.ranked.ladder`): ``fengsheng arena``, ``bench/ladder.py`` and
the rating-quality test.

Entrants are named policies (``engine.bots.POLICIES``); when there are fewer entrants than
seats, each policy enters several times as ``name-1``, ``name-2``... (separate ladder
entries), so a table never seats one rated player twice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import Game
from engine.bots import POLICIES
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.v1 import game_pb2
from services.ranked.ladder import MatchResult, MemoryLadder, Participant, current_season

#: Policies that never read their observation (building one is most of a move's cost).
_BLIND = frozenset({"random"})
_EMPTY = game_pb2.Observation()


@dataclass(frozen=True, slots=True)
class Entrant:
    player_id: str
    policy: str


def entrants_for(policies: Sequence[str], players: int) -> list[Entrant]:
    """One entrant per listed policy; copies (``name-k``) until there are enough for a table."""
    for name in policies:
        if name not in POLICIES:
            raise ValueError(f"unknown bot {name!r}: choose from {', '.join(sorted(POLICIES))}")
    copies = max(1, -(-players // len(policies)))
    counts = {name: policies.count(name) for name in policies}
    out: list[Entrant] = []
    seen: dict[str, int] = {}
    for _ in range(copies):
        for name in policies:
            seen[name] = seen.get(name, 0) + 1
            many = copies > 1 or counts[name] > 1
            out.append(Entrant(f"{name}-{seen[name]}" if many else name, name))
    return out


def player_counts(ruleset: str) -> list[int]:
    """The table sizes ``ruleset`` is played at (its identity table: return 3-7, classic
    3-9), or a ``ValueError`` naming the known rulesets."""
    if ruleset not in RULESET_IDS:
        raise ValueError(f"unknown ruleset {ruleset!r}: choose from {', '.join(RULESET_IDS)}")
    return sorted(get_ruleset(ruleset).identity_table)


def play(policies: Sequence[str], seed: int, *, ruleset: str = "return") -> tuple[list[int], list[int]]:
    """Play one match with ``policies[seat]`` at each seat; ``(winners, identities)``."""
    game = Game.new(ruleset=ruleset, players=len(policies), seed=seed)
    rng = random.Random(seed)
    fns = [POLICIES[p] for p in policies]
    while not game.is_over:
        p = game.pending
        assert p is not None
        legal = game.legal_actions(p.seat)
        obs = _EMPTY if policies[p.seat] in _BLIND else game.observation(p.seat)
        game.apply(p.seat, fns[p.seat](obs, legal, rng))
    outcome = game.outcome
    assert outcome is not None
    # every seat's true identity, living losers' too (all are public at game end)
    return list(outcome.winners), list(outcome.to_proto().identities)


def run(
    ladder: MemoryLadder,
    policies: Sequence[str],
    matches: int,
    *,
    players: int = 5,
    seed: int = 1,
    season: str | None = None,
    progress: Callable[[int], None] | None = None,
    ruleset: str = "return",
) -> list[Entrant]:
    """Play ``matches`` ranked matches of ``ruleset`` among the entrants of ``policies`` (a
    random table of ``players`` each time) and record each on that ruleset's ladder;
    returns the entrants. A ruleset not in the registry, or a table size it is not played
    at, is a ``ValueError`` saying which sizes it allows."""
    counts = player_counts(ruleset)
    if players not in counts:
        allowed = ", ".join(map(str, counts))
        raise ValueError(f"ruleset {ruleset!r} is played by {allowed} players, not {players}")
    entrants = entrants_for(policies, players)
    rng = random.Random(seed)
    season = season or current_season()
    for i in range(matches):
        table = rng.sample(entrants, players)
        match_seed = rng.randrange(1, 2**62)
        winners, identities = play([e.policy for e in table], match_seed, ruleset=ruleset)
        result = MatchResult(
            match_id=f"arena-{seed}-{i}",
            season=season,
            participants=tuple(
                Participant(e.player_id, e.player_id, True, seat, seat in winners, identities[seat])
                for seat, e in enumerate(table)
            ),
            ruleset=ruleset,
        )
        ladder.record(result)
        if progress is not None:
            progress(i + 1)
    return entrants
