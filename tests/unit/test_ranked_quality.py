"""Acceptance 4: over 2,000 simulated ranked matches among bots of known different strength
(heuristic beats random), played in-process on the engine and rated by the ladder's own code,
the leaderboard puts every heuristic entrant above every random one. Soak tier
(tests/helpers/soak.py): ./dev test plays the first MATCHES of the same seeded run,
bench/suite_soak.py all 2,000."""

from __future__ import annotations

import time

import pytest
from helpers.soak import soak_count

from services.ranked import arena
from services.ranked.ladder import ALL_TIME, BOT, MemoryLadder

#: in-process (engine and MemoryLadder, no Redis or services): it runs with the CPU-bound unit
#: tests on both cores, not in the serial integration run
pytestmark = [pytest.mark.timeout(120), pytest.mark.soak]

MATCHES = soak_count(full=2000, ci=600)


def test_two_thousand_matches_order_the_bots_by_strength() -> None:
    ladder = MemoryLadder()
    t0 = time.perf_counter()
    entrants = arena.run(ladder, ["heuristic"] * 3 + ["random"] * 3, MATCHES, seed=11, season="quality")
    elapsed = time.perf_counter() - t0
    board = ladder.leaderboard(BOT, ALL_TIME)
    order = [row.player_id for row in board]
    assert sorted(order) == sorted(e.player_id for e in entrants)
    assert all(p.startswith("heuristic") for p in order[:3]), order
    assert all(p.startswith("random") for p in order[3:]), order
    assert all(row.bot and not row.rating.provisional for row in board)
    assert sum(row.rating.games for row in board) == MATCHES * 5
    print(f"{MATCHES} matches in {elapsed:.1f} s:", [(r.player_id, round(r.rating.score, 2)) for r in board])
