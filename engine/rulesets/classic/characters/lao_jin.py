"""老金 (lao_jin, 潜伏, M): 弃卒保帅 and 釜底抽薪 (digest §10.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, Hidden, choose, hide, use_skill
from engine.state import Frame

from .. import deck
from ..kinds import SkillKind
from .base import Skill, ask_choose, ask_trigger, flip, hand_choices, has_skill
from .bei_lei_mao import RedAndBlueInHand

if TYPE_CHECKING:
    from engine.game import Game


class QiZuBaoShuai(Skill):
    """弃卒保帅 [flip]: when a card you used is 识破'd → you may turn face up, draw 5, then
    put 2 hand cards on the pile top in any order (digest §10.2; source "不符合翻开条件时不能
    主动翻开角色牌"). A ``trigger`` decision (``skill qi_zu_bao_shuai`` or ``pass``), then
    ``choose N`` twice: the first card goes on the pile, the second on top of it. Which
    cards go back is seen by 老金 only."""

    id: ClassVar[str] = "qi_zu_bao_shuai"
    zh: ClassVar[str] = "弃卒保帅"
    kind: ClassVar[SkillKind] = "flip"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if self.flip_window(g, event, fr) == seat:
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def flip_window(self, g: Game, event: str, fr: Frame) -> int:
        return fr.seat if event == "seen_through" else -1

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id)] if has_skill(g, seat, self.id) else []

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        answer = fr.answer
        fr.answer = None
        if fr.stage == 0:
            if not answer:
                # The prompt is public: it must not name the face-down character's skill. Every
                # face-down seat whose card is 识破'd is asked (base.fire); only 老金 may use it.
                ask_trigger(g, fr, self.offers(g, fr.seat, fr),
                            "prompt.trigger.your_card_seen_through_respond", args={})
                return
            if answer == PASS:
                st.stack.pop()
                return
            fr.stage = 1
            flip(g, fr.seat, up=True)
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.draw(fr.seat, 5)
        elif answer:
            card = answer.pick
            me.hand.remove(card)
            st.pile.append(card)
            g.log("pile_top.puts_card_on_pile_top_2", fr.seat, {"seat": fr.seat, "card": card}, audience=(fr.seat,),
                  cards=(card,), public="pile_top.puts_hand_card_on_pile_2")
            fr.index += 1
        if fr.index >= 2 or not me.hand:
            st.stack.pop()
            return
        key = "prompt.choose.zh_first_lower_hand_card" if fr.index == 0 else "prompt.choose.zh_second_top_hand_card"
        ask_choose(g, fr.seat, key, self.choices(g, fr.seat, fr), args={"zh": "弃卒保帅"})

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return hand_choices(g, seat)

    def hidden_answer(self, g: Game, fr: Frame, action: Action) -> Hidden | None:
        if fr.stage == 1 and action.kind == "choose":
            return hide((fr.seat,), "action.hidden_puts_hand_card_pile_top")
        return None


class FuDiChouXin(Skill):
    """釜底抽薪: face up; when you receive a fake intel → you may place a fake intel from
    your hand in front of yourself (``skill fu_di_chou_xin cards N``), turn this character
    face down, then place one hand card as intel in front of each of any number of
    players, you included (``choose N to S`` per player, ``pass`` to stop) (digest §10.2;
    source example: 老金 wins this way with a third red). Each placement is a receipt
    (D19) credited to 老金 (D15), settled before the next choice (deaths, victory); 老金 is
    face down before his own fake is settled, so it cannot trigger this skill again."""

    id: ClassVar[str] = "fu_di_chou_xin"
    zh: ClassVar[str] = "釜底抽薪"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        # Asked also without a fake in hand (then only ``pass``): being asked must not tell
        # the table what the hand holds.
        if event == "received" and fr.seat == seat and any(deck.IS_BLACK[c] for c in fr.cards):
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """A fake intel of the hand, placed before the one received."""
        return [use_skill(self.id, cards=(c,)) for c in sorted({c for c in g.state.seats[seat].hand
                                                                if deck.IS_BLACK[c]})]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        answer = fr.answer
        fr.answer = None
        if fr.stage == 0:
            if not answer:
                ask_trigger(g, fr, self.offers(g, fr.seat, fr),
                            "prompt.trigger.zh_place_fake_intel_before", args={"zh": "釜底抽薪"})
                return
            if answer == PASS:
                st.stack.pop()
                return
            fr.stage = 1
            card = answer.cards[0]
            me.hand.remove(card)
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.place_intel(fr.seat, [card], [fr.seat], cause=self.id)
            flip(g, fr.seat, up=False)
            return
        if answer:
            if answer == PASS:
                st.stack.pop()
                return
            card, to = answer.pick, answer.target
            me.hand.remove(card)
            fr.order.append(to)
            g.place_intel(to, [card], [fr.seat], cause=self.id)
            return
        seats = [s for s in g.living() if s not in fr.order]
        if not me.alive or not me.hand or not seats:
            st.stack.pop()
            return
        ask_choose(g, fr.seat, "prompt.choose.place_hand_card_as_intel", self.choices(g, fr.seat, fr), args={})

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """``pass`` or a hand card as intel for a living player not yet given one."""
        seats = [s for s in g.living() if s not in fr.order]
        return [PASS, *(choose(c, to=s) for c in sorted(set(g.state.seats[seat].hand)) for s in seats)]


SKILLS = (QiZuBaoShuai, FuDiChouXin)
MISSION = RedAndBlueInHand()
