"""鄭文先 zheng_wen_xian (hidden; spy digest §9): 偷天 — contest, flip: counts as using a 截获
(no card); 换日 — after you use 调包 or 破译, you may turn your character face down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame

from ..cards import move_pending
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class TouTian(Skill):
    id = "tou_tian"
    zh = "偷天"
    kind = "contest"
    flip = True

    def use(self, g: Game, seat: int, action: Action) -> None:
        move_pending(g, seat, seat, "偷天")


class HuanRi(Skill):
    id = "huan_ri"
    zh = "换日"
    kind = "trigger"
    windows = ("used_card",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.seat == seat and ev.function in ("swap", "decrypt") else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        g.state.seats[fr.seat].exposed = False
        g.log("flip_down.turns_character_face_down", fr.seat, {"seat": fr.seat}, seats=(fr.seat,))


SKILLS[TouTian.id] = TouTian()
SKILLS[HuanRi.id] = HuanRi()
