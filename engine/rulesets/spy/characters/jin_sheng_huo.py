"""金生火 jin_sheng_huo (spy digest §9): 谨慎 — after you receive a dual-colour intel, you may
swap one hand card with it: the hand card goes face up into your intel area, the intel
into your hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JinShen(Skill):
    id = "jin_shen"
    zh = "谨慎"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        p = g.state.seats[seat]
        if ev.seat != seat or not deck.IS_DUAL[ev.card] or ev.card not in p.intel:
            return []
        return [use_skill(self.id, cards=(c,)) for c in sorted(p.hand)]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        p = g.state.seats[fr.seat]
        card = action.cards[0]
        p.intel.remove(fr.card)
        p.hand.remove(card)
        p.hand.append(fr.card)
        g.log("take.takes_intel_cards_into_hand", fr.seat, {"seat": fr.seat, "cards": (fr.card,)}, cards=(fr.card,))
        place(g, fr.seat, card)


SKILLS[JinShen.id] = JinShen()
