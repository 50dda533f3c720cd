"""王魁 wang_kui (spy digest §9): 以牙还牙 — after you receive a black intel, you may put one
black hand card into the intel area of the sender or of the sender's left-hand or
right-hand neighbour, then draw 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class YiYaHuanYa(Skill):
    id = "yi_ya_huan_ya"
    zh = "以牙还牙"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        sender = ev.sender
        if ev.seat != seat or not deck.IS_BLACK[ev.card] or sender < 0:
            return []
        n = g.state.players
        targets = sorted({s for s in (sender, (sender - 1) % n, (sender + 1) % n) if g.state.seats[s].alive})
        blacks = sorted(c for c in g.state.seats[seat].hand if deck.IS_BLACK[c])
        return [use_skill(self.id, s, cards=(c,)) for s in targets for c in blacks]

    def asked(self, g: Game, seat: int, ev: Event) -> bool:
        return ev.seat == seat and deck.IS_BLACK[ev.card] and ev.sender >= 0 \
            and bool(g.state.seats[seat].hand)

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        to, card = action.target, action.cards[0]
        g.state.seats[fr.seat].hand.remove(card)
        place(g, to, card)
        g.draw(fr.seat, 1)


SKILLS[YiYaHuanYa.id] = YiYaHuanYa()
