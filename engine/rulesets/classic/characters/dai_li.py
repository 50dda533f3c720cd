"""戴笠 (dai_li, 公开, M): 笑里藏刀 and 运筹帷幄 (digest §10.2; source: 笑里藏刀 当另一位玩家获得你
传出的真情报时你可以在他面前放置一张假情报 / 运筹帷幄 当你获得真情报时你可以抽一张牌)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, use_skill
from engine.state import Frame

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger
from .guai_dao_jiu_jiu import SENT

if TYPE_CHECKING:
    from engine.game import Game


class XiaoLiCangDao(Skill):
    """笑里藏刀: when another player receives a true intel you sent (passed on, locked or
    截获'd; not skill-placed nor 真伪莫辨, D19) → you may place a fake intel from your hand in
    front of them (``skill xiao_li_cang_dao to S cards N``): their receipt (D19), credited
    to you (D15)."""

    id: ClassVar[str] = "xiao_li_cang_dao"
    zh: ClassVar[str] = "笑里藏刀"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if (event == "received" and fr.text in SENT and fr.order[:1] == [seat] and fr.seat != seat
                and any(deck.IS_TRUE[c] for c in fr.cards)):
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """A fake intel of the hand, in front of the receiver (``fr.order[0]``)."""
        blacks = sorted({c for c in g.state.seats[seat].hand if deck.IS_BLACK[c]})
        return [use_skill(self.id, fr.order[0], cards=(c,)) for c in blacks]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        target = fr.order[0]
        if not fr.answer:
            if not st.seats[target].alive or not st.seats[fr.seat].alive:
                st.stack.pop()
                return
            # Asked also without a fake in hand (then only ``pass``): being asked must not
            # tell the table what the hand holds.
            ask_trigger(g, fr, self.offers(g, fr.seat, fr),
                        "prompt.trigger.zh_place_fake_intel_in", args={"zh": "笑里藏刀", "seat": target})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        card = act.cards[0]
        st.seats[fr.seat].hand.remove(card)
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.place_intel(target, [card], [fr.seat], cause=self.id)


class YunChouWeiWo(Skill):
    """运筹帷幄: when you receive a true intel (any receipt, placed ones too, D19) → you may
    draw 1 (``skill yun_chou_wei_wo``)."""

    id: ClassVar[str] = "yun_chou_wei_wo"
    zh: ClassVar[str] = "运筹帷幄"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "received" and fr.seat == seat and any(deck.IS_TRUE[c] for c in fr.cards):
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id)]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if not fr.answer:
            if not st.seats[fr.seat].alive:
                st.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_draw_n", args={"zh": "运筹帷幄", "n": 1})
            return
        st.stack.pop()
        if fr.answer == PASS:
            return
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.draw(fr.seat, 1)


class ThreeBlueIntel(Mission):
    """Hold 3 or more blue intel."""

    def met(self, g: Game, seat: int) -> bool:
        return sum(1 for c in g.state.seats[seat].intel if deck.IS_BLUE[c]) >= 3


SKILLS = (XiaoLiCangDao, YunChouWeiWo)
MISSION = ThreeBlueIntel()
