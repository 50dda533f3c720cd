"""刀锋 (dao_feng, 公开, M): 亮剑 and 嗜血 (classic digest §10.2; source "亮剑 你的试探和退回
可以当作锁定使用", "嗜血 当另一位玩家死亡时你可以抽四张牌，然后选择一张手牌分给任意一位玩家 … 即使
死亡的玩家被拯救（如【礼服蒙面人】技能），此效果也可以触发 … 自己死亡不能发动该技能")."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, Hidden, use_skill
from engine.state import Frame

from .. import deck
from ..kinds import SkillKind
from .base import Skill, ask_trigger
from .qi_bai import give_choices, give_hidden, give_step
from .xiao_ma_ge import LatentAndMilitaryDied

if TYPE_CHECKING:
    from engine.game import Game


class LiangJian(Skill):
    """亮剑: your 试探 and 退回 may be used as 锁定 (``play N to S as lock``): colour and mode
    unchanged, the 锁定's own timing; a card, so it can be 识破'd (§6.4). Used as 锁定, a
    试探 is shown face up and discarded, not removed from the game (§9)."""

    id: ClassVar[str] = "liang_jian"
    zh: ClassVar[str] = "亮剑"
    kind: ClassVar[SkillKind] = "conversion"

    def converts(self, g: Game, seat: int, card: int) -> tuple[str, ...]:
        return ("lock",) if deck.FUNCTION[card] in ("probe", "send_back") else ()


class ShiXue(Skill):
    """嗜血: when another player dies (a death-time skill, §7 ①; it fires even if the death
    is then prevented, e.g. by 救美) → you may draw 4 (``skill shi_xue`` or ``pass``), then
    give 1 hand card to any living player (``choose N to S``; naming yourself keeps it;
    only giver and receiver see the card)."""

    id: ClassVar[str] = "shi_xue"
    zh: ClassVar[str] = "嗜血"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "dying" and fr.seat != seat:
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id)]

    def step(self, g: Game, fr: Frame) -> None:
        if fr.stage == 0 and fr.answer in (None, PASS):
            if fr.answer == PASS or not g.state.seats[fr.seat].alive:
                g.state.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_seat_dies_draw_n",
                        args={"zh": "嗜血", "seat": fr.order[0], "n": 4, "n2": 1})
            return
        if fr.stage == 0:
            fr.answer = None
        give_step(g, fr, self.id, draw=4, to_self=True, text="prompt.choose.zh_give_n_hand_card",
                  args={"zh": "嗜血", "n": 1})

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return give_choices(g, seat, to_self=True)

    def hidden(self, g: Game, seat: int, action: Action) -> Hidden | None:
        return give_hidden(seat, action)


SKILLS = (LiangJian, ShiXue)
MISSION = LatentAndMilitaryDied()
