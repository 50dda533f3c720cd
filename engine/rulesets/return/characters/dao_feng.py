"""刀锋: 杀意【隐藏】 and 亮剑【暴露】 (rulebook p.14; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame, Item

from ..characters.base import Mission, Skill
from ..transit import move_to

if TYPE_CHECKING:
    from engine.game import Game

#: The cards whose use on 刀锋 triggers 杀意 (离间 by the ``targeted`` window).
SHA_YI_CARDS = ("probe", "lock", "danger")


class ShaYi(Skill):
    """杀意【隐藏】: when another player uses 试探, 锁定, 离间 or 危险情报 on you, hide and draw
    1. "When used" means regardless of the outcome; the card drawn cannot join the current
    chain (p.14 note). A 离间 that moves a card onto you counts (digest §11.17); so does
    being the second target of 核燃机体's 危险情报. Windows ``card_used``, ``targeted``."""

    id = "sha_yi"
    zh = "杀意"
    state = "hide"
    windows = ("card_used", "targeted")

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if not ev.cards or not 0 <= ev.cards[0] < len(st.chain):
            return []
        item = st.chain[ev.cards[0]]
        if item.user == seat:
            return []
        if ev.text == "card_used":
            on_me = item.kind in SHA_YI_CARDS and (item.target == seat or seat in item.targets)
        else:  # targeted: ``item`` is the 离间 that moved a card onto ev.seat
            on_me = item.kind == "sow_discord" and ev.seat == seat
        return [use_skill(self.id)] if on_me else []

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if g.state.seats[item.user].alive:
            item.done = True
            g.draw(item.user, 1)
        return True


class LiangJian(Skill):
    """亮剑【暴露】: outside your turn, when the intel reaches you, expose and turn the
    travelling intel face up, then pass it to another player, who cannot decline (p.14
    ②). Not on an intel already face up (①); not when an effect made you receive it
    directly (③: no arrival). 刀锋 becomes the intel's user for kill credit, as with 转移;
    the named player's arrival is a forced one like 转移's (docs/rule-decisions.md)."""

    id = "liang_jian"
    zh = "亮剑"
    state = "expose"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        t = st.transit
        if ctx != "arrive" or t is None or t.holder != seat or t.face_up or st.turn == seat:
            return []
        return [use_skill(self.id, s) for s in g.living() if s != seat]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        t = g.state.transit
        item.on = t.card if t is not None else 0

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        t = st.transit
        if t is None or t.holder != item.user or t.card != item.on or not st.seats[item.target].alive:
            return True
        item.done = True
        t.face_up = True
        t.user = item.user
        g.log("reveal_intel.turns_intel_face_up_card", item.user, {"seat": item.user, "card": t.card}, cards=(t.card,))
        g.log("transfer.passes_intel_seat_zh", item.user, {"seat": item.user, "seat2": item.target, "zh": '亮剑'})
        move_to(g, item.target, forced=True)
        return True


def neighbours_then(g: Game, seat: int, index: int) -> tuple[int, int]:
    """``seat``'s left- and right-hand living neighbours at the moment of kill ``index``:
    the living now, plus everyone who died in that kill or later (digest §11.14)."""
    st = g.state
    alive = {s for s, p in enumerate(st.seats) if p.alive} | {k.dead for k in st.kills[index:]} | {seat}
    n = st.players

    def step(d: int) -> int:
        s = seat
        for _ in range(n):
            s = (s + d) % n
            if s in alive:
                return s
        return seat

    return step(-1), step(1)


class DaoFengMission(Mission):
    """Kill your left-hand or right-hand neighbour by your own hand (the living neighbours
    at the moment of the kill, digest §11.14)."""

    def done(self, g: Game, seat: int) -> bool:
        return any(seat in k.killers and k.dead != seat and k.dead in neighbours_then(g, seat, i)
                   for i, k in enumerate(g.state.kills))


SKILLS = (ShaYi(), LiangJian())
MISSION = DaoFengMission()
