"""浮萍: 先机后置 and 牺牲 (rulebook p.9; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..characters.base import Mission, Skill, receipt
from ..rules import check_victory, true_count

if TYPE_CHECKING:
    from engine.game import Game

XIAN_JI = "xian_ji_hou_zhi"


class XianJiHouZhi(Skill):
    """先机后置: one of two. At your turn start, change the draw to 4, but at your turn end
    discard your whole hand; or keep the draw and at your turn end you may draw 1. Turn
    end comes after the discard step (p.9 先机后置 note).

    ``skill xian_ji_hou_zhi choose four`` at turn start (before the draw) takes the first
    option; passing keeps the draw. At the turn end: ``choose discard`` (the whole hand;
    forced) after the first option, else ``choose draw`` (draw 1, optional)."""

    id = XIAN_JI
    zh = "先机后置"
    windows = ("turn_end",)

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        first = ctx == "turn_start" and st.turn == seat and not marks.has(st, marks.XianJiFour())
        return [use_skill(self.id, options=("four",))] if first else []

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat != seat or st.turn != seat:
            return []
        if marks.has(st, marks.XianJiFour()):
            return [use_skill(self.id, options=("discard",))] if st.seats[seat].hand else []
        return [use_skill(self.id, options=("draw",))]

    def forced_at(self, g: Game, seat: int, ev: Frame) -> bool:
        return ev.text == "turn_end" and marks.has(g.state, marks.XianJiFour())

    def on_use(self, g: Game, item: Item) -> None:
        st = g.state
        if item.code == "four":
            # Turn start: the draw becomes 4 (read by flow.turn_draw_count).
            marks.add(st, marks.DrawSet(4))
            marks.add(st, marks.XianJiFour())
            g.log("xian_ji_hou_zhi.draws_n_this_turn_discards", item.user, {"seat": item.user, "n": 4})

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        p = g.state.seats[item.user]
        if not p.alive:
            return True
        if item.code == "discard":
            if p.hand:
                item.done = True
                g.discard_from_hand(item.user, sorted(p.hand))
        elif item.code == "draw":
            item.done = True
            g.draw(item.user, 1)
        else:
            item.done = True
        return True


class XiSheng(Skill):
    """牺牲: when the turn player, another player, successfully receives a fake intel, you
    may receive it successfully in their place, then draw 2. The receiver becomes 浮萍 at
    once: triggers aimed at "the receiver" now point at 浮萍, those aimed at the original
    receiver lapse (p.9 牺牲 note). Used in the pre-receipt window: the receipt's ``after``
    frame is re-pointed, so its deaths, 公开文本 action and receipt window concern 浮萍."""

    id = "xi_sheng"
    zh = "牺牲"
    windows = ("pre_received",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        fr = receipt(g)
        if fr is None or ev.seat == seat or ev.seat != st.turn or fr.seat != ev.seat:
            return []
        cards = ev.cards or [ev.card]
        if not any(deck.IS_BLACK[c] for c in cards) or not all(c in st.seats[ev.seat].intel for c in cards):
            return []
        return [use_skill(self.id, ev.seat)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        after = receipt(g)
        me = st.seats[item.user]
        if after is None or after.seat != item.target or not me.alive:
            return True
        cards = after.cards or [after.card]
        src = st.seats[item.target]
        if not all(c in src.intel for c in cards):
            return True
        item.done = True
        for c in cards:
            src.intel.remove(c)
            me.intel.append(c)
        after.seat = item.user
        g.log("received.receives_cards_in_place_seat", item.user,
              {"seat": item.user, "cards": tuple(cards), "seat2": item.target, "zh": "牺牲"}, cards=cards)
        g.draw(item.user, 2)
        check_victory(g)
        return True


class FuPingMission(Mission):
    """At your death, hold 3 true intel (summary: 死亡時存有三張真情報)."""

    when = "death"

    def done(self, g: Game, seat: int) -> bool:
        return true_count(g.state.seats[seat].intel) >= 3


SKILLS = (XianJiHouZhi(), XiSheng())
MISSION = FuPingMission()
