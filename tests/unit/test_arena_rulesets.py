"""``fengsheng arena`` plays and rates any ruleset of the engine's registry (``--ruleset``),
at the table sizes that ruleset is played by (its identity table: return 3-7, classic 3-9;
return digest §1, classic digest §1 and §12 D3), never a fixed 3-7."""

from __future__ import annotations

import json

import pytest

from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.cli import main
from services.ranked import arena
from services.ranked.ladder import ALL_TIME, BOT, MemoryLadder


def counts(ruleset: str) -> list[int]:
    return sorted(get_ruleset(ruleset).identity_table)


def test_the_table_sizes_are_each_rulesets_own() -> None:
    for ruleset in RULESET_IDS:
        assert arena.player_counts(ruleset) == counts(ruleset)
    with pytest.raises(ValueError, match="unknown ruleset 'nope'"):
        arena.player_counts("nope")


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_the_largest_table_of_each_ruleset_is_played_and_rated_on_its_own_ladder(ruleset: str) -> None:
    players = counts(ruleset)[-1]
    ladder = MemoryLadder()
    arena.run(ladder, ["random"], 2, players=players, seed=3, ruleset=ruleset)
    board = ladder.leaderboard(BOT, ALL_TIME, ruleset=ruleset)
    assert sum(row.rating.games for row in board) == 2 * players
    for other in RULESET_IDS:
        if other != ruleset:
            assert ladder.leaderboard(BOT, ALL_TIME, ruleset=other) == []


def test_a_table_size_the_ruleset_is_not_played_by_is_refused() -> None:
    too_many = max(max(counts(r)) for r in RULESET_IDS) + 1
    with pytest.raises(ValueError, match=rf"not {too_many}"):
        arena.run(MemoryLadder(), ["random"], 1, players=too_many, ruleset=RULESET_IDS[0])


def test_the_command_takes_the_ruleset_and_its_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    big = max(RULESET_IDS, key=lambda r: counts(r)[-1])
    small = min(RULESET_IDS, key=lambda r: counts(r)[-1])
    players = counts(big)[-1]
    assert players not in counts(small)  # e.g. 9 seats: classic yes, return no
    code = main(["arena", "--ruleset", big, "--players", str(players), "--bots", "random", "--matches", "2",
                 "--json"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ruleset"] == big and out["players"] == players
    assert sum(row["games"] for row in out["leaderboard"]) == 2 * players
    code = main(["arena", "--ruleset", small, "--players", str(players), "--bots", "random", "--matches", "1"])
    err = capsys.readouterr().err
    assert code == 2 and ", ".join(map(str, counts(small))) in err
    with pytest.raises(SystemExit):
        main(["arena", "--ruleset", "nope", "--matches", "1"])
