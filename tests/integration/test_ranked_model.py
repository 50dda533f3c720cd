"""The ladder's rating rule: the closed form equals openskill's Plackett-Luce, and the
ladder's bookkeeping (scopes, idempotence, correction, provisional status)."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from services.ranked.ladder import (
    ALL_TIME,
    BOT,
    CORRECTION_MIN_GAMES,
    HUMAN,
    Correction,
    MatchResult,
    MemoryLadder,
    Participant,
    Rating,
    rate,
    season_scope,
)


def test_closed_form_equals_openskill_plackett_luce() -> None:
    model = PlackettLuce()
    rng = random.Random(5)
    for _ in range(400):
        n = rng.randint(3, 7)
        ratings = [Rating(rng.uniform(5, 45), rng.uniform(0.5, 8.4)) for _ in range(n)]
        won = [rng.random() < 0.4 for _ in range(n)]
        ranks = [1 if w else 2 for w in won] if 0 < sum(won) < n else [1] * n
        ref = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=ranks)
        for got, want in zip(rate(ratings, won), ref, strict=True):
            assert abs(got.mu - want[0].mu) < 1e-9 and abs(got.sigma - want[0].sigma) < 1e-9


def _result(
    mid: str, winners: set[int], *, bots: bool = True, identities: tuple[int, ...] = (1, 1, 2, 2, 3)
) -> MatchResult:
    return MatchResult(
        mid, "S1", tuple(Participant(f"p{i}", f"P{i}", bots, i, i in winners, identities[i]) for i in range(5))
    )


def test_record_is_once_per_match_and_rates_season_and_all_time() -> None:
    ladder = MemoryLadder()
    assert ladder.record(_result("m1", {0, 1}))
    before = dict(ladder.ratings)
    assert not ladder.record(_result("m1", {2}))
    assert ladder.ratings == before
    for scope in (ALL_TIME, season_scope("S1")):
        assert ladder.rating(BOT, "p0", scope).mu > 25 > ladder.rating(BOT, "p4", scope).mu
        assert ladder.rating(BOT, "p0", scope).games == 1
    assert ladder.rating(HUMAN, "p0").games == 0  # bots never touch the human ladder
    board = ladder.leaderboard(BOT)
    assert [row.player_id for row in board][:2] in (["p0", "p1"], ["p1", "p0"])
    assert all(row.bot and row.rating.provisional for row in board)
    assert ladder.history[("return", BOT, "p0")][0]["match_id"] == "m1"


def test_provisional_ends_as_sigma_drops() -> None:
    ladder = MemoryLadder()
    for i in range(40):
        ladder.record(_result(f"m{i}", {i % 5, (i + 1) % 5}))
    assert not ladder.rating(BOT, "p0").provisional


def test_correction_shrinks_the_gain_of_a_favoured_identity() -> None:
    corr = Correction(
        {"5:3": (CORRECTION_MIN_GAMES * 2, CORRECTION_MIN_GAMES * 2 - 10), "5:1": (1000, 300), "5:2": (1000, 300)}
    )
    result = _result("m", {4})  # seat 4 is the agent (identity 3), who almost always wins
    plain = rate([Rating()] * 5, [p.won for p in result.participants])
    offsets = corr.offsets(result, [Rating().sigma] * 5)
    corrected = rate([Rating()] * 5, [p.won for p in result.participants], offsets)
    assert corrected[4].mu - 25 < plain[4].mu - 25
    assert abs(sum(offsets)) < 1e-9


def test_arena_command_prints_the_bot_leaderboard() -> None:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "fengsheng.cli", "arena", "--bots", "heuristic,random", "--matches", "20", "--json"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    board = json.loads(out.stdout)["leaderboard"]
    assert len(board) == 6 and all(row["bot"] for row in board)
    assert sum(row["games"] for row in board) == 20 * 5
    assert [row["rank"] for row in board] == list(range(1, 7))
