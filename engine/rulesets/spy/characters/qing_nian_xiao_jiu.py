"""小九（追梦少年） qing_nian_xiao_jiu — "青年小九", a character of the first 谍战篇 expansion
(一扩, 便携版 铁屋子; spy digest §1.4); public, male.

Printed text (CuteReimu/fengsheng-doc ``docs/document/skills/extend1.md``, "X-小九（追梦少年）",
one of the character sources listed by the spy digest):

    赤子之心：你传出的非黑色情报被其他角色接收后，你可以摸两张牌，或从手牌中选择一张含有该情报
    颜色的牌，将其置入你的情报区。

赤子之心 — after a non-black intel you sent is received by another player, you may draw 2,
or put into your own intel area a hand card that shares a colour with that intel.
"非黑色" is "containing no black" (digest §5.4); the receipt is the ``received`` window
(§4 phase 5, §5.3), as 白菲菲's 怜悯; putting a card into an intel area is not a receipt
(§4, 置入情报区).
Expansion content is not dealt in base games (``characters.playable``); scenarios seat it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class ChiZiZhiXin(Skill):
    """赤子之心: ``skill chi_zi_zhi_xin`` (draw 2) or ``skill chi_zi_zhi_xin cards N`` (put
    hand card N, sharing a colour with the intel, into your intel area)."""

    id = "chi_zi_zhi_xin"
    zh = "赤子之心"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        if ev.sender != seat or ev.seat == seat or deck.IS_BLACK[ev.card]:
            return []
        shared = set(deck.colors(ev.card))
        return [use_skill(self.id)] + [use_skill(self.id, cards=(c,)) for c in sorted(g.state.seats[seat].hand)
                                       if shared & set(deck.colors(c))]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        if not action.cards:
            g.draw(fr.seat, 2)
            return
        card = action.cards[0]
        g.state.seats[fr.seat].hand.remove(card)
        place(g, fr.seat, card)


SKILLS[ChiZiZhiXin.id] = ChiZiZhiXin()
