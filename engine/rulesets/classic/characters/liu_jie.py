"""六姐 (liu_jie, 公开, F): 拷问 and 搜取 (digest §10.2, §12 D35; source: 拷问 当你试探一位玩家時，
你可以抽取他的一张手牌 / 搜取 当一位玩家死亡时你随机检视他的一张手牌，然后你可以将该牌加入手牌或作为情报)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, Hidden, hide, use_skill
from engine.state import Frame

from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger

if TYPE_CHECKING:
    from engine.game import Game


def take_random(g: Game, taker: int, victim: int, what: str) -> None:
    """``taker`` takes one hand card of ``victim`` at random (抽取: face down, unseen by
    others); only the two of them learn which card it was."""
    st = g.state
    hand = st.seats[victim].hand
    card = hand.pop(g.random_below(len(hand)))
    st.seats[taker].hand.append(card)
    g.log("take.takes_card_from_seat_hand", taker, {"seat": taker, "card": card, "seat2": victim, "zh": what},
          audience=(taker, victim), cards=(card,), public="take.takes_random_hand_card_from")


class KaoWen(Skill):
    """拷问: when you use 试探 on a player successfully (not 识破'd, §6.5) → you may take 1
    random hand card from them (``skill kao_wen to S``), before the 试探 resolves
    (source note: 先结算拷问效果再结算试探). Nothing when their hand is empty."""

    id: ClassVar[str] = "kao_wen"
    zh: ClassVar[str] = "拷问"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if (event == "used_on" and fr.text == "probe" and fr.order[:1] == [seat] and fr.seat >= 0
                and g.state.seats[fr.seat].hand):
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id, fr.order[0])]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        victim = fr.order[0]
        if not fr.answer:
            if not st.seats[victim].hand or not st.seats[fr.seat].alive:
                st.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_take_random_hand_card",
                        args={"zh": "拷问", "seat": victim})
            return
        st.stack.pop()
        if fr.answer == PASS:
            return
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        take_random(g, fr.seat, victim, "拷问")


class SouQu(Skill):
    """搜取: when another player dies (the death stands; not your own, source note) → look
    at 1 random card of their hand (only you); then you may add it to your hand
    (``skill sou_qu cards C``) or put it in front of you as intel (``skill sou_qu to ME
    cards C``, D35; a receipt, D19). Nothing when they have no hand."""

    id: ClassVar[str] = "sou_qu"
    zh: ClassVar[str] = "搜取"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "death" and fr.seat != seat and g.state.seats[fr.seat].hand:
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """Into the hand, or in front of ``seat`` as intel: the card looked at (``fr.card``)."""
        return [use_skill(self.id, cards=(fr.card,)), use_skill(self.id, seat, cards=(fr.card,))]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        dead = st.seats[fr.order[0]]
        if fr.stage == 0:
            if not dead.hand or not st.seats[fr.seat].alive:
                st.stack.pop()
                return
            fr.stage = 1
            fr.card = dead.hand[g.random_below(len(dead.hand))]
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.log("look.looks_at_card_seat_hand", fr.seat,
                  {"seat": fr.seat, "card": fr.card, "seat2": fr.order[0], "zh": '搜取'}, audience=(fr.seat,),
                  cards=(fr.card,), public="look.looks_at_random_hand_card")
        if not fr.answer:
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_take_card_into_your",
                        args={"zh": "搜取"})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass" or fr.card not in dead.hand:
            return
        dead.hand.remove(fr.card)
        if act.to:
            g.place_intel(fr.seat, [fr.card], [fr.seat], cause=self.id)
        else:
            st.seats[fr.seat].hand.append(fr.card)
            g.log("take.takes_card_into_hand_zh", fr.seat, {"seat": fr.seat, "card": fr.card, "zh": '搜取'},
                  audience=(fr.seat,), cards=(fr.card,), public="take.takes_that_card_into_hand")

    def hidden_answer(self, g: Game, fr: Frame, action: Action) -> Hidden | None:
        if action.kind == "skill" and action.cards and not action.to:
            return hide((fr.seat,), "action.hidden_skill_id_into_hand", id=self.id)
        return None


class SixIntel(Mission):
    """Hold 6 or more intel (any colours)."""

    def met(self, g: Game, seat: int) -> bool:
        return len(g.state.seats[seat].intel) >= 6


SKILLS = (KaoWen, SouQu)
MISSION = SixIntel()
