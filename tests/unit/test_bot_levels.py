"""Bot levels (issue 14, services/bot_levels.py): easy = random, normal = heuristic v2, hard =
search (v2 until a search bot is registered), choosable through the REST API and the terminal
client, and picked by rating band for ranked fill, each level its own ladder identity."""

from __future__ import annotations

import random

import pytest

from engine import bots
from fengsheng.v1 import engine_service_pb2 as es
from gateway.app import SEAT_KINDS as GATEWAY_KINDS
from gateway.schemas import CreateMatchIn
from services import bot_levels
from services.bot_levels import LEVELS, SEAT_KINDS, level_for_rating, level_note, policy_of_kind
from services.ranked.matchmaking import Group, Schedule, seat_plan


def _ticket(i: int, rating: float) -> dict[str, object]:
    return {"ticket_id": f"t{i}", "holder": f"h:{i}", "rating": rating, "enqueued_ms": 0,
            "min_players": 5, "max_players": 5, "bot": False, "name": f"p{i}"}  # fmt: skip


def test_each_level_is_played_by_its_policy() -> None:
    assert policy_of_kind(SEAT_KINDS["easy"]) == "random"
    assert policy_of_kind(SEAT_KINDS["normal"]) == "v2"
    assert policy_of_kind(SEAT_KINDS["heuristic"]) == "heuristic"
    assert policy_of_kind(es.HUMAN) is None and policy_of_kind(es.BOT_EXTERNAL) is None
    for level in LEVELS:
        assert policy_of_kind(SEAT_KINDS[level]) in bots.POLICIES


def test_hard_is_v2_until_a_search_bot_is_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(bots.POLICIES, "search", raising=False)
    assert policy_of_kind(SEAT_KINDS["hard"]) == "v2"
    assert "normal" in level_note("hard")
    monkeypatch.setitem(bots.POLICIES, "search", bots.POLICIES["v2"])
    assert bot_levels.search_available()
    assert policy_of_kind(SEAT_KINDS["hard"]) == "search"
    assert level_note("hard") == "search"


def test_the_gateway_names_the_same_kinds_as_the_services() -> None:
    for name, kind in SEAT_KINDS.items():
        assert GATEWAY_KINDS[name] == kind, name


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_api_takes_a_level(level: str) -> None:
    assert CreateMatchIn(players=5, humans=1, bot=level).bot == level  # type: ignore[arg-type]


def test_a_rating_band_picks_the_level() -> None:
    assert [level_for_rating(r) for r in (0.0, 21.9, 22.0, 25.0, 29.9, 30.0, 50.0)] == [
        "easy", "easy", "normal", "normal", "normal", "hard", "hard"]
    assert level_for_rating(25.0, (26.0, 40.0)) == "easy"


def test_ranked_fill_seats_house_bots_of_the_tables_level_on_their_own_ladder_identity() -> None:
    schedule = Schedule()
    assert schedule.house_bot == "level"
    for rating, level in ((10.0, "easy"), (25.0, "normal"), (40.0, "hard")):
        plan = seat_plan(Group((_ticket(1, rating), _ticket(2, rating)), 5), schedule, random.Random(1))
        house = [s for s in plan if s.bot and not s.ticket_id]
        assert len(house) == 3
        assert {s.kind for s in house} == {level}
        assert sorted(s.player_id for s in house) == [f"house-{level}-{k}" for k in (1, 2, 3)]
        assert all(s.kind in SEAT_KINDS for s in plan)
    fixed = seat_plan(Group((_ticket(1, 10.0),), 3), Schedule(house_bot="heuristic"), random.Random(1))
    assert {s.player_id for s in fixed if not s.ticket_id} == {"house-heuristic-1", "house-heuristic-2"}
