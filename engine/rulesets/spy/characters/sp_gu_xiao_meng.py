"""顾小梦(SP) sp_gu_xiao_meng (spy digest §9): 羁绊 — once per play phase, draw 2, then give
at least 1 hand card to another player (mandatory once used). The gift is chosen card by
card: ``choose N to S`` (the first card and the player), then ``choose M`` for each further
card or ``pass`` to stop (docs/notation.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import PASS, Action, Hidden, choose, hide
from engine.state import Frame

from ..cards import give
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JiBan(Skill):
    id = "ji_ban"
    zh = "羁绊"
    kind = "main"

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.draw(seat, 2)
        g.push(Frame("spy_card", seat=seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        hand = sorted(st.seats[fr.seat].hand)
        if fr.answer:
            act = fr.answer
            fr.answer = None
            if act.kind == "pass":
                st.stack.pop()
                return
            if fr.stage == 0:
                fr.index = act.target
                fr.stage = 1
            give(g, fr.seat, fr.index, [act.pick])
            hand = sorted(st.seats[fr.seat].hand)
        if fr.stage == 0:
            others = [s for s in g.living() if s != fr.seat]
            if not hand or not others:
                st.stack.pop()
                return
            g.ask(fr.seat, "choose", "prompt.choose.zh_give_at_least_n",
                  [choose(c, to=s) for c in hand for s in others], args={"zh": "羁绊", "n": 1})
            return
        if not hand or not st.seats[fr.index].alive:
            st.stack.pop()
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_give_seat_another_card",
              [PASS, *(choose(c) for c in hand)], args={"zh": "羁绊", "seat": fr.index})

    def hidden_answer(self, g: Game, seat: int, action: Action) -> Hidden | None:
        if action.kind != "choose":
            return None
        to = action.target if action.to else g.state.stack[-1].index
        return hide((seat, to), "action.hidden_gives_card_seat", seat2=to)


SKILLS[JiBan.id] = JiBan()
