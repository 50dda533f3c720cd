"""老鳖 lao_bie (spy digest §9): 联络 (passive, in the send actions) — treat the arrow as
←, → or ↑; 明饵 — after a red or blue intel you sent is received, you and the receiver
each draw 1 (2 for you if you received it yourself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.action import Action
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class MingEr(Skill):
    id = "ming_er"
    zh = "明饵"
    kind = "trigger"
    events = ("received",)
    forced = True

    def offers(self, g: Game, seat: int, event: str, kw: dict[str, Any]) -> list[str]:
        return [f"skill {self.id}"] if kw["sender"] == seat and deck.IS_TRUE[kw["card"]] else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        receiver = fr.index
        if receiver == fr.seat:
            g.draw(fr.seat, 2)
            return
        g.draw(fr.seat, 1)
        if g.state.seats[receiver].alive:
            g.draw(receiver, 1)


SKILLS[MingEr.id] = MingEr()
