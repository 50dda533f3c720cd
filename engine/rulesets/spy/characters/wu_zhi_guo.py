"""吴志国 wu_zhi_guo (spy digest §9): 坚韧 — after you receive a black intel, you may show the
top card of the pile; if it is black, take it into your hand and discard one black intel
from any player's intel area; otherwise it stays on top."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JianRen(Skill):
    id = "jian_ren"
    zh = "坚韧"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.seat == seat and deck.IS_BLACK[ev.card] else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        st = g.state
        top = g.take_pile_top()
        if not top:
            return
        g.log("reveal.shows_pile_top_card", fr.seat, {"seat": fr.seat, "card": top}, cards=(top,))
        if not deck.IS_BLACK[top]:
            st.pile.append(top)
            return
        st.seats[fr.seat].hand.append(top)
        g.push(Frame("spy_card", seat=fr.seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.answer:
            m = fr.answer.pick
            st.stack.pop()
            for p in st.seats:
                if m in p.intel:
                    p.intel.remove(m)
            g.discard_card(m)
            g.log("discard.discards_intel_card", fr.seat, {"seat": fr.seat, "card": m}, cards=(m,))
            return
        options = [choose(m) for s in g.living() for m in sorted(st.seats[s].intel) if deck.IS_BLACK[m]]
        if not options:
            st.stack.pop()
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_discard_black_intel", options, args={"zh": "坚韧"})


SKILLS[JianRen.id] = JianRen()
