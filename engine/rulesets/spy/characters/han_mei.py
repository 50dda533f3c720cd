"""韩梅 han_mei (hidden; spy digest §9): 移花接木 — contest, flip, then move one intel from
one player's intel area into a different player's; if that would give the recipient 3+
intel of one colour (black included, §11.10), it goes into your hand instead."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class YiHuaJieMu(Skill):
    id = "yi_hua_jie_mu"
    zh = "移花接木"
    kind = "contest"
    flip = True

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.push(Frame("spy_card", seat=seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.stage == 0:
            if fr.answer:
                fr.card = fr.answer.pick
                fr.answer = None
                fr.stage = 1
            else:
                intel = sorted(c for s in g.living() for c in st.seats[s].intel)
                if not intel:
                    st.stack.pop()
                    return
                g.ask(fr.seat, "choose", "prompt.choose.zh_choose_intel_move", [choose(m) for m in intel],
                      args={"zh": "移花接木"})
                return
        owner = next(i for i, p in enumerate(st.seats) if fr.card in p.intel)
        if not fr.answer:
            g.ask(fr.seat, "choose", "prompt.choose.zh_into_whose_intel_area",
                  [choose(s) for s in g.living() if s != owner], args={"zh": "移花接木"})
            return
        to = fr.given().pick
        st.stack.pop()
        m = fr.card
        st.seats[owner].intel.remove(m)
        if any(deck.count(st.seats[to].intel, c) + 1 >= 3 for c in deck.colors(m)):
            st.seats[fr.seat].hand.append(m)
            g.log("take.takes_intel_cards_into_hand", fr.seat, {"seat": fr.seat, "cards": (m,)}, cards=(m,))
        else:
            place(g, to, m)


SKILLS[YiHuaJieMu.id] = YiHuaJieMu()
