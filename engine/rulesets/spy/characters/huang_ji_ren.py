"""黄济仁 huang_ji_ren (hidden; spy digest §9): 对症下药 — contest, flip, draw 3; then you may
show 2 hand cards that share a colour and discard one intel of that colour from any
player's intel area."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import PASS, Action, choose
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class DuiZhengXiaYao(Skill):
    id = "dui_zheng_xia_yao"
    zh = "对症下药"
    kind = "contest"
    flip = True

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.draw(seat, 3)
        g.push(Frame("spy_card", seat=seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        intel = sorted(c for s in g.living() for c in st.seats[s].intel)
        if fr.stage == 0:
            if fr.answer:
                action, fr.answer = fr.answer, None
                if action == PASS:
                    st.stack.pop()
                    return
                shown = list(action.picks)
                fr.cards = shown
                fr.order = [deck.COLORS_ALL.index(c) for c in deck.colors(shown[0]) if c in deck.colors(shown[1])]
                g.log("show.shows_cards", fr.seat, {"seat": fr.seat, "cards": tuple(shown[:2])}, cards=tuple(shown))
                fr.stage = 1
            else:
                hand = sorted(st.seats[fr.seat].hand)
                pairs = [choose(a, b) for a, b in combinations(hand, 2)
                         if set(deck.colors(a)) & set(deck.colors(b))
                         and any(set(deck.colors(m)) & set(deck.colors(a)) & set(deck.colors(b)) for m in intel)]
                if not pairs:
                    st.stack.pop()
                    return
                g.ask(fr.seat, "choose", "prompt.choose.zh_show_n_hand_cards", [PASS, *pairs],
                      args={"zh": "对症下药", "n": 2})
                return
        colors = {deck.COLORS_ALL[i] for i in fr.order}
        if fr.answer:
            m = fr.answer.pick
            st.stack.pop()
            for p in st.seats:
                if m in p.intel:
                    p.intel.remove(m)
            g.discard_card(m)
            g.log("discard.discards_intel_card", fr.seat, {"seat": fr.seat, "card": m}, cards=(m,))
            return
        options = [choose(m) for m in intel if colors & set(deck.colors(m))]
        if not options:
            st.stack.pop()
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_discard_intel_that_colour", options, args={"zh": "对症下药"})


SKILLS[DuiZhengXiaYao.id] = DuiZhengXiaYao()
