"""七百 (007): 机敏 and 联动 (rulebook p.12; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import marks
from ..characters.base import Skill, TwoOfAColourOnDeclare, give, receipt, take_answer
from ..choices import ask_choice
from ..privacy import PRIVATE_CHOICES

if TYPE_CHECKING:
    from engine.game import Game


class JiMin(Skill):
    """机敏: your 锁定 and 危险情报 may be used in any player's turn (timing "自己回合中"
    becomes "玩家回合中", p.12). Passive: read by the 锁定 and 危险情报 cards."""

    id = "ji_min"
    zh = "机敏"

    def widens_timing(self, g: Game, seat: int, function: str) -> bool:
        return function in ("lock", "danger")


class LianDong(Skill):
    """联动: when another player successfully receives the intel you sent, draw 2, then give
    them 1 hand card. A replaced intel is no longer yours (p.12 note)."""

    id = "lian_dong"
    zh = "联动"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        fr = receipt(g)
        st = g.state
        if fr is None or fr.text != "intel" or ev.seat == seat or not st.seats[ev.seat].alive:
            return []
        # The very card this seat sent this turn (flag set at the send; a replacement is not it).
        return [use_skill(self.id, ev.seat)] if marks.has(st, marks.Sent(seat, fr.card)) else []

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 0:
            item.done = True
            g.draw(item.user, 2)
            hand = st.seats[item.user].hand
            if not hand or not st.seats[item.target].alive:
                return True
            fr.stage = 1
            ask_choice(g, item.user, "prompt.choose.zh_give_seat_hand_card",
                       [choose(c) for c in sorted(set(hand))], args={"zh": "联动", "seat": item.target})
            return False
        give(g, item.user, item.target, [take_answer(fr).pick])
        return True



# The card given is seen by the two players only (the give is logged privately).
PRIVATE_CHOICES.add("lian_dong")

SKILLS = (JiMin(), LianDong())
MISSION = TwoOfAColourOnDeclare()
