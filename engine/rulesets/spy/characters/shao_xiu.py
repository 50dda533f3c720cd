"""邵秀 shao_xiu (spy digest §9): 绵里藏针 — after an intel you sent is received, you may put
one black hand card into the receiver's intel area, then draw 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class MianLiCangZhen(Skill):
    id = "mian_li_cang_zhen"
    zh = "绵里藏针"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        if ev.sender != seat or not g.state.seats[ev.seat].alive:
            return []
        return [use_skill(self.id, cards=(c,)) for c in sorted(g.state.seats[seat].hand) if deck.IS_BLACK[c]]

    def asked(self, g: Game, seat: int, ev: Event) -> bool:
        return ev.sender == seat and g.state.seats[ev.seat].alive and bool(g.state.seats[seat].hand)

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        card = action.cards[0]
        g.state.seats[fr.seat].hand.remove(card)
        place(g, fr.index, card)
        g.draw(fr.seat, 1)


SKILLS[MianLiCangZhen.id] = MianLiCangZhen()
