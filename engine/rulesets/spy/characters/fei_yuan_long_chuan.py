"""肥原龙川 fei_yuan_long_chuan (spy digest §9): 诡诈 — once per play phase, choose a player;
it counts as using a 威逼 (another player) or a 利诱 (anyone) on them, without a card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose_option, use_skill
from engine.state import Frame

from ..cards import run_targeted
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class GuiZha(Skill):
    id = "gui_zha"
    zh = "诡诈"
    kind = "main"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living()]

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.push(Frame("spy_card", seat=seat, index=action.target, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.answer:
            st.stack.pop()
            run_targeted(g, fr.seat, 0, fr.given().option, fr.index)
            return
        bribe = choose_option("bribe")
        options = [bribe] if fr.index == fr.seat else [choose_option("threaten"), bribe]
        g.ask(fr.seat, "choose", "prompt.choose.zh_as_zh_or_zh", options,
              args={"zh": "诡诈", "zh2": '威逼', "zh3": '利诱'})


SKILLS[GuiZha.id] = GuiZha()
