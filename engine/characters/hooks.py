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
    from engine.characters import has_skill

    out: list[str] = []
    for skill_id, provider in CARD_PLAY_PROVIDERS.items():
        if has_skill(g, seat, skill_id):
            out.extend(provider(g, seat, ctx))
    return out
