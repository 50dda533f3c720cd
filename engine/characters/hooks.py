"""Where skills change what cards can do (就计, 拷问, 紧急下达, 核燃机体 …): extra ``play``
actions a seat gets from its skills. Character modules register providers here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Game

#: skill id -> function(game, seat, ctx) returning extra ``play …`` actions.
CARD_PLAY_PROVIDERS: dict[str, Callable[[Game, int, str], list[str]]] = {}


def extra_card_plays(g: Game, seat: int, ctx: str) -> list[str]:
    from engine.characters import skills_of

    if not g.state.seats[seat].alive:
        return []
    out: list[str] = []
    have = skills_of(g, seat)
    for skill_id in have:
        provider = CARD_PLAY_PROVIDERS.get(skill_id)
        if provider is not None:
            out.extend(provider(g, seat, ctx))
    return out
