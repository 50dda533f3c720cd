"""毛不拔 mao_bu_ba (spy digest §9): 奇货可居 — after you receive a dual-colour intel, you may
take one intel from your intel area (it may be that one) into your hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class QiHuoKeJu(Skill):
    id = "qi_huo_ke_ju"
    zh = "奇货可居"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        if ev.seat != seat or not deck.IS_DUAL[ev.card]:
            return []
        return [use_skill(self.id, on=m) for m in sorted(g.state.seats[seat].intel)]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        p = g.state.seats[fr.seat]
        m = action.on
        p.intel.remove(m)
        p.hand.append(m)
        g.log("take.takes_intel_cards_into_hand", fr.seat, {"seat": fr.seat, "cards": (m,)}, cards=(m,))


SKILLS[QiHuoKeJu.id] = QiHuoKeJu()
