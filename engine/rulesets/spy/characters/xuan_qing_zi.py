"""玄青子 xuan_qing_zi (spy digest §9): 金口一开 — once in the contest phase of your own turn,
look at the top card of the pile, then either draw 1, or swap that card face down with the
pending intel (the old pending intel goes on top of the pile face down)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose_option, use_skill
from engine.state import Frame

from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JinKouYiKai(Skill):
    id = "jin_kou_yi_kai"
    zh = "金口一开"
    kind = "contest"
    once = True

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id)] if g.state.turn == seat else []

    def use(self, g: Game, seat: int, action: Action) -> None:
        top = g.take_pile_top()
        if not top:
            return
        g.state.pile.append(top)
        g.log("look.looks_at_pile_top_card", seat, {"seat": seat, "card": top}, audience=(seat,), cards=(top,),
              public="look.looks_at_pile_top")
        g.push(Frame("spy_card", seat=seat, card=top, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if not fr.answer:
            g.ask(fr.seat, "choose", "prompt.choose.zh_draw_it_or_swap",
                  [choose_option("draw"), choose_option("swap")], args={"zh": "金口一开"})
            return
        st.stack.pop()
        t = st.transit
        if fr.answer == choose_option("draw") or t is None:
            g.draw(fr.seat, 1)
            return
        top = st.pile.pop()
        old = t.card
        st.pile.append(old)
        t.card = top
        t.face_up = False
        t.known_by = [fr.seat]
        g.log("swap.swaps_card_in_for_pending", fr.seat, {"seat": fr.seat, "card": top}, audience=(fr.seat,),
              cards=(top,), public="swap.swaps_pile_top_in_for")


SKILLS[JinKouYiKai.id] = JinKouYiKai()
