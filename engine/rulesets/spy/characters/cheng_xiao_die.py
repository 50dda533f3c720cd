"""程小蝶 cheng_xiao_die (spy digest §9): 知音 — after you receive a red or blue intel, you
and the sender each draw 1 (2 for you if you sent it); 惊梦 — after you receive a black
intel, you may look at one player's hand and discard one card from it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class ZhiYin(Skill):
    id = "zhi_yin"
    zh = "知音"
    kind = "trigger"
    windows = ("received",)
    forced = True

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.seat == seat and deck.IS_TRUE[ev.card] else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        sender = fr.order[0]
        if sender == fr.seat:
            g.draw(fr.seat, 2)
            return
        g.draw(fr.seat, 1)
        if sender >= 0 and g.state.seats[sender].alive:
            g.draw(sender, 1)


class JingMeng(Skill):
    id = "jing_meng"
    zh = "惊梦"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        if ev.seat != seat or not deck.IS_BLACK[ev.card]:
            return []
        return [use_skill(self.id, s) for s in g.living() if g.state.seats[s].hand]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        target = action.target
        hand = sorted(g.state.seats[target].hand)
        g.log("look.looks_at_seat_hand_cards", fr.seat, {"seat": fr.seat, "seat2": target, "cards": tuple(hand)},
              audience=(fr.seat,), cards=tuple(hand), public="look.looks_at_seat_hand_2")
        g.push(Frame("spy_card", seat=fr.seat, index=target, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.answer:
            st.stack.pop()
            g.discard_from_hand(fr.index, [fr.given().pick])
            return
        hand = sorted(st.seats[fr.index].hand)
        if len(hand) <= 1:  # nothing to choose (docs/notation.md: forced answers are not asked)
            st.stack.pop()
            if hand:
                g.discard_from_hand(fr.index, hand)
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_discard_one_card_that", [choose(c) for c in hand],
              args={"zh": "惊梦"})


SKILLS[ZhiYin.id] = ZhiYin()
SKILLS[JingMeng.id] = JingMeng()
