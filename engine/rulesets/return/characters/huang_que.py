"""黄雀: 潜藏伏击【隐藏】 and 黄雀在后【暴露】 (rulebook p.13–14; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame, Item

from .. import deck
from ..characters.base import HandCardAsIntel, Mission, Skill, kills_by, take_random

if TYPE_CHECKING:
    from engine.game import Game

CAUSE = "huang_que_zai_hou"


class QianCangFuJi(Skill):
    """潜藏伏击【隐藏】: at your turn end, if another player has more than 3 hand cards, hide,
    then take 1 card from that player (more than 4: 2). One player only; turn end comes
    after the discard (p.14 ①②)."""

    id = "qian_cang_fu_ji"
    zh = "潜藏伏击"
    state = "hide"
    windows = ("turn_end",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat != seat:
            return []
        return [use_skill(self.id, s) for s, p in enumerate(st.seats) if s != seat and p.alive and len(p.hand) > 3]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        target = g.state.seats[item.target]
        n = 2 if len(target.hand) > 4 else 1 if len(target.hand) > 3 else 0
        if n and target.alive and g.state.seats[item.user].alive:
            item.done = True
            take_random(g, item.user, item.target, n)
        return True


class HuangQueZaiHou(HandCardAsIntel):
    """黄雀在后【暴露】: outside your turn, when another player successfully receives a true
    intel, expose, then a fake intel from your hand is successfully received by a player
    you choose. No window remains when that receipt already won the game (p.14)."""

    id = "huang_que_zai_hou"
    zh = "黄雀在后"
    state = "expose"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if seat == st.turn or ev.seat == seat or not any(deck.IS_TRUE[c] for c in ev.cards or [ev.card]):
            return []
        fakes = sorted({c for c in st.seats[seat].hand if deck.IS_BLACK[c]})
        return [use_skill(self.id, s, cards=(c,)) for c in fakes for s in g.living()]


class HuangQueMission(Mission):
    """Kill a player with 黄雀在后."""

    def done(self, g: Game, seat: int) -> bool:
        return any(cause == CAUSE for _, cause, _, _ in kills_by(g, seat))


SKILLS = (QianCangFuJi(), HuangQueZaiHou())
MISSION = HuangQueMission()
