"""王富贵 wang_fu_gui (spy digest §9): 江湖令 — after you send an intel, you may declare a
colour; this turn, when the intel is received, you may discard one intel of that colour
from the receiver's intel area (the new one included); if it was black, draw 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.marks import add, find
from engine.state import Frame

from .. import deck
from ..marks import Declared
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JiangHuLing(Skill):
    id = "jiang_hu_ling"
    zh = "江湖令"
    kind = "trigger"
    windows = ("sent", "received")

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        st = g.state
        if ev.name == "sent":
            return [use_skill(self.id, options=(c,)) for c in deck.COLORS_ALL] if ev.seat == seat else []
        colors = {m.color for m in find(st, Declared) if m.seat == seat}
        if ev.sender != seat or not colors:
            return []
        intel = st.seats[ev.seat].intel
        return [use_skill(self.id, on=m) for m in sorted(intel) if colors & set(deck.colors(m))]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        st = g.state
        if action.options:
            add(st, Declared(fr.seat, action.option))
            g.log("declare.declares_id", fr.seat, {"seat": fr.seat, "id": action.option})
            return
        m = action.on
        st.seats[fr.index].intel.remove(m)
        g.discard_card(m)
        g.log("discard.discards_intel_card", fr.seat, {"seat": fr.seat, "card": m}, cards=(m,))
        if deck.IS_BLACK[m]:
            g.draw(fr.seat, 1)


SKILLS[JiangHuLing.id] = JiangHuLing()
