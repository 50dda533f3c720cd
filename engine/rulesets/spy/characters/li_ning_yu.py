"""李宁玉 li_ning_yu (hidden; spy digest §9): 就计 — when you become the target of 试探, 威逼
or 利诱 while face down, you may flip and draw 2; once that card has resolved it goes into
your hand; 城府 (passive, face up) — 试探 and 威逼 have no effect on you (a passive
hook, asked by ``skills.no_effect``); 遗信 — before you die (face up only), you may put one hand card into
another player's intel area."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.marks import add
from engine.state import Frame

from ..cards import place
from ..marks import JiuJiTaken
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JiuJi(Skill):
    id = "jiu_ji"
    zh = "就计"
    kind = "trigger"
    windows = ("targeted",)
    flip = True

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.seat == seat else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        g.draw(fr.seat, 2)
        add(g.state, JiuJiTaken(fr.seat))


class ChengFu(Skill):
    """城府 (passive, face up): 试探 and 威逼 have no effect on you."""

    id = "cheng_fu"
    zh = "城府"

    def nullifies(self, g: Game, seat: int, function: str) -> bool:
        return function in ("probe", "threaten")


class YiXin(Skill):
    id = "yi_xin"
    zh = "遗信"
    kind = "trigger"
    windows = ("before_death",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        st = g.state
        if ev.seat != seat:
            return []
        return [use_skill(self.id, s, cards=(c,)) for s in g.living() if s != seat
                for c in sorted(st.seats[seat].hand)]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        to, card = action.target, action.cards[0]
        g.state.seats[fr.seat].hand.remove(card)
        place(g, to, card)


SKILLS[JiuJi.id] = JiuJi()
SKILLS[ChengFu.id] = ChengFu()
SKILLS[YiXin.id] = YiXin()
