"""老鳖 lao_bie (spy digest §9): 联络 (passive, in the send actions) — treat the arrow as
←, → or ↑; 明饵 — after a red or blue intel you sent is received, you and the receiver
each draw 1 (2 for you if you received it yourself)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class LianLuo(Skill):
    """联络 (passive): when you send an intel you may treat its arrow as ←, → or ↑."""

    id = "lian_luo"
    zh = "联络"

    def any_arrow(self, g: Game, seat: int) -> bool:
        return True


class MingEr(Skill):
    id = "ming_er"
    zh = "明饵"
    kind = "trigger"
    windows = ("received",)
    forced = True

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.sender == seat and deck.IS_TRUE[ev.card] else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        receiver = fr.index
        if receiver == fr.seat:
            g.draw(fr.seat, 2)
            return
        g.draw(fr.seat, 1)
        if g.state.seats[receiver].alive:
            g.draw(receiver, 1)


SKILLS[LianLuo.id] = LianLuo()
SKILLS[MingEr.id] = MingEr()
