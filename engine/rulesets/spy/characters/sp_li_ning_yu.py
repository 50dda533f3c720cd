"""李宁玉(SP) sp_li_ning_yu (spy digest §9): 应变 (passive, in the contest actions) — your
截获 may be used as 误导; 诱导 — after you use a 误导 (including a 截获 used as one), draw 1."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.action import Action
from engine.state import Frame

from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class YouDao(Skill):
    id = "you_dao"
    zh = "诱导"
    kind = "trigger"
    events = ("used_card",)
    forced = True

    def offers(self, g: Game, seat: int, event: str, kw: dict[str, Any]) -> list[str]:
        return [f"skill {self.id}"] if kw["seat"] == seat and kw["function"] == "mislead" else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        g.draw(fr.seat, 1)


SKILLS[YouDao.id] = YouDao()
