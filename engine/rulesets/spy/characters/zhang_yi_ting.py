"""张一挺 zhang_yi_ting (spy digest §9): 强令 — after you send an intel, and again after you
choose to receive one, you may name up to 2 card names; for the rest of this turn nobody
may use those cards from hand (counts-as uses such as 偷天 are not barred)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.marks import add
from engine.state import Frame

from .. import deck
from ..marks import Barred
from ..skills import SKILLS, Event, Skill

if TYPE_CHECKING:
    from engine.game import Game


class QiangLing(Skill):
    id = "qiang_ling"
    zh = "强令"
    kind = "trigger"
    windows = ("sent", "accepted")

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        if ev.seat != seat:
            return []
        names = sorted(deck.FUNCTIONS)
        return ([use_skill(self.id, options=(n,)) for n in names]
                + [use_skill(self.id, options=(a, b)) for a, b in combinations(names, 2)])

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        for name in action.options:
            add(g.state, Barred(name))
        g.log("barred.bars_ids_this_turn", fr.seat, {"seat": fr.seat, "ids": tuple(action.options)})


SKILLS[QiangLing.id] = QiangLing()
