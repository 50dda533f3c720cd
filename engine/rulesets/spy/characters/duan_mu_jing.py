"""端木静 duan_mu_jing (spy digest §9): 新思潮 — once per play phase, discard 1 hand card,
then draw 2."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill

from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class XinSiChao(Skill):
    id = "xin_si_chao"
    zh = "新思潮"
    kind = "main"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, cards=(c,)) for c in sorted(g.state.seats[seat].hand)]

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.discard_from_hand(seat, [action.cards[0]])
        g.draw(seat, 2)


SKILLS[XinSiChao.id] = XinSiChao()
