"""白菲菲 bai_fei_fei (spy digest §9): 怜悯 — after a non-black intel you sent is received,
you may take one black intel from your own or the receiver's intel area into your hand;
腹黑 — after a black intel you sent is received, draw 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class LianMin(Skill):
    id = "lian_min"
    zh = "怜悯"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        if ev.sender != seat or deck.IS_BLACK[ev.card]:
            return []
        st = g.state
        areas = {seat, ev.seat}
        return [use_skill(self.id, on=m) for s in sorted(areas) for m in sorted(st.seats[s].intel)
                if deck.IS_BLACK[m]]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        st = g.state
        card = action.on
        for p in st.seats:
            if card in p.intel:
                p.intel.remove(card)
        st.seats[fr.seat].hand.append(card)
        g.log("take.takes_intel_cards_into_hand", fr.seat, {"seat": fr.seat, "cards": (card,)}, cards=(card,))


class FuHei(Skill):
    id = "fu_hei"
    zh = "腹黑"
    kind = "trigger"
    windows = ("received",)
    forced = True

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.sender == seat and deck.IS_BLACK[ev.card] else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        g.draw(fr.seat, 1)


SKILLS[LianMin.id] = LianMin()
SKILLS[FuHei.id] = FuHei()
