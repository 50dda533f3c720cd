"""Where skills change what cards can do (就计, 拷问, 紧急下达, 核燃机体 …): extra ``play``
actions a seat gets from its skills. Character modules register providers here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.action import Action

from . import deck
from .cards.base import FUNCTIONS
from .skills import skills_of

if TYPE_CHECKING:
    from engine.game import Game

#: skill id -> function(game, seat, ctx) returning extra ``play …`` actions.
CARD_PLAY_PROVIDERS: dict[str, Callable[[Game, int, str], list[Action]]] = {}


def alt_function_plays(alt_id: str, printed: tuple[str, ...]) -> Callable[[Game, int, str], list[Action]]:
    """A provider of ``play N … as ALT`` for each hand card whose printed function is in
    ``printed`` (拷问 for 试探/公开文本, 紧急下达 for 秘密下达/危险情报); cards drawn during
    the current chain cannot join it."""

    def provide(g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        out: list[Action] = []
        for card in sorted(set(st.seats[seat].hand)):
            if deck.FUNCTION[card] in printed and card not in st.fresh:
                out.extend(FUNCTIONS[alt_id].plays(g, seat, card, ctx))
        return out

    return provide


def extra_card_plays(g: Game, seat: int, ctx: str) -> list[Action]:
    if not g.state.seats[seat].alive:
        return []
    out: list[Action] = []
    have = skills_of(g, seat)
    for skill_id in have:
        provider = CARD_PLAY_PROVIDERS.get(skill_id)
        if provider is not None:
            out.extend(provider(g, seat, ctx))
    return out
