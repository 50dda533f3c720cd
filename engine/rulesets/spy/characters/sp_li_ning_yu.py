"""李宁玉(SP) sp_li_ning_yu (spy digest §9): 应变 (passive, in the contest actions) — your
截获 may be used as 误导; 诱导 — after you use a 误导 (including a 截获 used as one), draw 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class YingBian(Skill):
    """应变 (passive): your 截获 may be used as 误导."""

    id = "ying_bian"
    zh = "应变"

    def usable_as(self, g: Game, seat: int, function: str) -> tuple[str, ...]:
        return ("mislead",) if function == "intercept" else ()


class YouDao(Skill):
    id = "you_dao"
    zh = "诱导"
    kind = "trigger"
    windows = ("used_card",)
    forced = True

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.seat == seat and ev.function == "mislead" else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        g.draw(fr.seat, 1)


SKILLS[YingBian.id] = YingBian()
SKILLS[YouDao.id] = YouDao()
