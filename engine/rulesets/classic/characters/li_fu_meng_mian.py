"""礼服蒙面人 (li_fu_meng_mian, 公开, M): 英雄 and 救美 (classic digest §10.2, §12 D6, D17;
source "英雄 当你获得假情报时，你可以抽二张牌", "救美 当一位女性死亡时，可以翻开你的身份牌然后烧毁自己
与她面前的所有假情报来拯救她"); mission §12 D27."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, use_skill
from engine.state import Frame

from .. import deck, flow, marks
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger, sexes

if TYPE_CHECKING:
    from engine.game import Game


class YingXiong(Skill):
    """英雄: when you receive a fake intel (any receipt, placed intel included, D19) →
    you may draw 2 (``skill ying_xiong`` or ``pass``)."""

    id: ClassVar[str] = "ying_xiong"
    zh: ClassVar[str] = "英雄"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "received" and fr.seat == seat and any(deck.IS_BLACK[c] for c in fr.cards):
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id)]

    def step(self, g: Game, fr: Frame) -> None:
        if not fr.answer:
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_draw_n", args={"zh": "英雄", "n": 2})
            return
        g.state.stack.pop()
        if fr.answer != PASS:
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.draw(fr.seat, 2)


class JiuMei(Skill):
    """救美: when a female dies (a death-time skill, §7 ①; female = a face-up female
    character, D6) → you may reveal your identity card, then burn all fake intel in front
    of yourself and her; she does not die (``skill jiu_mei`` or ``pass``). Once per game,
    not with an identity already revealed (D17)."""

    id: ClassVar[str] = "jiu_mei"
    zh: ClassVar[str] = "救美"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        st = g.state
        if (event == "dying" and fr.seat != seat and "F" in sexes(g, fr.seat)
                and not st.seats[seat].identity_revealed and not marks.has(st, marks.once(self.id, seat))):
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id)]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        her = fr.order[0]
        me = st.seats[fr.seat]
        if not fr.answer:
            if not me.alive or not st.seats[her].alive or me.identity_revealed:
                st.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_seat_dies_reveal_your",
                        args={"zh": "救美", "seat": her})
            return
        st.stack.pop()
        if fr.answer == PASS:
            return
        marks.add(st, marks.once(self.id, fr.seat))
        me.identity_revealed = True
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.log("reveal.reveals_identity_id", fr.seat, {"seat": fr.seat, "id": me.identity})
        for who in dict.fromkeys((fr.seat, her)):
            s = st.seats[who]
            for c in [c for c in s.intel if deck.IS_BLACK[c]]:
                s.intel.remove(c)
                g.discard_card(c)
                g.log("burn.intel_card_burned_zh", who, {"seat": who, "card": c, "zh": '救美'}, cards=(c,))
        flow.save(g, her)


class FemaleDeclares(Mission):
    """A female declares victory: you win with her (not in the source; §12 D27). Female:
    a face-up female character (D6); with no female in play only the common condition."""

    def on_declare(self, g: Game, seat: int, declarer: int) -> str | None:
        return "join" if "F" in sexes(g, declarer) else None


SKILLS = (YingXiong, JiuMei)
MISSION = FemaleDeclares()
