"""Dead seats in scenario positions are deaths (docs/scenarios.md ``deaths``;
docs/rule-decisions.md classic 31): they are recorded in ``State.kills`` in the order the
position gives, so missions that count deaths (浮萍 "the second to die", 黑玫瑰 "two
holders of true intel died") see them; a broken ``deaths`` list is a set-up error."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, SetupError

IDENTITIES = {
    "classic": ["latent", "military", "bystander", "military"],
    "return": ["latent", "military", "agent", "military"],
    "spy": ["latent", "special_service", "latent", "special_service"],
}


def position(ruleset: str = "classic", **extra: Any) -> dict[str, Any]:
    """Four seats of ``ruleset``, seats 1 and 3 dead."""
    idents = IDENTITIES[ruleset]
    seats: list[dict[str, Any]] = [{"identity": i} for i in idents]
    seats[1]["alive"] = False
    seats[3]["alive"] = False
    seats[0]["hand"] = [12]
    seats[2]["hand"] = [5]
    data: dict[str, Any] = {"ruleset": ruleset, "seats": seats, "turn": 0}
    data.update(extra)
    return data


def order(data: dict[str, Any]) -> list[int]:
    return [k.dead for k in Game.from_position(data).state.kills]


@pytest.mark.parametrize("ruleset", ["classic", "return", "spy"])
def test_dead_seats_are_deaths_in_seat_order_by_default(ruleset: str) -> None:
    assert order(position(ruleset)) == [1, 3]


@pytest.mark.parametrize("ruleset", ["classic", "return", "spy"])
def test_deaths_gives_the_order_and_the_credit(ruleset: str) -> None:
    g = Game.from_position(position(ruleset, deaths=[{"seat": 3, "killers": [0], "true_intel": 2}]))
    kills = g.state.kills
    assert [k.dead for k in kills] == [3, 1]
    assert kills[0].killers == [0] and kills[0].true_intel == 2 and kills[0].identity == IDENTITIES[ruleset][3]
    assert kills[1].killers == [] and kills[1].true_intel == 0


def test_a_lost_seat_is_not_a_death() -> None:
    data = position()
    data["seats"][3] = {"identity": "military", "lost": True}
    assert order(data) == [1]
    with pytest.raises(SetupError, match="not a dead seat"):
        Game.from_position({**data, "deaths": [3]})


@pytest.mark.parametrize("deaths, message", [
    ([0], "not a dead seat"),
    ([1, 1], "listed twice"),
    ([{"seat": 1, "killer": [0]}], "unknown keys"),
    ([{"seat": 1, "killers": [9]}], "killers"),
    ([{"seat": 1, "true_intel": -1}], "true_intel"),
    ("1", "expected a list"),
])
def test_a_broken_deaths_list_is_a_setup_error(deaths: Any, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game.from_position(position(deaths=deaths))
