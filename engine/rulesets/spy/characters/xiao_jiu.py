"""小九 xiao_jiu (hidden; spy digest §9): 广发报 — contest, flip, draw 3; then you may put any
number of your hand cards into any players' intel areas (placing), one at a time
(``choose N to S``, ``pass`` to stop), never so that anyone holds 3+ intel of one colour
(black included, §11.10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import PASS, Action, choose
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class GuangFaBao(Skill):
    id = "guang_fa_bao"
    zh = "广发报"
    kind = "contest"
    flip = True

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.draw(seat, 3)
        g.push(Frame("spy_card", seat=seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.answer:
            act = fr.answer
            fr.answer = None
            if act.kind == "pass":
                st.stack.pop()
                return
            card, to = act.pick, act.target
            st.seats[fr.seat].hand.remove(card)
            place(g, to, card)
        options = [choose(c, to=s) for c in sorted(st.seats[fr.seat].hand) for s in g.living()
                   if all(deck.count(st.seats[s].intel, col) + 1 < 3 for col in deck.colors(c))]
        if not options:
            st.stack.pop()
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_put_hand_card_into", [PASS, *options], args={"zh": "广发报"})


SKILLS[GuangFaBao.id] = GuangFaBao()
