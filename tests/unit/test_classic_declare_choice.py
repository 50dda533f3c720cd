"""A victory declaration that asks its declarer (classic digest §10.2 柒佰 风度: "when you
declare victory, choose a female to win with you; mandatory if one exists"): the
framework hook ``Skill.co_winner_choices`` and the ``declare`` frame, exercised with a
stub 风度 while 柒佰 itself is being written (docs/classic-characters.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from engine import Game
from engine.rulesets import ruleset_module

base = ruleset_module("classic", "characters.base")


class StubFengDu(base.Skill):  # type: ignore[misc, name-defined]
    """风度 as the digest words it: every face-up female other than the declarer."""

    id: ClassVar[str] = "feng_du"
    zh: ClassVar[str] = "风度"
    kind: ClassVar[str] = "passive"

    def co_winner_choices(self, g: Game, seat: int, winners: list[int]) -> list[int]:
        return [i for i, s in enumerate(g.state.seats) if i != seat and "F" in base.sexes(g, i)]


@pytest.fixture
def qi_bai() -> Iterator[None]:
    """柒佰 playable with the stub 风度 only (his other skills are left out)."""
    saved = dict(base.SKILLS)
    was_pending = "qi_bai" in base.PENDING
    base.SKILLS["feng_du"] = StubFengDu()
    base.PENDING.discard("qi_bai")
    try:
        yield
    finally:
        base.SKILLS.clear()
        base.SKILLS.update(saved)
        if was_pending:
            base.PENDING.add("qi_bai")


def _position(second_female_exposed: bool) -> dict[str, Any]:
    """Seat 0 (柒佰, 军情, two blue intel) sends a blue 密电 that comes back to him: a
    third blue. Seats 1 and 2 are 闪灵 (female); seat 2 face down unless told."""
    return {"ruleset": "classic", "turn": 0, "seats": [
        {"identity": "military", "character": "qi_bai", "hand": [8], "intel": [3, 4]},
        {"identity": "latent", "character": "shan_ling", "exposed": True},
        {"identity": "bystander", "character": "shan_ling", "exposed": second_female_exposed},
        {"identity": "military", "character": "xiao_ma_ge"},
    ]}


def _send_round(game: Game) -> None:
    while game.pending is not None and game.pending.kind == "priority":
        game.apply(game.pending.seat, "pass")
    game.apply(0, "send 8 secret")
    while (p := game.pending) is not None and (p.kind, p.seat) != ("receive", 0):
        game.apply(p.seat, "pass" if p.kind == "priority" else "decline")
    game.apply(0, "accept")


@pytest.mark.usefixtures("qi_bai")
def test_several_females_ask_the_declarer() -> None:
    game = Game.from_position(_position(True))
    _send_round(game)
    p = game.pending
    assert p is not None and p.seat == 0 and p.kind == "choose"
    assert game.legal_actions(0) == ["choose 1", "choose 2"]
    assert not game.is_over
    # the question survives a snapshot
    game = Game.restore(game.snapshot())
    game.apply(0, "choose 2")
    assert game.is_over
    assert game.state.winners == [0, 2, 3]
    assert game.state.seats[2].identity_revealed


@pytest.mark.usefixtures("qi_bai")
def test_one_female_wins_along_without_a_question() -> None:
    game = Game.from_position(_position(False))  # seat 2's character is face down: no sex
    _send_round(game)
    assert game.is_over
    assert game.state.winners == [0, 1, 3]


def test_without_the_skill_nobody_is_asked() -> None:
    pos = _position(True)
    pos["seats"][0]["character"] = "bei_lei_mao"
    game = Game.from_position(pos)
    _send_round(game)
    assert game.is_over
    assert game.state.winners == [0, 3]
