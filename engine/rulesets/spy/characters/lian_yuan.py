"""连鸢 lian_yuan (hidden; spy digest §9): 妙笔巧辩 — contest, flip, then take into your hand
up to 2 intel in total from any players' intel areas, the two sharing no colour."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import PASS, Action, choose
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class MiaoBiQiaoBian(Skill):
    id = "miao_bi_qiao_bian"
    zh = "妙笔巧辩"
    kind = "contest"
    flip = True

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.push(Frame("spy_card", seat=seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.answer:
            action, fr.answer = fr.answer, None
            st.stack.pop()
            if action == PASS:
                return
            taken = list(action.picks)
            for m in taken:
                for p in st.seats:
                    if m in p.intel:
                        p.intel.remove(m)
                st.seats[fr.seat].hand.append(m)
            g.log("take.takes_intel_cards_into_hand", fr.seat, {"seat": fr.seat, "cards": tuple(taken)},
                  cards=tuple(taken))
            return
        intel = sorted(c for s in g.living() for c in st.seats[s].intel)
        if not intel:
            st.stack.pop()
            return
        options = [choose(m) for m in intel]
        options += [choose(a, b) for a, b in combinations(intel, 2)
                    if not set(deck.colors(a)) & set(deck.colors(b))]
        g.ask(fr.seat, "choose", "prompt.choose.zh_take_up_n_intel", [PASS, *options],
              args={"zh": "妙笔巧辩", "n": 2})


SKILLS[MiaoBiQiaoBian.id] = MiaoBiQiaoBian()
