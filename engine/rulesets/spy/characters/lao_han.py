"""老汉 lao_han (spy digest §9): 视死 — after you receive a black intel, draw 2 (not when an
intel is merely placed); 如归 — before you die, you may move one intel from your intel
area into the turn player's (it does not save you)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class ShiSi(Skill):
    id = "shi_si"
    zh = "视死"
    kind = "trigger"
    windows = ("received",)
    forced = True

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.seat == seat and deck.IS_BLACK[ev.card] else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        g.draw(fr.seat, 2)


class RuGui(Skill):
    id = "ru_gui"
    zh = "如归"
    kind = "trigger"
    windows = ("before_death",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        st = g.state
        if ev.seat != seat or st.turn == seat or not st.seats[st.turn].alive:
            return []
        return [use_skill(self.id, on=m) for m in sorted(st.seats[seat].intel)]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        st = g.state
        card = action.on
        st.seats[fr.seat].intel.remove(card)
        st.seats[st.turn].intel.append(card)
        g.log("place.card_moved_into_seat_intel", fr.seat, {"card": card, "seat": st.turn}, cards=(card,),
              seats=(st.turn,))


SKILLS[ShiSi.id] = ShiSi()
SKILLS[RuGui.id] = RuGui()
