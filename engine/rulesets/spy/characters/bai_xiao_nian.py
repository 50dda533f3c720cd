"""白小年 bai_xiao_nian (spy digest §9): 转交 — after you use a hand card (once it has
resolved), you may move one non-black intel from your intel area into another player's,
then draw 2; not allowed if it would give anyone 3+ intel of one colour."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class ZhuanJiao(Skill):
    id = "zhuan_jiao"
    zh = "转交"
    kind = "trigger"
    windows = ("used_card",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        st = g.state
        if ev.seat != seat:
            return []
        out: list[Action] = []
        for s in g.living():
            if s == seat:
                continue
            for m in sorted(st.seats[seat].intel):
                if deck.IS_BLACK[m]:
                    continue
                if all(deck.count(st.seats[s].intel, c) + 1 < 3 for c in deck.colors(m)):
                    out.append(use_skill(self.id, s, on=m))
        return out

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        to, m = action.target, action.on
        g.state.seats[fr.seat].intel.remove(m)
        place(g, to, m)
        g.draw(fr.seat, 2)


SKILLS[ZhuanJiao.id] = ZhuanJiao()
