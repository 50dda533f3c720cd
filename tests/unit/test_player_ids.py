"""Canonical player ids (issue 17 §8: "house-bot ids need URL-encoding (`#`)"): house bots
and arena entrants get ids a URL path takes as they are."""

from __future__ import annotations

import random
import re
from urllib.parse import quote

from services.ranked import arena
from services.ranked.matchmaking import Group, Schedule, seat_plan
from services.ranked.player_ids import house_id

URL_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")


def test_house_bots_of_a_match_have_url_safe_ids() -> None:
    ticket = {"ticket_id": "t_1", "holder": "b:b_1", "name": "mine", "bot": True, "rating": 0.0}
    plan = seat_plan(Group((ticket,), 5), Schedule(), random.Random(3))
    seats = [s for s in plan if s.player_id != "b_1"]
    house = [s.player_id for s in seats]
    assert len(house) == 4 and len(set(house)) == 4
    for pid in house:
        assert URL_SAFE.match(pid) and quote(pid, safe="") == pid, pid
    # ranked fill picks a level per table (services/bot_levels.py); each level its own id
    assert sorted(house) == sorted(house_id(s.kind, k) for k, s in enumerate(seats, 1))


def test_arena_copies_have_url_safe_ids() -> None:
    ids = [e.player_id for e in arena.entrants_for(["random", "heuristic"], 5)]
    assert all(URL_SAFE.match(pid) for pid in ids) and len(set(ids)) == len(ids)

