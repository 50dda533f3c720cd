"""蝮蛇: 无限弹药【隐藏】 and 战术大师【暴露】 (rulebook p.10; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option, use_skill
from engine.state import Frame, Item

from .. import marks
from ..characters.base import KillNonAgent, Skill, take_answer, take_random
from ..choices import ask_choice

if TYPE_CHECKING:
    from engine.game import Game


class WuXianDanYao(Skill):
    """无限弹药【隐藏】: if you have no hand cards, hide, then draw 2. Usable at any response
    point and in turns; if a response gave you hand cards it fails, but you stay hidden
    (p.10)."""

    id = "wu_xian_dan_yao"
    zh = "无限弹药"
    state = "hide"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        if ctx not in ("main", "respond") or g.state.seats[seat].hand:
            return []
        return [use_skill(self.id)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        p = g.state.seats[item.user]
        if p.alive and not p.hand:
            item.done = True
            g.draw(item.user, 2)
        return True


class ZhanShuDaShi(Skill):
    """战术大师【暴露】: at your turn start, before drawing, expose; instead of drawing, take
    up to 2 hand cards from one player or 1 each from up to 2 players. Targets are chosen
    at resolution; if nobody has cards, you take nothing but stay exposed (p.10)."""

    id = "zhan_shu_da_shi"
    zh = "战术大师"
    state = "expose"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        return [use_skill(self.id)] if ctx == "turn_start" and g.state.turn == seat else []

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        marks.add(g.state, marks.DrawSet(0))

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.answer:
            answer = take_answer(fr)
            if answer.option == "none":
                return True
            take_random(g, item.user, answer.pick, 1)
            fr.stage += 1
            item.done = True
        if fr.stage >= 2:
            return True
        holders = [s for s, p in enumerate(st.seats) if s != item.user and p.alive and p.hand]
        if not holders:
            return True
        key = "prompt.choose.zh_take_first_card_from" if fr.stage == 0 else "prompt.choose.zh_take_second_card_from"
        ask_choice(g, item.user, key, [*(choose(s) for s in holders), choose_option("none")], args={"zh": "战术大师"})
        return False




SKILLS = (WuXianDanYao(), ZhanShuDaShi())
MISSION = KillNonAgent()
