"""译电员 (yi_dian_yuan, 潜伏, F): 速译 and 洞悉 (digest §10.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, use_skill
from engine.state import Frame, Item

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger, flip

if TYPE_CHECKING:
    from engine.game import Game


class SuYi(Skill):
    """速译 [flip]: 情报传递 step (any turn) → turn face up, look at the intel in transit
    (only you), draw 1 (digest §10.2, §5 ①; not at 情报到达, which is 破译's timing:
    source "注意与【破译】使用时机的区分", "请确保只有你自己能查看到这张情报"). ``skill su_yi``.
    On the chain like any flip skill; if the intel was taken before it resolves, it has
    lost its target and fails (§6.3)."""

    id: ClassVar[str] = "su_yi"
    zh: ClassVar[str] = "速译"
    kind: ClassVar[SkillKind] = "flip"

    def actions(self, g: Game, seat: int) -> list[Action]:
        st = g.state
        return [use_skill(self.id)] if st.timing == "transmit" and st.transit is not None else []

    def valid(self, g: Game, item: Item) -> bool:
        return g.state.transit is not None and g.state.seats[item.user].alive

    def resolve(self, g: Game, item: Item) -> None:
        t = g.state.transit
        assert t is not None
        if item.user not in t.known_by:
            t.known_by.append(item.user)
        g.log("look.looks_at_intel_card", item.user, {"seat": item.user, "card": t.card}, audience=(item.user,),
              cards=(t.card,), public="look.looks_at_intel_in_transit")
        g.draw(item.user, 1)


class DongXi(Skill):
    """洞悉: face up; when anyone uses 破译 successfully (any turn, 文本 intel too; not
    when the 破译 was 识破'd) → you may turn this character face down (digest §10.2;
    source "若有人成功使用【破译】即可触发", "你也可以选择不盖伏"). ``skill dong_xi``."""

    id: ClassVar[str] = "dong_xi"
    zh: ClassVar[str] = "洞悉"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "decrypted":
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id)]

    def step(self, g: Game, fr: Frame) -> None:
        if not fr.answer:
            ask_trigger(g, fr, self.offers(g, fr.seat, fr),
                        "prompt.trigger.zh_turn_your_character_face", args={"zh": "洞悉"})
            return
        g.state.stack.pop()
        if fr.answer == PASS or not g.state.seats[fr.seat].alive:
            return
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        flip(g, fr.seat, up=False)


class ThreeBlueIntel(Mission):
    """Hold 3 or more blue intel (digest §10.2)."""

    def met(self, g: Game, seat: int) -> bool:
        s = g.state.seats[seat]
        return s.alive and sum(1 for c in s.intel if deck.IS_BLUE[c]) >= 3


SKILLS = (SuYi, DongXi)
MISSION = ThreeBlueIntel()
